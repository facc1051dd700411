/* The 1.1 topology calls (axis sets by name, one-call sizing): every call
 * against its 1.0 mask twin on random shapes (the twins are checked
 * against a naive reference in test_topology.c), name canonicalisation,
 * the bulk-output rule, every error path, and sets beyond axis 64 and 256.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_test.h"

#define NAMES(...) ((const char *const[]){__VA_ARGS__})

/* The names of `mask`'s axes, shuffled, into names[]. */
static size_t names_of(const om_mesh *mesh, uint64_t mask, const char **names,
                       uint64_t *rng)
{
    size_t k = 0;
    for (size_t i = 0; i < om_mesh_ndim(mesh); i++)
        if ((mask >> i) & 1u)
            names[k++] = om_mesh_name(mesh, i);
    for (size_t i = k; i > 1; i--) {
        size_t j = (size_t)om_test_rand_range(rng, 0, (int64_t)i - 1);
        const char *t = names[i - 1];
        names[i - 1] = names[j];
        names[j] = t;
    }
    return k;
}

/* ---- agreement with the 1.0 mask calls ---- */

static void check_twins(const om_mesh *mesh, uint64_t mask, uint64_t *rng)
{
    const char *names[8];
    size_t n = names_of(mesh, mask, names, rng);
    om_error err;
    om_error_clear(&err);
    int64_t count = -1, size = -1, c1 = -2, s1 = -2;
    OM_EXPECT_OK(om_mesh_group_shape(mesh, mask, &count, &size, &err), &err);
    OM_EXPECT_OK(om_mesh_group_shape_named(mesh, names, n, &c1, &s1, &err), &err);
    OM_EXPECT(count == c1 && size == s1);

    size_t total = (size_t)(count * size);
    int32_t *want = malloc(total * sizeof *want);
    int32_t *got = malloc((total + 1) * sizeof *got);
    size_t needed = 0;
    OM_EXPECT_OK(om_mesh_groups(mesh, mask, 0, count, want, total, &err), &err);
    got[total] = -7;
    OM_EXPECT_OK(om_mesh_groups_named(mesh, names, n, 0, count, got, total + 1,
                                      &needed, &err), &err);
    OM_EXPECT_INT(needed, total);
    OM_EXPECT(got[total] == -7 && memcmp(want, got, total * sizeof *got) == 0);

    /* A random slice. */
    int64_t first = om_test_rand_range(rng, 0, count);
    int64_t k = om_test_rand_range(rng, 0, count - first);
    OM_EXPECT_OK(om_mesh_groups_named(mesh, names, n, first, k, got,
                                      (size_t)(k * size), &needed, &err), &err);
    OM_EXPECT_INT(needed, k * size);
    OM_EXPECT(memcmp(want + first * size, got, (size_t)(k * size) * sizeof *got) == 0);

    int64_t rank = om_test_rand_range(rng, 0, om_mesh_size(mesh) - 1);
    int64_t i0 = -1, i1 = -2;
    OM_EXPECT_OK(om_mesh_group_index(mesh, mask, rank, &i0, &err), &err);
    OM_EXPECT_OK(om_mesh_group_index_named(mesh, names, n, rank, &i1, &err), &err);
    OM_EXPECT_INT(i1, i0);
    OM_EXPECT_OK(om_mesh_group_of_named(mesh, names, n, rank, got, (size_t)size,
                                        &needed, &err), &err);
    OM_EXPECT_INT(needed, size);
    OM_EXPECT(memcmp(want + i0 * size, got, (size_t)size * sizeof *got) == 0);

    int64_t per_host = om_test_rand_range(rng, 1, 9);
    int64_t g0, l0, m0, g1 = -1, l1 = -1, m1 = -1;
    OM_EXPECT_OK(om_mesh_locality(mesh, mask, per_host, &g0, &l0, &m0, &err), &err);
    OM_EXPECT_OK(om_mesh_locality_named(mesh, names, n, per_host, &g1, &l1, &m1,
                                        &err), &err);
    OM_EXPECT(g0 == g1 && l0 == l1 && m0 == m1);

    /* The canonical form lists the mask's bits in order. */
    int64_t idx[8];
    OM_EXPECT_OK(om_mesh_axis_indices(mesh, names, n, idx, 8, &needed, &err), &err);
    OM_EXPECT_INT(needed, n);
    size_t o = 0;
    for (size_t i = 0; i < om_mesh_ndim(mesh); i++)
        if ((mask >> i) & 1u)
            OM_EXPECT_INT(idx[o++], i);
    free(want);
    free(got);
}

