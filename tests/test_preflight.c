/* The planner contract: om_validate_axes, om_plan_dim_names and the
 * extended expert-parallel mesh.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_test.h"

/* ---- validate_axes ---- */

static void test_validate_ok(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=2,tp=4");
    om_error err;
    om_test_poison(&err);
    OM_EXPECT_OK(om_validate_axes(mesh, 4, 2, 1, &err), &err);
    OM_EXPECT_OK(om_validate_axes(mesh, 1, 1, 1, &err), &err);
    /* Sizes of 1 are not compared (the axis may differ or be absent). */
    OM_EXPECT_OK(om_validate_axes(mesh, 1, 2, 1, &err), &err);
    OM_EXPECT_OK(om_validate_axes(mesh, 4, 1, 1, &err), &err);
    /* ep is only compared when the mesh has an ep axis. */
    OM_EXPECT_OK(om_validate_axes(mesh, 4, 2, 8, &err), &err);
    OM_EXPECT(om_test_is_poisoned(&err));
    om_mesh_free(mesh);
    mesh = om_test_mesh("dp=8");
    OM_EXPECT_OK(om_validate_axes(mesh, 1, 1, 4, &err), &err);
    om_mesh_free(mesh);
    mesh = om_test_mesh("");
    OM_EXPECT_OK(om_validate_axes(mesh, 1, 1, 1, &err), &err);
    om_mesh_free(mesh);
    mesh = om_test_mesh("dp=2,ep=4,tp=2");
    OM_EXPECT_OK(om_validate_axes(mesh, 2, 1, 4, &err), &err);
    om_mesh_free(mesh);
}

