/* JSON string escaping, spelled as Python's json.dumps (ensure_ascii,
 * lower-case \uXXXX), streamed through a sink. */
#include "util.h"

static void put_escape(omu_sink sink, void *ctx, uint32_t code)
{
    static const char hex[] = "0123456789abcdef";
    char text[6] = {'\\', 'u', hex[(code >> 12) & 0xF], hex[(code >> 8) & 0xF],
                    hex[(code >> 4) & 0xF], hex[code & 0xF]};
    sink(ctx, text, sizeof text);
}

void omu_json_escape(const char *s, size_t len, omu_sink sink, void *ctx)
{
    const unsigned char *p = (const unsigned char *)s;
    sink(ctx, "\"", 1);
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
            sink(ctx, shortcut, 2);
            i++;
        } else if (c < 0x20 || c == 0x7F) {
            put_escape(sink, ctx, c);
            i++;
        } else if (c < 0x80) {
            size_t run = i;
            while (run < len && p[run] >= 0x20 && p[run] < 0x7F && p[run] != '"' &&
                   p[run] != '\\')
                run++;
            sink(ctx, s + i, run - i);
            i = run;
        } else {
            /* Names are valid UTF-8 (the mesh checks); a bad byte would be
             * written as U+FFFD rather than produce invalid JSON. */
            size_t n = omu_utf8_sequence(s + i, len - i);
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
                put_escape(sink, ctx, 0xD800 + (code >> 10));
                put_escape(sink, ctx, 0xDC00 + (code & 0x3FF));
            } else {
                put_escape(sink, ctx, code);
            }
            i += n;
        }
    }
    sink(ctx, "\"", 1);
}

static void str_sink(void *ctx, const char *data, size_t len)
{
    omu_str_put(ctx, data, len);
}

void omu_str_json_string(omu_str *s, const char *text, size_t len)
{
    omu_json_escape(text, len, str_sink, s);
}
