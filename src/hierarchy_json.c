/* Explicit hierarchies from JSON: {"levels":[...],"ranks":[{"rank":0,
 * "host":"n0",...},...]}, read strictly (parsed by json_read.c). */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "hierarchy_internal.h"

/* Decimal text of integer ids, so every id is a label. */
typedef char omi_number_label[24];

typedef struct {
    size_t nlevels;
    size_t nranks;
    const char **labels;       /* [level * nranks + rank] */
    size_t *lens;
    omi_number_label *numbers; /* storage for integer ids */
    long *entry_of_rank;       /* which entry gave each rank, or -1 */
} json_tables;

static om_status read_levels(json_t *levels, const char ***names,
                             size_t **lens, om_error *err)
{
    if (!json_is_array(levels))
        return omi_fail(err, OM_ERR_PARSE, "hierarchy JSON \"levels\" must be an "
                        "array of level names");
    size_t n = json_array_size(levels);
    if (n == 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "hierarchy JSON \"levels\" is empty");
    *names = omi_malloc(n * sizeof **names);
    *lens = omi_malloc(n * sizeof **lens);
    if (!*names || !*lens)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading hierarchy JSON");
    for (size_t l = 0; l < n; l++) {
        json_t *name = json_array_get(levels, l);
        if (!json_is_string(name)) {
            char got[80];
            omi_json_shown(name, got, sizeof got);
            return omi_fail(err, OM_ERR_PARSE,
                            "hierarchy JSON levels[%zu] must be a string, got %s", l,
                            got);
        }
        (*names)[l] = json_string_value(name);
        (*lens)[l] = json_string_length(name);
    }
    return OM_OK;
}

static long level_of_key(const om_hierarchy *h, const char *key)
{
    for (size_t l = 0; l < h->nlevels; l++)
        if (strcmp(h->levels[l].name, key) == 0)
            return (long)l;
    return -1;
}

static om_status read_entry(const om_hierarchy *h, json_t *entry, size_t i,
                            json_tables *t, om_error *err)
{
    if (!json_is_object(entry))
        return omi_fail(err, OM_ERR_PARSE, "hierarchy JSON ranks[%zu] must be an "
                        "object", i);
    json_t *rank = json_object_get(entry, "rank");
    if (!rank)
        return omi_fail(err, OM_ERR_PARSE, "hierarchy JSON ranks[%zu] has no "
                        "\"rank\"", i);
    if (!json_is_integer(rank)) {
        char got[80];
        omi_json_shown(rank, got, sizeof got);
        return omi_fail(err, OM_ERR_PARSE, "hierarchy JSON ranks[%zu]: \"rank\" "
                        "must be an integer, got %s", i, got);
    }
    json_int_t r = json_integer_value(rank);
    if (r < 0 || (size_t)r >= t->nranks)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "hierarchy JSON ranks[%zu] is rank %lld, but %zu entries "
                        "describe ranks 0..%zu: some rank is missing", i,
                        (long long)r, t->nranks, t->nranks - 1);
    if (t->entry_of_rank[r] >= 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "rank %lld appears twice in the hierarchy JSON "
                        "(ranks[%ld] and ranks[%zu])", (long long)r,
                        t->entry_of_rank[r], i);
    t->entry_of_rank[r] = (long)i;
    const char *key;
    json_t *value;
    json_object_foreach(entry, key, value) {
        if (strcmp(key, "rank") == 0)
            continue;
        long l = level_of_key(h, key);
        if (l < 0) {
            char quoted[80];
            omi_quote(quoted, sizeof quoted, key, strlen(key));
            return omi_fail(err, OM_ERR_PARSE,
                            "hierarchy JSON ranks[%zu] names unknown level %s "
                            "(not in \"levels\")", i, quoted);
        }
        size_t slot = (size_t)l * t->nranks + (size_t)r;
        if (json_is_string(value) && json_string_length(value) == 0) {
            /* An empty id is probably a field left blank (the hostfile
             * reader refuses it too). */
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "hierarchy JSON ranks[%zu].%.40s is an empty id", i, key);
        } else if (json_is_string(value)) {
            t->labels[slot] = json_string_value(value);
            t->lens[slot] = json_string_length(value);
        } else if (json_is_integer(value)) {
            int n = snprintf(t->numbers[slot], sizeof t->numbers[slot], "%lld",
                             (long long)json_integer_value(value));
            t->labels[slot] = t->numbers[slot];
            t->lens[slot] = (size_t)n;
        } else {
            char got[80];
            omi_json_shown(value, got, sizeof got);
            return omi_fail(err, OM_ERR_PARSE,
                            "hierarchy JSON ranks[%zu].%.40s must be a string or "
                            "an integer id, got %s", i, key, got);
        }
    }
    for (size_t l = 0; l < h->nlevels; l++)
        if (!t->labels[l * t->nranks + (size_t)r])
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "hierarchy JSON ranks[%zu] (rank %lld) has no "
                            "\"%.40s\"", i, (long long)r, h->levels[l].name);
    return OM_OK;
}

