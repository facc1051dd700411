/* Order advice: every runtime order of a config's parallel axes, judged
 * in a hierarchy the way Megatron lays ranks out (dense generator over
 * tp, cp, dp, pp; expert generator over tp, ep, expert dp, pp), ranked by
 * broken rules and then by crossings per level in priority order. */
#include <stdio.h>
#include <string.h>

#include "hierarchy_internal.h"
#include "topology_layout.h"

#define OMI_TOKENS 5

/* Megatron's tokens, in its default order (fastest first). */
static const char *const tokens[OMI_TOKENS] = {"tp", "cp", "ep", "dp", "pp"};
static const om_dim dims_of[OMI_TOKENS] = {OM_DIM_TP, OM_DIM_CP, OM_DIM_EP,
                                           OM_DIM_DP, OM_DIM_PP};

typedef struct {
    int64_t size[OMI_TOKENS];
    int64_t world, edp;
    size_t active[OMI_TOKENS]; /* tokens of size > 1, default order */
    size_t nactive;
    size_t priority[OMI_TOKENS]; /* active tokens, most important first */
    const om_hierarchy *h;
    const char *require, *prefer;
} advice;

typedef struct {
    size_t perm[OMI_TOKENS]; /* token indices, fastest first */
    bool legal;
    char reason[200];
    omi_buf broken;       /* lines of broken must rules */
    size_t nmust, nprefer;
    int64_t crossing[OMI_TOKENS][OMI_MAX_LEVELS_ADVICE];
} candidate;

static int token_index(const char *s, size_t len)
{
    for (int i = 0; i < OMI_TOKENS; i++)
        if (strlen(tokens[i]) == len && memcmp(tokens[i], s, len) == 0)
            return i;
    return -1;
}

/* The dense (ep left out) or expert (cp left out, dp = expert dp) mesh of
 * an order: axes reversed (slowest first), row-major. */
static om_status order_mesh(const advice *a, const size_t *perm, bool expert,
                            om_mesh **out, om_error *err)
{
    const char *names[OMI_TOKENS];
    int64_t sizes[OMI_TOKENS];
    size_t n = 0;
    for (size_t i = a->nactive; i-- > 0;) {
        size_t t = perm[i];
        if (t == (expert ? 1u : 2u))
            continue;
        names[n] = tokens[t];
        sizes[n++] = expert && t == 3 ? a->edp : a->size[t];
    }
    /* Axes of size 1 stay, outermost, so every rule can name them. */
    const char *pad[OMI_TOKENS];
    int64_t pad_sizes[OMI_TOKENS];
    size_t m = 0;
    for (size_t t = 0; t < OMI_TOKENS; t++) {
        if (t == (expert ? 1u : 2u))
            continue;
        bool present = false;
        for (size_t i = 0; i < n; i++)
            present = present || strcmp(names[i], tokens[t]) == 0;
        int64_t sz = expert && t == 3 ? a->edp : a->size[t];
        if (!present && sz == 1) {
            pad[m] = tokens[t];
            pad_sizes[m++] = 1;
        }
    }
    for (size_t i = 0; i < n; i++) {
        pad[m] = names[i];
        pad_sizes[m++] = sizes[i];
    }
    return om_mesh_new(pad, pad_sizes, m, out, err);
}

/* Checks one list of rules; each rule goes to the expert mesh when it
 * names ep, else to the dense mesh. */
typedef struct {
    const advice *a;
    om_mesh *dense, *expert;
    omi_buf *lines;
    size_t count;
} rules_ctx;

