/* Allocation failures: every allocating call, failed at each of its
 * allocations in turn, returns OM_ERR_NO_MEMORY with "out of memory",
 * resets its out-parameter and leaks nothing; the topology queries
 * allocate nothing at all.
 *
 * Linked to a private copy of the library built with
 * -DOM_ALLOC_FAILURE_INJECTION (see tests/meson.build), whose test-only
 * omi_alloc_fail_after() makes the n-th allocation fail. Leaks are
 * measured with glibc's mallinfo2() (in-use heap bytes), so they are
 * caught even without valgrind.
 * SPDX-License-Identifier: MIT */
#define _GNU_SOURCE 1
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_test.h"
#include "internal.h" /* omi_alloc_fail_after() */

static char yaml_path[1024];

/* Heap bytes in use. glibc's per-thread cache keeps freed chunks counted
 * as in use, so the byte-exact leak check runs only when tests/meson.build
 * has turned the cache off (GLIBC_TUNABLES=glibc.malloc.tcache_count=0);
 * under valgrind or a sanitizer their own leak checkers take over. */
static bool exact_heap;

static size_t heap_in_use(void)
{
    struct mallinfo2 info = mallinfo2();
    return exact_heap ? info.uordblks + info.hblkhd : 0;
}

static int suite_init(void)
{
    unsetenv("WORLD_SIZE");
    unsetenv("OMPI_COMM_WORLD_SIZE");
    unsetenv("PMI_SIZE");
    unsetenv("SLURM_NTASKS");
    const char *fixtures = getenv("OM_FIXTURES");
    if (!fixtures)
        return 1;
    snprintf(yaml_path, sizeof yaml_path, "%s/yaml/basic.yaml", fixtures);
    const char *tunables = getenv("GLIBC_TUNABLES");
    exact_heap = tunables && strstr(tunables, "glibc.malloc.tcache_count=0");
    if (!exact_heap)
        printf("(GLIBC_TUNABLES lacks glibc.malloc.tcache_count=0: no byte-exact "
               "leak check) ");
    return 0;
}


/* One operation: returns its status; on failure it has checked that its
 * out-parameter was reset; on success it has freed what it got. */
typedef om_status (*op_fn)(om_error *err, bool *out_reset);

static om_mesh *fixture_mesh;

#define RESET_CHECK(ptr) (*out_reset = (st == OM_OK) || (ptr) == NULL)

static om_status op_mesh_new(om_error *err, bool *out_reset)
{
    const char *names[] = {"dp", "cp", "tp"};
    const int64_t sizes[] = {2, 2, 2};
    om_mesh *m = (om_mesh *)(void *)err;
    om_status st = om_mesh_new(names, sizes, 3, &m, err);
    RESET_CHECK(m);
    om_mesh_free(st == OM_OK ? m : NULL);
    return st;
}

static om_status op_mesh_new_wide(om_error *err, bool *out_reset)
{
    /* More than 16 axes takes another allocation path. */
    static const char *const names[20] = {"a", "b", "c", "d", "e", "f", "g",
                                          "h", "i", "j", "k", "l", "m", "n",
                                          "o", "p", "q", "r", "s", "t"};
    int64_t sizes[20];
    for (int i = 0; i < 20; i++)
        sizes[i] = 1 + (i % 2);
    om_mesh *m = (om_mesh *)(void *)err;
    om_status st = om_mesh_new_checked(names, 20, sizes, 20, &m, err);
    RESET_CHECK(m);
    om_mesh_free(st == OM_OK ? m : NULL);
    return st;
}

static om_status op_mesh_get(om_error *err, bool *out_reset)
{
    om_mesh *m = (om_mesh *)(void *)err;
    om_status st = om_mesh_get(fixture_mesh, "cp", &m, err);
    RESET_CHECK(m);
    om_mesh_free(st == OM_OK ? m : NULL);
    if (st != OM_OK)
        return st;
    m = (om_mesh *)(void *)err;
    st = om_mesh_get(fixture_mesh, "absent", &m, err);
    RESET_CHECK(m);
    om_mesh_free(st == OM_OK ? m : NULL);
    return st;
}

static om_status op_mesh_to_json(om_error *err, bool *out_reset)
{
    char *text = (char *)"x";
    om_status st = om_mesh_to_json(fixture_mesh, &text, err);
    RESET_CHECK(text);
    om_string_free(st == OM_OK ? text : NULL);
    return st;
}

static om_status op_mesh_from_json(om_error *err, bool *out_reset)
{
    const char *text = "{\"mesh_dim_names\":[\"dp\",\"tp\"],\"mesh_shape\":[2,4]}";
    om_mesh *m = (om_mesh *)(void *)err;
    om_status st = om_mesh_from_json(text, strlen(text), &m, err);
    RESET_CHECK(m);
    om_mesh_free(st == OM_OK ? m : NULL);
    return st;
}

