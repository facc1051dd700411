/* A world: one rank space and its named views (world.h), the consistency
 * rule checked on construction, lookups, slicing by axis names and JSON. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "internal.h"
#include "topology_layout.h"
#include "yaml_tree.h"

struct om_world {
    int64_t size;
    size_t nviews;
    char **names;
    om_mesh **views;
    /* Over OMI_NAME_INDEX_MIN views (NULL for the usual handful): the views
     * in name order, and every axis of every view (entry e: axis_names[e],
     * of view axis_view[e], entries in view order) in axis-name order, so
     * lookups and the shared-axis rule cost no O(views^2). */
    size_t *by_name;
    size_t naxes;
    const char **axis_names;
    size_t *axis_lens;
    size_t *axis_view;
    size_t *by_axis;
};

void om_world_free(om_world *world)
{
    if (!world)
        return;
    for (size_t i = 0; i < world->nviews; i++) {
        omi_free(world->names[i]);
        om_mesh_free(world->views[i]);
    }
    omi_free(world->names);
    omi_free(world->views);
    omi_free(world->by_name);
    omi_free((void *)world->axis_names);
    omi_free(world->axis_lens);
    omi_free(world->axis_view);
    omi_free(world->by_axis);
    omi_free(world);
}

/* Builds the indexes of a world of many views. */
static om_status index_world(om_world *w, om_error *err)
{
    if (w->nviews <= OMI_NAME_INDEX_MIN)
        return OM_OK;
    size_t n = 0;
    for (size_t i = 0; i < w->nviews; i++)
        n += w->views[i]->ndim;
    w->naxes = n;
    w->by_name = omi_malloc(w->nviews * sizeof *w->by_name);
    w->axis_names = omi_malloc((n + 1) * sizeof *w->axis_names);
    w->axis_lens = omi_malloc((n + 1) * sizeof *w->axis_lens);
    w->axis_view = omi_malloc((n + 1) * sizeof *w->axis_view);
    w->by_axis = omi_malloc((n + 1) * sizeof *w->by_axis);
    if (!w->by_name || !w->axis_names || !w->axis_lens || !w->axis_view ||
        !w->by_axis)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating a world");
    for (size_t i = 0, e = 0; i < w->nviews; i++)
        for (size_t a = 0; a < w->views[i]->ndim; a++, e++) {
            w->axis_names[e] = w->views[i]->names[a];
            w->axis_lens[e] = w->views[i]->name_lens[a];
            w->axis_view[e] = i;
        }
    if (!omi_names_sort((const char *const *)w->names, NULL, w->nviews, w->by_name) ||
        !omi_names_sort(w->axis_names, w->axis_lens, n, w->by_axis))
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating a world");
    return OM_OK;
}

/* "[1, 3]", shortened with "..." for long groups. */
static void format_group(char *buf, size_t size, const int32_t *m, int64_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int64_t i = 0; i < n && o + 16 < size; i++)
        o += (size_t)snprintf(buf + o, size - o, "%s%d", i ? ", " : "[", m[i]);
    if (n > 0 && o + 16 >= size && o + 8 < size)
        o += (size_t)snprintf(buf + o, size - o, ", ...");
    /* snprintf returns what it would write: never step past the end. */
    if (o + 3 > size)
        o = size - 3;
    snprintf(buf + o, size - o, "%s", n > 0 ? "]" : "[]");
}

/* Group of `rank` over axis `axis` of `v` as text, or "no group". */
static void describe(const om_mesh *v, size_t axis, int64_t rank, char *buf,
                     size_t size)
{
    int64_t digits[OMI_MAX_DIGITS];
    if (!omi_view_decode(v, rank, digits)) {
        snprintf(buf, size, "no group");
        return;
    }
    int32_t members[256];
    int64_t gsize = v->sizes[axis];
    omi_axis_set set;
    if (gsize > 256 || omi_axis_set_range(v, axis, 1, &set, NULL) != OM_OK) {
        /* Messages only: rather than allocate, name the group's size. */
        snprintf(buf, size, "a group of %lld ranks", (long long)gsize);
        return;
    }
    omi_group_members(v, &set, rank, members);
    omi_axis_set_release(&set);
    format_group(buf, size, members, gsize);
}

