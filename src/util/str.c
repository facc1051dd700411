/* The growable string builder. */
#include <stdio.h>
#include <string.h>

#include "util.h"

/* Makes room for `extra` more bytes plus the NUL; false after a failure. */
static bool reserve(omu_str *s, size_t extra)
{
    if (s->failed)
        return false;
    if (extra > SIZE_MAX - 1 - s->len) {
        s->failed = true;
        return false;
    }
    size_t need = s->len + extra + 1;
    if (need <= s->cap)
        return true;
    size_t cap = s->cap ? s->cap : 64;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    char *bigger = omu_realloc(s->data, cap);
    if (!bigger) {
        s->failed = true;
        return false;
    }
    s->data = bigger;
    s->cap = cap;
    return true;
}

void omu_str_put(omu_str *s, const char *data, size_t len)
{
    if (!reserve(s, len))
        return;
    if (len)
        memcpy(s->data + s->len, data, len);
    s->len += len;
    s->data[s->len] = '\0';
}

void omu_str_puts(omu_str *s, const char *text) { omu_str_put(s, text, strlen(text)); }

void omu_str_putc(omu_str *s, char c) { omu_str_put(s, &c, 1); }

void omu_str_printf(omu_str *s, const char *fmt, ...)
{
    va_list args, copy;
    va_start(args, fmt);
    va_copy(copy, args);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0) {
        s->failed = true;
    } else if (reserve(s, (size_t)n)) {
        vsnprintf(s->data + s->len, s->cap - s->len, fmt, args);
        s->len += (size_t)n;
    }
    va_end(args);
}

void omu_str_int(omu_str *s, int64_t value)
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%lld", (long long)value);
    omu_str_put(s, digits, (size_t)n);
}

void omu_str_clear(omu_str *s)
{
    s->len = 0;
    if (s->data)
        s->data[0] = '\0';
}

const char *omu_str_cstr(const omu_str *s) { return s->data ? s->data : ""; }

char *omu_str_detach(omu_str *s, size_t *len)
{
    if (!s->failed && !s->data && reserve(s, 0))
        s->data[0] = '\0'; /* an empty result is still a string */
    char *text = s->failed ? NULL : s->data;
    if (len)
        *len = text ? s->len : 0;
    if (!text)
        omu_free(s->data);
    s->data = NULL;
    s->len = s->cap = 0;
    s->failed = false;
    return text;
}

void omu_str_free(omu_str *s)
{
    omu_free(s->data);
    s->data = NULL;
    s->len = s->cap = 0;
    s->failed = false;
}
