/* Preset parameters: "KEY=VALUE" strings read against a framework's
 * parameter table, with the closest key suggested for a misspelt one. */
#include <stdio.h>
#include <string.h>

#include "preset_internal.h"

/* Levenshtein distance of two short keys (longer keys are never close). */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 64;
    size_t row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diagonal + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diagonal = up;
        }
    }
    return row[lb];
}

/* The key a user most probably meant: the one whose usual short name was
 * typed, else the nearest by edit distance when it is close. */
static const char *suggest(const omi_preset_def *def, const char *key)
{
    const char *best = NULL;
    size_t best_distance = 0;
    for (size_t i = 0; i < def->nparams; i++) {
        const char *alias = def->params[i].alias;
        if (alias && strcmp(alias, key) == 0)
            return def->params[i].key;
        size_t d = distance(key, def->params[i].key);
        if (!best || d < best_distance) {
            best = def->params[i].key;
            best_distance = d;
        }
    }
    size_t limit = strlen(key) / 2 > 3 ? strlen(key) / 2 : 3;
    return best && best_distance <= limit ? best : NULL;
}

static om_status unknown_key(const omi_preset_def *def, const char *key,
                             om_error *err)
{
    char quoted[80];
    omi_quote(quoted, sizeof quoted, key, strlen(key));
    const char *hint = suggest(def, key);
    if (hint)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "unknown %s parameter %s; did you mean \"%s\"?",
                        def->name, quoted, hint);
    char valid[200] = "";
    for (size_t i = 0; i < def->nparams; i++) {
        size_t used = strlen(valid);
        snprintf(valid + used, sizeof valid - used, "%s%s", i ? ", " : "",
                 def->params[i].key);
    }
    return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                    "unknown %s parameter %s; valid parameters: %s", def->name,
                    quoted, valid);
}

/* Drops spaces around the text and one pair of matching quotes. */
static void trim(const char **text, size_t *len)
{
    const char *s = *text;
    size_t n = *len;
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
        s++;
        n -= 2;
    }
    *text = s;
    *len = n;
}

static bool spelled(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(s, word, len) == 0;
}

static bool is_null(const char *s, size_t len)
{
    return len == 0 || spelled(s, len, "null") || spelled(s, len, "None") ||
           spelled(s, len, "none") || spelled(s, len, "~");
}

static om_status bad_value(const char *key, const char *value, const char *what,
                           om_error *err)
{
    char quoted[80];
    omi_quote(quoted, sizeof quoted, value, strlen(value));
    return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                    "parameter %s must be %s, got %s", key, what, quoted);
}

static om_status read_int(const char *key, const char *value, const char *s,
                          size_t len, int64_t *out, om_error *err)
{
    if (!omi_parse_decimal(s, len, out))
        return bad_value(key, value, "an integer", err);
    if (*out > OMI_MAX_INT32 || *out < -OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "parameter %s = %.40s is beyond 2^31-1", key, value);
    return OM_OK;
}

typedef struct {
    const char *key;
    const char *value;
    omi_param_value *out;
} list_ctx;

static om_status list_item(const char *item, size_t len, size_t index,
                           void *ctx_ptr, om_error *err)
{
    list_ctx *ctx = ctx_ptr;
    (void)index;
    omi_param_value *out = ctx->out;
    if (len == 0 && out->list_len == 0)
        return OM_OK; /* "[]" */
    if (out->list_len == out->list_cap) {
        size_t cap = out->list_cap ? 2 * out->list_cap : 8;
        int64_t *grown = omi_realloc(out->list, cap * sizeof *grown);
        if (!grown)
            return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading parameter %s",
                            ctx->key);
        out->list = grown;
        out->list_cap = cap;
    }
    return read_int(ctx->key, ctx->value, item, len, &out->list[out->list_len++], err);
}

