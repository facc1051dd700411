/* liboffline_mesh: reading training configs strictly (1.2).
 * SPDX-License-Identifier: MIT
 *
 * The 1.0/1.1 YAML projections (dims.h) accept a config whatever it holds
 * besides the keys they read, so a misspelled key (`tpsize: 4`), a
 * misspelled section (`acclerator:`), an empty file or a mesh JSON given
 * where a config belongs all give the defaults without a word. The calls
 * below project the same way and also report what is probably a mistake,
 * as diagnostics returned to the caller (the library never prints). With
 * `strict` set, any diagnostic makes the call fail instead.
 *
 * What is reported (om_diagnostic_kind), at most one of the first four:
 *   - the document is empty, only comments, or a null     (EMPTY_CONFIG)
 *   - it is a mesh JSON ({"mesh_dim_names":..,"mesh_shape":..}) (MESH_JSON)
 *   - it has no `accelerator:` section; a top-level key close to
 *     "accelerator" is named with "did you mean"       (NO_ACCELERATOR)
 *   - `accelerator:` is null or an empty mapping        (EMPTY_ACCELERATOR)
 *   - each key inside `accelerator:` that no field has, and in the anchored
 *     mappings it merges (`<<: *base`; a mapping written inline after `<<:`
 *     is not examined), with "did you mean" naming the nearest known key when one
 *     is close (edit distance, case and '-' ignored; `tp` suggests
 *     `tp_size`)                                                (UNKNOWN_KEY)
 * and, since 1.3 (the calls below are 1.2's; from 1.3 on they also report
 * this, so strict mode fails on it):
 *   - a field key given again in accelerator: or in a mapping it merges,
 *     or `accelerator:` given again at the top level (PyYAML keeps
 *     the last value without a word, and so does the projection). A key
 *     beside a merge (`<<: *base` then `tp_size: 4`) overrides the merged
 *     one: that is no duplicate. Mappings the projection does not read
 *     (another section, an accelerator replaced by a later one) are not
 *     examined.                                              (DUPLICATE_KEY)
 *   - a second merge key (`<<`, or a key tagged !!merge) in one of those
 *     mappings: PyYAML applies both, the later one winning a key both
 *     give, and so does the projection; YAML allows a key once in a
 *     mapping. One merge list says it (`<<: [*b, *a]`, the earlier one
 *     winning); a list whose mappings share a key is YAML's way of
 *     overriding and is not reported. 1.3 bug fix: it used to pass
 *     without a word.                                        (DUPLICATE_KEY)
 * Unknown top-level sections are never reported: training YAMLs hold many.
 * At most OM_DIAGNOSTICS_MAX_UNKNOWN_KEYS unknown keys are reported one by
 * one; one more UNKNOWN_KEY diagnostic then counts the rest. Likewise at
 * most 8 repeated keys, then one DUPLICATE_KEY diagnostic counts the rest.
 *
 * Messages (one line, at most OM_ERROR_MESSAGE_SIZE - 1 bytes, values
 * quoted and escaped), e.g.
 *   line 3: unknown key "tpsize" in accelerator (did you mean "tp_size"?)
 *   line 1: unknown section "acclerator" (did you mean "accelerator"?): there
 *     is no accelerator section, so every size takes its default
 *   line 1: this is a mesh JSON (it has "mesh_dim_names"), not a training
 *     config: read it as a mesh (CLI: --mesh FILE)
 *   line 3: key "tp_size" appears again in accelerator (line 2's value 2
 *     is replaced by 4)
 *   line 5: section "accelerator" appears again at the top level: it
 *     replaces the one at line 1
 *   line 3: merge key "<<" appears again in accelerator (line 2 has one):
 *     both merge, this one winning shared keys (say <<: [*this, *earlier])
 *
 * Ownership: an om_diagnostics belongs to its creator (om_diagnostics_new,
 * freed with om_diagnostics_free); strings through `char **out` are freed
 * with om_string_free(); dims through `om_dims **out` with om_dims_free().
 *
 * Thread safety: no global state. A list must not be filled by one call
 * while another thread uses it; the getters may run concurrently on a list
 * nothing fills.
 */
#ifndef OFFLINE_MESH_CONFIG_H
#define OFFLINE_MESH_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offline_mesh/attributes.h"
#include "offline_mesh/status.h"
#include "offline_mesh/dims.h"

OM_BEGIN_DECLS

