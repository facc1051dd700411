/* Projection of a training YAML's `accelerator:` mapping onto parallel
 * dims. yaml_tree.c composes the document (aliases stay references, so
 * alias bombs cost no memory); merge keys are resolved here, on lookup,
 * with a work budget so nested merges cannot explode. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "yaml_scalar.h"
#include "yaml_tree.h"

/* Deepest chain of merge keys, and total merge work, per lookup. */
#define OMI_MAX_MERGE_DEPTH 64

typedef omi_lookup lookup_ctx;

static const omi_node *node_at(const lookup_ctx *ctx, size_t index)
{
    return omi_tree_node(ctx->tree, index);
}

static bool scalar_is(const omi_node *node, const char *text)
{
    size_t len = strlen(text);
    return node->kind == OMI_NODE_SCALAR && node->length == len &&
           memcmp(node->value, text, len) == 0;
}

bool omi_yaml_is_merge_key(const omi_node *node)
{
    /* PyYAML merges on the tag: a plain "<<" resolves to it, and any key
     * tagged !!merge has it whatever its text. */
    if (node->kind != OMI_NODE_SCALAR)
        return false;
    if (node->tag)
        return strcmp(node->tag, "tag:yaml.org,2002:merge") == 0;
    return node->plain && scalar_is(node, "<<");
}

static const char *kind_name(omi_yaml_kind kind)
{
    switch (kind) {
    case OMI_YAML_NULL: return "null";
    case OMI_YAML_BOOL: return "boolean";
    case OMI_YAML_INT: return "integer";
    case OMI_YAML_FLOAT: return "float";
    case OMI_YAML_STRING: return "string";
    }
    return "value";
}

/* "got string \"2\"", "got a mapping", ... for type errors. */
static void describe_value(const omi_node *node, const omi_yaml_value *value,
                           char *buf, size_t size)
{
    if (node->kind == OMI_NODE_MAPPING) {
        snprintf(buf, size, "a mapping");
        return;
    }
    if (node->kind == OMI_NODE_SEQUENCE) {
        snprintf(buf, size, "a list");
        return;
    }
    /* Strings are quoted (so "2" reads as text); numbers and booleans are
     * shown as written. */
    char shown[80];
    if (value->kind == OMI_YAML_STRING)
        omi_quote(shown, sizeof shown, node->value, node->length);
    else
        snprintf(shown, sizeof shown, "%.60s", node->value);
    snprintf(buf, size, "%s %s", kind_name(value->kind), shown);
}

/* What a merge key was given instead of a mapping, for its error. */
static void describe_merged(const omi_node *node, char *buf, size_t size)
{
    omi_yaml_value value = omi_yaml_node_value(node);
    if (node->kind == OMI_NODE_SCALAR && value.kind == OMI_YAML_NULL)
        snprintf(buf, size, "null%s%.20s",
                 !node->length ? " (empty)" : scalar_is(node, "null") ? "" : " ",
                 scalar_is(node, "null") ? "" : node->value);
    else
        describe_value(node, &value, buf, size);
}

/* Value node of `key` in `map`, merges included: explicit keys win (the
 * last one when repeated, as PyYAML does), then later `<<` keys before
 * earlier ones, and within a merge list earlier mappings first.
 * Returns NULL when absent or on error (ctx->status set). A NULL `key`
 * matches nothing, so every merge is followed and checked. */
const omi_node *omi_yaml_lookup(omi_lookup *ctx, const omi_node *map,
                                const char *key, int depth)
{
    if (depth > OMI_MAX_MERGE_DEPTH || --ctx->budget < 0) {
        ctx->status = omi_fail(ctx->err, OM_ERR_PARSE,
                               "line %lu: merge keys (<<) nest too deeply or "
                               "repeat too often", map->line);
        return NULL;
    }
    size_t pairs = map->count / 2;
    const omi_node *found = NULL;
    ctx->budget -= (long)pairs;
    for (size_t p = 0; p < pairs; p++) {
        const omi_node *k = node_at(ctx, map->items[2 * p]);
        if (key && !omi_yaml_is_merge_key(k) && scalar_is(k, key))
            found = node_at(ctx, map->items[2 * p + 1]);
    }
    if (found)
        return found;
    for (size_t p = pairs; p-- > 0;) {
        if (!omi_yaml_is_merge_key(node_at(ctx, map->items[2 * p])))
            continue;
        const omi_node *value = node_at(ctx, map->items[2 * p + 1]);
        if (value->kind == OMI_NODE_MAPPING) {
            found = omi_yaml_lookup(ctx, value, key, depth + 1);
        } else if (value->kind == OMI_NODE_SEQUENCE) {
            for (size_t k = 0; !found && ctx->status == OM_OK && k < value->count;
                 k++) {
                const omi_node *sub = node_at(ctx, value->items[k]);
                if (sub->kind != OMI_NODE_MAPPING) {
                    char got[128];
                    describe_merged(sub, got, sizeof got);
                    ctx->status = omi_fail(
                        ctx->err, OM_ERR_PARSE,
                        "line %lu: a merge key (<<) list may only hold mappings, "
                        "got %s", sub->line, got);
                    return NULL;
                }
                found = omi_yaml_lookup(ctx, sub, key, depth + 1);
            }
        } else {
            char got[128];
            describe_merged(value, got, sizeof got);
            ctx->status = omi_fail(ctx->err, OM_ERR_PARSE,
                                   "line %lu: a merge key (<<) must refer to "
                                   "a mapping or a list of mappings, got %s",
                                   value->line, got);
            return NULL;
        }
        if (found || ctx->status != OM_OK)
            return found;
    }
    return NULL;
}

