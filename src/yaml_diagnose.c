/* Strict configs (config.h): what the lenient projection accepts without a
 * word but is probably a mistake, found on the composed document after
 * the projection succeeded, and the two calls that return it. */
#include <stdio.h>
#include <string.h>

#include "diagnostics.h"
#include "suggest.h"
#include "yaml_tree.h"

#define KNOWN_KEYS (OM_DIM_COUNT + OM_FLAG_COUNT)
/* Merged mappings remembered so a mapping merged twice is reported once. */
#define MAX_VISITED 64
/* Deepest merge chain walked (the projection allows as much). */
#define MAX_WALK_DEPTH 64

/* Mappings walked already: a mapping merged twice is looked at once. */
typedef struct {
    const omi_node *items[MAX_VISITED];
    size_t count;
} visited_set;

/* False when `map` was seen already (or too many were). */
static bool first_visit(visited_set *seen, const omi_node *map)
{
    for (size_t i = 0; i < seen->count; i++)
        if (seen->items[i] == map)
            return false;
    if (seen->count == MAX_VISITED)
        return false;
    seen->items[seen->count++] = map;
    return true;
}

typedef struct {
    const omi_tree *tree;
    om_diagnostics *list;
    const char *known[KNOWN_KEYS];
    size_t reported;   /* unknown keys reported one by one */
    size_t unreported; /* and those only counted */
    unsigned long first_unreported_line;
    long budget;    /* pairs left to look at */
    visited_set visited;
} walk;

static const omi_node *node_at(const omi_tree *tree, size_t index)
{
    return omi_tree_node(tree, index);
}

static bool scalar_is(const omi_node *node, const char *text)
{
    size_t len = strlen(text);
    return node->kind == OMI_NODE_SCALAR && node->length == len &&
           memcmp(node->value, text, len) == 0;
}

/* One of the seven keys om_dims reads in accelerator. */
static bool is_dims_field(const omi_node *key)
{
    for (int i = 0; i < OM_DIM_COUNT; i++)
        if (scalar_is(key, om_dim_field_name((om_dim)i)))
            return true;
    for (int i = 0; i < OM_FLAG_COUNT; i++)
        if (scalar_is(key, om_flag_field_name((om_flag)i)))
            return true;
    return false;
}

static bool is_known(const walk *w, const omi_node *key)
{
    for (size_t k = 0; k < KNOWN_KEYS; k++)
        if (scalar_is(key, w->known[k]))
            return true;
    return false;
}

static void count_unreported(walk *w, size_t count, unsigned long line)
{
    if (w->unreported == 0)
        w->first_unreported_line = line;
    w->unreported += count;
}

static void report_unknown(walk *w, const omi_node *key)
{
    if (w->reported == OM_DIAGNOSTICS_MAX_UNKNOWN_KEYS) {
        count_unreported(w, 1, key->line);
        return;
    }
    w->reported++;
    if (key->kind != OMI_NODE_SCALAR) {
        omi_diagnostics_add(w->list, OM_DIAGNOSTIC_UNKNOWN_KEY, (int64_t)key->line,
                            "line %lu: unknown key (%s) in accelerator", key->line,
                            key->kind == OMI_NODE_MAPPING ? "a mapping" : "a list");
        return;
    }
    char quoted[72];
    omi_quote(quoted, sizeof quoted, key->value, key->length);
    int near = omi_suggest(key->value, key->length, w->known, KNOWN_KEYS);
    if (near >= 0)
        omi_diagnostics_add(w->list, OM_DIAGNOSTIC_UNKNOWN_KEY, (int64_t)key->line,
                            "line %lu: unknown key %s in accelerator (did you "
                            "mean \"%s\"?)", key->line, quoted, w->known[near]);
    else
        omi_diagnostics_add(w->list, OM_DIAGNOSTIC_UNKNOWN_KEY, (int64_t)key->line,
                            "line %lu: unknown key %s in accelerator (known keys: "
                            "dp_size, tp_size, cp_size, ep_size, pp_size, "
                            "sequence_parallel, loss_parallel)", key->line, quoted);
}

static void walk_keys(walk *w, const omi_node *map, int depth);

/* The mappings a merge key brings in; anything else the projection would
 * have refused had it needed it, and carries no key. */
