/* LD_PRELOAD allocator for tests/hardening/cli_alloc_failure.py: counts the
 * heap allocations a whole process makes (malloc, calloc, realloc, and the
 * aligned ones) and, when OM_FAIL_AT=k is set, fails the k-th (0-based)
 * with ENOMEM; every other allocation goes to glibc. With
 * OM_ALLOC_COUNT_FILE=PATH the count is written to PATH at exit. With
 * OM_ALLOC_WINDOWED set, only allocations between om_alloc_window(1) and
 * om_alloc_window(0) count (json_candidates/ probes: the parse alone).
 * SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static long fail_at = -1; /* set by the constructor */
static long counted;
static int windowed, window_open;

void om_alloc_window(int open) { window_open = open; }

static int inject(void)
{
    if (windowed && !window_open)
        return 0;
    if (counted++ == fail_at) {
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

__attribute__((constructor)) static void arm(void)
{
    const char *k = getenv("OM_FAIL_AT");
    counted = 0;
    fail_at = k ? strtol(k, NULL, 10) : -1;
    windowed = getenv("OM_ALLOC_WINDOWED") != NULL;
}

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("OM_ALLOC_COUNT_FILE");
    long total = counted;
    fail_at = -1; /* fopen below allocates */
    if (path) {
        FILE *f = fopen(path, "w");
        if (f) {
            fprintf(f, "%ld\n", total);
            fclose(f);
        }
    }
}

void *malloc(size_t size) { return inject() ? NULL : __libc_malloc(size); }

void *calloc(size_t n, size_t size) { return inject() ? NULL : __libc_calloc(n, size); }

void *realloc(void *ptr, size_t size)
{
    if (ptr && size == 0)
        return __libc_realloc(ptr, 0);
    return inject() ? NULL : __libc_realloc(ptr, size);
}

void *memalign(size_t align, size_t size)
{
    return inject() ? NULL : __libc_memalign(align, size);
}

void *aligned_alloc(size_t align, size_t size) { return memalign(align, size); }

int posix_memalign(void **out, size_t align, size_t size)
{
    void *p = memalign(align, size);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}
