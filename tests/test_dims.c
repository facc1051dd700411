/* Parallel dims: defaults, setters, flags, copies and canonical JSON.
 * SPDX-License-Identifier: MIT */
#include <string.h>

#include "om_test.h"

static om_dims *fresh(void)
{
    om_error err;
    om_error_clear(&err);
    om_dims *dims = NULL;
    OM_EXPECT_OK(om_dims_new(&dims, &err), &err);
    return dims;
}

static char *json_of(const om_dims *dims)
{
    om_error err;
    om_error_clear(&err);
    char *text = NULL;
    OM_EXPECT_OK(om_dims_to_json(dims, &text, &err), &err);
    return text;
}

static void test_defaults(void)
{
    om_dims *dims = fresh();
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_DP), 1);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_TP), 1);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_CP), 1);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_EP), 1);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_PP), 1);
    OM_EXPECT(!om_dims_get_flag(dims, OM_FLAG_SEQUENCE_PARALLEL));
    OM_EXPECT(!om_dims_get_flag(dims, OM_FLAG_LOSS_PARALLEL));
    char *text = json_of(dims);
    OM_EXPECT_STR(text, "{\"cp_size\":1,\"dp_size\":1,\"ep_size\":1,"
                        "\"loss_parallel\":false,\"pp_size\":1,"
                        "\"sequence_parallel\":false,\"tp_size\":1}");
    om_string_free(text);
    om_dims_free(dims);
}

static void test_names(void)
{
    OM_EXPECT_INT(OM_DIM_DP, 0);
    OM_EXPECT_INT(OM_DIM_TP, 1);
    OM_EXPECT_INT(OM_DIM_CP, 2);
    OM_EXPECT_INT(OM_DIM_EP, 3);
    OM_EXPECT_INT(OM_DIM_PP, 4);
    OM_EXPECT_INT(OM_FLAG_SEQUENCE_PARALLEL, 0);
    OM_EXPECT_INT(OM_FLAG_LOSS_PARALLEL, 1);
    OM_EXPECT_STR(om_dim_field_name(OM_DIM_DP), "dp_size");
    OM_EXPECT_STR(om_dim_field_name(OM_DIM_TP), "tp_size");
    OM_EXPECT_STR(om_dim_field_name(OM_DIM_CP), "cp_size");
    OM_EXPECT_STR(om_dim_field_name(OM_DIM_EP), "ep_size");
    OM_EXPECT_STR(om_dim_field_name(OM_DIM_PP), "pp_size");
    OM_EXPECT_STR(om_dim_axis_name(OM_DIM_DP), "dp");
    OM_EXPECT_STR(om_dim_axis_name(OM_DIM_TP), "tp");
    OM_EXPECT_STR(om_dim_axis_name(OM_DIM_CP), "cp");
    OM_EXPECT_STR(om_dim_axis_name(OM_DIM_EP), "ep");
    OM_EXPECT_STR(om_dim_axis_name(OM_DIM_PP), "pp");
    OM_EXPECT_STR(om_flag_field_name(OM_FLAG_SEQUENCE_PARALLEL), "sequence_parallel");
    OM_EXPECT_STR(om_flag_field_name(OM_FLAG_LOSS_PARALLEL), "loss_parallel");
    OM_EXPECT(om_dim_field_name((om_dim)5) == NULL);
    OM_EXPECT(om_dim_field_name((om_dim)-1) == NULL);
    OM_EXPECT(om_dim_axis_name((om_dim)5) == NULL);
    OM_EXPECT(om_dim_axis_name((om_dim)-1) == NULL);
    OM_EXPECT(om_flag_field_name((om_flag)2) == NULL);
    OM_EXPECT(om_flag_field_name((om_flag)-1) == NULL);
}

static void test_set_get(void)
{
    om_dims *dims = fresh();
    om_error err;
    om_test_poison(&err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_DP, 8, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_TP, 4, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_CP, 2, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_EP, 16, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_PP, 3, &err), &err);
    OM_EXPECT(om_test_is_poisoned(&err));
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_DP), 8);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_TP), 4);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_CP), 2);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_EP), 16);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_PP), 3);
    /* 0 means "not declared" and is stored as 0. */
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_CP, 0, &err), &err);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_CP), 0);
    /* The upper limit. */
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_EP, 2147483647, &err), &err);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_EP), 2147483647);
    om_dims_free(dims);
}