static om_status op_mesh_spec(om_error *err, bool *out_reset)
{
    om_mesh *m = (om_mesh *)(void *)err;
    om_status st = om_mesh_from_spec("dp=2, cp=3, tp=4", &m, err);
    RESET_CHECK(m);
    om_mesh_free(st == OM_OK ? m : NULL);
    if (st != OM_OK)
        return st;
    char *text = (char *)"x";
    st = om_mesh_to_spec(fixture_mesh, &text, err);
    RESET_CHECK(text);
    om_string_free(st == OM_OK ? text : NULL);
    return st;
}

static om_status op_dims(om_error *err, bool *out_reset)
{
    om_dims *d = (om_dims *)(void *)err;
    om_status st = om_dims_new(&d, err);
    RESET_CHECK(d);
    if (st != OM_OK)
        return st;
    om_dims *copy = (om_dims *)(void *)err;
    st = om_dims_copy(d, &copy, err);
    RESET_CHECK(copy);
    om_dims_free(st == OM_OK ? copy : NULL);
    char *text = (char *)"x";
    if (st == OM_OK) {
        st = om_dims_to_json(d, &text, err);
        RESET_CHECK(text);
        om_string_free(st == OM_OK ? text : NULL);
    }
    om_dims_free(d);
    return st;
}

static om_status op_build(om_error *err, bool *out_reset)
{
    om_dims *d = (om_dims *)(void *)err;
    om_status st = om_dims_new(&d, err);
    RESET_CHECK(d);
    if (st != OM_OK)
        return st;
    if (om_dims_set(d, OM_DIM_TP, 4, NULL) != OM_OK ||
        om_dims_set(d, OM_DIM_PP, 2, NULL) != OM_OK)
        abort();
    om_mesh *m = (om_mesh *)(void *)err;
    st = om_build_offline_mesh(d, &m, err);
    RESET_CHECK(m);
    om_mesh_free(st == OM_OK ? m : NULL);
    if (st == OM_OK) {
        m = (om_mesh *)(void *)err;
        st = om_build_runtime_mesh(d, "tp-cp-ep-dp-pp", &m, err);
        RESET_CHECK(m);
        om_mesh_free(st == OM_OK ? m : NULL);
    }
    if (st == OM_OK) {
        char *text = (char *)"x";
        st = om_order_normalize("tp-cp-ep-dp-pp", &text, err);
        RESET_CHECK(text);
        om_string_free(st == OM_OK ? text : NULL);
    }
    om_dims_free(d);
    return st;
}

static om_status op_from_yaml(om_error *err, bool *out_reset)
{
    const char *text = "base: &b {tp_size: 2}\naccelerator:\n  <<: *b\n"
                       "  cp_size: 2\n  sequence_parallel: yes\n";
    om_dims *d = (om_dims *)(void *)err;
    om_status st = om_dims_from_yaml(text, strlen(text), 8, &d, err);
    RESET_CHECK(d);
    om_dims_free(st == OM_OK ? d : NULL);
    return st;
}

static om_status op_load_yaml(om_error *err, bool *out_reset)
{
    om_dims *d = (om_dims *)(void *)err;
    om_status st = om_dims_load_yaml(yaml_path, 32, &d, err);
    RESET_CHECK(d);
    om_dims_free(st == OM_OK ? d : NULL);
    return st;
}

static om_status op_preflight(om_error *err, bool *out_reset)
{
    char *text = (char *)"x";
    om_status st = om_plan_dim_names(fixture_mesh, 2, 2, 1, &text, err);
    RESET_CHECK(text);
    om_string_free(st == OM_OK ? text : NULL);
    if (st != OM_OK)
        return st;
    om_mesh *m = (om_mesh *)(void *)err;
    st = om_expert_mesh(fixture_mesh, 4, 8, &m, err);
    RESET_CHECK(m);
    om_mesh_free(st == OM_OK ? m : NULL);
    return st;
}

/* A 300-axis mesh (built before the failures start) whose last axis only
 * the heap path of an axis set can select. */
static om_mesh *wide_mesh;

static om_status op_named_beyond_256(om_error *err, bool *out_reset)
{
    const char *const axes[] = {"a299", "a0"};
    int64_t count = -1, size = -1;
    om_status st = om_mesh_group_shape_named(wide_mesh, axes, 2, &count, &size, err);
    *out_reset = st == OM_OK || (count == -1 && size == -1);
    if (st == OM_OK && (count != 1 || size != 4))
        abort();
    return st;
}

