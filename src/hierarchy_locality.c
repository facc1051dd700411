/* Per-level locality of process groups in a hierarchy.
 *
 * Uniform levels (domain = rank / k): a group's locality depends only on
 * its base rank modulo k, and an outside axis of stride t changes that
 * residue with period k / gcd(t, k). So only the groups whose outside
 * coordinates are below those periods are walked (each standing for every
 * group congruent to it, counted by a weight), and each walk goes run by
 * run: members are increasing, so the domains a run of the innermost axis
 * touches and its ranks in each are arithmetic. Memory O(ndim + levels).
 *
 * Explicit levels walk every member of every group through a per-domain
 * counter (O(domains) scratch). */
#include <stdlib.h>
#include <string.h>

#include "hierarchy_internal.h"
#include "topology_layout.h"


/* What one group does at one level. */
typedef struct {
    int64_t k;
    int64_t cur_domain, cur_count;
    int64_t domains, ppn_min, ppn_max;
    int64_t first_domain, outside_rank;
} walk;

static void walk_start(walk *w, int64_t k)
{
    *w = (walk){.k = k, .cur_domain = -1, .ppn_min = INT64_MAX,
                .first_domain = -1, .outside_rank = -1};
}

static void close_domain(walk *w)
{
    if (w->cur_count == 0)
        return;
    if (w->cur_count < w->ppn_min)
        w->ppn_min = w->cur_count;
    if (w->cur_count > w->ppn_max)
        w->ppn_max = w->cur_count;
}

/* `count` members starting at `rank` fall in domain `d` (d never
 * decreases). */
static void visit(walk *w, int64_t d, int64_t count, int64_t rank)
{
    if (d == w->cur_domain) {
        w->cur_count += count;
        return;
    }
    close_domain(w);
    if (w->domains == 0)
        w->first_domain = d;
    else if (w->outside_rank < 0)
        w->outside_rank = rank;
    w->domains++;
    w->cur_domain = d;
    w->cur_count = count;
}

/* `extra` more domains after the current one, holding cmin..cmax members
 * (both counts occur); the last, domain `last_d` with `last_count`
 * members, becomes current. */
static void visit_span(walk *w, int64_t extra, int64_t cmin, int64_t cmax,
                       int64_t last_d, int64_t last_count)
{
    if (extra <= 0)
        return;
    close_domain(w);
    w->domains += extra;
    w->cur_domain = last_d;
    w->cur_count = last_count;
    if (cmin < w->ppn_min)
        w->ppn_min = cmin;
    if (cmax > w->ppn_max)
        w->ppn_max = cmax;
}

static int64_t gcd(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return a <= 0 ? 0 : (a + b - 1) / b;
}

/* Domains d0+1 .. d1-1 fully inside a run of stride s < k with k % s = r
 * != 0. With k = q*s + r, domain d holds q + [t_d < r] members, where
 * t_d = (rb - d*k) mod s steps down by r (mod s) from one domain to the
 * next: a whole cycle (s / gcd(r, s) domains) shows both counts, a shorter
 * stretch is scanned until it has shown both. */
static void interior_mixed(walk *w, int64_t rb, int64_t s, int64_t d0,
                           int64_t d1)
{
    int64_t k = w->k, q = k / s, r = k % s;
    int64_t first = d0 + 1, count = d1 - d0 - 1;
    int64_t lo = ceil_div(first * k - rb, s);
    int64_t hi = ceil_div((first + 1) * k - rb, s);
    visit(w, first, hi - lo, rb + lo * s);
    if (count == 1)
        return;
    /* Domains first+1 .. d1-1: which of q and q+1 occur. */
    bool few = false, many = false;
    int64_t cycle = s / gcd(r, s);
    if (count - 1 >= cycle) {
        few = many = true;
    } else {
        int64_t t = ((rb - first * k) % s + s) % s;
        for (int64_t i = 1; i < count && !(few && many); i++) {
            t -= r;
            if (t < 0)
                t += s;
            many = many || t < r;
            few = few || t >= r;
        }
    }
    /* The next visit is domain d1 of the same run, so the last interior
     * domain's own count only matters through min and max. */
    visit_span(w, count - 1, few ? q : q + 1, many ? q + 1 : q, d1 - 1,
               few ? q : q + 1);
}

