/* Composition of one YAML document from libyaml's events, keeping only what
 * the projection can reach. Doing it here rather than with
 * yaml_parser_load() keeps what the loader throws away (an explicit !!str
 * tag looks like no tag there), refuses absurd nesting and anchor counts in
 * the same single pass, and drops the bulk of a config (model, data,
 * optimizer sections) as it streams past: each node starts with the
 * "roles" its place gives it, and a node no role wants is not kept.
 *
 * Roles: ROOT (a mapping read as the top level: its section keys and merge
 * keys matter), SECTION (a mapping read as accelerator or fsdp_config: its
 * field keys and merge keys), VALUE (a field's value: a scalar's text, a
 * collection's kind), MERGE_* (a merge key's value: a mapping, or a list
 * of mappings, read in the role after the underscore). An anchored node
 * takes every role, since a later alias may put it anywhere. REPORT marks
 * the mappings whose unknown keys the diagnostics name. */
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <yaml.h>

#include "suggest.h"
#include "yaml_tree.h"

/* Deepest collection nesting accepted: libyaml's scanner slows down
 * quadratically with depth, and real configs nest a handful of levels. */
#define OMI_MAX_YAML_DEPTH 256
/* Most anchors plus aliases accepted (real configs use a few dozen). */
#define OMI_MAX_YAML_ANCHORS 10000
/* Text and item arrays are carved from blocks of this size (or larger). */
#define ARENA_BLOCK ((size_t)64 << 10)

#define NONE UINT32_MAX

enum {
    ROLE_ROOT = 1,
    ROLE_SECTION = 2,
    ROLE_VALUE = 4,
    ROLE_MERGE_ROOT = 8,
    ROLE_MERGE_SECTION = 16,
    ROLE_REPORT = 32,
    ROLE_ANY = 63
};

/* The keys the projection looks up: the sections of the top level, and
 * the fields of a section (those of om_dims and preset_yaml.c's
 * fsdp_config keys). */
static const char *const section_keys[] = {"accelerator", "fsdp_config"};
static const char *const field_keys[] = {
    "dp_size", "tp_size", "cp_size", "ep_size", "pp_size", "sequence_parallel",
    "loss_parallel", "dp_shard_size", "edp_shard_size"};
/* Top-level keys the diagnostics name (bit i of frame.seen for key i). */
static const char *const mesh_keys[] = {"mesh_dim_names", "mesh_shape"};
#define SEEN_NEAR_SECTION 4
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
/* Keys whose repeats the tree remembers: bit i for field_keys[i], then
 * one for each section key at the top level, then the merge key (YAML
 * allows a key once in a mapping; PyYAML applies every `<<`). */
#define REPEAT_BITS (COUNT(field_keys) + COUNT(section_keys) + 1)
#define REPEAT_MERGE (REPEAT_BITS - 1)
_Static_assert(REPEAT_BITS <= 16, "frame.repeatable has a bit for each");

struct omi_arena_block {
    omi_arena_block *next;
    size_t used;
    size_t cap;
    alignas(max_align_t) unsigned char data[];
};

typedef struct {
    char *name;
    uint32_t node;
} anchor;

/* Anchors by name: open addressing over `slots` (anchor index + 1, 0 =
 * empty), kept at most half full, so each alias costs O(1). */
typedef struct {
    anchor *items;
    size_t count;
    size_t cap;
    size_t *slots;
    size_t slot_cap; /* a power of two */
} anchor_table;

/* An open collection. */
typedef struct {
    uint32_t node;       /* kept node, or NONE */
    uint8_t roles;       /* roles of its children (keys and values alike) */
    uint8_t wanted;      /* roles its own place gave it */
    bool mapping;
    bool at_key;         /* mapping: the next node completes a key */
    bool pair_kept;      /* mapping: the pair in progress is kept */
    uint8_t value_roles; /* mapping: roles of that pair's value (0: a
                            placeholder stands for it) */
    bool stopped;        /* sequence: a non-mapping element ended it as a
                            merge list, later ones are never read */
    bool anchored;
    int canonical;       /* mapping: the shared key node the pair in
                            progress may use (-1: none) */
    uint8_t seen;        /* ROOT mapping: diagnostic keys kept (bits) */
    uint16_t repeatable; /* keys seen of those duplicates name (REPEAT_BITS) */
    uint32_t unknown_kept;
    uint32_t last_line[REPEAT_BITS]; /* of each such key */
    size_t scratch_start; /* its children so far: scratch[start..] */
} frame;

