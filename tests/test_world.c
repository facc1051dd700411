/* Worlds (world.h): construction rules and messages, the consistency rule
 * (VIEWS.md 2), lookups, slicing by axis names across views, and JSON.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_test.h"

static om_mesh *view(const char *const *names, size_t n, const int64_t *sizes,
                     const int64_t *strides, int64_t offset)
{
    om_error err;
    om_mesh *v = NULL;
    OM_EXPECT_OK(om_view_new(names, n, sizes, n, strides, n, offset, &v, &err), &err);
    return v;
}

static void test_construction_errors(void)
{
    om_error err;
    om_world *w = (om_world *)1;
    om_mesh *a = om_test_mesh("dp=2,tp=4");
    const om_mesh *views[2] = {a, a};
    OM_EXPECT_ERR(om_world_new(8, (const char *[]){"x", "x"}, 2, views, 2, &w, &err), &err,
                  OM_ERR_DUPLICATE_NAME, "duplicate view name 'x'");
    OM_EXPECT(w == NULL);
    OM_EXPECT_ERR(om_world_new(8, (const char *[]){"x", ""}, 2, views, 2, &w, &err), &err,
                  OM_ERR_EMPTY_NAME, "view 1");
    OM_EXPECT_ERR(om_world_new(8, (const char *[]){"x", NULL}, 2, views, 2, &w, &err), &err,
                  OM_ERR_INVALID_NAME, "NULL");
    OM_EXPECT_ERR(om_world_new(8, (const char *[]){"x", "\xc3"}, 2, views, 2, &w, &err),
                  &err, OM_ERR_INVALID_NAME, "UTF-8");
    OM_EXPECT_ERR(om_world_new(4, (const char *[]){"x"}, 1, views, 1, &w, &err), &err,
                  OM_ERR_OUTSIDE_WORLD, "view 'x' reaches rank 7, world size is 4");
    OM_EXPECT_ERR(om_world_new(0, NULL, 0, NULL, 0, &w, &err), &err, OM_ERR_OUT_OF_RANGE,
                  "world size 0");
    OM_EXPECT_ERR(om_world_new(8, (const char *[]){"x"}, 1, views, 2, &w, &err), &err,
                  OM_ERR_LENGTH_MISMATCH, "1 view names but 2 views");
    OM_EXPECT_ERR(om_world_new(8, (const char *[]){"x"}, 1, (const om_mesh *[]){NULL}, 1,
                               &w, &err), &err, OM_ERR_INVALID_ARGUMENT, "view 0 is NULL");
    OM_EXPECT_ERR(om_world_new(8, NULL, 1, views, 1, &w, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "names");
    OM_EXPECT_ERR(om_world_new(8, NULL, 0, NULL, 0, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
    /* An empty world is valid. */
    OM_EXPECT_OK(om_world_new(8, NULL, 0, NULL, 0, &w, &err), &err);
    OM_EXPECT_INT(om_world_size(w), 8);
    OM_EXPECT_INT(om_world_view_count(w), 0);
    om_world_free(w);
    om_world_free(NULL);
    om_mesh_free(a);
}