/* ---- 1.1 calls that allocate ---- */

static char mesh_json_path[1100];

static om_status op_1_1_loaders(om_error *err, bool *out_reset)
{
    om_mesh *m = (om_mesh *)(void *)err;
    om_status st = om_mesh_load_json(mesh_json_path, &m, err);
    RESET_CHECK(m);
    om_mesh_free(st == OM_OK ? m : NULL);
    if (st != OM_OK)
        return st;
    om_dims *d = (om_dims *)(void *)err;
    st = om_dims_read_yaml(yaml_path, &d, err);
    RESET_CHECK(d);
    if (st != OM_OK)
        return st;
    st = om_dims_resolve_world_size(d, 32, err); /* allocates nothing */
    om_dims_free(d);
    if (st != OM_OK)
        return st;
    const char *text = "accelerator: {tp_size: 2}\n";
    d = (om_dims *)(void *)err;
    st = om_dims_parse_yaml(text, strlen(text), &d, err);
    RESET_CHECK(d);
    om_dims_free(st == OM_OK ? d : NULL);
    return st;
}

static om_status op_1_1_names(om_error *err, bool *out_reset)
{
    om_dims *d = NULL;
    om_status st = om_dims_new(&d, err);
    *out_reset = true;
    if (st != OM_OK)
        return st;
    om_mesh *m = (om_mesh *)(void *)err;
    st = om_mesh_from_dims(d, &m, err);
    RESET_CHECK(m);
    om_mesh_free(st == OM_OK ? m : NULL);
    if (st == OM_OK) {
        m = (om_mesh *)(void *)err;
        st = om_mesh_from_dims_in_order(d, "tp-cp-dp", &m, err);
        RESET_CHECK(m);
        om_mesh_free(st == OM_OK ? m : NULL);
    }
    om_dims_free(d);
    if (st == OM_OK) {
        char *text = (char *)"x";
        st = om_axis_order_normalize("tp-cp-ep-dp-pp", &text, err);
        RESET_CHECK(text);
        om_string_free(st == OM_OK ? text : NULL);
    }
    if (st == OM_OK) {
        char *text = (char *)"x";
        st = om_mesh_plan_axes(fixture_mesh, 2, 2, 1, &text, err);
        RESET_CHECK(text);
        om_string_free(st == OM_OK ? text : NULL);
    }
    if (st == OM_OK) {
        m = (om_mesh *)(void *)err;
        st = om_mesh_reslice_experts(fixture_mesh, 4, 8, &m, err);
        RESET_CHECK(m);
        om_mesh_free(st == OM_OK ? m : NULL);
    }
    return st;
}

static void run_failing(const char *name, op_fn op)
{
    om_error err;
    bool reset = true;
    /* Warm-up: first-use allocations of libc (stdio, locale) settle. */
    omi_alloc_fail_after(-1);
    om_error_clear(&err);
    om_status st = op(&err, &reset);
    om_test_record(st == OM_OK, __FILE__, __LINE__, "%s without failures: %s", name,
                   err.message);
    long needed = omi_alloc_fail_after(-1);
    om_test_record(needed > 0, __FILE__, __LINE__, "%s made no allocation", name);
    for (long n = 0; n < needed; n++) {
        om_error_clear(&err);
        reset = false;
        size_t before = heap_in_use();
        omi_alloc_fail_after(n);
        st = op(&err, &reset);
        omi_alloc_fail_after(-1);
        size_t after = heap_in_use();
        om_test_record(st == OM_ERR_NO_MEMORY && err.status == OM_ERR_NO_MEMORY &&
                           strstr(err.message, "out of memory") != NULL,
                       __FILE__, __LINE__,
                       "%s, allocation %ld of %ld failing: status %d, \"%s\"", name,
                       n + 1, needed, (int)st, err.message);
        om_test_record(reset, __FILE__, __LINE__,
                       "%s, allocation %ld failing: out-parameter not reset", name,
                       n + 1);
        om_test_record(after == before, __FILE__, __LINE__,
                       "%s, allocation %ld failing: %zd bytes leaked", name, n + 1,
                       (ssize_t)(after - before));
    }
    /* And once more with room for all of them. */
    size_t before = heap_in_use();
    omi_alloc_fail_after((long)needed);
    om_error_clear(&err);
    st = op(&err, &reset);
    omi_alloc_fail_after(-1);
    om_test_record(st == OM_OK && heap_in_use() == before, __FILE__, __LINE__,
                   "%s with exactly enough allocations: %s", name, err.message);
}

