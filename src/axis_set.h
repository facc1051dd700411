/* Internal: a set of axes of one mesh, with no limit on the number of
 * axes. Every topology call works on this; the 1.0 bit-mask calls and the
 * 1.1 name calls only differ in how they build it. */
#ifndef OFFLINE_MESH_AXIS_SET_H
#define OFFLINE_MESH_AXIS_SET_H

#include "internal.h"

/* Axes 0..255 are tracked inline; a set naming a later axis takes one
 * heap byte per axis (only meshes of more than 256 axes ever need it). */
#define OMI_AXIS_SET_INLINE 256

/* Axis i is selected when i < len and its flag is set. Axes from `len` on
 * are never selected, so a 64-bit mask needs at most 64 flags whatever the
 * mesh's ndim. Read it with omi_axis_set_has(); release it with
 * omi_axis_set_release(). */
typedef struct {
    size_t len;
    size_t count;         /* how many axes are selected */
    unsigned char *heap;  /* len flags when len > OMI_AXIS_SET_INLINE */
    unsigned char small[OMI_AXIS_SET_INLINE];
} omi_axis_set;

static inline bool omi_axis_set_has(const omi_axis_set *set, size_t index)
{
    if (index >= set->len)
        return false;
    return (set->heap ? set->heap : set->small)[index] != 0;
}

/* The set of bit mask `mask` (bit i selects axis i). OM_ERR_OUT_OF_RANGE
 * when it selects an index >= ndim. Never allocates. */
om_status omi_axis_set_from_mask(const om_mesh *mesh, uint64_t mask,
                                 omi_axis_set *set, om_error *err);

/* The set of `naxes` names (any order). OM_ERR_INVALID_ARGUMENT for a NULL
 * array or name, OM_ERR_UNKNOWN_AXIS naming a name the mesh lacks,
 * OM_ERR_DUPLICATE_NAME naming a repeated one, OM_ERR_NO_MEMORY. On error
 * the set is empty and needs no release. */
om_status omi_axis_set_from_names(const om_mesh *mesh,
                                  const char *const *axes, size_t naxes,
                                  omi_axis_set *set, om_error *err);

/* Frees what omi_axis_set_from_names() allocated. */
void omi_axis_set_release(omi_axis_set *set);

#endif
