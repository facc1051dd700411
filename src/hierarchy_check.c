/* Placement rules "AXES:LEVEL,...": each names an axis set whose groups
 * must stay inside one domain of a level. Broken rules are reported as
 * messages naming the first offending group and rank. */
#include <stdio.h>
#include <string.h>

#include "hierarchy_internal.h"

/* One locality rule ("tp within host"): a short text of a few axis names
 * (a mesh's axes, a handful); longer ones are refused with their limit. */
#define OMI_RULE_TEXT 512
#define OMI_RULE_AXES 64

/* One parsed rule; names point into `text`. */
typedef struct {
    char text[OMI_RULE_TEXT];
    const char *axes[OMI_RULE_AXES];
    size_t naxes;
    const char *level;
} rule;

static om_status parse_rule(const char *item, size_t len, rule *r, om_error *err)
{
    char quoted[96];
    omi_quote(quoted, sizeof quoted, item, len);
    if (len == 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "a placement rule is empty");
    if (len >= OMI_RULE_TEXT)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "placement rule %s is too long",
                        quoted);
    memcpy(r->text, item, len);
    r->text[len] = '\0';
    char *colon = strrchr(r->text, ':');
    if (!colon || colon == r->text || colon[1] == '\0')
        return omi_fail(err, OM_ERR_PARSE,
                        "placement rule %s is not AXES:LEVEL (e.g. tp:host)", quoted);
    *colon = '\0';
    r->level = colon + 1;
    r->naxes = 0;
    for (char *p = r->text;;) {
        char *plus = strchr(p, '+');
        if (plus)
            *plus = '\0';
        if (*p == '\0')
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "placement rule %s has an empty axis name", quoted);
        if (r->naxes == OMI_RULE_AXES)
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "placement rule %s names too many axes", quoted);
        r->axes[r->naxes++] = p;
        if (!plus)
            return OM_OK;
        p = plus + 1;
    }
}

typedef struct {
    const om_mesh *mesh;
    const om_hierarchy *h;
    omi_buf *out;
    size_t broken;
} check_ctx;

/* "host 3" or "host \"node7\"" for messages. */
static void put_domain(omi_buf *b, const om_hierarchy *h, size_t level,
                       int64_t rank)
{
    int64_t d = -1;
    char *label = NULL;
    if (om_hierarchy_domain_of(h, level, rank, &d, NULL) == OM_OK &&
        om_hierarchy_domain_label(h, level, d, &label, NULL) == OM_OK) {
        omi_buf_puts(b, h->levels[level].name);
        omi_buf_puts(b, " ");
        omi_buf_puts(b, label);
    } else {
        b->failed = true; /* out of memory: never a message with a hole */
    }
    om_string_free(label);
}

static void put_axes(omi_buf *b, const rule *r)
{
    for (size_t i = 0; i < r->naxes; i++) {
        if (i)
            omi_buf_puts(b, "+");
        omi_buf_puts(b, r->axes[i]);
    }
}

/* The message of a broken rule, as plain text. */
static om_status describe(const check_ctx *c, const rule *r, size_t level,
                          const om_locality *loc, omi_buf *msg, om_error *err)
{
    int64_t group = loc->values[level][OM_LOCALITY_FIRST_CROSSING];
    int64_t rank = loc->values[level][OM_LOCALITY_CROSSING_RANK];
    int64_t spans = loc->values[level][OM_LOCALITY_MAX_DOMAINS];
    int32_t first[4];
    size_t n = 0;
    om_status st = omi_group_preview(c->mesh, r->axes, r->naxes, group, first, 4,
                                     &n, err);
    if (st != OM_OK)
        return st;
    put_axes(msg, r);
    omi_buf_puts(msg, ":");
    omi_buf_puts(msg, r->level);
    omi_buf_puts(msg, " broken: ");
    put_axes(msg, r);
    omi_buf_puts(msg, " group ");
    omi_buf_int(msg, group);
    omi_buf_puts(msg, " (ranks ");
    for (size_t i = 0; i < n; i++) {
        if (i)
            omi_buf_puts(msg, ", ");
        omi_buf_int(msg, first[i]);
    }
    if (om_mesh_size(c->mesh) / om_locality_groups(loc) > (int64_t)n)
        omi_buf_puts(msg, ", ...");
    omi_buf_puts(msg, ") crosses ");
    omi_buf_puts(msg, r->level);
    omi_buf_puts(msg, " domains: rank ");
    omi_buf_int(msg, rank);
    omi_buf_puts(msg, " is in ");
    put_domain(msg, c->h, level, rank);
    omi_buf_puts(msg, ", rank ");
    omi_buf_int(msg, first[0]);
    omi_buf_puts(msg, " in ");
    put_domain(msg, c->h, level, first[0]);
    omi_buf_puts(msg, " (groups span up to ");
    omi_buf_int(msg, spans);
    omi_buf_puts(msg, " domains)");
    return OM_OK;
}

static om_status check_rule(const char *item, size_t len, size_t index,
                            void *vctx, om_error *err)
{
    check_ctx *c = vctx;
    rule r;
    om_status st = parse_rule(item, len, &r, err);
    size_t level = 0;
    if (st == OM_OK)
        st = om_hierarchy_level_index(c->h, r.level, &level, err);
    om_locality *loc = NULL;
    if (st == OM_OK)
        st = om_hierarchy_locality(c->mesh, c->h, r.axes, r.naxes, &loc, err);
    int64_t crossing = 0;
    if (st == OM_OK)
        st = om_locality_get(loc, level, OM_LOCALITY_GROUPS_CROSSING, &crossing,
                             err);
    if (st == OM_OK && crossing > 0) {
        omi_buf msg = {0};
        st = describe(c, &r, level, loc, &msg, err);
        if (st == OM_OK && msg.failed)
            st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory for a message");
        if (st == OM_OK) {
            /* One line per message: names with a newline cannot split it. */
            for (size_t i = 0; i < msg.len; i++)
                if (msg.data[i] == '\n' || msg.data[i] == '\r')
                    msg.data[i] = '?';
            omi_buf_put(c->out, msg.data, msg.len);
            omi_buf_puts(c->out, "\n");
            c->broken++;
        }
        omi_free(msg.data);
    }
    om_locality_free(loc);
    (void)index;
    return st;
}

om_status om_hierarchy_check(const om_mesh *mesh, const om_hierarchy *h,
                             const char *rules, char **violations,
                             size_t *count, om_error *err)
{
    if (!violations || !count)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *violations = NULL;
    *count = 0;
    if (!mesh || !h || !rules)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        !mesh ? "mesh" : !h ? "hierarchy" : "rule list");
    omi_buf out = {0};
    omi_buf_puts(&out, "");
    if (rules[strspn(rules, " \t")] == '\0')
        return omi_buf_finish(&out, violations, err); /* no rules */
    check_ctx c = {mesh, h, &out, 0};
    om_status st = omi_split(rules, ',', check_rule, &c, err);
    if (st != OM_OK) {
        omi_free(out.data);
        return st;
    }
    st = omi_buf_finish(&out, violations, err);
    if (st == OM_OK)
        *count = c.broken;
    return st;
}