/* First rank of the group of `rank` over `axis` and rank's place in it;
 * false when the view does not hold the rank. */
static bool place(const om_mesh *v, size_t axis, int64_t rank, int64_t *base,
                  int64_t *pos)
{
    int64_t digits[OMI_MAX_DIGITS];
    if (!omi_view_decode(v, rank, digits))
        return false;
    *base = rank;
    *pos = 0;
    for (size_t j = 0; j < v->ndigits; j++)
        if (v->digits[j].axis == axis) {
            *base -= digits[j] * v->digits[j].stride;
            *pos += digits[j] * v->digits[j].weight;
        }
    return true;
}

/* The layouts of axis `ia` of `a` and `ib` of `b`: the modes outside it
 * (`outside`, which give the groups' first members) or its own (the
 * members' pattern). */
static om_status axis_layouts(const om_mesh *a, size_t ia, const om_mesh *b, size_t ib,
                              bool outside, omi_layout *la, omi_layout *lb, om_error *err)
{
    omi_axis_set sa, sb;
    om_status st = omi_axis_set_range(a, ia, 1, &sa, err);
    if (st != OM_OK)
        return st;
    if ((st = omi_axis_set_range(b, ib, 1, &sb, err)) != OM_OK) {
        omi_axis_set_release(&sa);
        return st;
    }
    omi_layout_build(a, &sa, outside, !outside, la);
    omi_layout_build(b, &sb, outside, !outside, lb);
    omi_axis_set_release(&sa);
    omi_axis_set_release(&sb);
    return OM_OK;
}

/* Same modes and same first members: the groups are equal without
 * looking at ranks. */
static bool same_layout(const om_mesh *a, size_t ia, const om_mesh *b, size_t ib)
{
    size_t na = a->mode_first[ia + 1] - a->mode_first[ia];
    size_t nb = b->mode_first[ib + 1] - b->mode_first[ib];
    if (na != nb || a->offset != b->offset ||
        (na && memcmp(a->modes + a->mode_first[ia], b->modes + b->mode_first[ib],
                      na * sizeof *a->modes) != 0))
        return false;
    omi_layout la, lb;
    return axis_layouts(a, ia, b, ib, true, &la, &lb, NULL) == OM_OK &&
           omi_layout_equal(&la, &lb);
}

/* True when the groups over axis `ia` of `a` and `ib` of `b` list their
 * members in the same pattern (the same enumeration from their first
 * member: the normal forms of their layouts are equal). */
static om_status same_members(const om_mesh *a, size_t ia, const om_mesh *b, size_t ib,
                              bool *same, om_error *err)
{
    omi_layout la, lb;
    om_status st = axis_layouts(a, ia, b, ib, false, &la, &lb, err);
    *same = st == OM_OK && omi_layout_equal(&la, &lb);
    return st;
}

static om_status check_pair(const om_world *w, size_t x, size_t ia, size_t y,
                            size_t ib, om_error *err)
{
    const om_mesh *a = w->views[x], *b = w->views[y];
    if (same_layout(a, ia, b, ib))
        return OM_OK;
    /* A group is its first member plus the view's member pattern. With
     * two patterns every rank held has two different groups: the first is
     * the smaller offset (a view's smallest rank). With one, a rank's
     * groups differ exactly when their first members do (or one view
     * lacks it): one pass of decodes up to it, no group written (writing
     * both groups of every rank cost O(world x group) time and memory). */
    bool same = false;
    om_status st = same_members(a, ia, b, ib, &same, err);
    if (st != OM_OK)
        return st;
    int64_t first = same ? -1 : (a->offset < b->offset ? a->offset : b->offset);
    for (int64_t r = 0; same && first < 0 && r < w->size; r++) {
        int64_t base_a = 0, pos_a = 0, base_b = 0, pos_b = 0;
        bool in_a = place(a, ia, r, &base_a, &pos_a);
        bool in_b = place(b, ib, r, &base_b, &pos_b);
        if (in_a != in_b || (in_a && base_a != base_b))
            first = r;
    }
    if (first < 0)
        return OM_OK;
    char gta[96], gtb[96], va[80], vb[80], axis[80];
    describe(a, ia, first, gta, sizeof gta);
    describe(b, ib, first, gtb, sizeof gtb);
    omi_squote(va, sizeof va, w->names[x], strlen(w->names[x]));
    omi_squote(vb, sizeof vb, w->names[y], strlen(w->names[y]));
    omi_squote(axis, sizeof axis, a->names[ia], a->name_lens[ia]);
    return omi_fail(err, OM_ERR_VIEW_CONFLICT,
                    "views %s and %s disagree on axis %s: rank %lld is in %s in "
                    "%s and in %s in %s", va, vb, axis, (long long)first, gta, va,
                    gtb, vb);
}

