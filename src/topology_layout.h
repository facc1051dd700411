/* Internal: strided layouts of rank enumerations, shared by topology.c,
 * locality.c and the group kernel (group_kernel.c). */
#ifndef OFFLINE_MESH_TOPOLOGY_LAYOUT_H
#define OFFLINE_MESH_TOPOLOGY_LAYOUT_H

#include "axis_set.h"
#include "internal.h"

/* Axes of size > 1 number at most 30 (their product is < 2^31); one more
 * slot for the split in omi_emit(). No input reaches it: every layout is
 * made of the size >= 2 modes of one view (or preset view). */
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

/* Appends a mode, dropping size 1 and merging with a contiguous
 * predecessor (the enumeration stays the same, and the layout stays in
 * the unique normal form of its enumeration). */
void omi_layout_push(omi_layout *layout, int64_t len, int64_t stride);
/* The modes outside `axes` (when `outside`: instance modes and the other
 * axes' modes, largest stride first), then those inside (when `inside`: the
 * set's modes in view order, i.e. member order). For a plain mesh both
 * parts are the axes in mesh order, as in 1.0 (view_groups.c). */
void omi_layout_build(const om_mesh *mesh, const omi_axis_set *axes,
                      bool outside, bool inside, omi_layout *layout);
/* The set's modes largest stride first: the members of a group in
 * increasing order when omi_layout_ascending() holds (for locality). */
void omi_layout_build_sorted(const om_mesh *mesh, const omi_axis_set *axes,
                             omi_layout *layout);
/* True when both layouts are the same modes (in normal form: the same
 * enumeration). */
bool omi_layout_equal(const omi_layout *a, const omi_layout *b);
/* True when the layout enumerates in ascending order (each stride exceeds
 * everything the later axes reach). */
bool omi_layout_ascending(const omi_layout *layout);
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
/* ---- groups of any view (view_groups.c) ---- */
/* Number and size of the groups over `axes` (all instances of a family). */
void omi_group_shape(const om_mesh *mesh, const omi_axis_set *axes,
                     int64_t *count, int64_t *size);
/* Writes groups first .. first+count-1 (ascending by first member) to out;
 * fails only with OM_ERR_NO_MEMORY, for views whose groups do not come out
 * in that order by themselves (interleaved strides). */
om_status omi_groups_write(const om_mesh *mesh, const omi_axis_set *axes,
                           int64_t first, int64_t count, int32_t *out,
                           om_error *err);
/* First members of all `count` groups (outside modes `outside`), sorted:
 * for views whose outside modes do not nest (interleaved strides), the
 * only case that allocates (free with omi_free(); NULL when out of
 * memory). */
int64_t *omi_group_bases(const om_mesh *mesh, const omi_layout *outside,
                         int64_t count);
/* Index of the group holding the held `rank`. */
int64_t omi_group_index(const om_mesh *mesh, const omi_axis_set *axes,
                        int64_t rank);
/* Writes the members of the group holding the held `rank`. */
void omi_group_members(const om_mesh *mesh, const omi_axis_set *axes,
                       int64_t rank, int32_t *out);
/* OM_ERR_OUT_OF_RANGE naming the rank when no instance of the view holds it
 * (1.0's message for plain meshes). */
om_status omi_check_rank(const om_mesh *mesh, int64_t rank, om_error *err);
/* The set of axes first .. first+n-1 of `mesh` (release it after use). */
om_status omi_axis_set_range(const om_mesh *mesh, size_t first, size_t n,
                             omi_axis_set *set, om_error *err);

#endif
