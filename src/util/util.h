/* liboffline_mesh's utility layer (src/util/), shared by the library and
 * the offline-mesh CLI, after libgit2's src/util: allocation, error
 * reports, UTF-8, a growable string builder, the JSON string escaper and a
 * bounded file reader. Not public: the library links it with hidden
 * visibility, the CLI links its own static copy. Names start with omu_.
 *
 * Extending it: one job per file (alloc.c, error.c, utf8.c, str.c,
 * json.c, file.c), declared here in its own section, listed in
 * src/util/meson.build, tested in tests/test_util.c. */
#ifndef OFFLINE_MESH_UTIL_H
#define OFFLINE_MESH_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offline_mesh/status.h"

#if defined(__GNUC__) || defined(__clang__)
#  define OMU_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#  define OMU_PRINTF(f, a)
#endif

/* ---- allocation (alloc.c): every allocation of the library and of the
 * utilities goes through here, so a test build can make the n-th fail. */
void *omu_malloc(size_t size);
void *omu_realloc(void *ptr, size_t size);
void omu_free(void *ptr);
#ifdef OM_ALLOC_FAILURE_INJECTION
/* Test builds only: fail the allocation after `n` more succeed (n < 0:
 * never fail); returns how many were made since the last call. */
long omu_alloc_fail_after(long n);
#endif

/* ---- error reports (error.c) ---- */
/* Fills `err` (if not NULL) with `status` and a printf-style message made
 * valid UTF-8, and returns `status`. */
om_status omu_fail(om_error *err, om_status status, const char *fmt, ...)
    OMU_PRINTF(3, 4);
om_status omu_vfail(om_error *err, om_status status, const char *fmt,
                    va_list args) OMU_PRINTF(3, 0);
/* Adds "<prefix>: " in front of an already filled message. */
void omu_prefix_error(om_error *err, const char *prefix);
/* Adds the file name (its last 100 bytes, escaped as omu_quote() spells
 * values, without the quotes) in front of a failed file call's message;
 * out-of-memory messages stay as they are. */
void omu_prefix_path(om_error *err, om_status status, const char *path);

/* ---- UTF-8 (utf8.c) ---- */
/* Length (1-4) of the well-formed UTF-8 sequence starting at s, or 0. */
size_t omu_utf8_sequence(const char *s, size_t avail);
/* True when s[0..len) is well-formed UTF-8 (no overlongs, no surrogates). */
bool omu_utf8_valid(const char *s, size_t len);
/* Makes a NUL-terminated string valid UTF-8 in place: a sequence cut off
 * at the end is dropped, any other invalid byte becomes '?'. */
void omu_utf8_repair(char *s);

/* ---- quoting values for messages (quote.c) ---- */
/* Writes s[0..len) as every message of the library and the CLI spells what
 * a user gave, into buf (NUL-terminated, never more than `size` bytes):
 * between two `quote` characters ('"' or '\''; 0 writes no quotes, for a
 * whole message), that quote and '\' escaped with a backslash, control
 * characters and bytes that are not UTF-8 as \xNN, C1 controls, bidi
 * overrides and line separators as \uNNNN, everything else as is. What
 * does not fit ends in "..." after a whole character, never inside one.
 * Returns the length written (0 and "" when s is NULL or size leaves no
 * room for the quotes, one character and "..."). */
size_t omu_quote(char *buf, size_t size, const char *s, size_t len, char quote);

/* ---- string builder (str.c) ---- */
/* A growable NUL-terminated string. Start it zeroed ({0}); after a failed
 * allocation every append is a no-op and `failed` stays set, so a writer
 * checks once at the end. */
typedef struct {
    char *data;
    size_t len;
    size_t cap;
    bool failed;
} omu_str;

void omu_str_put(omu_str *s, const char *data, size_t len);
void omu_str_puts(omu_str *s, const char *text);
void omu_str_putc(omu_str *s, char c);
void omu_str_printf(omu_str *s, const char *fmt, ...) OMU_PRINTF(2, 3);
void omu_str_int(omu_str *s, int64_t value);
/* Empties the string, keeping its memory; a failed builder stays failed
 * (until detached or freed), so no failure goes unnoticed. */
void omu_str_clear(omu_str *s);
/* The text so far; "" when empty or never allocated. */
const char *omu_str_cstr(const omu_str *s);
/* Hands the text to the caller (free with omu_free()); NULL when an
 * allocation failed (the string is released then). The builder is empty
 * afterwards. */
char *omu_str_detach(omu_str *s, size_t *len);
void omu_str_free(omu_str *s);

/* ---- JSON strings (json.c) ---- */
/* Writes s[0..len) as a JSON string, spelled as Python's json.dumps
 * (ensure_ascii: everything outside printable ASCII as lower-case \uXXXX,
 * astral characters as surrogate pairs; invalid UTF-8 as \ufffd), through
 * `sink` in pieces. */
typedef void (*omu_sink)(void *ctx, const char *data, size_t len);
void omu_json_escape(const char *s, size_t len, omu_sink sink, void *ctx);
/* The same, appended to a string builder. */
void omu_str_json_string(omu_str *s, const char *text, size_t len);

/* ---- files (file.c) ---- */
/* Largest file the library reads: far beyond any config or mesh. */
#define OMU_FILE_LIMIT ((size_t)64 << 20)
/* Reads the whole regular file at `path` into a NUL-terminated buffer
 * (free with omu_free()). Never blocks on a FIFO and never reads a device:
 * anything but a regular file is OM_ERR_IO ("is a FIFO, not a regular
 * file"). More than `limit` bytes is OM_ERR_IO naming the limit, never a
 * silent stop. Errors: OM_ERR_IO (cannot open or read, a directory, not
 * regular, too large), OM_ERR_NO_MEMORY. Messages do not name the path:
 * the caller prefixes it. */
om_status omu_file_read(const char *path, size_t limit, char **text,
                        size_t *length, om_error *err);
/* Reads the file at `path` as omu_file_read() does (OMU_FILE_LIMIT) and
 * hands its text to `parse(text, length, ctx, err)`, then frees it. A
 * failure of either gets the path in front of its message
 * (omu_prefix_path(): "deep/m.json: line 1: ..."), out of memory
 * excepted. Returns the first failure's status. */
typedef om_status (*omu_parse_fn)(const char *text, size_t length, void *ctx,
                                  om_error *err);
om_status omu_file_parse(const char *path, omu_parse_fn parse, void *ctx,
                         om_error *err);

#endif