/* A broken rule: without `report` the error of the call; with it, one
 * report and the checks go on. */
static om_status broken(omi_conflict_fn report, void *ctx, om_status st,
                        const om_error *found, om_error *err)
{
    if (!report) {
        if (err)
            *err = *found;
        return st;
    }
    report(ctx, found->message);
    return OM_OK;
}

/* Checks axis `ia` of view x against axis ib of view y: a conflict is
 * reported (or returned), any other failure returned. */
static om_status check_shared_pair(const om_world *w, size_t x, size_t ia,
                                   size_t y, omi_conflict_fn report, void *ctx,
                                   om_error *err)
{
    om_error found;
    const om_mesh *a = w->views[x];
    int ib = omi_mesh_find(w->views[y], a->names[ia], a->name_lens[ia]);
    om_status st = check_pair(w, x, ia, y, (size_t)ib, &found);
    if (st == OM_ERR_VIEW_CONFLICT)
        return broken(report, ctx, st, &found, err);
    if (st != OM_OK && err)
        *err = found;
    return st;
}

/* Every axis name shared by two views: same groups, pair by pair. */
static om_status check_shared(const om_world *w, omi_conflict_fn report,
                              void *ctx, om_error *err)
{
    om_status st = OM_OK;
    for (size_t x = 0; x < w->nviews && st == OM_OK; x++)
        for (size_t ia = 0; ia < w->views[x]->ndim && st == OM_OK; ia++)
            for (size_t y = x + 1; y < w->nviews && st == OM_OK; y++)
                if (omi_mesh_find(w->views[y], w->views[x]->names[ia],
                                  w->views[x]->name_lens[ia]) >= 0)
                    st = check_shared_pair(w, x, ia, y, report, ctx, err);
    return st;
}

/* check_shared() for many views, with the same findings in the same order.
 * Equal groups are an equivalence, so each holder of a name is compared
 * with its first holder once; then only pairs with a holder that disagrees
 * need comparing (10^5 views sharing "tp": 10^5 comparisons, not 10^10). */
static om_status check_shared_indexed(const om_world *w, omi_conflict_fn report,
                                      void *ctx, om_error *err)
{
    size_t n = w->naxes;
    bool *agrees = omi_malloc(n + 1);
    size_t *place = omi_malloc((n + 1) * sizeof *place); /* entry -> place */
    size_t *next_odd = omi_malloc((n + 1) * sizeof *next_odd);
    size_t *run_end = omi_malloc((n + 1) * sizeof *run_end);
    om_status st = OM_OK;
    if (!agrees || !place || !next_odd || !run_end)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory checking a world");
    om_error found;
    for (size_t p = 0; st == OM_OK && p < n;) {
        /* One run of a name: places p..end, holders in view order. */
        size_t e0 = w->by_axis[p], end = p + 1;
        while (omi_names_equal_at(w->axis_names, w->axis_lens, w->by_axis, n,
                                  end, w->axis_names[e0], w->axis_lens[e0]))
            end++;
        const om_mesh *a = w->views[w->axis_view[e0]];
        size_t ia = (size_t)omi_mesh_find(a, w->axis_names[e0], w->axis_lens[e0]);
        for (size_t q = p; st == OM_OK && q < end; q++) {
            size_t e = w->by_axis[q], y = w->axis_view[e];
            place[e] = q;
            run_end[q] = end;
            agrees[e] = q == p;
            if (q > p) {
                int ib = omi_mesh_find(w->views[y], w->axis_names[e], w->axis_lens[e]);
                st = check_pair(w, w->axis_view[e0], ia, y, (size_t)ib, &found);
                agrees[e] = st == OM_OK;
                if (st == OM_ERR_VIEW_CONFLICT)
                    st = OM_OK; /* reported below, in check_shared's order */
                else if (st != OM_OK && err)
                    *err = found;
            }
        }
        for (size_t q = end, odd = end; q-- > p;) {
            next_odd[q] = odd;
            if (!agrees[w->by_axis[q]])
                odd = q;
        }
        p = end;
    }
    for (size_t x = 0, e = 0; st == OM_OK && x < w->nviews; x++)
        for (size_t ia = 0; ia < w->views[x]->ndim && st == OM_OK; ia++, e++) {
            size_t q = place[e], end = run_end[q];
            /* After an agreeing holder only disagreeing ones conflict. */
            for (q = agrees[e] ? next_odd[q] : q + 1; st == OM_OK && q < end;
                 q = agrees[e] ? next_odd[q] : q + 1)
                st = check_shared_pair(w, x, ia, w->axis_view[w->by_axis[q]],
                                       report, ctx, err);
        }
    omi_free(agrees);
    omi_free(place);
    omi_free(next_odd);
    omi_free(run_end);
    return st;
}

