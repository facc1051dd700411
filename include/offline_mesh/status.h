/* liboffline_mesh: status codes and the error report.
 * SPDX-License-Identifier: MIT
 *
 * Every fallible function returns an om_status and takes, as its last
 * parameter, an optional `om_error *err`. On failure the library fills
 * `err` (when it is not NULL) with the same status and a one-line message
 * that names the offending value, e.g.
 * "world size 6 is not divisible by tp*cp*pp = 4". On success `err` is left
 * untouched. The message travels with the call that failed, so bindings
 * never depend on thread-local state (a goroutine may change OS thread
 * between two cgo calls). The library keeps no global or thread-local
 * error state at all.
 */
#ifndef OFFLINE_MESH_STATUS_H
#define OFFLINE_MESH_STATUS_H

#include "offline_mesh/attributes.h"

OM_BEGIN_DECLS

/* Status codes. The numeric values are pinned for the 1.x ABI: new codes
 * are only ever appended. */
typedef enum om_status {
    OM_OK = 0,                   /* success */
    OM_ERR_INVALID_ARGUMENT = 1, /* NULL where a value is required, a bad
                                    value or an inconsistent combination */
    OM_ERR_OUT_OF_RANGE = 2,     /* a number beyond its limits: rank or
                                    coordinate outside the mesh, a size over
                                    2^31-1, an overflowing product */
    OM_ERR_PARSE = 3,            /* malformed YAML / JSON / spec text or a
                                    value of the wrong type in it */
    OM_ERR_IO = 4,               /* a file could not be opened or read */
    OM_ERR_NO_MEMORY = 5,        /* an allocation failed */
    OM_ERR_LENGTH_MISMATCH = 6,  /* mesh names and shape differ in length */
    OM_ERR_DUPLICATE_NAME = 7,   /* an axis name appears twice */
    OM_ERR_EMPTY_NAME = 8,       /* an axis name is empty */
    OM_ERR_BAD_SIZE = 9,         /* an axis size is < 1 */
    OM_ERR_MESH_TOO_LARGE = 10,  /* the product of the sizes exceeds 2^31-1 */
    OM_ERR_INVALID_NAME = 11,    /* an axis name is NULL or not valid UTF-8 */
    OM_ERR_BUFFER_TOO_SMALL = 12, /* a caller buffer cannot hold the result */
    /* 1.1 */
    OM_ERR_UNKNOWN_AXIS = 13,    /* an axis named in a set is not in the mesh */
    /* 1.1: views (view.h, world.h) */
    OM_ERR_RANK_COLLISION = 14,  /* two coordinates of a view give one rank */
    OM_ERR_OUTSIDE_WORLD = 15,   /* a view reaches a rank outside [0, world) */
    OM_ERR_AXIS_ORDER = 16,      /* axes named out of view order (flatten) */
    OM_ERR_SIZE_MISMATCH = 17,   /* unflatten sizes do not multiply to the
                                    axis size */
    OM_ERR_UNALIGNED = 18,       /* an unflatten would cut one of the
                                    axis's modes */
    OM_ERR_VIEW_CONFLICT = 19,   /* two views of a world give one axis
                                    different groups */
    OM_ERR_UNKNOWN_VIEW = 20     /* a named view is not in the world */
} om_status;

/* Number of status codes: every value 0 .. OM_STATUS_COUNT-1 is a status.
 * Grows when a release appends codes; loop bounds and tables use it. */
#define OM_STATUS_COUNT 21

/* Size of om_error.message, including the terminating NUL. */
#define OM_ERROR_MESSAGE_SIZE 256

/* The error report a caller may pass to any fallible call. Plain data: the
 * caller owns it (usually on the stack); the library only writes to it. The
 * message is always NUL-terminated; long values in it are shortened with
 * "...". The layout is fixed for the 1.x ABI. */
typedef struct om_error {
    om_status status;
    char message[OM_ERROR_MESSAGE_SIZE];
} om_error;

/* Static English name of a status, e.g. "invalid argument". Never NULL;
 * unknown values give "unknown status". Thread-safe. */
OM_API const char *om_status_string(om_status status);

/* C identifier of a status, e.g. "OM_ERR_UNKNOWN_AXIS" (for bindings that
 * mirror the enumeration). Static; NULL for an unknown value. Thread-safe.
 * Since 1.1. */
OM_API const char *om_status_name(om_status status);

/* Resets `err` to OM_OK and an empty message. NULL is a no-op. */
OM_API void om_error_clear(om_error *err);

OM_END_DECLS

#endif /* OFFLINE_MESH_STATUS_H */
