/* liboffline_mesh: rank topology of a mesh, computed offline.
 * SPDX-License-Identifier: MIT
 *
 * Ranks are laid out row-major: rank = arange(N).reshape(shape), the last
 * axis varies fastest. The process groups over an axis set S are the sets
 * of ranks that agree on every axis outside S. Groups are numbered
 * row-major over the axes outside S; the members of a group are listed
 * row-major over S (both in mesh order, whatever order S was named in), so
 * members are always in increasing rank order. Example, mesh (dp=2, cp=2,
 * tp=2): tp groups {0,1},{2,3},{4,5},{6,7}; (dp,cp) groups {0,2,4,6},
 * {1,3,5,7}.
 *
 * Axis sets (1.1) are arrays of axis names, `(const char *const *axes,
 * size_t naxes)`, in any order (the set is canonicalised to mesh order),
 * with no limit on the number of axes. A name the mesh lacks is
 * OM_ERR_UNKNOWN_AXIS, a name given twice OM_ERR_DUPLICATE_NAME, a NULL
 * array (with naxes > 0) or NULL name OM_ERR_INVALID_ARGUMENT; each message
 * names the value. naxes 0 is the empty set: one single-rank group per
 * rank. The 1.0 calls take bit masks over axis indices instead (bit i
 * selects axis i, so only the first 64 axes can be selected; om_mesh_axes()
 * builds one from names) and behave as before; they are thin wrappers over
 * the 1.1 implementation.
 *
 * Bulk outputs (1.1) follow one rule, `(T *out, size_t out_len, size_t
 * *needed)`: `*needed` (when `needed` is not NULL) receives the number of
 * elements the result has, on success and on OM_ERR_BUFFER_TOO_SMALL (0
 * when the call failed before knowing it). out_len >= needed writes the
 * result; out NULL with out_len 0 and `needed` given is a size query (OM_OK,
 * nothing written); any other short buffer is OM_ERR_BUFFER_TOO_SMALL,
 * naming both lengths; a NULL `out` with out_len > 0 is
 * OM_ERR_INVALID_ARGUMENT. A coordinate is exactly ndim values both ways:
 * om_mesh_coordinate_of() writes and om_mesh_rank() reads exactly ndim.
 *
 * Memory: nothing here allocates, except a call naming an axis at index
 * 256 or later (one byte per axis for the duration of the call; then
 * OM_ERR_NO_MEMORY is possible). Every query costs O(ndim) time and memory
 * (plus O(naxes * ndim) to resolve names) except the bulk ones, which
 * write into caller buffers and can be asked for any slice of the groups,
 * so a mesh of 2^31-1 ranks can be walked piece by piece.
 *
 * Thread safety: all functions only read the mesh; safe to call
 * concurrently on a shared mesh.
 */
#ifndef OFFLINE_MESH_TOPOLOGY_H
#define OFFLINE_MESH_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#include "offline_mesh/attributes.h"
#include "offline_mesh/status.h"
#include "offline_mesh/mesh.h"

OM_BEGIN_DECLS

/**
 * Axis mask of the comma-separated axis names in `names` ("dp,cp"; spaces
 * around names are ignored; "" is the empty set). An axis whose name
 * contains ',' or has spaces at its ends cannot be named here: build its
 * bit from om_mesh_index_of() instead.
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL, an axis not in the mesh, a
 * repeated axis, an empty item), OM_ERR_OUT_OF_RANGE (an axis at index 64
 * or above). On failure `*mask` (when `mask` is not NULL) is 0.
 */
OM_API OM_NODISCARD om_status om_mesh_axes(const om_mesh *mesh,
                                           const char *names, uint64_t *mask,
                                           om_error *err);

/**
 * Coordinates of `rank`: writes ndim values, in mesh order, to `coord`,
 * which holds `coord_len` >= ndim elements. Errors: OM_ERR_INVALID_ARGUMENT
 * (NULL), OM_ERR_OUT_OF_RANGE (rank < 0 or >= size),
 * OM_ERR_BUFFER_TOO_SMALL.
 */
