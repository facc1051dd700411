/* Status names and the error report. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

const char *om_status_string(om_status status)
{
    switch (status) {
    case OM_OK: return "ok";
    case OM_ERR_INVALID_ARGUMENT: return "invalid argument";
    case OM_ERR_OUT_OF_RANGE: return "out of range";
    case OM_ERR_PARSE: return "parse error";
    case OM_ERR_IO: return "I/O error";
    case OM_ERR_NO_MEMORY: return "out of memory";
    case OM_ERR_LENGTH_MISMATCH: return "length mismatch";
    case OM_ERR_DUPLICATE_NAME: return "duplicate axis name";
    case OM_ERR_EMPTY_NAME: return "empty axis name";
    case OM_ERR_BAD_SIZE: return "bad axis size";
    case OM_ERR_MESH_TOO_LARGE: return "mesh too large";
    case OM_ERR_INVALID_NAME: return "invalid axis name";
    case OM_ERR_BUFFER_TOO_SMALL: return "buffer too small";
    case OM_ERR_RANK_COLLISION: return "rank collision";
    case OM_ERR_OUTSIDE_WORLD: return "rank outside the world";
    case OM_ERR_AXIS_ORDER: return "axes out of order";
    case OM_ERR_SIZE_MISMATCH: return "size mismatch";
    case OM_ERR_UNALIGNED: return "unaligned unflatten";
    case OM_ERR_VIEW_CONFLICT: return "views disagree";
    case OM_ERR_NOT_FOUND: return "not found";
    }
    return "unknown status";
}

void om_error_clear(om_error *err)
{
    if (err) {
        err->status = OM_OK;
        err->message[0] = '\0';
    }
}

om_status omi_fail(om_error *err, om_status status, const char *fmt, ...)
{
    if (err) {
        va_list args;
        va_start(args, fmt);
        err->status = status;
        /* vsnprintf truncates safely; a truncated message still names the
         * value because values come first and are already shortened. */
        vsnprintf(err->message, sizeof err->message, fmt, args);
        va_end(args);
        /* Values inside come from users and other libraries (jansson
         * quotes raw input); bindings decode messages as UTF-8. */
        omi_utf8_repair(err->message);
    }
    return status;
}

void omi_prefix_error(om_error *err, const char *prefix)
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
    omi_utf8_repair(err->message);
}