/* The run rb, rb+s, ..., rb+(n-1)s. */
static void walk_run(walk *w, int64_t rb, int64_t n, int64_t s)
{
    int64_t k = w->k;
    if (n == 1 || s >= k) {
        /* Each member lands in a later domain than the one before. */
        visit(w, rb / k, 1, rb);
        if (n > 1)
            visit(w, (rb + s) / k, 1, rb + s);
        if (n > 2)
            visit_span(w, n - 2, 1, 1, (rb + (n - 1) * s) / k, 1);
        return;
    }
    int64_t d0 = rb / k, d1 = (rb + (n - 1) * s) / k;
    if (d0 == d1) {
        visit(w, d0, n, rb);
        return;
    }
    int64_t c0 = ceil_div((d0 + 1) * k - rb, s);
    visit(w, d0, c0, rb);
    if (d1 - d0 > 1) {
        if (k % s == 0) {
            int64_t j = ceil_div((d0 + 1) * k - rb, s);
            visit(w, d0 + 1, k / s, rb + j * s);
            visit_span(w, d1 - d0 - 2, k / s, k / s, d1 - 1, k / s);
        } else {
            interior_mixed(w, rb, s, d0, d1);
        }
    }
    int64_t j1 = ceil_div(d1 * k - rb, s);
    visit(w, d1, n - j1, rb + j1 * s);
}

/* The group whose members are `members` from `base`, at uniform size k. */
static void walk_group(walk *w, const omi_layout *members, int64_t base)
{
    if (members->n == 0) {
        visit(w, base / w->k, 1, base);
        close_domain(w);
        return;
    }
    const omi_axis *inner = &members->ax[members->n - 1];
    size_t outer = members->n - 1;
    if (outer == 0) {
        /* One run: the common case of small groups, kept lean. */
        walk_run(w, base, inner->len, inner->stride);
        close_domain(w);
        return;
    }
    int64_t coord[OMI_MAX_LAYOUT];
    memset(coord, 0, outer * sizeof coord[0]);
    int64_t run_base = base;
    do
        walk_run(w, run_base, inner->len, inner->stride);
    while (omi_odometer_step(members->ax, outer, coord, &run_base));
    close_domain(w);
}

/* Totals of one level over all groups. */
typedef struct {
    int64_t inside, crossing, max_domains, ppn_min, ppn_max;
    int64_t worst_group, first_crossing, crossing_rank;
} level_totals;

static void totals_start(level_totals *t)
{
    *t = (level_totals){.ppn_min = INT64_MAX, .worst_group = 0,
                        .first_crossing = -1, .crossing_rank = -1};
}

static void totals_add(level_totals *t, const walk *w, int64_t group,
                       int64_t weight)
{
    if (w->domains == 1) {
        t->inside += weight;
    } else {
        t->crossing += weight;
        if (t->first_crossing < 0) {
            t->first_crossing = group;
            t->crossing_rank = w->outside_rank;
        }
    }
    if (w->domains > t->max_domains) {
        t->max_domains = w->domains;
        t->worst_group = group;
    }
    if (w->ppn_min < t->ppn_min)
        t->ppn_min = w->ppn_min;
    if (w->ppn_max > t->ppn_max)
        t->ppn_max = w->ppn_max;
}

/* Groups of one run spanning less than k ranks, when every group must be
 * looked at: each lies in one or two domains, decided by its base modulo
 * k, which the odometer keeps up to date without dividing. */
static void small_groups(const omi_layout *members, const omi_layout *bases,
                         int64_t offset, int64_t k, level_totals *t)
{
    int64_t n = members->n ? members->ax[0].len : 1;
    int64_t s = members->n ? members->ax[0].stride : 1;
    int64_t span = (n - 1) * s;
    int64_t step[OMI_MAX_LAYOUT], wrap[OMI_MAX_LAYOUT], coord[OMI_MAX_LAYOUT];
    for (size_t j = 0; j < bases->n; j++) {
        step[j] = bases->ax[j].stride % k;
        wrap[j] = (bases->ax[j].len * bases->ax[j].stride) % k;
        coord[j] = 0;
    }
    int64_t base = offset, o = offset % k, group = 0;
    int64_t inside = 0, ppn_min = n, first = -1, rank = -1;
    /* The fastest base axis runs in a tight loop; the others step as an
     * odometer once per run (a run returns o and base to their start). */
    size_t last = bases->n;
    int64_t len = last ? bases->ax[last - 1].len : 1;
    int64_t stride = last ? bases->ax[last - 1].stride : 0;
    int64_t st = last ? step[last - 1] : 0;
    for (;;) {
        int64_t r = o;
        for (int64_t c = 0; c < len; c++) {
            bool in = r + span < k;
            inside += in;
            /* A crossing group: its fewest members in one of its two
             * domains (at least 1, so stop dividing once there). */
            if (!in && (ppn_min > 1 || first < 0)) {
                int64_t below = (k - r + s - 1) / s;
                int64_t low = below < n - below ? below : n - below;
                ppn_min = low < ppn_min ? low : ppn_min;
                if (first < 0) {
                    first = group + c;
                    rank = base + c * stride + below * s;
                }
            }
            r += st;
            r -= r >= k ? k : 0;
        }
        group += len;
        size_t j = last ? last - 1 : 0;
        for (; j > 0; j--) {
            const omi_axis *ax = &bases->ax[j - 1];
            base += ax->stride;
            o += step[j - 1];
            if (o >= k)
                o -= k;
            if (++coord[j - 1] < ax->len)
                break;
            base -= ax->len * ax->stride;
            o -= wrap[j - 1];
            if (o < 0)
                o += k;
            coord[j - 1] = 0;
        }
        if (j == 0)
            break;
    }
    t->inside = inside;
    t->crossing = group - inside;
    t->max_domains = first < 0 ? 1 : 2;
    t->worst_group = first < 0 ? 0 : first;
    t->first_crossing = first;
    t->crossing_rank = rank;
    t->ppn_min = ppn_min;
    t->ppn_max = inside > 0 ? n : n - ppn_min;
}

