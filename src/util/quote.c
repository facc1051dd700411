/* Quoting what a user gave for a message: the one spelling every message of
 * the library and of the CLI uses, so a value reads the same wherever it is
 * reported and no byte of it can act on the terminal that shows it. */
#include <stdio.h>
#include <string.h>

#include "util.h"

/* Code point of the well-formed sequence s[0..n). */
static uint32_t decode(const unsigned char *s, size_t n)
{
    if (n == 1)
        return s[0];
    uint32_t cp = s[0] & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
    for (size_t k = 1; k < n; k++)
        cp = (cp << 6) | (s[k] & 0x3F);
    return cp;
}

/* Characters a terminal acts on or that reorder the text around them:
 * C1 controls (U+009B is a CSI on some terminals), bidirectional overrides
 * and isolates, the line and paragraph separators. */
static bool is_invisible_control(uint32_t cp)
{
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0x2028 || cp == 0x2029;
}

/* The spelling of one character (or invalid byte) at s[0..avail) into
 * piece; returns its length and sets *used to the bytes it consumed. */
static size_t spell(const char *s, size_t avail, char quote, char *piece,
                    size_t *used)
{
    unsigned char c = (unsigned char)s[0];
    *used = 1;
    if (quote && (c == (unsigned char)quote || c == '\\')) {
        piece[0] = '\\';
        piece[1] = (char)c;
        return 2;
    }
    if (c < 0x20 || c == 0x7F)
        return (size_t)snprintf(piece, 12, "\\x%02X", c);
    if (c < 0x80) {
        piece[0] = (char)c;
        return 1;
    }
    size_t n = omu_utf8_sequence(s, avail);
    if (n == 0) /* not UTF-8: the byte, visibly */
        return (size_t)snprintf(piece, 12, "\\x%02X", c);
    *used = n;
    uint32_t cp = decode((const unsigned char *)s, n);
    if (is_invisible_control(cp))
        return (size_t)snprintf(piece, 12, "\\u%04X", (unsigned)cp);
    memcpy(piece, s, n);
    return n;
}

/* Length of the whole spelling of s[0..len), without quotes. */
static size_t spelled_length(const char *s, size_t len, char quote)
{
    size_t total = 0;
    for (size_t i = 0; i < len;) {
        char piece[12];
        size_t used;
        total += spell(s + i, len - i, quote, piece, &used);
        i += used;
    }
    return total;
}

size_t omu_quote(char *buf, size_t size, const char *s, size_t len, char quote)
{
    const size_t quotes = quote ? 2 : 0;
    if (size == 0)
        return 0;
    buf[0] = '\0';
    if (!s || size < quotes + 3 + 2)
        return 0; /* no room for one character and "..." */
    /* The whole value when it fits, else whole characters and "...". */
    size_t limit = size - 1 - quotes;
    bool whole = spelled_length(s, len, quote) <= limit;
    if (!whole)
        limit -= 3;
    size_t o = 0;
    if (quote)
        buf[o++] = quote;
    for (size_t i = 0; i < len;) {
        char piece[12];
        size_t used, n = spell(s + i, len - i, quote, piece, &used);
        if (o - (quote ? 1 : 0) + n > limit)
            break;
        memcpy(buf + o, piece, n);
        o += n;
        i += used;
    }
    if (!whole) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    if (quote)
        buf[o++] = quote;
    buf[o] = '\0';
    return o;
}