static void test_validate_failures(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=2,tp=2");
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_ERR(om_validate_axes(mesh, 4, 1, 1, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "tp_size 4", "tp", "size 2");
    OM_EXPECT_ERR(om_validate_axes(mesh, 2, 4, 1, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "cp_size 4", "cp", "size 2");
    om_mesh_free(mesh);
    /* A plan axis > 1 that the mesh lacks. */
    mesh = om_test_mesh("dp=8");
    OM_EXPECT_ERR(om_validate_axes(mesh, 2, 1, 1, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "tp_size 2", "\"tp\"");
    OM_EXPECT_ERR(om_validate_axes(mesh, 1, 4, 1, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "cp_size 4", "\"cp\"");
    om_mesh_free(mesh);
    /* The mesh has an ep axis: ep is compared, even at plan size 1. */
    mesh = om_test_mesh("dp=2,ep=4");
    OM_EXPECT_ERR(om_validate_axes(mesh, 1, 1, 2, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "ep_size 2", "size 4");
    OM_EXPECT_ERR(om_validate_axes(mesh, 1, 1, 1, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "ep_size 1", "size 4");
    om_mesh_free(mesh);
}

static void test_validate_arguments(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,tp=2");
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_ERR(om_validate_axes(NULL, 1, 1, 1, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh");
    OM_EXPECT_ERR(om_validate_axes(mesh, 0, 1, 1, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "tp_size", "0");
    OM_EXPECT_ERR(om_validate_axes(mesh, 1, -1, 1, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "cp_size", "-1");
    OM_EXPECT_ERR(om_validate_axes(mesh, 1, 1, 0, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "ep_size", "0");
    om_mesh_free(mesh);
}

/* ---- plan_dim_names ---- */

static void expect_plan(const char *spec, int64_t tp, int64_t cp, int64_t ep,
                        const char *want, unsigned line)
{
    om_mesh *mesh = om_test_mesh(spec);
    om_error err;
    om_test_poison(&err);
    char *text = NULL;
    om_status st = om_plan_dim_names(mesh, tp, cp, ep, &text, &err);
    om_test_record(st == OM_OK && om_test_is_poisoned(&err) && text &&
                       strcmp(text, want) == 0,
                   __FILE__, line, "plan(%s, tp %lld cp %lld ep %lld) = \"%s\", "
                   "expected \"%s\" (%s)", spec, (long long)tp, (long long)cp,
                   (long long)ep, text ? text : "(null)", want,
                   st == OM_OK ? "" : err.message);
    om_string_free(text);
    om_mesh_free(mesh);
}

static void test_plan_dim_names(void)
{
    expect_plan("dp=2,cp=2,tp=4", 4, 2, 1, "cp,tp", __LINE__);
    expect_plan("dp=2,tp=4,cp=2", 4, 2, 1, "tp,cp", __LINE__); /* mesh order */
    expect_plan("dp=2,cp=2,tp=4", 4, 1, 1, "tp", __LINE__);
    expect_plan("dp=2,cp=2,tp=4", 1, 1, 1, "", __LINE__);
    expect_plan("dp=8", 4, 2, 8, "", __LINE__);               /* dp never */
    expect_plan("dp=2,ep=4,tp=2", 2, 1, 4, "ep,tp", __LINE__);
    expect_plan("ep=4,cp=2,tp=2,dp=2", 2, 2, 4, "ep,cp,tp", __LINE__);
    expect_plan("dp=2,ep=4,tp=2", 2, 1, 1, "tp", __LINE__);
    expect_plan("pp=2,dp=2,tp=2", 2, 1, 1, "tp", __LINE__);   /* pp never */
    expect_plan("", 2, 2, 2, "", __LINE__);
    /* Names are matched exactly. */
    expect_plan("TP=2,tpx=2,t=2", 2, 2, 2, "", __LINE__);
}

static void test_plan_arguments(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,tp=2");
    om_error err;
    om_error_clear(&err);
    char *text = (char *)"sentinel";
    OM_EXPECT_ERR(om_plan_dim_names(NULL, 1, 1, 1, &text, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh");
    OM_EXPECT(text == NULL);
    text = (char *)"sentinel";
    OM_EXPECT_ERR(om_plan_dim_names(mesh, 0, 1, 1, &text, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "tp_size", "0");
    OM_EXPECT(text == NULL);
    OM_EXPECT_ERR(om_plan_dim_names(mesh, 1, 0, 1, &text, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "cp_size");
    OM_EXPECT_ERR(om_plan_dim_names(mesh, 1, 1, -3, &text, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "ep_size", "-3");
    OM_EXPECT_ERR(om_plan_dim_names(mesh, 1, 1, 1, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
    om_mesh_free(mesh);
}

/* ---- expert mesh ---- */

static char *groups_text(const om_mesh *mesh, const char *axes)
{
    om_error err;
    om_error_clear(&err);
    uint64_t mask = 0;
    int64_t count = 0, size = 0;
    OM_EXPECT_OK(om_mesh_axes(mesh, axes, &mask, &err), &err);
    OM_EXPECT_OK(om_mesh_group_shape(mesh, mask, &count, &size, &err), &err);
    int32_t *out = malloc((size_t)(count * size + 1) * sizeof *out);
    OM_EXPECT_OK(om_mesh_groups(mesh, mask, 0, count, out, (size_t)(count * size),
                                &err),
                 &err);
    char *buf = malloc(4096);
    size_t o = 0;
    buf[0] = '\0';
    for (int64_t g = 0; g < count && o < 4000; g++) {
        o += (size_t)snprintf(buf + o, 4096 - o, "%s{", g ? "," : "");
        for (int64_t m = 0; m < size && o < 4000; m++)
            o += (size_t)snprintf(buf + o, 4096 - o, "%s%d", m ? "," : "",
                                  out[g * size + m]);
        o += (size_t)snprintf(buf + o, 4096 - o, "}");
    }
    free(out);
    return buf;
}

static void test_expert_domain_example(void)
{
    om_mesh *mesh = om_test_mesh("dp=4,tp=2");
    om_error err;
    om_test_poison(&err);
    om_mesh *experts = NULL;
    OM_EXPECT_OK(om_expert_mesh(mesh, 4, 0, &experts, &err), &err);
    OM_EXPECT(om_test_is_poisoned(&err));
    om_mesh *want = om_test_mesh("edp=2,ep=4");
    OM_EXPECT(om_mesh_equal(experts, want));
    char *ep = groups_text(experts, "ep");
    char *edp = groups_text(experts, "edp");
    OM_EXPECT_STR(ep, "{0,1,2,3},{4,5,6,7}");
    OM_EXPECT_STR(edp, "{0,4},{1,5},{2,6},{3,7}");
    free(ep);
    free(edp);
    om_mesh_free(want);
    om_mesh_free(experts);
    om_mesh_free(mesh);
}

static void expect_expert(const char *spec, int64_t ep, int64_t experts_n,
                          const char *want_spec, unsigned line)
{
    om_mesh *mesh = om_test_mesh(spec);
    om_error err;
    om_error_clear(&err);
    om_mesh *experts = NULL;
    om_status st = om_expert_mesh(mesh, ep, experts_n, &experts, &err);
    om_mesh *want = om_test_mesh(want_spec);
    om_test_record(st == OM_OK && om_mesh_equal(experts, want), __FILE__, line,
                   "expert_mesh(%s, ep %lld, experts %lld): %s", spec, (long long)ep,
                   (long long)experts_n, st == OM_OK ? "wrong mesh" : err.message);
    om_mesh_free(want);
    om_mesh_free(experts);
    om_mesh_free(mesh);
}

static void test_expert_shapes(void)
{
    expect_expert("dp=4,tp=2", 1, 0, "edp=8,ep=1", __LINE__);
    expect_expert("dp=4,tp=2", 2, 0, "edp=4,ep=2", __LINE__);
    expect_expert("dp=4,tp=2", 8, 0, "edp=1,ep=8", __LINE__);
    expect_expert("dp=2,cp=3,tp=4", 6, 12, "edp=4,ep=6", __LINE__);
    expect_expert("dp=2,cp=3,tp=4", 24, 48, "edp=1,ep=24", __LINE__);
    /* A pp axis of size 1 is allowed and not part of the product either
     * way. */
    expect_expert("dp=4,tp=2,pp=1", 4, 8, "edp=2,ep=4", __LINE__);
    expect_expert("pp=1,dp=4,tp=2", 4, 8, "edp=2,ep=4", __LINE__);
    /* num_experts: 0 = not given; any multiple of ep. */
    expect_expert("dp=8", 4, 4, "edp=2,ep=4", __LINE__);
    expect_expert("dp=8", 4, 64, "edp=2,ep=4", __LINE__);
    expect_expert("", 1, 5, "edp=1,ep=1", __LINE__);
    expect_expert("x=2147483647", 2147483647, 0, "edp=1,ep=2147483647", __LINE__);
}

static void expect_expert_error(const char *spec, int64_t ep, int64_t experts_n,
                                const char *n1, const char *n2, unsigned line)
{
    om_mesh *mesh = om_test_mesh(spec);
    om_error err;
    om_error_clear(&err);
    om_mesh *experts = (om_mesh *)(void *)&err;
    om_status st = om_expert_mesh(mesh, ep, experts_n, &experts, &err);
    om_test_record(st == OM_ERR_INVALID_ARGUMENT && err.status == st, __FILE__, line,
                   "expert_mesh(%s, ep %lld, experts %lld) returned %d: %s", spec,
                   (long long)ep, (long long)experts_n, (int)st, err.message);
    om_test_record(experts == NULL, __FILE__, line, "*out not reset");
    const char *needles[] = {n1, n2};
    for (int i = 0; i < 2; i++)
        if (needles[i])
            om_test_record(strstr(err.message, needles[i]) != NULL, __FILE__, line,
                           "message \"%s\" lacks \"%s\"", err.message, needles[i]);
    om_mesh_free(mesh);
}

static void test_expert_errors(void)
{
    /* pp > 1 is unsupported with extended EP. */
    expect_expert_error("dp=2,tp=2,pp=2", 2, 0, "pp_size 2", "expert", __LINE__);
    expect_expert_error("pp=4,dp=2", 1, 0, "pp_size 4", NULL, __LINE__);
    /* ep must divide the dense region and not exceed it. */
    expect_expert_error("dp=4,tp=2", 3, 0, "ep_size 3", "8", __LINE__);
    expect_expert_error("dp=4,tp=2", 16, 0, "ep_size 16", "8", __LINE__);
    expect_expert_error("dp=4,tp=2", 5, 0, "ep_size 5", "8", __LINE__);
    expect_expert_error("", 2, 0, "ep_size 2", "1", __LINE__);
    /* num_experts must be divisible by ep. */
    expect_expert_error("dp=4,tp=2", 4, 6, "num_experts 6", "4", __LINE__);
    expect_expert_error("dp=4,tp=2", 8, 4, "num_experts 4", "8", __LINE__);
    expect_expert_error("dp=4,tp=2", 4, -1, "num_experts", "-1", __LINE__);
    /* ep < 1. */
    expect_expert_error("dp=4,tp=2", 0, 0, "ep_size", "0", __LINE__);
    expect_expert_error("dp=4,tp=2", -4, 0, "ep_size", "-4", __LINE__);
    /* NULL arguments. */
    om_error err;
    om_error_clear(&err);
    om_mesh *experts = (om_mesh *)(void *)&err;
    OM_EXPECT_ERR(om_expert_mesh(NULL, 1, 0, &experts, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh");
    OM_EXPECT(experts == NULL);
    om_mesh *mesh = om_test_mesh("dp=2");
    OM_EXPECT_ERR(om_expert_mesh(mesh, 1, 0, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
    om_mesh_free(mesh);
}

static void test_expert_groups_cross_check(void)
{
    /* For several meshes and ep sizes: EP groups are ep consecutive ranks
     * of the dense region, EDP groups every ep-th rank. */
    static const char *const specs[] = {"dp=4,tp=2", "dp=2,cp=3,tp=4", "dp=16",
                                        "cp=2,tp=8,pp=1", "dp=3,tp=5"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        om_mesh *mesh = om_test_mesh(specs[s]);
        int64_t dense = om_mesh_size(mesh);
        for (int64_t ep = 1; ep <= dense; ep++) {
            if (dense % ep)
                continue;
            om_error err;
            om_error_clear(&err);
            om_mesh *experts = NULL;
            OM_EXPECT_OK(om_expert_mesh(mesh, ep, ep * 2, &experts, &err), &err);
            uint64_t ep_mask = 0, edp_mask = 0;
            OM_EXPECT_OK(om_mesh_axes(experts, "ep", &ep_mask, &err), &err);
            OM_EXPECT_OK(om_mesh_axes(experts, "edp", &edp_mask, &err), &err);
            int32_t *out = malloc((size_t)dense * sizeof *out);
            OM_EXPECT_OK(om_mesh_groups(experts, ep_mask, 0, dense / ep, out,
                                        (size_t)dense, &err),
                         &err);
            bool ok = true;
            for (int64_t i = 0; i < dense; i++)
                ok = ok && out[i] == i; /* group g = g*ep .. g*ep+ep-1 */
            om_test_record(ok, __FILE__, __LINE__, "%s ep %lld: EP groups wrong",
                           specs[s], (long long)ep);
            OM_EXPECT_OK(om_mesh_groups(experts, edp_mask, 0, ep, out, (size_t)dense,
                                        &err),
                         &err);
            int64_t edp = dense / ep;
            ok = true;
            for (int64_t g = 0; g < ep; g++)
                for (int64_t m = 0; m < edp; m++)
                    ok = ok && out[g * edp + m] == g + m * ep;
            om_test_record(ok, __FILE__, __LINE__, "%s ep %lld: EDP groups wrong",
                           specs[s], (long long)ep);
            free(out);
            om_mesh_free(experts);
        }
        om_mesh_free(mesh);
    }
}


/* A view's expert layout cuts the view's own ranks, per instance (it used
 * to be the plain mesh of ranks 0..n-1, whatever ranks the view held). */
static void test_expert_views(void)
{
    om_mesh *base = om_test_mesh("dp=4,tp=2"), *views[3] = {NULL};
    om_error err;
    const char *dp[] = {"dp"}, *dptp[] = {"dp", "tp"};
    OM_EXPECT_OK(om_view_flatten(base, dp, 1, "dp", &views[0], &err), &err);
    OM_EXPECT_OK(om_view_new(dptp, 2, (int64_t[]){4, 2}, 2, (int64_t[]){2, 1}, 2, 8, &views[1],
                             &err), &err);
    OM_EXPECT_OK(om_view_new(dptp, 2, (int64_t[]){4, 2}, 2, (int64_t[]){1, 4}, 2, 0, &views[2],
                             &err), &err);
    static const char *const want[3][2] = {
        /* 2 instances: ranks 0,2,4,6 and 1,3,5,7 */
        {"{0,2},{1,3},{4,6},{5,7}", "{0,4},{1,5},{2,6},{3,7}"},
        /* ranks 8..15 */
        {"{8,9},{10,11},{12,13},{14,15}", "{8,10,12,14},{9,11,13,15}"},
        /* row-major order of the view: 0,4,1,5,2,6,3,7 */
        {"{0,4},{1,5},{2,6},{3,7}", "{0,1,2,3},{4,5,6,7}"},
    };
    for (int v = 0; v < 3; v++) {
        om_mesh *experts = NULL;
        OM_EXPECT_OK(om_mesh_reslice_experts(views[v], 2, 0, &experts, &err), &err);
        char *text = groups_text(experts, "ep");
        OM_EXPECT_STR(text, want[v][0]);
        free(text);
        text = groups_text(experts, "edp");
        OM_EXPECT_STR(text, want[v][1]);
        free(text);
        om_mesh_free(experts);
        om_mesh_free(views[v]);
    }
    /* Ranks 0,1,2 and 8,9,10: an ep of 2 would cut the run of 3. */
    om_mesh *odd = NULL, *experts = (om_mesh *)&odd;
    const char *ab[] = {"a", "b"};
    OM_EXPECT_OK(om_view_new(ab, 2, (int64_t[]){2, 3}, 2, (int64_t[]){8, 1}, 2, 0, &odd, &err),
                 &err);
    OM_EXPECT_ERR(om_mesh_reslice_experts(odd, 2, 0, &experts, &err), &err, OM_ERR_UNALIGNED,
                  "");
    OM_EXPECT(experts == NULL);
    om_mesh_free(odd);
    /* No axes: the one rank 5, then 2 instances at ranks 3 and 7 (a
     * world's 0-axis view); both keep their ranks (were rank 0). */
    om_mesh *point = NULL, *pair = NULL;
    OM_EXPECT_OK(om_view_new(NULL, 0, NULL, 0, NULL, 0, 5, &point, &err), &err);
    OM_EXPECT_OK(om_view_new_modes(NULL, 0, NULL, 0, NULL, 0, (int64_t[]){2, 4}, 2, 3, &pair,
                                   &err), &err);
    static const char *const want_points[2] = {"{5}", "{3},{7}"};
    om_mesh *points[2] = {point, pair};
    for (int v = 0; v < 2; v++) {
        om_mesh *experts_of = NULL;
        OM_EXPECT_OK(om_mesh_reslice_experts(points[v], 1, 0, &experts_of, &err), &err);
        char *text = groups_text(experts_of, "ep");
        OM_EXPECT_STR(text, want_points[v]);
        free(text);
        OM_EXPECT(om_view_offset(experts_of) == om_view_offset(points[v]));
        om_mesh_free(experts_of);
        om_mesh_free(points[v]);
    }
    om_mesh_free(base);
}

/* ---- 1.1 names: same results as the 1.0 names ---- */

static void test_new_names(void)
{
    om_mesh *mesh = om_test_mesh("dp=4,cp=2,tp=2");
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_OK(om_mesh_validate_plan(mesh, 2, 2, 1, &err), &err);
    OM_EXPECT_ERR(om_mesh_validate_plan(mesh, 4, 2, 1, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "tp_size 4 does not match");
    OM_EXPECT_ERR(om_validate_axes(mesh, 4, 2, 1, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "tp_size 4 does not match");
    char *a = NULL, *b = NULL;
    OM_EXPECT_OK(om_mesh_plan_axes(mesh, 2, 2, 4, &a, &err), &err);
    OM_EXPECT_OK(om_plan_dim_names(mesh, 2, 2, 4, &b, &err), &err);
    OM_EXPECT_STR(a, "cp,tp");
    OM_EXPECT_STR(b, a);
    om_string_free(a);
    om_string_free(b);
    OM_EXPECT_ERR(om_mesh_plan_axes(mesh, 0, 1, 1, &a, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "tp_size must be >= 1");
    OM_EXPECT(a == NULL);
    om_mesh *x = NULL, *y = NULL;
    OM_EXPECT_OK(om_mesh_reslice_experts(mesh, 4, 8, &x, &err), &err);
    OM_EXPECT_OK(om_expert_mesh(mesh, 4, 8, &y, &err), &err);
    OM_EXPECT(om_mesh_equal(x, y));
    OM_EXPECT(om_mesh_dim_size(x, 0) == 4 && om_mesh_dim_size(x, 1) == 4);
    om_mesh_free(x);
    om_mesh_free(y);
    OM_EXPECT_ERR(om_mesh_reslice_experts(mesh, 3, 0, &x, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "ep_size 3 does not divide");
    OM_EXPECT(x == NULL);
    om_mesh_free(mesh);
}

static const om_test_case preflight_tests[] = {
    {"1.1 names give the 1.0 results", test_new_names},
    {"validate_axes: accepted plans", test_validate_ok},
    {"validate_axes: failed checks", test_validate_failures},
    {"validate_axes: bad arguments", test_validate_arguments},
    {"plan_dim_names", test_plan_dim_names},
    {"plan_dim_names: bad arguments", test_plan_arguments},
    {"expert mesh: DOMAIN example", test_expert_domain_example},
    {"expert mesh: shapes", test_expert_shapes},
    {"expert mesh: errors", test_expert_errors},
    {"expert mesh: EP/EDP groups", test_expert_groups_cross_check},
    {"expert mesh of views: their own ranks", test_expert_views},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"preflight", NULL, NULL, preflight_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
