/* liboffline_mesh: helpers shared by the library's own files (not public).
 * SPDX-License-Identifier: MIT */
#ifndef OFFLINE_MESH_INTERNAL_H
#define OFFLINE_MESH_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offline_mesh.h"
#include "util/util.h"

#if defined(__GNUC__) || defined(__clang__)
#  define OMI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#  define OMI_PRINTF(f, a)
#endif

/* Largest value of a size or rank: 2^31-1. */
#define OMI_MAX_INT32 INT64_C(2147483647)

/* ---- allocation (alloc.c, over src/util/alloc.c): every library
 * allocation goes through here so a test build can make the n-th one
 * fail. ---- */
void *omi_malloc(size_t size);
void *omi_realloc(void *ptr, size_t size);
void omi_free(void *ptr);

#ifdef OM_ALLOC_FAILURE_INJECTION
/* Test builds only: fail the allocation after `n` more succeed (n < 0:
 * never fail); returns how many allocations were made since the last call. */
long omi_alloc_fail_after(long n);
#endif

/* ---- errors (status.c) ---- */
/* Fills `err` (if not NULL) with `status` and a printf-style message, and
 * returns `status`, so callers can `return omi_fail(err, ...)`. */
om_status omi_fail(om_error *err, om_status status, const char *fmt, ...)
    OMI_PRINTF(3, 4);
/* Adds "<prefix>: " in front of an already filled message. */
void omi_prefix_error(om_error *err, const char *prefix);
/* Adds the file name (its last 100 bytes, escaped) in front of a failed
 * file call's message; out-of-memory messages stay as they are. */
void omi_prefix_path(om_error *err, om_status status, const char *path);

/* ---- text (text.c) ---- */
/* True when s[0..len) is well-formed UTF-8 (no overlongs, no surrogates). */
bool omi_utf8_valid(const char *s, size_t len);
/* Length (1-4) of the well-formed UTF-8 sequence starting at s, or 0. */
size_t omi_utf8_sequence(const char *s, size_t avail);
/* Makes a NUL-terminated string valid UTF-8 in place: a sequence cut off
 * at the end is dropped, any other invalid byte becomes '?'. */
void omi_utf8_repair(char *s);
/* Writes s[0..len) into buf as a double-quoted C-style literal, escaping
 * non-printable and non-UTF-8 bytes as \xNN and shortening it to fit with
 * "..." (never inside a UTF-8 sequence), so messages stay valid UTF-8. */
void omi_quote(char *buf, size_t bufsize, const char *s, size_t len);
/* Splits text at `sep`; calls `fn` for each item with leading/trailing
 * spaces and tabs removed. Stops at the first non-OK status. */
typedef om_status (*omi_item_fn)(const char *item, size_t len, size_t index,
                                 void *ctx, om_error *err);
om_status omi_split(const char *text, char sep, omi_item_fn fn, void *ctx,
                    om_error *err);
/* Parses a whole string as a decimal integer ([+-]?[0-9]+, no spaces);
 * false when it is not one. Values beyond int64 saturate at
 * INT64_MIN/INT64_MAX (still reported as true). */
bool omi_parse_decimal(const char *s, size_t len, int64_t *value);

/* ---- JSON writing (json_write.c, over src/util/) ---- */
/* The library's growable output buffer is the utility layer's string
 * builder; after a failed allocation every put is a no-op and
 * omi_buf_finish() reports OM_ERR_NO_MEMORY. Start it zeroed. */
typedef omu_str omi_buf;
static inline void omi_buf_put(omi_buf *buf, const char *data, size_t len)
{
    omu_str_put(buf, data, len);
}
static inline void omi_buf_puts(omi_buf *buf, const char *text)
{
    omu_str_puts(buf, text);
}
static inline void omi_buf_int(omi_buf *buf, int64_t value)
{
    omu_str_int(buf, value);
}
/* A JSON string as Python's json.dumps writes it (ASCII only). */
static inline void omi_buf_json_string(omi_buf *buf, const char *s, size_t len)
{
    omu_str_json_string(buf, s, len);
}
/* Hands the text to the caller (om_string_free()) or reports the failure. */
om_status omi_buf_finish(omi_buf *buf, char **out, om_error *err);

/* ---- bulk outputs (output.c) ---- */
/* Applies the bulk-output rule of topology.h to a result of `count`
 * elements: stores `count` in *needed (when given); OM_OK with *fill false
 * for a size query (out NULL, out_len 0, needed given) or an empty result;
 * OM_ERR_BUFFER_TOO_SMALL when out_len < count; OM_ERR_INVALID_ARGUMENT for
 * a NULL buffer that claims a length. *fill tells the caller to write. */
om_status omi_check_output(const void *out, size_t out_len, size_t count,
                           size_t *needed, bool *fill, om_error *err);

/* ---- dims internals (dims.c, dims_world_size.c) ---- */
struct om_dims {
    int64_t sizes[OM_DIM_COUNT];
    bool flags[OM_FLAG_COUNT];
    bool dp_given;                 /* dp set by the caller or the YAML */
    int64_t world_size;            /* last one applied; 0 when none */
    om_world_size_source world_source;
};

/* ---- mesh internals (mesh.c) ---- */
struct om_mesh {
    size_t ndim;
    int64_t size;       /* product of sizes */
    uint64_t hash;
    char **names;       /* ndim NUL-terminated names */
    size_t *name_lens;  /* their lengths */
    int64_t *sizes;     /* ndim sizes */
    int64_t *strides;   /* row-major strides: strides[ndim-1] == 1 */
};

/* Creates a mesh from names with known lengths; validates everything. */
om_status omi_mesh_create(const char *const *names, const size_t *name_lens,
                          const int64_t *sizes, size_t ndim, om_mesh **out,
                          om_error *err);
/* Index of the axis with this name, or -1. */
int omi_mesh_find(const om_mesh *mesh, const char *name, size_t len);

#endif /* OFFLINE_MESH_INTERNAL_H */