static om_status check_one(const char *item, size_t len, size_t index, void *vctx,
                           om_error *err)
{
    rules_ctx *c = vctx;
    (void)index;
    char rule[256];
    if (len == 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "a placement rule is empty");
    if (len >= sizeof rule)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "a placement rule is too long");
    memcpy(rule, item, len);
    rule[len] = '\0';
    const char *colon = strrchr(rule, ':');
    size_t axes_len = colon ? (size_t)(colon - rule) : len;
    bool ep = false, cp = false;
    for (size_t i = 0; i < axes_len;) {
        size_t j = i;
        while (j < axes_len && rule[j] != '+')
            j++;
        ep = ep || (j - i == 2 && memcmp(rule + i, "ep", 2) == 0);
        cp = cp || (j - i == 2 && memcmp(rule + i, "cp", 2) == 0);
        i = j + 1;
    }
    if (ep && cp)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "rule \"%.60s\" mixes cp and ep, which Megatron lays out "
                        "in different rank generators", rule);
    char *lines = NULL;
    size_t n = 0;
    om_status st = om_hierarchy_check(ep ? c->expert : c->dense, c->a->h, rule,
                                      &lines, &n, err);
    if (st == OM_OK && n > 0) {
        omi_buf_puts(c->lines, lines);
        c->count += n;
    }
    om_string_free(lines);
    return st;
}

static om_status judge(const advice *a, candidate *cand, om_error *err)
{
    om_mesh *dense = NULL, *expert = NULL;
    om_status st = order_mesh(a, cand->perm, false, &dense, err);
    if (st == OM_OK)
        st = order_mesh(a, cand->perm, true, &expert, err);
    rules_ctx c = {a, dense, expert, &cand->broken, 0};
    if (st == OM_OK && a->require && *a->require)
        st = omi_split(a->require, ',', check_one, &c, err);
    cand->nmust = c.count;
    /* A lost line would hide a broken rule. */
    if (st == OM_OK && cand->broken.failed)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory judging an order");
    omi_buf ignored = {0};
    rules_ctx p = {a, dense, expert, &ignored, 0};
    if (st == OM_OK && a->prefer && *a->prefer)
        st = omi_split(a->prefer, ',', check_one, &p, err);
    omi_free(ignored.data);
    cand->nprefer = p.count;
    for (size_t i = 0; st == OM_OK && i < a->nactive; i++) {
        size_t t = a->active[i];
        om_locality *loc = NULL;
        const char *axis[1] = {tokens[t]};
        st = om_hierarchy_locality(t == 2 ? expert : dense, a->h, axis, 1, &loc, err);
        for (size_t l = 0; st == OM_OK && l < a->h->nlevels; l++)
            cand->crossing[t][l] = loc->values[l][OM_LOCALITY_GROUPS_CROSSING];
        om_locality_free(loc);
    }
    om_mesh_free(dense);
    om_mesh_free(expert);
    return st;
}

/* Negative when x ranks before y. */
static int compare(const advice *a, const candidate *x, const candidate *y)
{
    if (x->nmust != y->nmust)
        return x->nmust < y->nmust ? -1 : 1;
    if (x->nprefer != y->nprefer)
        return x->nprefer < y->nprefer ? -1 : 1;
    for (size_t p = 0; p < a->nactive; p++) {
        size_t t = a->priority[p];
        /* A crossing at a slower level costs more than any at a faster. */
        for (size_t l = a->h->nlevels; l-- > 0;)
            if (x->crossing[t][l] != y->crossing[t][l])
                return x->crossing[t][l] < y->crossing[t][l] ? -1 : 1;
    }
    return 0;
}

static void put_orders(omi_buf *b, const advice *a, const size_t *perm)
{
    if (a->nactive == 0) {
        /* One rank: every order is the same job; give Megatron's default,
         * which both Megatron and --order accept ("" is neither). */
        omi_buf_puts(b, "\"megatron\":\"tp-cp-ep-dp-pp\",\"torch\":\"pp,dp,ep,cp,tp\"");
        return;
    }
    omi_buf_puts(b, "\"megatron\":\"");
    for (size_t i = 0; i < a->nactive; i++) {
        omi_buf_puts(b, i ? "-" : "");
        omi_buf_puts(b, tokens[perm[i]]);
    }
    omi_buf_puts(b, "\",\"torch\":\"");
    for (size_t i = a->nactive; i-- > 0;) {
        omi_buf_puts(b, i + 1 < a->nactive ? "," : "");
        omi_buf_puts(b, tokens[perm[i]]);
    }
    omi_buf_puts(b, "\"");
}

