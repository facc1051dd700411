/* build_offline_mesh's axis rules, runtime axis orders and
 * om_order_normalize.
 * SPDX-License-Identifier: MIT */
#include <string.h>

#include "om_test.h"

/* Dims from five sizes (dp, tp, cp, ep, pp). */
static om_dims *dims_of(int64_t dp, int64_t tp, int64_t cp, int64_t ep, int64_t pp)
{
    om_error err;
    om_error_clear(&err);
    om_dims *dims = NULL;
    OM_EXPECT_OK(om_dims_new(&dims, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_DP, dp, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_TP, tp, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_CP, cp, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_EP, ep, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_PP, pp, &err), &err);
    return dims;
}

static char *spec_of(const om_mesh *mesh)
{
    om_error err;
    om_error_clear(&err);
    char *text = NULL;
    OM_EXPECT_OK(om_mesh_to_spec(mesh, &text, &err), &err);
    return text;
}

static void expect_offline(int64_t dp, int64_t tp, int64_t cp, int64_t ep,
                           int64_t pp, const char *want, unsigned line)
{
    om_dims *dims = dims_of(dp, tp, cp, ep, pp);
    om_error err;
    om_test_poison(&err);
    om_mesh *mesh = NULL;
    om_status st = om_build_offline_mesh(dims, &mesh, &err);
    om_test_record(st == OM_OK && om_test_is_poisoned(&err), __FILE__, line,
                   "build_offline_mesh: %s", st == OM_OK ? "" : err.message);
    char *text = mesh ? spec_of(mesh) : NULL;
    om_test_record(text && strcmp(text, want) == 0, __FILE__, line,
                   "dp=%lld tp=%lld cp=%lld ep=%lld pp=%lld gave \"%s\", expected \"%s\"",
                   (long long)dp, (long long)tp, (long long)cp, (long long)ep,
                   (long long)pp, text ? text : "(null)", want);
    om_string_free(text);
    om_mesh_free(mesh);
    om_dims_free(dims);
}

static void test_offline_rules(void)
{
    /* dp, cp, tp in that order, present even at size 1. */
    expect_offline(1, 1, 1, 1, 1, "dp=1,cp=1,tp=1", __LINE__);
    expect_offline(2, 2, 2, 1, 1, "dp=2,cp=2,tp=2", __LINE__);
    expect_offline(8, 4, 2, 1, 1, "dp=8,cp=2,tp=4", __LINE__);
    /* pp appended last, only when > 1. */
    expect_offline(2, 4, 1, 1, 2, "dp=2,cp=1,tp=4,pp=2", __LINE__);
    expect_offline(2, 4, 1, 1, 1, "dp=2,cp=1,tp=4", __LINE__);
    /* ep is never an axis. */
    expect_offline(2, 4, 1, 8, 1, "dp=2,cp=1,tp=4", __LINE__);
    expect_offline(2, 4, 1, 8, 3, "dp=2,cp=1,tp=4,pp=3", __LINE__);
    /* Size 0 = not declared: dp/cp/tp left out; pp/ep at 0 behave as 1. */
    expect_offline(0, 4, 1, 1, 1, "cp=1,tp=4", __LINE__);
    expect_offline(2, 0, 0, 1, 1, "dp=2", __LINE__);
    expect_offline(0, 0, 0, 0, 0, "", __LINE__);
    expect_offline(0, 0, 0, 0, 4, "pp=4", __LINE__);
    expect_offline(2, 2, 0, 0, 0, "dp=2,tp=2", __LINE__);
    expect_offline(0, 2, 3, 1, 1, "cp=3,tp=2", __LINE__);
}

