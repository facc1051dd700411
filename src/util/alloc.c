/* Every allocation, in one place, so that a test build can inject failures
 * (meson -Dalloc_failure_injection=true, and tests/test_alloc.c). */
#include <stdlib.h>

#include "util.h"

#ifdef OM_ALLOC_FAILURE_INJECTION
/* Test builds only; documented as not thread-safe. */
static long fail_countdown = -1;
static long allocations_made = 0;

long omu_alloc_fail_after(long n)
{
    long made = allocations_made;
    fail_countdown = n;
    allocations_made = 0;
    return made;
}

static bool should_fail(void)
{
    allocations_made++;
    if (fail_countdown < 0)
        return false;
    if (fail_countdown == 0)
        return true;
    fail_countdown--;
    return false;
}
#else
static bool should_fail(void) { return false; }
#endif

void *omu_malloc(size_t size)
{
    if (should_fail())
        return NULL;
    return malloc(size ? size : 1);
}

void *omu_realloc(void *ptr, size_t size)
{
    if (should_fail())
        return NULL;
    return realloc(ptr, size ? size : 1);
}

void omu_free(void *ptr) { free(ptr); }
