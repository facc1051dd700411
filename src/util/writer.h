/* Buffered output writer for large JSON documents (the CLI's groups, dump
 * and experts outputs): bytes collect in a caller-provided buffer and go
 * to a FILE in large blocks, integers are formatted without printf, and
 * the first failed write is remembered so a long computation can stop at
 * once instead of running to the end (>/dev/full, a closed pipe with
 * SIGPIPE ignored).
 *
 * With a NULL sink the writer only fills `storage` (to prepare text once
 * and copy it many times) and fails with ENOBUFS when it is full; a JSON
 * string of n bytes takes at most 6n + 2.
 *
 * Ownership: the writer borrows `sink` and `storage`; neither is freed.
 * Thread safety: a writer is used by one thread at a time.
 * Errors: no call fails loudly; after the first failed write every write
 * is a no-op and omu_writer_error() returns its errno (EIO when the C
 * library gave none). */
#ifndef OFFLINE_MESH_UTIL_WRITER_H
#define OFFLINE_MESH_UTIL_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    FILE *sink;
    char *buf;
    size_t cap;
    size_t len;
    int error; /* errno of the first failed write; 0 while all went out */
} omu_writer;

/* A buffer of this many bytes keeps system calls rare (one per block). */
#define OMU_WRITER_BLOCK ((size_t)1 << 16)

/* Starts a writer into `sink` collecting in storage[0..size) (size >= 32). */
void omu_writer_init(omu_writer *w, FILE *sink, char *storage, size_t size);
/* Hands the buffered bytes to the sink and flushes it; returns
 * omu_writer_error(). */
int omu_writer_flush(omu_writer *w);
/* 0 while every write succeeded, else the errno of the first failure. */
static inline int omu_writer_error(const omu_writer *w) { return w->error; }

void omu_write(omu_writer *w, const void *data, size_t len);
void omu_write_str(omu_writer *w, const char *s);
static inline void omu_write_char(omu_writer *w, char c)
{
    if (w->len == w->cap)
        omu_writer_flush(w);
    if (w->error == 0)
        w->buf[w->len++] = c;
}
/* Decimal, as printf's %lld. */
void omu_write_int(omu_writer *w, int64_t value);
/* [v0,v1,...] without spaces. */
void omu_write_int_array(omu_writer *w, const int32_t *values, size_t count);
/* v0,v1,... without brackets, after a ',' unless `first`: an array
 * written in pieces. */
void omu_write_int_list(omu_writer *w, const int32_t *values, size_t count,
                        bool first);
/* A JSON string spelled as the library's canonical JSON: quotes, "\\",
 * \b \f \n \r \t, other control characters and every non-ASCII character
 * escaped as \uXXXX (surrogate pairs above U+FFFF). `s` is valid UTF-8. */
void omu_write_json_string(omu_writer *w, const char *s);

#endif