typedef struct {
    omi_tree *tree;
    om_error *err;
    frame frames[OMI_MAX_YAML_DEPTH];
    size_t depth;
    uint32_t *scratch; /* children of the open kept collections */
    size_t scratch_count;
    size_t scratch_cap;
    uint32_t placeholder; /* value of pairs kept for their key only */
    /* Shared nodes: the merge key and the om_dims fields as keys (whose
     * line no message needs), and the empty mapping of merge lists. */
    uint32_t canonical[8];
    uint32_t empty_map;
    anchor_table anchors;
    size_t references; /* anchors plus aliases seen */
    int documents;
} composer;

static om_status no_memory(om_error *err)
{
    return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory parsing YAML");
}

/* ---- memory, counted ---- */

static void count_bytes(omi_tree *tree, size_t added, size_t removed)
{
    tree->stats.bytes += added;
    tree->stats.bytes -= removed;
    if (tree->stats.bytes > tree->stats.peak_bytes)
        tree->stats.peak_bytes = tree->stats.bytes;
}

/* Makes room for one more element of `size` bytes. */
static bool reserve(omi_tree *tree, void **items, size_t *cap, size_t count,
                    size_t size)
{
    if (count < *cap)
        return true;
    size_t bigger = *cap ? *cap * 2 : 16;
    void *grown = omi_realloc(*items, bigger * size);
    if (!grown)
        return false;
    count_bytes(tree, bigger * size, *cap * size);
    *items = grown;
    *cap = bigger;
    return true;
}

/* `align`: 1 for text, 4 for item arrays. */
static void *arena_alloc(omi_tree *tree, size_t size, size_t align)
{
    omi_arena_block *block = tree->arena;
    if (block)
        block->used = (block->used + align - 1) & ~(align - 1);
    if (!block || block->used > block->cap || block->cap - block->used < size) {
        size_t cap = size > ARENA_BLOCK ? size : ARENA_BLOCK;
        block = omi_malloc(sizeof *block + cap);
        if (!block)
            return NULL;
        count_bytes(tree, sizeof *block + cap, 0);
        block->next = tree->arena;
        block->used = 0;
        block->cap = cap;
        tree->arena = block;
    }
    void *p = block->data + block->used;
    block->used += size;
    return p;
}

static const char *arena_text(omi_tree *tree, const char *text, size_t length)
{
    char *copy = arena_alloc(tree, length + 1, 1);
    if (copy) {
        memcpy(copy, text, length);
        copy[length] = '\0';
    }
    return copy;
}

/* ---- nodes ---- */

static omi_node *node_at(const composer *c, uint32_t index)
{
    return &c->tree->blocks[index / OMI_NODE_BLOCK][index % OMI_NODE_BLOCK];
}

static om_status new_node(composer *c, omi_node_kind kind, unsigned long line,
                          uint32_t *index)
{
    omi_tree *tree = c->tree;
    if (tree->count == tree->nblocks * OMI_NODE_BLOCK) {
        if (!reserve(tree, (void **)&tree->blocks, &tree->blocks_cap,
                     tree->nblocks, sizeof *tree->blocks))
            return no_memory(c->err);
        omi_node *block = omi_malloc(OMI_NODE_BLOCK * sizeof *block);
        if (!block)
            return no_memory(c->err);
        count_bytes(tree, OMI_NODE_BLOCK * sizeof *block, 0);
        tree->blocks[tree->nblocks++] = block;
    }
    omi_node *node = node_at(c, (uint32_t)tree->count);
    memset(node, 0, sizeof *node);
    node->kind = (uint8_t)kind;
    node->line = line;
    *index = (uint32_t)tree->count++;
    tree->stats.nodes = tree->count;
    return OM_OK;
}

static om_status new_scalar(composer *c, const yaml_event_t *event,
                            unsigned long line, uint32_t *index)
{
    om_status st = new_node(c, OMI_NODE_SCALAR, line, index);
    if (st != OM_OK)
        return st;
    const char *tag = (const char *)event->data.scalar.tag;
    const char *value = arena_text(c->tree, (const char *)event->data.scalar.value,
                                   event->data.scalar.length);
    const char *tag_copy = tag ? arena_text(c->tree, tag, strlen(tag)) : NULL;
    if (!value || (tag && !tag_copy))
        return no_memory(c->err);
    omi_node *node = node_at(c, *index);
    node->value = value;
    node->tag = tag_copy;
    node->length = (uint32_t)event->data.scalar.length;
    node->plain = event->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    return OM_OK;
}

