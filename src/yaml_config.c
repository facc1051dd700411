/* Projection of a training YAML's `accelerator:` mapping onto parallel
 * dims. libyaml composes the document (aliases stay references, so alias
 * bombs cost no memory); merge keys are resolved here, on lookup, with a
 * work budget so nested merges cannot explode. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <yaml.h>

#include "internal.h"
#include "yaml_scalar.h"

/* Largest config file read: far beyond any real training config. */
#define OMI_MAX_YAML_BYTES (64L * 1024 * 1024)
/* Deepest chain of merge keys, and total merge work, per lookup. */
#define OMI_MAX_MERGE_DEPTH 64
#define OMI_MERGE_BUDGET 1000000L
/* Deepest collection nesting accepted: libyaml's scanner slows down
 * quadratically with depth, and real configs nest a handful of levels. */
#define OMI_MAX_YAML_DEPTH 256
/* Most anchors plus aliases accepted (real configs use a few dozen). */
#define OMI_MAX_YAML_ANCHORS 10000

typedef struct {
    yaml_document_t *doc;
    const char *text; /* the source, to see explicit tags */
    size_t length;
    long budget;
    om_error *err;
    om_status status;
} lookup_ctx;

static unsigned long line_of(const yaml_node_t *node)
{
    return (unsigned long)node->start_mark.line + 1;
}

static bool scalar_is(const yaml_node_t *node, const char *text)
{
    size_t len = strlen(text);
    return node && node->type == YAML_SCALAR_NODE &&
           node->data.scalar.length == len &&
           memcmp(node->data.scalar.value, text, len) == 0;
}

static bool is_merge_key(const yaml_node_t *node)
{
    if (!scalar_is(node, "<<"))
        return false;
    const char *tag = (const char *)node->tag;
    return node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ||
           (tag && strcmp(tag, "tag:yaml.org,2002:merge") == 0);
}

/* Value node of `key` in `map`, merges included: explicit keys win (the
 * last one when repeated, as PyYAML does), then later `<<` keys before
 * earlier ones, and within a merge list earlier mappings first.
 * Returns NULL when absent or on error (ctx->status set). */
static yaml_node_t *lookup(lookup_ctx *ctx, yaml_node_t *map, const char *key,
                           int depth)
{
    yaml_document_t *doc = ctx->doc;
    if (depth > OMI_MAX_MERGE_DEPTH || --ctx->budget < 0) {
        ctx->status = omi_fail(ctx->err, OM_ERR_PARSE,
                               "line %lu: merge keys (<<) nest too deeply or "
                               "repeat too often", line_of(map));
        return NULL;
    }
    yaml_node_pair_t *start = map->data.mapping.pairs.start;
    yaml_node_pair_t *top = map->data.mapping.pairs.top;
    yaml_node_t *found = NULL;
    ctx->budget -= top - start;
    for (yaml_node_pair_t *pair = start; pair < top; pair++) {
        yaml_node_t *k = yaml_document_get_node(doc, pair->key);
        if (!is_merge_key(k) && scalar_is(k, key))
            found = yaml_document_get_node(doc, pair->value);
    }
    if (found)
        return found;
    for (yaml_node_pair_t *pair = top; pair-- > start;) {
        if (!is_merge_key(yaml_document_get_node(doc, pair->key)))
            continue;
        yaml_node_t *value = yaml_document_get_node(doc, pair->value);
        if (value && value->type == YAML_MAPPING_NODE) {
            found = lookup(ctx, value, key, depth + 1);
        } else if (value && value->type == YAML_SEQUENCE_NODE) {
            for (yaml_node_item_t *item = value->data.sequence.items.start;
                 !found && ctx->status == OM_OK &&
                 item < value->data.sequence.items.top;
                 item++) {
                yaml_node_t *sub = yaml_document_get_node(doc, *item);
                if (!sub || sub->type != YAML_MAPPING_NODE) {
                    ctx->status = omi_fail(
                        ctx->err, OM_ERR_PARSE,
                        "line %lu: a merge key (<<) list may only hold mappings",
                        sub ? line_of(sub) : line_of(value));
                    return NULL;
                }
                found = lookup(ctx, sub, key, depth + 1);
            }
        } else {
            ctx->status = omi_fail(ctx->err, OM_ERR_PARSE,
                                   "line %lu: a merge key (<<) must refer to "
                                   "a mapping or a list of mappings",
                                   value ? line_of(value) : line_of(map));
            return NULL;
        }
        if (found || ctx->status != OM_OK)
            return found;
    }
    return NULL;
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
static void describe(const yaml_node_t *node, const omi_yaml_value *value,
                     char *buf, size_t size)
{
    if (node->type == YAML_MAPPING_NODE) {
        snprintf(buf, size, "a mapping");
        return;
    }
    if (node->type == YAML_SEQUENCE_NODE) {
        snprintf(buf, size, "a list");
        return;
    }
    /* Strings are quoted (so "2" reads as text); numbers and booleans are
     * shown as written. */
    char shown[80];
    if (value->kind == OMI_YAML_STRING)
        omi_quote(shown, sizeof shown, (const char *)node->data.scalar.value,
                  node->data.scalar.length);
    else
        snprintf(shown, sizeof shown, "%.60s",
                 (const char *)node->data.scalar.value);
    snprintf(buf, size, "%s %s", kind_name(value->kind), shown);
}

/* True when the node's source starts with a tag ("!!str 2", "! 2", or
 * "&a !!str 2"). libyaml's composer gives an explicit !!str and an untagged
 * plain scalar the same tag text; the source tells them apart. */
/* Byte offset of character `index` of the source: libyaml's marks count
 * characters, after a UTF-8 byte order mark. SIZE_MAX when unknown. */
static size_t byte_offset(const lookup_ctx *ctx, size_t index)
{
    const unsigned char *p = (const unsigned char *)ctx->text;
    size_t i = 0;
    if (ctx->length >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) ||
                             (p[0] == 0xFE && p[1] == 0xFF)))
        return SIZE_MAX; /* UTF-16 input: marks do not map to bytes */
    if (ctx->length >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
        i = 3;
    for (size_t chars = 0; chars < index && i < ctx->length; chars++) {
        i++;
        while (i < ctx->length && (p[i] & 0xC0) == 0x80)
            i++;
    }
    return i;
}