static om_status build(json_t *root, void *ctx, om_error *err)
{
    om_hierarchy **out = ctx;
    if (!json_is_object(root))
        return omi_fail(err, OM_ERR_PARSE, "hierarchy JSON must be an object");
    const char *key;
    json_t *value;
    json_object_foreach(root, key, value) {
        if (strcmp(key, "levels") != 0 && strcmp(key, "ranks") != 0) {
            char quoted[80];
            omi_quote(quoted, sizeof quoted, key, strlen(key));
            return omi_fail(err, OM_ERR_PARSE, "hierarchy JSON has unknown key %s",
                            quoted);
        }
    }
    json_t *levels = json_object_get(root, "levels");
    json_t *ranks = json_object_get(root, "ranks");
    if (!levels || !ranks)
        return omi_fail(err, OM_ERR_PARSE, "hierarchy JSON lacks \"%s\"",
                        levels ? "ranks" : "levels");
    if (!json_is_array(ranks))
        return omi_fail(err, OM_ERR_PARSE, "hierarchy JSON \"ranks\" must be an array");
    size_t n = json_array_size(ranks);
    if (n == 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "hierarchy JSON \"ranks\" is empty");
    if (n > (size_t)OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE, "hierarchy JSON has more than "
                        "2147483647 ranks");
    const char **names = NULL;
    size_t *name_lens = NULL;
    om_hierarchy *h = NULL;
    json_tables t = {0};
    om_status st = read_levels(levels, &names, &name_lens, err);
    if (st == OM_OK)
        st = omi_hierarchy_alloc(json_array_size(levels), names, name_lens,
                                 (int64_t)n, &h, err);
    if (st == OM_OK) {
        t.nlevels = h->nlevels;
        t.nranks = n;
        size_t cells = t.nlevels * n;
        t.labels = omi_malloc(cells * sizeof *t.labels);
        t.lens = omi_malloc(cells * sizeof *t.lens);
        t.numbers = omi_malloc(cells * sizeof *t.numbers);
        t.entry_of_rank = omi_malloc(n * sizeof *t.entry_of_rank);
        if (!t.labels || !t.lens || !t.numbers || !t.entry_of_rank)
            st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading hierarchy JSON");
        else {
            memset(t.labels, 0, cells * sizeof *t.labels);
            for (size_t r = 0; r < n; r++)
                t.entry_of_rank[r] = -1;
        }
    }
    for (size_t i = 0; st == OM_OK && i < n; i++)
        st = read_entry(h, json_array_get(ranks, i), i, &t, err);
    for (size_t l = 0; st == OM_OK && l < t.nlevels; l++)
        st = omi_hierarchy_set_labels(h, l, t.labels + l * n, t.lens + l * n, err);
    if (st == OM_OK)
        st = omi_hierarchy_check_nesting(h, err);
    omi_free(names);
    omi_free(name_lens);
    omi_free(t.labels);
    omi_free(t.lens);
    omi_free(t.numbers);
    omi_free(t.entry_of_rank);
    if (st != OM_OK) {
        om_hierarchy_free(h);
        return st;
    }
    *out = h;
    return OM_OK;
}

om_status om_hierarchy_from_json(const char *text, size_t length,
                                 om_hierarchy **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    return omi_json_read(text, length, "hierarchy", build, out, err);
}