static void test_mesh_ops(void)
{
    run_failing("om_mesh_new", op_mesh_new);
    run_failing("om_mesh_new_checked (20 axes)", op_mesh_new_wide);
    run_failing("om_mesh_get", op_mesh_get);
    run_failing("om_mesh_to_json", op_mesh_to_json);
    run_failing("om_mesh_from_json", op_mesh_from_json);
    run_failing("om_mesh_from_spec/to_spec", op_mesh_spec);
}

static void test_dims_ops(void)
{
    run_failing("om_dims_new/copy/to_json", op_dims);
    run_failing("om_build_offline_mesh/runtime/normalize", op_build);
    run_failing("om_dims_from_yaml", op_from_yaml);
    run_failing("om_dims_load_yaml", op_load_yaml);
}

static void test_preflight_ops(void) { run_failing("preflight", op_preflight); }

static void test_1_1_ops(void)
{
    const char *dir = getenv("OM_TEST_TMPDIR");
    snprintf(mesh_json_path, sizeof mesh_json_path, "%s/alloc-mesh.json",
             dir ? dir : "/tmp");
    FILE *f = fopen(mesh_json_path, "wb");
    OM_EXPECT(f != NULL);
    if (!f)
        return;
    fputs("{\"mesh_dim_names\":[\"dp\",\"tp\"],\"mesh_shape\":[2,4]}", f);
    fclose(f);
    run_failing("om_mesh_load_json/om_dims_read_yaml/parse_yaml", op_1_1_loaders);
    run_failing("1.1 names of the builders and preflight", op_1_1_names);
    remove(mesh_json_path);
}

/* ---- 1.2: strict configs ---- */

static om_status op_1_2_config(om_error *err, bool *out_reset)
{
    om_diagnostics *list = (om_diagnostics *)(void *)err;
    om_status st = om_diagnostics_new(&list, err);
    RESET_CHECK(list);
    if (st != OM_OK)
        return st;
    const char *text = "base: &b {tpsize: 2}\naccelerator:\n  <<: *b\n  cp_size: 2\n";
    om_dims *d = (om_dims *)(void *)err;
    st = om_dims_parse_yaml_checked(text, strlen(text), false, list, &d, err);
    RESET_CHECK(d);
    om_dims_free(st == OM_OK ? d : NULL);
    char *message = (char *)"x";
    if (st == OM_OK) {
        st = om_diagnostics_message(list, 0, &message, err);
        RESET_CHECK(message);
        om_string_free(st == OM_OK ? message : NULL);
    }
    if (st == OM_OK) {
        d = (om_dims *)(void *)err;
        st = om_dims_read_yaml_checked(yaml_path, false, list, &d, err);
        RESET_CHECK(d);
        om_dims_free(st == OM_OK ? d : NULL);
    }
    om_diagnostics_free(list);
    return st;
}

/* ---- launch plans (Slurm's node numbering allocates) ---- */

static om_status op_launch_plan(om_error *err, bool *out_reset)
{
    const char *hosts[] = {"sn10", "sn2", "sn1", "a"};
    char *plan = (char *)"x";
    om_status st = om_launch_plan(fixture_mesh, 4, 2, OM_LAUNCH_SLURM, NULL, 0, hosts, 4,
                                  &plan, err);
    RESET_CHECK(plan);
    om_string_free(st == OM_OK ? plan : NULL);
    if (st != OM_OK)
        return st;
    plan = (char *)"x";
    st = om_launch_plan(fixture_mesh, 4, 2, OM_LAUNCH_TORCHRUN, "[::1]", 0, NULL, 0, &plan,
                        err);
    RESET_CHECK(plan);
    om_string_free(st == OM_OK ? plan : NULL);
    return st;
}

/* A hostfile hierarchy, and locality of a plain mesh and of a view whose
 * groups and members interleave (the listed path, its sorted bases), and
 * a broken rule naming a group of that view. */