static om_status push_child(composer *c, uint32_t index)
{
    if (!reserve(c->tree, (void **)&c->scratch, &c->scratch_cap, c->scratch_count,
                 sizeof *c->scratch))
        return no_memory(c->err);
    c->scratch[c->scratch_count++] = index;
    return OM_OK;
}

static om_status placeholder(composer *c, uint32_t *index)
{
    if (c->placeholder == NONE) {
        om_status st = new_node(c, OMI_NODE_SCALAR, 0, &c->placeholder);
        if (st != OM_OK)
            return st;
        node_at(c, c->placeholder)->value = "";
        node_at(c, c->placeholder)->plain = true;
    }
    *index = c->placeholder;
    return OM_OK;
}

/* The shared key node `which` (0: "<<", 1 + i: field_keys[i]) stands for
 * the key that just completed. */
static om_status deliver(composer *c, uint32_t index, uint8_t wanted);

static om_status canonical_key(composer *c, int which, uint32_t index)
{
    if (c->canonical[which] == NONE) {
        om_status st = new_node(c, OMI_NODE_SCALAR, 0, &index);
        if (st != OM_OK)
            return st;
        omi_node *node = node_at(c, index);
        node->value = which == 0 ? "<<" : field_keys[which - 1];
        node->length = (uint32_t)strlen(node->value);
        node->plain = true;
        c->canonical[which] = index;
    }
    return deliver(c, c->canonical[which], ROLE_VALUE);
}

/* ---- roles ---- */

/* Roles of the children of a collection that has `roles`. */
static uint8_t child_roles(bool mapping, uint8_t roles)
{
    uint8_t merged = (uint8_t)(((roles & ROLE_MERGE_ROOT) ? ROLE_ROOT : 0) |
                               ((roles & ROLE_MERGE_SECTION) ? ROLE_SECTION : 0));
    if (!mapping)
        return merged; /* a merge list's mappings */
    uint8_t as_map = (uint8_t)((roles & (ROLE_ROOT | ROLE_SECTION)) | merged);
    return as_map ? (uint8_t)(as_map | (roles & ROLE_REPORT)) : 0;
}

static bool text_in(const char *text, size_t length, const char *const *words,
                    size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(words[i]) == length && memcmp(words[i], text, length) == 0)
            return true;
    return false;
}


/* The roles of the place a node starts at (keys aside). */
static uint8_t slot_roles(const composer *c)
{
    if (c->depth == 0)
        return ROLE_ROOT | ROLE_VALUE | ROLE_REPORT;
    const frame *f = &c->frames[c->depth - 1];
    if (f->node == NONE || !f->roles)
        return 0;
    if (f->mapping)
        return f->pair_kept ? f->value_roles : 0;
    return f->stopped ? 0 : f->roles;
}

/* An unknown key of a REPORT mapping: kept (true) while fewer than the
 * diagnostics name, else counted on the node. */
static bool note_unknown(composer *c, frame *f, unsigned long line)
{
    if (f->unknown_kept < OM_DIAGNOSTICS_MAX_UNKNOWN_KEYS) {
        f->unknown_kept++;
        return true;
    }
    omi_node *map = node_at(c, f->node);
    if (map->unknown++ == 0)
        map->unknown_line = (uint32_t)line;
    return false;
}

/* Remembers a field key in a section, a section key at the top level, or
 * a merge key in either (`which`: its bit), given again in the mapping of
 * `f`. */
static void note_repeat(composer *c, frame *f, size_t which, unsigned long line)
{
    uint16_t bit = (uint16_t)(1u << which);
    omi_tree *tree = c->tree;
    if ((f->repeatable & bit) && tree->nduplicates < OMI_MAX_DUPLICATES) {
        omi_duplicate *d = &tree->duplicates[tree->nduplicates++];
        d->map = f->node;
        d->pair = (uint32_t)((c->scratch_count - f->scratch_start) / 2);
        d->line = (uint32_t)line;
        d->earlier_line = f->last_line[which];
    }
    f->repeatable |= bit;
    f->last_line[which] = (uint32_t)line;
}

