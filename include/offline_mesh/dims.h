/* liboffline_mesh: parallel dims, their YAML projection and the offline
 * mesh built from them.
 * SPDX-License-Identifier: MIT
 *
 * An om_dims holds the seven fields of a training config's parallelism:
 * dp, tp, cp, ep and pp sizes (default 1) and the sequence_parallel and
 * loss_parallel flags (default false). Fields are read and written through
 * enum-keyed accessors so fields can be added without breaking the ABI.
 *
 * Ownership: handles returned through `om_dims **out` / `om_mesh **out`
 * belong to the caller (om_dims_free() / om_mesh_free()); strings through
 * `char **out` are freed with om_string_free().
 *
 * Thread safety: getters may run concurrently on one handle; a setter must
 * not run concurrently with any other call on the same handle. The YAML
 * functions read the process environment (getenv) when asked to discover
 * the world size: do not modify the environment concurrently.
 */
#ifndef OFFLINE_MESH_DIMS_H
#define OFFLINE_MESH_DIMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include "offline_mesh/attributes.h"
#include "offline_mesh/status.h"
#include "offline_mesh/mesh.h"

OM_BEGIN_DECLS

/* Opaque, mutable parallel-dims handle. */
typedef struct om_dims om_dims;

/* The size fields. Values are pinned for the 1.x ABI. */
typedef enum om_dim {
    OM_DIM_DP = 0,
    OM_DIM_TP = 1,
    OM_DIM_CP = 2,
    OM_DIM_EP = 3,
    OM_DIM_PP = 4
} om_dim;

/* Number of size fields: every value 0 .. OM_DIM_COUNT-1 is an om_dim.
 * Grows when a release adds a field; loops and tables use it. */
#define OM_DIM_COUNT 5

/* The boolean fields. Values are pinned for the 1.x ABI. */
typedef enum om_flag {
    OM_FLAG_SEQUENCE_PARALLEL = 0,
    OM_FLAG_LOSS_PARALLEL = 1
} om_flag;

/* Number of flags: every value 0 .. OM_FLAG_COUNT-1 is an om_flag. */
#define OM_FLAG_COUNT 2

/* Where a world size came from (1.1). Values are pinned for the 1.x ABI. */
typedef enum om_world_size_source {
    OM_WORLD_SIZE_UNRESOLVED = 0,  /* none applied yet (fresh dims) */
    OM_WORLD_SIZE_EXPLICIT = 1,    /* the caller's value (CLI --world-size) */
    OM_WORLD_SIZE_FROM_WORLD_SIZE = 2,            /* torchrun */
    OM_WORLD_SIZE_FROM_OMPI_COMM_WORLD_SIZE = 3,  /* Open MPI */
    OM_WORLD_SIZE_FROM_PMI_SIZE = 4,              /* MPICH, Intel MPI */
    OM_WORLD_SIZE_FROM_SLURM_NTASKS = 5,          /* Slurm */
    OM_WORLD_SIZE_DEFAULT = 6      /* none given or set anywhere: 1 */
} om_world_size_source;

/* Number of world-size sources (0 .. OM_WORLD_SIZE_SOURCE_COUNT-1). */
#define OM_WORLD_SIZE_SOURCE_COUNT 7

/* Creates dims with the defaults (all sizes 1, both flags false).
 * Errors: OM_ERR_INVALID_ARGUMENT (`out` NULL), OM_ERR_NO_MEMORY. */
OM_API OM_NODISCARD om_status om_dims_new(om_dims **out, om_error *err);

/* Creates an independent copy of `dims`. Same errors as om_dims_new(). */
OM_API OM_NODISCARD om_status om_dims_copy(const om_dims *dims, om_dims **out,
                                           om_error *err);

/* Releases dims. NULL is a no-op. */
OM_API void om_dims_free(om_dims *dims);

/* Field name of a size, e.g. "tp_size"; NULL for an unknown value. */
OM_API const char *om_dim_field_name(om_dim dim);

/* Axis name of a size, e.g. "tp"; NULL for an unknown value. */
OM_API const char *om_dim_axis_name(om_dim dim);

