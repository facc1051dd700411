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
/* Up to this many axes, names are compared pairwise (the usual 1-6 axes);
 * beyond it they are sorted, so 10^5 size-1 axes cost O(n log n). */
#define OMI_NAME_INDEX_MIN 32

/* ---- allocation and error reports: the utility layer's (util/util.h:
 * every allocation goes through omu_malloc, so a test build can make the
 * n-th one fail; omu_fail fills an om_error) under the library's names,
 * one definition each. ---- */
#define omi_malloc omu_malloc
#define omi_realloc omu_realloc
#define omi_free omu_free
#define omi_fail omu_fail

#ifdef OM_ALLOC_FAILURE_INJECTION
/* Test builds only (src/alloc.c, a function: test programs and the Python
 * binding's test build call it by this name): omu_alloc_fail_after(). */
long omi_alloc_fail_after(long n);
#endif

/* Message prefixes (util/error.c): "<prefix>: " and a file's path. */
#define omi_prefix_error omu_prefix_error
#define omi_prefix_path omu_prefix_path

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
/* One "name=size" item of a spec as omi_split() gives it (mesh specs,
 * hierarchy specs): the name is item[0..*name_len) without the blanks
 * before '=', the size the decimal after it without the blanks after '='.
 * The other results say what is wrong, for the caller's message. */
typedef enum {
    OMI_NAME_SIZE_OK,
    OMI_NAME_SIZE_NO_EQUALS,
    OMI_NAME_SIZE_NOT_DECIMAL
} omi_name_size;
omi_name_size omi_parse_name_size(const char *item, size_t len, size_t *name_len,
                                  int64_t *size);

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

/* ---- mesh internals (mesh.c, view*.c) ---- */
/* One mode of an axis (VIEWS.md 1): `size` digits, each worth `stride`. */
typedef struct {
    int64_t size;
    int64_t stride;
} omi_mode;

/* A mode in rank-decoding order (all modes of a view, instances included,
 * largest stride first): digit d of it adds d * `weight` to the coordinate
 * of axis `axis` (axis == ndim: an instance mode, weight in the instance
 * index). */
typedef struct {
    int64_t size;
    int64_t stride;
    size_t axis;
    int64_t weight;
} omi_digit;

struct om_mesh {
    size_t ndim;
    int64_t size;       /* product of sizes: ranks of one instance */
    uint64_t hash;
    char **names;       /* ndim NUL-terminated names */
    size_t *name_lens;  /* their lengths */
    size_t *by_name;    /* over OMI_NAME_INDEX_MIN axes: the axis indices in
                           name order (length, then bytes), so a lookup is a
                           binary search; NULL for the usual handful */
    int64_t *sizes;     /* ndim sizes */
    int64_t *strides;   /* row-major strides of the shape: strides[ndim-1] == 1 */
    /* The layout (view.h). A plain mesh: one mode (size, strides[i]) per
     * axis of size > 1, no instance modes, offset 0. */
    bool plain;
    int64_t offset;
    size_t *mode_first; /* ndim + 1: axis i owns modes[mode_first[i] .. mode_first[i+1]) */
    omi_mode *modes;    /* normal form, slowest first inside each axis */
    size_t ninst;       /* instance modes, largest stride first */
    omi_mode *inst;
    int64_t instances;  /* product of the instance mode sizes */
    int64_t extent;     /* largest rank + 1 */
    size_t ndigits;     /* modes + instance modes */
    omi_digit *digits;  /* sorted by stride, largest first */
    bool nested;        /* each digit's stride exceeds what all later digits
                           reach: ranks decode greedily and enumerate in
                           ascending order */
};

/* ---- names sorted for lookups (name_index.c) ----
 * A name is (names[i], lens[i]); lens NULL: NUL-terminated names. Order:
 * length, then bytes, then position. */
/* Fills order[0..n) with the positions in name order; false when out of
 * memory. */
bool omi_names_sort(const char *const *names, const size_t *lens, size_t n,
                    size_t *order);
/* The first place p in `order` holding the name (name, len), or n. */
size_t omi_names_find(const char *const *names, const size_t *lens,
                      const size_t *order, size_t n, const char *name, size_t len);
/* True when place p (< n) of `order` holds the name (name, len). */
bool omi_names_equal_at(const char *const *names, const size_t *lens,
                        const size_t *order, size_t n, size_t p,
                        const char *name, size_t len);
/* The first position that repeats an earlier name (*repeat, n when none)
 * and that earlier one (*first, the earliest): pairwise up to
 * OMI_NAME_INDEX_MIN names, sorted beyond. OM_ERR_NO_MEMORY only. */
om_status omi_names_first_repeat(const char *const *names, const size_t *lens,
                                 size_t n, size_t *first, size_t *repeat,
                                 om_error *err);

/* Creates a mesh from names with known lengths; validates everything. */
om_status omi_mesh_create(const char *const *names, const size_t *name_lens,
                          const int64_t *sizes, size_t ndim, om_mesh **out,
                          om_error *err);
