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

/* Writes the decimal digits of v at dst; returns their number (<= 20). */
static size_t format_u64(char *dst, uint64_t v)
{
    char tmp[20];
    char *p = tmp + sizeof tmp;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, digit_pairs + 2 * r, 2);
    }
    if (v >= 10) {
        p -= 2;
        memcpy(p, digit_pairs + 2 * v, 2);
    } else {
        *--p = (char)('0' + v);
    }
    size_t n = (size_t)(tmp + sizeof tmp - p);
    memcpy(dst, p, n);
    return n;
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
    uint64_t magnitude = (uint64_t)value;
    if (value < 0) {
        w->buf[w->len++] = '-';
        magnitude = 0 - magnitude;
    }
    w->len += format_u64(w->buf + w->len, magnitude);
}

void omu_write_int_array(omu_writer *w, const int32_t *values, size_t count)
{
    omu_write_char(w, '[');
    for (size_t i = 0; i < count && w->error == 0; i++) {
        if (w->cap - w->len < 13)
            omu_writer_flush(w);
        char *dst = w->buf + w->len;
        size_t o = 0;
        if (i)
            dst[o++] = ',';
        int32_t v = values[i];
        if (v < 0) {
            dst[o++] = '-';
            o += format_u64(dst + o, 0 - (uint64_t)(int64_t)v);
        } else {
            o += format_u64(dst + o, (uint64_t)v);
        }
        if (w->error == 0)
            w->len += o;
    }
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
