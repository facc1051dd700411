/* The hierarchy handle: uniform specs ("host=8,nvl=72"), accessors, JSON,
 * and the tables of explicit hierarchies (filled by hierarchy_json.c and
 * hierarchy_hostfile.c). */
#include <stdio.h>
#include <string.h>

#include "hierarchy_internal.h"

void om_hierarchy_free(om_hierarchy *h)
{
    if (!h)
        return;
    for (size_t l = 0; l < h->nlevels; l++) {
        omi_level *level = &h->levels[l];
        omi_free(level->name);
        omi_free(level->domain);
        if (level->labels)
            for (int64_t d = 0; d < level->ndomains; d++)
                omi_free(level->labels[d]);
        omi_free(level->labels);
    }
    omi_free(h->levels);
    omi_free(h);
}

om_status omi_level_name_check(const char *name, size_t len, om_error *err)
{
    char quoted[96];
    omi_quote(quoted, sizeof quoted, name, len);
    if (len == 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "a level name is empty");
    if (!omi_utf8_valid(name, len))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "level name %s is not valid UTF-8", quoted);
    for (size_t i = 0; i < len; i++)
        if (name[i] == '=' || name[i] == ',' || name[i] == ':' ||
            name[i] == '+' || name[i] == '\0')
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "level name %s contains '%c'", quoted,
                            name[i] ? name[i] : '0');
        else if ((unsigned char)name[i] < 0x20 || name[i] == 0x7F)
            /* A newline or another control byte would break the one-line
             * reports that name the level (rule violations, advice). */
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "level name %s contains a control character (0x%02x)",
                            quoted, (unsigned)(unsigned char)name[i]);
    return OM_OK;
}

om_status omi_hierarchy_alloc(size_t nlevels, const char *const *names,
                              const size_t *name_lens, int64_t nranks,
                              om_hierarchy **out, om_error *err)
{
    *out = NULL;
    for (size_t l = 0; l < nlevels; l++) {
        om_status st = omi_level_name_check(names[l], name_lens[l], err);
        if (st != OM_OK)
            return st;
        for (size_t m = 0; m < l; m++)
            if (name_lens[m] == name_lens[l] &&
                memcmp(names[m], names[l], name_lens[l]) == 0) {
                char quoted[96];
                omi_quote(quoted, sizeof quoted, names[l], name_lens[l]);
                return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                                "level %s is named twice", quoted);
            }
    }
    om_hierarchy *h = omi_malloc(sizeof *h);
    omi_level *levels = omi_malloc((nlevels ? nlevels : 1) * sizeof *levels);
    if (!h || !levels) {
        omi_free(h);
        omi_free(levels);
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory for a hierarchy");
    }
    memset(levels, 0, (nlevels ? nlevels : 1) * sizeof *levels);
    h->levels = levels;
    h->nlevels = nlevels;
    h->nranks = nranks;
    for (size_t l = 0; l < nlevels; l++) {
        levels[l].name = omi_malloc(name_lens[l] + 1);
        if (!levels[l].name) {
            om_hierarchy_free(h);
            return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory for a hierarchy");
        }
        memcpy(levels[l].name, names[l], name_lens[l]);
        levels[l].name[name_lens[l]] = '\0';
    }
    *out = h;
    return OM_OK;
}

/* ---- uniform specs ---- */

/* Levels of a uniform spec ("gpu=8,host=64"): sizes strictly increase,
 * real specs have a handful; a longer one is refused naming the limit
 * (a JSON hierarchy has no such limit). */
#define OMI_MAX_LEVELS 64

typedef struct {
    size_t count;
    const char *names[OMI_MAX_LEVELS];
    size_t lens[OMI_MAX_LEVELS];
    int64_t sizes[OMI_MAX_LEVELS];
} spec_levels;

static om_status read_level(const char *item, size_t len, size_t index,
                            void *ctx, om_error *err)
{
    spec_levels *levels = ctx;
    char quoted[96];
    omi_quote(quoted, sizeof quoted, item, len);
    if (index >= OMI_MAX_LEVELS)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "a hierarchy has at most %d levels", OMI_MAX_LEVELS);
    size_t name_len;
    int64_t size;
    omi_name_size parsed = omi_parse_name_size(item, len, &name_len, &size);
    if (parsed == OMI_NAME_SIZE_NO_EQUALS)
        return omi_fail(err, OM_ERR_PARSE,
                        "hierarchy item %s is not level=ranks_per_domain", quoted);
    if (parsed == OMI_NAME_SIZE_NOT_DECIMAL)
        return omi_fail(err, OM_ERR_PARSE,
                        "hierarchy item %s: ranks per domain is not a decimal "
                        "integer", quoted);
    if (size < 1 || size > OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "hierarchy item %s: ranks per domain must be 1..2147483647",
                        quoted);
    if (index > 0 && size <= levels->sizes[index - 1]) {
        char before[96];
        omi_quote(before, sizeof before, levels->names[index - 1],
                  levels->lens[index - 1]);
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "hierarchy sizes must increase from fastest to slowest "
                        "level: %s has %lld ranks per domain, not more than %s "
                        "(%lld)", quoted, (long long)size, before,
                        (long long)levels->sizes[index - 1]);
    }
    levels->names[index] = item;
    levels->lens[index] = name_len;
    levels->sizes[index] = size;
    levels->count = index + 1;
    return OM_OK;
}