OM_API OM_NODISCARD om_status om_mesh_coordinate(const om_mesh *mesh,
                                                 int64_t rank, int64_t *coord,
                                                 size_t coord_len,
                                                 om_error *err);

/**
 * Rank at `coord` (exactly ndim values, in mesh order); the inverse of
 * om_mesh_coordinate(). Errors: OM_ERR_INVALID_ARGUMENT (NULL, or
 * `coord_len` != ndim), OM_ERR_OUT_OF_RANGE (a coordinate outside its
 * axis, naming the axis).
 */
OM_API OM_NODISCARD om_status om_mesh_rank(const om_mesh *mesh,
                                           const int64_t *coord,
                                           size_t coord_len, int64_t *rank,
                                           om_error *err);

/**
 * Number of groups over `axes` and the size of each (their product is the
 * mesh size). Errors: OM_ERR_INVALID_ARGUMENT (NULL pointer),
 * OM_ERR_OUT_OF_RANGE (`axes` selects an index >= ndim).
 */
OM_API OM_NODISCARD om_status om_mesh_group_shape(const om_mesh *mesh,
                                                  uint64_t axes,
                                                  int64_t *group_count,
                                                  int64_t *group_size,
                                                  om_error *err);

/**
 * Writes groups `first_group` .. `first_group + group_count - 1` over
 * `axes`, each as group_size ranks, to `out` (`out_len` elements, at least
 * group_count * group_size). Errors: OM_ERR_INVALID_ARGUMENT (NULL),
 * OM_ERR_OUT_OF_RANGE (bad mask, or the slice is outside 0..count),
 * OM_ERR_BUFFER_TOO_SMALL (naming the needed length).
 */
OM_API OM_NODISCARD om_status om_mesh_groups(const om_mesh *mesh,
                                             uint64_t axes,
                                             int64_t first_group,
                                             int64_t group_count,
                                             int32_t *out, size_t out_len,
                                             om_error *err);

/**
 * Index of the group over `axes` that contains `rank`.
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL), OM_ERR_OUT_OF_RANGE (bad mask or
 * rank).
 */
OM_API OM_NODISCARD om_status om_mesh_group_index(const om_mesh *mesh,
                                                  uint64_t axes, int64_t rank,
                                                  int64_t *index,
                                                  om_error *err);

/**
 * Writes the members of the group over `axes` that contains `rank` (the
 * group size, see om_mesh_group_shape()) to `out`. Errors: as
 * om_mesh_group_index(), and OM_ERR_BUFFER_TOO_SMALL.
 */
OM_API OM_NODISCARD om_status om_mesh_group_of(const om_mesh *mesh,
                                               uint64_t axes, int64_t rank,
                                               int32_t *out, size_t out_len,
                                               om_error *err);

/**
 * Host locality of the groups over `axes` when ranks r .. r+k-1 share a
 * host (k = `ranks_per_host`; the last host may be partial): the number of
 * groups, how many of them stay inside one host, and the most hosts any
 * group spans. Time O(size), memory O(ndim).
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL, `ranks_per_host` < 1),
 * OM_ERR_OUT_OF_RANGE (bad mask).
 */
OM_API OM_NODISCARD om_status om_mesh_locality(const om_mesh *mesh,
                                               uint64_t axes,
                                               int64_t ranks_per_host,
                                               int64_t *group_count,
                                               int64_t *local_groups,
                                               int64_t *max_hosts,
                                               om_error *err);

/* ---- 1.1: axis sets by name ---- */

/**
 * The indices of the named axes, in mesh order (the canonical form of the
 * set): writes `*needed` = naxes indices to `out` under the bulk-output
 * rule. Errors: OM_ERR_INVALID_ARGUMENT (NULL mesh, NULL names),
 * OM_ERR_UNKNOWN_AXIS, OM_ERR_DUPLICATE_NAME, OM_ERR_BUFFER_TOO_SMALL,
 * OM_ERR_NO_MEMORY (see Memory).
 */
