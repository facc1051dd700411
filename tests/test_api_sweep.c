/* What the hostile-argument sweep of every exported function found (NULL
 * for each pointer, boundary integers, bad enums, wrong-state handles,
 * under ASan + UBSan): each bug's input with the status and message the
 * headers promise, and the documented sentinels of the status-less getters
 * for NULL handles and out-of-range indexes.
 * SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <string.h>

#include "om_test.h"

/* ---- bugs ---- */

/* A rank near INT64_MIN on a view with an offset: rank - offset overflowed
 * (undefined behaviour, reported by UBSan) before the range check. */
static void test_view_rank_near_int64_min(void)
{
    const char *names[] = {"a", "b"};
    const int64_t sizes[] = {2, 2}, strides[] = {1, 4};
    om_mesh *v = NULL;
    om_error err;
    OM_EXPECT_OK(om_view_new(names, 2, sizes, 2, strides, 2, 3, &v, &err), &err);
    const int64_t ranks[] = {INT64_MIN, INT64_MIN + 1, INT64_MIN + 2};
    for (size_t i = 0; i < sizeof ranks / sizeof *ranks; i++) {
        int64_t coord[2] = {-7, -7}, index = -7;
        size_t needed = 0;
        OM_EXPECT(!om_view_holds(v, ranks[i]));
        OM_EXPECT_ERR(om_mesh_coordinate_of(v, ranks[i], coord, 2, &needed, &err),
                      &err, OM_ERR_OUT_OF_RANGE, "-92233720368547758");
        OM_EXPECT_ERR(om_mesh_coordinate(v, ranks[i], coord, 2, &err), &err,
                      OM_ERR_OUT_OF_RANGE, "-92233720368547758");
        OM_EXPECT_ERR(om_mesh_group_index_named(v, NULL, 0, ranks[i], &index, &err),
                      &err, OM_ERR_OUT_OF_RANGE, "-92233720368547758");
        OM_EXPECT_INT(coord[0], -7);
        OM_EXPECT_INT(index, -7);
    }
    /* The ranks around the view still decode. */
    int64_t coord[2];
    size_t needed = 0;
    OM_EXPECT_OK(om_mesh_coordinate_of(v, 8, coord, 2, &needed, &err), &err);
    OM_EXPECT_INT(coord[0], 1);
    OM_EXPECT_INT(coord[1], 1);
    OM_EXPECT_ERR(om_mesh_coordinate_of(v, 2, coord, 2, &needed, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "2");
    om_mesh_free(v);
}

/* dims whose tp*cp*dp*pp overflows int64 (each size is valid, 2^31-1):
 * the advice multiplied them unchecked (undefined behaviour). Refused as
 * om_mesh_from_dims() refuses the same dims. */
static void test_order_advice_world_overflow(void)
{
    om_error err;
    om_dims *d = NULL;
    om_hierarchy *h = NULL;
    OM_EXPECT_OK(om_dims_new(&d, &err), &err);
    OM_EXPECT_OK(om_hierarchy_from_spec("host=8", &h, &err), &err);
    const om_dim dims[] = {OM_DIM_TP, OM_DIM_CP, OM_DIM_DP, OM_DIM_PP};
    for (size_t i = 0; i < 4; i++)
        OM_EXPECT_OK(om_dims_set(d, dims[i], OM_MAX_RANKS, &err), &err);
    char *out = (char *)"untouched";
    size_t count = 77;
    OM_EXPECT_ERR(om_order_advice(d, h, NULL, NULL, NULL, &out, &err), &err,
                  OM_ERR_MESH_TOO_LARGE, "exceeds 2^31-1", "2147483647");
    OM_EXPECT_ERR(om_order_check(d, h, "tp-cp-dp-pp", NULL, &out, &count, &err),
                  &err, OM_ERR_MESH_TOO_LARGE, "exceeds 2^31-1");
    om_mesh *m = NULL;
    OM_EXPECT_ERR(om_mesh_from_dims(d, &m, &err), &err, OM_ERR_MESH_TOO_LARGE,
                  "2147483647");
    /* Within int64 but over 2^31-1 ranks: no mesh holds it either. */
    OM_EXPECT_OK(om_dims_set(d, OM_DIM_TP, 65536, &err), &err);
    OM_EXPECT_OK(om_dims_set(d, OM_DIM_CP, 1, &err), &err);
    OM_EXPECT_OK(om_dims_set(d, OM_DIM_DP, 65536, &err), &err);
    OM_EXPECT_OK(om_dims_set(d, OM_DIM_PP, 1, &err), &err);
    OM_EXPECT_ERR(om_order_advice(d, h, NULL, NULL, NULL, &out, &err), &err,
                  OM_ERR_MESH_TOO_LARGE, "dp_size 65536");
    /* The largest world that fits still gets advice. */
    OM_EXPECT_OK(om_dims_set(d, OM_DIM_TP, 2, &err), &err);
    OM_EXPECT_OK(om_dims_set(d, OM_DIM_DP, 4, &err), &err);
    OM_EXPECT_OK(om_order_advice(d, h, NULL, NULL, NULL, &out, &err), &err);
    OM_EXPECT(strstr(out, "\"megatron\":\"tp-dp\"") != NULL);
    om_string_free(out);
    om_hierarchy_free(h);
    om_dims_free(d);
}

/* A NULL rank buffer with out_len > 0 was written through (a crash); only
 * the size query (NULL, 0) may pass no buffer. */
static void test_preset_group_list_null_buffer(void)
{
    om_error err;
    om_preset *p = NULL;
    OM_EXPECT_OK(om_preset_new("megatron", NULL, 0, 8, &p, &err), &err);
    size_t needed = 77, size = 77;
    OM_EXPECT_ERR(om_preset_group_list(p, "tp", NULL, 8, &needed, &size, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "NULL", "8");
    OM_EXPECT_INT(needed, 77);
    OM_EXPECT_ERR(om_preset_group_list(p, "tp", NULL, 1, NULL, NULL, NULL), NULL,
                  OM_ERR_INVALID_ARGUMENT, NULL);
    OM_EXPECT_INT(om_preset_group_list(p, "tp", NULL, 0, &needed, &size, &err),
                  OM_ERR_BUFFER_TOO_SMALL);
    OM_EXPECT_INT(needed, 8);
    OM_EXPECT_INT(size, 1);
    om_preset_free(p);
}

/* ---- documented sentinels (kept: the sweep checked every one) ---- */

static void test_getter_sentinels(void)
{
    om_error err;
    om_mesh *m = NULL;
    const char *names[] = {"dp", "tp"};
    const int64_t sizes[] = {2, 4};
    OM_EXPECT_OK(om_mesh_new(names, sizes, 2, &m, &err), &err);
    const size_t bad[] = {2, 64, SIZE_MAX};
    for (size_t i = 0; i < 3; i++) {
        OM_EXPECT(om_mesh_name(m, bad[i]) == NULL);
        OM_EXPECT_INT(om_mesh_dim_size(m, bad[i]), 0);
        OM_EXPECT_INT(om_view_mode_count(m, bad[i]), 0);
    }
    OM_EXPECT_INT(om_mesh_ndim(NULL), 0);
    OM_EXPECT_INT(om_mesh_size(NULL), 0);
    OM_EXPECT_INT(om_mesh_size_of(NULL, "tp"), 1);
    OM_EXPECT_INT(om_mesh_size_of(m, NULL), 1);
    OM_EXPECT_INT(om_mesh_index_of(m, NULL), -1);
    OM_EXPECT_INT(om_mesh_hash(NULL), 0);
    OM_EXPECT_INT(om_view_offset(NULL), 0);
    OM_EXPECT_INT(om_view_instance_count(NULL), 0);
    OM_EXPECT_INT(om_view_rank_count(NULL), 0);
    OM_EXPECT_INT(om_view_extent(NULL), 0);
    OM_EXPECT(!om_view_holds(NULL, 0));
    OM_EXPECT(!om_view_holds(m, INT64_MIN));
    OM_EXPECT(!om_view_holds(m, 8));
    const int bad_enum[] = {-1, 1000, INT32_MIN, INT32_MAX};
    for (size_t i = 0; i < 4; i++) {
        OM_EXPECT(om_status_name((om_status)bad_enum[i]) == NULL);
        OM_EXPECT_STR(om_status_string((om_status)bad_enum[i]), "unknown status");
        OM_EXPECT(om_dim_field_name((om_dim)bad_enum[i]) == NULL);
        OM_EXPECT(om_dim_axis_name((om_dim)bad_enum[i]) == NULL);
        OM_EXPECT(om_flag_field_name((om_flag)bad_enum[i]) == NULL);
        OM_EXPECT(om_world_size_source_string((om_world_size_source)bad_enum[i]) == NULL);
        OM_EXPECT(om_world_size_source_variable((om_world_size_source)bad_enum[i]) == NULL);
        OM_EXPECT_INT(om_dims_get(NULL, (om_dim)bad_enum[i]), -1);
    }
    OM_EXPECT_INT(om_diagnostics_count(NULL), 0);
    OM_EXPECT_INT(om_diagnostics_kind(NULL, 0), -1);
    OM_EXPECT_INT(om_diagnostics_line(NULL, SIZE_MAX), -1);
    OM_EXPECT_INT(om_world_size(NULL), 0);
    OM_EXPECT_INT(om_world_view_index(NULL, "x"), -1);
    OM_EXPECT(om_world_axis_view(NULL, "x") == NULL);
    OM_EXPECT_INT(om_hierarchy_levels(NULL), 0);
    OM_EXPECT_INT(om_hierarchy_ranks_per_domain(NULL, 0), 0);
    OM_EXPECT_INT(om_locality_groups(NULL), 0);
    OM_EXPECT(om_preset_name(NULL) == NULL);
    OM_EXPECT_INT(om_preset_world_size(NULL), 0);
    OM_EXPECT(om_preset_group_list_name(NULL, 0) == NULL);
    om_mesh_free(m);
}

static const om_test_case sweep_tests[] = {
    {"view_rank_near_int64_min", test_view_rank_near_int64_min},
    {"order_advice_world_overflow", test_order_advice_world_overflow},
    {"preset_group_list_null_buffer", test_preset_group_list_null_buffer},
    {"getter_sentinels", test_getter_sentinels},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"api_sweep", NULL, NULL, sweep_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