static om_status check_views(const om_world *w, omi_conflict_fn report, void *ctx,
                             om_error *err)
{
    char quoted[96];
    om_error found;
    for (size_t x = 0; x < w->nviews; x++) {
        const om_mesh *v = w->views[x];
        omi_squote(quoted, sizeof quoted, w->names[x], strlen(w->names[x]));
        if (v->extent <= w->size)
            continue;
        om_status st = omi_fail(&found, OM_ERR_OUTSIDE_WORLD,
                                "view %s reaches rank %lld, world size is %lld",
                                quoted, (long long)(v->extent - 1),
                                (long long)w->size);
        if ((st = broken(report, ctx, st, &found, err)) != OM_OK)
            return st;
    }
    return w->by_axis ? check_shared_indexed(w, report, ctx, err)
                      : check_shared(w, report, ctx, err);
}

/* The names' own errors, or the first repeat before the first of them
 * (the order a pairwise scan finds them in). */
static om_status check_names(const char *const *names, size_t n, om_error *err)
{
    om_error invalid;
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++) {
        char quoted[96];
        size_t len = names[i] ? strlen(names[i]) : 0;
        if (names[i])
            omi_squote(quoted, sizeof quoted, names[i], len);
        if (!names[i])
            omi_fail(&invalid, OM_ERR_INVALID_NAME, "view %zu name is NULL", i);
        else if (len == 0)
            omi_fail(&invalid, OM_ERR_EMPTY_NAME, "view %zu has an empty name", i);
        else if (!omi_utf8_valid(names[i], len))
            omi_fail(&invalid, OM_ERR_INVALID_NAME,
                     "view name %s is not valid UTF-8", quoted);
        else
            continue;
        bad = i;
    }
    size_t first, repeat;
    om_status st = omi_names_first_repeat(names, NULL, bad, &first, &repeat, err);
    if (st == OM_OK && repeat < bad) {
        char quoted[96];
        omi_squote(quoted, sizeof quoted, names[repeat], strlen(names[repeat]));
        return omi_fail(err, OM_ERR_DUPLICATE_NAME, "duplicate view name %s", quoted);
    }
    if (st == OM_OK && bad < n) {
        if (err)
            *err = invalid;
        return invalid.status;
    }
    return st;
}

/* om_world_new(); with `report`, every broken consistency rule is
 * reported and the world is built anyway. */