static om_status read_value(const omi_param_spec *spec, const char *value,
                            omi_param_value *out, om_error *err)
{
    const char *s = value;
    size_t len = strlen(value);
    trim(&s, &len);
    out->given = true;
    out->is_null = false;
    switch (spec->type) {
    case OMI_PARAM_INT_OR_NULL:
    case OMI_PARAM_INT_LIST_OR_NULL:
        if (is_null(s, len)) {
            out->is_null = true;
            return OM_OK;
        }
        if (spec->type == OMI_PARAM_INT_OR_NULL)
            return read_int(spec->key, value, s, len, &out->integer, err);
        if (len >= 2 && (s[0] == '[' || s[0] == '(') &&
            s[len - 1] == (s[0] == '[' ? ']' : ')')) {
            s++;
            len -= 2;
        }
        {
            char *items = omi_malloc(len + 1);
            if (!items)
                return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading parameter %s",
                                spec->key);
            memcpy(items, s, len);
            items[len] = '\0';
            list_ctx ctx = {spec->key, value, out};
            om_status st = omi_split(items, ',', list_item, &ctx, err);
            omi_free(items);
            return st;
        }
    case OMI_PARAM_INT:
        return read_int(spec->key, value, s, len, &out->integer, err);
    case OMI_PARAM_BOOL:
        if (spelled(s, len, "true") || spelled(s, len, "True") || spelled(s, len, "1")) {
            out->integer = 1;
            return OM_OK;
        }
        if (spelled(s, len, "false") || spelled(s, len, "False") || spelled(s, len, "0")) {
            out->integer = 0;
            return OM_OK;
        }
        return bad_value(spec->key, value, "true or false", err);
    case OMI_PARAM_STRING:
        if (len >= sizeof out->string)
            return bad_value(spec->key, value, "a short string", err);
        memcpy(out->string, s, len);
        out->string[len] = '\0';
        return OM_OK;
    }
    return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "internal: parameter type");
}

static void set_default(const omi_param_spec *spec, omi_param_value *out)
{
    memset(out, 0, sizeof *out);
    out->integer = spec->default_int;
    out->is_null = spec->type == OMI_PARAM_INT_OR_NULL ||
                   spec->type == OMI_PARAM_INT_LIST_OR_NULL;
    if (spec->default_string)
        snprintf(out->string, sizeof out->string, "%s", spec->default_string);
}

void omi_preset_free_params(omi_param_value *values, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        omi_free(values[i].list);
        values[i].list = NULL;
        values[i].list_len = values[i].list_cap = 0;
    }
}

static const omi_param_spec world_spec = {"world_size", OMI_PARAM_INT, 0, NULL, NULL};

om_status omi_preset_read_params(const omi_preset_def *def,
                                 const char *const *params, size_t nparams,
                                 int64_t *world, omi_param_value *out,
                                 om_error *err)
{
    for (size_t i = 0; i < def->nparams; i++)
        set_default(&def->params[i], &out[i]);
    omi_param_value world_value;
    set_default(&world_spec, &world_value);
    for (size_t k = 0; k < nparams; k++) {
        if (!params[k])
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "parameter %zu is NULL", k);
        const char *eq = strchr(params[k], '=');
        size_t key_len = eq ? (size_t)(eq - params[k]) : 0;
        if (key_len == 0 || key_len >= 64) {
            char quoted[80];
            omi_quote(quoted, sizeof quoted, params[k], strlen(params[k]));
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "parameter %s is not KEY=VALUE", quoted);
        }
        char key[64];
        memcpy(key, params[k], key_len);
        key[key_len] = '\0';
        const char *value = eq + 1;
        const omi_param_spec *spec = NULL;
        omi_param_value *slot = NULL;
        if (strcmp(key, world_spec.key) == 0) {
            spec = &world_spec;
            slot = &world_value;
        }
        for (size_t i = 0; !spec && i < def->nparams; i++)
            if (strcmp(key, def->params[i].key) == 0) {
                spec = &def->params[i];
                slot = &out[i];
            }
        if (!spec)
            return unknown_key(def, key, err);
        if (slot->given)
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "parameter %s given twice", spec->key);
        om_status st = read_value(spec, value, slot, err);
        if (st != OM_OK)
            return st;
    }
    if (world_value.given) {
        if (*world > 0 && *world != world_value.integer)
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "parameter world_size = %lld disagrees with the "
                            "world size %lld",
                            (long long)world_value.integer, (long long)*world);
        *world = world_value.integer;
    }
    if (*world == 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "no world size: give world_size or a positive world size");
    if (*world < 1)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "world size must be >= 1, got %lld", (long long)*world);
    return OM_OK;
}
