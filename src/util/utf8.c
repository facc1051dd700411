/* UTF-8 validation and repair (messages and names must be valid UTF-8:
 * every binding decodes them). */
#include <string.h>

#include "util.h"

size_t omu_utf8_sequence(const char *s, size_t avail)
{
    const unsigned char *p = (const unsigned char *)s;
    if (avail == 0)
        return 0;
    unsigned char c = p[0];
    size_t extra;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        extra = 1;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        extra = 2;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        extra = 3;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (avail <= extra)
        return 0;
    for (size_t k = 1; k <= extra; k++) {
        if ((p[k] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[k] & 0x3F);
    }
    if ((extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return extra + 1;
}

bool omu_utf8_valid(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        size_t n = omu_utf8_sequence(s + i, len - i);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

void omu_utf8_repair(char *s)
{
    size_t len = strlen(s);
    size_t i = 0;
    while (i < len) {
        size_t n = omu_utf8_sequence(s + i, len - i);
        if (n > 0) {
            i += n;
            continue;
        }
        /* A lead byte whose sequence the end of the string cut short. */
        unsigned char c = (unsigned char)s[i];
        size_t want = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
        bool tail_ok = want > len - i;
        for (size_t k = i + 1; tail_ok && k < len; k++)
            tail_ok = ((unsigned char)s[k] & 0xC0) == 0x80;
        if (want && tail_ok) {
            s[i] = '\0';
            return;
        }
        s[i++] = '?';
    }
}
