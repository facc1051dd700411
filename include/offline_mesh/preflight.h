/* liboffline_mesh: the checks a sharding planner runs against a mesh.
 * SPDX-License-Identifier: MIT
 *
 * Thread safety: all functions only read their arguments; safe to call
 * concurrently on shared meshes.
 */
#ifndef OFFLINE_MESH_PREFLIGHT_H
#define OFFLINE_MESH_PREFLIGHT_H

#include <stdint.h>

#include "offline_mesh/attributes.h"
#include "offline_mesh/status.h"
#include "offline_mesh/mesh.h"

OM_BEGIN_DECLS

/**
 * Axis validation of a plan with sizes tp, cp, ep (1.1 name): for tp and
 * cp with size > 1 the mesh must have that axis with that size; ep is
 * compared only when the mesh has an "ep" axis. Errors:
 * OM_ERR_INVALID_ARGUMENT (NULL, a size < 1, or a failed check, e.g.
 * "tp_size 4 does not match mesh axis tp of size 2").
 */
OM_API OM_NODISCARD om_status om_mesh_validate_plan(const om_mesh *mesh,
                                                    int64_t tp_size,
                                                    int64_t cp_size,
                                                    int64_t ep_size,
                                                    om_error *err);

/**
 * The plan coordinate axes (1.1 name): the mesh's names, in mesh order,
 * that are "tp", "cp" or "ep" with a plan size (the argument) > 1,
 * comma-separated ("" when none). "dp" is never one. Caller frees `*out`.
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL, size < 1), OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_mesh_plan_axes(const om_mesh *mesh,
                                                int64_t tp_size,
                                                int64_t cp_size,
                                                int64_t ep_size, char **out,
                                                om_error *err);

/**
 * Extended expert parallelism (1.1 name): re-slices the dense region (all
 * non-"pp" axes, flattened row-major in mesh order) as the mesh ("edp",
 * "ep") = (dense / ep, ep). Its groups over "ep" are the EP groups (ep
 * consecutive ranks) and over "edp" the EDP groups (every ep-th rank); see
 * topology.h. A view (view.h) is cut the same way in its own ranks, taken
 * in its row-major order, per instance: the result is the view
 * flatten-then-unflatten gives, so its groups are the view's global ranks
 * (since 1.3, a bug fix: it was the plain mesh of ranks 0..n-1); a view of
 * no axes gives (1, 1) on its own ranks and instances.
 * `num_experts` 0 means "not given". Caller frees `*out`.
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL; ep < 1; num_experts < 0; a "pp"
 * axis of size > 1; ep not dividing the dense region or larger than it;
 * num_experts not divisible by ep), OM_ERR_UNALIGNED (a view whose modes
 * the (edp, ep) cut would split), OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_mesh_reslice_experts(const om_mesh *mesh,
                                                      int64_t ep_size,
                                                      int64_t num_experts,
                                                      om_mesh **out,
                                                      om_error *err);

/* The 1.0 names of the three calls above; same behaviour. */
OM_API OM_NODISCARD om_status om_validate_axes(const om_mesh *mesh,
                                               int64_t tp_size,
                                               int64_t cp_size,
                                               int64_t ep_size,
                                               om_error *err);
OM_API OM_NODISCARD om_status om_plan_dim_names(const om_mesh *mesh,
                                                int64_t tp_size,
                                                int64_t cp_size,
                                                int64_t ep_size, char **out,
                                                om_error *err);
OM_API OM_NODISCARD om_status om_expert_mesh(const om_mesh *mesh,
                                             int64_t ep_size,
                                             int64_t num_experts,
                                             om_mesh **out, om_error *err);

OM_END_DECLS

#endif /* OFFLINE_MESH_PREFLIGHT_H */
