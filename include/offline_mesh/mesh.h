/* liboffline_mesh: the offline device mesh.
 * SPDX-License-Identifier: MIT
 *
 * An om_mesh is an immutable list of named axes with sizes, e.g.
 * (dp=2, cp=2, tp=2). Ranks are laid out row-major over the axes (the last
 * axis varies fastest); see topology.h.
 *
 * Ownership: a handle returned through an `om_mesh **out` parameter belongs
 * to the caller, who releases it with om_mesh_free(). Strings returned
 * through `char **out` belong to the caller and are released with
 * om_string_free(). A `const char *` returned directly is borrowed from the
 * mesh and lives as long as the mesh.
 *
 * Thread safety: a mesh never changes after construction; every function
 * taking a `const om_mesh *` may run concurrently on one mesh from many
 * threads. Different handles are fully independent.
 *
 * Limits: each size is 1..2^31-1 and their product is at most 2^31-1 (every
 * rank fits a signed 32-bit integer). Axis names are non-empty, distinct,
 * valid UTF-8 strings.
 */
#ifndef OFFLINE_MESH_MESH_H
#define OFFLINE_MESH_MESH_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include "offline_mesh/attributes.h"
#include "offline_mesh/status.h"

OM_BEGIN_DECLS

/* Opaque, immutable mesh handle. */
typedef struct om_mesh om_mesh;

/* Largest total number of ranks: 2^31-1. */
#define OM_MAX_RANKS 2147483647

/**
 * Creates a mesh from `ndim` axis names and their sizes.
 *
 * `names` and `sizes` each point to `ndim` elements (both may be NULL when
 * `ndim` is 0: the empty mesh, whose size is 1). The strings are copied.
 * Use om_mesh_new_checked() when the two arrays come with separate lengths.
 *
 * Errors: OM_ERR_INVALID_ARGUMENT (`out` NULL, or an array NULL with
 * `ndim` > 0), OM_ERR_INVALID_NAME (a NULL or non-UTF-8 name),
 * OM_ERR_EMPTY_NAME, OM_ERR_DUPLICATE_NAME, OM_ERR_BAD_SIZE (size < 1),
 * OM_ERR_MESH_TOO_LARGE (product > 2^31-1), OM_ERR_NO_MEMORY.
 * On failure `*out` is set to NULL.
 */
OM_API OM_NODISCARD om_status om_mesh_new(const char *const *names,
                                          const int64_t *sizes, size_t ndim,
                                          om_mesh **out, om_error *err);

/* As om_mesh_new() with separate lengths for the two arrays: differing
 * lengths give OM_ERR_LENGTH_MISMATCH naming both. */
OM_API OM_NODISCARD om_status om_mesh_new_checked(const char *const *names,
                                                  size_t names_len,
                                                  const int64_t *sizes,
                                                  size_t sizes_len,
                                                  om_mesh **out, om_error *err);

/* Releases a mesh. NULL is a no-op. */
OM_API void om_mesh_free(om_mesh *mesh);

/* Number of axes (0 for the empty mesh or a NULL mesh). */
OM_API OM_PURE size_t om_mesh_ndim(const om_mesh *mesh);

/* Name of axis `index`, borrowed from the mesh; NULL when `index` >= ndim
 * or `mesh` is NULL. */
OM_API OM_PURE const char *om_mesh_name(const om_mesh *mesh, size_t index);

/* Size of axis `index`; 0 when `index` >= ndim or `mesh` is NULL. */
OM_API OM_PURE int64_t om_mesh_dim_size(const om_mesh *mesh, size_t index);

/* Total number of ranks, the product of all sizes (1 for the empty mesh);
 * 0 for a NULL mesh. */
OM_API OM_PURE int64_t om_mesh_size(const om_mesh *mesh);

/* Size of the axis called `name`; 1 when the mesh has no such axis (a
 * planner asks for "tp" on a mesh without tp), or when an argument is
 * NULL. */
OM_API OM_PURE int64_t om_mesh_size_of(const om_mesh *mesh, const char *name);