static void test_consistency_rule(void)
{
    om_error err;
    om_world *w = (om_world *)1;
    /* dp_replicate with stride 2 in 'dense' and 4 in 'sparse'. */
    om_mesh *dense = view((const char *[]){"a", "dp_replicate", "b"}, 3,
                          (int64_t[]){2, 2, 2}, (int64_t[]){4, 2, 1}, 0);
    om_mesh *sparse = view((const char *[]){"dp_replicate", "c"}, 2, (int64_t[]){2, 4},
                           (int64_t[]){4, 1}, 0);
    OM_EXPECT_ERR(om_world_new(8, (const char *[]){"dense", "sparse"}, 2,
                               (const om_mesh *[]){dense, sparse}, 2, &w, &err),
                  &err, OM_ERR_VIEW_CONFLICT,
                  "views 'dense' and 'sparse' disagree on axis 'dp_replicate': rank 0 is in "
                  "[0, 2] in 'dense' and in [0, 4] in 'sparse'");
    OM_EXPECT(w == NULL);
    /* Same groups in a different member order also disagree. */
    om_mesh *fwd = view((const char *[]){"x", "y"}, 2, (int64_t[]){2, 2},
                        (int64_t[]){2, 1}, 0);
    om_mesh *xy = NULL, *yx = NULL;
    OM_EXPECT_OK(om_view_flatten(fwd, (const char *[]){"x", "y"}, 2, "f", &xy, &err), &err);
    om_mesh *t = NULL;
    OM_EXPECT_OK(om_view_slice(fwd, (const char *[]){"y", "x"}, 2, &t, &err), &err);
    OM_EXPECT_OK(om_view_flatten(t, (const char *[]){"y", "x"}, 2, "f", &yx, &err), &err);
    OM_EXPECT_ERR(om_world_new(4, (const char *[]){"one", "two"}, 2,
                               (const om_mesh *[]){xy, yx}, 2, &w, &err),
                  &err, OM_ERR_VIEW_CONFLICT,
                  "rank 0 is in [0, 1, 2, 3] in 'one' and in [0, 2, 1, 3] in 'two'");
    /* A view that misses ranks of the other: "no group". */
    om_mesh *half = view((const char *[]){"x"}, 1, (int64_t[]){2}, (int64_t[]){2}, 0);
    OM_EXPECT_ERR(om_world_new(4, (const char *[]){"fwd", "half"}, 2,
                               (const om_mesh *[]){fwd, half}, 2, &w, &err),
                  &err, OM_ERR_VIEW_CONFLICT, "rank 1 is in [1, 3] in 'fwd' and in no group");
    /* Equal groups from different layouts agree (group order may differ):
     * x over (x, y) and a slice of it. */
    om_mesh *sx = NULL;
    OM_EXPECT_OK(om_view_slice(fwd, (const char *[]){"x"}, 1, &sx, &err), &err);
    OM_EXPECT_OK(om_world_new(4, (const char *[]){"fwd", "sx"}, 2,
                              (const om_mesh *[]){fwd, sx}, 2, &w, &err), &err);
    om_world_free(w);
    om_mesh *list[] = {dense, sparse, fwd, xy, yx, t, half, sx};
    for (size_t i = 0; i < sizeof list / sizeof *list; i++)
        om_mesh_free(list[i]);
}

static om_world *dp_cp_tp_world(void)
{
    om_error err;
    om_mesh *root = om_test_mesh("dp=2,cp=2,tp=2"), *dp_tp = NULL;
    OM_EXPECT_OK(om_view_flatten(root, (const char *[]){"dp", "tp"}, 2, NULL, &dp_tp, &err),
                 &err);
    om_world *w = NULL;
    OM_EXPECT_OK(om_world_new(8, (const char *[]){"root", "dp_tp"}, 2,
                              (const om_mesh *[]){root, dp_tp}, 2, &w, &err), &err);
    om_mesh_free(root);
    om_mesh_free(dp_tp);
    return w;
}