static bool explicitly_tagged(const lookup_ctx *ctx, const yaml_node_t *node)
{
    size_t i = byte_offset(ctx, node->start_mark.index);
    if (i < ctx->length && ctx->text[i] == '&') {
        while (i < ctx->length && ctx->text[i] != ' ' && ctx->text[i] != '\t' &&
               ctx->text[i] != '\n' && ctx->text[i] != '\r')
            i++;
        while (i < ctx->length && (ctx->text[i] == ' ' || ctx->text[i] == '\t'))
            i++;
    }
    return i < ctx->length && ctx->text[i] == '!';
}

static omi_yaml_value resolve(const lookup_ctx *ctx, const yaml_node_t *node)
{
    omi_yaml_value none = {OMI_YAML_STRING, false, 0};
    if (node->type != YAML_SCALAR_NODE)
        return none;
    const char *tag = (const char *)node->tag;
    bool plain = node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    if (plain && tag && strcmp(tag, YAML_DEFAULT_SCALAR_TAG) == 0 &&
        explicitly_tagged(ctx, node))
        return none;
    return omi_yaml_resolve((const char *)node->data.scalar.value,
                            node->data.scalar.length, tag, plain);
}

/* Looks up `field` and checks its kind: *found is NULL when the field is
 * absent or null, else its node, resolved into *value. */
static om_status read_field(lookup_ctx *ctx, yaml_node_t *accel,
                            const char *field, omi_yaml_kind wanted,
                            const char *wanted_name, yaml_node_t **found,
                            omi_yaml_value *value)
{
    *found = NULL;
    yaml_node_t *node = accel ? lookup(ctx, accel, field, 0) : NULL;
    if (ctx->status != OM_OK || !node)
        return ctx->status;
    *value = resolve(ctx, node);
    if (node->type == YAML_SCALAR_NODE && value->kind == OMI_YAML_NULL)
        return OM_OK;
    if (node->type != YAML_SCALAR_NODE || value->kind != wanted) {
        char got[128];
        describe(node, value, got, sizeof got);
        return omi_fail(ctx->err, OM_ERR_PARSE, "line %lu: %s must be %s, got %s",
                        line_of(node), field, wanted_name, got);
    }
    *found = node;
    return OM_OK;
}