static om_status world_new(int64_t world_size, const char *const *view_names,
                           size_t nnames, const om_mesh *const *views,
                           size_t nviews, omi_conflict_fn report, void *ctx,
                           om_world **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (nviews > 0 && (!view_names || !views))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s array is NULL",
                        view_names ? "views" : "view names");
    if (nnames != nviews)
        return omi_fail(err, OM_ERR_LENGTH_MISMATCH,
                        "%zu view names but %zu views", nnames, nviews);
    if (world_size < 1 || world_size > OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "world size %lld is outside 1..2^31-1",
                        (long long)world_size);
    for (size_t i = 0; i < nviews; i++)
        if (!views[i])
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "view %zu is NULL", i);
    om_status st = check_names(view_names, nviews, err);
    if (st != OM_OK)
        return st;
    om_world *w = omi_malloc(sizeof *w);
    if (!w)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating a world");
    memset(w, 0, sizeof *w);
    w->size = world_size;
    w->names = omi_malloc((nviews + 1) * sizeof *w->names);
    w->views = omi_malloc((nviews + 1) * sizeof *w->views);
    if (!w->names || !w->views)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating a world");
    for (size_t i = 0; st == OM_OK && i < nviews; i++) {
        size_t len = strlen(view_names[i]);
        w->names[i] = omi_malloc(len + 1);
        if (!w->names[i]) {
            st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating a world");
            break;
        }
        memcpy(w->names[i], view_names[i], len + 1);
        st = omi_mesh_copy(views[i], &w->views[i], err);
        if (st != OM_OK) {
            omi_free(w->names[i]);
            break;
        }
        w->nviews++;
    }
    if (st == OM_OK)
        st = index_world(w, err);
    if (st == OM_OK)
        st = check_views(w, report, ctx, err);
    if (st != OM_OK) {
        om_world_free(w);
        return st;
    }
    *out = w;
    return OM_OK;
}

om_status om_world_new(int64_t world_size, const char *const *view_names,
                       size_t nnames, const om_mesh *const *views,
                       size_t nviews, om_world **out, om_error *err)
{
    return world_new(world_size, view_names, nnames, views, nviews, NULL, NULL,
                     out, err);
}

om_status omi_world_conflicts(int64_t world_size, const char *const *view_names,
                              const om_mesh *const *views, size_t nviews,
                              omi_conflict_fn report, void *ctx, om_error *err)
{
    om_world *w = NULL;
    om_status st = world_new(world_size, view_names, nviews, views, nviews, report,
                             ctx, &w, err);
    om_world_free(w);
    return st;
}

int64_t om_world_size(const om_world *world) { return world ? world->size : 0; }

size_t om_world_view_count(const om_world *world)
{
    return world ? world->nviews : 0;
}

const char *om_world_view_name(const om_world *world, size_t index)
{
    return world && index < world->nviews ? world->names[index] : NULL;
}

int om_world_view_index(const om_world *world, const char *name)
{
    if (!world || !name)
        return -1;
    const char *const *names = (const char *const *)world->names;
    size_t len = strlen(name);
    if (world->by_name) {
        size_t p = omi_names_find(names, NULL, world->by_name, world->nviews, name, len);
        return p < world->nviews ? (int)world->by_name[p] : -1;
    }
    for (size_t i = 0; i < world->nviews; i++)
        if (strcmp(names[i], name) == 0)
            return (int)i;
    return -1;
}

/* Writes "dense, sparse" (shortened) for messages. */
static void view_list(const om_world *w, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < w->nviews && o + 8 < size; i++) {
        int n = snprintf(buf + o, size - o, "%s%.40s", i ? ", " : "", w->names[i]);
        if (n < 0)
            break;
        o += (size_t)n;
    }
    if (o >= size)
        memcpy(buf + size - 4, "...", 4);
}

om_status om_world_view(const om_world *world, const char *name, om_mesh **out,
                        om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!world || !name)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        world ? "view name" : "world");
    int i = om_world_view_index(world, name);
    if (i < 0) {
        char quoted[96], list[160];
        omi_squote(quoted, sizeof quoted, name, strlen(name));
        view_list(world, list, sizeof list);
        return omi_fail(err, OM_ERR_UNKNOWN_VIEW, "no view %s in the world (%s)",
                        quoted, list);
    }
    return omi_mesh_copy(world->views[i], out, err);
}

/* Index of the first view with axis `axis`, or -1. */
static int axis_owner(const om_world *w, const char *axis)
{
    size_t len = strlen(axis);
    if (w->by_axis) {
        /* Entries of one name are in view order: the first is the owner. */
        size_t p = omi_names_find(w->axis_names, w->axis_lens, w->by_axis, w->naxes,
                                  axis, len);
        return p < w->naxes ? (int)w->axis_view[w->by_axis[p]] : -1;
    }
    for (size_t i = 0; i < w->nviews; i++)
        if (omi_mesh_find(w->views[i], axis, len) >= 0)
            return (int)i;
    return -1;
}

/* The entries of axis name `axis` (known to the index): by_axis[*lo ..
 * *hi), in view order. */