static void test_random_twins(void)
{
    uint64_t rng = UINT64_C(0x1234567887654321);
    for (int iter = 0; iter < 80; iter++) {
        size_t n = (size_t)om_test_rand_range(&rng, 0, 5);
        char spec[128];
        size_t o = 0;
        spec[0] = '\0';
        for (size_t i = 0; i < n; i++)
            o += (size_t)snprintf(spec + o, sizeof spec - o, "%sx%zu=%lld",
                                  i ? "," : "", i,
                                  (long long)om_test_rand_range(&rng, 1, 5));
        om_mesh *mesh = om_test_mesh(spec);
        for (uint64_t mask = 0; mask < (UINT64_C(1) << n); mask++)
            check_twins(mesh, mask, &rng);
        om_mesh_free(mesh);
    }
}

/* ---- DOMAIN.md's example, by name ---- */

static void expect_groups(const om_mesh *mesh, const char *const *axes,
                          size_t naxes, const int32_t *want, size_t want_len)
{
    int32_t got[16];
    size_t needed = 99;
    om_error err;
    om_test_poison(&err);
    int64_t count = 0, size = 0;
    OM_EXPECT_OK(om_mesh_group_shape_named(mesh, axes, naxes, &count, &size, &err),
                 &err);
    OM_EXPECT_OK(om_mesh_groups_named(mesh, axes, naxes, 0, count, got, 16,
                                      &needed, &err), &err);
    OM_EXPECT_INT(needed, want_len);
    OM_EXPECT(memcmp(got, want, want_len * sizeof *got) == 0);
    OM_EXPECT(om_test_is_poisoned(&err));
}

static void test_domain_example(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=2,tp=2");
    expect_groups(mesh, NAMES("tp"), 1, (const int32_t[]){0, 1, 2, 3, 4, 5, 6, 7}, 8);
    expect_groups(mesh, NAMES("cp"), 1, (const int32_t[]){0, 2, 1, 3, 4, 6, 5, 7}, 8);
    expect_groups(mesh, NAMES("dp"), 1, (const int32_t[]){0, 4, 1, 5, 2, 6, 3, 7}, 8);
    /* Any order names the same set, canonicalised to mesh order. */
    expect_groups(mesh, NAMES("dp", "cp"), 2, (const int32_t[]){0, 2, 4, 6, 1, 3, 5, 7}, 8);
    expect_groups(mesh, NAMES("cp", "dp"), 2, (const int32_t[]){0, 2, 4, 6, 1, 3, 5, 7}, 8);
    expect_groups(mesh, NAMES("tp", "dp"), 2, (const int32_t[]){0, 1, 4, 5, 2, 3, 6, 7}, 8);
    /* The empty set: one group per rank; a NULL array is fine with 0. */
    expect_groups(mesh, NULL, 0, (const int32_t[]){0, 1, 2, 3, 4, 5, 6, 7}, 8);
    int64_t idx[3] = {-1, -1, -1};
    size_t needed = 9;
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_OK(om_mesh_axis_indices(mesh, NAMES("tp", "dp"), 2, idx, 3, &needed,
                                      &err), &err);
    OM_EXPECT(needed == 2 && idx[0] == 0 && idx[1] == 2 && idx[2] == -1);
    OM_EXPECT_OK(om_mesh_axis_indices(mesh, NULL, 0, NULL, 0, &needed, &err), &err);
    OM_EXPECT_INT(needed, 0);
    om_mesh_free(mesh);
}

/* ---- the bulk-output rule ---- */