static void walk_merge(walk *w, const omi_node *value, int depth)
{
    if (value->kind == OMI_NODE_MAPPING) {
        walk_keys(w, value, depth + 1);
        return;
    }
    if (value->kind != OMI_NODE_SEQUENCE)
        return;
    for (size_t k = 0; k < value->count; k++) {
        const omi_node *sub = node_at(w->tree, value->items[k]);
        if (sub->kind == OMI_NODE_MAPPING)
            walk_keys(w, sub, depth + 1);
    }
}

/* Every key of `map` and of what it merges, in document order of `map`.
 * Composition recorded the unknown keys of sections and anchored mappings
 * (`report`): the first ones as pairs, the rest as a count; an inline
 * mapping in a merge key keeps its field keys only, and says nothing. */
static void walk_keys(walk *w, const omi_node *map, int depth)
{
    if (depth > MAX_WALK_DEPTH || !first_visit(&w->visited, map))
        return;
    size_t pairs = map->count / 2;
    for (size_t p = 0; p < pairs && w->budget-- > 0; p++) {
        const omi_node *key = node_at(w->tree, map->items[2 * p]);
        if (omi_yaml_is_merge_key(key))
            walk_merge(w, node_at(w->tree, map->items[2 * p + 1]), depth);
        else if (map->report && !is_known(w, key))
            report_unknown(w, key);
    }
    if (map->report && map->unknown > 0)
        count_unreported(w, map->unknown, map->unknown_line);
}

/* The explicit top-level key that says "mesh JSON", or NULL. */
static const omi_node *mesh_json_key(const omi_tree *tree, const omi_node *root)
{
    for (size_t p = 0; p < root->count / 2; p++) {
        const omi_node *key = node_at(tree, root->items[2 * p]);
        if (scalar_is(key, "mesh_dim_names") || scalar_is(key, "mesh_shape"))
            return key;
    }
    return NULL;
}

static void missing_section(const omi_tree *tree, const omi_node *root,
                            om_diagnostics *list)
{
    const omi_node *mesh_key = mesh_json_key(tree, root);
    if (mesh_key) {
        omi_diagnostics_add(list, OM_DIAGNOSTIC_MESH_JSON, (int64_t)mesh_key->line,
                            "line %lu: this is a mesh JSON (it has \"%s\"), not a "
                            "training config: read it as a mesh (CLI: --mesh FILE)",
                            mesh_key->line, mesh_key->value);
        return;
    }
    static const char *const section[] = {"accelerator"};
    for (size_t p = 0; p < root->count / 2; p++) {
        const omi_node *key = node_at(tree, root->items[2 * p]);
        if (key->kind != OMI_NODE_SCALAR ||
            omi_suggest(key->value, key->length, section, 1) < 0)
            continue;
        char quoted[72];
        omi_quote(quoted, sizeof quoted, key->value, key->length);
        omi_diagnostics_add(list, OM_DIAGNOSTIC_NO_ACCELERATOR, (int64_t)key->line,
                            "line %lu: unknown section %s (did you mean "
                            "\"accelerator\"?): there is no accelerator section, "
                            "so every size takes its default", key->line, quoted);
        return;
    }
    omi_diagnostics_add(list, OM_DIAGNOSTIC_NO_ACCELERATOR, 0,
                        "no accelerator section: every size takes its default");
}

/* ---- keys given twice (PyYAML keeps the last without a word) ---- */

/* Duplicates reported one by one; one more diagnostic counts the rest. */
#define MAX_DUPLICATE_REPORTS 8

typedef struct {
    const omi_tree *tree;
    const omi_duplicate *found[OMI_MAX_DUPLICATES];
    const char *where[OMI_MAX_DUPLICATES];
    size_t count;
    visited_set visited;
} repeats;

/* The repeated keys of `map` and of every mapping it merges; `where`
 * says which mapping that is in messages. */