static void uniform_level(const omi_layout *members, const omi_layout *bases,
                          int64_t offset, int64_t k, level_totals *t)
{
    /* Representatives: outside coordinate c_j < period_j. */
    int64_t reps[OMI_MAX_LAYOUT], period[OMI_MAX_LAYOUT];
    for (size_t j = 0; j < bases->n; j++) {
        int64_t g = gcd(bases->ax[j].stride % k, k);
        period[j] = k / (g ? g : k);
        reps[j] = period[j] < bases->ax[j].len ? period[j] : bases->ax[j].len;
    }
    int64_t coord[OMI_MAX_LAYOUT] = {0};
    totals_start(t);
    if (members->n == 1 && members->ax[0].stride >= k) {
        /* One run whose members are k or more apart: every member in its
         * own domain, so every group is alike; group 0 stands for all. */
        int64_t groups = 1;
        for (size_t j = 0; j < bases->n; j++)
            groups *= bases->ax[j].len;
        walk w;
        walk_start(&w, k);
        walk_group(&w, members, offset);
        totals_add(t, &w, 0, groups);
        return;
    }
    bool reduced = false;
    for (size_t j = 0; j < bases->n; j++)
        reduced = reduced || reps[j] < bases->ax[j].len;
    if (!reduced && members->n <= 1 &&
        (members->n == 0 ||
         (members->ax[0].len - 1) * members->ax[0].stride < k)) {
        small_groups(members, bases, offset, k, t);
        return;
    }
    if (!reduced) {
        /* No two groups alike modulo k: walk them all, in order. */
        int64_t base = offset, group = 0;
        do {
            walk w;
            walk_start(&w, k);
            walk_group(&w, members, base);
            totals_add(t, &w, group++, 1);
        } while (omi_odometer_step(bases->ax, bases->n, coord, &base));
        return;
    }
    for (;;) {
        int64_t base = offset, group = 0, weight = 1;
        for (size_t j = 0; j < bases->n; j++) {
            base += coord[j] * bases->ax[j].stride;
            group = group * bases->ax[j].len + coord[j];
            /* Coordinates congruent to coord[j] modulo the period. */
            weight *= (bases->ax[j].len - 1 - coord[j]) / period[j] + 1;
        }
        walk w;
        walk_start(&w, k);
        walk_group(&w, members, base);
        totals_add(t, &w, group, weight);
        size_t j = bases->n;
        while (j > 0 && ++coord[j - 1] == reps[j - 1])
            coord[--j] = 0;
        if (j == 0)
            return;
    }
}

