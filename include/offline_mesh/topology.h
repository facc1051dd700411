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
 * Axis sets are bit masks over axis indices (bit i selects axis i, so only
 * the first 64 axes can be selected); om_mesh_axes() builds one from names.
 * The empty set (mask 0) gives one single-rank group per rank.
 *
 * Memory: nothing here allocates. Every query costs O(ndim) time and
 * memory except the bulk ones, which write into caller buffers and can be
 * asked for any slice of the groups, so a mesh of 2^31-1 ranks can be
 * walked piece by piece.
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
 * or above).
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

OM_END_DECLS

#endif /* OFFLINE_MESH_TOPOLOGY_H */