/* Resolves a scalar: untagged ones by their spelling (plain) or as
 * strings (quoted), "!" (the non-specific tag) as a string, others by their
 * explicit tag. Collections resolve as strings, i.e. "not what was asked". */
omi_yaml_value omi_yaml_node_value(const omi_node *node)
{
    omi_yaml_value string = {OMI_YAML_STRING, false, 0};
    if (node->kind != OMI_NODE_SCALAR || (node->tag && strcmp(node->tag, "!") == 0))
        return string;
    return omi_yaml_resolve(node->value, node->length, node->tag, node->plain);
}

/* Looks up `field` and checks its kind: *found is NULL when the field is
 * absent or null, else its node, resolved into *value. */
static om_status read_field(lookup_ctx *ctx, const omi_node *accel,
                            const char *field, omi_yaml_kind wanted,
                            const char *wanted_name, const omi_node **found,
                            omi_yaml_value *value)
{
    *found = NULL;
    const omi_node *node = accel ? omi_yaml_lookup(ctx, accel, field, 0) : NULL;
    if (ctx->status != OM_OK || !node)
        return ctx->status;
    *value = omi_yaml_node_value(node);
    if (node->kind == OMI_NODE_SCALAR && value->kind == OMI_YAML_NULL)
        return OM_OK;
    if (value->kind != wanted) {
        char got[128];
        describe_value(node, value, got, sizeof got);
        return omi_fail(ctx->err, OM_ERR_PARSE, "line %lu: %s must be %s, got %s",
                        node->line, field, wanted_name, got);
    }
    *found = node;
    return OM_OK;
}

/* Reads one size field. *given is false when absent or null. */
static om_status read_size(lookup_ctx *ctx, const omi_node *accel, om_dim dim,
                           int64_t *size, bool *given)
{
    const char *field = om_dim_field_name(dim);
    const omi_node *node;
    omi_yaml_value value;
    *given = false;
    om_status st = read_field(ctx, accel, field, OMI_YAML_INT, "an integer",
                              &node, &value);
    if (st != OM_OK || !node)
        return st;
    if (value.integer < 1)
        return omi_fail(ctx->err, OM_ERR_INVALID_ARGUMENT,
                        "line %lu: %s must be >= 1, got %.60s", node->line,
                        field, node->value);
    if (value.integer > OMI_MAX_INT32)
        return omi_fail(ctx->err, OM_ERR_OUT_OF_RANGE,
                        "line %lu: %s must be at most 2147483647, got %.60s",
                        node->line, field, node->value);
    *size = value.integer;
    *given = true;
    return OM_OK;
}

static om_status read_flag(lookup_ctx *ctx, const omi_node *accel, om_flag flag,
                           bool *out)
{
    const omi_node *node;
    omi_yaml_value value;
    om_status st = read_field(ctx, accel, om_flag_field_name(flag), OMI_YAML_BOOL,
                              "a boolean", &node, &value);
    if (st == OM_OK && node)
        *out = value.boolean;
    return st;
}

om_status omi_yaml_find_section(omi_lookup *ctx, const char *section,
                                const omi_node **accel)
{
    *accel = NULL;
    if (!ctx->tree->has_root)
        return OM_OK; /* empty stream */
    const omi_node *root = node_at(ctx, ctx->tree->root);
    if (root->kind != OMI_NODE_MAPPING) {
        if (omi_yaml_node_value(root).kind == OMI_YAML_NULL && root->kind == OMI_NODE_SCALAR)
            return OM_OK;
        return omi_fail(ctx->err, OM_ERR_PARSE,
                        "line %lu: the top level of the config must be a "
                        "mapping", root->line);
    }
    /* PyYAML refuses a bad merge key (<<: 5) of any mapping it builds:
     * those of the top level and of the section are checked even when
     * an explicit key makes the lookup stop before them. */
    omi_yaml_lookup(ctx, root, NULL, 0);
    ctx->budget = OMI_MERGE_BUDGET;
    const omi_node *node = ctx->status == OM_OK ? omi_yaml_lookup(ctx, root, section, 0)
                                                : NULL;
    if (ctx->status != OM_OK || !node)
        return ctx->status;
    if (node->kind == OMI_NODE_MAPPING) {
        ctx->budget = OMI_MERGE_BUDGET;
        omi_yaml_lookup(ctx, node, NULL, 0);
        *accel = ctx->status == OM_OK ? node : NULL;
        return ctx->status;
    }
    omi_yaml_value value = omi_yaml_node_value(node);
    if (node->kind == OMI_NODE_SCALAR && value.kind == OMI_YAML_NULL)
        return OM_OK;
    char got[128];
    describe_value(node, &value, got, sizeof got);
    return omi_fail(ctx->err, OM_ERR_PARSE,
                    "line %lu: %s must be a mapping, got %s",
                    node->line, section, got);
}

