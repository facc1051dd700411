/* Shared by the tests that read recorded launcher vectors (torchrun, Open
 * MPI): loading the JSON and building the anchored regex of a rule.
 * SPDX-License-Identifier: MIT */
#ifndef OM_TEST_LAUNCH_VECTORS_H
#define OM_TEST_LAUNCH_VECTORS_H

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "om_test.h"

/* The JSON at $`env_name`, else at `fallback` (relative to the source tree). */
static inline json_t *launch_vectors_load(const char *env_name, const char *fallback)
{
    const char *path = getenv(env_name);
    json_error_t error;
    json_t *doc = json_load_file(path ? path : fallback, 0, &error);
    OM_EXPECT(doc != NULL);
    return doc;
}

/* Appends `s` to `out` with the regex metacharacters escaped. */
static inline void launch_vectors_append_literal(char *out, size_t cap,
                                                 const char *s, size_t n)
{
    size_t len = strlen(out);
    for (size_t i = 0; i < n && len + 2 < cap; i++) {
        if (strchr(".[]()*+?^$|\\{}", s[i]))
            out[len++] = '\\';
        out[len++] = s[i];
    }
    out[len] = '\0';
}

#endif
