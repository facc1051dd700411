/* Composition of one YAML document from libyaml's events. Doing it here
 * rather than with yaml_parser_load() keeps what the loader throws away (an
 * explicit !!str tag looks like no tag there) and lets nesting depth and
 * anchor counts be refused in the same single pass, before libyaml's
 * scanner spends quadratic time on absurd input. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <yaml.h>

#include "yaml_tree.h"

/* Deepest collection nesting accepted: libyaml's scanner slows down
 * quadratically with depth, and real configs nest a handful of levels. */
#define OMI_MAX_YAML_DEPTH 256
/* Most anchors plus aliases accepted (real configs use a few dozen). */
#define OMI_MAX_YAML_ANCHORS 10000

typedef struct {
    char *name;
    size_t node;
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

typedef struct {
    omi_tree *tree;
    om_error *err;
    size_t stack[OMI_MAX_YAML_DEPTH];
    size_t depth;
    anchor_table anchors;
    size_t references; /* anchors plus aliases seen */
    int documents;
} composer;

static om_status no_memory(om_error *err)
{
    return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory parsing YAML");
}

/* Makes room for one more element of `size` bytes. */
static bool reserve(void **items, size_t *cap, size_t count, size_t size)
{
    if (count < *cap)
        return true;
    size_t bigger = *cap ? *cap * 2 : 4;
    void *grown = omi_realloc(*items, bigger * size);
    if (!grown)
        return false;
    *items = grown;
    *cap = bigger;
    return true;
}

/* Hangs node `index` under the open collection, or makes it the root. */
static om_status attach(composer *c, size_t index)
{
    omi_tree *tree = c->tree;
    if (c->depth == 0) {
        tree->root = index;
        tree->has_root = true;
        return OM_OK;
    }
    omi_node *parent = &tree->nodes[c->stack[c->depth - 1]];
    if (!reserve((void **)&parent->items, &parent->cap, parent->count,
                 sizeof *parent->items))
        return no_memory(c->err);
    parent->items[parent->count++] = index;
    return OM_OK;
}

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

static bool grow_slots(anchor_table *table)
{
    size_t cap = table->slot_cap ? table->slot_cap * 2 : 64;
    size_t *slots = omi_malloc(cap * sizeof *slots);
    if (!slots)
        return false;
    memset(slots, 0, cap * sizeof *slots);
    omi_free(table->slots);
    table->slots = slots;
    table->slot_cap = cap;
    for (size_t k = 0; k < table->count; k++)
        table->slots[find_slot(table, table->items[k].name)] = k + 1;
    return true;
}

static om_status add_anchor(composer *c, const yaml_char_t *name, size_t index,
                            unsigned long line)
{
    if (!name)
        return OM_OK;
    om_status st = count_reference(c, line);
    if (st != OM_OK)
        return st;
    anchor_table *table = &c->anchors;
    if ((table->count + 1) * 2 > table->slot_cap && !grow_slots(table))
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
    if (!reserve((void **)&table->items, &table->cap, table->count,
                 sizeof *table->items))
        return no_memory(c->err);
    size_t len = strlen(text);
    char *copy = omi_malloc(len + 1);
    if (!copy)
        return no_memory(c->err);
    memcpy(copy, text, len + 1);
    table->items[table->count].name = copy;
    table->items[table->count].node = index;
    table->slots[slot] = ++table->count;
    return OM_OK;
}

/* An alias refers to the anchor of that name before it. */
static om_status resolve_alias(composer *c, const yaml_char_t *name,
                               unsigned long line)
{
    om_status st = count_reference(c, line);
    if (st != OM_OK)
        return st;
    const anchor_table *table = &c->anchors;
    size_t slot = table->slot_cap ? find_slot(table, (const char *)name) : 0;
    if (table->slot_cap && table->slots[slot])
        return attach(c, table->items[table->slots[slot] - 1].node);
    char quoted[96];
    omi_quote(quoted, sizeof quoted, (const char *)name, strlen((const char *)name));
    return omi_fail(c->err, OM_ERR_PARSE, "line %lu: found undefined alias %s",
                    line, quoted);
}

/* Appends a node; *index receives its position. */
static om_status new_node(composer *c, omi_node_kind kind, unsigned long line,
                          size_t *index)
{
    omi_tree *tree = c->tree;
    if (!reserve((void **)&tree->nodes, &tree->cap, tree->count,
                 sizeof *tree->nodes))
        return no_memory(c->err);
    omi_node *node = &tree->nodes[tree->count];
    memset(node, 0, sizeof *node);
    node->kind = kind;
    node->line = line;
    *index = tree->count++;
    return OM_OK;
}

static om_status add_scalar(composer *c, const yaml_event_t *event,
                            unsigned long line)
{
    size_t index;
    om_status st = new_node(c, OMI_NODE_SCALAR, line, &index);
    if (st != OM_OK)
        return st;
    omi_node *node = &c->tree->nodes[index];
    size_t length = event->data.scalar.length;
    const char *tag = (const char *)event->data.scalar.tag;
    node->value = omi_malloc(length + 1);
    node->tag = tag ? omi_malloc(strlen(tag) + 1) : NULL;
    if (!node->value || (tag && !node->tag))
        return no_memory(c->err);
    memcpy(node->value, event->data.scalar.value, length);
    node->value[length] = '\0';
    node->length = length;
    if (tag)
        memcpy(node->tag, tag, strlen(tag) + 1);
    node->plain = event->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    st = add_anchor(c, event->data.scalar.anchor, index, line);
    return st == OM_OK ? attach(c, index) : st;
}

static om_status open_collection(composer *c, omi_node_kind kind,
                                 const yaml_char_t *anchor_name,
                                 unsigned long line)
{
    if (c->depth == OMI_MAX_YAML_DEPTH)
        return omi_fail(c->err, OM_ERR_PARSE,
                        "line %lu: YAML collections nest deeper than %d levels",
                        line, OMI_MAX_YAML_DEPTH);
    size_t index;
    om_status st = new_node(c, kind, line, &index);
    if (st == OM_OK)
        st = add_anchor(c, anchor_name, index, line);
    if (st == OM_OK)
        st = attach(c, index);
    if (st == OM_OK)
        c->stack[c->depth++] = index;
    return st;
}

/* One event; *done is set at the end of the stream. */
static om_status apply(composer *c, const yaml_event_t *event, bool *done)
{
    unsigned long line = (unsigned long)event->start_mark.line + 1;
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
        return resolve_alias(c, event->data.alias.anchor, line);
    case YAML_SEQUENCE_START_EVENT:
        return open_collection(c, OMI_NODE_SEQUENCE,
                               event->data.sequence_start.anchor, line);
    case YAML_MAPPING_START_EVENT:
        return open_collection(c, OMI_NODE_MAPPING,
                               event->data.mapping_start.anchor, line);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        c->depth--;
        return OM_OK;
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
    for (size_t i = 0; i < tree->count; i++) {
        omi_free(tree->nodes[i].value);
        omi_free(tree->nodes[i].tag);
        omi_free(tree->nodes[i].items);
    }
    omi_free(tree->nodes);
    memset(tree, 0, sizeof *tree);
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
    composer c = {.tree = tree, .err = err};
    om_status st = OM_OK;
    for (bool done = false; st == OM_OK && !done;) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) {
            st = parser_failure(&parser, err);
            break;
        }
        st = apply(&c, &event, &done);
        yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
    for (size_t i = 0; i < c.anchors.count; i++)
        omi_free(c.anchors.items[i].name);
    omi_free(c.anchors.items);
    omi_free(c.anchors.slots);
    if (st != OM_OK)
        omi_tree_free(tree);
    return st;
}