/* What a diagnostic is about. Values are pinned for the 1.x ABI. */
typedef enum om_diagnostic_kind {
    OM_DIAGNOSTIC_UNKNOWN_KEY = 0,       /* a key in accelerator: no field has */
    OM_DIAGNOSTIC_NO_ACCELERATOR = 1,    /* no accelerator: section */
    OM_DIAGNOSTIC_EMPTY_ACCELERATOR = 2, /* accelerator: null or {} */
    OM_DIAGNOSTIC_EMPTY_CONFIG = 3,      /* nothing but comments or a null */
    OM_DIAGNOSTIC_MESH_JSON = 4,         /* a mesh JSON, not a config */
    OM_DIAGNOSTIC_DUPLICATE_KEY = 5      /* a key given twice (since 1.3) */
} om_diagnostic_kind;

/* Number of kinds: every value 0 .. OM_DIAGNOSTIC_KIND_COUNT-1 is a kind
 * (6 since 1.3; it was 5). */
#define OM_DIAGNOSTIC_KIND_COUNT 6

/* Unknown keys reported one by one; one more diagnostic counts the rest. */
#define OM_DIAGNOSTICS_MAX_UNKNOWN_KEYS 16

/* Opaque list of diagnostics, filled by the calls below. */
typedef struct om_diagnostics om_diagnostics;

/* Creates an empty list. Errors: OM_ERR_INVALID_ARGUMENT (`out` NULL),
 * OM_ERR_NO_MEMORY. */
OM_API OM_NODISCARD om_status om_diagnostics_new(om_diagnostics **out,
                                                 om_error *err);

/* Releases a list. NULL is a no-op. */
OM_API void om_diagnostics_free(om_diagnostics *diagnostics);

/* Number of diagnostics in the list; 0 for NULL. */
OM_API OM_PURE size_t om_diagnostics_count(const om_diagnostics *diagnostics);

/* The message of diagnostic `index` (0-based: the document-level one and
 * unknown keys in document order, then repeated keys in document order), e.g.
 * "line 3: unknown key \"tpsize\" in accelerator (did you mean
 * \"tp_size\"?)". Caller frees `*out` (om_string_free). Errors:
 * OM_ERR_INVALID_ARGUMENT (NULL list or `out`), OM_ERR_OUT_OF_RANGE
 * (`index` >= count, naming both), OM_ERR_NO_MEMORY. */
OM_API OM_NODISCARD om_status om_diagnostics_message(
    const om_diagnostics *diagnostics, size_t index, char **out, om_error *err);

/* The kind (om_diagnostic_kind value) of diagnostic `index`; -1 for a NULL
 * list or an index out of range. */
OM_API OM_PURE int om_diagnostics_kind(const om_diagnostics *diagnostics,
                                       size_t index);

/* The 1-based line diagnostic `index` is about; 0 when it concerns the
 * whole document (an empty config, a missing section); -1 for a NULL list
 * or an index out of range. */
OM_API OM_PURE int64_t om_diagnostics_line(const om_diagnostics *diagnostics,
                                           size_t index);

/**
 * Projects a training YAML document of `length` bytes (at most 64 MiB)
 * onto parallel dims exactly as om_dims_parse_yaml() does (pure: no world
 * size, no environment), and reports what is probably a mistake (see the
 * top of this header).
 *
 * `diagnostics` (may be NULL) is emptied first; it then holds every
 * diagnostic of the document when the call succeeds or fails because of
 * `strict`, and nothing after any other error. With `strict` false the
 * diagnostics never make the call fail; with `strict` true any diagnostic
 * is an OM_ERR_PARSE whose message is the first diagnostic's (followed by
 * "(and N more)" when there are more) and `*out` is NULL.
 *
 * Errors: those of om_dims_parse_yaml(), OM_ERR_INVALID_ARGUMENT for a
 * text over 64 MiB (naming the limit), and OM_ERR_PARSE for a diagnostic in
 * strict mode.
 */
OM_API OM_NODISCARD om_status om_dims_parse_yaml_checked(
    const char *text, size_t length, bool strict, om_diagnostics *diagnostics,
    om_dims **out, om_error *err);

/* As om_dims_parse_yaml_checked() for the file at `path` (messages,
 * diagnostics included, start with the path). Errors in addition: OM_ERR_IO
 * (missing, unreadable, a directory, a FIFO or device, larger than 64
 * MiB). */
OM_API OM_NODISCARD om_status om_dims_read_yaml_checked(
    const char *path, bool strict, om_diagnostics *diagnostics, om_dims **out,
    om_error *err);

OM_END_DECLS

#endif /* OFFLINE_MESH_CONFIG_H */