static void axis_run(const om_world *w, const char *axis, size_t *lo, size_t *hi)
{
    size_t len = strlen(axis);
    *lo = omi_names_find(w->axis_names, w->axis_lens, w->by_axis, w->naxes, axis, len);
    size_t a = *lo, b = w->naxes; /* equal names are one run: bisect its end */
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (omi_names_equal_at(w->axis_names, w->axis_lens, w->by_axis, w->naxes, mid,
                               axis, len))
            a = mid + 1;
        else
            b = mid;
    }
    *hi = a;
}

/* The first view >= `view` among the entries by_axis[lo .. hi) (*next),
 * false when none. */
static bool run_from(const om_world *w, size_t lo, size_t hi, size_t view, size_t *next)
{
    size_t end = hi;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->axis_view[w->by_axis[mid]] < view)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == end)
        return false;
    *next = w->axis_view[w->by_axis[lo]];
    return true;
}

/* Index of the first view holding every name of `axes` (each held by
 * some view), or -1. Indexed: leapfrog over the names' runs of entries
 * (each in view order) to the first view in all of them, O(k log n) per
 * view skipped to, not a pass over every view. */
static int common_owner(const om_world *w, const char *const *axes, size_t naxes)
{
    if (!w->by_axis) {
        for (size_t i = 0; i < w->nviews; i++) {
            size_t k = 0;
            while (k < naxes && omi_mesh_find(w->views[i], axes[k], strlen(axes[k])) >= 0)
                k++;
            if (k == naxes)
                return (int)i;
        }
        return -1;
    }
    size_t candidate = 0;
    for (bool moved = true; moved;) {
        moved = false;
        for (size_t k = 0; k < naxes; k++) {
            size_t lo, hi, next;
            axis_run(w, axes[k], &lo, &hi);
            if (!run_from(w, lo, hi, candidate, &next))
                return -1;
            moved = moved || next != candidate;
            candidate = next;
        }
    }
    return (int)candidate;
}

const char *om_world_axis_view(const om_world *world, const char *axis)
{
    if (!world || !axis)
        return NULL;
    int i = axis_owner(world, axis);
    return i < 0 ? NULL : world->names[i];
}

/* The modes left over when `modes` (sorted ascending by stride) tile
 * [0, size): the instance modes, or false when they do not tile it. */
static bool complement(omi_mode *m, size_t n, int64_t size, omi_mode *inst,
                       size_t *ninst)
{
    for (size_t i = 1; i < n; i++) {
        omi_mode x = m[i];
        size_t j = i;
        while (j > 0 && m[j - 1].stride > x.stride) {
            m[j] = m[j - 1];
            j--;
        }
        m[j] = x;
    }
    int64_t covered = 1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (m[i].stride % covered != 0 || k >= OMI_MAX_DIGITS)
            return false;
        if (m[i].stride > covered)
            inst[k++] = (omi_mode){m[i].stride / covered, covered};
        covered = m[i].stride * m[i].size;
    }
    if (size % covered != 0 || k >= OMI_MAX_DIGITS)
        return false;
    if (size > covered)
        inst[k++] = (omi_mode){size / covered, covered};
    *ninst = k;
    return true;
}

/* "'a', 'b'": the names of a slice, each cut at 30 bytes, for messages. */
static void quoted_names(char *buf, size_t size, const char *const *axes,
                         size_t naxes)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < naxes && o + 8 < size; k++)
        o += (size_t)snprintf(buf + o, size - o, "%s'%.30s'", k ? ", " : "",
                              axes[k]);
}