/* Reads one size field. *given is false when absent or null. */
static om_status read_size(lookup_ctx *ctx, yaml_node_t *accel, om_dim dim,
                           int64_t *size, bool *given)
{
    const char *field = om_dim_field_name(dim);
    yaml_node_t *node;
    omi_yaml_value value;
    *given = false;
    om_status st = read_field(ctx, accel, field, OMI_YAML_INT, "an integer",
                              &node, &value);
    if (st != OM_OK || !node)
        return st;
    if (value.integer < 1)
        return omi_fail(ctx->err, OM_ERR_INVALID_ARGUMENT,
                        "line %lu: %s must be >= 1, got %.60s", line_of(node),
                        field, (const char *)node->data.scalar.value);
    if (value.integer > OMI_MAX_INT32)
        return omi_fail(ctx->err, OM_ERR_OUT_OF_RANGE,
                        "line %lu: %s must be at most 2147483647, got %.60s",
                        line_of(node), field,
                        (const char *)node->data.scalar.value);
    *size = value.integer;
    *given = true;
    return OM_OK;
}

static om_status read_flag(lookup_ctx *ctx, yaml_node_t *accel, om_flag flag,
                           bool *out)
{
    yaml_node_t *node;
    omi_yaml_value value;
    om_status st = read_field(ctx, accel, om_flag_field_name(flag), OMI_YAML_BOOL,
                              "a boolean", &node, &value);
    if (st == OM_OK && node)
        *out = value.boolean;
    return st;
}

/* Finds the accelerator mapping (NULL when missing or null). */
static om_status find_accelerator(lookup_ctx *ctx, yaml_node_t **accel)
{
    *accel = NULL;
    yaml_node_t *root = yaml_document_get_root_node(ctx->doc);
    if (!root)
        return OM_OK; /* empty stream */
    if (root->type != YAML_MAPPING_NODE) {
        omi_yaml_value value = resolve(ctx, root);
        if (root->type == YAML_SCALAR_NODE && value.kind == OMI_YAML_NULL)
            return OM_OK;
        return omi_fail(ctx->err, OM_ERR_PARSE,
                        "line %lu: the top level of the config must be a "
                        "mapping", line_of(root));
    }
    yaml_node_t *node = lookup(ctx, root, "accelerator", 0);
    if (ctx->status != OM_OK || !node)
        return ctx->status;
    if (node->type == YAML_MAPPING_NODE) {
        *accel = node;
        return OM_OK;
    }
    omi_yaml_value value = resolve(ctx, node);
    if (node->type == YAML_SCALAR_NODE && value.kind == OMI_YAML_NULL)
        return OM_OK;
    char got[128];
    describe(node, &value, got, sizeof got);
    return omi_fail(ctx->err, OM_ERR_PARSE,
                    "line %lu: accelerator must be a mapping, got %s",
                    line_of(node), got);
}

/* Checked product of positive factors; false on overflow of int64. */
static bool multiply(int64_t a, int64_t b, int64_t *out)
{
    if (a != 0 && b > INT64_MAX / a)
        return false;
    *out = a * b;
    return true;
}

/* dp derivation and world-size consistency (DOMAIN.md, "Parallel dims"). */
static om_status apply_world_size(om_dims *dims, bool dp_given,
                                  int64_t world_size, om_error *err)
{
    bool known = world_size > 0;
    const char *source = "given";
    if (world_size > OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "world size %lld exceeds 2147483647",
                        (long long)world_size);
    if (!known) {
        om_status st = om_world_size_from_env(&world_size, &known, err);
        if (st != OM_OK)
            return st;
        source = "from the environment";
    }
    int64_t tp = om_dims_get(dims, OM_DIM_TP);
    int64_t cp = om_dims_get(dims, OM_DIM_CP);
    int64_t pp = om_dims_get(dims, OM_DIM_PP);
    int64_t tcp, model;
    bool fits = multiply(tp, cp, &tcp) && multiply(tcp, pp, &model);
    if (!dp_given) {
        if (!fits || world_size % model != 0) {
            if (!fits)
                return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                                "world size %lld is not divisible by tp*cp*pp "
                                "= %lld*%lld*%lld", (long long)world_size,
                                (long long)tp, (long long)cp, (long long)pp);
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "world size %lld is not divisible by tp*cp*pp = %lld",
                            (long long)world_size, (long long)model);
        }
        return om_dims_set(dims, OM_DIM_DP, world_size / model, err);
    }
    int64_t total;
    if (known && (!fits || !multiply(model, om_dims_get(dims, OM_DIM_DP), &total) ||
                  total != world_size)) {
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "dp*tp*cp*pp = %lld*%lld*%lld*%lld does not equal the "
                        "world size %lld (%s)",
                        (long long)om_dims_get(dims, OM_DIM_DP), (long long)tp,
                        (long long)cp, (long long)pp, (long long)world_size,
                        source);
    }
    return OM_OK;
}