static void collect_repeats(repeats *r, const omi_node *map, const char *where,
                            const char *merged_where, int depth)
{
    if (map->kind != OMI_NODE_MAPPING || depth > MAX_WALK_DEPTH || !first_visit(&r->visited, map))
        return;
    for (size_t i = 0; i < r->tree->nduplicates; i++) {
        const omi_duplicate *d = &r->tree->duplicates[i];
        if (node_at(r->tree, d->map) == map && r->count < OMI_MAX_DUPLICATES) {
            r->where[r->count] = where;
            r->found[r->count++] = d;
        }
    }
    for (size_t p = 0; p < map->count / 2; p++) {
        if (!omi_yaml_is_merge_key(node_at(r->tree, map->items[2 * p])))
            continue;
        const omi_node *value = node_at(r->tree, map->items[2 * p + 1]);
        if (value->kind == OMI_NODE_MAPPING)
            collect_repeats(r, value, merged_where, merged_where, depth + 1);
        for (size_t k = 0; value->kind == OMI_NODE_SEQUENCE && k < value->count; k++)
            collect_repeats(r, node_at(r->tree, value->items[k]), merged_where,
                            merged_where, depth + 1);
    }
}

/* A value in a message: a scalar as written (quoted unless plain), or
 * what kind of collection it is. */
static void shown_value(const omi_node *node, char *buf, size_t size)
{
    if (node->kind == OMI_NODE_MAPPING)
        snprintf(buf, size, "a mapping");
    else if (node->kind == OMI_NODE_SEQUENCE)
        snprintf(buf, size, "a list");
    else if (node->plain && node->length == 0)
        snprintf(buf, size, "null (empty)");
    else if (node->plain)
        snprintf(buf, size, "%.40s", node->value);
    else
        omi_quote(buf, size, node->value, node->length);
}

/* The message of a repeated key (`where` says in which mapping), which
 * the diagnostics and the preset loader's error share. */
static void word_repeat(const omi_tree *tree, const omi_duplicate *d,
                        const char *where, char *message, size_t size)
{
    const omi_node *map = node_at(tree, d->map);
    const omi_node *key = node_at(tree, map->items[2 * d->pair]);
    const omi_node *value = node_at(tree, map->items[2 * d->pair + 1]);
    const omi_node *earlier = NULL;
    for (size_t p = d->pair; p-- > 0 && !earlier;) {
        const omi_node *k = node_at(tree, map->items[2 * p]);
        if (!omi_yaml_is_merge_key(k) && k->kind == OMI_NODE_SCALAR &&
            k->length == key->length && memcmp(k->value, key->value, key->length) == 0)
            earlier = node_at(tree, map->items[2 * p + 1]);
    }
    if (omi_yaml_is_merge_key(key)) {
        /* Not replaced: PyYAML merges both, the later one first. */
        snprintf(message, size, "line %lu: merge key \"<<\" appears again %s "
                 "(line %lu has one): both merge, this one winning shared keys "
                 "(say <<: [*this, *earlier])", (unsigned long)d->line, where,
                 (unsigned long)d->earlier_line);
        return;
    }
    if (scalar_is(key, "accelerator") || scalar_is(key, "fsdp_config")) {
        snprintf(message, size, "line %lu: section \"%s\" appears again %s: "
                 "it replaces the one at line %lu", (unsigned long)d->line,
                 key->value, where, (unsigned long)d->earlier_line);
        return;
    }
    char now[64], before[64];
    shown_value(value, now, sizeof now);
    if (earlier)
        shown_value(earlier, before, sizeof before);
    else
        snprintf(before, sizeof before, "?");
    snprintf(message, size, "line %lu: key \"%s\" appears again %s (line %lu's "
             "value %s is replaced by %s)", (unsigned long)d->line, key->value,
             where, (unsigned long)d->earlier_line, before, now);
}

static void report_repeat(const omi_tree *tree, const omi_duplicate *d,
                          const char *where, om_diagnostics *list)
{
    char message[OM_ERROR_MESSAGE_SIZE];
    word_repeat(tree, d, where, message, sizeof message);
    omi_diagnostics_add(list, OM_DIAGNOSTIC_DUPLICATE_KEY, (int64_t)d->line, "%s",
                        message);
}

static bool key_in(const omi_node *key, const char *const *keys, size_t nkeys)
{
    for (size_t k = 0; k < nkeys; k++)
        if (scalar_is(key, keys[k]))
            return true;
    return false;
}