/* Explicit level: every member of every group, counted per domain. */
static om_status explicit_level(const omi_layout *members,
                                const omi_layout *bases, int64_t offset,
                                const omi_level *lv, level_totals *t,
                                om_error *err)
{
    int64_t *counts = omi_malloc((size_t)lv->ndomains * sizeof *counts);
    int32_t *touched = omi_malloc((size_t)lv->ndomains * sizeof *touched);
    if (!counts || !touched) {
        omi_free(counts);
        omi_free(touched);
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory for level %.60s",
                        lv->name);
    }
    memset(counts, 0, (size_t)lv->ndomains * sizeof *counts);
    int64_t size = 1;
    for (size_t i = 0; i < members->n; i++)
        size *= members->ax[i].len;
    int64_t coord[OMI_MAX_LAYOUT] = {0};
    int64_t base = offset, group = 0;
    totals_start(t);
    do {
        walk w;
        walk_start(&w, 1);
        size_t ntouched = 0;
        int32_t chunk[1024];
        int32_t first = -1;
        for (int64_t e = 0; e < size; e += 1024) {
            int64_t end = size - e < 1024 ? size : e + 1024;
            omi_emit(members, base, e, end, chunk);
            for (int64_t i = 0; i < end - e; i++) {
                int32_t d = lv->domain[chunk[i]];
                if (first < 0)
                    first = d;
                else if (d != first && w.outside_rank < 0)
                    w.outside_rank = chunk[i];
                if (counts[d]++ == 0)
                    touched[ntouched++] = d;
            }
        }
        w.domains = (int64_t)ntouched;
        for (size_t i = 0; i < ntouched; i++) {
            int64_t c = counts[touched[i]];
            w.ppn_min = c < w.ppn_min ? c : w.ppn_min;
            w.ppn_max = c > w.ppn_max ? c : w.ppn_max;
            counts[touched[i]] = 0;
        }
        totals_add(t, &w, group++, 1);
    } while (omi_odometer_step(bases->ax, bases->n, coord, &base));
    omi_free(counts);
    omi_free(touched);
    return OM_OK;
}

static int compare_domains(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Views whose strides interleave, where the walks above do not apply
 * (members or groups not increasing): each group as om_mesh_groups lists
 * it, first members from `sorted` (groups out of odometer order) or the
 * odometer, its members' domains sorted. O(group size) memory. */
static om_status listed_level(const omi_layout *members, const omi_layout *bases,
                              const int64_t *sorted, int64_t offset, int64_t count,
                              const omi_level *lv, level_totals *t, om_error *err)
{
    int64_t size = 1;
    for (size_t i = 0; i < members->n; i++)
        size *= members->ax[i].len;
    int32_t *ranks = omi_malloc((size_t)size * sizeof *ranks);
    int64_t *domains = omi_malloc((size_t)size * sizeof *domains);
    if (!ranks || !domains) {
        omi_free(ranks);
        omi_free(domains);
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory for level %.60s",
                        lv->name);
    }
    int64_t coord[OMI_MAX_LAYOUT] = {0};
    int64_t base = offset;
    totals_start(t);
    for (int64_t g = 0; g < count; g++) {
        omi_emit(members, sorted ? sorted[g] : base, 0, size, ranks);
        walk w;
        walk_start(&w, 1);
        for (int64_t i = 0; i < size; i++) {
            domains[i] = lv->domain ? lv->domain[ranks[i]] : ranks[i] / lv->ranks_per_domain;
            if (w.outside_rank < 0 && domains[i] != domains[0])
                w.outside_rank = ranks[i];
        }
        qsort(domains, (size_t)size, sizeof *domains, compare_domains);
        for (int64_t i = 0, j; i < size; i = j) {
            for (j = i + 1; j < size && domains[j] == domains[i]; j++)
                continue;
            w.domains++;
            w.ppn_min = j - i < w.ppn_min ? j - i : w.ppn_min;
            w.ppn_max = j - i > w.ppn_max ? j - i : w.ppn_max;
        }
        totals_add(t, &w, g, 1);
        if (!sorted)
            omi_odometer_step(bases->ax, bases->n, coord, &base);
    }
    omi_free(ranks);
    omi_free(domains);
    return OM_OK;
}

