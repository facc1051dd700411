/* Canonical JSON writing: a growable buffer and the string spelling of
 * Python's json.dumps (ensure_ascii, lower-case \uXXXX). Written by hand
 * because jansson's dumper silently drops pieces when an allocation fails;
 * reading JSON stays with jansson. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

void omi_buf_put(omi_buf *buf, const char *data, size_t len)
{
    if (buf->failed)
        return;
    if (buf->cap - buf->len < len + 1) {
        size_t cap = buf->cap ? buf->cap : 64;
        while (cap - buf->len < len + 1) {
            if (cap > SIZE_MAX / 2) {
                buf->failed = true;
                return;
            }
            cap *= 2;
        }
        char *bigger = omi_realloc(buf->data, cap);
        if (!bigger) {
            buf->failed = true;
            return;
        }
        buf->data = bigger;
        buf->cap = cap;
    }
    memcpy(buf->data + buf->len, data, len);
    buf->len += len;
    buf->data[buf->len] = '\0';
}

void omi_buf_puts(omi_buf *buf, const char *text)
{
    omi_buf_put(buf, text, strlen(text));
}

void omi_buf_int(omi_buf *buf, int64_t value)
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%lld", (long long)value);
    omi_buf_put(buf, digits, (size_t)n);
}

static void put_escape(omi_buf *buf, uint32_t code)
{
    static const char hex[] = "0123456789abcdef";
    char text[6] = {'\\', 'u', hex[(code >> 12) & 0xF], hex[(code >> 8) & 0xF],
                    hex[(code >> 4) & 0xF], hex[code & 0xF]};
    omi_buf_put(buf, text, sizeof text);
}

void omi_buf_json_string(omi_buf *buf, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    omi_buf_put(buf, "\"", 1);
    size_t i = 0;
    while (i < len) {
        unsigned char c = p[i];
        const char *shortcut = c == '"'    ? "\\\""
                               : c == '\\' ? "\\\\"
                               : c == '\n' ? "\\n"
                               : c == '\r' ? "\\r"
                               : c == '\t' ? "\\t"
                               : c == '\b' ? "\\b"
                               : c == '\f' ? "\\f"
                                           : NULL;
        if (shortcut) {
            omi_buf_put(buf, shortcut, 2);
            i++;
        } else if (c < 0x20 || c == 0x7F) {
            put_escape(buf, c);
            i++;
        } else if (c < 0x80) {
            size_t run = i;
            while (run < len && p[run] >= 0x20 && p[run] < 0x7F && p[run] != '"' &&
                   p[run] != '\\')
                run++;
            omi_buf_put(buf, s + i, run - i);
            i = run;
        } else {
            /* Names are valid UTF-8 (the mesh checks); a bad byte would be
             * written as U+FFFD rather than produce invalid JSON. */
            size_t n = omi_utf8_sequence(s + i, len - i);
            uint32_t code = 0xFFFD;
            if (n > 0) {
                code = c & (0x3F >> (n - 1));
                for (size_t k = 1; k < n; k++)
                    code = (code << 6) | (p[i + k] & 0x3F);
            } else {
                n = 1;
            }
            if (code >= 0x10000) {
                code -= 0x10000;
                put_escape(buf, 0xD800 + (code >> 10));
                put_escape(buf, 0xDC00 + (code & 0x3FF));
            } else {
                put_escape(buf, code);
            }
            i += n;
        }
    }
    omi_buf_put(buf, "\"", 1);
}

om_status omi_buf_finish(omi_buf *buf, char **out, om_error *err)
{
    if (buf->failed || !buf->data) {
        omi_free(buf->data);
        buf->data = NULL;
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory writing JSON");
    }
    *out = buf->data;
    buf->data = NULL;
    return OM_OK;
}
