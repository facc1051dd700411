/* liboffline_mesh: framework presets, the named views a trainer builds.
 * SPDX-License-Identifier: MIT
 *
 * A preset turns one framework's own parallelism parameters into exactly
 * the views (named meshes over one rank space) and named process groups
 * that framework builds at run time:
 *
 *   "torchtitan"      torchtitan 0.3.0 ParallelDims.build_mesh()
 *                     (dataloading, loss, dense, sparse, spmd_* views)
 *   "megatron"        megatron-core 0.16 initialize_model_parallel()
 *                     (dense and expert RankGenerators, ~20 named groups)
 *   "deepspeed"       deepspeed 0.19 _get_expert_parallel_ranks()
 *                     (expert view, ep / expt_dp groups, E+D or D+E)
 *   "hyper-parallel"  hyper-parallel MeshContext.build_meshs()
 *                     (device, fsdp_non_moe, fsdp_moe, dp_cp per PP stage)
 *
 * Parameters are "KEY=VALUE" strings, keys spelled exactly as the
 * framework spells them (e.g. "tensor_model_parallel_size", "dp_shard",
 * "fsdp_config.dp_shard_size"; docs/views.md lists them all). Values are
 * integers, booleans (true/false, True/False), null (null/None, meaning the
 * framework's default), strings (optionally quoted) or integer lists
 * ("[2,2]" or "2,2"). Absent keys take the framework's defaults. Every
 * preset also accepts "world_size". Validation runs the framework's rules
 * in the framework's order with its messages.
 *
 * Ownership: an om_preset returned through `om_preset **out` belongs to the
 * caller (om_preset_free()); strings returned through `char **out` are
 * freed with om_string_free(); `const char *` results are borrowed from the
 * preset. Thread safety: a preset never changes after construction; any
 * number of threads may read one preset concurrently.
 */
#ifndef OFFLINE_MESH_PRESET_H
#define OFFLINE_MESH_PRESET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "offline_mesh/attributes.h"
#include "offline_mesh/status.h"
#include "offline_mesh/world.h"

OM_BEGIN_DECLS

/* Opaque, immutable result of building a preset. */
typedef struct om_preset om_preset;

/**
 * Builds the views of preset `name` from `nparams` "KEY=VALUE" strings
 * (split at the first '='; keys may not repeat).
 *
 * `world_size` > 0 is the number of ranks; 0 means "take it from the
 * "world_size" parameter" (a "world_size" parameter that differs from a
 * positive `world_size` is an error).
 *
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL `out`, `name`, or `params` with
 * `nparams` > 0; a parameter without '='; an unknown preset; an unknown
 * parameter, named, with the
 * closest valid key suggested; a value of the wrong type; a rule of the
 * framework, with the framework's message, e.g. "world_size (8) is not
 * divisible by 3"), OM_ERR_OUT_OF_RANGE (a size over 2^31-1),
 * OM_ERR_NO_MEMORY. On failure `*out` is NULL.
 */
OM_API OM_NODISCARD om_status om_preset_new(const char *name,
                                            const char *const *params,
                                            size_t nparams, int64_t world_size,
                                            om_preset **out, om_error *err);

/**
 * Builds the "hyper-parallel" preset from a training YAML file: the keys
 * accelerator.{tp,cp,pp,ep}_size and fsdp_config.{dp,edp}_shard_size
 * (YAML integers; absent or null keys take the default 1; each is clamped
 * with max(1, value) as hyper-parallel does). `world_size` > 0 is the
 * number of ranks (the YAML does not hold it).
 * Errors: OM_ERR_IO and OM_ERR_PARSE (the file, with the path and line),
 * then every error of om_preset_new(). One of the six keys given again in
 * its section or a mapping that section merges, or `accelerator:` or
 * `fsdp_config:` given again at the top level, is OM_ERR_PARSE worded as
 * config.h's DUPLICATE_KEY diagnostic ("line 4: key \"tp_size\" appears
 * again in accelerator (line 2's value 2 is replaced by 4)"); 1.3 bug fix:
 * the last value used to win without a word (as in PyYAML). Likewise a
 * second merge key (`<<`) in one of the mappings read (the top level, the
 * two sections, what they merge): both used to apply without a word.
 */
OM_API OM_NODISCARD om_status om_preset_load_yaml(const char *path,
                                                  int64_t world_size,
                                                  om_preset **out,
                                                  om_error *err);

/* Releases a preset. NULL is a no-op. */
OM_API void om_preset_free(om_preset *preset);

/* The preset's name ("megatron", ...), borrowed; NULL for NULL. */
OM_API OM_PURE const char *om_preset_name(const om_preset *preset);

/* Its world size; 0 for NULL. */
OM_API OM_PURE int64_t om_preset_world_size(const om_preset *preset);

/* Number of views and the name of view `index` in the order the framework
 * builds them (NULL when out of range). */
OM_API OM_PURE size_t om_preset_view_count(const om_preset *preset);
OM_API OM_PURE const char *om_preset_view_name(const om_preset *preset,
                                               size_t index);

/* Number of named group lists (Megatron, DeepSpeed; 0 for the others) and
 * the name of list `index` in creation order ("dp_cp", "hcp[0]", ...). */
OM_API OM_PURE size_t om_preset_group_list_count(const om_preset *preset);
OM_API OM_PURE const char *om_preset_group_list_name(const om_preset *preset,
                                                     size_t index);

