/* Buffered output writer: see writer.h. */
#include <errno.h>
#include <string.h>

#include "util.h"
#include "writer.h"

void omu_writer_init(omu_writer *w, FILE *sink, char *storage, size_t size)
{
    w->sink = sink;
    w->buf = storage;
    w->cap = size;
    w->len = 0;
    w->error = 0;
}

int omu_writer_flush(omu_writer *w)
{
    if (w->error != 0)
        return w->error;
    if (!w->sink) {
        w->error = ENOBUFS;
        return w->error;
    }
    errno = 0;
    size_t len = w->len;
    w->len = 0;
    /* fflush after every block: an error shows at the first failed
     * write(), not when the stream is closed at the end. */
    if ((len > 0 && fwrite(w->buf, 1, len, w->sink) != len) ||
        fflush(w->sink) != 0 || ferror(w->sink))
        w->error = errno != 0 ? errno : EIO;
    return w->error;
}

void omu_write(omu_writer *w, const void *data, size_t len)
{
    if (len <= w->cap - w->len && w->error == 0) {
        /* The common case: short text that fits. */
        memcpy(w->buf + w->len, data, len);
        w->len += len;
        return;
    }
    const char *p = data;
    while (len > 0 && w->error == 0) {
        if (w->len == w->cap)
            omu_writer_flush(w);
        size_t room = w->cap - w->len;
        size_t n = len < room ? len : room;
        memcpy(w->buf + w->len, p, n);
        w->len += n;
        p += n;
        len -= n;
    }
}

void omu_write_str(omu_writer *w, const char *s)
{
    omu_write(w, s, strlen(s));
}

static const char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* Writes the decimal digits of v at p; returns the end. Only values
 * above 2^32-1 come here (rare: no rank or group index is that large). */
static char *put_u64(char *p, uint64_t v)
{
    char digits[20];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = digits[--n];
    return p;
}

/* The digits of a 32-bit value at p; returns the end. The length is found
 * first from comparisons (the hot path of group output: neighbouring
 * values have the same length, so the branches predict well), then the
 * digits go straight to their place, two at a time. */
static inline char *put_u32(char *p, uint32_t v)
{
    size_t n = v < 100000
                   ? (v < 100 ? (v < 10 ? 1 : 2) : v < 1000 ? 3 : v < 10000 ? 4 : 5)
                   : v < 10000000 ? (v < 1000000 ? 6 : 7)
                   : v < 100000000 ? 8 : v < 1000000000 ? 9 : 10;
    char *end = p + n;
    while (v >= 10000) { /* four digits per division by a constant */
        unsigned r = v % 10000;
        v /= 10000;
        end -= 4;
        memcpy(end, digit_pairs + 2 * (r / 100), 2);
        memcpy(end + 2, digit_pairs + 2 * (r % 100), 2);
    }
    if (v >= 100) {
        unsigned r = v % 100;
        v /= 100;
        end -= 2;
        memcpy(end, digit_pairs + 2 * r, 2);
    }
    if (v >= 10)
        memcpy(end - 2, digit_pairs + 2 * v, 2);
    else
        end[-1] = (char)('0' + v);
    return p + n;
}

/* Makes room for `need` (<= 32) contiguous bytes; false after an error. */
static bool reserve(omu_writer *w, size_t need)
{
    if (w->cap - w->len < need)
        omu_writer_flush(w);
    return w->error == 0;
}

void omu_write_int(omu_writer *w, int64_t value)
{
    if (!reserve(w, 21))
        return;
    char *p = w->buf + w->len;
    uint64_t magnitude = (uint64_t)value;
    if (value < 0) {
        *p++ = '-';
        magnitude = 0 - magnitude;
    }
    p = magnitude <= UINT32_MAX ? put_u32(p, (uint32_t)magnitude)
                                : put_u64(p, magnitude);
    w->len = (size_t)(p - w->buf);
}

static inline char *put_i32(char *p, int32_t v)
{
    if (v >= 0)
        return put_u32(p, (uint32_t)v);
    *p++ = '-';
    return put_u32(p, 0u - (uint32_t)v);
}

/* Longest text of one array element: ",-2147483648". */
#define INT32_TEXT 12

void omu_write_int_list(omu_writer *w, const int32_t *values, size_t count,
                        bool first)
{
    size_t i = 0;
    while (i < count && reserve(w, INT32_TEXT)) {
        /* As many values as surely fit, with no check inside the loop. */
        size_t fit = (w->cap - w->len) / INT32_TEXT;
        size_t end = count - i < fit ? count : i + fit;
        char *p = w->buf + w->len;
        for (; i < end; i++) {
            if (i || !first)
                *p++ = ',';
            p = put_i32(p, values[i]);
        }
        w->len = (size_t)(p - w->buf);
    }
}

void omu_write_int_array(omu_writer *w, const int32_t *values, size_t count)
{
    omu_write_char(w, '[');
    omu_write_int_list(w, values, count, true);
    omu_write_char(w, ']');
}

static void writer_sink(void *ctx, const char *data, size_t len)
{
    omu_write(ctx, data, len);
}

/* The one JSON escaper of the project (json.c), streamed into the writer. */
void omu_write_json_string(omu_writer *w, const char *s)
{
    omu_json_escape(s, strlen(s), writer_sink, w);
}