unsigned long omi_yaml_first_repeat(const omi_tree *tree, const omi_node *map,
                                    const char *where, const char *merged_where,
                                    const char *const *keys, size_t nkeys,
                                    char *message, size_t size)
{
    repeats r = {.tree = tree};
    collect_repeats(&r, map, where, merged_where, 0);
    size_t first = r.count;
    for (size_t i = 0; i < r.count; i++) {
        const omi_node *m = node_at(tree, r.found[i]->map);
        const omi_node *key = node_at(tree, m->items[2 * r.found[i]->pair]);
        if ((key_in(key, keys, nkeys) || omi_yaml_is_merge_key(key)) &&
            (first == r.count || r.found[i]->line < r.found[first]->line))
            first = i;
    }
    if (first == r.count)
        return 0;
    word_repeat(tree, r.found[first], r.where[first], message, size);
    return r.found[first]->line;
}

static int by_line(const void *a, const void *b)
{
    const omi_duplicate *x = *(const omi_duplicate *const *)a;
    const omi_duplicate *y = *(const omi_duplicate *const *)b;
    return (x->line > y->line) - (x->line < y->line);
}

/* "accelerator" repeated at the top level, fields repeated in the
 * section, in the mappings either merges too; in document order. */
static void report_repeats(const omi_tree *tree, const omi_node *root,
                           const omi_node *accel, om_diagnostics *list)
{
    repeats r = {.tree = tree};
    collect_repeats(&r, root, "at the top level", "in a mapping the top level merges",
                    0);
    size_t at_top = r.count;
    if (accel) {
        r.visited.count = 0;
        collect_repeats(&r, accel, "in accelerator", "in a mapping accelerator merges",
                        0);
    }
    /* A top-level mapping also read as the section (an alias of itself)
     * counts once; fields only count in the section, the section key only
     * at the top, a merge key in either (once). */
    size_t kept = 0;
    for (size_t i = 0; i < r.count; i++) {
        const omi_node *map = node_at(tree, r.found[i]->map);
        const omi_node *key = node_at(tree, map->items[2 * r.found[i]->pair]);
        if (omi_yaml_is_merge_key(key)) {
            bool again = false;
            for (size_t k = 0; k < kept; k++)
                again = again || r.found[k] == r.found[i];
            if (!again) {
                r.where[kept] = r.where[i];
                r.found[kept++] = r.found[i];
            }
            continue;
        }
        bool section_key = scalar_is(key, "accelerator");
        if (section_key != (i < at_top))
            continue;
        /* The tree also remembers the preset loader's keys (fsdp_config and
         * its fields): the dims read none of them. */
        if (!section_key && !is_dims_field(key))
            continue;
        r.where[kept] = r.where[i];
        r.found[kept++] = r.found[i];
    }
    /* Sort the pairs (duplicate, where) by line: insertion sort, a few. */
    for (size_t i = 1; i < kept; i++)
        for (size_t j = i; j > 0 && by_line(&r.found[j - 1], &r.found[j]) > 0; j--) {
            const omi_duplicate *d = r.found[j];
            const char *w = r.where[j];
            r.found[j] = r.found[j - 1];
            r.where[j] = r.where[j - 1];
            r.found[j - 1] = d;
            r.where[j - 1] = w;
        }
    for (size_t i = 0; i < kept && i < MAX_DUPLICATE_REPORTS; i++)
        report_repeat(tree, r.found[i], r.where[i], list);
    if (kept > MAX_DUPLICATE_REPORTS)
        omi_diagnostics_add(list, OM_DIAGNOSTIC_DUPLICATE_KEY,
                            (int64_t)r.found[MAX_DUPLICATE_REPORTS]->line,
                            "line %lu: %zu more keys appear again",
                            (unsigned long)r.found[MAX_DUPLICATE_REPORTS]->line,
                            kept - MAX_DUPLICATE_REPORTS);
}