/* Decides the pair a scalar key opens (the text of an alias key counts as
 * written at the anchor): whether it is kept, and its value's roles. */
static void plan_scalar_key(composer *c, frame *f, const char *text,
                            size_t length, bool plain, const char *tag,
                            unsigned long line)
{
    f->pair_kept = false;
    f->value_roles = 0;
    f->canonical = -1;
    uint8_t r = f->roles;
    if (f->node == NONE || !(r & (ROLE_ROOT | ROLE_SECTION)))
        return;
    /* As omi_yaml_is_merge_key(): the !!merge tag, or a plain "<<". */
    bool merge = tag ? strcmp(tag, "tag:yaml.org,2002:merge") == 0
                     : plain && length == 2 && memcmp(text, "<<", 2) == 0;
    uint8_t v = 0;
    if (merge) {
        v = (uint8_t)(((r & ROLE_ROOT) ? ROLE_MERGE_ROOT : 0) |
                      ((r & ROLE_SECTION) ? ROLE_MERGE_SECTION : 0));
        note_repeat(c, f, REPEAT_MERGE, line);
    } else {
        if ((r & ROLE_ROOT) && text_in(text, length, section_keys, COUNT(section_keys)))
            v |= ROLE_SECTION | ((r & ROLE_REPORT) ? ROLE_REPORT : 0);
        if ((r & ROLE_SECTION) && text_in(text, length, field_keys, COUNT(field_keys)))
            v |= ROLE_VALUE;
    }
    if (v && !merge) {
        for (size_t i = 0; i < COUNT(field_keys); i++)
            if ((r & ROLE_SECTION) && text_in(text, length, &field_keys[i], 1))
                note_repeat(c, f, i, line);
        for (size_t i = 0; i < COUNT(section_keys); i++)
            if ((r & ROLE_ROOT) && text_in(text, length, &section_keys[i], 1))
                note_repeat(c, f, COUNT(field_keys) + i, line);
    }
    if (v) {
        f->pair_kept = true;
        f->value_roles = v;
        /* Known in every section, never named by a diagnostic. */
        if (merge)
            f->canonical = 0;
        for (int i = 0; i < OM_DIM_COUNT + OM_FLAG_COUNT; i++)
            if (text_in(text, length, &field_keys[i], 1))
                f->canonical = 1 + i;
        return;
    }
    if (!(r & ROLE_REPORT))
        return;
    bool for_root = false;
    if (r & ROLE_ROOT) {
        uint8_t bit = 0;
        for (size_t i = 0; i < COUNT(mesh_keys); i++)
            if (text_in(text, length, &mesh_keys[i], 1))
                bit = (uint8_t)(1u << i);
        if (!bit && omi_suggest(text, length, section_keys, 1) >= 0)
            bit = SEEN_NEAR_SECTION;
        for_root = bit && !(f->seen & bit);
        f->seen |= bit;
    }
    if (r & ROLE_SECTION)
        f->pair_kept = note_unknown(c, f, line) || for_root;
    else
        f->pair_kept = for_root;
}

/* A key that is a collection: only a REPORT section names it. */
static void plan_collection_key(composer *c, frame *f, unsigned long line)
{
    f->value_roles = 0;
    f->canonical = -1;
    f->pair_kept = f->node != NONE && (f->roles & ROLE_SECTION) &&
                   (f->roles & ROLE_REPORT) && note_unknown(c, f, line);
}

/* Hands a completed node (NONE: not kept) to the place it started at,
 * which `wanted` it or not. */
static om_status deliver(composer *c, uint32_t index, uint8_t wanted)
{
    omi_tree *tree = c->tree;
    if (c->depth == 0) {
        tree->root = index;
        tree->has_root = true;
        return OM_OK;
    }
    frame *f = &c->frames[c->depth - 1];
    if (f->mapping && f->at_key) {
        f->at_key = false;
        return f->pair_kept ? push_child(c, index) : OM_OK;
    }
    if (f->mapping) {
        f->at_key = true;
        if (!f->pair_kept)
            return OM_OK;
        f->pair_kept = false;
        uint32_t value = index;
        om_status st = f->value_roles ? OM_OK : placeholder(c, &value);
        return st == OM_OK ? push_child(c, value) : st;
    }
    if (!wanted || index == NONE || f->stopped)
        return OM_OK;
    /* A merge list is read up to its first non-mapping, which fails. */
    if (node_at(c, index)->kind != OMI_NODE_MAPPING)
        f->stopped = true;
    return push_child(c, index);
}