static void put_candidate(omi_buf *b, const advice *a, const candidate *c)
{
    omi_buf_puts(b, "{\"broken\":[");
    const char *p = c->broken.data ? c->broken.data : "";
    for (bool first = true; *p; first = false) {
        const char *eol = strchr(p, '\n');
        omi_buf_puts(b, first ? "" : ",");
        omi_buf_json_string(b, p, (size_t)(eol - p));
        p = eol + 1;
    }
    omi_buf_puts(b, "],\"crossings\":{");
    /* Keys sorted: axes, then levels, by name. */
    size_t order[OMI_TOKENS], n = a->nactive;
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        while (j > 0 && strcmp(tokens[order[j - 1]], tokens[a->active[i]]) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = a->active[i];
    }
    size_t lv[OMI_MAX_LEVELS_ADVICE];
    for (size_t i = 0; i < a->h->nlevels; i++) {
        size_t j = i;
        while (j > 0 && strcmp(a->h->levels[lv[j - 1]].name, a->h->levels[i].name) > 0) {
            lv[j] = lv[j - 1];
            j--;
        }
        lv[j] = i;
    }
    for (size_t i = 0; i < n; i++) {
        omi_buf_puts(b, i ? ",\"" : "\"");
        omi_buf_puts(b, tokens[order[i]]);
        omi_buf_puts(b, "\":{");
        for (size_t l = 0; l < a->h->nlevels; l++) {
            const char *name = a->h->levels[lv[l]].name;
            omi_buf_puts(b, l ? "," : "");
            omi_buf_json_string(b, name, strlen(name));
            omi_buf_puts(b, ":");
            omi_buf_int(b, c->crossing[order[i]][lv[l]]);
        }
        omi_buf_puts(b, "}");
    }
    omi_buf_puts(b, "},");
    put_orders(b, a, c->perm);
    omi_buf_puts(b, "}");
}

static om_status parse_priority(advice *a, const char *priority, om_error *err)
{
    size_t n = 0;
    bool used[OMI_TOKENS] = {false};
    /* Every item between '>'s counts, the last too: "tp>" is an empty item
     * as ">" is (it was dropped without a word). */
    for (const char *p = priority && *priority ? priority : NULL; p;) {
        const char *gt = strchr(p, '>');
        size_t len = gt ? (size_t)(gt - p) : strlen(p);
        int t = token_index(p, len);
        if (t < 0 || used[t])
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "priority \"%.80s\": \"%.*s\" is %s", priority,
                            (int)(len < 20 ? len : 20), p,
                            t < 0 ? "not one of tp, cp, ep, dp, pp"
                                  : "named twice");
        used[t] = true;
        for (size_t i = 0; i < a->nactive; i++)
            if (a->active[i] == (size_t)t)
                a->priority[n++] = (size_t)t;
        p = gt ? gt + 1 : NULL;
    }
    /* Axes the priority omits come after it, in Megatron's default order. */
    for (size_t i = 0; i < a->nactive; i++)
        if (!used[a->active[i]])
            a->priority[n++] = a->active[i];
    return OM_OK;
}

static om_status setup(const om_dims *dims, const om_hierarchy *h,
                       const char *require, const char *prefer,
                       const char *priority, advice *a, om_error *err)
{
    if (!dims || !h)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        dims ? "hierarchy" : "dims");
    if (h->nlevels > OMI_MAX_LEVELS_ADVICE)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "order advice takes at most %d levels, the hierarchy has %zu",
                        OMI_MAX_LEVELS_ADVICE, h->nlevels);
    memset(a, 0, sizeof *a);
    a->h = h;
    a->require = require;
    a->prefer = prefer;
    a->world = 1;
    for (size_t t = 0; t < OMI_TOKENS; t++) {
        int64_t v = om_dims_get(dims, dims_of[t]);
        a->size[t] = v < 1 ? 1 : v;
        if (t == 2)
            continue;
        /* Each size is at most 2^31-1, but their product can overflow
         * int64: refuse a world no mesh can hold, as om_mesh_from_dims()
         * does. */
        if (a->size[t] > OM_MAX_RANKS / a->world)
            return omi_fail(err, OM_ERR_MESH_TOO_LARGE,
                            "world size tp*cp*dp*pp exceeds 2^31-1 ranks at "
                            "%s_size %lld", tokens[t], (long long)a->size[t]);
        a->world *= a->size[t];
    }
    int64_t expert = a->size[0] * a->size[2] * a->size[4];
    if (a->world % expert != 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "world size %lld is not divisible by tp*ep*pp = %lld "
                        "(Megatron's expert layout)", (long long)a->world,
                        (long long)expert);
    a->edp = a->world / expert;
    /* Every axis of size > 1 in either generator is in the order. */
    for (size_t t = 0; t < OMI_TOKENS; t++)
        if (a->size[t] > 1 || (t == 3 && a->edp > 1))
            a->active[a->nactive++] = t;
    return parse_priority(a, priority, err);
}

