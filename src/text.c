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

/* Kept under the library's name: the one spelling lives in src/util/. */
void omi_quote(char *buf, size_t bufsize, const char *s, size_t len)
{
    omu_quote(buf, bufsize, s, len, '"');
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

omi_name_size omi_parse_name_size(const char *item, size_t len, size_t *name_len,
                                  int64_t *size)
{
    const char *eq = memchr(item, '=', len);
    if (!eq)
        return OMI_NAME_SIZE_NO_EQUALS;
    size_t n = (size_t)(eq - item);
    while (n > 0 && is_blank(item[n - 1]))
        n--;
    const char *value = eq + 1;
    size_t value_len = len - (size_t)(value - item);
    while (value_len > 0 && is_blank(*value)) {
        value++;
        value_len--;
    }
    *name_len = n;
    return omi_parse_decimal(value, value_len, size) ? OMI_NAME_SIZE_OK
                                                     : OMI_NAME_SIZE_NOT_DECIMAL;
}