/**
 * The named group list `name` in the framework's order, groups one after
 * the other into `out` (each group `*group_size` ranks, members in the
 * framework's order). `needed` (may be NULL) receives the number of ranks;
 * when `out_len` is smaller, OM_ERR_BUFFER_TOO_SMALL is returned with
 * `needed` and `group_size` set (as snprintf does); `out` may be NULL
 * when `out_len` is 0. Errors: OM_ERR_INVALID_ARGUMENT (NULL preset or
 * name, a NULL `out` with `out_len` > 0 (before 1.3 it was written
 * through), or no list of that name, named), OM_ERR_BUFFER_TOO_SMALL.
 */
OM_API OM_NODISCARD om_status om_preset_group_list(const om_preset *preset,
                                                   const char *name,
                                                   int32_t *out, size_t out_len,
                                                   size_t *needed,
                                                   size_t *group_size,
                                                   om_error *err);

/**
 * The preset's views as a world (world.h): each view under the names it
 * has among the others (Megatron's expert axes are "pp", "expt_dp", "ep",
 * "expt_tp" there, its size-1 placeholder axes left out), so that an axis
 * name shared by two views gives the same groups in both. Caller frees
 * `*out` with om_world_free(). Errors: OM_ERR_INVALID_ARGUMENT (NULL),
 * OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_preset_world(const om_preset *preset,
                                              om_world **out, om_error *err);

/**
 * The JSON document of `offline-mesh views`: {"views":{NAME:{...}}} with,
 * per view, "dim_names", "shape", "layout" (per axis its [size, stride]
 * modes), "groups" (per axis every group over the world), "coords" (per
 * rank its coordinate, null when the view does not hold it) and, where the
 * framework has them, "instances" and "order"; Megatron and DeepSpeed add
 * a top-level "groups" object with the named group lists; hyper-parallel
 * a top-level "local_ranks" array, per rank the local ranks its
 * MeshContext computes: {"cp_rank","dp_rank","ep_rank","pp_rank",
 * "tp_rank"} = the rank's device coordinate (dp, cp, tp), its pipeline
 * stage (the device instance holding it) and its fsdp_moe "ep"
 * coordinate (0 when ep_size is 1). Keys sorted, no
 * spaces (canonical JSON, as om_mesh_to_json()). Caller frees `*out`.
 * Errors: OM_ERR_INVALID_ARGUMENT, OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_preset_to_json(const om_preset *preset,
                                                char **out, om_error *err);

/**
 * Writes the document of om_preset_to_json() to `stream` as it is
 * computed, through a 64 KiB buffer (flushed block by block), without
 * holding the document: memory stays bounded whatever the world size, and
 * a failed write stops the work at once. No newline is added. Every
 * allocation is made before the first byte: OM_ERR_NO_MEMORY leaves
 * `stream` untouched whatever the document's size; after a failed write
 * (OM_ERR_IO) nothing more is written, and `stream` may hold the 64 KiB
 * blocks flushed before it. Since 1.2.
 * Thread safety: as om_preset_to_json(); `stream` is used by this call
 * only while it runs.
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL preset or stream), OM_ERR_IO (a
 * write or flush failed: "cannot write the views: No space left on
 * device"), OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_preset_write_json(const om_preset *preset,
                                                   FILE *stream, om_error *err);

/**
 * torchtitan's single-axis meshes (ParallelDims.get_mesh /
 * get_optional_mesh keys) as canonical JSON:
 * {"one_dimensional_active":[NAME,...],"single_axis":{NAME:{
 * "fake_backed":BOOL,"from_view":VIEW,"get_optional_mesh_is_none":BOOL,
 * "mesh_dim_name":AXIS,"size":N},...}}. `from_view` and `mesh_dim_name`
 * say where the axis's groups are (its groups in that view).
 * get_optional_mesh returns None for size 1, except fsdp and dp_shard
 * (always real) and efsdp (real exactly when ep > 1); fake-backed (no real
 * communicator) are exactly those, except loss, which torchtitan flattens
 * with the default backend (real even of size 1); one_dimensional_active
 * (get_all_one_dimensional_meshes) lists the axes of size > 1 for which
 * get_optional_mesh is not None, in torchtitan's order. Caller frees
 * `*out` with om_string_free(). Since 1.2.
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL; a preset other than torchtitan,
 * named), OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_preset_single_axes_json(const om_preset *preset,
                                                         char **out,
                                                         om_error *err);

/**
 * Runs every rule of preset `name` on the parameters (as om_preset_new())
 * without stopping at the first failure, then, when the views can be
 * built, the cross-view consistency check (an axis name shared by two views
 * must give the same groups), which lists every disagreeing pair of views
 * and axis, not only the first. `*out` receives canonical JSON
 * {"ok":BOOL,"preset":NAME,"violations":["message",...]} (beyond 64
 * violations, a last entry counts the ones not listed). A failed rule is
 * not an error of this call: OM_OK is returned with "ok":false.
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL arguments, an unknown preset or
 * parameter, a value of the wrong type), OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_preset_check(const char *name,
                                              const char *const *params,
                                              size_t nparams,
                                              int64_t world_size, char **out,
                                              om_error *err);

/* om_preset_check() of the hyper-parallel parameters a training YAML holds
 * (read as om_preset_load_yaml() reads them). Errors: OM_ERR_IO and
 * OM_ERR_PARSE for the file (a repeated key as om_preset_load_yaml()
 * says), then every error of om_preset_check(). */
OM_API OM_NODISCARD om_status om_preset_check_yaml(const char *path,
                                                   int64_t world_size,
                                                   char **out, om_error *err);

OM_END_DECLS

#endif /* OFFLINE_MESH_PRESET_H */