static om_status slice_across(const om_world *w, const char *const *axes,
                              size_t naxes, om_mesh **out, om_error *err)
{
    size_t total = 0;
    for (size_t k = 0; k < naxes; k++) {
        const om_mesh *v = w->views[axis_owner(w, axes[k])];
        int i = omi_mesh_find(v, axes[k], strlen(axes[k]));
        total += v->mode_first[i + 1] - v->mode_first[i];
    }
    const char **names = omi_malloc(naxes * sizeof *names);
    size_t *lens = omi_malloc(naxes * sizeof *lens);
    size_t *counts = omi_malloc(naxes * sizeof *counts);
    omi_mode *modes = omi_malloc((2 * total + 1) * sizeof *modes);
    om_status st = OM_OK;
    if (!names || !lens || !counts || !modes)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory slicing a world");
    size_t n = 0;
    for (size_t k = 0; st == OM_OK && k < naxes; k++) {
        const om_mesh *v = w->views[axis_owner(w, axes[k])];
        size_t i = (size_t)omi_mesh_find(v, axes[k], strlen(axes[k]));
        names[k] = v->names[i];
        lens[k] = v->name_lens[i];
        counts[k] = v->mode_first[i + 1] - v->mode_first[i];
        memcpy(modes + n, v->modes + v->mode_first[i], counts[k] * sizeof *modes);
        n += counts[k];
    }
    /* More coordinates than the world has ranks can never tile it; say so
     * before the probe, whose size check would report "mesh too large", a
     * status om_world_slice() does not have (found by fuzz_view_ops). */
    int64_t product = 1;
    for (size_t k = 0; st == OM_OK && k < naxes; k++) {
        const om_mesh *v = w->views[axis_owner(w, axes[k])];
        int64_t s = v->sizes[omi_mesh_find(v, axes[k], strlen(axes[k]))];
        product = s > w->size / product ? w->size + 1 : product * s;
    }
    if (st == OM_OK && product > w->size) {
        char list[160];
        quoted_names(list, sizeof list, axes, naxes);
        st = omi_fail(err, OM_ERR_UNALIGNED,
                      "axes (%s) hold more coordinates than the world's %lld "
                      "ranks: they cannot tile it", list, (long long)w->size);
    }
    om_mesh *probe = NULL;
    if (st == OM_OK) {
        /* Overlapping axes repeat ranks: say which slice caused it. */
        st = omi_view_create(names, lens, naxes, counts, modes, NULL, 0, 0,
                             &probe, err);
        if (st == OM_ERR_RANK_COLLISION) {
            char list[160], prefix[224];
            quoted_names(list, sizeof list, axes, naxes);
            snprintf(prefix, sizeof prefix,
                     "slicing overlapping axes (%s) is not allowed", list);
            omi_prefix_error(err, prefix);
        }
    }
    omi_mode inst[OMI_MAX_DIGITS];
    size_t ninst = 0;
    if (st == OM_OK) {
        memcpy(modes + n, modes, n * sizeof *modes);
        if (!complement(modes + n, n, w->size, inst, &ninst)) {
            char list[160];
            quoted_names(list, sizeof list, axes, naxes);
            st = omi_fail(err, OM_ERR_UNALIGNED,
                          "axes (%s) do not tile the world of %lld ranks into "
                          "strided instances", list, (long long)w->size);
        }
    }
    if (st == OM_OK)
        st = omi_view_create(names, lens, naxes, counts, modes, inst, ninst, 0,
                             out, err);
    om_mesh_free(probe);
    omi_free((void *)names);
    omi_free(lens);
    omi_free(counts);
    omi_free(modes);
    return st;
}

om_status om_world_slice(const om_world *world, const char *const *axes,
                         size_t naxes, om_mesh **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!world || (!axes && naxes > 0))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        world ? "axis list" : "world");
    if (naxes == 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "no axes given");
    /* Each name's own error, or the first repeat before it (the order a
     * pairwise scan finds them in). */
    om_error invalid;
    size_t bad = naxes;
    for (size_t k = 0; k < naxes && bad == naxes; k++) {
        char quoted[96], list[160];
        if (!axes[k]) {
            omi_fail(&invalid, OM_ERR_INVALID_ARGUMENT, "axis name %zu is NULL", k);
            bad = k;
        } else if (axis_owner(world, axes[k]) < 0) {
            omi_squote(quoted, sizeof quoted, axes[k], strlen(axes[k]));
            view_list(world, list, sizeof list);
            omi_fail(&invalid, OM_ERR_UNKNOWN_AXIS,
                     "no view of the world (%s) has axis %s", list, quoted);
            bad = k;
        }
    }
    size_t first, repeat;
    om_status st = omi_names_first_repeat(axes, NULL, bad, &first, &repeat, err);
    if (st != OM_OK)
        return st;
    if (repeat < bad) {
        char quoted[96];
        omi_squote(quoted, sizeof quoted, axes[repeat], strlen(axes[repeat]));
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "axis %s is named twice", quoted);
    }
    if (bad < naxes) {
        if (err)
            *err = invalid;
        return invalid.status;
    }
    /* The first view holding every name: an exact slice of it. */
    int holder = common_owner(world, axes, naxes);
    if (holder >= 0)
        return om_view_slice(world->views[holder], axes, naxes, out, err);
    return slice_across(world, axes, naxes, out, err);
}