/* ---- anchors ---- */

static om_status count_reference(composer *c, unsigned long line)
{
    if (++c->references > OMI_MAX_YAML_ANCHORS)
        return omi_fail(c->err, OM_ERR_PARSE,
                        "line %lu: more than %d YAML anchors and aliases", line,
                        OMI_MAX_YAML_ANCHORS);
    return OM_OK;
}

static uint64_t name_hash(const char *name)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * UINT64_C(0x100000001b3);
    return h;
}

/* Slot of `name`: the one holding it, or the empty one where it goes. */
static size_t find_slot(const anchor_table *table, const char *name)
{
    size_t mask = table->slot_cap - 1;
    size_t i = (size_t)name_hash(name) & mask;
    while (table->slots[i] &&
           strcmp(table->items[table->slots[i] - 1].name, name) != 0)
        i = (i + 1) & mask;
    return i;
}

static bool grow_slots(composer *c, anchor_table *table)
{
    size_t cap = table->slot_cap ? table->slot_cap * 2 : 64;
    size_t *slots = omi_malloc(cap * sizeof *slots);
    if (!slots)
        return false;
    count_bytes(c->tree, cap * sizeof *slots, table->slot_cap * sizeof *slots);
    memset(slots, 0, cap * sizeof *slots);
    omi_free(table->slots);
    table->slots = slots;
    table->slot_cap = cap;
    for (size_t k = 0; k < table->count; k++)
        table->slots[find_slot(table, table->items[k].name)] = k + 1;
    return true;
}

static om_status add_anchor(composer *c, const yaml_char_t *name, uint32_t index,
                            unsigned long line)
{
    if (!name)
        return OM_OK;
    om_status st = count_reference(c, line);
    if (st != OM_OK)
        return st;
    anchor_table *table = &c->anchors;
    if ((table->count + 1) * 2 > table->slot_cap && !grow_slots(c, table))
        return no_memory(c->err);
    const char *text = (const char *)name;
    size_t slot = find_slot(table, text);
    /* PyYAML refuses a second anchor of the same name, as libyaml's own
     * loader does. */
    if (table->slots[slot]) {
        char quoted[96];
        omi_quote(quoted, sizeof quoted, text, strlen(text));
        return omi_fail(c->err, OM_ERR_PARSE, "line %lu: found duplicate anchor %s",
                        line, quoted);
    }
    if (!reserve(c->tree, (void **)&table->items, &table->cap, table->count,
                 sizeof *table->items))
        return no_memory(c->err);
    size_t len = strlen(text);
    char *copy = omi_malloc(len + 1);
    if (!copy)
        return no_memory(c->err);
    count_bytes(c->tree, len + 1, 0);
    memcpy(copy, text, len + 1);
    table->items[table->count].name = copy;
    table->items[table->count].node = index;
    table->slots[slot] = ++table->count;
    return OM_OK;
}

/* An alias refers to the anchor of that name before it. */
static om_status find_anchor(composer *c, const yaml_char_t *name,
                             unsigned long line, uint32_t *index)
{
    om_status st = count_reference(c, line);
    if (st != OM_OK)
        return st;
    const anchor_table *table = &c->anchors;
    size_t slot = table->slot_cap ? find_slot(table, (const char *)name) : 0;
    if (table->slot_cap && table->slots[slot]) {
        *index = table->items[table->slots[slot] - 1].node;
        return OM_OK;
    }
    char quoted[96];
    omi_quote(quoted, sizeof quoted, (const char *)name, strlen((const char *)name));
    return omi_fail(c->err, OM_ERR_PARSE, "line %lu: found undefined alias %s",
                    line, quoted);
}

/* ---- events ---- */

static frame *key_frame(composer *c)
{
    frame *f = c->depth ? &c->frames[c->depth - 1] : NULL;
    return f && f->mapping && f->at_key ? f : NULL;
}

