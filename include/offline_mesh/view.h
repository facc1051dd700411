/* liboffline_mesh: views, meshes whose axes carry strides (VIEWS.md 1).
 * SPDX-License-Identifier: MIT
 *
 * A view is an om_mesh whose axes each carry an ordered list of *modes*
 * (size, stride), slowest first, plus a rank offset:
 *     rank(c) = offset + sum over axes of contribution(c_axis),
 * where axis digit k is split row-major over the axis's modes and mode j
 * contributes k_j * stride_j. A plain mesh (om_mesh_new) is the view with
 * one mode per axis, stride = product of the later sizes, offset 0: every
 * om_mesh_* and topology call keeps its 1.0 meaning on it, and works on any
 * view.
 *
 * A view may also be a *family* of sub-views (what slicing or flattening
 * part of a view gives, torch's `mesh["dp","tp"]`): hidden *instance
 * modes* enumerate the instances; rank r's coordinate is taken inside the
 * instance holding r; groups over an axis set S are listed over every
 * instance. om_mesh_size() is the size of one instance (the product of the
 * axis sizes), om_view_rank_count() counts the ranks of all instances.
 *
 * Normal form: modes of size 1 are dropped and neighbours (s1,d1),(s2,d2)
 * with d1 == s2*d2 merge into (s1*s2, d2), inside each axis and among the
 * instance modes (which are kept sorted by stride, largest first). Two
 * views are equal (om_mesh_equal) when names, shape, normal-form modes,
 * instance modes and offset are equal.
 *
 * Groups over S (any order; canonicalised to view order): ranks agreeing on
 * every axis outside S and on the instance; members row-major over S in view
 * order (multi-mode axes expanded mode by mode); the group list is sorted
 * ascending by first member. For a plain mesh this is 1.0's order.
 *
 * Validity, checked whenever a view is made: names non-empty, valid UTF-8
 * and unique (OM_ERR_EMPTY_NAME, OM_ERR_INVALID_NAME,
 * OM_ERR_DUPLICATE_NAME "duplicate axis name 'tp'"), sizes >= 1
 * (OM_ERR_BAD_SIZE), strides >= 1 and every rank in [0, 2^31-1]
 * (OM_ERR_OUT_OF_RANGE), all ranks of all instances distinct
 * (OM_ERR_RANK_COLLISION "rank 5 appears twice: coords (0,1) and (1,0)").
 * The world size is checked by om_world_new() (world.h).
 *
 * Pairs: modes cross the API as flat int64 arrays of (size, stride) pairs.
 * Ownership, thread safety: as for every om_mesh (mesh.h): views are
 * immutable, the caller frees what it receives with om_mesh_free().
 */
#ifndef OFFLINE_MESH_VIEW_H
#define OFFLINE_MESH_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offline_mesh/attributes.h"
#include "offline_mesh/status.h"
#include "offline_mesh/mesh.h"

OM_BEGIN_DECLS

/**
 * A view with one mode per axis: axis i is (sizes[i], strides[i]), ranks
 * start at `offset`. `names`, `sizes`, `strides` each hold `naxes`
 * elements (`sizes_len`, `strides_len` must equal `naxes`).
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL), OM_ERR_LENGTH_MISMATCH, then the
 * validity rules above, OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_view_new(const char *const *names,
                                          size_t naxes, const int64_t *sizes,
                                          size_t sizes_len,
                                          const int64_t *strides,
                                          size_t strides_len, int64_t offset,
                                          om_mesh **out, om_error *err);

/**
 * The general constructor. Axis i owns `mode_counts[i]` modes (0 for a
 * size-1 axis); `modes` holds their (size, stride) pairs axis after axis,
 * slowest first (`modes_len` = 2 * sum of mode_counts). `instance_modes`
 * (`instance_len` = 2 * their number; NULL/0 for none) are the (size,
 * stride) pairs enumerating the instances of a family. Modes are normalised.
 * Errors: as om_view_new(); OM_ERR_LENGTH_MISMATCH when a length does not
 * match the counts.
 */
OM_API OM_NODISCARD om_status om_view_new_modes(
    const char *const *names, size_t naxes, const int64_t *mode_counts,
    size_t counts_len, const int64_t *modes, size_t modes_len,
    const int64_t *instance_modes, size_t instance_len, int64_t offset,
    om_mesh **out, om_error *err);

/* True when `view` is a plain row-major mesh (one instance, offset 0, each
 * axis a single mode with its suffix-product stride). False for NULL. */
OM_API OM_PURE bool om_view_is_plain(const om_mesh *view);

/* Rank offset of the view (0 for plain meshes and NULL). */
OM_API OM_PURE int64_t om_view_offset(const om_mesh *view);

/* Number of normal-form modes of axis `index` (0 for a size-1 axis, a bad
 * index or NULL). */
OM_API OM_PURE size_t om_view_mode_count(const om_mesh *view, size_t index);

/**
 * Writes the (size, stride) pairs of axis `index` to `out` (2 per mode).
 * `*needed` (when not NULL) receives the number of int64 values required,
 * also when the buffer is short. `out` may be NULL when `out_len` is 0: a
 * size query, which returns OM_ERR_BUFFER_TOO_SMALL with `*needed` set
 * when the axis has modes (as snprintf does; not topology.h's rule).
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL view, or NULL buffer with
 * `out_len` > 0), OM_ERR_OUT_OF_RANGE (index >= ndim),
 * OM_ERR_BUFFER_TOO_SMALL.
 */