static void test_bulk_rule(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=2,tp=2");
    om_error err;
    om_error_clear(&err);
    size_t needed = 0;
    int32_t out[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    /* Size query: OK, nothing written, the length reported. */
    OM_EXPECT_OK(om_mesh_groups_named(mesh, NAMES("tp"), 1, 0, 4, NULL, 0, &needed,
                                      &err), &err);
    OM_EXPECT_INT(needed, 8);
    OM_EXPECT_OK(om_mesh_group_of_named(mesh, NAMES("dp", "cp"), 2, 3, NULL, 0,
                                        &needed, &err), &err);
    OM_EXPECT_INT(needed, 4);
    /* Short buffer: refused, naming both lengths, needed still reported. */
    needed = 0;
    OM_EXPECT_ERR(om_mesh_groups_named(mesh, NAMES("tp"), 1, 1, 2, out, 3, &needed,
                                       &err), &err, OM_ERR_BUFFER_TOO_SMALL,
                  "needs 4", "holds 3");
    OM_EXPECT_INT(needed, 4);
    OM_EXPECT_INT(out[0], -1);
    needed = 0;
    OM_EXPECT_ERR(om_mesh_group_of_named(mesh, NAMES("tp"), 1, 3, out, 1, &needed,
                                         &err), &err, OM_ERR_BUFFER_TOO_SMALL,
                  "needs 2", "holds 1");
    OM_EXPECT_INT(needed, 2);
    /* Without `needed`, a NULL buffer is a short buffer, not a query. */
    OM_EXPECT_ERR(om_mesh_groups_named(mesh, NAMES("tp"), 1, 0, 1, NULL, 0, NULL,
                                       &err), &err, OM_ERR_BUFFER_TOO_SMALL, "needs 2");
    /* A NULL buffer claiming a length. */
    OM_EXPECT_ERR(om_mesh_groups_named(mesh, NAMES("tp"), 1, 0, 1, NULL, 2, &needed,
                                       &err), &err, OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_group_of_named(mesh, NAMES("tp"), 1, 0, NULL, 2, &needed,
                                         &err), &err, OM_ERR_INVALID_ARGUMENT, "NULL");
    /* Empty slices need no buffer at all. */
    OM_EXPECT_OK(om_mesh_groups_named(mesh, NAMES("tp"), 1, 4, 0, NULL, 0, NULL,
                                      &err), &err);
    /* A failure before the length is known reports 0. */
    needed = 5;
    OM_EXPECT_ERR(om_mesh_groups_named(mesh, NAMES("tp"), 1, 3, 2, out, 8, &needed,
                                       &err), &err, OM_ERR_OUT_OF_RANGE,
                  "2 groups from group 3", "4 groups");
    OM_EXPECT_INT(needed, 0);
    needed = 5;
    OM_EXPECT_ERR(om_mesh_group_of_named(mesh, NAMES("zz"), 1, 0, out, 8, &needed,
                                         &err), &err, OM_ERR_UNKNOWN_AXIS, "\"zz\"");
    OM_EXPECT_INT(needed, 0);
    needed = 5;
    OM_EXPECT_ERR(om_mesh_axis_indices(mesh, NAMES("tp", "dp"), 2, NULL, 1, &needed,
                                       &err), &err, OM_ERR_BUFFER_TOO_SMALL, "needs 2");
    OM_EXPECT_INT(needed, 2);
    om_mesh_free(mesh);
}

/* ---- coordinates: exactly ndim values, as om_mesh_rank() reads ---- */

static void test_coordinate_of(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=3,tp=4");
    om_error err;
    om_test_poison(&err);
    int64_t coord[4] = {-1, -1, -1, -1};
    size_t needed = 0;
    OM_EXPECT_OK(om_mesh_coordinate_of(mesh, 23, coord, 3, &needed, &err), &err);
    OM_EXPECT(needed == 3 && coord[0] == 1 && coord[1] == 2 && coord[2] == 3);
    OM_EXPECT(om_test_is_poisoned(&err));
    for (int64_t r = 0; r < 24; r++) {
        int64_t back = -1;
        OM_EXPECT_OK(om_mesh_coordinate_of(mesh, r, coord, 3, NULL, &err), &err);
        OM_EXPECT_OK(om_mesh_rank(mesh, coord, 3, &back, &err), &err);
        OM_EXPECT_INT(back, r);
    }
    OM_EXPECT_OK(om_mesh_coordinate_of(mesh, 0, NULL, 0, &needed, &err), &err);
    OM_EXPECT_INT(needed, 3);
    om_error_clear(&err);
    coord[0] = -1;
    OM_EXPECT_ERR(om_mesh_coordinate_of(mesh, 0, coord, 2, &needed, &err), &err,
                  OM_ERR_BUFFER_TOO_SMALL, "needs 3", "holds 2");
    OM_EXPECT(needed == 3 && coord[0] == -1);
    OM_EXPECT_ERR(om_mesh_coordinate_of(mesh, 0, coord, 4, &needed, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "holds 4 values", "3 axes");
    OM_EXPECT_ERR(om_mesh_rank(mesh, coord, 4, &(int64_t){0}, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "4 values", "3 axes");
    OM_EXPECT_ERR(om_mesh_coordinate_of(mesh, 24, coord, 3, &needed, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "rank 24", "24 ranks");
    OM_EXPECT_ERR(om_mesh_coordinate_of(mesh, -1, coord, 3, &needed, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "rank -1");
    OM_EXPECT_ERR(om_mesh_coordinate_of(mesh, 0, NULL, 3, &needed, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    needed = 7;
    OM_EXPECT_ERR(om_mesh_coordinate_of(NULL, 0, coord, 3, &needed, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh");
    OM_EXPECT_INT(needed, 0);
    om_mesh_free(mesh);
    /* The empty mesh: rank 0, no values. */
    mesh = om_test_mesh("");
    OM_EXPECT_OK(om_mesh_coordinate_of(mesh, 0, NULL, 0, &needed, &err), &err);
    OM_EXPECT_INT(needed, 0);
    om_mesh_free(mesh);
}

/* ---- errors of the axis sets ---- */

static void test_set_errors(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=2,tp=2");
    om_error err;
    om_error_clear(&err);
    int64_t count = -3, size = -3, index = -3, g, l, m;
    int32_t out[8];
    size_t needed;
    OM_EXPECT_ERR(om_mesh_group_shape_named(mesh, NAMES("xp"), 1, &count, &size, &err),
                  &err, OM_ERR_UNKNOWN_AXIS, "axis \"xp\" is not in the mesh",
                  "dp, cp, tp");
    OM_EXPECT_ERR(om_mesh_group_shape_named(mesh, NAMES("dp", "TP"), 2, &count,
                                            &size, &err),
                  &err, OM_ERR_UNKNOWN_AXIS, "\"TP\"");
    OM_EXPECT_ERR(om_mesh_group_shape_named(mesh, NAMES("dp", "tp", "dp"), 3, &count,
                                            &size, &err),
                  &err, OM_ERR_DUPLICATE_NAME, "axis \"dp\" is named twice");
    /* Names are exact: no trimming, no comma lists. */
    OM_EXPECT_ERR(om_mesh_group_shape_named(mesh, NAMES(" dp"), 1, &count, &size, &err),
                  &err, OM_ERR_UNKNOWN_AXIS, "\" dp\"");
    OM_EXPECT_ERR(om_mesh_group_shape_named(mesh, NAMES("dp,cp"), 1, &count, &size,
                                            &err),
                  &err, OM_ERR_UNKNOWN_AXIS, "\"dp,cp\"");
    OM_EXPECT_ERR(om_mesh_group_shape_named(mesh, NAMES(""), 1, &count, &size, &err),
                  &err, OM_ERR_UNKNOWN_AXIS, "\"\"");
    /* Control characters in a name are escaped in the message. */
    OM_EXPECT_ERR(om_mesh_group_shape_named(mesh, NAMES("a\x1b]0;x\x07"), 1, &count,
                                            &size, &err),
                  &err, OM_ERR_UNKNOWN_AXIS, "\\x1B]0;x\\x07");
    OM_EXPECT_ERR(om_mesh_group_shape_named(mesh, NAMES("dp", NULL), 2, &count, &size,
                                            &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "axis name 1 is NULL");
    OM_EXPECT_ERR(om_mesh_group_shape_named(mesh, NULL, 2, &count, &size, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL", "naxes is 2");
    OM_EXPECT(count == -3 && size == -3);
    /* Every call reports them the same way. */
    OM_EXPECT_ERR(om_mesh_groups_named(mesh, NAMES("xp"), 1, 0, 1, out, 8, &needed,
                                       &err), &err, OM_ERR_UNKNOWN_AXIS, "\"xp\"");
    OM_EXPECT_ERR(om_mesh_group_index_named(mesh, NAMES("tp", "tp"), 2, 0, &index,
                                            &err), &err, OM_ERR_DUPLICATE_NAME, "\"tp\"");
    OM_EXPECT_ERR(om_mesh_group_of_named(mesh, NAMES("cp", NULL), 2, 0, out, 8,
                                         &needed, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_locality_named(mesh, NAMES("ep"), 1, 4, &g, &l, &m, &err),
                  &err, OM_ERR_UNKNOWN_AXIS, "\"ep\"");
    OM_EXPECT_ERR(om_mesh_axis_indices(mesh, NAMES("cp", "cp"), 2, (int64_t[2]){0}, 2,
                                       &needed, &err), &err, OM_ERR_DUPLICATE_NAME,
                  "\"cp\"");
    OM_EXPECT(index == -3);
    om_mesh_free(mesh);
}

static void test_argument_errors(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,tp=4");
    om_error err;
    om_error_clear(&err);
    int64_t count, size, index, g, l, m;
    int32_t out[8];
    size_t needed;
    const char *const *tp = NAMES("tp");
    OM_EXPECT_ERR(om_mesh_group_shape_named(NULL, tp, 1, &count, &size, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    OM_EXPECT_ERR(om_mesh_group_shape_named(mesh, tp, 1, NULL, &size, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_group_shape_named(mesh, tp, 1, &count, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_groups_named(NULL, tp, 1, 0, 1, out, 8, &needed, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    OM_EXPECT_ERR(om_mesh_groups_named(mesh, tp, 1, -1, 1, out, 8, &needed, &err),
                  &err, OM_ERR_OUT_OF_RANGE, "from group -1");
    OM_EXPECT_ERR(om_mesh_groups_named(mesh, tp, 1, 0, -1, out, 8, &needed, &err),
                  &err, OM_ERR_OUT_OF_RANGE, "-1 groups");
    OM_EXPECT_ERR(om_mesh_groups_named(mesh, tp, 1, 3, 0, out, 8, &needed, &err),
                  &err, OM_ERR_OUT_OF_RANGE, "from group 3", "2 groups");
    OM_EXPECT_ERR(om_mesh_group_index_named(NULL, tp, 1, 0, &index, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    OM_EXPECT_ERR(om_mesh_group_index_named(mesh, tp, 1, 0, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "index pointer is NULL");
    OM_EXPECT_ERR(om_mesh_group_index_named(mesh, tp, 1, 8, &index, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "rank 8", "8 ranks");
    OM_EXPECT_ERR(om_mesh_group_of_named(NULL, tp, 1, 0, out, 8, &needed, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    OM_EXPECT_ERR(om_mesh_group_of_named(mesh, tp, 1, -1, out, 8, &needed, &err),
                  &err, OM_ERR_OUT_OF_RANGE, "rank -1");
    OM_EXPECT_ERR(om_mesh_locality_named(NULL, tp, 1, 4, &g, &l, &m, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    OM_EXPECT_ERR(om_mesh_locality_named(mesh, tp, 1, 4, NULL, &l, &m, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_locality_named(mesh, tp, 1, 4, &g, NULL, &m, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_locality_named(mesh, tp, 1, 4, &g, &l, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_locality_named(mesh, tp, 1, 0, &g, &l, &m, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "ranks per host must be >= 1, got 0");
    OM_EXPECT_ERR(om_mesh_axis_indices(NULL, tp, 1, (int64_t[1]){0}, 1, &needed, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    /* Every call accepts err == NULL. */
    OM_EXPECT_INT(om_mesh_groups_named(mesh, NAMES("x"), 1, 0, 1, out, 8, NULL, NULL),
                  OM_ERR_UNKNOWN_AXIS);
    om_mesh_free(mesh);
}

/* ---- no 64-axis limit ---- */

/* n axes a0..a{n-1}; those listed in `big` have size 2, the others 1. */
static om_mesh *wide_mesh(size_t n, const size_t *big, size_t nbig)
{
    char (*storage)[8] = malloc(n * sizeof *storage);
    const char **names = malloc(n * sizeof *names);
    int64_t *sizes = malloc(n * sizeof *sizes);
    for (size_t i = 0; i < n; i++) {
        snprintf(storage[i], sizeof storage[i], "a%zu", i);
        names[i] = storage[i];
        sizes[i] = 1;
    }
    for (size_t k = 0; k < nbig; k++)
        sizes[big[k]] = 2;
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = NULL;
    OM_EXPECT_OK(om_mesh_new(names, sizes, n, &mesh, &err), &err);
    free(storage);
    free(names);
    free(sizes);
    return mesh;
}

static void test_beyond_64_axes(void)
{
    /* Axes 64 and 69 were out of reach of the 1.0 masks. */
    om_mesh *mesh = wide_mesh(70, (const size_t[]){0, 63, 64, 69}, 4);
    om_error err;
    om_error_clear(&err);
    int64_t count = 0, size = 0, index = -1;
    OM_EXPECT_OK(om_mesh_group_shape_named(mesh, NAMES("a69", "a64"), 2, &count,
                                           &size, &err), &err);
    OM_EXPECT(count == 4 && size == 4);
    /* a64 has stride 2, a69 stride 1: rank 8 (a0=1) has the group 8..11. */
    int32_t members[4] = {0};
    size_t needed = 0;
    OM_EXPECT_OK(om_mesh_group_of_named(mesh, NAMES("a64", "a69"), 2, 9, members, 4,
                                        &needed, &err), &err);
    OM_EXPECT(members[0] == 8 && members[1] == 9 && members[2] == 10 &&
              members[3] == 11);
    OM_EXPECT_OK(om_mesh_group_index_named(mesh, NAMES("a69"), 1, 13, &index, &err),
                 &err);
    OM_EXPECT_INT(index, 6);
    int64_t g, l, m;
    OM_EXPECT_OK(om_mesh_locality_named(mesh, NAMES("a69", "a64", "a5"), 3, 4, &g, &l,
                                        &m, &err), &err);
    OM_EXPECT(g == 4 && l == 4 && m == 1);
    int64_t idx[3];
    OM_EXPECT_OK(om_mesh_axis_indices(mesh, NAMES("a69", "a5", "a64"), 3, idx, 3,
                                      &needed, &err), &err);
    OM_EXPECT(idx[0] == 5 && idx[1] == 64 && idx[2] == 69);
    om_mesh_free(mesh);
}

static void test_beyond_256_axes(void)
{
    /* Sets naming axes past the inline flags (256) take the heap path. */
    om_mesh *mesh = wide_mesh(1000, (const size_t[]){1, 300, 999}, 3);
    om_error err;
    om_error_clear(&err);
    int64_t count = 0, size = 0;
    OM_EXPECT_OK(om_mesh_group_shape_named(mesh, NAMES("a999", "a300"), 2, &count,
                                           &size, &err), &err);
    OM_EXPECT(count == 2 && size == 4);
    int32_t all[8];
    size_t needed = 0;
    OM_EXPECT_OK(om_mesh_groups_named(mesh, NAMES("a1"), 1, 0, 4, all, 8, &needed,
                                      &err), &err);
    OM_EXPECT(all[0] == 0 && all[1] == 4 && all[2] == 1 && all[3] == 5 &&
              all[6] == 3 && all[7] == 7);
    OM_EXPECT_ERR(om_mesh_group_shape_named(mesh, NAMES("a999", "a999"), 2, &count,
                                            &size, &err), &err,
                  OM_ERR_DUPLICATE_NAME, "\"a999\"");
    OM_EXPECT_ERR(om_mesh_group_shape_named(mesh, NAMES("a999", "a1000"), 2, &count,
                                            &size, &err), &err,
                  OM_ERR_UNKNOWN_AXIS, "\"a1000\"", "a0, a1, a2");
    om_mesh_free(mesh);
}

static const om_test_case named_tests[] = {
    {"DOMAIN example by name", test_domain_example},
    {"named calls agree with the mask calls", test_random_twins},
    {"bulk-output rule", test_bulk_rule},
    {"coordinate_of: exactly ndim values", test_coordinate_of},
    {"unknown, duplicate and NULL names", test_set_errors},
    {"argument errors", test_argument_errors},
    {"axes beyond index 63", test_beyond_64_axes},
    {"axes beyond index 255", test_beyond_256_axes},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"topology_named", NULL, NULL, named_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
