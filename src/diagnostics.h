/* Internal: filling an om_diagnostics list (config.h). */
#ifndef OFFLINE_MESH_DIAGNOSTICS_H
#define OFFLINE_MESH_DIAGNOSTICS_H

#include "internal.h"
#include "offline_mesh/config.h"

/* One diagnostic: its message is an om_error's, so it has the same bound
 * and can take the same path prefix. */
typedef struct {
    om_diagnostic_kind kind;
    int64_t line; /* 0: the whole document */
    om_error text;
} omi_diagnostic;

/* A config has at most one document-level diagnostic, the unknown keys
 * reported one by one and the one that counts the rest, and as many for
 * repeated keys (8 and one that counts the rest). */
#define OMI_DIAGNOSTICS_CAP (OM_DIAGNOSTICS_MAX_UNKNOWN_KEYS + 2 + 9)

struct om_diagnostics {
    omi_diagnostic items[OMI_DIAGNOSTICS_CAP];
    size_t count;
};

/* Appends a diagnostic (printf-style message); a full list keeps the ones
 * it has (the projection never adds more than OMI_DIAGNOSTICS_CAP). */
void omi_diagnostics_add(om_diagnostics *list, om_diagnostic_kind kind,
                         int64_t line, const char *fmt, ...) OMI_PRINTF(4, 5);

/* Puts "<path>: " in front of every message (as omi_prefix_path does). */
void omi_diagnostics_prefix_path(om_diagnostics *list, const char *path);

#endif