static void test_lookups_and_slices(void)
{
    om_error err;
    om_world *w = dp_cp_tp_world();
    OM_EXPECT_INT(om_world_view_count(w), 2);
    OM_EXPECT_STR(om_world_view_name(w, 1), "dp_tp");
    OM_EXPECT(om_world_view_name(w, 2) == NULL);
    OM_EXPECT_INT(om_world_view_index(w, "root"), 0);
    OM_EXPECT_INT(om_world_view_index(w, "nope"), -1);
    OM_EXPECT_STR(om_world_axis_view(w, "cp"), "root");
    OM_EXPECT_STR(om_world_axis_view(w, "dp_tp"), "dp_tp");
    OM_EXPECT(om_world_axis_view(w, "ep") == NULL);
    om_mesh *v = NULL, *plain = om_test_mesh("dp=2,cp=2,tp=2");
    OM_EXPECT_OK(om_world_view(w, "root", &v, &err), &err);
    OM_EXPECT(om_mesh_equal(v, plain));
    om_mesh_free(v);
    OM_EXPECT_ERR(om_world_view(w, "dense", &v, &err), &err, OM_ERR_UNKNOWN_VIEW,
                  "no view 'dense' in the world (root, dp_tp)");
    /* Root slicing with a flattened name (lenient order). */
    OM_EXPECT_OK(om_world_slice(w, (const char *[]){"dp_tp", "cp"}, 2, &v, &err), &err);
    OM_EXPECT_INT(om_mesh_ndim(v), 2);
    OM_EXPECT_INT(om_view_instance_count(v), 1);
    int64_t c[2];
    OM_EXPECT_OK(om_mesh_coordinate(v, 6, c, 2, &err), &err);
    OM_EXPECT_INT(c[0], 2);
    OM_EXPECT_INT(c[1], 1);
    /* Two groups of four over dp_tp: the buffer holds all eight ranks. */
    int32_t g[8];
    OM_EXPECT_OK(om_mesh_groups(v, 1, 0, 2, g, 8, &err), &err);
    const int32_t want[8] = {0, 1, 4, 5, 2, 3, 6, 7};
    for (int i = 0; i < 8; i++)
        OM_EXPECT_INT(g[i], want[i]);
    om_mesh_free(v);
    /* One view holding all names: an exact slice of it. */
    OM_EXPECT_OK(om_world_slice(w, (const char *[]){"tp", "dp"}, 2, &v, &err), &err);
    OM_EXPECT_INT(om_view_instance_count(v), 2);
    om_mesh_free(v);
    OM_EXPECT_ERR(om_world_slice(w, (const char *[]){"dp", "dp_tp"}, 2, &v, &err), &err,
                  OM_ERR_RANK_COLLISION,
                  "slicing overlapping axes ('dp', 'dp_tp') is not allowed: rank");
    OM_EXPECT_ERR(om_world_slice(w, (const char *[]){"dp", "ep"}, 2, &v, &err), &err,
                  OM_ERR_UNKNOWN_AXIS, "axis 'ep'");
    OM_EXPECT_ERR(om_world_slice(w, (const char *[]){"cp", "cp"}, 2, &v, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "'cp' is named twice");
    OM_EXPECT_ERR(om_world_slice(w, NULL, 0, &v, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "no axes");
    om_world_free(w);
    om_mesh_free(plain);
}

static void test_world_slice_more_coordinates_than_ranks(void)
{
    /* Two views of 2^16 ranks each, sliced together: 2^32 coordinates.
     * The probe view's size check used to answer OM_ERR_MESH_TOO_LARGE,
     * which om_world_slice() does not document (fuzz_view_ops). */
    om_error err;
    om_mesh *a = om_test_mesh("x=65536"), *b = om_test_mesh("y=65536");
    om_world *w = NULL;
    OM_EXPECT_OK(om_world_new(65536, (const char *[]){"a", "b"}, 2,
                              (const om_mesh *[]){a, b}, 2, &w, &err), &err);
    om_mesh *v = NULL;
    OM_EXPECT_ERR(om_world_slice(w, (const char *[]){"x", "y"}, 2, &v, &err), &err,
                  OM_ERR_UNALIGNED,
                  "axes ('x', 'y') hold more coordinates than the world's 65536 ranks");
    OM_EXPECT(v == NULL);
    om_world_free(w);
    om_mesh_free(a);
    om_mesh_free(b);
}

static void test_unaligned_world_slice(void)
{
    /* Axes whose strides leave no strided complement: world 6 as
     * (a=3:2, b=2:1) and an unrelated one-axis view c=(2:3). */
    om_error err;
    om_mesh *ab = om_test_mesh("a=3,b=2");
    om_mesh *c = NULL;
    OM_EXPECT_OK(om_view_new((const char *[]){"c"}, 1, (int64_t[]){2}, 1, (int64_t[]){3},
                             1, 0, &c, &err), &err);
    om_world *w = NULL;
    OM_EXPECT_OK(om_world_new(6, (const char *[]){"ab", "c"}, 2,
                              (const om_mesh *[]){ab, c}, 2, &w, &err), &err);
    om_mesh *v = NULL;
    OM_EXPECT_ERR(om_world_slice(w, (const char *[]){"b", "c"}, 2, &v, &err), &err,
                  OM_ERR_UNALIGNED, "do not tile the world of 6 ranks");
    om_world_free(w);
    om_mesh_free(ab);
    om_mesh_free(c);
}

static void test_json(void)
{
    om_error err;
    om_world *w = dp_cp_tp_world(), *back = NULL;
    char *json = NULL, *again = NULL;
    OM_EXPECT_OK(om_world_to_json(w, &json, &err), &err);
    OM_EXPECT_STR(json, "{\"views\":{\"root\":{\"dim_names\":[\"dp\",\"cp\",\"tp\"],"
                        "\"layout\":[[[2,4]],[[2,2]],[[2,1]]],\"shape\":[2,2,2]},"
                        "\"dp_tp\":{\"dim_names\":[\"dp_tp\"],\"instances\":[[0,1,4,5],"
                        "[2,3,6,7]],\"layout\":[[[2,4],[2,1]]],\"shape\":[4]}},"
                        "\"world_size\":8}");
    OM_EXPECT_OK(om_world_from_json(json, strlen(json), &back, &err), &err);
    OM_EXPECT_OK(om_world_to_json(back, &again, &err), &err);
    OM_EXPECT_STR(again, json);
    om_string_free(again);
    om_string_free(json); /* the NULL-world call below writes json again */
    json = NULL;
    om_world_free(back);
    /* Without world_size: the largest extent; "groups" and "local_ranks"
     * (what `offline-mesh views` prints beside the views) are ignored. */
    const char *doc = "{\"views\":{\"v\":{\"dim_names\":[\"tp\"],\"shape\":[2],"
                      "\"layout\":[[[2,1]]],\"offset\":4}},\"groups\":{\"x\":[]},"
                      "\"local_ranks\":[{\"tp_rank\":0}]}";
    OM_EXPECT_OK(om_world_from_json(doc, strlen(doc), &back, &err), &err);
    OM_EXPECT_INT(om_world_size(back), 6);
    om_world_free(back);
    struct {
        const char *text;
        om_status status;
        const char *needle;
    } bad[] = {
        {"[]", OM_ERR_PARSE, "object"},
        {"{}", OM_ERR_PARSE, "\"views\""},
        {"{\"views\":{},\"x\":1}", OM_ERR_PARSE, "unknown key 'x'"},
        {"{\"views\":{},\"world_size\":\"8\"}", OM_ERR_PARSE,
         "\"world_size\" must be an integer, got \"8\""},
        {"{\"views\":{},\"world_size\":8.0}", OM_ERR_PARSE,
         "\"world_size\" must be an integer, got 8.0"},
        {"{\"views\":{\"v\":{\"dim_names\":[]}}}", OM_ERR_PARSE,
         "view 'v': view record lacks \"shape\""},
        {"{\"views\":{\"v\":{\"dim_names\":[\"a\"],\"shape\":[4],\"layout\":[[[4,1]]]}},"
         "\"world_size\":2}", OM_ERR_OUTSIDE_WORLD, "view 'v' reaches rank 3"},
        {"{\"views\":{} ", OM_ERR_PARSE, "world JSON"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        OM_EXPECT_ERR(om_world_from_json(bad[i].text, strlen(bad[i].text), &back, &err),
                      &err, bad[i].status, bad[i].needle);
    OM_EXPECT_ERR(om_world_to_json(NULL, &json, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "world");
    om_string_free(json);
    om_world_free(w);
}

/* A file that cannot be read is named in the message, as a bad one is. */
static void test_load_json_names_the_file(void)
{
    om_error err;
    om_world *w = NULL;
    OM_EXPECT_ERR(om_world_load_json("no-such-world.json", &w, &err), &err, OM_ERR_IO,
                  "no-such-world.json: cannot open");
    OM_EXPECT(w == NULL);
    /* The path is escaped as every value in a message (no terminal escape). */
    OM_EXPECT_ERR(om_world_load_json("no\x1b]0;t\x07.json", &w, &err), &err, OM_ERR_IO,
                  "no\\x1B]0;t\\x07.json: cannot open");
    OM_EXPECT_ERR(om_world_load_json(NULL, &w, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "path is NULL");
    OM_EXPECT_ERR(om_world_load_json("x.json", NULL, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "out pointer is NULL");
}


#define MANY 48 /* over OMI_NAME_INDEX_MIN (32) views: the indexed path */

/* Lookups of a world of many views (the name indexes). */
static void test_many_views_lookups(void)
{
    char names[MANY][8], axes[MANY][8];
    const char *view_names[MANY];
    om_mesh *views[MANY];
    for (int v = 0; v < MANY; v++) {
        snprintf(names[v], sizeof names[v], "w%d", (v * 37) % MANY);
        snprintf(axes[v], sizeof axes[v], "x%d", v);
        view_names[v] = names[v];
        views[v] = view((const char *[]){axes[v], "tp"}, 2, (int64_t[]){1, 2},
                        (int64_t[]){1, 1}, 0);
    }
    om_error err;
    om_world *w = NULL;
    OM_EXPECT_OK(om_world_new(2, view_names, MANY, (const om_mesh *const *)views, MANY, &w,
                              &err), &err);
    for (int v = 0; v < MANY; v++) {
        OM_EXPECT_INT(om_world_view_index(w, names[v]), v);
        OM_EXPECT_STR(om_world_axis_view(w, axes[v]), names[v]);
    }
    OM_EXPECT_INT(om_world_view_index(w, "w48"), -1);
    OM_EXPECT_INT(om_world_view_index(w, "w"), -1);
    OM_EXPECT_STR(om_world_axis_view(w, "tp"), names[0]);
    OM_EXPECT(om_world_axis_view(w, "x48") == NULL);
    om_mesh *cut = NULL;
    OM_EXPECT_OK(om_world_slice(w, (const char *[]){"x47", "tp"}, 2, &cut, &err), &err);
    OM_EXPECT_INT(om_mesh_ndim(cut), 2);
    om_mesh_free(cut);
    OM_EXPECT_ERR(om_world_slice(w, (const char *[]){"x3", "tp", "x3"}, 3, &cut, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "axis 'x3' is named twice");
    /* The first repeat comes before a later unknown name, as pairwise. */
    OM_EXPECT_ERR(om_world_slice(w, (const char *[]){"tp", "tp", "zz"}, 3, &cut, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "axis 'tp' is named twice");
    OM_EXPECT_ERR(om_world_slice(w, (const char *[]){"zz", "tp", "tp"}, 3, &cut, &err), &err,
                  OM_ERR_UNKNOWN_AXIS, "has axis 'zz'");
    om_world_free(w);
    /* A repeated view name among many, before an invalid one. */
    view_names[40] = names[3];
    view_names[45] = "";
    OM_EXPECT_ERR(om_world_new(2, view_names, MANY, (const om_mesh *const *)views, MANY, &w,
                               &err), &err, OM_ERR_DUPLICATE_NAME, "duplicate view name 'w15'");
    view_names[40] = names[40];
    OM_EXPECT_ERR(om_world_new(2, view_names, MANY, (const om_mesh *const *)views, MANY, &w,
                               &err), &err, OM_ERR_EMPTY_NAME, "view 45 has an empty name");
    for (int v = 0; v < MANY; v++)
        om_mesh_free(views[v]);
}

/* The first rank whose groups over `axis` differ between two views (or
 * that one view holds and not the other), by the definition: every
 * rank's two groups, member by member. -1 when none. */
static int64_t first_disagreement(const om_mesh *a, const om_mesh *b, const char *axis,
                                  int64_t world)
{
    for (int64_t r = 0; r < world; r++) {
        bool in_a = om_view_holds(a, r), in_b = om_view_holds(b, r);
        if (in_a != in_b)
            return r;
        if (!in_a)
            continue;
        int32_t ga[64], gb[64];
        size_t na = 0, nb = 0;
        om_error err;
        OM_EXPECT_OK(om_mesh_group_of_named(a, &axis, 1, r, ga, 64, &na, &err), &err);
        OM_EXPECT_OK(om_mesh_group_of_named(b, &axis, 1, r, gb, 64, &nb, &err), &err);
        if (na != nb || memcmp(ga, gb, na * sizeof *ga) != 0)
            return r;
    }
    return -1;
}

/* The consistency rule names the first rank whose two groups differ:
 * random pairs of views sharing axis "s" (placed in random orders, at
 * offsets, some of them families), against the definition. */
static void test_consistency_first_rank(void)
{
    unsigned seed = 4242;
    int conflicts = 0, agreeing = 0;
    for (int trial = 0; trial < 300; trial++) {
        om_mesh *v[2];
        int64_t sizes[3], strides[3], offset = 0;
        for (int k = 0; k < 2; k++) {
            bool same = k == 1 && trial % 4 == 0; /* the same placement: agree */
            int order[3] = {0, 1, 2};
            for (int i = 2; i > 0; i--) {
                seed = seed * 1103515245u + 12345u;
                int j = (int)((seed >> 16) % (unsigned)(i + 1)), t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            for (int i = 0; i < 3 && !same; i++) {
                seed = seed * 1103515245u + 12345u;
                sizes[i] = 1 + (int64_t)((seed >> 16) % 3);
            }
            int64_t stride = 1;
            for (int i = 0; i < 3 && !same; i++) {
                strides[order[i]] = stride;
                stride *= sizes[order[i]];
            }
            seed = seed * 1103515245u + 12345u;
            if (!same)
                offset = (seed >> 16) % 4 == 0 ? 1 : 0;
            v[k] = view((const char *[]){k ? "p" : "q", "s", k ? "r" : "t"}, 3, sizes,
                        strides, offset);
            if (k == 1 && !same && (seed >> 20) % 3 == 0) { /* a family: s alone */
                om_mesh *cut = NULL;
                om_error err;
                OM_EXPECT_OK(om_view_slice(v[k], (const char *[]){"s"}, 1, &cut, &err),
                             &err);
                om_mesh_free(v[k]);
                v[k] = cut;
            }
        }
        int64_t world = 1;
        for (int k = 0; k < 2; k++)
            if (om_view_extent(v[k]) > world)
                world = om_view_extent(v[k]);
        int64_t want = first_disagreement(v[0], v[1], "s", world);
        om_error err;
        om_world *w = NULL;
        om_status st = om_world_new(world, (const char *[]){"x", "y"}, 2,
                                    (const om_mesh *const *)v, 2, &w, &err);
        if (want < 0) {
            OM_EXPECT_OK(st, &err);
            agreeing++;
        } else {
            char text[64];
            snprintf(text, sizeof text, "disagree on axis 's': rank %lld is in ",
                     (long long)want);
            OM_EXPECT_ERR(st, &err, OM_ERR_VIEW_CONFLICT, text);
            conflicts++;
        }
        om_world_free(w);
        om_mesh_free(v[0]);
        om_mesh_free(v[1]);
    }
    OM_EXPECT(conflicts > 100);
    OM_EXPECT(agreeing > 10);
}

/* Bit j of rank space 2^6 is axis "b<j>" (stride 2^j) in the views
 * holds() says, and an axis of the view's own elsewhere. */
#define BITS 6
static bool holds(int j, int v)
{
    switch (j) {
    case 0: return v % 3 == 0;
    case 1: return v % 4 == 1;
    case 2: return v % 3 == 1;
    case 3: return v >= 40;
    case 4: return true;
    default: return v == MANY - 1;
    }
}

/* What slicing gave as text: the view's JSON or the error message. */
static void outcome(om_status st, om_mesh *cut, const om_error *err, char *buf,
                    size_t size)
{
    char *json = NULL;
    om_error e;
    if (st == OM_OK) {
        OM_EXPECT_OK(om_view_to_json(cut, &json, &e), &e);
        snprintf(buf, size, "%s", json ? json : "");
    } else {
        snprintf(buf, size, "error %d: %s", (int)st, err->message);
    }
    om_string_free(json);
    om_mesh_free(cut);
}

static void world_outcome(const om_world *w, const char *const *axes, size_t n,
                          char *buf, size_t size)
{
    om_error err;
    om_mesh *cut = NULL;
    om_status st = om_world_slice(w, axes, n, &cut, &err);
    outcome(st, cut, &err, buf, size);
}

static bool holds_all(const char *const *axes, size_t n, int v)
{
    bool all = true;
    for (size_t k = 0; k < n; k++)
        all = all && holds(axes[k][1] - '0', v);
    return all;
}

/* om_world_slice over many views takes the first view holding every name
 * (found through the index), else slices across views. Every view covers
 * ranks 0..63 of 128, so the two differ: a view's exact slice is a family
 * over its ranks, a slice across views tiles the world.
 * (Which holder is taken does not show: by the consistency rule all give
 * the same family.) */
static void test_many_views_first_holder(void)
{
    char names[MANY][8], axes[MANY][BITS][12];
    const char *view_names[MANY];
    om_mesh *views[MANY];
    for (int v = 0; v < MANY; v++) {
        snprintf(names[v], sizeof names[v], "v%d", v);
        view_names[v] = names[v];
        int free_bits[BITS] = {0, 1, 2, 3, 4, 5}, code = v * 13, left = BITS;
        const char *ptrs[BITS];
        int64_t sizes[BITS], strides[BITS];
        for (int a = 0; a < BITS; a++, left--) { /* a permutation per view */
            int pick = code % left, j = free_bits[pick];
            code /= left;
            memmove(free_bits + pick, free_bits + pick + 1,
                    (size_t)(left - pick - 1) * sizeof *free_bits);
            snprintf(axes[v][a], sizeof axes[v][a], holds(j, v) ? "b%d" : "u%d_%d", j, v);
            ptrs[a] = axes[v][a];
            sizes[a] = 2;
            strides[a] = (int64_t)1 << j;
        }
        views[v] = view(ptrs, BITS, sizes, strides, 0);
    }
    om_error err;
    om_world *w = NULL;
    OM_EXPECT_OK(om_world_new(128, view_names, MANY, (const om_mesh *const *)views, MANY,
                              &w, &err), &err);
    static const char *const sets[][3] = {
        {"b0", "b1"},       /* v9 */
        {"b1", "b0"},       /* v9 */
        {"b4"},             /* v0 */
        {"b4", "b1"},       /* v1 */
        {"b3", "b0"},       /* v42 */
        {"b5", "b4"},       /* v47, the last */
        {"b3", "b1", "b0"}, /* v45 */
        {"b0", "b2"},       /* no single view */
        {"b5", "b0"},       /* no single view */
        {"b0", "b1", "b2"}, /* pairs held, never all three */
    };
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        size_t n = sets[s][2] ? 3 : sets[s][1] ? 2 : 1;
        int first = 0;
        while (first < MANY && !holds_all(sets[s], n, first))
            first++;
        char got[2048], want[2048];
        world_outcome(w, sets[s], n, got, sizeof got);
        if (first < MANY) {
            om_mesh *cut = NULL;
            om_status st = om_view_slice(views[first], sets[s], n, &cut, &err);
            OM_EXPECT_OK(st, &err);
            outcome(st, cut, &err, want, sizeof want);
            OM_EXPECT_STR(got, want);
            OM_EXPECT(strstr(got, "64") == NULL); /* over the view's ranks */
        } else {
            /* As a world of the names' first owners (few views: the
             * unindexed path) slices it. */
            const om_mesh *some[3];
            const char *some_names[3] = {"x", "y", "z"};
            for (size_t k = 0; k < n; k++) {
                int owner = 0;
                while (!holds(sets[s][k][1] - '0', owner))
                    owner++;
                some[k] = views[owner];
            }
            om_world *few = NULL;
            OM_EXPECT_OK(om_world_new(128, some_names, n, some, n, &few, &err), &err);
            world_outcome(few, sets[s], n, want, sizeof want);
            OM_EXPECT_STR(got, want);
            OM_EXPECT(strstr(got, "127") != NULL); /* over the whole world */
            om_world_free(few);
        }
    }
    om_world_free(w);
    for (int v = 0; v < MANY; v++)
        om_mesh_free(views[v]);
}

static const om_test_case world_tests[] = {
    {"construction errors", test_construction_errors},
    {"consistency rule", test_consistency_rule},
    {"consistency rule: the first rank whose groups differ", test_consistency_first_rank},
    {"lookups and slices", test_lookups_and_slices},
    {"unaligned slice across views", test_unaligned_world_slice},
    {"JSON", test_json},
    {"slice: more coordinates than ranks", test_world_slice_more_coordinates_than_ranks},
    {"load_json names the file", test_load_json_names_the_file},
    {"many views: lookups and slices", test_many_views_lookups},
    {"many views: the first view holding every name", test_many_views_first_holder},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"worlds", NULL, NULL, world_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