OM_API OM_NODISCARD om_status om_view_modes(const om_mesh *view, size_t index,
                                            int64_t *out, size_t out_len,
                                            size_t *needed, om_error *err);

/* Number of instances of a family (1 for an ordinary view, 0 for NULL). */
OM_API OM_PURE int64_t om_view_instance_count(const om_mesh *view);

/* Number of instance modes (pairs) of the view. */
OM_API OM_PURE size_t om_view_instance_mode_count(const om_mesh *view);

/**
 * Writes the instance modes' (size, stride) pairs (largest stride first),
 * with the same buffer rules as om_view_modes().
 */
OM_API OM_NODISCARD om_status om_view_instance_modes(const om_mesh *view,
                                                     int64_t *out,
                                                     size_t out_len,
                                                     size_t *needed,
                                                     om_error *err);

/* Ranks held by the view, all instances together (instances * size; 0 for
 * NULL). */
OM_API OM_PURE int64_t om_view_rank_count(const om_mesh *view);

/* One past the largest rank the view holds (its extent; 0 for NULL). */
OM_API OM_PURE int64_t om_view_extent(const om_mesh *view);

/* True when some instance of the view holds `rank`. */
OM_API OM_PURE bool om_view_holds(const om_mesh *view, int64_t rank);

/**
 * flatten(axes, name): a one-axis family whose axis has the chosen axes'
 * modes concatenated in the order named (normalised); the other axes become
 * instance modes. `axes` (`naxes` >= 1 distinct names) must be in view
 * order, except that a size-1 axis (no modes) may stand anywhere, as torch
 * accepts for mesh[axes]._flatten() (torch checks the order of the mesh's
 * dimensions, not their strides: on a view whose strides do not fall in
 * view order, such as a transposed slice, falling strides are not enough).
 * `name` NULL or "" means the names joined by '_'. One axis flattened into its own name gives that axis's sub-view
 * family, as om_view_slice(view, axes, 1) does (torch returns mesh["x"]);
 * for a one-axis view that is an equal view.
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL, no axes, a repeated axis),
 * OM_ERR_UNKNOWN_AXIS (an axis not in the view), OM_ERR_AXIS_ORDER ("axes 'tp'
 * and 'dp' are not in view order (dp, cp, tp)"), OM_ERR_DUPLICATE_NAME (the
 * name is an axis of the view: "tp already exists in the view (pp, dp,
 * tp)"), OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_view_flatten(const om_mesh *view,
                                              const char *const *axes,
                                              size_t naxes, const char *name,
                                              om_mesh **out, om_error *err);

/**
 * unflatten(axis, sizes, names): replaces axis `axis` by `nsizes` axes,
 * the first slowest, composing its modes with the row-major layout of
 * `sizes` (VIEWS.md 1). `nnames` must equal `nsizes`.
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL, no sizes), OM_ERR_UNKNOWN_AXIS,
 * OM_ERR_LENGTH_MISMATCH, OM_ERR_BAD_SIZE, OM_ERR_SIZE_MISMATCH ("the
 * product of sizes (3, 2) is 6, but axis 'dp' has size 4"),
 * OM_ERR_UNALIGNED ("unflatten of 'a' into (2,3) does not align with its
 * modes"), OM_ERR_DUPLICATE_NAME (a new name clashes), OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_view_unflatten(
    const om_mesh *view, const char *axis, const int64_t *sizes,
    size_t nsizes, const char *const *names, size_t nnames, om_mesh **out,
    om_error *err);

/**
 * view[(a, b, ...)]: the family of sub-views over the named axes, in the
 * order named (lenient: any order is accepted, VIEWS.md 4); the other axes
 * become instance modes. A single name the view lacks gives the empty
 * mesh (DOMAIN.md's lenient mesh["ep"], VIEWS.md 1). Errors:
 * OM_ERR_INVALID_ARGUMENT (NULL, an empty list, a name repeated),
 * OM_ERR_UNKNOWN_AXIS (a name not in the view, among two or more),
 * OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_view_slice(const om_mesh *view,
                                            const char *const *axes,
                                            size_t naxes, om_mesh **out,
                                            om_error *err);

/**
 * The view record as JSON, keys sorted, no spaces:
 * {"dim_names":[..],"layout":[[[size,stride],..],..],"shape":[..]}, plus
 * "offset" when it is not 0 and "instances" (every instance's ranks,
 * row-major, ascending by first rank) when the view is a family of more
 * than one instance. Caller frees `*out` with om_string_free().
 * Errors: OM_ERR_INVALID_ARGUMENT, OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_view_to_json(const om_mesh *view, char **out,
                                              om_error *err);

/**
 * Reads a view record (`length` bytes): "dim_names", "shape", "layout"
 * required; "offset", "instances" optional; "groups", "coords" and
 * "order" (derived data other tools print) are accepted and ignored; any
 * other key is refused. Size-1 modes are accepted and normalised away.
 * "instances" must be the instances of a strided family of the layout.
 * Errors: OM_ERR_PARSE (malformed, wrong types, unknown keys, instances
 * that are not a strided family, a shape that disagrees with the layout),
 * then the validity rules.
 */
OM_API OM_NODISCARD om_status om_view_from_json(const char *text,
                                                size_t length, om_mesh **out,
                                                om_error *err);

OM_END_DECLS

#endif /* OFFLINE_MESH_VIEW_H */
