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

/* A node the projection can reach. Which fields hold depends on `kind`:
 * read `value`, `tag`, `length` of scalars only, `items`, `count`,
 * `unknown` of collections only. Text and item arrays live in the tree's
 * arena. */
typedef struct {
    uint8_t kind;   /* omi_node_kind */
    bool plain;     /* scalars: written plain (unquoted, not a block scalar) */
    bool report;    /* mappings: every unknown key was recorded (below) */
    unsigned long line; /* 1-based line where the node starts */
    union {
        struct {
            const char *value; /* NUL-terminated */
            /* The explicit tag in full form ("tag:yaml.org,2002:int", "!")
             * or NULL when it had none. */
            const char *tag;
            uint32_t length;
        };
        struct {
            /* Child node indices; a mapping stores key, value, key,
             * value... An alias is the index of the anchored node, not a
             * copy, so alias bombs cost no memory. */
            const uint32_t *items;
            uint32_t count;
            /* Mappings with `report`: keys that are neither a field nor a
             * section nor a merge key past the first
             * OM_DIAGNOSTICS_MAX_UNKNOWN_KEYS (which are kept as pairs with
             * a placeholder value), and the line of the first. */
            uint32_t unknown;
            uint32_t unknown_line;
        };
    };
} omi_node;

/* What composition cost: deterministic measures for the tests. */
typedef struct {
    size_t events;      /* libyaml events read */
    size_t nodes;       /* nodes kept */
    size_t bytes;       /* bytes the composer holds now */
    size_t peak_bytes;  /* the most it held at once */
    size_t input_read;  /* bytes of the text libyaml read before it stopped */
} omi_yaml_stats;

typedef struct omi_arena_block omi_arena_block;

/* A key of a kept mapping given again in that mapping: a field key in a
 * section (om_dims's and preset_yaml.c's), a section key at the top
 * level, or a merge key in either (the diagnostics report the dims's ones
 * and merge keys in the mappings the projection reads; the preset loader
 * refuses its own and merge keys). */
typedef struct {
    uint32_t map;          /* node index of the mapping */
    uint32_t pair;         /* the repeated pair: items[2 * pair] is its key */
    uint32_t line;         /* line of the repeated key */
    uint32_t earlier_line; /* line of the occurrence before it */
} omi_duplicate;

/* Repeated keys remembered per document (a real config has a few). Past
 * it a repeat is parsed as PyYAML does (the last value wins) without its
 * diagnostic, and the diagnostics' "N more keys appear again" counts the
 * remembered ones only: reached only by a config repeating section keys
 * more than 64 times. */
#define OMI_MAX_DUPLICATES 64

/* Nodes live in blocks of OMI_NODE_BLOCK that never move: the tree grows
 * without a copy (and without holding two copies at once). */
#define OMI_NODE_BLOCK 1024

typedef struct {
    omi_node **blocks;
    size_t nblocks;
    size_t blocks_cap;
    size_t count; /* nodes */
    bool has_root; /* false for an empty stream */
    size_t root;
    omi_arena_block *arena;
    omi_duplicate duplicates[OMI_MAX_DUPLICATES];
    size_t nduplicates; /* kept; later ones are not remembered */
    omi_yaml_stats stats;
} omi_tree;

/* Composes the one document of `text`, keeping only what the projection
 * can reach (and the first OMI_MAX_DUPLICATES repeated keys, above): the top-level mapping; its `accelerator` and `fsdp_config`
 * values and their field keys (the omi_yaml_read_int() sections); merge
 * keys (<<) at either level and what they merge; every anchored node
 * (an alias may bring it anywhere later) with what it could be asked for;
 * and, for diagnostics, the first OM_DIAGNOSTICS_MAX_UNKNOWN_KEYS unknown
 * keys of a section or anchored mapping (counting the rest) and the
 * top-level keys "mesh_dim_names", "mesh_shape" and one spelled close to
 * "accelerator". Everything else is parsed and dropped, so memory grows
 * with what is kept, not with the text. Refuses (OM_ERR_PARSE) a second
 * document, nesting deeper than 256 levels, more than 10000 anchors and
 * aliases together, and undefined aliases; libyaml's syntax errors become
 * OM_ERR_PARSE with their position. On failure the tree is empty except
 * for its stats. */
om_status omi_yaml_compose(const char *text, size_t length, omi_tree *tree,
                           om_error *err);

/* (yaml_encoding.c) OM_ERR_PARSE naming the encoding when `text` is UTF-32
 * or UTF-16 without a byte-order mark (which libyaml would report as
 * control characters at byte 0); OM_OK otherwise. */
om_status omi_yaml_check_encoding(const char *text, size_t length, om_error *err);

/* Node `index` (< tree->count) of a composed tree. */
static inline const omi_node *omi_tree_node(const omi_tree *tree, size_t index)
{
    return &tree->blocks[index / OMI_NODE_BLOCK][index % OMI_NODE_BLOCK];
}

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
/* (yaml_diagnose.c) The first (by line) of `keys` given again in `map` or
 * a mapping it merges, worded as the DUPLICATE_KEY diagnostic words it
 * into `message` (`where`, `merged_where`: "in accelerator", "in a mapping
 * accelerator merges"); returns its line, 0 when no such key repeats. */
unsigned long omi_yaml_first_repeat(const omi_tree *tree, const omi_node *map,
                                    const char *where, const char *merged_where,
                                    const char *const *keys, size_t nkeys,
                                    char *message, size_t size);
/* OM_ERR_INVALID_ARGUMENT for a text over the 64 MiB of files. */
om_status omi_yaml_check_length(size_t length, om_error *err);
#endif
