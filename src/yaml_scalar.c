/* YAML 1.1 scalar resolution, following the implicit resolvers of PyYAML's
 * safe loader, which is what training stacks read their configs with. */
#include <string.h>

#include "yaml_scalar.h"

#define TAG_PREFIX "tag:yaml.org,2002:"

static bool equals_any(const char *text, size_t len, const char *const *words)
{
    for (; *words; words++)
        if (strlen(*words) == len && memcmp(*words, text, len) == 0)
            return true;
    return false;
}

static bool is_null(const char *text, size_t len)
{
    static const char *const words[] = {"~", "null", "Null", "NULL", NULL};
    return len == 0 || equals_any(text, len, words);
}

/* Lower-case ASCII copy of a short text for the tagged spellings; false
 * when it is too long to be one. */
static bool lower_copy(const char *text, size_t len, char *out, size_t size)
{
    if (len >= size)
        return false;
    for (size_t i = 0; i < len; i++)
        out[i] = text[i] >= 'A' && text[i] <= 'Z' ? (char)(text[i] - 'A' + 'a') : text[i];
    out[len] = '\0';
    return true;
}

static bool parse_bool(const char *text, size_t len, bool *value)
{
    static const char *const yes[] = {"yes", "Yes", "YES", "true", "True",
                                      "TRUE", "on", "On", "ON", NULL};
    static const char *const no[] = {"no", "No", "NO", "false", "False",
                                     "FALSE", "off", "Off", "OFF", NULL};
    if (equals_any(text, len, yes)) {
        *value = true;
        return true;
    }
    if (equals_any(text, len, no)) {
        *value = false;
        return true;
    }
    return false;
}

/* An explicit !!bool: PyYAML lower-cases the text first, so "tRue" and
 * "yEs" count there (never untagged). */
static bool parse_tagged_bool(const char *text, size_t len, bool *value)
{
    char lower[8];
    return lower_copy(text, len, lower, sizeof lower) &&
           parse_bool(lower, len, value);
}

static int digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

/* Accumulates digits of `base` (underscores skipped) into a saturating
 * magnitude; false on any other character or when no digit is present. */
static bool accumulate(const char *s, size_t len, int base, uint64_t *out)
{
    uint64_t value = 0;
    bool any = false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '_')
            continue;
        int d = digit_value(s[i]);
        if (d >= base)
            return false;
        any = true;
        if (value > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            value = UINT64_MAX;
        else
            value = value * (uint64_t)base + (uint64_t)d;
    }
    *out = value;
    return any;
}

static bool only_underscores(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != '_')
            return false;
    return true;
}

/* Sexagesimal "1:30:00" = 5400 (YAML 1.1): first part [1-9][0-9_]*, then
 * ":" followed by [0-5]?[0-9]. */
static bool parse_sexagesimal(const char *s, size_t len, uint64_t *out)
{
    const char *colon = memchr(s, ':', len);
    if (!colon || s[0] < '1' || s[0] > '9')
        return false;
    uint64_t value;
    if (!accumulate(s, (size_t)(colon - s), 10, &value))
        return false;
    const char *p = colon;
    const char *end = s + len;
    while (p < end) {
        /* p points at ':' */
        const char *part = p + 1;
        const char *next = memchr(part, ':', (size_t)(end - part));
        size_t plen = (size_t)((next ? next : end) - part);
        if (plen < 1 || plen > 2)
            return false;
        if (plen == 2 && (part[0] < '0' || part[0] > '5'))
            return false;
        int digits = 0;
        for (size_t i = 0; i < plen; i++) {
            if (part[i] < '0' || part[i] > '9')
                return false;
            digits = digits * 10 + (part[i] - '0');
        }
        value = value > UINT64_MAX / 60 ? UINT64_MAX : value * 60 + (uint64_t)digits;
        p = next ? next : end;
    }
    *out = value;
    return true;
}