/* Index of the axis called `name`, or -1 when absent or an argument is
 * NULL. Every call that takes axis names finds them this way: a scan of up
 * to 32 axes, a binary search (O(log n)) of a longer mesh's name index. */
OM_API OM_PURE int om_mesh_index_of(const om_mesh *mesh, const char *name);

/**
 * The single-axis sub-mesh (name,)/(size,) of axis `name`, or the empty mesh
 * when the mesh has no such axis (not an error). Caller frees `*out`.
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL argument), OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_mesh_get(const om_mesh *mesh,
                                          const char *name, om_mesh **out,
                                          om_error *err);

/* True when both meshes have the same names and sizes in the same order.
 * Two NULLs are equal; NULL and a mesh are not. */
OM_API OM_PURE bool om_mesh_equal(const om_mesh *a, const om_mesh *b);

/* Hash of (names, shape), consistent with om_mesh_equal(). The value is
 * stable across runs and platforms for one library version. 0 for NULL. */
OM_API OM_PURE uint64_t om_mesh_hash(const om_mesh *mesh);

/**
 * Canonical JSON: {"mesh_dim_names":["dp","tp"],"mesh_shape":[2,4]} (keys
 * sorted, no spaces, no newline, everything outside printable ASCII escaped
 * as lower-case \uXXXX: the spelling of Python's json.dumps(obj,
 * sort_keys=True, separators=(",", ":"))). A view (view.h) writes its
 * planner shape (names and sizes) only; om_view_to_json() writes the
 * layout. Caller frees `*out` with om_string_free().
 * Errors: OM_ERR_INVALID_ARGUMENT, OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_mesh_to_json(const om_mesh *mesh, char **out,
                                              om_error *err);

/**
 * Parses exactly one mesh JSON object of `length` bytes (not necessarily
 * NUL-terminated): the keys "mesh_dim_names" (array of strings) and
 * "mesh_shape" (array of integers), nothing else; duplicate keys, other
 * types, trailing bytes and NUL characters are refused. Whitespace is
 * allowed. Errors: OM_ERR_PARSE, then every error of om_mesh_new_checked().
 */
OM_API OM_NODISCARD om_status om_mesh_from_json(const char *text,
                                                size_t length, om_mesh **out,
                                                om_error *err);

/**
 * As om_mesh_from_json() for the file at `path` (1.1). Messages start with
 * the path. Errors in addition: OM_ERR_INVALID_ARGUMENT (NULL path),
 * OM_ERR_IO (missing, unreadable, a directory, a FIFO or device, larger
 * than 64 MiB: never a silent stop).
 */
OM_API OM_NODISCARD om_status om_mesh_load_json(const char *path,
                                                om_mesh **out, om_error *err);

/**
 * Parses the text form "dp=2,cp=2,tp=8" (spaces around items are allowed;
 * the empty string is the empty mesh). A size is ASCII decimal with an
 * optional sign ("+08" is 8; "0x8", "8.0", "8_0" are refused). Errors:
 * OM_ERR_PARSE (missing '=' or a size that is not a decimal integer), then
 * every error of om_mesh_new(); a size beyond int64 is OM_ERR_MESH_TOO_LARGE
 * or OM_ERR_BAD_SIZE naming the item as written (1.3 bug fix: the message
 * showed 9223372036854775807).
 */
OM_API OM_NODISCARD om_status om_mesh_from_spec(const char *spec,
                                                om_mesh **out, om_error *err);

/**
 * Prints the text form "dp=2,cp=2,tp=8" ("" for the empty mesh), which
 * om_mesh_from_spec() reads back to an equal mesh. A view (view.h) prints
 * its names and sizes only, as om_mesh_to_json() does: that reads back to
 * the plain mesh of its shape, not to the view (om_view_to_json() keeps
 * the layout). Caller frees `*out`.
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL, or a name containing ',', '=' or
 * spaces at its ends, which the text form cannot carry), OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_mesh_to_spec(const om_mesh *mesh, char **out,
                                              om_error *err);

/* Releases a string returned by this library. NULL is a no-op. */
OM_API void om_string_free(char *string);

OM_END_DECLS

#endif /* OFFLINE_MESH_MESH_H */