static void test_offline_accessors(void)
{
    om_dims *dims = dims_of(4, 2, 1, 8, 1);
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = NULL;
    OM_EXPECT_OK(om_build_offline_mesh(dims, &mesh, &err), &err);
    OM_EXPECT_INT(om_mesh_size(mesh), 8);
    OM_EXPECT_INT(om_mesh_size_of(mesh, "tp"), 2);
    OM_EXPECT_INT(om_mesh_size_of(mesh, "ep"), 1);
    OM_EXPECT_INT(om_mesh_index_of(mesh, "ep"), -1);
    OM_EXPECT_INT(om_mesh_index_of(mesh, "pp"), -1);
    /* ep_size travels beside the mesh. */
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_EP), 8);
    om_mesh_free(mesh);
    om_dims_free(dims);
}

static void test_offline_errors(void)
{
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = (om_mesh *)(void *)&err;
    OM_EXPECT_ERR(om_build_offline_mesh(NULL, &mesh, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "dims");
    OM_EXPECT(mesh == NULL);
    om_dims *dims = dims_of(65536, 65536, 1, 1, 1);
    OM_EXPECT_ERR(om_build_offline_mesh(dims, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
    mesh = (om_mesh *)(void *)&err;
    OM_EXPECT_ERR(om_build_offline_mesh(dims, &mesh, &err), &err,
                  OM_ERR_MESH_TOO_LARGE, "65536");
    OM_EXPECT(mesh == NULL);
    om_dims_free(dims);
    /* pp counts towards the total. */
    dims = dims_of(1024, 1024, 1024, 1, 2);
    OM_EXPECT_ERR(om_build_offline_mesh(dims, &mesh, &err), &err,
                  OM_ERR_MESH_TOO_LARGE, "size 2");
    om_dims_free(dims);
    /* ep does not (it is no axis). */
    dims = dims_of(2, 2, 1, 2147483647, 1);
    OM_EXPECT_OK(om_build_offline_mesh(dims, &mesh, &err), &err);
    OM_EXPECT_INT(om_mesh_size(mesh), 4);
    om_mesh_free(mesh);
    om_dims_free(dims);
}

static void expect_runtime(const om_dims *dims, const char *order,
                           const char *want, unsigned line)
{
    om_error err;
    om_test_poison(&err);
    om_mesh *mesh = NULL;
    om_status st = om_build_runtime_mesh(dims, order, &mesh, &err);
    om_test_record(st == OM_OK && om_test_is_poisoned(&err), __FILE__, line,
                   "build_runtime_mesh(\"%s\"): %s", order,
                   st == OM_OK ? "" : err.message);
    char *text = mesh ? spec_of(mesh) : NULL;
    om_test_record(text && strcmp(text, want) == 0, __FILE__, line,
                   "order \"%s\" gave \"%s\", expected \"%s\"", order,
                   text ? text : "(null)", want);
    om_string_free(text);
    om_mesh_free(mesh);
}

static void test_runtime_orders(void)
{
    om_dims *dims = dims_of(2, 4, 3, 8, 5);
    /* Slowest first, as PyTorch/JAX/MPI write meshes. */
    expect_runtime(dims, "pp,dp,cp,tp", "pp=5,dp=2,cp=3,tp=4", __LINE__);
    expect_runtime(dims, "dp,cp,tp,pp", "dp=2,cp=3,tp=4,pp=5", __LINE__);
    expect_runtime(dims, "tp,cp,dp,pp", "tp=4,cp=3,dp=2,pp=5", __LINE__);
    expect_runtime(dims, " pp , dp ,cp,\ttp ", "pp=5,dp=2,cp=3,tp=4", __LINE__);
    /* ep named but not an axis: skipped. */
    expect_runtime(dims, "pp,dp,ep,cp,tp", "pp=5,dp=2,cp=3,tp=4", __LINE__);
    /* Megatron: fastest first; tp-cp-ep-dp-pp is the mesh pp,dp,ep,cp,tp. */
    expect_runtime(dims, "tp-cp-ep-dp-pp", "pp=5,dp=2,cp=3,tp=4", __LINE__);
    expect_runtime(dims, "tp-cp-dp-pp", "pp=5,dp=2,cp=3,tp=4", __LINE__);
    expect_runtime(dims, "tp-dp-cp-pp", "pp=5,cp=3,dp=2,tp=4", __LINE__);
    expect_runtime(dims, "pp-tp-cp-dp", "dp=2,cp=3,tp=4,pp=5", __LINE__);
    om_dims_free(dims);
    /* A runtime mesh has the offline mesh's axes and total. */
    dims = dims_of(2, 4, 1, 1, 2);
    expect_runtime(dims, "tp-cp-ep-dp-pp", "pp=2,dp=2,cp=1,tp=4", __LINE__);
    /* pp at size 1 is skipped when named. */
    om_dims_free(dims);
    dims = dims_of(2, 4, 1, 1, 1);
    expect_runtime(dims, "tp-cp-ep-dp-pp", "dp=2,cp=1,tp=4", __LINE__);
    expect_runtime(dims, "pp,dp,cp,tp", "dp=2,cp=1,tp=4", __LINE__);
    om_dims_free(dims);
}

static void test_runtime_omitted_trivial_axes(void)
{
    /* Size-1 axes the order omits stay outermost, in offline order. */
    om_dims *dims = dims_of(2, 4, 1, 1, 1);
    expect_runtime(dims, "tp,dp", "cp=1,tp=4,dp=2", __LINE__);
    expect_runtime(dims, "dp-tp", "cp=1,tp=4,dp=2", __LINE__);
    om_dims_free(dims);
    dims = dims_of(1, 8, 1, 1, 1);
    expect_runtime(dims, "tp", "dp=1,cp=1,tp=8", __LINE__);
    om_dims_free(dims);
    /* Not-declared axes (size 0) are not in the mesh at all. */
    dims = dims_of(0, 8, 0, 1, 2);
    expect_runtime(dims, "pp,dp,cp,tp", "pp=2,tp=8", __LINE__);
    expect_runtime(dims, "tp-pp", "pp=2,tp=8", __LINE__);
    om_dims_free(dims);
}

static void expect_runtime_error(const om_dims *dims, const char *order,
                                 const char *needle1, const char *needle2,
                                 unsigned line)
{
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = (om_mesh *)(void *)&err;
    om_status st = om_build_runtime_mesh(dims, order, &mesh, &err);
    om_test_record(st == OM_ERR_INVALID_ARGUMENT && err.status == st, __FILE__,
                   line, "order \"%s\" returned %d: %s", order ? order : "NULL",
                   (int)st, err.message);
    om_test_record(mesh == NULL, __FILE__, line, "*out not reset");
    if (needle1)
        om_test_record(strstr(err.message, needle1) != NULL, __FILE__, line,
                       "message \"%s\" lacks \"%s\"", err.message, needle1);
    if (needle2)
        om_test_record(strstr(err.message, needle2) != NULL, __FILE__, line,
                       "message \"%s\" lacks \"%s\"", err.message, needle2);
    /* om_order_normalize() rejects the same orders, except for the omitted
     * axis (which needs dims). */
    if (order && needle2 && strcmp(needle2, "omitted") == 0)
        return;
    char *text = (char *)"sentinel";
    om_error err2;
    om_error_clear(&err2);
    om_status st2 = om_order_normalize(order, &text, &err2);
    om_test_record(st2 == OM_ERR_INVALID_ARGUMENT && text == NULL &&
                       strcmp(err.message, err2.message) == 0,
                   __FILE__, line, "normalize(\"%s\") returned %d: %s",
                   order ? order : "NULL", (int)st2, err2.message);
}

static void test_runtime_errors(void)
{
    om_dims *dims = dims_of(2, 4, 1, 1, 2);
    expect_runtime_error(dims, "pp,dp,xp,tp", "\"xp\"", "pp,dp,xp,tp", __LINE__);
    expect_runtime_error(dims, "pp,dp,TP", "\"TP\"", NULL, __LINE__);
    expect_runtime_error(dims, "pp,dp,tp,dp", "\"dp\"", "twice", __LINE__);
    expect_runtime_error(dims, "tp-tp", "\"tp\"", "twice", __LINE__);
    expect_runtime_error(dims, "pp,dp-tp", "mixes", NULL, __LINE__);
    expect_runtime_error(dims, "pp,,dp,tp", "empty", NULL, __LINE__);
    expect_runtime_error(dims, "pp,dp,tp,", "empty", NULL, __LINE__);
    expect_runtime_error(dims, "-pp-dp-tp", "empty", NULL, __LINE__);
    expect_runtime_error(dims, "pp, ,dp,tp", "empty", NULL, __LINE__);
    expect_runtime_error(dims, "pp dp tp", "\"pp dp tp\"", NULL, __LINE__);
    expect_runtime_error(dims, NULL, "NULL", NULL, __LINE__);

    /* An axis of size > 1 that the order omits, naming axis and size. */
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = (om_mesh *)(void *)&err;
    OM_EXPECT_ERR(om_build_runtime_mesh(dims, "dp,tp", &mesh, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "pp", "2");
    OM_EXPECT(mesh == NULL);
    OM_EXPECT_ERR(om_build_runtime_mesh(dims, "pp,dp", &mesh, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "tp", "4");
    OM_EXPECT_ERR(om_build_runtime_mesh(dims, "tp-pp", &mesh, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "dp", "2");
    /* NULL dims / out. */
    OM_EXPECT_ERR(om_build_runtime_mesh(NULL, "pp,dp,tp", &mesh, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "dims");
    OM_EXPECT_ERR(om_build_runtime_mesh(dims, "pp,dp,tp", NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
    om_dims_free(dims);
    /* Too large a mesh. */
    dims = dims_of(65536, 65536, 1, 1, 1);
    OM_EXPECT_ERR(om_build_runtime_mesh(dims, "dp,cp,tp", &mesh, &err), &err,
                  OM_ERR_MESH_TOO_LARGE, "65536");
    om_dims_free(dims);
}

static void expect_normalize(const char *order, const char *want, unsigned line)
{
    om_error err;
    om_test_poison(&err);
    char *text = NULL;
    om_status st = om_order_normalize(order, &text, &err);
    om_test_record(st == OM_OK && om_test_is_poisoned(&err), __FILE__, line,
                   "normalize(\"%s\"): %s", order, st == OM_OK ? "" : err.message);
    om_test_record(text && strcmp(text, want) == 0, __FILE__, line,
                   "normalize(\"%s\") gave \"%s\", expected \"%s\"", order,
                   text ? text : "(null)", want);
    om_string_free(text);
}

static void test_normalize(void)
{
    expect_normalize("tp-cp-ep-dp-pp", "pp,dp,ep,cp,tp", __LINE__);
    expect_normalize("pp,dp,cp,tp", "pp,dp,cp,tp", __LINE__);
    expect_normalize("pp,dp,ep,cp,tp", "pp,dp,ep,cp,tp", __LINE__);
    expect_normalize(" pp , dp,cp ,tp ", "pp,dp,cp,tp", __LINE__);
    expect_normalize("tp - dp", "dp,tp", __LINE__);
    expect_normalize("tp-dp-pp", "pp,dp,tp", __LINE__);
    expect_normalize("tp", "tp", __LINE__);
    expect_normalize("ep", "ep", __LINE__);
    expect_normalize("cp-tp", "tp,cp", __LINE__);
    /* Normalising twice changes nothing. */
    char *once = NULL, *twice = NULL;
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_OK(om_order_normalize("tp-cp-dp-pp", &once, &err), &err);
    OM_EXPECT_OK(om_order_normalize(once ? once : "", &twice, &err), &err);
    OM_EXPECT_STR(twice, once);
    om_string_free(once);
    om_string_free(twice);
    OM_EXPECT_ERR(om_order_normalize("tp,dp", NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
}

static void test_runtime_agrees_with_normalize(void)
{
    /* Building with a Megatron order equals building with its normal form. */
    static const char *const orders[] = {
        "tp-cp-ep-dp-pp", "tp-dp-cp-pp", "pp-dp-cp-tp", "cp-tp-pp-dp",
        "dp-pp-tp-cp",    "ep-tp-cp-pp-dp",
    };
    om_dims *dims = dims_of(2, 3, 5, 7, 11);
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++) {
        om_error err;
        om_error_clear(&err);
        char *normal = NULL;
        om_mesh *a = NULL, *b = NULL;
        OM_EXPECT_OK(om_order_normalize(orders[i], &normal, &err), &err);
        OM_EXPECT_OK(om_build_runtime_mesh(dims, orders[i], &a, &err), &err);
        OM_EXPECT_OK(om_build_runtime_mesh(dims, normal ? normal : "", &b, &err),
                     &err);
        OM_EXPECT(om_mesh_equal(a, b));
        OM_EXPECT_INT(om_mesh_size(a), 2 * 3 * 5 * 11);
        om_mesh_free(a);
        om_mesh_free(b);
        om_string_free(normal);
    }
    om_dims_free(dims);
}


/* ---- 1.1 names: same results as the 1.0 names ---- */

static void test_new_names(void)
{
    om_dims *dims = NULL;
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_OK(om_dims_new(&dims, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_DP, 2, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_TP, 4, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_PP, 2, &err), &err);
    om_mesh *a = NULL, *b = NULL;
    OM_EXPECT_OK(om_mesh_from_dims(dims, &a, &err), &err);
    OM_EXPECT_OK(om_build_offline_mesh(dims, &b, &err), &err);
    OM_EXPECT(om_mesh_equal(a, b) && om_mesh_ndim(a) == 4);
    om_mesh_free(a);
    om_mesh_free(b);
    OM_EXPECT_OK(om_mesh_from_dims_in_order(dims, "tp-cp-ep-dp-pp", &a, &err), &err);
    OM_EXPECT_OK(om_build_runtime_mesh(dims, "tp-cp-ep-dp-pp", &b, &err), &err);
    OM_EXPECT(om_mesh_equal(a, b));
    OM_EXPECT_STR(om_mesh_name(a, 0), "pp");
    OM_EXPECT_STR(om_mesh_name(a, 1), "dp");
    OM_EXPECT_STR(om_mesh_name(a, 2), "cp");
    om_mesh_free(a);
    om_mesh_free(b);
    char *x = NULL, *y = NULL;
    OM_EXPECT_OK(om_axis_order_normalize("tp-cp-ep-dp-pp", &x, &err), &err);
    OM_EXPECT_OK(om_order_normalize("tp-cp-ep-dp-pp", &y, &err), &err);
    OM_EXPECT_STR(x, "pp,dp,ep,cp,tp");
    OM_EXPECT_STR(y, x);
    om_string_free(x);
    om_string_free(y);
    /* Same errors too. */
    OM_EXPECT_ERR(om_mesh_from_dims(NULL, &a, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "dims is NULL");
    OM_EXPECT_ERR(om_mesh_from_dims(dims, NULL, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "NULL");
    OM_EXPECT_ERR(om_mesh_from_dims_in_order(dims, "dp,cp", &a, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "does not place axis tp");
    OM_EXPECT(a == NULL);
    OM_EXPECT_ERR(om_axis_order_normalize("dp,dp", &x, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "twice");
    OM_EXPECT(x == NULL);
    om_dims_free(dims);
}

static const om_test_case build_tests[] = {
    {"1.1 names give the 1.0 results", test_new_names},
    {"offline axis rules", test_offline_rules},
    {"offline mesh accessors, ep beside", test_offline_accessors},
    {"offline errors", test_offline_errors},
    {"runtime orders", test_runtime_orders},
    {"runtime: omitted size-1 axes outermost", test_runtime_omitted_trivial_axes},
    {"runtime: errors", test_runtime_errors},
    {"order_normalize", test_normalize},
    {"runtime agrees with normalize", test_runtime_agrees_with_normalize},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"build", NULL, NULL, build_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