om_status om_hierarchy_from_spec(const char *spec, om_hierarchy **out,
                                 om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!spec)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "hierarchy spec is NULL");
    if (spec[strspn(spec, " \t")] == '\0')
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "hierarchy spec is empty; give levels like host=8,nvl=72");
    spec_levels levels = {0};
    om_status st = omi_split(spec, ',', read_level, &levels, err);
    if (st != OM_OK)
        return st;
    om_hierarchy *h;
    st = omi_hierarchy_alloc(levels.count, levels.names, levels.lens, 0, &h, err);
    if (st != OM_OK)
        return st;
    for (size_t l = 0; l < levels.count; l++)
        h->levels[l].ranks_per_domain = levels.sizes[l];
    *out = h;
    return OM_OK;
}

/* ---- accessors ---- */

size_t om_hierarchy_levels(const om_hierarchy *h)
{
    return h ? h->nlevels : 0;
}

const char *om_hierarchy_level_name(const om_hierarchy *h, size_t level)
{
    return h && level < h->nlevels ? h->levels[level].name : NULL;
}

int64_t om_hierarchy_ranks_per_domain(const om_hierarchy *h, size_t level)
{
    return h && level < h->nlevels ? h->levels[level].ranks_per_domain : 0;
}

int64_t om_hierarchy_ranks(const om_hierarchy *h)
{
    return h ? h->nranks : 0;
}

/* "host, nvl" for messages. */
static void level_list(const om_hierarchy *h, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t l = 0; l < h->nlevels && o + 8 < size; l++) {
        int n = snprintf(buf + o, size - o, "%s%.40s", l ? ", " : "",
                         h->levels[l].name);
        if (n < 0)
            break;
        o += (size_t)n;
    }
    if (o >= size)
        memcpy(buf + size - 4, "...", 4);
}

om_status om_hierarchy_level_index(const om_hierarchy *h, const char *name,
                                   size_t *index, om_error *err)
{
    if (!h || !name || !index)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        !h ? "hierarchy" : !name ? "level name" : "index pointer");
    for (size_t l = 0; l < h->nlevels; l++)
        if (strcmp(h->levels[l].name, name) == 0) {
            *index = l;
            return OM_OK;
        }
    char quoted[96], levels[128];
    omi_quote(quoted, sizeof quoted, name, strlen(name));
    level_list(h, levels, sizeof levels);
    return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                    "unknown level %s (levels: %s)", quoted, levels);
}

static om_status check_level(const om_hierarchy *h, size_t level, om_error *err)
{
    if (level >= h->nlevels)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "level %zu is outside the %zu levels of the hierarchy",
                        level, h->nlevels);
    return OM_OK;
}

om_status om_hierarchy_domain_of(const om_hierarchy *h, size_t level,
                                 int64_t rank, int64_t *domain, om_error *err)
{
    if (!h || !domain)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        h ? "domain pointer" : "hierarchy");
    om_status st = check_level(h, level, err);
    if (st != OM_OK)
        return st;
    const omi_level *lv = &h->levels[level];
    if (rank < 0 || rank > OMI_MAX_INT32 || (lv->domain && rank >= h->nranks))
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "rank %lld is outside the %lld ranks of the hierarchy",
                        (long long)rank,
                        (long long)(lv->domain ? h->nranks : OMI_MAX_INT32 + 1));
    *domain = lv->domain ? lv->domain[rank] : rank / lv->ranks_per_domain;
    return OM_OK;
}

om_status om_hierarchy_domain_label(const om_hierarchy *h, size_t level,
                                    int64_t domain, char **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!h)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "hierarchy is NULL");
    om_status st = check_level(h, level, err);
    if (st != OM_OK)
        return st;
    const omi_level *lv = &h->levels[level];
    int64_t limit = lv->labels ? lv->ndomains
                               : OMI_MAX_INT32 / lv->ranks_per_domain + 1;
    if (domain < 0 || domain >= limit)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "domain %lld is outside the %lld domains of level %.60s",
                        (long long)domain, (long long)limit, lv->name);
    omi_buf buf = {0};
    if (lv->labels)
        omi_buf_puts(&buf, lv->labels[domain]);
    else
        omi_buf_int(&buf, domain);
    return omi_buf_finish(&buf, out, err);
}