static om_status op_hierarchy(om_error *err, bool *out_reset)
{
    const char *text = "a slots=10 rack=x\nb slots=10 rack=y\n";
    om_hierarchy *h = (om_hierarchy *)(void *)err, *uniform = NULL;
    om_mesh *view = NULL, *plain = NULL;
    om_locality *loc = NULL;
    char *broken = NULL;
    size_t nbroken = 0;
    om_status st = om_hierarchy_from_hostfile(text, strlen(text), &h, err);
    RESET_CHECK(h);
    if (st != OM_OK)
        return st;
    st = om_hierarchy_from_spec("host=2,rack=4", &uniform, err);
    if (st == OM_OK)
        st = om_view_new((const char *[]){"a", "b", "c"}, 3, (int64_t[]){3, 2, 2}, 3,
                         (int64_t[]){2, 3, 12}, 3, 0, &view, err);
    if (st == OM_OK)
        st = om_mesh_new((const char *[]){"dp", "tp"}, (int64_t[]){4, 5}, 2, &plain, err);
    const char *ab[] = {"a", "b"};
    for (int i = 0; i < 3 && st == OM_OK; i++) {
        loc = (om_locality *)(void *)err;
        st = om_hierarchy_locality(i == 2 ? plain : view, i == 1 ? uniform : h,
                                   i == 1 ? ab : NULL, i == 1 ? 2 : 0, &loc, err);
        RESET_CHECK(loc);
        om_locality_free(st == OM_OK ? loc : NULL);
    }
    if (st == OM_OK)
        st = om_hierarchy_check(view, h, "c:host", &broken, &nbroken, err);
    if (st == OM_OK && nbroken != 1)
        st = omi_fail(err, OM_ERR_INVALID_ARGUMENT, "c:host holds");
    om_string_free(broken);
    om_mesh_free(plain);
    om_mesh_free(view);
    om_hierarchy_free(uniform);
    om_hierarchy_free(h);
    return st;
}

static void test_launch_ops(void)
{
    run_failing("om_launch_plan (Slurm with hosts, torchrun with [::1])", op_launch_plan);
    run_failing("om_hierarchy_from_hostfile/locality/check (views)", op_hierarchy);
}

static void test_1_2_ops(void)
{
    run_failing("om_diagnostics_new/message, om_dims_parse/read_yaml_checked",
                op_1_2_config);
}

static void test_util_str(void)
{
    /* The builder remembers a failed allocation and detaches nothing. */
    omu_str s = {0};
    omi_alloc_fail_after(0);
    omu_str_puts(&s, "dp");
    omu_str_printf(&s, "%d", 4);
    omi_alloc_fail_after(-1);
    OM_EXPECT(s.failed && s.len == 0);
    OM_EXPECT(omu_str_detach(&s, NULL) == NULL);
    omu_str_puts(&s, "ok");
    OM_EXPECT_STR(omu_str_cstr(&s), "ok");
    omu_str_free(&s);
}

static const char *wide_names[300];
static int64_t wide_sizes[300];

/* Over 32 axes a mesh also allocates its name index. */
static om_status op_new_wide(om_error *err, bool *out_reset)
{
    om_mesh *m = (om_mesh *)1;
    om_status st = om_mesh_new(wide_names, wide_sizes, 300, &m, err);
    RESET_CHECK(m);
    if (st == OM_OK && om_mesh_index_of(m, "a123") != 123)
        abort();
    om_mesh_free(st == OM_OK ? m : NULL);
    return st;
}

/* Flattening 150 of the 300 axes: the flags of the names resolved. */
static om_status op_flatten_wide(om_error *err, bool *out_reset)
{
    om_mesh *m = (om_mesh *)1;
    om_status st = om_view_flatten(wide_mesh, wide_names + 150, 150, "f", &m, err);
    RESET_CHECK(m);
    if (st == OM_OK && om_mesh_size_of(m, "f") != 2)
        abort();
    om_mesh_free(st == OM_OK ? m : NULL);
    return st;
}

static void test_named_ops(void)
{
    const char **names = wide_names;
    static char storage[300][8];
    int64_t *sizes = wide_sizes;
    for (int i = 0; i < 300; i++) {
        snprintf(storage[i], sizeof storage[i], "a%d", i);
        names[i] = storage[i];
        sizes[i] = (i == 0 || i == 299) ? 2 : 1;
    }
    omi_alloc_fail_after(-1);
    OM_EXPECT_INT(om_mesh_new(names, sizes, 300, &wide_mesh, NULL), OM_OK);
    run_failing("om_mesh_group_shape_named (axis 299)", op_named_beyond_256);
    run_failing("om_mesh_new (300 axes)", op_new_wide);
    run_failing("om_view_flatten (150 of 300 axes)", op_flatten_wide);
    om_mesh_free(wide_mesh);
    wide_mesh = NULL;
}