static om_status add_scalar(composer *c, const yaml_event_t *event,
                            unsigned long line)
{
    frame *key = key_frame(c);
    uint8_t wanted;
    if (key) {
        plan_scalar_key(c, key, (const char *)event->data.scalar.value,
                        event->data.scalar.length,
                        event->data.scalar.style == YAML_PLAIN_SCALAR_STYLE,
                        (const char *)event->data.scalar.tag, line);
        wanted = key->pair_kept ? ROLE_VALUE : 0;
    } else {
        wanted = slot_roles(c);
    }
    const yaml_char_t *anchor_name = event->data.scalar.anchor;
    uint32_t index = NONE;
    om_status st = OM_OK;
    if (key && key->pair_kept && key->canonical >= 0 && !anchor_name)
        return canonical_key(c, key->canonical, index);
    if (wanted || anchor_name)
        st = new_scalar(c, event, line, &index);
    if (st == OM_OK)
        st = add_anchor(c, anchor_name, index, line);
    return st == OM_OK ? deliver(c, index, wanted) : st;
}

static om_status add_alias(composer *c, const yaml_event_t *event,
                           unsigned long line)
{
    uint32_t index = NONE;
    om_status st = find_anchor(c, event->data.alias.anchor, line, &index);
    if (st != OM_OK)
        return st;
    frame *key = key_frame(c);
    if (!key)
        return deliver(c, index, slot_roles(c));
    const omi_node *target = node_at(c, index);
    if (target->kind == OMI_NODE_SCALAR)
        plan_scalar_key(c, key, target->value, target->length, target->plain,
                        target->tag, line);
    else
        plan_collection_key(c, key, line);
    return deliver(c, index, key->pair_kept ? ROLE_VALUE : 0);
}

static om_status open_collection(composer *c, bool mapping,
                                 const yaml_char_t *anchor_name,
                                 unsigned long line)
{
    if (c->depth == OMI_MAX_YAML_DEPTH)
        return omi_fail(c->err, OM_ERR_PARSE,
                        "line %lu: YAML collections nest deeper than %d levels",
                        line, OMI_MAX_YAML_DEPTH);
    frame *key = key_frame(c);
    uint8_t wanted;
    if (key) {
        plan_collection_key(c, key, line);
        wanted = key->pair_kept ? ROLE_VALUE : 0;
    } else {
        wanted = slot_roles(c);
    }
    uint8_t roles = (uint8_t)(wanted | (anchor_name ? ROLE_ANY : 0));
    uint32_t index = NONE;
    om_status st = OM_OK;
    if (roles)
        st = new_node(c, mapping ? OMI_NODE_MAPPING : OMI_NODE_SEQUENCE, line,
                      &index);
    if (st == OM_OK)
        st = add_anchor(c, anchor_name, index, line);
    if (st != OM_OK)
        return st;
    frame *f = &c->frames[c->depth++];
    memset(f, 0, sizeof *f);
    f->node = index;
    f->roles = index == NONE ? 0 : child_roles(mapping, roles);
    f->wanted = wanted;
    f->anchored = anchor_name != NULL;
    f->mapping = mapping;
    f->at_key = true;
    f->scratch_start = c->scratch_count;
    if (index != NONE && mapping)
        node_at(c, index)->report = (f->roles & ROLE_REPORT) && (f->roles & ROLE_SECTION);
    return OM_OK;
}

/* Moves the children of the closing collection into the arena. */
static om_status close_collection(composer *c)
{
    frame f = c->frames[--c->depth];
    if (f.node != NONE) {
        size_t n = c->scratch_count - f.scratch_start;
        uint32_t *items = NULL;
        if (n) {
            items = arena_alloc(c->tree, n * sizeof *items, sizeof *items);
            if (!items)
                return no_memory(c->err);
            memcpy(items, c->scratch + f.scratch_start, n * sizeof *items);
        }
        omi_node *node = node_at(c, f.node);
        node->items = items;
        node->count = (uint32_t)n;
        c->scratch_count = f.scratch_start;
        /* An empty mapping merged in adds nothing but its place in the
         * list (the merge budget counts it): all share one node. */
        if (!n && f.mapping && !f.anchored && !(f.wanted & (ROLE_VALUE | ROLE_REPORT)) &&
            f.node + 1 == c->tree->count) {
            if (c->empty_map == NONE) {
                c->empty_map = f.node;
            } else {
                c->tree->count--;
                c->tree->stats.nodes = c->tree->count;
                f.node = c->empty_map;
            }
        }
    }
    return deliver(c, f.node, f.wanted);
}