/* The pp groups of a mesh as a layout: outside modes (group order), then
 * pp's (member order), in normal form, which is unique for an
 * enumeration. */
static om_status pp_layout(const om_mesh *mesh, omi_layout *layout, om_error *err)
{
    const char *pp = "pp";
    omi_axis_set set;
    om_status st = omi_axis_set_from_names(mesh, &pp, 1, &set, err);
    if (st != OM_OK)
        return st;
    omi_layout_build(mesh, &set, true, true, layout);
    omi_axis_set_release(&set);
    return OM_OK;
}

/* Megatron's two checks of an order (parallel_state.py): pp last unless
 * pp = 1 or the expert data-parallel size is dp's; then the dense and the
 * expert generator give the same pp groups, in the same order. */
static om_status legality(const advice *a, candidate *c, om_error *err)
{
    c->legal = true;
    bool pp_last = a->nactive == 0 || c->perm[a->nactive - 1] == 4;
    if (a->size[4] > 1 && !pp_last && a->edp != a->size[3]) {
        c->legal = false;
        snprintf(c->reason, sizeof c->reason,
                 "Megatron needs pp last (slowest) when the expert data-parallel "
                 "size (%lld) differs from dp (%lld), i.e. ep != cp",
                 (long long)a->edp, (long long)a->size[3]);
        return OM_OK;
    }
    if (a->size[4] == 1 || pp_last)
        return OM_OK; /* pp groups are the slowest axis of both: equal */
    om_mesh *dense = NULL, *expert = NULL;
    omi_layout x, y;
    om_status st = order_mesh(a, c->perm, false, &dense, err);
    if (st == OM_OK)
        st = order_mesh(a, c->perm, true, &expert, err);
    if (st == OM_OK)
        st = pp_layout(dense, &x, err);
    if (st == OM_OK)
        st = pp_layout(expert, &y, err);
    if (st == OM_OK && !omi_layout_equal(&x, &y)) {
        c->legal = false;
        snprintf(c->reason, sizeof c->reason,
                 "Megatron needs the same pp groups in the dense and the expert "
                 "layout (\"Pipeline parallel groups are expected to be the same "
                 "for Non-Expert and Expert part\"): this order gives different ones");
    }
    om_mesh_free(dense);
    om_mesh_free(expert);
    return st;
}

static bool next_permutation(size_t *v, size_t n)
{
    if (n < 2)
        return false;
    size_t i = n - 1;
    while (i > 0 && v[i - 1] >= v[i])
        i--;
    if (i == 0)
        return false;
    size_t j = n - 1;
    while (v[j] <= v[i - 1])
        j--;
    size_t t = v[i - 1];
    v[i - 1] = v[j];
    v[j] = t;
    for (size_t a = i, b = n - 1; a < b; a++, b--) {
        t = v[a];
        v[a] = v[b];
        v[b] = t;
    }
    return true;
}