om_status om_world_to_json(const om_world *world, char **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!world)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "world is NULL");
    omi_buf buf = {0};
    om_status st = OM_OK;
    omi_buf_puts(&buf, "{\"views\":{");
    for (size_t i = 0; st == OM_OK && i < world->nviews; i++) {
        if (i)
            omi_buf_put(&buf, ",", 1);
        omi_buf_json_string(&buf, world->names[i], strlen(world->names[i]));
        omi_buf_put(&buf, ":", 1);
        st = omi_view_json(&buf, world->views[i], err);
    }
    omi_buf_puts(&buf, "},\"world_size\":");
    omi_buf_int(&buf, world->size);
    omi_buf_puts(&buf, "}");
    if (st != OM_OK) {
        omi_free(buf.data);
        return st;
    }
    return omi_buf_finish(&buf, out, err);
}

static om_status world_from_root(json_t *root, void *ctx, om_error *err)
{
    om_world **out = ctx;
    if (!json_is_object(root))
        return omi_fail(err, OM_ERR_PARSE, "a world document must be an object");
    const char *key;
    json_t *value;
    json_object_foreach(root, key, value) {
        /* "groups" and "local_ranks": what `offline-mesh views` prints
         * beside the views (named groups, per-rank local ranks). */
        if (strcmp(key, "views") != 0 && strcmp(key, "world_size") != 0 &&
            strcmp(key, "groups") != 0 && strcmp(key, "local_ranks") != 0) {
            char quoted[80];
            omi_squote(quoted, sizeof quoted, key, strlen(key));
            return omi_fail(err, OM_ERR_PARSE,
                            "world document has unknown key %s", quoted);
        }
    }
    json_t *views = json_object_get(root, "views");
    json_t *size_j = json_object_get(root, "world_size");
    if (!json_is_object(views))
        return omi_fail(err, OM_ERR_PARSE,
                        "world document needs a \"views\" object");
    if (size_j && !json_is_integer(size_j)) {
        char got[80];
        omi_json_shown(size_j, got, sizeof got);
        return omi_fail(err, OM_ERR_PARSE, "\"world_size\" must be an integer, got %s",
                        got);
    }
    size_t n = json_object_size(views);
    const char **names = omi_malloc((n + 1) * sizeof *names);
    om_mesh **list = omi_malloc((n + 1) * sizeof *list);
    om_status st = OM_OK;
    if (!names || !list)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading a world");
    size_t k = 0;
    int64_t extent = 1;
    if (st == OM_OK) {
        json_object_foreach(views, key, value) {
            names[k] = key;
            st = omi_view_from_jansson(value, &list[k], err);
            if (st != OM_OK) {
                char quoted[80], prefix[96];
                omi_squote(quoted, sizeof quoted, key, strlen(key));
                snprintf(prefix, sizeof prefix, "view %s", quoted);
                omi_prefix_error(err, prefix);
                break;
            }
            if (list[k]->extent > extent)
                extent = list[k]->extent;
            k++;
        }
    }
    if (st == OM_OK)
        st = om_world_new(size_j ? (int64_t)json_integer_value(size_j) : extent,
                          names, k, (const om_mesh *const *)list, k, out, err);
    for (size_t i = 0; i < k; i++)
        om_mesh_free(list[i]);
    omi_free((void *)names);
    omi_free(list);
    return st;
}

om_status om_world_from_json(const char *text, size_t length, om_world **out,
                             om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    return omi_json_read(text, length, "world", world_from_root, out, err);
}

static om_status parse_world(const char *text, size_t length, void *out,
                             om_error *err)
{
    return om_world_from_json(text, length, out, err);
}

om_status om_world_load_json(const char *path, om_world **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!path)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "path is NULL");
    return omu_file_parse(path, parse_world, out, err);
}