/* The 1.0 checks of names and sizes (mesh.c), shared with views. */
om_status omi_mesh_validate(const char *const *names, const size_t *name_lens,
                            const int64_t *sizes, size_t ndim, om_error *err);
/* Allocates a mesh from validated parts: sizes, normal-form modes
 * (mode_counts[i] for axis i), instance modes and offset; derives the rest. */
om_status omi_mesh_assemble(const char *const *names, const size_t *name_lens,
                            size_t ndim, const int64_t *sizes,
                            const size_t *mode_counts, const omi_mode *modes,
                            const omi_mode *inst, size_t ninst, int64_t offset,
                            om_mesh **out, om_error *err);
/* Creates a view: axes with explicit modes (mode_counts[i] modes for axis
 * i, pairs in `modes`), instance modes and an offset; normalises and
 * validates everything (view.c). */
om_status omi_view_create(const char *const *names, const size_t *name_lens,
                          size_t ndim, const size_t *mode_counts,
                          const omi_mode *modes, const omi_mode *inst,
                          size_t ninst, int64_t offset, om_mesh **out,
                          om_error *err);
/* An exact copy of a mesh or view. */
om_status omi_mesh_copy(const om_mesh *mesh, om_mesh **out, om_error *err);
/* Index of the axis with this name, or -1. */
int omi_mesh_find(const om_mesh *mesh, const char *name, size_t len);

/* ---- coordinates of views (view_coord.c) ---- */
/* Digits of size > 1 multiply to at most 2^31-1 ranks: at most 31. */
#define OMI_MAX_DIGITS 32
/* Coordinate (when not NULL) and instance index of a digit combination. */
void omi_view_digits_coord(const om_mesh *mesh, const int64_t *digits,
                           int64_t *coord, int64_t *instance);
/* Odometer over all digits (last fastest) keeping *rank in step; false
 * when it wraps to all zeros. */
bool omi_view_digits_step(const om_mesh *mesh, int64_t *digits, int64_t *rank);
/* Splits `rank` into one digit per entry of mesh->digits; false when no
 * instance of the view holds the rank. */
bool omi_view_decode(const om_mesh *mesh, int64_t rank, int64_t *digits);
/* Coordinate of a held rank inside its instance (ndim values); *instance
 * (when not NULL) receives the index of the instance. False when the rank
 * is not held. */
bool omi_view_coordinate(const om_mesh *mesh, int64_t rank, int64_t *coord,
                         int64_t *instance);
/* Rank at coordinate `coord` in instance 0 (coordinates already checked). */
int64_t omi_view_rank(const om_mesh *mesh, const int64_t *coord);
/* ---- worlds (world.c) ---- */
/* Receives each broken rule of a world, as the message om_world_new()
 * would fail with. */
typedef void (*omi_conflict_fn)(void *ctx, const char *message);
/* The checks of om_world_new() on the views, reporting every view outside
 * the world and every disagreeing (pair of views, axis) instead of
 * stopping at the first. Returns the other errors of om_world_new(). */
om_status omi_world_conflicts(int64_t world_size, const char *const *view_names,
                              const om_mesh *const *views, size_t nviews,
                              omi_conflict_fn report, void *ctx, om_error *err);
/* ---- view and world JSON (view_json.c) ---- */
/* Appends the view record (om_view_to_json) to `buf`. */
om_status omi_view_json(omi_buf *buf, const om_mesh *view, om_error *err);
struct json_t;
/* Reads a view record from a parsed jansson value. */
om_status omi_view_from_jansson(struct json_t *root, om_mesh **out,
                                om_error *err);
/* ---- JSON reading (json_read.c): every JSON text the library reads ---- */
/* Called with the parsed document; it lives until the consumer returns. */
typedef om_status (*omi_json_consumer)(struct json_t *root, void *ctx,
                                       om_error *err);
/* Parses text[0..length) with jansson (duplicate keys refused, exactly one
 * value, nothing but spaces after it) and hands the root to `consume`,
 * whose status it returns. `what` names the document in messages ("mesh":
 * "mesh JSON line 1 column 3: ..."). jansson's allocations come from a
 * per-call pool, so a failed one is OM_ERR_NO_MEMORY ("out of memory
 * reading mesh JSON") with nothing leaked, never a crash or a parse error.
 * Errors: OM_ERR_INVALID_ARGUMENT (text NULL), OM_ERR_PARSE,
 * OM_ERR_NO_MEMORY, or the consumer's. Thread-safe. */
om_status omi_json_read(const char *text, size_t length, const char *what,
                        omi_json_consumer consume, void *ctx, om_error *err);
/* A JSON value for a type error's "got ...": 2.0, "2", true, null, an
 * array, an object (a NULL value is "nothing"). */
void omi_json_shown(const struct json_t *value, char *buf, size_t size);
/* omi_quote() with single quotes, as VIEWS.md's messages write names. */
void omi_squote(char *buf, size_t size, const char *s, size_t len);
/* Writes "(0,1)" for coordinates in messages. */
void omi_format_coord(char *buf, size_t size, const int64_t *coord, size_t n);

#endif /* OFFLINE_MESH_INTERNAL_H */
