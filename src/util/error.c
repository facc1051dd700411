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

void omu_prefix_error(om_error *err, const char *prefix)
{
    if (!err)
        return;
    /* Truncation is fine here: the tail of a long message is the least
     * useful part. */
    char old[OM_ERROR_MESSAGE_SIZE];
    memcpy(old, err->message, sizeof old);
    size_t room = sizeof err->message - 1;
    size_t plen = strlen(prefix);
    plen = plen > room ? room : plen;
    memcpy(err->message, prefix, plen);
    size_t o = plen;
    for (const char *p = ": "; *p && o < room; p++)
        err->message[o++] = *p;
    size_t olen = strlen(old);
    olen = olen > room - o ? room - o : olen;
    memcpy(err->message + o, old, olen);
    err->message[o + olen] = '\0';
    omu_utf8_repair(err->message);
}

void omu_prefix_path(om_error *err, om_status status, const char *path)
{
    if (!err || status == OM_ERR_NO_MEMORY)
        return;
    /* A long path keeps its end, the file name: ".../deep/train.yaml". */
    size_t len = strlen(path), skip = len > 100 ? len - 100 : 0;
    while (skip < len && ((unsigned char)path[skip] & 0xC0) == 0x80)
        skip++;
    char quoted[160];
    char prefix[168];
    omu_quote(quoted, sizeof quoted, path + skip, len - skip, '"');
    /* Bare, not quoted, in "path: line 3: ...", but the empty path stays
     * visible as "". */
    if (len > 0)
        quoted[strlen(quoted) - 1] = '\0';
    snprintf(prefix, sizeof prefix, "%s%s", skip ? "..." : "",
             len > 0 ? quoted + 1 : quoted);
    omu_prefix_error(err, prefix);
}