om_status om_hierarchy_to_json(const om_hierarchy *h, char **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!h)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "hierarchy is NULL");
    omi_buf buf = {0};
    omi_buf_put(&buf, "[", 1);
    for (size_t l = 0; l < h->nlevels; l++) {
        const omi_level *lv = &h->levels[l];
        omi_buf_puts(&buf, l ? ",{" : "{");
        if (lv->labels) {
            omi_buf_puts(&buf, "\"domains\":");
            omi_buf_int(&buf, lv->ndomains);
            omi_buf_puts(&buf, ",");
        }
        omi_buf_puts(&buf, "\"name\":");
        omi_buf_json_string(&buf, lv->name, strlen(lv->name));
        if (!lv->labels) {
            omi_buf_puts(&buf, ",\"ranks_per_domain\":");
            omi_buf_int(&buf, lv->ranks_per_domain);
        }
        omi_buf_puts(&buf, "}");
    }
    omi_buf_puts(&buf, "]");
    return omi_buf_finish(&buf, out, err);
}

/* ---- explicit tables ---- */

static uint64_t hash_label(const char *s, size_t len)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
    return h;
}

om_status omi_hierarchy_set_labels(om_hierarchy *h, size_t level,
                                   const char *const *labels,
                                   const size_t *lens, om_error *err)
{
    omi_level *lv = &h->levels[level];
    int64_t n = h->nranks;
    /* Open addressing over a power of two at least twice the ranks. */
    size_t slots = 16;
    while (slots < (size_t)n * 2)
        slots *= 2;
    int64_t *table = omi_malloc(slots * sizeof *table);
    int64_t *first_rank = omi_malloc((size_t)n * sizeof *first_rank);
    lv->domain = omi_malloc((size_t)n * sizeof *lv->domain);
    if (!table || !first_rank || !lv->domain) {
        omi_free(table);
        omi_free(first_rank);
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory for level %.60s",
                        lv->name);
    }
    for (size_t s = 0; s < slots; s++)
        table[s] = -1;
    int64_t count = 0;
    for (int64_t r = 0; r < n; r++) {
        size_t s = (size_t)hash_label(labels[r], lens[r]) & (slots - 1);
        for (;;) {
            int64_t d = table[s];
            if (d < 0) {
                table[s] = count;
                first_rank[count] = r;
                lv->domain[r] = (int32_t)count++;
                break;
            }
            int64_t f = first_rank[d];
            if (lens[f] == lens[r] && memcmp(labels[f], labels[r], lens[r]) == 0) {
                lv->domain[r] = (int32_t)d;
                break;
            }
            s = (s + 1) & (slots - 1);
        }
    }
    omi_free(table);
    lv->ndomains = count;
    lv->labels = omi_malloc((size_t)count * sizeof *lv->labels);
    om_status st = OM_OK;
    if (!lv->labels)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory for level %.60s",
                      lv->name);
    else
        memset(lv->labels, 0, (size_t)count * sizeof *lv->labels);
    for (int64_t d = 0; st == OM_OK && d < count; d++) {
        int64_t f = first_rank[d];
        lv->labels[d] = omi_malloc(lens[f] + 1);
        if (!lv->labels[d]) {
            st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory for level %.60s",
                          lv->name);
            break;
        }
        memcpy(lv->labels[d], labels[f], lens[f]);
        lv->labels[d][lens[f]] = '\0';
    }
    omi_free(first_rank);
    return st;
}

om_status omi_hierarchy_check_nesting(const om_hierarchy *h, om_error *err)
{
    for (size_t l = 0; l + 1 < h->nlevels; l++) {
        const omi_level *inner = &h->levels[l], *outer = &h->levels[l + 1];
        /* first[d]: a rank of inner domain d, to compare the others with. */
        int64_t *first = omi_malloc((size_t)inner->ndomains * sizeof *first);
        if (!first)
            return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory checking levels");
        for (int64_t d = 0; d < inner->ndomains; d++)
            first[d] = -1;
        for (int64_t r = 0; r < h->nranks; r++) {
            int32_t d = inner->domain[r];
            if (first[d] < 0) {
                first[d] = r;
                continue;
            }
            int64_t f = first[d];
            if (outer->domain[f] != outer->domain[r]) {
                char a[64], b[64], c[64];
                omi_quote(a, sizeof a, inner->labels[d], strlen(inner->labels[d]));
                omi_quote(b, sizeof b, outer->labels[outer->domain[f]],
                          strlen(outer->labels[outer->domain[f]]));
                omi_quote(c, sizeof c, outer->labels[outer->domain[r]],
                          strlen(outer->labels[outer->domain[r]]));
                omi_free(first);
                return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                                "levels do not nest: %.40s %s is in %.40s %s "
                                "(rank %lld) and in %.40s %s (rank %lld)",
                                inner->name, a, outer->name, b, (long long)f,
                                outer->name, c, (long long)r);
            }
        }
        omi_free(first);
    }
    return OM_OK;
}