om_status omi_yaml_read_int(const omi_tree *tree, const char *section,
                            const char *field, int64_t *value, bool *given,
                            om_error *err)
{
    lookup_ctx ctx = {tree, OMI_MERGE_BUDGET, err, OM_OK};
    const omi_node *map, *node = NULL;
    omi_yaml_value read;
    *given = false;
    om_status st = omi_yaml_find_section(&ctx, section, &map);
    if (st == OM_OK)
        st = read_field(&ctx, map, field, OMI_YAML_INT, "an integer", &node, &read);
    if (st == OM_OK && node) {
        *value = read.integer;
        *given = true;
    }
    return st;
}

om_status omi_yaml_project(const omi_tree *tree, om_dims *dims, om_error *err)
{
    lookup_ctx ctx = {tree, OMI_MERGE_BUDGET, err, OM_OK};
    const omi_node *accel;
    om_status st = omi_yaml_find_section(&ctx, "accelerator", &accel);
    for (int i = 0; st == OM_OK && i < OM_DIM_COUNT; i++) {
        int64_t size = 1;
        bool given;
        ctx.budget = OMI_MERGE_BUDGET;
        st = read_size(&ctx, accel, (om_dim)i, &size, &given);
        if (st == OM_OK && given)
            st = om_dims_set(dims, (om_dim)i, size, err);
    }
    for (int i = 0; st == OM_OK && i < OM_FLAG_COUNT; i++) {
        bool value = false;
        ctx.budget = OMI_MERGE_BUDGET;
        st = read_flag(&ctx, accel, (om_flag)i, &value);
        if (st == OM_OK)
            st = om_dims_set_flag(dims, (om_flag)i, value, err);
    }
    return st;
}

om_status omi_yaml_parse(const char *text, size_t length,
                         om_diagnostics *diagnostics, om_dims **out,
                         om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!text)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "YAML text is NULL");
    om_status st = omi_yaml_check_length(length, err);
    if (st != OM_OK)
        return st;
    omi_tree tree;
    st = omi_yaml_compose(text, length, &tree, err);
    if (st != OM_OK)
        return st;
    om_dims *dims = NULL;
    st = om_dims_new(&dims, err);
    if (st == OM_OK)
        st = omi_yaml_project(&tree, dims, err);
    if (st == OM_OK && diagnostics)
        omi_yaml_diagnose(&tree, diagnostics);
    omi_tree_free(&tree);
    if (st != OM_OK) {
        om_dims_free(dims);
        return st;
    }
    *out = dims;
    return OM_OK;
}

om_status om_dims_parse_yaml(const char *text, size_t length, om_dims **out,
                             om_error *err)
{
    return omi_yaml_parse(text, length, NULL, out, err);
}

/* The 1.0 world-size argument: > 0 explicit, anything else "discover". */
static om_status apply_1_0(om_dims **dims, int64_t world_size, om_error *err)
{
    om_status st = om_dims_resolve_world_size(*dims, world_size > 0 ? world_size : 0,
                                              err);
    if (st != OM_OK) {
        om_dims_free(*dims);
        *dims = NULL;
    }
    return st;
}

om_status om_dims_from_yaml(const char *text, size_t length,
                            int64_t world_size, om_dims **out, om_error *err)
{
    om_status st = om_dims_parse_yaml(text, length, out, err);
    return st == OM_OK ? apply_1_0(out, world_size, err) : st;
}

om_status omi_yaml_check_length(size_t length, om_error *err)
{
    if (length <= OMU_FILE_LIMIT)
        return OM_OK;
    return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                    "YAML text of %zu bytes is larger than the %zu MiB limit",
                    length, OMU_FILE_LIMIT >> 20);
}

static om_status parse_dims(const char *text, size_t length, void *out,
                            om_error *err)
{
    return om_dims_parse_yaml(text, length, out, err);
}

om_status om_dims_read_yaml(const char *path, om_dims **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!path)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "path is NULL");
    return omu_file_parse(path, parse_dims, out, err);
}

om_status om_dims_load_yaml(const char *path, int64_t world_size,
                            om_dims **out, om_error *err)
{
    om_status st = om_dims_read_yaml(path, out, err);
    if (st == OM_OK) {
        st = apply_1_0(out, world_size, err);
        if (st != OM_OK)
            omi_prefix_path(err, st, path);
    }
    return st;
}