static om_status project(yaml_document_t *doc, const char *text,
                         size_t length, int64_t world_size, om_dims *dims,
                         om_error *err)
{
    static const om_dim size_fields[] = {OM_DIM_DP, OM_DIM_TP, OM_DIM_CP,
                                         OM_DIM_EP, OM_DIM_PP};
    static const om_flag flag_fields[] = {OM_FLAG_SEQUENCE_PARALLEL,
                                          OM_FLAG_LOSS_PARALLEL};
    lookup_ctx ctx = {doc, text, length, OMI_MERGE_BUDGET, err, OM_OK};
    yaml_node_t *accel;
    om_status st = find_accelerator(&ctx, &accel);
    bool dp_given = false;
    for (size_t i = 0; st == OM_OK && i < 5; i++) {
        int64_t size = 1;
        bool given;
        ctx.budget = OMI_MERGE_BUDGET;
        st = read_size(&ctx, accel, size_fields[i], &size, &given);
        if (st == OM_OK && given)
            st = om_dims_set(dims, size_fields[i], size, err);
        if (size_fields[i] == OM_DIM_DP)
            dp_given = given;
    }
    for (size_t i = 0; st == OM_OK && i < 2; i++) {
        bool value = false;
        ctx.budget = OMI_MERGE_BUDGET;
        st = read_flag(&ctx, accel, flag_fields[i], &value);
        if (st == OM_OK)
            st = om_dims_set_flag(dims, flag_fields[i], value, err);
    }
    if (st == OM_OK)
        st = apply_world_size(dims, dp_given, world_size, err);
    return st;
}

static om_status yaml_failure(const yaml_parser_t *parser, om_error *err)
{
    /* libyaml's composer fails some allocations without setting an error:
     * a failure with no error recorded is a failed allocation. */
    if (parser->error == YAML_MEMORY_ERROR || parser->error == YAML_NO_ERROR)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory parsing YAML");
    const char *problem = parser->problem ? parser->problem : "malformed YAML";
    /* The reader (encoding, control characters) only knows a byte offset. */
    if (parser->error == YAML_READER_ERROR)
        return omi_fail(err, OM_ERR_PARSE, "byte %lu: %s",
                        (unsigned long)parser->problem_offset, problem);
    if (parser->context)
        return omi_fail(err, OM_ERR_PARSE, "line %lu column %lu: %s %s",
                        (unsigned long)parser->problem_mark.line + 1,
                        (unsigned long)parser->problem_mark.column + 1,
                        problem, parser->context);
    return omi_fail(err, OM_ERR_PARSE, "line %lu column %lu: %s",
                    (unsigned long)parser->problem_mark.line + 1,
                    (unsigned long)parser->problem_mark.column + 1, problem);
}

/* A quick event pass that refuses absurd nesting before the composer
 * spends quadratic time on it. Syntax errors are left to the composer, so
 * they are reported once, the same way. */
static om_status check_depth(const char *text, size_t length, om_error *err)
{
    yaml_parser_t parser;
    yaml_event_t event;
    if (!yaml_parser_initialize(&parser))
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory parsing YAML");
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, length);
    om_status st = OM_OK;
    int depth = 0;
    long anchors = 0;
    for (;;) {
        if (!yaml_parser_parse(&parser, &event)) {
            /* Syntax errors are reported by the composer, the same way. */
            if (parser.error == YAML_MEMORY_ERROR)
                st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory parsing YAML");
            break;
        }
        yaml_event_type_t type = event.type;
        unsigned long line = (unsigned long)event.start_mark.line + 1;
        /* libyaml registers and looks up anchors linearly: cap their number
         * so a hostile file cannot cost quadratic time. */
        bool anchored = type == YAML_ALIAS_EVENT ||
                        (type == YAML_SCALAR_EVENT && event.data.scalar.anchor) ||
                        (type == YAML_SEQUENCE_START_EVENT &&
                         event.data.sequence_start.anchor) ||
                        (type == YAML_MAPPING_START_EVENT &&
                         event.data.mapping_start.anchor);
        yaml_event_delete(&event);
        if (anchored && ++anchors > OMI_MAX_YAML_ANCHORS) {
            st = omi_fail(err, OM_ERR_PARSE,
                          "line %lu: more than %d YAML anchors and aliases",
                          line, OMI_MAX_YAML_ANCHORS);
            break;
        }
        if (type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT) {
            if (++depth > OMI_MAX_YAML_DEPTH) {
                st = omi_fail(err, OM_ERR_PARSE,
                              "line %lu: YAML collections nest deeper than %d "
                              "levels", line, OMI_MAX_YAML_DEPTH);
                break;
            }
        } else if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT) {
            depth--;
        } else if (type == YAML_STREAM_END_EVENT) {
            break;
        }
    }
    yaml_parser_delete(&parser);
    return st;
}