om_status om_hierarchy_locality(const om_mesh *mesh, const om_hierarchy *h,
                                const char *const *axes, size_t naxes,
                                om_locality **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!mesh || !h)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        mesh ? "hierarchy" : "mesh");
    /* An explicit level is a table indexed by rank. A plain mesh is a
     * whole job: it must have the table's ranks. Any other view is part of
     * a rank space (a flatten's instances, a slice, strides): every rank
     * it holds must be in the table. */
    if (h->nranks > 0 && mesh->plain && h->nranks != mesh->size)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "the hierarchy describes %lld ranks but the mesh has %lld",
                        (long long)h->nranks, (long long)mesh->size);
    if (h->nranks > 0 && !mesh->plain && mesh->extent > h->nranks)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "the view holds rank %lld but the hierarchy describes "
                        "only ranks 0..%lld",
                        (long long)(mesh->extent - 1), (long long)(h->nranks - 1));
    omi_axis_set set;
    om_status st = omi_axis_set_from_names(mesh, axes, naxes, &set, err);
    if (st != OM_OK)
        return st;
    om_locality *loc = omi_malloc(sizeof *loc);
    void *values = omi_malloc(h->nlevels * sizeof *loc->values);
    if (!loc || !values) {
        omi_free(loc);
        omi_free(values);
        omi_axis_set_release(&set);
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory for a locality report");
    }
    loc->values = values;
    loc->nlevels = h->nlevels;
    int64_t size;
    omi_group_shape(mesh, &set, &loc->groups, &size);
    omi_layout members, bases;
    omi_layout_build(mesh, &set, false, true, &members);
    omi_layout_build(mesh, &set, true, false, &bases);
    omi_axis_set_release(&set);
    /* The walks take groups in odometer order and members increasing, as
     * a plain mesh has them; other views are listed group by group, with
     * their first members sorted when the odometer is out of order. */
    bool walked = mesh->plain || (omi_layout_ascending(&members) &&
                                  omi_layout_ascending(&bases));
    int64_t *sorted = NULL;
    if (!walked && !omi_layout_ascending(&bases) &&
        !(sorted = omi_group_bases(mesh, &bases, loc->groups))) {
        om_locality_free(loc);
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory ordering groups");
    }
    for (size_t l = 0; l < h->nlevels; l++) {
        level_totals t;
        totals_start(&t);
        const omi_level *lv = &h->levels[l];
        if (!walked)
            st = listed_level(&members, &bases, sorted, mesh->offset, loc->groups,
                              lv, &t, err);
        else if (lv->domain)
            st = explicit_level(&members, &bases, mesh->offset, lv, &t, err);
        else
            uniform_level(&members, &bases, mesh->offset, lv->ranks_per_domain, &t);
        if (st != OM_OK) {
            omi_free(sorted);
            om_locality_free(loc);
            return st;
        }
        int64_t *v = loc->values[l];
        v[OM_LOCALITY_GROUPS_INSIDE] = t.inside;
        v[OM_LOCALITY_GROUPS_CROSSING] = t.crossing;
        v[OM_LOCALITY_MAX_DOMAINS] = t.max_domains;
        v[OM_LOCALITY_PPN_MIN] = t.ppn_min;
        v[OM_LOCALITY_PPN_MAX] = t.ppn_max;
        v[OM_LOCALITY_WORST_GROUP] = t.worst_group;
        v[OM_LOCALITY_FIRST_CROSSING] = t.first_crossing;
        v[OM_LOCALITY_CROSSING_RANK] = t.crossing_rank;
    }
    omi_free(sorted);
    *out = loc;
    return OM_OK;
}

void om_locality_free(om_locality *loc)
{
    if (!loc)
        return;
    omi_free(loc->values);
    omi_free(loc);
}

int64_t om_locality_groups(const om_locality *loc)
{
    return loc ? loc->groups : 0;
}

size_t om_locality_levels(const om_locality *loc)
{
    return loc ? loc->nlevels : 0;
}

om_status om_locality_get(const om_locality *loc, size_t level,
                          om_locality_field field, int64_t *value, om_error *err)
{
    if (!loc || !value)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        loc ? "value pointer" : "locality report");
    if ((int)field < 0 || (int)field >= OMI_LOCALITY_FIELDS)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "unknown locality field %d",
                        (int)field);
    if (level >= loc->nlevels)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "level %zu is outside the %zu levels of the report", level,
                        loc->nlevels);
    *value = loc->values[level][field];
    return OM_OK;
}

om_status omi_group_preview(const om_mesh *mesh, const char *const *axes,
                            size_t naxes, int64_t group, int32_t *out,
                            size_t max, size_t *written, om_error *err)
{
    omi_axis_set set;
    om_status st = omi_axis_set_from_names(mesh, axes, naxes, &set, err);
    if (st != OM_OK)
        return st;
    omi_layout members, bases;
    omi_layout_build(mesh, &set, false, true, &members);
    omi_layout_build(mesh, &set, true, false, &bases);
    int64_t count, size;
    omi_group_shape(mesh, &set, &count, &size);
    omi_axis_set_release(&set);
    /* The group's first member: its index read row-major over the bases,
     * or (strides out of order) its place among the sorted first members,
     * as om_mesh_groups lists them. */
    int64_t base = mesh->offset, rest = group;
    if (mesh->plain || omi_layout_ascending(&bases)) {
        for (size_t j = bases.n; j-- > 0;) {
            base += (rest % bases.ax[j].len) * bases.ax[j].stride;
            rest /= bases.ax[j].len;
        }
    } else {
        int64_t *sorted = omi_group_bases(mesh, &bases, count);
        if (!sorted)
            return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory ordering groups");
        base = sorted[group];
        omi_free(sorted);
    }
    int64_t n = size < (int64_t)max ? size : (int64_t)max;
    omi_emit(&members, base, 0, n, out);
    *written = (size_t)n;
    return OM_OK;
}
