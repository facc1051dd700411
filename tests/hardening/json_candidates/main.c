/* compare.sh's driver: `probe FILE` parses FILE once and prints
 * "ok SUMMARY", "rejected MESSAGE" or "nomem MESSAGE".
 * SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "probe.h"

/* fail_alloc_preload.so's om_alloc_window, when preloaded: only the
 * parse's allocations count. */
static void (*om_alloc_window)(int open);

void probe_parsed(void)
{
    if (om_alloc_window)
        om_alloc_window(0);
}

int main(int argc, char **argv)
{
    static char text[1 << 20], out[512];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f)
        return 3;
    size_t len = fread(text, 1, sizeof text, f);
    fclose(f);
    om_alloc_window = (void (*)(int))dlsym(RTLD_DEFAULT, "om_alloc_window");
    if (om_alloc_window)
        om_alloc_window(1);
    int rc = probe_parse(text, len, out, sizeof out);
    if (om_alloc_window)
        om_alloc_window(0);
    printf("%s %s\n", rc == 0 ? "ok" : rc == 1 ? "rejected" : "nomem", out);
    return 0;
}
