/* Fuzz target: chains of view operations (VIEWS.md 1) on a small plain
 * mesh: om_view_flatten, om_view_unflatten, om_view_slice and
 * om_world_slice over the mesh and the views flattened from it, and every
 * query on each view made, compared with a brute-force reading of the
 * layout definition written here.
 *
 * Input: byte 0 gives ndim (1 + b % 6), then per axis a name byte (an
 * index into `pool`) and a size byte (1 + b % 6). Then up to 8 operations,
 * each an op byte (b % 4: flatten, unflatten, slice, world slice) and its
 * argument bytes (see take_axes, take_name, op_unflatten).
 * Invariants: a failed call leaves *out NULL and reports one of the
 * statuses an operation can give, with a valid message; a view that is
 * made has distinct non-empty names, holds instance_count * size distinct
 * ranks (those the definition gives: offset + instance modes + axis
 * modes), each with the coordinates and groups the definition gives
 * (groups ascending by first member, members row-major over the axes
 * named, as group_of/group_index say), and round-trips through its JSON.
 * Flattening axes in view order into a new name and slicing distinct
 * names of the view always succeed.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RANKS 4096
#define MAX_AXES 16
#define MAX_FLAT 8

/* Names the input picks by index: the ones frameworks use, a flattened
 * default, an empty and a non-UTF-8 name (refused), and fresh ones. */
static const char *const pool[] = {
    "dp", "cp", "tp", "pp", "ep", "dp_cp", "", "\xff", "x", "y", "z", "w",
};
#define POOL (sizeof pool / sizeof pool[0])

static const char *take_name(fuzz_input *in)
{
    return pool[fuzz_take(in) % POOL];
}

/* `n` (1 + b % ndim) axis names of `v`: in view order from a bit set, or
 * shuffled, or with a name the view lacks. *in_order: distinct names in
 * view order. */
static size_t take_axes(fuzz_input *in, const om_mesh *v, const char **axes, bool *in_order)
{
    size_t ndim = om_mesh_ndim(v), n = 0;
    uint8_t how = fuzz_take(in), bits = fuzz_take(in);
    *in_order = how % 4 != 0 && ndim > 0;
    if (ndim == 0)
        return 0;
    for (size_t i = 0; i < ndim && n < MAX_AXES; i++)
        if (bits >> (i % 8) & 1)
            axes[n++] = om_mesh_name(v, i);
    if (n == 0)
        axes[n++] = om_mesh_name(v, bits % ndim);
    if (how % 4 == 0) { /* a permutation, a repeat or an absent name */
        for (size_t k = n; k-- > 1;) {
            size_t j = fuzz_take(in) % (k + 1);
            const char *t = axes[k];
            axes[k] = axes[j];
            axes[j] = t;
        }
        if (how % 16 == 4)
            axes[n - 1] = axes[0];
        else if (how % 16 == 8)
            axes[n - 1] = take_name(in);
    }
    return n;
}

/* ---- the definition, brute force ---- */

typedef struct {
    size_t ndim;
    int64_t shape[MAX_AXES];
    int64_t modes[MAX_AXES][64]; /* size, stride pairs */
    size_t nmodes[MAX_AXES];
    int64_t inst[64];
    size_t ninst;
    int64_t offset, size, instances;
} layout;

static void read_layout(const om_mesh *v, layout *l)
{
    om_error err;
    size_t needed = 0;
    l->ndim = om_mesh_ndim(v);
    l->size = 1;
    for (size_t i = 0; i < l->ndim; i++) {
        l->shape[i] = om_mesh_dim_size(v, i);
        l->size *= l->shape[i];
        FUZZ_CHECK(om_view_modes(v, i, l->modes[i], 64, &needed, &err) == OM_OK,
                   "modes of axis %zu: %s", i, err.message);
        l->nmodes[i] = needed / 2;
        int64_t product = 1;
        for (size_t j = 0; j < l->nmodes[i]; j++)
            product *= l->modes[i][2 * j];
        FUZZ_CHECK(product == l->shape[i], "axis %zu modes multiply to %lld, size %lld",
                   i, (long long)product, (long long)l->shape[i]);
    }
    FUZZ_CHECK(om_view_instance_modes(v, l->inst, 64, &needed, &err) == OM_OK,
               "instance modes: %s", err.message);
    l->ninst = needed / 2;
    l->instances = 1;
    for (size_t j = 0; j < l->ninst; j++)
        l->instances *= l->inst[2 * j];
    l->offset = om_view_offset(v);
    FUZZ_CHECK(l->instances == om_view_instance_count(v), "instance count %lld, modes give %lld",
               (long long)om_view_instance_count(v), (long long)l->instances);
}