static void test_topology_allocates_nothing(void)
{
    om_error err;
    om_error_clear(&err);
    size_t before = heap_in_use();
    omi_alloc_fail_after(0); /* any allocation would fail */
    uint64_t mask = 0;
    int64_t coord[3], rank, count, size, index, local, hosts;
    int32_t out[8];
    OM_EXPECT_OK(om_mesh_axes(fixture_mesh, "dp,tp", &mask, &err), &err);
    OM_EXPECT_OK(om_mesh_coordinate(fixture_mesh, 5, coord, 3, &err), &err);
    OM_EXPECT_OK(om_mesh_rank(fixture_mesh, coord, 3, &rank, &err), &err);
    OM_EXPECT_OK(om_mesh_group_shape(fixture_mesh, mask, &count, &size, &err), &err);
    OM_EXPECT_OK(om_mesh_groups(fixture_mesh, mask, 0, count, out, 8, &err), &err);
    OM_EXPECT_OK(om_mesh_group_index(fixture_mesh, mask, 5, &index, &err), &err);
    OM_EXPECT_OK(om_mesh_group_of(fixture_mesh, mask, 5, out, 8, &err), &err);
    OM_EXPECT_OK(om_mesh_locality(fixture_mesh, mask, 2, &count, &local, &hosts, &err),
                 &err);
    OM_EXPECT_OK(om_validate_axes(fixture_mesh, 2, 2, 1, &err), &err);
    OM_EXPECT_OK(om_mesh_validate_plan(fixture_mesh, 2, 2, 1, &err), &err);
    int64_t world;
    om_world_size_source source;
    OM_EXPECT_OK(om_world_size_resolve(8, &world, &source, &err), &err);
    /* The 1.1 calls, on sets within the inline flags. */
    const char *const axes[] = {"tp", "dp"};
    size_t needed;
    int64_t idx[2];
    OM_EXPECT_OK(om_mesh_axis_indices(fixture_mesh, axes, 2, idx, 2, &needed, &err),
                 &err);
    OM_EXPECT_OK(om_mesh_coordinate_of(fixture_mesh, 5, coord, 3, &needed, &err), &err);
    OM_EXPECT_OK(om_mesh_group_shape_named(fixture_mesh, axes, 2, &count, &size, &err),
                 &err);
    OM_EXPECT_OK(om_mesh_groups_named(fixture_mesh, axes, 2, 0, count, out, 8, &needed,
                                      &err), &err);
    OM_EXPECT_OK(om_mesh_group_index_named(fixture_mesh, axes, 2, 5, &index, &err),
                 &err);
    OM_EXPECT_OK(om_mesh_group_of_named(fixture_mesh, axes, 2, 5, out, 8, &needed,
                                        &err), &err);
    OM_EXPECT_OK(om_mesh_locality_named(fixture_mesh, axes, 2, 2, &count, &local,
                                        &hosts, &err), &err);
    long made = omi_alloc_fail_after(-1);
    OM_EXPECT_INT(made, 0);
    OM_EXPECT(heap_in_use() == before);
}


/* ---- views and worlds (view.h, world.h) ---- */

static om_status op_view_flatten(om_error *err, bool *out_reset)
{
    om_mesh *m = (om_mesh *)(void *)err;
    om_status st = om_view_flatten(fixture_mesh, (const char *[]){"dp", "tp"}, 2, NULL,
                                   &m, err);
    RESET_CHECK(m);
    om_mesh_free(st == OM_OK ? m : NULL);
    return st;
}

static om_status op_view_unflatten(om_error *err, bool *out_reset)
{
    om_mesh *m = (om_mesh *)(void *)err;
    om_status st = om_view_unflatten(fixture_mesh, "tp", (int64_t[]){2, 1}, 2,
                                     (const char *[]){"x", "y"}, 2, &m, err);
    RESET_CHECK(m);
    om_mesh_free(st == OM_OK ? m : NULL);
    return st;
}

static om_status op_view_slice(om_error *err, bool *out_reset)
{
    om_mesh *m = (om_mesh *)(void *)err;
    om_status st = om_view_slice(fixture_mesh, (const char *[]){"tp", "dp"}, 2, &m, err);
    RESET_CHECK(m);
    om_mesh_free(st == OM_OK ? m : NULL);
    return st;
}

/* Interleaved modes: the distinct-ranks check and the group order
 * allocate. */
static om_status op_view_interleaved(om_error *err, bool *out_reset)
{
    om_mesh *m = (om_mesh *)(void *)err;
    om_status st = om_view_new((const char *[]){"a", "b"}, 2, (int64_t[]){3, 2}, 2,
                               (int64_t[]){2, 3}, 2, 0, &m, err);
    RESET_CHECK(m);
    int32_t out[6];
    if (st == OM_OK)
        st = om_mesh_groups(m, 2, 0, 3, out, 6, err);
    om_mesh_free(st == OM_OK || m != (om_mesh *)(void *)err ? m : NULL);
    return st;
}

static om_status op_view_json(om_error *err, bool *out_reset)
{
    om_mesh *flat = NULL, *back = (om_mesh *)(void *)err;
    char *json = NULL;
    om_status st = om_view_flatten(fixture_mesh, (const char *[]){"dp", "tp"}, 2, NULL,
                                   &flat, err);
    if (st == OM_OK)
        st = om_view_to_json(flat, &json, err);
    if (st == OM_OK) {
        st = om_view_from_json(json, strlen(json), &back, err);
        RESET_CHECK(back);
        om_mesh_free(st == OM_OK ? back : NULL);
    } else {
        *out_reset = json == NULL;
    }
    om_string_free(json);
    om_mesh_free(flat);
    return st;
}

