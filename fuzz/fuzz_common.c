/* Shared checks of the libFuzzer targets.
 * SPDX-License-Identifier: MIT */
#include "fuzz_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fuzz_fail(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fputs("invariant broken: ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
    abort();
}

bool fuzz_utf8_valid(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        unsigned c = p[i];
        size_t n;
        uint32_t cp, min;
        if (c < 0x80) {
            i++;
            continue;
        }
        if ((c & 0xE0) == 0xC0) { n = 1; cp = c & 0x1F; min = 0x80; }
        else if ((c & 0xF0) == 0xE0) { n = 2; cp = c & 0x0F; min = 0x800; }
        else if ((c & 0xF8) == 0xF0) { n = 3; cp = c & 0x07; min = 0x10000; }
        else return false;
        if (len - i < n + 1)
            return false;
        for (size_t k = 1; k <= n; k++) {
            if ((p[i + k] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += n + 1;
    }
    return true;
}

void fuzz_check_error(const char *call, om_status st, const om_error *err,
                      unsigned allowed)
{
    static int allow_non_utf8 = -1;
    if (allow_non_utf8 < 0)
        allow_non_utf8 = getenv("OM_FUZZ_ALLOW_NON_UTF8_MESSAGES") != NULL;
    FUZZ_CHECK(st != OM_OK, "%s: fuzz_check_error on success", call);
    FUZZ_CHECK((unsigned)st < 32 && (allowed & FUZZ_BIT(st)),
               "%s: unexpected status %d (%s): %s", call, (int)st,
               om_status_string(st), err->message);
    FUZZ_CHECK(err->status == st, "%s: err->status %d, returned %d", call,
               (int)err->status, (int)st);
    const char *end = memchr(err->message, '\0', sizeof err->message);
    FUZZ_CHECK(end != NULL, "%s: message not NUL-terminated", call);
    FUZZ_CHECK(end != err->message, "%s: empty message for status %d", call,
               (int)st);
    FUZZ_CHECK(allow_non_utf8 ||
                   fuzz_utf8_valid(err->message, (size_t)(end - err->message)),
               "%s: message is not valid UTF-8: %s", call, err->message);
}

static bool spec_can_carry(const char *name, size_t len)
{
    if (strpbrk(name, ",="))
        return false;
    if (name[0] == ' ' || name[0] == '\t' || name[len - 1] == ' ' ||
        name[len - 1] == '\t')
        return false;
    return true;
}

void fuzz_check_mesh(const om_mesh *mesh)
{
    om_error err;
    size_t ndim = om_mesh_ndim(mesh);
    int64_t product = 1;
    bool spec_ok = true;
    for (size_t i = 0; i < ndim; i++) {
        const char *name = om_mesh_name(mesh, i);
        FUZZ_CHECK(name != NULL, "axis %zu has no name", i);
        size_t len = strlen(name);
        FUZZ_CHECK(len > 0, "axis %zu has an empty name", i);
        FUZZ_CHECK(fuzz_utf8_valid(name, len), "axis %zu name is not UTF-8", i);
        int64_t size = om_mesh_dim_size(mesh, i);
        FUZZ_CHECK(size >= 1 && size <= OM_MAX_RANKS, "axis %zu size %lld", i,
                   (long long)size);
        FUZZ_CHECK(om_mesh_index_of(mesh, name) == (int)i,
                   "index_of(axis %zu) = %d", i, om_mesh_index_of(mesh, name));
        FUZZ_CHECK(om_mesh_size_of(mesh, name) == size, "size_of axis %zu", i);
        product *= size;
        FUZZ_CHECK(product <= OM_MAX_RANKS, "product exceeds 2^31-1");
        spec_ok = spec_ok && spec_can_carry(name, len);
    }
    FUZZ_CHECK(om_mesh_name(mesh, ndim) == NULL, "name past the end");
    FUZZ_CHECK(om_mesh_dim_size(mesh, ndim) == 0, "size past the end");
    FUZZ_CHECK(om_mesh_size(mesh) == product, "size %lld != product %lld",
               (long long)om_mesh_size(mesh), (long long)product);

    /* Canonical JSON: parse(to_json(m)) == m, and to_json is a fixpoint. */
    char *json = NULL;
    om_status st = om_mesh_to_json(mesh, &json, &err);
    FUZZ_CHECK(st == OM_OK, "to_json failed: %s", err.message);
    om_mesh *again = NULL;
    st = om_mesh_from_json(json, strlen(json), &again, &err);
    FUZZ_CHECK(st == OM_OK, "canonical JSON %s does not parse: %s", json,
               err.message);
    FUZZ_CHECK(om_mesh_equal(mesh, again), "JSON round trip differs: %s", json);
    FUZZ_CHECK(om_mesh_hash(mesh) == om_mesh_hash(again), "hash differs");
    char *json2 = NULL;
    st = om_mesh_to_json(again, &json2, &err);
    FUZZ_CHECK(st == OM_OK && strcmp(json, json2) == 0,
               "re-serialised JSON differs: %s vs %s", json, json2 ? json2 : "");
    om_string_free(json2);
    om_mesh_free(again);
    om_string_free(json);

    /* Text form: written iff every name can be carried, and read back. */
    char *spec = NULL;
    st = om_mesh_to_spec(mesh, &spec, &err);
    if (!spec_ok) {
        FUZZ_CHECK(st == OM_ERR_INVALID_ARGUMENT && spec == NULL,
                   "to_spec accepted a name it cannot carry (status %d)", (int)st);
        fuzz_check_error("om_mesh_to_spec", st, &err,
                         FUZZ_BIT(OM_ERR_INVALID_ARGUMENT));
        return;
    }
    FUZZ_CHECK(st == OM_OK, "to_spec failed: %s", err.message);
    again = NULL;
    st = om_mesh_from_spec(spec, &again, &err);
    FUZZ_CHECK(st == OM_OK, "spec \"%s\" does not parse: %s", spec, err.message);
    FUZZ_CHECK(om_mesh_equal(mesh, again), "spec round trip differs: %s", spec);
    om_mesh_free(again);
    om_string_free(spec);
}

uint8_t fuzz_take(fuzz_input *in)
{
    if (in->n == 0)
        return 0;
    in->n--;
    return *in->p++;
}