/* Field name of a flag, e.g. "sequence_parallel"; NULL when unknown. */
OM_API const char *om_flag_field_name(om_flag flag);

/* Value of a size field; -1 for a NULL handle or unknown `dim`. */
OM_API OM_PURE int64_t om_dims_get(const om_dims *dims, om_dim dim);

/**
 * Sets a size field. 0 means "not declared": dp/cp/tp at 0 are left out of
 * the mesh, pp/ep at 0 behave as 1. Errors: OM_ERR_INVALID_ARGUMENT (NULL
 * handle, unknown `dim`, negative value), OM_ERR_OUT_OF_RANGE (value over
 * 2^31-1). On error the handle is unchanged.
 */
OM_API OM_NODISCARD om_status om_dims_set(om_dims *dims, om_dim dim,
                                          int64_t value, om_error *err);

/* Value of a flag; false for a NULL handle or unknown `flag`. */
OM_API OM_PURE bool om_dims_get_flag(const om_dims *dims, om_flag flag);

/* Sets a flag. Errors: OM_ERR_INVALID_ARGUMENT (NULL, unknown `flag`). */
OM_API OM_NODISCARD om_status om_dims_set_flag(om_dims *dims, om_flag flag,
                                               bool value, om_error *err);

/* True when every field is equal. Two NULLs are equal. */
OM_API OM_PURE bool om_dims_equal(const om_dims *a, const om_dims *b);

/**
 * Canonical JSON of the seven fields, keys sorted, no spaces:
 * {"cp_size":1,"dp_size":8,"ep_size":1,"loss_parallel":false,"pp_size":1,
 *  "sequence_parallel":false,"tp_size":1}. Caller frees `*out`.
 * Errors: OM_ERR_INVALID_ARGUMENT, OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_dims_to_json(const om_dims *dims, char **out,
                                              om_error *err);

/**
 * Builds the offline mesh of `dims` (1.1 name): axes dp, cp, tp in that
 * order, each present when its size is >= 1 (even at 1); pp appended last
 * when its size is > 1; ep never an axis (ep_size travels beside the
 * mesh). Errors: OM_ERR_INVALID_ARGUMENT (NULL), OM_ERR_MESH_TOO_LARGE,
 * OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_mesh_from_dims(const om_dims *dims,
                                                om_mesh **out, om_error *err);

/**
 * Builds the mesh of `dims` in a runtime axis order (1.1 name), as a live
 * trainer lays out its ranks. `order` lists axis names from {dp, cp, tp,
 * pp, ep}: separated by ',' they are read slowest-varying first
 * ("pp,dp,cp,tp", as PyTorch/JAX/MPI write meshes); separated by '-' they
 * are read Megatron style, fastest-varying first ("tp-cp-ep-dp-pp" is the
 * mesh pp,dp,ep,cp,tp). The result has the axes of om_mesh_from_dims()
 * arranged in that order; names in `order` that the offline mesh lacks (pp
 * at size 1, ep) are skipped. Axes of size 1 that `order` omits stay,
 * outermost, in their offline order. Errors: OM_ERR_INVALID_ARGUMENT (NULL,
 * an unknown or repeated axis, mixed separators, an empty item, or an axis
 * of size > 1 that `order` omits), OM_ERR_MESH_TOO_LARGE, OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_mesh_from_dims_in_order(const om_dims *dims,
                                                         const char *order,
                                                         om_mesh **out,
                                                         om_error *err);

/**
 * Rewrites an axis order (either style above) as the comma-separated,
 * slowest-first list of the mesh it describes (1.1 name): "tp-cp-ep-dp-pp"
 * gives "pp,dp,ep,cp,tp"; "pp,dp,cp,tp" is returned unchanged. Caller
 * frees `*out`. Errors: as om_mesh_from_dims_in_order() for the order.
 */
OM_API OM_NODISCARD om_status om_axis_order_normalize(const char *order,
                                                      char **out, om_error *err);