/* The diagnostics about the document and its section. */
static void diagnose_sections(const omi_tree *tree, om_diagnostics *list)
{
    const omi_node *root = tree->has_root ? node_at(tree, tree->root) : NULL;
    if (!root || root->kind != OMI_NODE_MAPPING) {
        /* The projection accepted it: an empty stream or a null. */
        omi_diagnostics_add(list, OM_DIAGNOSTIC_EMPTY_CONFIG, 0,
                            "the config is empty: every size takes its default");
        return;
    }
    /* The projection found the section (or its absence) already: this
     * lookup cannot fail. */
    om_error ignored;
    omi_lookup ctx = {tree, OMI_MERGE_BUDGET, &ignored, OM_OK};
    const omi_node *accel = omi_yaml_lookup(&ctx, root, "accelerator", 0);
    if (!accel) {
        missing_section(tree, root, list);
        return;
    }
    if (accel->kind != OMI_NODE_MAPPING || accel->count == 0) {
        omi_diagnostics_add(list, OM_DIAGNOSTIC_EMPTY_ACCELERATOR,
                            (int64_t)accel->line,
                            "line %lu: the accelerator section is empty: every "
                            "size takes its default", accel->line);
        return;
    }
    walk w = {.tree = tree, .list = list, .budget = OMI_MERGE_BUDGET};
    size_t n = 0;
    for (int i = 0; i < OM_DIM_COUNT; i++)
        w.known[n++] = om_dim_field_name((om_dim)i);
    for (int i = 0; i < OM_FLAG_COUNT; i++)
        w.known[n++] = om_flag_field_name((om_flag)i);
    walk_keys(&w, accel, 0);
    if (w.unreported > 0)
        omi_diagnostics_add(list, OM_DIAGNOSTIC_UNKNOWN_KEY,
                            (int64_t)w.first_unreported_line,
                            "line %lu: %zu more unknown keys in accelerator",
                            w.first_unreported_line, w.unreported);
}

void omi_yaml_diagnose(const omi_tree *tree, om_diagnostics *list)
{
    diagnose_sections(tree, list);
    const omi_node *root = tree->has_root ? node_at(tree, tree->root) : NULL;
    if (!root || root->kind != OMI_NODE_MAPPING || tree->nduplicates == 0)
        return;
    om_error ignored;
    omi_lookup ctx = {tree, OMI_MERGE_BUDGET, &ignored, OM_OK};
    const omi_node *accel = omi_yaml_lookup(&ctx, root, "accelerator", 0);
    report_repeats(tree, root, accel && accel->kind == OMI_NODE_MAPPING ? accel : NULL,
                   list);
}

/* Strict mode: the first diagnostic becomes the error. */
static om_status apply_strict(bool strict, const om_diagnostics *list,
                              om_dims **out, om_error *err)
{
    if (!strict || list->count == 0)
        return OM_OK;
    om_dims_free(*out);
    *out = NULL;
    if (list->count == 1)
        return omi_fail(err, OM_ERR_PARSE, "%s", list->items[0].text.message);
    return omi_fail(err, OM_ERR_PARSE, "%s (and %zu more)",
                    list->items[0].text.message, list->count - 1);
}

om_status om_dims_parse_yaml_checked(const char *text, size_t length, bool strict,
                                     om_diagnostics *diagnostics, om_dims **out,
                                     om_error *err)
{
    om_diagnostics local;
    om_diagnostics *list = diagnostics ? diagnostics : &local;
    list->count = 0;
    om_status st = omi_yaml_parse(text, length, list, out, err);
    if (st == OM_OK)
        st = apply_strict(strict, list, out, err);
    else
        list->count = 0;
    return st;
}

/* omi_yaml_parse() of a file's text (omu_file_parse). */
typedef struct {
    om_diagnostics *list;
    om_dims **out;
} parse_ctx;

static om_status parse_checked(const char *text, size_t length, void *ctx,
                               om_error *err)
{
    parse_ctx *c = ctx;
    return omi_yaml_parse(text, length, c->list, c->out, err);
}

om_status om_dims_read_yaml_checked(const char *path, bool strict,
                                    om_diagnostics *diagnostics, om_dims **out,
                                    om_error *err)
{
    om_diagnostics local;
    om_diagnostics *list = diagnostics ? diagnostics : &local;
    list->count = 0;
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!path)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "path is NULL");
    parse_ctx ctx = {list, out};
    om_status st = omu_file_parse(path, parse_checked, &ctx, err);
    if (st != OM_OK) {
        list->count = 0;
        return st;
    }
    omi_diagnostics_prefix_path(list, path);
    return apply_strict(strict, list, out, err);
}
