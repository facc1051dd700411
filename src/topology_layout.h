/* Internal: strided layouts of rank enumerations, shared by topology.c and
 * locality.c. */
#ifndef OFFLINE_MESH_TOPOLOGY_LAYOUT_H
#define OFFLINE_MESH_TOPOLOGY_LAYOUT_H

#include "internal.h"

/* Axes of size > 1 number at most 30 (their product is < 2^31); one more
 * slot for the split in omi_emit(). */
#define OMI_MAX_LAYOUT 34

typedef struct {
    int64_t len;
    int64_t stride;
} omi_axis;

/* Axes listed outermost first; value = base + sum(coord_i * stride_i). */
typedef struct {
    size_t n;
    omi_axis ax[OMI_MAX_LAYOUT];
} omi_layout;

/* Appends an axis, dropping size 1 and merging with a contiguous
 * predecessor. */
void omi_layout_push(omi_layout *layout, int64_t len, int64_t stride);
/* The axes outside `axes` (when `outside`), then those inside (when
 * `inside`), each part in mesh order. */
void omi_layout_build(const om_mesh *mesh, uint64_t axes, bool outside,
                      bool inside, omi_layout *layout);
/* Writes elements e0..e1-1 of the row-major enumeration of `layout`. */
void omi_emit(const omi_layout *layout, int64_t base, int64_t e0, int64_t e1,
              int32_t *out);
/* OM_ERR_OUT_OF_RANGE when `axes` selects an index >= ndim. */
om_status omi_check_axes(const om_mesh *mesh, uint64_t axes, om_error *err);
/* Number and size of the groups over `axes` (mask already checked). */
void omi_group_shape(const om_mesh *mesh, uint64_t axes, int64_t *count,
                     int64_t *size);

#endif
