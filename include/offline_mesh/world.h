/* liboffline_mesh: a world, one rank space and its named views (VIEWS.md 2).
 * SPDX-License-Identifier: MIT
 *
 * An om_world is a world size W plus named views (view.h) of the ranks
 * [0, W). Construction checks, in this order: view names non-empty, valid
 * UTF-8 and unique; every view's ranks inside [0, W); and the consistency
 * rule: an axis name appearing in two views must give the same groups in
 * both (same set of groups, same member order; the group-list order may
 * differ), reporting the first disagreeing rank:
 *   views 'dense' and 'sparse' disagree on axis 'dp_replicate': rank 3 is
 *   in [1, 3] in 'dense' and in [3, 7] in 'sparse'
 *
 * Ownership: the world copies the views it is given; views handed out
 * (om_world_view, om_world_slice) are new objects the caller frees with
 * om_mesh_free(). Strings returned directly are borrowed from the world.
 * Thread safety: a world is immutable; every call taking a
 * `const om_world *` may run concurrently on one world.
 */
#ifndef OFFLINE_MESH_WORLD_H
#define OFFLINE_MESH_WORLD_H

#include <stddef.h>
#include <stdint.h>

#include "offline_mesh/attributes.h"
#include "offline_mesh/status.h"
#include "offline_mesh/mesh.h"

OM_BEGIN_DECLS

/* Opaque, immutable world handle. */
typedef struct om_world om_world;

/**
 * Creates a world of `world_size` ranks (1 .. 2^31-1) holding `nviews`
 * views named `view_names` (`nnames` must equal `nviews`; zero views is a
 * valid, empty world). The views are copied. Of several broken rules the
 * first is reported, in view order. Many views cost O(n log n) (names are
 * indexed; each view sharing an axis name is compared with its first
 * holder), not a comparison of every pair.
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL), OM_ERR_LENGTH_MISMATCH,
 * OM_ERR_OUT_OF_RANGE (world size), OM_ERR_EMPTY_NAME, OM_ERR_INVALID_NAME,
 * OM_ERR_DUPLICATE_NAME ("duplicate view name 'dense'"),
 * OM_ERR_OUTSIDE_WORLD ("view 'x' reaches rank 9, world size is 8"),
 * OM_ERR_VIEW_CONFLICT (the consistency rule, message above),
 * OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_world_new(int64_t world_size,
                                           const char *const *view_names,
                                           size_t nnames,
                                           const om_mesh *const *views,
                                           size_t nviews, om_world **out,
                                           om_error *err);

/* Releases a world. NULL is a no-op. */
OM_API void om_world_free(om_world *world);

/* World size (0 for NULL). */
OM_API OM_PURE int64_t om_world_size(const om_world *world);

/* Number of views (0 for NULL). */
OM_API OM_PURE size_t om_world_view_count(const om_world *world);

/* Name of view `index` (construction order), borrowed; NULL when out of
 * range or NULL world. */
OM_API OM_PURE const char *om_world_view_name(const om_world *world,
                                              size_t index);

/* Index of the view called `name`, or -1. */
OM_API OM_PURE int om_world_view_index(const om_world *world,
                                       const char *name);

/**
 * A copy of the view called `name` (caller frees). Errors:
 * OM_ERR_INVALID_ARGUMENT (NULL), OM_ERR_UNKNOWN_VIEW ("no view 'x' in the
 * world (dense, sparse)"), OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_world_view(const om_world *world,
                                            const char *name, om_mesh **out,
                                            om_error *err);

/* Name of the first view (construction order) that has an axis called
 * `axis`, borrowed; NULL when none has or an argument is NULL. By the
 * consistency rule every view holding the axis gives it the same groups. */
OM_API OM_PURE const char *om_world_axis_view(const om_world *world,
                                              const char *axis);

/**
 * Slices the world by axis names: each name is looked up as by
 * om_world_axis_view() (so names of different views, e.g. a flattened
 * `dp_tp` and `cp`, combine, as torch's root-mesh slicing does); the result
 * is the family over those axes, in the order named, whose instances
 * tile the world. Errors: OM_ERR_INVALID_ARGUMENT (NULL, empty list, a
 * repeated name), OM_ERR_UNKNOWN_AXIS (a name no view holds),
 * OM_ERR_RANK_COLLISION (the axes share ranks: "slicing overlapping axes
 * ('dp', 'dp_tp') is not allowed: rank 4 appears twice: coords (1,0) and
 * (0,2)"), OM_ERR_UNALIGNED (the axes do not tile the world into strided
 * instances), OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_world_slice(const om_world *world,
                                             const char *const *axes,
                                             size_t naxes, om_mesh **out,
                                             om_error *err);

/**
 * The world as JSON: {"views":{NAME:VIEW,...},"world_size":W} with each
 * VIEW as om_view_to_json() writes it, views in construction order.
 * Caller frees `*out` with om_string_free().
 * Errors: OM_ERR_INVALID_ARGUMENT, OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_world_to_json(const om_world *world,
                                               char **out, om_error *err);

/**
 * Reads a world document (`length` bytes): an object with "views" (name ->
 * view record, om_view_from_json()) and optionally "world_size" (else the
 * largest extent of its views; 1 without views), "groups" and "local_ranks" (named groups
 * and per-rank local ranks `offline-mesh views` prints; ignored). Other
 * keys are refused. Then checks as om_world_new().
 * Errors: OM_ERR_PARSE (prefixed "view 'NAME': " for a bad record), then
 * every error of om_world_new().
 */
OM_API OM_NODISCARD om_status om_world_from_json(const char *text,
                                                 size_t length,
                                                 om_world **out,
                                                 om_error *err);

/**
 * om_world_from_json() of the file at `path` (at most 64 MiB), e.g. what
 * `offline-mesh views` printed. Errors: OM_ERR_INVALID_ARGUMENT (NULL),
 * OM_ERR_IO (the file cannot be read, naming the path), then every error
 * of om_world_from_json() prefixed with the path.
 */
OM_API OM_NODISCARD om_status om_world_load_json(const char *path,
                                                 om_world **out,
                                                 om_error *err);

OM_END_DECLS

#endif /* OFFLINE_MESH_WORLD_H */
