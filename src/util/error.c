/* Filling an om_error: the one place messages are formatted. */
#include <stdio.h>
#include <string.h>

#include "util.h"

om_status omu_vfail(om_error *err, om_status status, const char *fmt,
                    va_list args)
{
    if (err) {
        err->status = status;
        char text[sizeof err->message];
        /* vsnprintf truncates safely; a truncated message still names the
         * value because values come first and are already shortened. */
        int n = vsnprintf(text, sizeof text, fmt, args);
        size_t len = strlen(text);
        if (n >= 0 && (size_t)n >= sizeof text) {
            /* Cut inside a character: drop its first bytes. */
            size_t back = 0;
            while (back < 3 && back < len &&
                   ((unsigned char)text[len - 1 - back] & 0xC0) == 0x80)
                back++;
            if (back < len && (unsigned char)text[len - 1 - back] >= 0xC0 &&
                omu_utf8_sequence(text + len - 1 - back, back + 1) == 0)
                len -= back + 1;
        }
        /* Values inside come from users and other libraries (jansson
         * quotes raw input): one line, valid UTF-8, nothing a terminal
         * acts on, spelled as every quoted value is. */
        omu_quote(err->message, sizeof err->message, text, len, 0);
    }
    return status;
}

om_status omu_fail(om_error *err, om_status status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    om_status st = omu_vfail(err, status, fmt, args);
    va_end(args);
    return st;
}