/* One event; *done is set at the end of the stream. */
static om_status apply(composer *c, const yaml_event_t *event, bool *done)
{
    unsigned long line = (unsigned long)event->start_mark.line + 1;
    c->tree->stats.events++;
    switch (event->type) {
    case YAML_DOCUMENT_START_EVENT:
        c->documents++;
        return OM_OK;
    case YAML_STREAM_END_EVENT:
    case YAML_NO_EVENT: /* what libyaml gives after the end */
        *done = true;
        return OM_OK;
    case YAML_STREAM_START_EVENT:
    case YAML_DOCUMENT_END_EVENT:
        return OM_OK;
    default:
        break;
    }
    /* Every document has a node, an empty one a null scalar: refuse the
     * second document at its first node, as PyYAML's safe_load does. */
    if (c->documents > 1)
        return omi_fail(c->err, OM_ERR_PARSE,
                        "line %lu: expected a single YAML document, found "
                        "another", line);
    switch (event->type) {
    case YAML_SCALAR_EVENT:
        return add_scalar(c, event, line);
    case YAML_ALIAS_EVENT:
        return add_alias(c, event, line);
    case YAML_SEQUENCE_START_EVENT:
        return open_collection(c, false, event->data.sequence_start.anchor, line);
    case YAML_MAPPING_START_EVENT:
        return open_collection(c, true, event->data.mapping_start.anchor, line);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        return close_collection(c);
    default:
        return OM_OK;
    }
}

static om_status parser_failure(const yaml_parser_t *parser, om_error *err)
{
    /* libyaml fails some allocations without recording an error. */
    if (parser->error == YAML_MEMORY_ERROR || parser->error == YAML_NO_ERROR)
        return no_memory(err);
    const char *problem = parser->problem ? parser->problem : "malformed YAML";
    /* The reader (encoding, control characters) only knows a byte offset. */
    if (parser->error == YAML_READER_ERROR)
        return omi_fail(err, OM_ERR_PARSE, "byte %lu: %s",
                        (unsigned long)parser->problem_offset, problem);
    return omi_fail(err, OM_ERR_PARSE, "line %lu column %lu: %s%s%s",
                    (unsigned long)parser->problem_mark.line + 1,
                    (unsigned long)parser->problem_mark.column + 1, problem,
                    parser->context ? " " : "",
                    parser->context ? parser->context : "");
}

void omi_tree_free(omi_tree *tree)
{
    omi_yaml_stats stats = tree->stats;
    for (omi_arena_block *b = tree->arena, *next; b; b = next) {
        next = b->next;
        omi_free(b);
    }
    for (size_t i = 0; i < tree->nblocks; i++)
        omi_free(tree->blocks[i]);
    omi_free(tree->blocks);
    memset(tree, 0, sizeof *tree);
    tree->stats = stats;
    tree->stats.bytes = 0;
}

om_status omi_yaml_compose(const char *text, size_t length, omi_tree *tree,
                           om_error *err)
{
    memset(tree, 0, sizeof *tree);
    if (omi_yaml_check_encoding(text, length, err) != OM_OK)
        return OM_ERR_PARSE;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return no_memory(err);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, length);
    composer *c = omi_malloc(sizeof *c);
    if (!c) {
        yaml_parser_delete(&parser);
        return no_memory(err);
    }
    memset(c, 0, sizeof *c);
    c->tree = tree;
    c->err = err;
    c->placeholder = NONE;
    c->empty_map = NONE;
    for (size_t i = 0; i < COUNT(c->canonical); i++)
        c->canonical[i] = NONE;
    count_bytes(tree, sizeof *c, 0);
    om_status st = OM_OK;
    for (bool done = false; st == OM_OK && !done;) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) {
            st = parser_failure(&parser, err);
            break;
        }
        st = apply(c, &event, &done);
        yaml_event_delete(&event);
    }
    tree->stats.input_read = parser.offset;
    yaml_parser_delete(&parser);
    for (size_t i = 0; i < c->anchors.count; i++)
        omi_free(c->anchors.items[i].name);
    omi_free(c->anchors.items);
    omi_free(c->anchors.slots);
    omi_free(c->scratch);
    omi_free(c);
    if (st != OM_OK)
        omi_tree_free(tree);
    return st;
}
