/* What the hostile-argument sweep of every exported function found (NULL
 * for each pointer, boundary integers, bad enums, wrong-state handles,
 * under ASan + UBSan): each bug's input with the status and message the
 * headers promise, and the documented sentinels of the status-less getters
 * for NULL handles and out-of-range indexes.
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
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

/* An explicit hierarchy (hostfile) whose host domains are not the job's
 * nodes was admitted without a word: the host-level and straddle checks
 * looked only at uniform levels. */
static void launch_lines(const char *hostfile, int64_t nnodes, int64_t nproc,
                         const char *want, size_t want_count, unsigned line)
{
    om_error err;
    om_hierarchy *h = NULL;
    om_mesh *m = NULL;
    OM_EXPECT_OK(om_hierarchy_from_hostfile(hostfile, strlen(hostfile), &h, &err), &err);
    OM_EXPECT_OK(om_mesh_from_spec("dp=2,tp=4", &m, &err), &err);
    char *lines = NULL;
    size_t count = 0;
    OM_EXPECT_OK(om_launch_check(m, h, nnodes, nproc, NULL, &lines, &count, &err), &err);
    om_test_record(count == want_count && lines && strcmp(lines, want) == 0,
                   __FILE__, line, "%zu violations \"%s\", expected %zu \"%s\"",
                   count, lines ? lines : "(null)", want_count, want);
    om_string_free(lines);
    om_mesh_free(m);
    om_hierarchy_free(h);
}

static void test_launch_check_explicit_hosts(void)
{
    /* Hosts of 2 slots, nodes of 4 processes: node 0 spans hosts a and b. */
    launch_lines("a slots=2\nb slots=2\nc slots=2\nd slots=2\n", 2, 4,
                 "level host: node 0 (ranks 0..3) straddles host domains \"a\" "
                 "and \"b\"\n", 1, __LINE__);
    /* Hosts of 4 slots, nodes of 2: host a holds nodes 0 and 1. */
    launch_lines("a slots=4\nb slots=4\n", 4, 2,
                 "level host: domain \"a\" holds ranks of nodes 0 and 1, but a "
                 "host is one node of nproc_per_node 2 ranks\n", 1, __LINE__);
    /* A slower explicit level: node 0 (hosts a, b) is in nvl x and y. */
    launch_lines("a:2 nvl=x\nb:2 nvl=y\nc:2 nvl=y\nd:2 nvl=z\n", 2, 4,
                 "level host: node 0 (ranks 0..3) straddles host domains \"a\" "
                 "and \"b\"\n"
                 "level nvl: node 0 (ranks 0..3) straddles nvl domains \"x\" "
                 "and \"y\"\n", 2, __LINE__);
    /* Hosts that are the nodes, in nvl domains of whole nodes: admissible. */
    launch_lines("a slots=4 nvl=x\nb slots=4 nvl=x\n", 2, 4, "", 0, __LINE__);
    launch_lines("a slots=4 nvl=x\nb slots=4 nvl=y\n", 2, 4, "", 0, __LINE__);
    /* Another number of ranks is its own violation, not checked further. */
    launch_lines("a slots=2\nb slots=2\n", 2, 4,
                 "the hierarchy describes 4 ranks but the mesh has 8\n", 1,
                 __LINE__);
}

static bool utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2
              : (*p & 0xF8) == 0xF0 ? 3 : -1;
        if (n < 0)
            return false;
        for (int k = 1; k <= n; k++)
            if ((p[k] & 0xC0) != 0x80)
                return false;
        p += n + 1;
    }
    return true;
}

/* A level name over 60 bytes was cut inside a UTF-8 sequence in the
 * violation lines ("%.60s"): the lines were not valid UTF-8. */
static void test_launch_check_long_level_name(void)
{
    char spec[200] = "host=4,x";
    for (int i = 0; i < 40; i++)
        strcat(spec, "\xc3\xa9"); /* e-acute: the 60th byte starts one */
    strcat(spec, "=6");
    om_error err;
    om_hierarchy *h = NULL;
    om_mesh *m = NULL;
    OM_EXPECT_OK(om_hierarchy_from_spec(spec, &h, &err), &err);
    OM_EXPECT_OK(om_mesh_from_spec("dp=2,tp=4", &m, &err), &err);
    char *lines = NULL;
    size_t count = 0;
    OM_EXPECT_OK(om_launch_check(m, h, 2, 4, NULL, &lines, &count, &err), &err);
    OM_EXPECT_INT(count, 1);
    OM_EXPECT(lines && utf8_valid(lines));
    OM_EXPECT(lines && strstr(lines, "has 6 ranks per domain, not a multiple of "
                                     "nproc_per_node 4: node 1 straddles") != NULL);
    om_string_free(lines);
    om_mesh_free(m);
    om_hierarchy_free(h);
}

/* A host name over 120 bytes was cut in the Slurm hostfile and the Open
 * MPI rankfile ("%.120s"), naming another host, while "host" kept it. */
static void test_launch_plan_long_host_name(void)
{
    char a[200], b[200];
    memset(a, 'a', 150);
    a[150] = '\0';
    memcpy(b, a, 151);
    b[149] = 'b'; /* differs only past byte 120 */
    const char *hosts[] = {a, b};
    om_error err;
    om_mesh *m = NULL;
    OM_EXPECT_OK(om_mesh_from_spec("dp=2", &m, &err), &err);
    char want[640];
    char *plan = NULL;
    OM_EXPECT_OK(om_launch_plan(m, 2, 1, OM_LAUNCH_SLURM, NULL, 0, hosts, 2, &plan,
                                &err), &err);
    snprintf(want, sizeof want, "\"hostfile\":\"%s\\n%s\\n\"", a, b);
    OM_EXPECT(plan && strstr(plan, want) != NULL);
    om_string_free(plan);
    plan = NULL;
    OM_EXPECT_OK(om_launch_plan(m, 2, 1, OM_LAUNCH_OPENMPI, NULL, 0, hosts, 2, &plan,
                                &err), &err);
    snprintf(want, sizeof want, "\"rankfile\":\"rank 0=%s slot=0\\nrank 1=%s slot=0\\n\"",
             a, b);
    OM_EXPECT(plan && strstr(plan, want) != NULL);
    om_string_free(plan);
    om_mesh_free(m);
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
    {"launch_check_explicit_hosts", test_launch_check_explicit_hosts},
    {"launch_check_long_level_name", test_launch_check_long_level_name},
    {"launch_plan_long_host_name", test_launch_plan_long_host_name},
    {"getter_sentinels", test_getter_sentinels},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"api_sweep", NULL, NULL, sweep_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