OM_API OM_NODISCARD om_status om_mesh_axis_indices(const om_mesh *mesh,
                                                   const char *const *axes,
                                                   size_t naxes, int64_t *out,
                                                   size_t out_len,
                                                   size_t *needed,
                                                   om_error *err);

/**
 * Coordinates of `rank`, in mesh order: exactly ndim values under the
 * bulk-output rule (a buffer longer than ndim is OM_ERR_INVALID_ARGUMENT,
 * as om_mesh_rank() refuses a coordinate of the wrong length). Replaces
 * om_mesh_coordinate(). Errors: OM_ERR_INVALID_ARGUMENT (NULL mesh, a
 * longer buffer), OM_ERR_OUT_OF_RANGE (rank < 0 or >= size),
 * OM_ERR_BUFFER_TOO_SMALL.
 */
OM_API OM_NODISCARD om_status om_mesh_coordinate_of(const om_mesh *mesh,
                                                    int64_t rank, int64_t *out,
                                                    size_t out_len,
                                                    size_t *needed,
                                                    om_error *err);

/**
 * Number of groups over the named axes and the size of each (their
 * product is the mesh size). Replaces om_mesh_group_shape(). Errors:
 * OM_ERR_INVALID_ARGUMENT (NULL pointer), the axis-set errors above.
 */
OM_API OM_NODISCARD om_status om_mesh_group_shape_named(const om_mesh *mesh,
                                                        const char *const *axes,
                                                        size_t naxes,
                                                        int64_t *group_count,
                                                        int64_t *group_size,
                                                        om_error *err);

/**
 * Writes groups `first_group` .. `first_group + group_count - 1` over the
 * named axes, each as group_size ranks (`*needed` = group_count *
 * group_size elements, bulk-output rule). Replaces om_mesh_groups().
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL), the axis-set errors,
 * OM_ERR_OUT_OF_RANGE (the slice is outside 0..count),
 * OM_ERR_BUFFER_TOO_SMALL.
 */
OM_API OM_NODISCARD om_status om_mesh_groups_named(const om_mesh *mesh,
                                                   const char *const *axes,
                                                   size_t naxes,
                                                   int64_t first_group,
                                                   int64_t group_count,
                                                   int32_t *out, size_t out_len,
                                                   size_t *needed,
                                                   om_error *err);

/**
 * Index of the group over the named axes that contains `rank`. Replaces
 * om_mesh_group_index(). Errors: OM_ERR_INVALID_ARGUMENT (NULL), the
 * axis-set errors, OM_ERR_OUT_OF_RANGE (bad rank).
 */
OM_API OM_NODISCARD om_status om_mesh_group_index_named(const om_mesh *mesh,
                                                        const char *const *axes,
                                                        size_t naxes,
                                                        int64_t rank,
                                                        int64_t *index,
                                                        om_error *err);

/**
 * Writes the members of the group over the named axes that contains
 * `rank` (`*needed` = group size, bulk-output rule). Replaces
 * om_mesh_group_of(). Errors: as om_mesh_group_index_named(), and
 * OM_ERR_BUFFER_TOO_SMALL.
 */
OM_API OM_NODISCARD om_status om_mesh_group_of_named(const om_mesh *mesh,
                                                     const char *const *axes,
                                                     size_t naxes, int64_t rank,
                                                     int32_t *out,
                                                     size_t out_len,
                                                     size_t *needed,
                                                     om_error *err);

/**
 * Host locality of the groups over the named axes, as om_mesh_locality(),
 * which it replaces. Errors: OM_ERR_INVALID_ARGUMENT (NULL,
 * `ranks_per_host` < 1), the axis-set errors.
 */
OM_API OM_NODISCARD om_status om_mesh_locality_named(const om_mesh *mesh,
                                                     const char *const *axes,
                                                     size_t naxes,
                                                     int64_t ranks_per_host,
                                                     int64_t *group_count,
                                                     int64_t *local_groups,
                                                     int64_t *max_hosts,
                                                     om_error *err);

OM_END_DECLS

#endif /* OFFLINE_MESH_TOPOLOGY_H */
