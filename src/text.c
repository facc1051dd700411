/* Small text utilities: UTF-8 validation, quoting values for messages,
 * splitting lists and strict decimal parsing. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The UTF-8 helpers live in the utility layer; these keep the library's
 * internal names. */
size_t omi_utf8_sequence(const char *s, size_t avail)
{
    return omu_utf8_sequence(s, avail);
}

bool omi_utf8_valid(const char *s, size_t len) { return omu_utf8_valid(s, len); }

void omi_utf8_repair(char *s) { omu_utf8_repair(s); }

void omi_quote(char *buf, size_t bufsize, const char *s, size_t len)
{
    /* Room for the quotes, "..." and the NUL. */
    size_t limit = bufsize > 8 ? bufsize - 6 : 0;
    size_t o = 0;
    if (bufsize == 0)
        return;
    if (limit == 0) {
        buf[0] = '\0';
        return;
    }
    buf[o++] = '"';
    size_t i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        char piece[8];
        size_t n, used = 1;
        if (c == '"' || c == '\\') {
            piece[0] = '\\';
            piece[1] = (char)c;
            n = 2;
        } else if (c < 0x20 || c == 0x7F) {
            snprintf(piece, sizeof piece, "\\x%02X", c);
            n = 4;
        } else if (c < 0x80) {
            piece[0] = (char)c;
            n = 1;
        } else if ((used = omi_utf8_sequence(s + i, len - i)) > 0) {
            memcpy(piece, s + i, used);
            n = used;
        } else {
            snprintf(piece, sizeof piece, "\\x%02X", c);
            n = 4;
            used = 1;
        }
        if (o + n > limit) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        memcpy(buf + o, piece, n);
        o += n;
        i += used;
    }
    buf[o++] = '"';
    buf[o] = '\0';
}

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

om_status omi_split(const char *text, char sep, omi_item_fn fn, void *ctx,
                    om_error *err)
{
    size_t index = 0;
    const char *p = text;
    for (;;) {
        const char *end = strchr(p, sep);
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *item = p;
        while (len > 0 && is_blank(item[0])) {
            item++;
            len--;
        }
        while (len > 0 && is_blank(item[len - 1]))
            len--;
        om_status st = fn(item, len, index++, ctx, err);
        if (st != OM_OK)
            return st;
        if (!end)
            return OM_OK;
        p = end + 1;
    }
}

bool omi_parse_decimal(const char *s, size_t len, int64_t *value)
{
    size_t i = 0;
    bool negative = false;
    uint64_t magnitude = 0;
    bool saturated = false;
    if (len > 0 && (s[0] == '+' || s[0] == '-')) {
        negative = s[0] == '-';
        i = 1;
    }
    if (i == len)
        return false;
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        unsigned digit = (unsigned)(s[i] - '0');
        if (magnitude > (UINT64_MAX - digit) / 10)
            saturated = true;
        else
            magnitude = magnitude * 10 + digit;
    }
    if (negative)
        *value = (saturated || magnitude > (uint64_t)INT64_MAX)
                     ? INT64_MIN
                     : -(int64_t)magnitude;
    else
        *value = (saturated || magnitude > (uint64_t)INT64_MAX)
                     ? INT64_MAX
                     : (int64_t)magnitude;
    return true;
}