om_status om_dims_from_yaml(const char *text, size_t length,
                            int64_t world_size, om_dims **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!text)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "YAML text is NULL");
    om_status st = check_depth(text, length, err);
    if (st != OM_OK)
        return st;
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser))
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory parsing YAML");
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, length);
    if (!yaml_parser_load(&parser, &doc)) {
        st = yaml_failure(&parser, err);
        yaml_parser_delete(&parser);
        return st;
    }
    /* PyYAML's safe_load refuses a stream with a second document too. */
    yaml_document_t extra;
    if (yaml_document_get_root_node(&doc)) {
        if (!yaml_parser_load(&parser, &extra)) {
            st = yaml_failure(&parser, err);
        } else {
            yaml_node_t *root = yaml_document_get_root_node(&extra);
            if (root)
                st = omi_fail(err, OM_ERR_PARSE,
                              "line %lu: expected a single YAML document, found "
                              "another", line_of(root));
            yaml_document_delete(&extra);
        }
    }
    om_dims *dims = NULL;
    if (st == OM_OK)
        st = om_dims_new(&dims, err);
    if (st == OM_OK)
        st = project(&doc, text, length, world_size, dims, err);
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    if (st != OM_OK) {
        om_dims_free(dims);
        return st;
    }
    *out = dims;
    return OM_OK;
}

static om_status read_file(const char *path, char **text, size_t *length,
                           om_error *err)
{
    char reason[128];
    struct stat info;
    FILE *file = fopen(path, "rb");
    if (!file || fstat(fileno(file), &info) != 0) {
        int code = errno;
        if (file)
            fclose(file);
        if (code == ENOMEM)
            return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory opening the file");
        if (strerror_r(code, reason, sizeof reason) != 0)
            snprintf(reason, sizeof reason, "error %d", code);
        return omi_fail(err, OM_ERR_IO, "cannot open: %s", reason);
    }
    if (S_ISDIR(info.st_mode)) {
        fclose(file);
        return omi_fail(err, OM_ERR_IO, "is a directory, not a file");
    }
    size_t cap = 65536, len = 0;
    char *buf = omi_malloc(cap);
    om_status st = buf ? OM_OK : omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading");
    while (st == OM_OK) {
        if (len == cap) {
            if (cap >= (size_t)OMI_MAX_YAML_BYTES) {
                /* Full buffer: fine if the file ends exactly here. */
                char probe;
                if (fread(&probe, 1, 1, file) == 0 && !ferror(file))
                    break;
                st = omi_fail(err, OM_ERR_IO, "file is larger than 64 MiB");
                break;
            }
            char *bigger = omi_realloc(buf, cap * 2);
            if (!bigger) {
                st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading");
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len, file);
        len += n;
        if (n == 0) {
            if (ferror(file)) {
                int code = errno;
                if (strerror_r(code, reason, sizeof reason) != 0)
                    snprintf(reason, sizeof reason, "error %d", code);
                st = omi_fail(err, OM_ERR_IO, "cannot read: %s", reason);
            }
            break;
        }
    }
    fclose(file);
    if (st != OM_OK) {
        omi_free(buf);
        return st;
    }
    *text = buf;
    *length = len;
    return OM_OK;
}

om_status om_dims_load_yaml(const char *path, int64_t world_size,
                            om_dims **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!path)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "path is NULL");
    char *text = NULL;
    size_t length = 0;
    om_status st = read_file(path, &text, &length, err);
    if (st == OM_OK)
        st = om_dims_from_yaml(text, length, world_size, out, err);
    omi_free(text);
    if (st != OM_OK && st != OM_ERR_NO_MEMORY) {
        char quoted[96];
        omi_quote(quoted, sizeof quoted, path, strlen(path));
        /* Strip the quotes: a path reads better bare in "path: line 3: ...",
         * except the empty path, which would vanish. */
        if (path[0])
            quoted[strlen(quoted) - 1] = '\0';
        omi_prefix_error(err, path[0] ? quoted + 1 : quoted);
    }
    return st;
}
