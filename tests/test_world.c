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

static const om_test_case world_tests[] = {
    {"construction errors", test_construction_errors},
    {"consistency rule", test_consistency_rule},
    {"lookups and slices", test_lookups_and_slices},
    {"unaligned slice across views", test_unaligned_world_slice},
    {"JSON", test_json},
    {"load_json names the file", test_load_json_names_the_file},
    {"many views: lookups and slices", test_many_views_lookups},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"worlds", NULL, NULL, world_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
