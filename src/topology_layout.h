/* Internal: strided layouts of rank enumerations, shared by topology.c,
 * locality.c and the group kernel (group_kernel.c). */
#ifndef OFFLINE_MESH_TOPOLOGY_LAYOUT_H
#define OFFLINE_MESH_TOPOLOGY_LAYOUT_H

#include "axis_set.h"
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

/* The axes outside `axes` (when `outside`), then those inside (when
 * `inside`), each part in mesh order. */
void omi_layout_build(const om_mesh *mesh, const omi_axis_set *axes,
                      bool outside, bool inside, omi_layout *layout);
/* Advances an odometer over axes ax[0..n) (last fastest) by one step,
 * keeping `*value` = sum(coord_i * stride_i) + its starting offset.
 * Returns false when it wraps back to all zeros. */
static inline bool omi_odometer_step(const omi_axis *ax, size_t n,
                                     int64_t *coord, int64_t *value)
{
    for (size_t i = n; i-- > 0;) {
        *value += ax[i].stride;
        if (++coord[i] < ax[i].len)
            return true;
        *value -= ax[i].len * ax[i].stride;
        coord[i] = 0;
    }
    return false;
}

/* Writes elements e0..e1-1 of the row-major enumeration of `layout`. */
void omi_emit(const omi_layout *layout, int64_t base, int64_t e0, int64_t e1,
              int32_t *out);
/* Number and size of the groups over `axes`. */
void omi_group_shape(const om_mesh *mesh, const omi_axis_set *axes,
                     int64_t *count, int64_t *size);

#endif