static void test_set_errors(void)
{
    om_dims *dims = fresh();
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_TP, 4, &err), &err);
    OM_EXPECT_ERR(om_dims_set(dims, OM_DIM_TP, -1, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "tp_size", "-1");
    OM_EXPECT_ERR(om_dims_set(dims, OM_DIM_TP, INT64_MIN, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "tp_size", "-9223372036854775808");
    OM_EXPECT_ERR(om_dims_set(dims, OM_DIM_TP, 2147483648LL, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "tp_size", "2147483648");
    OM_EXPECT_ERR(om_dims_set(dims, OM_DIM_PP, INT64_MAX, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "pp_size", "9223372036854775807");
    OM_EXPECT_ERR(om_dims_set(dims, (om_dim)5, 2, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "5");
    OM_EXPECT_ERR(om_dims_set(dims, (om_dim)-1, 2, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "-1");
    OM_EXPECT_ERR(om_dims_set(NULL, OM_DIM_TP, 2, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    /* On error the handle is unchanged. */
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_TP), 4);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_PP), 1);
    om_dims_free(dims);
}

static void test_get_invalid(void)
{
    om_dims *dims = fresh();
    OM_EXPECT_INT(om_dims_get(NULL, OM_DIM_TP), -1);
    OM_EXPECT_INT(om_dims_get(dims, (om_dim)5), -1);
    OM_EXPECT_INT(om_dims_get(dims, (om_dim)-1), -1);
    OM_EXPECT(!om_dims_get_flag(NULL, OM_FLAG_LOSS_PARALLEL));
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_OK(om_dims_set_flag(dims, OM_FLAG_LOSS_PARALLEL, true, &err), &err);
    OM_EXPECT(!om_dims_get_flag(dims, (om_flag)2));
    OM_EXPECT(!om_dims_get_flag(dims, (om_flag)-1));
    om_dims_free(dims);
}

static void test_flags(void)
{
    om_dims *dims = fresh();
    om_error err;
    om_test_poison(&err);
    OM_EXPECT_OK(om_dims_set_flag(dims, OM_FLAG_SEQUENCE_PARALLEL, true, &err), &err);
    OM_EXPECT(om_test_is_poisoned(&err));
    OM_EXPECT(om_dims_get_flag(dims, OM_FLAG_SEQUENCE_PARALLEL));
    OM_EXPECT(!om_dims_get_flag(dims, OM_FLAG_LOSS_PARALLEL));
    OM_EXPECT_OK(om_dims_set_flag(dims, OM_FLAG_LOSS_PARALLEL, true, &err), &err);
    OM_EXPECT(om_dims_get_flag(dims, OM_FLAG_LOSS_PARALLEL));
    OM_EXPECT_OK(om_dims_set_flag(dims, OM_FLAG_SEQUENCE_PARALLEL, false, &err), &err);
    OM_EXPECT(!om_dims_get_flag(dims, OM_FLAG_SEQUENCE_PARALLEL));
    OM_EXPECT(om_dims_get_flag(dims, OM_FLAG_LOSS_PARALLEL));
    om_error_clear(&err);
    OM_EXPECT_ERR(om_dims_set_flag(dims, (om_flag)2, true, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "2");
    OM_EXPECT_ERR(om_dims_set_flag(NULL, OM_FLAG_LOSS_PARALLEL, true, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    om_dims_free(dims);
}

static void test_to_json_exact(void)
{
    om_dims *dims = fresh();
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_DP, 8, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_TP, 4, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_CP, 0, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_EP, 2147483647, &err), &err);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_PP, 2, &err), &err);
    OM_EXPECT_OK(om_dims_set_flag(dims, OM_FLAG_SEQUENCE_PARALLEL, true, &err), &err);
    char *text = json_of(dims);
    OM_EXPECT_STR(text, "{\"cp_size\":0,\"dp_size\":8,\"ep_size\":2147483647,"
                        "\"loss_parallel\":false,\"pp_size\":2,"
                        "\"sequence_parallel\":true,\"tp_size\":4}");
    om_string_free(text);
    OM_EXPECT_OK(om_dims_set_flag(dims, OM_FLAG_LOSS_PARALLEL, true, &err), &err);
    text = json_of(dims);
    OM_EXPECT(text && strstr(text, "\"loss_parallel\":true,") != NULL);
    om_string_free(text);
    om_dims_free(dims);
}

static void test_to_json_null(void)
{
    om_error err;
    om_error_clear(&err);
    char *text = (char *)"sentinel";
    OM_EXPECT_ERR(om_dims_to_json(NULL, &text, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "dims");
    OM_EXPECT(text == NULL);
    om_dims *dims = fresh();
    OM_EXPECT_ERR(om_dims_to_json(dims, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
    om_dims_free(dims);
}

static void test_copy_and_equal(void)
{
    om_dims *a = fresh();
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_OK(om_dims_set(a, OM_DIM_TP, 4, &err), &err);
    OM_EXPECT_OK(om_dims_set_flag(a, OM_FLAG_LOSS_PARALLEL, true, &err), &err);
    om_dims *b = NULL;
    OM_EXPECT_OK(om_dims_copy(a, &b, &err), &err);
    OM_EXPECT(b != NULL && b != a);
    OM_EXPECT(om_dims_equal(a, b));
    OM_EXPECT_INT(om_dims_get(b, OM_DIM_TP), 4);
    OM_EXPECT(om_dims_get_flag(b, OM_FLAG_LOSS_PARALLEL));
    /* Independent: changing the copy leaves the original alone. */
    OM_EXPECT_OK(om_dims_set(b, OM_DIM_TP, 2, &err), &err);
    OM_EXPECT_INT(om_dims_get(a, OM_DIM_TP), 4);
    OM_EXPECT(!om_dims_equal(a, b));
    OM_EXPECT_OK(om_dims_set(b, OM_DIM_TP, 4, &err), &err);
    OM_EXPECT(om_dims_equal(a, b));
    OM_EXPECT_OK(om_dims_set_flag(b, OM_FLAG_LOSS_PARALLEL, false, &err), &err);
    OM_EXPECT(!om_dims_equal(a, b));
    OM_EXPECT_OK(om_dims_set_flag(b, OM_FLAG_LOSS_PARALLEL, true, &err), &err);
    /* Every field takes part in equality. */
    for (int d = OM_DIM_DP; d <= OM_DIM_PP; d++) {
        OM_EXPECT_OK(om_dims_set(b, (om_dim)d, 7, &err), &err);
        OM_EXPECT(!om_dims_equal(a, b));
        OM_EXPECT_OK(om_dims_set(b, (om_dim)d, om_dims_get(a, (om_dim)d), &err), &err);
        OM_EXPECT(om_dims_equal(a, b));
    }
    OM_EXPECT(om_dims_equal(NULL, NULL));
    OM_EXPECT(!om_dims_equal(a, NULL));
    OM_EXPECT(!om_dims_equal(NULL, a));
    OM_EXPECT(om_dims_equal(a, a));
    om_dims_free(a);
    om_dims_free(b);
}

static void test_new_copy_null(void)
{
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_ERR(om_dims_new(NULL, &err), &err, OM_ERR_INVALID_ARGUMENT, "out");
    om_dims *out = (om_dims *)(void *)&err;
    OM_EXPECT_ERR(om_dims_copy(NULL, &out, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "dims");
    OM_EXPECT(out == NULL);
    om_dims *dims = fresh();
    OM_EXPECT_ERR(om_dims_copy(dims, NULL, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "out");
    om_dims_free(dims);
}


/* ---- count constants and the tables ---- */

static void test_counts(void)
{
    OM_EXPECT_INT(OM_DIM_COUNT, 5);
    OM_EXPECT_INT(OM_FLAG_COUNT, 2);
    /* Every value below the count has names; the count itself has none. */
    for (int d = 0; d < OM_DIM_COUNT; d++) {
        const char *field = om_dim_field_name((om_dim)d);
        const char *axis = om_dim_axis_name((om_dim)d);
        OM_EXPECT(field && axis && strncmp(field, axis, strlen(axis)) == 0 &&
                  strcmp(field + strlen(axis), "_size") == 0);
    }
    OM_EXPECT(om_dim_field_name((om_dim)OM_DIM_COUNT) == NULL);
    for (int f = 0; f < OM_FLAG_COUNT; f++)
        OM_EXPECT(om_flag_field_name((om_flag)f) != NULL);
    OM_EXPECT(om_flag_field_name((om_flag)OM_FLAG_COUNT) == NULL);
    /* The JSON form has exactly one key per field of both tables. */
    om_dims *dims = NULL;
    char *json = NULL;
    OM_EXPECT_OK(om_dims_new(&dims, NULL), NULL);
    OM_EXPECT_OK(om_dims_to_json(dims, &json, NULL), NULL);
    int keys = 0;
    for (const char *p = json; *p; p++)
        keys += *p == ':';
    OM_EXPECT_INT(keys, OM_DIM_COUNT + OM_FLAG_COUNT);
    om_string_free(json);
    /* om_dims_set(OM_DIM_DP) marks dp as given; other fields do not. */
    bool given = true;
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_TP, 2, NULL), NULL);
    OM_EXPECT_OK(om_dims_dp_given(dims, &given, NULL), NULL);
    OM_EXPECT(!given);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_DP, 0, NULL), NULL);
    OM_EXPECT_OK(om_dims_dp_given(dims, &given, NULL), NULL);
    OM_EXPECT(given);
    /* A copy keeps it, and the world size applied. */
    OM_EXPECT_OK(om_dims_apply_world_size(dims, 2, OM_WORLD_SIZE_EXPLICIT, NULL), NULL);
    om_dims *copy = NULL;
    OM_EXPECT_OK(om_dims_copy(dims, &copy, NULL), NULL);
    int64_t world = 0;
    om_world_size_source source;
    OM_EXPECT_OK(om_dims_dp_given(copy, &given, NULL), NULL);
    OM_EXPECT_OK(om_dims_world_size(copy, &world, &source, NULL), NULL);
    OM_EXPECT(given && world == 2 && source == OM_WORLD_SIZE_EXPLICIT);
    om_dims_free(copy);
    om_dims_free(dims);
}

static const om_test_case dims_tests[] = {
    {"count constants and tables", test_counts},
    {"defaults", test_defaults},
    {"field and axis names", test_names},
    {"set/get", test_set_get},
    {"set: validation, handle unchanged", test_set_errors},
    {"get: invalid arguments", test_get_invalid},
    {"flags", test_flags},
    {"to_json exact text", test_to_json_exact},
    {"to_json NULL arguments", test_to_json_null},
    {"copy and equality", test_copy_and_equal},
    {"new/copy NULL arguments", test_new_copy_null},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"dims", NULL, NULL, dims_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
