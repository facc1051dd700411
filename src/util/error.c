/* Filling an om_error: the one place messages are formatted. */
#include <stdio.h>

#include "util.h"

om_status omu_vfail(om_error *err, om_status status, const char *fmt,
                    va_list args)
{
    if (err) {
        err->status = status;
        /* vsnprintf truncates safely; a truncated message still names the
         * value because values come first and are already shortened. */
        vsnprintf(err->message, sizeof err->message, fmt, args);
        /* Values inside come from users and other libraries (jansson
         * quotes raw input); bindings decode messages as UTF-8. */
        omu_utf8_repair(err->message);
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