static om_status op_world(om_error *err, bool *out_reset)
{
    om_mesh *flat = NULL, *slice = NULL, *cut = NULL;
    om_world *w = (om_world *)(void *)err;
    char *json = NULL;
    om_status st = om_view_flatten(fixture_mesh, (const char *[]){"dp", "tp"}, 2, NULL,
                                   &flat, err);
    if (st == OM_OK)
        st = om_view_slice(fixture_mesh, (const char *[]){"tp", "dp"}, 2, &slice, err);
    *out_reset = true;
    if (st == OM_OK) {
        /* the transposed slice takes the per-rank consistency check */
        st = om_world_new(8, (const char *[]){"root", "flat", "slice"}, 3,
                          (const om_mesh *[]){fixture_mesh, flat, slice}, 3, &w, err);
        RESET_CHECK(w);
        if (st != OM_OK)
            w = NULL;
    } else {
        w = NULL;
    }
    if (st == OM_OK) {
        st = om_world_slice(w, (const char *[]){"dp_tp", "cp"}, 2, &cut, err);
        if (st == OM_OK)
            st = om_world_to_json(w, &json, err);
    }
    om_world *back = NULL;
    if (st == OM_OK)
        st = om_world_from_json(json, strlen(json), &back, err);
    om_world_free(back);
    om_string_free(json);
    om_mesh_free(cut);
    om_world_free(w);
    om_mesh_free(flat);
    om_mesh_free(slice);
    return st;
}

/* A world of 40 views (over 32: its name indexes) sharing "tp", a slice
 * of it by 39 names, and the same world with one view disagreeing on tp. */
#define MANY_VIEWS 40
static om_mesh *many_views[MANY_VIEWS], *odd_view;
static const char *many_names[MANY_VIEWS], *many_axes[MANY_VIEWS];

static om_status op_world_many(om_error *err, bool *out_reset)
{
    om_world *w = (om_world *)1;
    om_status st = om_world_new(8, many_names, MANY_VIEWS,
                                (const om_mesh *const *)many_views, MANY_VIEWS, &w, err);
    RESET_CHECK(w);
    if (st == OM_OK) {
        om_mesh *cut = (om_mesh *)1;
        st = om_world_slice(w, many_axes, MANY_VIEWS - 1, &cut, err);
        *out_reset = st == OM_OK || cut == NULL;
        om_mesh_free(st == OM_OK ? cut : NULL);
        om_world_free(w);
    }
    if (st == OM_OK) {
        om_mesh *last = many_views[MANY_VIEWS - 1];
        many_views[MANY_VIEWS - 1] = odd_view;
        st = om_world_new(8, many_names, MANY_VIEWS,
                          (const om_mesh *const *)many_views, MANY_VIEWS, &w, err);
        many_views[MANY_VIEWS - 1] = last;
        if (st == OM_OK)
            abort(); /* the conflict was missed */
        if (st == OM_ERR_VIEW_CONFLICT)
            st = OM_OK;
    }
    return st;
}

static void test_world_many(void)
{
    static char storage[2 * MANY_VIEWS][8];
    omi_alloc_fail_after(-1);
    for (int v = 0; v < MANY_VIEWS; v++) {
        snprintf(storage[v], sizeof storage[v], "v%d", v);
        snprintf(storage[MANY_VIEWS + v], sizeof storage[v], "u%d", v);
        many_names[v] = storage[v];
        many_axes[v] = storage[MANY_VIEWS + v];
        OM_EXPECT_INT(om_view_new((const char *[]){many_axes[v], "tp"}, 2,
                                  (int64_t[]){1, 2}, 2, (int64_t[]){1, 1}, 2, 0,
                                  &many_views[v], NULL), OM_OK);
    }
    OM_EXPECT_INT(om_view_new((const char *[]){many_axes[MANY_VIEWS - 1], "tp"}, 2,
                              (int64_t[]){1, 2}, 2, (int64_t[]){1, 2}, 2, 0, &odd_view,
                              NULL), OM_OK);
    run_failing("om_world_new/slice (40 views)", op_world_many);
    for (int v = 0; v < MANY_VIEWS; v++)
        om_mesh_free(many_views[v]);
    om_mesh_free(odd_view);
}

/* Megatron with 40 hierarchical CP levels: the parameter's list and the
 * preset's group lists (57 of them) grow past their first blocks. */