om_status om_order_advice(const om_dims *dims, const om_hierarchy *h,
                          const char *require, const char *prefer,
                          const char *priority, char **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    advice a;
    om_status st = setup(dims, h, require, prefer, priority, &a, err);
    if (st != OM_OK)
        return st;
    /* At most 5! = 120 orders. */
    candidate *all = omi_malloc(120 * sizeof *all);
    if (!all)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory for order advice");
    size_t n = 0;
    size_t perm[OMI_TOKENS];
    memcpy(perm, a.active, sizeof perm);
    do {
        candidate *c = &all[n++];
        memset(c, 0, sizeof *c);
        memcpy(c->perm, perm, sizeof perm);
        st = legality(&a, c, err);
        if (st == OM_OK && c->legal)
            st = judge(&a, c, err);
    } while (st == OM_OK && next_permutation(perm, a.nactive));
    /* Stable insertion sort of the legal ones. */
    size_t rank[120], nlegal = 0;
    for (size_t i = 0; st == OM_OK && i < n; i++) {
        if (!all[i].legal)
            continue;
        size_t j = nlegal++;
        while (j > 0 && compare(&a, &all[rank[j - 1]], &all[i]) > 0) {
            rank[j] = rank[j - 1];
            j--;
        }
        rank[j] = i;
    }
    omi_buf b = {0};
    omi_buf_puts(&b, "{\"orders\":[");
    for (size_t i = 0; st == OM_OK && i < nlegal; i++) {
        omi_buf_puts(&b, i ? "," : "");
        put_candidate(&b, &a, &all[rank[i]]);
    }
    omi_buf_puts(&b, "],\"rejected\":[");
    bool first = true;
    for (size_t i = 0; st == OM_OK && i < n; i++) {
        if (all[i].legal)
            continue;
        omi_buf_puts(&b, first ? "{" : ",{");
        put_orders(&b, &a, all[i].perm);
        omi_buf_puts(&b, ",\"reason\":");
        omi_buf_json_string(&b, all[i].reason, strlen(all[i].reason));
        omi_buf_puts(&b, "}");
        first = false;
    }
    omi_buf_puts(&b, "]}");
    for (size_t i = 0; i < n; i++)
        omi_free(all[i].broken.data);
    omi_free(all);
    if (st != OM_OK) {
        omi_free(b.data);
        return st;
    }
    return omi_buf_finish(&b, out, err);
}

om_status om_order_check(const om_dims *dims, const om_hierarchy *h,
                         const char *order, const char *require, char **broken,
                         size_t *count, om_error *err)
{
    if (!broken || !count)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *broken = NULL;
    *count = 0;
    if (!order)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "order is NULL");
    advice a;
    om_status st = setup(dims, h, require, NULL, NULL, &a, err);
    if (st != OM_OK)
        return st;
    /* The order as Megatron tokens, fastest first. */
    char *normal = NULL;
    st = om_order_normalize(order, &normal, err);
    if (st != OM_OK)
        return st;
    candidate c;
    memset(&c, 0, sizeof c);
    size_t n = 0;
    const char *p = normal;
    size_t listed[OMI_TOKENS];
    size_t nlisted = 0;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        int t = token_index(p, len);
        for (size_t i = 0; t >= 0 && i < a.nactive; i++)
            if (a.active[i] == (size_t)t)
                listed[nlisted++] = (size_t)t;
        p += len + (comma ? 1 : 0);
    }
    om_string_free(normal);
    /* normalize gives slowest first; Megatron lists fastest first. */
    for (size_t i = nlisted; i-- > 0;)
        c.perm[n++] = listed[i];
    if (n != a.nactive) {
        for (size_t i = 0; i < a.nactive; i++) {
            bool seen = false;
            for (size_t j = 0; j < n; j++)
                seen = seen || c.perm[j] == a.active[i];
            if (!seen)
                return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                                "order \"%.60s\" omits %s of size %lld", order,
                                tokens[a.active[i]], (long long)a.size[a.active[i]]);
        }
    }
    st = legality(&a, &c, err);
    if (st != OM_OK)
        return st;
    omi_buf out = {0};
    omi_buf_puts(&out, "");
    size_t total = 0;
    if (!c.legal) {
        omi_buf_puts(&out, c.reason);
        omi_buf_puts(&out, "\n");
        total++;
    }
    st = judge(&a, &c, err);
    if (st == OM_OK) {
        omi_buf_puts(&out, c.broken.data ? c.broken.data : "");
        total += c.nmust;
    }
    omi_free(c.broken.data);
    if (st != OM_OK) {
        omi_free(out.data);
        return st;
    }
    st = omi_buf_finish(&out, broken, err);
    if (st == OM_OK)
        *count = total;
    return st;
}