/* Digit k split row-major over (size, stride) pairs, slowest first. */
static int64_t spread(const int64_t *pairs, size_t n, int64_t k)
{
    int64_t r = 0;
    for (size_t j = n; j-- > 0;) {
        r += k % pairs[2 * j] * pairs[2 * j + 1];
        k /= pairs[2 * j];
    }
    return r;
}

/* The rank of coordinate `c` in instance `t`. */
static int64_t rank_of(const layout *l, int64_t t, const int64_t *c)
{
    int64_t r = l->offset + spread(l->inst, l->ninst, t);
    for (size_t i = 0; i < l->ndim; i++)
        r += spread(l->modes[i], l->nmodes[i], c[i]);
    return r;
}

/* Coordinate number `k` (row-major over the axes) into c. */
static void coord_of(const layout *l, int64_t k, int64_t *c)
{
    for (size_t i = l->ndim; i-- > 0;) {
        c[i] = k % l->shape[i];
        k /= l->shape[i];
    }
}

static int cmp_first(const void *a, const void *b)
{
    const int32_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Every rank the view holds, its coordinates, and the groups over `axes`. */
static void check_view(const om_mesh *v, fuzz_input *in)
{
    om_error err;
    size_t ndim = om_mesh_ndim(v);
    for (size_t i = 0; i < ndim; i++) {
        const char *name = om_mesh_name(v, i);
        FUZZ_CHECK(name && name[0] && fuzz_utf8_valid(name, strlen(name)),
                   "axis %zu has a bad name", i);
        for (size_t j = 0; j < i; j++)
            FUZZ_CHECK(strcmp(name, om_mesh_name(v, j)) != 0, "axis name %s twice", name);
    }
    if (ndim > MAX_AXES || om_view_rank_count(v) > MAX_RANKS)
        return;
    layout l;
    read_layout(v, &l);
    FUZZ_CHECK(l.size == om_mesh_size(v) && l.size * l.instances == om_view_rank_count(v),
               "size %lld x %lld instances, rank count %lld", (long long)l.size,
               (long long)l.instances, (long long)om_view_rank_count(v));
    static int64_t rank_at[MAX_RANKS];
    static bool seen[1 << 16]; /* the largest root: 6^6 ranks */
    int64_t extent = om_view_extent(v), c[MAX_AXES], got[MAX_AXES];
    FUZZ_CHECK(extent <= (int64_t)sizeof seen, "extent %lld", (long long)extent);
    memset(seen, 0, sizeof seen);
    size_t needed = 0;
    for (int64_t t = 0; t < l.instances; t++) {
        for (int64_t k = 0; k < l.size; k++) {
            coord_of(&l, k, c);
            int64_t r = rank_of(&l, t, c);
            FUZZ_CHECK(r >= 0 && r < extent && !seen[r], "rank %lld repeated or outside", (long long)r);
            seen[r] = true;
            rank_at[t * l.size + k] = r;
            FUZZ_CHECK(om_view_holds(v, r), "view does not hold its rank %lld", (long long)r);
            FUZZ_CHECK(om_mesh_coordinate_of(v, r, got, ndim, &needed, &err) == OM_OK &&
                           needed == ndim && memcmp(got, c, ndim * sizeof *c) == 0,
                       "coordinate of rank %lld", (long long)r);
            int64_t back = -1, again[MAX_AXES];
            FUZZ_CHECK(om_mesh_rank(v, c, ndim, &back, &err) == OM_OK && om_view_holds(v, back) &&
                           om_mesh_coordinate_of(v, back, again, ndim, &needed, &err) == OM_OK &&
                           memcmp(again, c, ndim * sizeof *c) == 0,
                       "rank of the coordinates of %lld", (long long)r);
        }
    }
    for (int64_t r = 0; r < extent; r++)
        FUZZ_CHECK(seen[r] == om_view_holds(v, r), "holds(%lld)", (long long)r);

    /* Groups over an axis subset: key = instance and the other coordinates. */
    uint8_t bits = fuzz_take(in);
    const char *axes[MAX_AXES];
    bool in_set[MAX_AXES];
    size_t naxes = 0;
    int64_t gsize = 1;
    for (size_t i = 0; i < ndim; i++) {
        in_set[i] = bits >> (i % 8) & 1;
        if (in_set[i]) {
            axes[naxes++] = om_mesh_name(v, i);
            gsize *= l.shape[i];
        }
    }
    int64_t count = -1, size = -1, ngroups = l.instances * l.size / gsize;
    FUZZ_CHECK(om_mesh_group_shape_named(v, axes, naxes, &count, &size, &err) == OM_OK &&
                   count == ngroups && size == gsize,
               "group shape %lld x %lld", (long long)count, (long long)size);
    static int32_t want[MAX_RANKS], table[MAX_RANKS], members[MAX_RANKS];
    int64_t filled = 0;
    for (int64_t t = 0; t < l.instances; t++)
        for (int64_t k = 0; k < l.size; k++) {
            coord_of(&l, k, c);
            bool leader = true; /* the first member: zero on every axis of the set */
            for (size_t i = 0; i < ndim; i++)
                leader = leader && (!in_set[i] || c[i] == 0);
            if (!leader)
                continue;
            for (int64_t j = 0; j < gsize; j++) {
                int64_t rest = j; /* row-major over the set, in view order */
                for (size_t i = ndim; i-- > 0;)
                    if (in_set[i]) {
                        c[i] = rest % l.shape[i];
                        rest /= l.shape[i];
                    }
                want[filled++] = (int32_t)rank_of(&l, t, c);
            }
        }
    FUZZ_CHECK(filled == ngroups * gsize, "reference groups");
    /* Ascending by first member: the smallest rank of each group leads it. */
    qsort(want, (size_t)ngroups, (size_t)gsize * sizeof *want, cmp_first);
    FUZZ_CHECK(om_mesh_groups_named(v, axes, naxes, 0, ngroups, table, MAX_RANKS, &needed,
                                    &err) == OM_OK && needed == (size_t)(ngroups * gsize),
               "groups: %s", err.message);
    for (int64_t g = 0; g < ngroups; g++) {
        FUZZ_CHECK(memcmp(table + g * gsize, want + g * gsize, (size_t)gsize * sizeof *want) == 0,
                   "group %lld differs from the definition", (long long)g);
        int64_t index = -1, r = table[g * gsize + fuzz_take(in) % gsize];
        FUZZ_CHECK(om_mesh_group_index_named(v, axes, naxes, r, &index, &err) == OM_OK &&
                       index == g,
                   "group_index(%lld) = %lld, want %lld", (long long)r, (long long)index,
                   (long long)g);
        FUZZ_CHECK(om_mesh_group_of_named(v, axes, naxes, r, members, MAX_RANKS, &needed,
                                          &err) == OM_OK &&
                       memcmp(members, table + g * gsize, (size_t)gsize * sizeof *members) == 0,
                   "group_of(%lld)", (long long)r);
    }

    /* The view record round-trips. */
    char *json = NULL;
    om_mesh *back = NULL;
    FUZZ_CHECK(om_view_to_json(v, &json, &err) == OM_OK, "to_json: %s", err.message);
    FUZZ_CHECK(om_view_from_json(json, strlen(json), &back, &err) == OM_OK && om_mesh_equal(v, back),
               "view JSON %s does not give the view back", json);
    om_mesh_free(back);
    om_string_free(json);
}

/* ---- operations ---- */

static const unsigned op_errors =
    FUZZ_BIT(OM_ERR_INVALID_ARGUMENT) | FUZZ_BIT(OM_ERR_UNKNOWN_AXIS) |
    FUZZ_BIT(OM_ERR_AXIS_ORDER) | FUZZ_BIT(OM_ERR_DUPLICATE_NAME) |
    FUZZ_BIT(OM_ERR_SIZE_MISMATCH) | FUZZ_BIT(OM_ERR_LENGTH_MISMATCH) |
    FUZZ_BIT(OM_ERR_BAD_SIZE) | FUZZ_BIT(OM_ERR_UNALIGNED) |
    FUZZ_BIT(OM_ERR_RANK_COLLISION) | FUZZ_BIT(OM_ERR_INVALID_NAME) |
    FUZZ_BIT(OM_ERR_EMPTY_NAME) | FUZZ_BIT(OM_ERR_OUT_OF_RANGE) |
    FUZZ_BIT(OM_ERR_VIEW_CONFLICT) | FUZZ_BIT(OM_ERR_UNKNOWN_VIEW);

typedef struct {
    om_mesh *root, *current;
    om_mesh *flat[MAX_FLAT];
    const char *flat_names[MAX_FLAT];
    size_t nflat;
} state;

static om_status op_flatten(state *s, fuzz_input *in, om_mesh **next, om_error *err)
{
    const char *axes[MAX_AXES];
    bool in_order;
    size_t n = take_axes(in, s->current, axes, &in_order);
    uint8_t pick = fuzz_take(in);
    const char *name = pick % 3 == 0 ? NULL : pool[pick % POOL];
    om_status st = om_view_flatten(s->current, axes, n, name, next, err);
    bool fresh = name && name[0] && name[0] != '\xff' && om_mesh_index_of(s->current, name) < 0;
    if (in_order && fresh)
        FUZZ_CHECK(st == OM_OK, "flatten in view order into '%s' refused: %s", name, err->message);
    if (st == OM_OK && s->nflat < MAX_FLAT) {
        /* Views of one world need distinct names and agreeing axes. */
        const char *made = om_mesh_name(*next, 0);
        bool known = om_mesh_index_of(s->root, made) >= 0;
        for (size_t i = 0; i < s->nflat && !known; i++)
            known = strcmp(s->flat_names[i], made) == 0;
        if (!known && om_view_flatten(s->current, axes, n, name, &s->flat[s->nflat], err) == OM_OK)
            s->flat_names[s->nflat] = om_mesh_name(s->flat[s->nflat], 0), s->nflat++;
    }
    return st;
}

static om_status op_unflatten(state *s, fuzz_input *in, om_mesh **next, om_error *err)
{
    size_t ndim = om_mesh_ndim(s->current);
    if (ndim == 0)
        return om_view_unflatten(s->current, "x", (int64_t[]){1}, 1, (const char *[]){"y"}, 1,
                                 next, err);
    size_t axis = fuzz_take(in) % ndim, nsizes = 1 + fuzz_take(in) % 3;
    int64_t left = om_mesh_dim_size(s->current, axis), sizes[3];
    const char *names[3];
    for (size_t i = 0; i < nsizes; i++) {
        /* Mostly a factorisation of the axis size, else any size 0..6. */
        uint8_t b = fuzz_take(in);
        if (b % 8 == 0) {
            sizes[i] = b / 8 % 7;
        } else if (i + 1 == nsizes) {
            sizes[i] = left;
        } else {
            int64_t d = 1 + b % left;
            while (left % d)
                d--;
            sizes[i] = d;
            left /= d;
        }
        names[i] = take_name(in);
    }
    return om_view_unflatten(s->current, om_mesh_name(s->current, axis), sizes, nsizes, names,
                             nsizes, next, err);
}

static om_status op_slice(state *s, fuzz_input *in, om_mesh **next, om_error *err)
{
    const char *axes[MAX_AXES];
    bool in_order;
    size_t n = take_axes(in, s->current, axes, &in_order);
    om_status st = om_view_slice(s->current, axes, n, next, err);
    if (in_order)
        FUZZ_CHECK(st == OM_OK, "slice of distinct names refused: %s", err->message);
    return st;
}

/* Slices the world of the root and its flattened views by their names. */
static om_status op_world_slice(state *s, fuzz_input *in, om_mesh **next, om_error *err)
{
    const char *names[MAX_FLAT + 1] = {"root"};
    const om_mesh *views[MAX_FLAT + 1] = {s->root};
    for (size_t i = 0; i < s->nflat; i++) {
        names[i + 1] = s->flat_names[i];
        views[i + 1] = s->flat[i];
    }
    om_world *w = NULL;
    om_status st = om_world_new(om_mesh_size(s->root), names, s->nflat + 1, views, s->nflat + 1,
                                &w, err);
    if (st != OM_OK)
        return *next = NULL, st;
    const char *axes[4];
    size_t n = 1 + fuzz_take(in) % 3;
    for (size_t k = 0; k < n; k++) {
        uint8_t b = fuzz_take(in);
        const om_mesh *from = views[b % (s->nflat + 1)];
        axes[k] = om_mesh_ndim(from) ? om_mesh_name(from, b / 16 % om_mesh_ndim(from)) : "x";
    }
    st = om_world_slice(w, axes, n, next, err);
    om_world_free(w);
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    const char *names[6];
    int64_t sizes[6];
    size_t ndim = 1 + fuzz_take(&in) % 6;
    for (size_t i = 0; i < ndim; i++) {
        names[i] = take_name(&in);
        sizes[i] = 1 + fuzz_take(&in) % 6;
    }
    state s = {0};
    om_error err;
    if (om_mesh_new(names, sizes, ndim, &s.root, &err) != OM_OK)
        return 0;
    FUZZ_CHECK(om_mesh_new(names, sizes, ndim, &s.current, &err) == OM_OK, "second mesh");
    check_view(s.current, &in);
    for (int k = 0; k < 8 && in.n > 0; k++) {
        om_mesh *next = (om_mesh *)(uintptr_t)1;
        om_status st;
        switch (fuzz_take(&in) % 4) {
        case 0: st = op_flatten(&s, &in, &next, &err); break;
        case 1: st = op_unflatten(&s, &in, &next, &err); break;
        case 2: st = op_slice(&s, &in, &next, &err); break;
        default: st = op_world_slice(&s, &in, &next, &err); break;
        }
        if (st != OM_OK) {
            FUZZ_CHECK(next == NULL, "a failed operation left *out set");
            fuzz_check_error("view operation", st, &err, op_errors);
            continue;
        }
        check_view(next, &in);
        om_mesh_free(s.current);
        s.current = next;
    }
    om_mesh_free(s.current);
    om_mesh_free(s.root);
    for (size_t i = 0; i < s.nflat; i++)
        om_mesh_free(s.flat[i]);
    return 0;
}