/* The 1.0 names of the three calls above; same behaviour. */
OM_API OM_NODISCARD om_status om_build_offline_mesh(const om_dims *dims,
                                                    om_mesh **out,
                                                    om_error *err);
OM_API OM_NODISCARD om_status om_build_runtime_mesh(const om_dims *dims,
                                                    const char *order,
                                                    om_mesh **out,
                                                    om_error *err);
OM_API OM_NODISCARD om_status om_order_normalize(const char *order,
                                                 char **out, om_error *err);

/**
 * Discovers the world size from the environment, first to last:
 * WORLD_SIZE, OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS; the first one
 * that is set decides. `*found` tells whether any was set; when none is,
 * `*world_size` is 1. Values are read as Python's int() reads them:
 * surrounding whitespace, a leading '+' and leading zeros (decimal) are
 * accepted; what else int() takes, digit separators ("4_0") and
 * non-ASCII digits, is refused: an error, never another number (the rule
 * of every channel: docs/hardening.md, "Integers in text").
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL out pointer, or a set value,
 * empty included, that is not a positive decimal integer, naming the
 * variable),
 * OM_ERR_OUT_OF_RANGE (a value over 2^31-1). 1.1: om_world_size_resolve()
 * also says which variable decided.
 */
OM_API OM_NODISCARD om_status om_world_size_from_env(int64_t *world_size,
                                                     bool *found,
                                                     om_error *err);

/**
 * Projects a training YAML document of `length` bytes onto parallel dims.
 *
 * Only the top-level `accelerator:` mapping is read (other keys and unknown
 * keys inside it are ignored; missing or null means all defaults). Sizes
 * must be YAML integers 1..2^31-1, flags YAML booleans (true/false, yes/no,
 * on/off in lower, Title or UPPER case); null means "not given". Comments,
 * flow style, anchors, aliases, merge keys (<<), CRLF and UTF-8 work.
 *
 * dp is derived as world_size / (tp * cp * pp) unless dp_size is given
 * (non-null); then, when the world size is known (given or found in the
 * environment), dp * tp * cp * pp must equal it. `world_size` > 0 is the
 * caller's explicit value; 0 or negative means discover it with
 * om_world_size_from_env() (1 when absent everywhere). 1.1 splits this
 * into om_dims_parse_yaml() (pure) and om_dims_resolve_world_size(), which
 * refuses a negative world size.
 *
 * Errors: OM_ERR_PARSE (malformed YAML, wrong types: "line 3: tp_size must
 * be an integer, got \"2\""), OM_ERR_INVALID_ARGUMENT (sizes < 1,
 * indivisible or mismatched world size, bad environment value),
 * OM_ERR_OUT_OF_RANGE (values over 2^31-1), OM_ERR_NO_MEMORY. Messages give
 * the line of the offending value.
 */
OM_API OM_NODISCARD om_status om_dims_from_yaml(const char *text,
                                                size_t length,
                                                int64_t world_size,
                                                om_dims **out, om_error *err);

/**
 * As om_dims_from_yaml() for the file at `path` (messages start with the
 * path). Errors in addition: OM_ERR_IO (missing, unreadable, a directory,
 * or larger than 64 MiB).
 */
OM_API OM_NODISCARD om_status om_dims_load_yaml(const char *path,
                                                int64_t world_size,
                                                om_dims **out, om_error *err);

/* ---- 1.1: world size as its own step ---- */

/* How a source reads in messages: "given explicitly", "from WORLD_SIZE",
 * ..., "the default: no --world-size and none of WORLD_SIZE,
 * OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS is set". Static; NULL for an
 * unknown value. Thread-safe. */
OM_API const char *om_world_size_source_string(om_world_size_source source);

/* The environment variable of a source ("WORLD_SIZE", ...), or NULL when
 * the source is not a variable or unknown. Static; thread-safe. */
OM_API const char *om_world_size_source_variable(om_world_size_source source);

