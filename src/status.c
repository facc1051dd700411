/* Status names and the error report. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The table of the enumeration: every loop, name lookup and binding
 * generator reads it. */
typedef struct {
    const char *name;        /* C identifier */
    const char *description; /* om_status_string() */
} status_entry;

static const status_entry statuses[] = {
    [OM_OK] = {"OM_OK", "ok"},
    [OM_ERR_INVALID_ARGUMENT] = {"OM_ERR_INVALID_ARGUMENT", "invalid argument"},
    [OM_ERR_OUT_OF_RANGE] = {"OM_ERR_OUT_OF_RANGE", "out of range"},
    [OM_ERR_PARSE] = {"OM_ERR_PARSE", "parse error"},
    [OM_ERR_IO] = {"OM_ERR_IO", "I/O error"},
    [OM_ERR_NO_MEMORY] = {"OM_ERR_NO_MEMORY", "out of memory"},
    [OM_ERR_LENGTH_MISMATCH] = {"OM_ERR_LENGTH_MISMATCH", "length mismatch"},
    [OM_ERR_DUPLICATE_NAME] = {"OM_ERR_DUPLICATE_NAME", "duplicate axis name"},
    [OM_ERR_EMPTY_NAME] = {"OM_ERR_EMPTY_NAME", "empty axis name"},
    [OM_ERR_BAD_SIZE] = {"OM_ERR_BAD_SIZE", "bad axis size"},
    [OM_ERR_MESH_TOO_LARGE] = {"OM_ERR_MESH_TOO_LARGE", "mesh too large"},
    [OM_ERR_INVALID_NAME] = {"OM_ERR_INVALID_NAME", "invalid axis name"},
    [OM_ERR_BUFFER_TOO_SMALL] = {"OM_ERR_BUFFER_TOO_SMALL", "buffer too small"},
    [OM_ERR_UNKNOWN_AXIS] = {"OM_ERR_UNKNOWN_AXIS", "unknown axis"},
    [OM_ERR_RANK_COLLISION] = {"OM_ERR_RANK_COLLISION", "rank collision"},
    [OM_ERR_OUTSIDE_WORLD] = {"OM_ERR_OUTSIDE_WORLD", "rank outside the world"},
    [OM_ERR_AXIS_ORDER] = {"OM_ERR_AXIS_ORDER", "axes out of order"},
    [OM_ERR_SIZE_MISMATCH] = {"OM_ERR_SIZE_MISMATCH", "size mismatch"},
    [OM_ERR_UNALIGNED] = {"OM_ERR_UNALIGNED", "unaligned unflatten"},
    [OM_ERR_VIEW_CONFLICT] = {"OM_ERR_VIEW_CONFLICT", "views disagree"},
    [OM_ERR_UNKNOWN_VIEW] = {"OM_ERR_UNKNOWN_VIEW", "unknown view"},
};

_Static_assert(sizeof statuses / sizeof statuses[0] == OM_STATUS_COUNT,
               "every status has an entry in the table");

static const status_entry *status_entry_of(om_status status)
{
    unsigned code = (unsigned)status;
    return code < OM_STATUS_COUNT ? &statuses[code] : NULL;
}

const char *om_status_string(om_status status)
{
    const status_entry *entry = status_entry_of(status);
    return entry && entry->description ? entry->description : "unknown status";
}

const char *om_status_name(om_status status)
{
    const status_entry *entry = status_entry_of(status);
    return entry ? entry->name : NULL;
}

void om_error_clear(om_error *err)
{
    if (err) {
        err->status = OM_OK;
        err->message[0] = '\0';
    }
}