static bool parse_int(const char *text, size_t len, int64_t *value)
{
    bool negative = false;
    const char *s = text;
    if (len > 0 && (s[0] == '+' || s[0] == '-')) {
        negative = s[0] == '-';
        s++;
        len--;
    }
    if (len == 0)
        return false;
    uint64_t magnitude;
    bool ok;
    if (len >= 2 && s[0] == '0' && s[1] == 'b')
        ok = accumulate(s + 2, len - 2, 2, &magnitude);
    else if (len >= 2 && s[0] == '0' && s[1] == 'x')
        ok = accumulate(s + 2, len - 2, 16, &magnitude);
    else if (s[0] == '0')
        /* 0[0-7_]*: PyYAML reads "0_" (underscores, no digit) as 0 too. */
        ok = (magnitude = 0, len == 1) || accumulate(s + 1, len - 1, 8, &magnitude) ||
             only_underscores(s + 1, len - 1);
    else if (memchr(s, ':', len))
        ok = parse_sexagesimal(s, len, &magnitude);
    else
        ok = s[0] >= '1' && s[0] <= '9' && accumulate(s, len, 10, &magnitude);
    if (!ok)
        return false;
    if (negative)
        *value = magnitude > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)magnitude;
    else
        *value = magnitude > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)magnitude;
    return true;
}

static bool all_in(const char *s, size_t len, const char *set)
{
    for (size_t i = 0; i < len; i++)
        if (!strchr(set, s[i]) || s[i] == '\0')
            return false;
    return true;
}

static bool is_float(const char *text, size_t len)
{
    static const char *const special[] = {".inf", ".Inf", ".INF", "+.inf", "+.Inf",
                                          "+.INF", "-.inf", "-.Inf", "-.INF",
                                          ".nan", ".NaN", ".NAN", NULL};
    if (equals_any(text, len, special))
        return true;
    const char *s = text;
    if (len > 0 && (s[0] == '+' || s[0] == '-')) {
        s++;
        len--;
    }
    const char *dot = memchr(s, '.', len);
    if (!dot)
        return false;
    size_t head = (size_t)(dot - s);
    const char *tail = dot + 1;
    size_t tail_len = len - head - 1;
    /* Exponent [eE][-+][0-9]+ after the fraction. */
    const char *e = NULL;
    for (size_t i = 0; i < tail_len; i++)
        if (tail[i] == 'e' || tail[i] == 'E') {
            e = tail + i;
            break;
        }
    size_t frac_len = e ? (size_t)(e - tail) : tail_len;
    if (e) {
        size_t exp_len = tail_len - frac_len - 1;
        if (exp_len < 2 || (e[1] != '+' && e[1] != '-') ||
            !all_in(e + 2, exp_len - 1, "0123456789"))
            return false;
    }
    if (!all_in(tail, frac_len, "0123456789_"))
        return false;
    if (head == 0)
        return frac_len > 0 && tail[0] >= '0' && tail[0] <= '9';
    if (s[0] < '0' || s[0] > '9')
        return false;
    /* Sexagesimal floats ("1:30.5") are rare; digits, '_' and ':' only. */
    return all_in(s, head, "0123456789_:");
}

omi_yaml_value omi_yaml_resolve(const char *text, size_t len, const char *tag,
                                bool plain)
{
    omi_yaml_value v = {OMI_YAML_STRING, false, 0};
    if (!tag) {
        if (!plain)
            return v;
        if (is_null(text, len))
            v.kind = OMI_YAML_NULL;
        else if (parse_bool(text, len, &v.boolean))
            v.kind = OMI_YAML_BOOL;
        else if (parse_int(text, len, &v.integer))
            v.kind = OMI_YAML_INT;
        else if (is_float(text, len))
            v.kind = OMI_YAML_FLOAT;
        return v;
    }
    if (strcmp(tag, TAG_PREFIX "int") == 0 && parse_int(text, len, &v.integer))
        v.kind = OMI_YAML_INT;
    else if (strcmp(tag, TAG_PREFIX "bool") == 0 &&
             parse_tagged_bool(text, len, &v.boolean))
        v.kind = OMI_YAML_BOOL;
    else if (strcmp(tag, TAG_PREFIX "null") == 0 && is_null(text, len))
        v.kind = OMI_YAML_NULL;
    else if (strcmp(tag, TAG_PREFIX "float") == 0)
        v.kind = OMI_YAML_FLOAT;
    return v;
}