/**
 * Resolves the world size: `explicit_size` >= 1 is the caller's value
 * (OM_WORLD_SIZE_EXPLICIT); 0 means "not given": the first of WORLD_SIZE,
 * OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS that is set decides (read as
 * om_world_size_from_env() reads them), else 1 (OM_WORLD_SIZE_DEFAULT).
 * `source` may be NULL. Reads the environment (see Thread safety).
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL `world_size`, a negative
 * `explicit_size`, a bad environment value naming its variable),
 * OM_ERR_OUT_OF_RANGE (a value over 2^31-1). Replaces
 * om_world_size_from_env().
 * Variables after the first one set are not read, so they may disagree
 * without a word: they do whenever a launcher runs inside an allocation
 * (torchrun under srun: SLURM_NTASKS counts the torchrun agents,
 * WORLD_SIZE the trainers), and the innermost launcher's value is the
 * world the processes have.
 */
OM_API OM_NODISCARD om_status om_world_size_resolve(int64_t explicit_size,
                                                    int64_t *world_size,
                                                    om_world_size_source *source,
                                                    om_error *err);

/**
 * Applies a resolved world size to `dims`, exactly as the YAML loaders do:
 * when dp was not given (om_dims_dp_given()), dp becomes
 * world_size / (tp * cp * pp) and a remainder is an error naming the
 * source ("world size 1 (the default: ...) is not divisible by tp*cp*pp =
 * 4"); when dp was given, dp * tp * cp * pp must equal the world size
 * unless the source is OM_WORLD_SIZE_DEFAULT (an unknown world size checks
 * nothing). Sizes at 0 ("not declared") count as 1. On success the dims
 * record the world size and its source (om_dims_world_size()); a derived
 * dp does not count as given. On error `dims` is unchanged.
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL, `world_size` < 1, source
 * OM_WORLD_SIZE_UNRESOLVED or unknown, indivisible or mismatched world
 * size), OM_ERR_OUT_OF_RANGE (`world_size` over 2^31-1).
 */
OM_API OM_NODISCARD om_status om_dims_apply_world_size(om_dims *dims,
                                                       int64_t world_size,
                                                       om_world_size_source source,
                                                       om_error *err);

/* om_world_size_resolve(explicit_size) then om_dims_apply_world_size():
 * the one call a loader needs after om_dims_parse_yaml(). Errors: those of
 * both. */
OM_API OM_NODISCARD om_status om_dims_resolve_world_size(om_dims *dims,
                                                         int64_t explicit_size,
                                                         om_error *err);

/* The world size last applied to `dims` and its source: 0 and
 * OM_WORLD_SIZE_UNRESOLVED when none was. `source` may be NULL. Errors:
 * OM_ERR_INVALID_ARGUMENT (NULL dims or world_size). */
OM_API OM_NODISCARD om_status om_dims_world_size(const om_dims *dims,
                                                 int64_t *world_size,
                                                 om_world_size_source *source,
                                                 om_error *err);

/* Whether dp was given: by om_dims_set(OM_DIM_DP) or a non-null dp_size
 * in the YAML (om_dims_new() and a derived dp: false). Errors:
 * OM_ERR_INVALID_ARGUMENT (NULL argument). */
OM_API OM_NODISCARD om_status om_dims_dp_given(const om_dims *dims,
                                               bool *given, om_error *err);

/**
 * Projects a training YAML document of `length` bytes onto parallel dims
 * as om_dims_from_yaml() does, but as a pure function of the text: no
 * world size is applied and the environment is not read (dp stays 1 unless
 * given; om_dims_dp_given() tells). Follow with om_dims_resolve_world_size()
 * or om_dims_apply_world_size(). Errors: as om_dims_from_yaml() without the
 * world-size ones.
 */
OM_API OM_NODISCARD om_status om_dims_parse_yaml(const char *text,
                                                 size_t length, om_dims **out,
                                                 om_error *err);

/* As om_dims_parse_yaml() for the file at `path` (messages start with the
 * path). Errors in addition: OM_ERR_IO (missing, unreadable, a directory,
 * a FIFO or device, larger than 64 MiB). */
OM_API OM_NODISCARD om_status om_dims_read_yaml(const char *path,
                                                om_dims **out, om_error *err);

OM_END_DECLS

#endif /* OFFLINE_MESH_DIMS_H */
