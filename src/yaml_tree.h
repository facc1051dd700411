/* Internal: a YAML document composed from libyaml's event stream. */
#ifndef OFFLINE_MESH_YAML_TREE_H
#define OFFLINE_MESH_YAML_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "yaml_scalar.h"
#include "offline_mesh/config.h"

typedef enum { OMI_NODE_SCALAR, OMI_NODE_SEQUENCE, OMI_NODE_MAPPING } omi_node_kind;

typedef struct {
    omi_node_kind kind;
    unsigned long line; /* 1-based line where the node starts */
    /* Scalars: the text, whether it was written plain (unquoted, not a
     * block scalar), and its explicit tag ("tag:yaml.org,2002:int", "!")
     * or NULL when it had none. */
    char *value;
    size_t length;
    bool plain;
    char *tag;
    /* Collections: child node indices; a mapping stores key, value, key,
     * value... An alias is the index of the anchored node, not a copy, so
     * alias bombs cost no memory. */
    size_t *items;
    size_t count;
    size_t cap;
} omi_node;

typedef struct {
    omi_node *nodes;
    size_t count;
    size_t cap;
    bool has_root; /* false for an empty stream */
    size_t root;
} omi_tree;

/* Composes the one document of `text`. Refuses (OM_ERR_PARSE) a second
 * document, nesting deeper than 256 levels, more than 10000 anchors and
 * aliases together, and undefined aliases; libyaml's syntax errors become
 * OM_ERR_PARSE with their position. On failure the tree is empty. */
om_status omi_yaml_compose(const char *text, size_t length, omi_tree *tree,
                           om_error *err);

/* (yaml_encoding.c) OM_ERR_PARSE naming the encoding when `text` is UTF-32
 * or UTF-16 without a byte-order mark (which libyaml would report as
 * control characters at byte 0); OM_OK otherwise. */
om_status omi_yaml_check_encoding(const char *text, size_t length, om_error *err);

/* Releases what omi_yaml_compose() built. A zeroed tree is fine. */
void omi_tree_free(omi_tree *tree);

/* (yaml_config.c) Reads the YAML integer `field` of the top-level mapping
 * `section` (merge keys followed); `*given` is false when either is
 * absent or null. Errors: OM_ERR_PARSE naming the line and field. */
om_status omi_yaml_read_int(const omi_tree *tree, const char *section,
                            const char *field, int64_t *value, bool *given,
                            om_error *err);
/* ---- lookups in a composed document (yaml_config.c) ---- */
typedef struct {
    const omi_tree *tree;
    long budget; /* merge work left (OMI_MERGE_BUDGET per lookup) */
    om_error *err;
    om_status status;
} omi_lookup;
/* Work allowed for one field's lookup through merge keys. */
#define OMI_MERGE_BUDGET 1000000L
/* A key `<<` that merges (plain and untagged, or tagged !!merge). */
bool omi_yaml_is_merge_key(const omi_node *node);
/* Value node of `key` in `map` with merges followed (explicit keys win);
 * NULL when absent or on error (ctx->status and ctx->err set). */
const omi_node *omi_yaml_lookup(omi_lookup *ctx, const omi_node *map,
                                const char *key, int depth);
/* The YAML value of a node (collections give OMI_YAML_STRING). */
omi_yaml_value omi_yaml_node_value(const omi_node *node);
/* The top-level mapping `section`: NULL when the document is empty or
 * null, or the section missing or null. Errors: OM_ERR_PARSE (top level
 * or section not a mapping). */
om_status omi_yaml_find_section(omi_lookup *ctx, const char *section,
                                const omi_node **map);
/* The projection onto `dims` (fields the document gives are set). */
om_status omi_yaml_project(const omi_tree *tree, om_dims *dims, om_error *err);
/* Composes, projects and, when `diagnostics` is not NULL, adds the
 * document's diagnostics to it (om_dims_parse_yaml() with diagnostics). */
om_status omi_yaml_parse(const char *text, size_t length,
                         om_diagnostics *diagnostics, om_dims **out,
                         om_error *err);
/* (yaml_diagnose.c) Adds what is probably a mistake in a document the
 * projection accepted (config.h lists the kinds). Never fails. */
void omi_yaml_diagnose(const omi_tree *tree, om_diagnostics *diagnostics);
/* OM_ERR_INVALID_ARGUMENT for a text over the 64 MiB of files. */
om_status omi_yaml_check_length(size_t length, om_error *err);
/* (yaml_config.c) Reads a whole file of at most 64 MiB into `*text`
 * (omi_free()). Errors: OM_ERR_IO, OM_ERR_NO_MEMORY. */
om_status omi_read_file(const char *path, char **text, size_t *length,
                        om_error *err);

#endif