static om_status op_preset_long_hcp(om_error *err, bool *out_reset)
{
    char hcp[160] = "hierarchical_context_parallel_sizes=[";
    for (int l = 0; l < 40; l++)
        strcat(hcp, l < 39 ? "1," : "2]");
    const char *params[] = {"context_parallel_size=2", hcp};
    om_preset *p = (om_preset *)1;
    om_status st = om_preset_new("megatron", params, 2, 4, &p, err);
    RESET_CHECK(p);
    if (st == OM_OK) {
        char *json = (char *)1;
        st = om_preset_to_json(p, &json, err);
        *out_reset = st == OM_OK || json == NULL;
        if (st == OM_OK && om_preset_group_list_count(p) != 57)
            abort(); /* levels were lost */
        om_string_free(st == OM_OK ? json : NULL);
        om_preset_free(p);
    }
    return st;
}

static void test_preset_ops(void)
{
    run_failing("om_preset_new/to_json (megatron, 40 hcp levels)", op_preset_long_hcp);
}

static void test_view_ops(void)
{
    run_failing("om_view_flatten", op_view_flatten);
    run_failing("om_view_unflatten", op_view_unflatten);
    run_failing("om_view_slice", op_view_slice);
    run_failing("om_view_new (interleaved) + om_mesh_groups", op_view_interleaved);
    run_failing("om_view_to_json + om_view_from_json", op_view_json);
    run_failing("om_world_new/slice/to_json/from_json", op_world);
}

/* A mesh JSON of 50 axes: jansson makes at least one block per string. */
static char wide_json[2048];

static om_status op_mesh_from_json_wide(om_error *err, bool *out_reset)
{
    om_mesh *m = (om_mesh *)(void *)err;
    om_status st = om_mesh_from_json(wide_json, strlen(wide_json), &m, err);
    RESET_CHECK(m);
    om_mesh_free(st == OM_OK ? m : NULL);
    return st;
}

/* The JSON parser's own allocations go through the library allocator
 * (src/json_read.c), so they are failed here too: before, jansson's were
 * out of reach and a failure inside it crashed or read as a parse error. */
static void test_json_parser_allocations(void)
{
    size_t n = 0;
    n += (size_t)snprintf(wide_json + n, sizeof wide_json - n, "{\"mesh_dim_names\":[");
    for (int i = 0; i < 50; i++)
        n += (size_t)snprintf(wide_json + n, sizeof wide_json - n, "%s\"axis%d\"",
                              i ? "," : "", i);
    n += (size_t)snprintf(wide_json + n, sizeof wide_json - n, "],\"mesh_shape\":[");
    for (int i = 0; i < 50; i++)
        n += (size_t)snprintf(wide_json + n, sizeof wide_json - n, "%s1", i ? "," : "");
    snprintf(wide_json + n, sizeof wide_json - n, "]}");
    om_error err;
    omi_alloc_fail_after(-1);
    OM_EXPECT_OK(op_mesh_from_json_wide(&err, &(bool){false}), &err);
    long made = omi_alloc_fail_after(-1);
    /* 50 names, 50 sizes, the arrays and the keys: >= 100 of jansson's
     * blocks besides the mesh's own few. */
    OM_EXPECT(made >= 100);
    run_failing("om_mesh_from_json (50 axes, every jansson allocation)",
                op_mesh_from_json_wide);
}

static int setup_mesh(void)
{
    if (suite_init() != 0)
        return 1;
    omi_alloc_fail_after(-1);
    return om_mesh_from_spec("dp=2,cp=2,tp=2", &fixture_mesh, NULL) == OM_OK ? 0 : 1;
}

static int teardown_mesh(void)
{
    om_mesh_free(fixture_mesh);
    fixture_mesh = NULL;
    return 0;
}

static const om_test_case alloc_tests[] = {
    {"mesh calls under allocation failure", test_mesh_ops},
    {"dims, build and YAML calls under allocation failure", test_dims_ops},
    {"preflight calls under allocation failure", test_preflight_ops},
    {"named axis sets past axis 255 under allocation failure", test_named_ops},
    {"1.1 loaders and names under allocation failure", test_1_1_ops},
    {"1.2 strict configs under allocation failure", test_1_2_ops},
    {"util string builder under allocation failure", test_util_str},
    {"launch plans under allocation failure", test_launch_ops},
    {"topology queries allocate nothing", test_topology_allocates_nothing},
    {"view and world calls under allocation failure", test_view_ops},
    {"a world of many views under allocation failure", test_world_many},
    {"a preset of many group lists under allocation failure", test_preset_ops},
    {"the JSON parser's own allocations fail too", test_json_parser_allocations},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"alloc", setup_mesh, teardown_mesh, alloc_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
