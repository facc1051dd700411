/* Rank topology: coordinates, ranks and process groups, checked against
 * DOMAIN.md's examples, every documented error, a naive reference
 * implementation on many random shapes, and meshes of 2^31-1 ranks.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "om_test.h"

/* ---- helpers ---- */

static uint64_t mask_of(const om_mesh *mesh, const char *names)
{
    om_error err;
    om_error_clear(&err);
    uint64_t mask = UINT64_MAX;
    OM_EXPECT_OK(om_mesh_axes(mesh, names, &mask, &err), &err);
    return mask;
}

/* Writes groups "{0,1},{2,3}" of `axes` into buf. */
static void groups_text(const om_mesh *mesh, uint64_t axes, char *buf, size_t size)
{
    om_error err;
    om_error_clear(&err);
    int64_t count = 0, gsize = 0;
    buf[0] = '\0';
    OM_EXPECT_OK(om_mesh_group_shape(mesh, axes, &count, &gsize, &err), &err);
    size_t n = (size_t)(count * gsize);
    int32_t *out = malloc((n ? n : 1) * sizeof *out);
    OM_EXPECT_OK(om_mesh_groups(mesh, axes, 0, count, out, n, &err), &err);
    size_t o = 0;
    for (int64_t g = 0; g < count && o + 16 < size; g++) {
        o += (size_t)snprintf(buf + o, size - o, "%s{", g ? "," : "");
        for (int64_t m = 0; m < gsize && o + 16 < size; m++)
            o += (size_t)snprintf(buf + o, size - o, "%s%d", m ? "," : "",
                                  out[g * gsize + m]);
        o += (size_t)snprintf(buf + o, size - o, "}");
    }
    free(out);
}

static void expect_groups(const om_mesh *mesh, const char *axes, const char *want,
                          unsigned line)
{
    char buf[4096];
    groups_text(mesh, mask_of(mesh, axes), buf, sizeof buf);
    om_test_record(strcmp(buf, want) == 0, __FILE__, line,
                   "groups over \"%s\" are %s, expected %s", axes, buf, want);
}

/* ---- DOMAIN.md's examples ---- */

static void test_domain_example(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=2,tp=2");
    expect_groups(mesh, "tp", "{0,1},{2,3},{4,5},{6,7}", __LINE__);
    expect_groups(mesh, "cp", "{0,2},{1,3},{4,6},{5,7}", __LINE__);
    expect_groups(mesh, "dp", "{0,4},{1,5},{2,6},{3,7}", __LINE__);
    expect_groups(mesh, "dp,cp", "{0,2,4,6},{1,3,5,7}", __LINE__);
    /* The order the set is named in does not matter. */
    expect_groups(mesh, "cp,dp", "{0,2,4,6},{1,3,5,7}", __LINE__);
    expect_groups(mesh, " tp , dp ", "{0,1,4,5},{2,3,6,7}", __LINE__);
    expect_groups(mesh, "cp,tp", "{0,1,2,3},{4,5,6,7}", __LINE__);
    expect_groups(mesh, "dp,cp,tp", "{0,1,2,3,4,5,6,7}", __LINE__);
    expect_groups(mesh, "", "{0},{1},{2},{3},{4},{5},{6},{7}", __LINE__);
    om_mesh_free(mesh);
}

static void test_axes_masks(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=2,tp=2");
    OM_EXPECT_INT(mask_of(mesh, "dp"), 1);
    OM_EXPECT_INT(mask_of(mesh, "cp"), 2);
    OM_EXPECT_INT(mask_of(mesh, "tp"), 4);
    OM_EXPECT_INT(mask_of(mesh, "tp,dp"), 5);
    OM_EXPECT_INT(mask_of(mesh, "dp,cp,tp"), 7);
    OM_EXPECT_INT(mask_of(mesh, ""), 0);
    OM_EXPECT_INT(mask_of(mesh, "   "), 0);
    OM_EXPECT_INT(mask_of(mesh, "\tcp\t"), 2);
    om_mesh_free(mesh);
}

static void test_axes_errors(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=2,tp=2");
    om_error err;
    om_error_clear(&err);
    uint64_t mask = 99;
    OM_EXPECT_ERR(om_mesh_axes(mesh, "xp", &mask, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "\"xp\"", "dp, cp, tp");
    OM_EXPECT_ERR(om_mesh_axes(mesh, "dp,TP", &mask, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "\"TP\"");
    OM_EXPECT_ERR(om_mesh_axes(mesh, "dp,tp,dp", &mask, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "\"dp\"", "twice");
    OM_EXPECT_ERR(om_mesh_axes(mesh, "dp,,tp", &mask, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "empty");
    OM_EXPECT_ERR(om_mesh_axes(mesh, "dp,", &mask, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "empty");
    OM_EXPECT_ERR(om_mesh_axes(mesh, "dp cp", &mask, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "\"dp cp\"");
    OM_EXPECT_ERR(om_mesh_axes(NULL, "dp", &mask, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh");
    OM_EXPECT_ERR(om_mesh_axes(mesh, NULL, &mask, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_axes(mesh, "dp", NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    om_mesh_free(mesh);
}

static om_mesh *wide_mesh(size_t n)
{
    /* n axes a0..a{n-1}; a0, a63, a64 and the last have size 2. */
    char (*storage)[8] = malloc(n * sizeof *storage);
    const char **names = malloc(n * sizeof *names);
    int64_t *sizes = malloc(n * sizeof *sizes);
    for (size_t i = 0; i < n; i++) {
        snprintf(storage[i], sizeof storage[i], "a%zu", i);
        names[i] = storage[i];
        sizes[i] = (i == 0 || i == 63 || i == 64 || i == n - 1) ? 2 : 1;
    }
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = NULL;
    OM_EXPECT_OK(om_mesh_new(names, sizes, n, &mesh, &err), &err);
    free(storage);
    free(names);
    free(sizes);
    return mesh;
}

static void test_axes_beyond_64(void)
{
    om_mesh *mesh = wide_mesh(70);
    om_error err;
    om_error_clear(&err);
    uint64_t mask = 0;
    OM_EXPECT_OK(om_mesh_axes(mesh, "a63,a0", &mask, &err), &err);
    OM_EXPECT(mask == ((UINT64_C(1) << 63) | 1u));
    OM_EXPECT_ERR(om_mesh_axes(mesh, "a64", &mask, &err), &err, OM_ERR_OUT_OF_RANGE,
                  "\"a64\"", "64");
    OM_EXPECT_ERR(om_mesh_axes(mesh, "a0,a69", &mask, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "\"a69\"");
    /* Axes 64.. are never selected: they stay outside every set. Size is
     * 16 = a0 * a63 * a64 * a69. */
    int64_t count = 0, size = 0;
    OM_EXPECT_OK(om_mesh_group_shape(mesh, (UINT64_C(1) << 63) | 1u, &count, &size,
                                     &err),
                 &err);
    OM_EXPECT_INT(count, 4);
    OM_EXPECT_INT(size, 4);
    OM_EXPECT_OK(om_mesh_group_shape(mesh, UINT64_MAX, &count, &size, &err), &err);
    OM_EXPECT_INT(count, 4);
    OM_EXPECT_INT(size, 4);
    /* a0 has stride 8 (a63, a64, a69 after it), a63 stride 4. */
    int32_t members[4];
    OM_EXPECT_OK(om_mesh_group_of(mesh, (UINT64_C(1) << 63) | 1u, 3, members, 4, &err),
                 &err);
    /* Rank 3 is a64=1, a69=1; a63 and a0 step by 4 and 8. */
    OM_EXPECT(members[0] == 3 && members[1] == 7 && members[2] == 11 &&
              members[3] == 15);
    om_mesh_free(mesh);
}

/* ---- coordinates and ranks ---- */

static void test_coordinate_rank(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=3,tp=4");
    om_error err;
    om_test_poison(&err);
    int64_t coord[3] = {-1, -1, -1};
    OM_EXPECT_OK(om_mesh_coordinate(mesh, 0, coord, 3, &err), &err);
    OM_EXPECT(coord[0] == 0 && coord[1] == 0 && coord[2] == 0);
    OM_EXPECT_OK(om_mesh_coordinate(mesh, 23, coord, 3, &err), &err);
    OM_EXPECT(coord[0] == 1 && coord[1] == 2 && coord[2] == 3);
    OM_EXPECT_OK(om_mesh_coordinate(mesh, 13, coord, 3, &err), &err);
    OM_EXPECT(coord[0] == 1 && coord[1] == 0 && coord[2] == 1);
    OM_EXPECT(om_test_is_poisoned(&err));
    int64_t big[5] = {9, 9, 9, 9, 9};
    OM_EXPECT_OK(om_mesh_coordinate(mesh, 6, big, 5, &err), &err);
    OM_EXPECT(big[0] == 0 && big[1] == 1 && big[2] == 2 && big[3] == 9);
    int64_t rank = -1;
    const int64_t c[] = {1, 2, 3};
    OM_EXPECT_OK(om_mesh_rank(mesh, c, 3, &rank, &err), &err);
    OM_EXPECT_INT(rank, 23);
    for (int64_t r = 0; r < 24; r++) {
        OM_EXPECT_OK(om_mesh_coordinate(mesh, r, coord, 3, &err), &err);
        OM_EXPECT_INT(coord[0] * 12 + coord[1] * 4 + coord[2], r);
        OM_EXPECT_OK(om_mesh_rank(mesh, coord, 3, &rank, &err), &err);
        OM_EXPECT_INT(rank, r);
    }
    om_mesh_free(mesh);
    /* The empty mesh has the one rank 0 with no coordinates. */
    mesh = om_test_mesh("");
    OM_EXPECT_OK(om_mesh_coordinate(mesh, 0, NULL, 0, &err), &err);
    OM_EXPECT_OK(om_mesh_rank(mesh, NULL, 0, &rank, &err), &err);
    OM_EXPECT_INT(rank, 0);
    om_error_clear(&err);
    OM_EXPECT_ERR(om_mesh_coordinate(mesh, 1, NULL, 0, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "1");
    om_mesh_free(mesh);
}

static void test_coordinate_errors(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=3,tp=4");
    om_error err;
    om_error_clear(&err);
    int64_t coord[3];
    OM_EXPECT_ERR(om_mesh_coordinate(mesh, 24, coord, 3, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "rank 24", "24 ranks");
    OM_EXPECT_ERR(om_mesh_coordinate(mesh, -1, coord, 3, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "rank -1");
    OM_EXPECT_ERR(om_mesh_coordinate(mesh, INT64_MIN, coord, 3, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "-9223372036854775808");
    OM_EXPECT_ERR(om_mesh_coordinate(mesh, 0, coord, 2, &err), &err,
                  OM_ERR_BUFFER_TOO_SMALL, "2", "3");
    OM_EXPECT_ERR(om_mesh_coordinate(mesh, 0, NULL, 3, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_coordinate(NULL, 0, coord, 3, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh");
    om_mesh_free(mesh);
}

static void test_rank_errors(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=3,tp=4");
    om_error err;
    om_error_clear(&err);
    int64_t rank = -5;
    const int64_t bad_cp[] = {1, 3, 0};
    OM_EXPECT_ERR(om_mesh_rank(mesh, bad_cp, 3, &rank, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "cp", "3");
    const int64_t neg_tp[] = {0, 0, -1};
    OM_EXPECT_ERR(om_mesh_rank(mesh, neg_tp, 3, &rank, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "tp", "-1");
    const int64_t ok[] = {0, 0, 0, 0};
    OM_EXPECT_ERR(om_mesh_rank(mesh, ok, 2, &rank, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "2", "3");
    OM_EXPECT_ERR(om_mesh_rank(mesh, ok, 4, &rank, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "4", "3");
    OM_EXPECT_ERR(om_mesh_rank(mesh, NULL, 3, &rank, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_rank(mesh, ok, 3, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_rank(NULL, ok, 3, &rank, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh");
    OM_EXPECT_INT(rank, -5); /* untouched on error */
    om_mesh_free(mesh);
}

/* ---- group queries ---- */

static void test_group_queries(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=2,tp=2");
    uint64_t dp_tp = mask_of(mesh, "dp,tp");
    om_error err;
    om_test_poison(&err);
    int64_t count = 0, size = 0, index = -1;
    OM_EXPECT_OK(om_mesh_group_shape(mesh, dp_tp, &count, &size, &err), &err);
    OM_EXPECT_INT(count, 2);
    OM_EXPECT_INT(size, 4);
    OM_EXPECT_OK(om_mesh_group_index(mesh, dp_tp, 6, &index, &err), &err);
    OM_EXPECT_INT(index, 1);
    int32_t members[4] = {-1, -1, -1, -1};
    OM_EXPECT_OK(om_mesh_group_of(mesh, dp_tp, 6, members, 4, &err), &err);
    OM_EXPECT(members[0] == 2 && members[1] == 3 && members[2] == 6 &&
              members[3] == 7);
    OM_EXPECT(om_test_is_poisoned(&err));
    /* Slices of om_mesh_groups. */
    uint64_t tp = mask_of(mesh, "tp");
    int32_t out[8];
    memset(out, 0xff, sizeof out);
    OM_EXPECT_OK(om_mesh_groups(mesh, tp, 1, 2, out, 8, &err), &err);
    OM_EXPECT(out[0] == 2 && out[1] == 3 && out[2] == 4 && out[3] == 5 &&
              out[4] == -1);
    OM_EXPECT_OK(om_mesh_groups(mesh, tp, 3, 1, out, 2, &err), &err);
    OM_EXPECT(out[0] == 6 && out[1] == 7);
    /* Empty slices, even at the end and with no buffer. */
    OM_EXPECT_OK(om_mesh_groups(mesh, tp, 4, 0, NULL, 0, &err), &err);
    OM_EXPECT_OK(om_mesh_groups(mesh, tp, 0, 0, NULL, 0, &err), &err);
    /* Empty set: single-rank groups. */
    OM_EXPECT_OK(om_mesh_group_shape(mesh, 0, &count, &size, &err), &err);
    OM_EXPECT_INT(count, 8);
    OM_EXPECT_INT(size, 1);
    OM_EXPECT_OK(om_mesh_group_of(mesh, 0, 5, members, 1, &err), &err);
    OM_EXPECT_INT(members[0], 5);
    OM_EXPECT_OK(om_mesh_group_index(mesh, 0, 5, &index, &err), &err);
    OM_EXPECT_INT(index, 5);
    om_mesh_free(mesh);
}

static void test_group_errors(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=2,tp=2");
    om_error err;
    om_error_clear(&err);
    int64_t count, size, index;
    int32_t out[8];
    /* Masks selecting an index >= ndim. */
    OM_EXPECT_ERR(om_mesh_group_shape(mesh, 8, &count, &size, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "3");
    OM_EXPECT_ERR(om_mesh_group_shape(mesh, UINT64_C(1) << 63, &count, &size, &err),
                  &err, OM_ERR_OUT_OF_RANGE, "63");
    OM_EXPECT_ERR(om_mesh_groups(mesh, 9, 0, 1, out, 8, &err), &err,
                  OM_ERR_OUT_OF_RANGE, NULL);
    OM_EXPECT_ERR(om_mesh_group_index(mesh, 16, 0, &index, &err), &err,
                  OM_ERR_OUT_OF_RANGE, NULL);
    OM_EXPECT_ERR(om_mesh_group_of(mesh, 16, 0, out, 8, &err), &err,
                  OM_ERR_OUT_OF_RANGE, NULL);
    /* NULL arguments. */
    OM_EXPECT_ERR(om_mesh_group_shape(NULL, 1, &count, &size, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh");
    OM_EXPECT_ERR(om_mesh_group_shape(mesh, 1, NULL, &size, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_group_shape(mesh, 1, &count, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_groups(NULL, 1, 0, 1, out, 8, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh");
    OM_EXPECT_ERR(om_mesh_groups(mesh, 1, 0, 1, NULL, 8, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_group_index(NULL, 1, 0, &index, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh");
    OM_EXPECT_ERR(om_mesh_group_index(mesh, 1, 0, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_group_of(NULL, 1, 0, out, 8, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh");
    OM_EXPECT_ERR(om_mesh_group_of(mesh, 1, 0, NULL, 8, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    /* Ranks outside the mesh. */
    OM_EXPECT_ERR(om_mesh_group_index(mesh, 1, 8, &index, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "rank 8");
    OM_EXPECT_ERR(om_mesh_group_index(mesh, 1, -1, &index, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "rank -1");
    OM_EXPECT_ERR(om_mesh_group_of(mesh, 1, 8, out, 8, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "rank 8");
    /* Slices outside 0..count (dp groups: 4 of 2). */
    OM_EXPECT_ERR(om_mesh_groups(mesh, 1, -1, 1, out, 8, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "4 groups");
    OM_EXPECT_ERR(om_mesh_groups(mesh, 1, 0, -1, out, 8, &err), &err,
                  OM_ERR_OUT_OF_RANGE, NULL);
    OM_EXPECT_ERR(om_mesh_groups(mesh, 1, 5, 0, out, 8, &err), &err,
                  OM_ERR_OUT_OF_RANGE, NULL);
    OM_EXPECT_ERR(om_mesh_groups(mesh, 1, 3, 2, out, 8, &err), &err,
                  OM_ERR_OUT_OF_RANGE, NULL);
    OM_EXPECT_ERR(om_mesh_groups(mesh, 1, 0, 5, out, 8, &err), &err,
                  OM_ERR_OUT_OF_RANGE, NULL);
    OM_EXPECT_ERR(om_mesh_groups(mesh, 1, INT64_MAX, INT64_MAX, out, 8, &err), &err,
                  OM_ERR_OUT_OF_RANGE, NULL);
    OM_EXPECT_ERR(om_mesh_groups(mesh, 1, 1, INT64_MAX, out, 8, &err), &err,
                  OM_ERR_OUT_OF_RANGE, NULL);
    OM_EXPECT_ERR(om_mesh_groups(mesh, 1, -1, INT64_MIN, out, 8, &err), &err,
                  OM_ERR_OUT_OF_RANGE, NULL);
    OM_EXPECT_ERR(om_mesh_groups(mesh, 1, INT64_MIN, -1, out, 8, &err), &err,
                  OM_ERR_OUT_OF_RANGE, NULL);
    /* Buffers too small, naming the needed length. */
    OM_EXPECT_ERR(om_mesh_groups(mesh, 1, 0, 4, out, 7, &err), &err,
                  OM_ERR_BUFFER_TOO_SMALL, "8", "7");
    OM_EXPECT_ERR(om_mesh_groups(mesh, 1, 1, 2, out, 0, &err), &err,
                  OM_ERR_BUFFER_TOO_SMALL, "4");
    OM_EXPECT_ERR(om_mesh_group_of(mesh, 3, 0, out, 3, &err), &err,
                  OM_ERR_BUFFER_TOO_SMALL, "4", "3");
    om_mesh_free(mesh);
}

/* ---- naive reference implementation ---- */

typedef struct {
    size_t n;
    int64_t sizes[8];
    int64_t total;
} shape_t;

static void ref_coord(const shape_t *s, int64_t rank, int64_t *coord)
{
    for (size_t i = s->n; i-- > 0;) {
        coord[i] = rank % s->sizes[i];
        rank /= s->sizes[i];
    }
}

static int64_t ref_rank(const shape_t *s, const int64_t *coord)
{
    int64_t r = 0;
    for (size_t i = 0; i < s->n; i++)
        r = r * s->sizes[i] + coord[i];
    return r;
}

static bool in_set(uint64_t mask, size_t i) { return (mask >> i) & 1u; }

static void ref_shape(const shape_t *s, uint64_t mask, int64_t *count, int64_t *size)
{
    *count = 1;
    *size = 1;
    for (size_t i = 0; i < s->n; i++) {
        if (in_set(mask, i))
            *size *= s->sizes[i];
        else
            *count *= s->sizes[i];
    }
}

/* Group index: the rank's coordinates outside the set, row-major. */
static int64_t ref_index(const shape_t *s, uint64_t mask, int64_t rank)
{
    int64_t coord[8], g = 0;
    ref_coord(s, rank, coord);
    for (size_t i = 0; i < s->n; i++)
        if (!in_set(mask, i))
            g = g * s->sizes[i] + coord[i];
    return g;
}

/* Members of rank's group: an odometer over the set's axes (row-major,
 * last fastest), the other coordinates kept. */
static void ref_group_of(const shape_t *s, uint64_t mask, int64_t rank, int32_t *out)
{
    int64_t coord[8];
    ref_coord(s, rank, coord);
    for (size_t i = 0; i < s->n; i++)
        if (in_set(mask, i))
            coord[i] = 0;
    int64_t count, size;
    ref_shape(s, mask, &count, &size);
    for (int64_t m = 0; m < size; m++) {
        out[m] = (int32_t)ref_rank(s, coord);
        for (size_t i = s->n; i-- > 0;) {
            if (!in_set(mask, i))
                continue;
            if (++coord[i] < s->sizes[i])
                break;
            coord[i] = 0;
        }
    }
}

/* All groups, by bucketing ranks in increasing order. */
static int32_t *ref_all_groups(const shape_t *s, uint64_t mask)
{
    int64_t count, size;
    ref_shape(s, mask, &count, &size);
    int32_t *groups = malloc((size_t)s->total * sizeof *groups);
    int64_t *fill = calloc((size_t)count, sizeof *fill);
    for (int64_t r = 0; r < s->total; r++) {
        int64_t g = ref_index(s, mask, r);
        groups[g * size + fill[g]++] = (int32_t)r;
    }
    free(fill);
    return groups;
}

static om_mesh *mesh_of_shape(const shape_t *s, char *spec, size_t spec_size)
{
    size_t o = 0;
    spec[0] = '\0';
    for (size_t i = 0; i < s->n; i++)
        o += (size_t)snprintf(spec + o, spec_size - o, "%sa%zu=%lld", i ? "," : "", i,
                              (long long)s->sizes[i]);
    return om_test_mesh(spec);
}

static long checks_done;

/* Every query of one (shape, mask) against the reference. */
static void cross_check(const om_mesh *mesh, const shape_t *s, uint64_t mask,
                        const char *spec, uint64_t *rng)
{
    om_error err;
    om_error_clear(&err);
    int64_t count = -1, size = -1, rc, rs;
    ref_shape(s, mask, &rc, &rs);
    om_status st = om_mesh_group_shape(mesh, mask, &count, &size, &err);
    om_test_record(st == OM_OK && count == rc && size == rs, __FILE__, __LINE__,
                   "%s mask %llx: shape %lld x %lld, expected %lld x %lld (%s)", spec,
                   (unsigned long long)mask, (long long)count, (long long)size,
                   (long long)rc, (long long)rs, err.message);
    if (st != OM_OK)
        return;

    /* Whole enumeration. */
    int32_t *ref = ref_all_groups(s, mask);
    int32_t *got = malloc((size_t)s->total * sizeof *got);
    st = om_mesh_groups(mesh, mask, 0, count, got, (size_t)s->total, &err);
    int64_t bad = -1;
    for (int64_t i = 0; st == OM_OK && i < s->total && bad < 0; i++)
        if (got[i] != ref[i])
            bad = i;
    om_test_record(st == OM_OK && bad < 0, __FILE__, __LINE__,
                   "%s mask %llx: groups differ at element %lld (got %d, want %d) %s",
                   spec, (unsigned long long)mask, (long long)bad,
                   bad >= 0 ? got[bad] : 0, bad >= 0 ? ref[bad] : 0, err.message);

    /* Every rank appears exactly once. */
    unsigned char *seen = calloc((size_t)s->total, 1);
    bool once = st == OM_OK;
    for (int64_t i = 0; once && i < s->total; i++) {
        if (got[i] < 0 || got[i] >= s->total || seen[got[i]])
            once = false;
        else
            seen[got[i]] = 1;
    }
    om_test_record(once, __FILE__, __LINE__, "%s mask %llx: not a partition", spec,
                   (unsigned long long)mask);
    free(seen);

    /* Each group equals the odometer enumeration of its first member's
     * group (members agree off S, row-major over S). */
    int32_t *members = malloc((size_t)size * sizeof *members);
    bool same = true;
    for (int64_t g = 0; g < count && same; g++) {
        ref_group_of(s, mask, ref[g * size], members);
        same = memcmp(members, ref + g * size, (size_t)size * sizeof *members) == 0 &&
               ref_index(s, mask, ref[g * size]) == g;
    }
    om_test_record(same, __FILE__, __LINE__,
                   "%s mask %llx: reference constructions disagree", spec,
                   (unsigned long long)mask);

    /* Random slices. */
    for (int k = 0; k < 4; k++) {
        int64_t first = om_test_rand_range(rng, 0, count);
        int64_t n = om_test_rand_range(rng, 0, count - first);
        int32_t *slice = malloc((size_t)(n * size + 1) * sizeof *slice);
        slice[n * size] = -12345; /* guard */
        st = om_mesh_groups(mesh, mask, first, n, slice, (size_t)(n * size), &err);
        bool ok = st == OM_OK && slice[n * size] == -12345 &&
                  memcmp(slice, ref + first * size,
                         (size_t)(n * size) * sizeof *slice) == 0;
        om_test_record(ok, __FILE__, __LINE__,
                       "%s mask %llx: slice %lld+%lld wrong (%s)", spec,
                       (unsigned long long)mask, (long long)first, (long long)n,
                       err.message);
        free(slice);
    }

    /* Per-rank queries (all ranks of small meshes, a sample of big ones). */
    int64_t step = s->total > 512 ? s->total / 257 : 1;
    bool per_rank_ok = true;
    char first_bad[400] = "";
    int32_t *of = malloc((size_t)(size + 1) * sizeof *of);
    for (int64_t r = 0; r < s->total; r += step) {
        int64_t index = -1;
        int64_t coord[8], back = -1;
        of[size] = -12345;
        bool ok = om_mesh_group_index(mesh, mask, r, &index, &err) == OM_OK &&
                  index == ref_index(s, mask, r) &&
                  om_mesh_group_of(mesh, mask, r, of, (size_t)size, &err) == OM_OK &&
                  of[size] == -12345 &&
                  memcmp(of, ref + index * size, (size_t)size * sizeof *of) == 0 &&
                  om_mesh_coordinate(mesh, r, coord, 8, &err) == OM_OK &&
                  om_mesh_rank(mesh, coord, s->n, &back, &err) == OM_OK && back == r;
        if (ok) {
            int64_t want[8];
            ref_coord(s, r, want);
            ok = memcmp(want, coord, s->n * sizeof *coord) == 0;
        }
        if (!ok && per_rank_ok) {
            snprintf(first_bad, sizeof first_bad, "rank %lld index %lld: %s",
                     (long long)r, (long long)index, err.message);
            per_rank_ok = false;
        }
    }
    om_test_record(per_rank_ok, __FILE__, __LINE__, "%s mask %llx: %s", spec,
                   (unsigned long long)mask, first_bad);
    free(of);
    free(members);
    free(got);
    free(ref);
    checks_done++;
}

/* Names of the set `mask` in a shuffled order, for om_mesh_axes(). */
static void check_axes_names(const om_mesh *mesh, const shape_t *s, uint64_t mask,
                             uint64_t *rng)
{
    size_t idx[8], k = 0;
    for (size_t i = 0; i < s->n; i++)
        if (in_set(mask, i))
            idx[k++] = i;
    for (size_t i = k; i > 1; i--) {
        size_t j = (size_t)om_test_rand_range(rng, 0, (int64_t)i - 1);
        size_t t = idx[i - 1];
        idx[i - 1] = idx[j];
        idx[j] = t;
    }
    char names[128];
    size_t o = 0;
    names[0] = '\0';
    for (size_t i = 0; i < k; i++)
        o += (size_t)snprintf(names + o, sizeof names - o, "%s a%zu ", i ? "," : "",
                              idx[i]);
    uint64_t got = UINT64_MAX;
    om_error err;
    om_error_clear(&err);
    om_status st = om_mesh_axes(mesh, names, &got, &err);
    om_test_record(st == OM_OK && got == mask, __FILE__, __LINE__,
                   "axes(\"%s\") = %llx, expected %llx (%s)", names,
                   (unsigned long long)got, (unsigned long long)mask, err.message);
}

static void test_random_cross_check(void)
{
    uint64_t rng = UINT64_C(0x5eed0f0ff11e3e5);
    checks_done = 0;
    for (int iter = 0; iter < 160; iter++) {
        shape_t s;
        s.n = (size_t)om_test_rand_range(&rng, 0, 6);
        s.total = 1;
        for (size_t i = 0; i < s.n; i++) {
            int64_t cap = 4096 / s.total;
            int64_t hi = cap < 7 ? cap : 7;
            s.sizes[i] = om_test_rand_range(&rng, 1, hi < 1 ? 1 : hi);
            s.total *= s.sizes[i];
        }
        char spec[256];
        om_mesh *mesh = mesh_of_shape(&s, spec, sizeof spec);
        if (!mesh)
            continue;
        OM_EXPECT_INT(om_mesh_size(mesh), s.total);
        for (uint64_t mask = 0; mask < (UINT64_C(1) << s.n); mask++) {
            cross_check(mesh, &s, mask, spec, &rng);
            check_axes_names(mesh, &s, mask, &rng);
        }
        om_mesh_free(mesh);
    }
    om_test_record(checks_done > 1000, __FILE__, __LINE__,
                   "only %ld shape/mask pairs checked", checks_done);
}

static void test_large_axes_cross_check(void)
{
    /* Axes longer than any internal block, primes that cannot be split,
     * and long axes next to short ones. */
    static const struct {
        size_t n;
        int64_t sizes[4];
    } shapes[] = {
        {1, {4099}},           {2, {2, 4099}},        {2, {4099, 2}},
        {3, {3, 1031, 2}},     {2, {2048, 3}},        {2, {5, 4096}},
        {3, {16, 1, 1024}},    {3, {7, 1025, 1}},     {2, {1031, 1033}},
        {4, {2, 2053, 1, 3}},  {3, {64, 64, 5}},      {2, {12289, 2}},
    };
    uint64_t rng = 42;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        shape_t s = {shapes[k].n, {0}, 1};
        for (size_t i = 0; i < s.n; i++) {
            s.sizes[i] = shapes[k].sizes[i];
            s.total *= s.sizes[i];
        }
        char spec[256];
        om_mesh *mesh = mesh_of_shape(&s, spec, sizeof spec);
        for (uint64_t mask = 0; mesh && mask < (UINT64_C(1) << s.n); mask++)
            cross_check(mesh, &s, mask, spec, &rng);
        om_mesh_free(mesh);
    }
}

/* ---- meshes of 2^31-1 ranks ---- */

static long max_rss_kib(void)
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

static void test_huge_prime_mesh(void)
{
    long before = max_rss_kib();
    om_mesh *mesh = om_test_mesh("a=1,big=2147483647,c=1");
    OM_EXPECT_INT(om_mesh_size(mesh), OM_MAX_RANKS);
    om_error err;
    om_error_clear(&err);
    int64_t coord[3], rank = -1;
    OM_EXPECT_OK(om_mesh_coordinate(mesh, 2147483646, coord, 3, &err), &err);
    OM_EXPECT(coord[0] == 0 && coord[1] == 2147483646 && coord[2] == 0);
    OM_EXPECT_OK(om_mesh_rank(mesh, coord, 3, &rank, &err), &err);
    OM_EXPECT_INT(rank, 2147483646);
    OM_EXPECT_ERR(om_mesh_coordinate(mesh, 2147483647, coord, 3, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "2147483647");

    uint64_t big = mask_of(mesh, "big"), small = mask_of(mesh, "a,c");
    int64_t count = 0, size = 0, index = -1;
    OM_EXPECT_OK(om_mesh_group_shape(mesh, big, &count, &size, &err), &err);
    OM_EXPECT_INT(count, 1);
    OM_EXPECT_INT(size, 2147483647);
    OM_EXPECT_OK(om_mesh_group_shape(mesh, small, &count, &size, &err), &err);
    OM_EXPECT_INT(count, 2147483647);
    OM_EXPECT_INT(size, 1);
    OM_EXPECT_OK(om_mesh_group_index(mesh, small, 2147483646, &index, &err), &err);
    OM_EXPECT_INT(index, 2147483646);
    OM_EXPECT_OK(om_mesh_group_index(mesh, big, 2147483646, &index, &err), &err);
    OM_EXPECT_INT(index, 0);
    int32_t members[8] = {0};
    OM_EXPECT_OK(om_mesh_group_of(mesh, small, 2147483646, members, 1, &err), &err);
    OM_EXPECT_INT(members[0], 2147483646);
    OM_EXPECT_ERR(om_mesh_group_of(mesh, big, 5, members, 8, &err), &err,
                  OM_ERR_BUFFER_TOO_SMALL, "2147483647");
    /* The last groups of the single-rank partition. */
    OM_EXPECT_OK(om_mesh_groups(mesh, small, 2147483640, 7, members, 8, &err), &err);
    bool tail = true;
    for (int i = 0; i < 7; i++)
        tail = tail && members[i] == 2147483640 + i;
    OM_EXPECT(tail);
    OM_EXPECT_ERR(om_mesh_groups(mesh, small, 2147483640, 8, members, 8, &err), &err,
                  OM_ERR_OUT_OF_RANGE, NULL);
    OM_EXPECT_ERR(om_mesh_groups(mesh, big, 0, 1, members, 8, &err), &err,
                  OM_ERR_BUFFER_TOO_SMALL, "2147483647");
    om_mesh_free(mesh);
    long grown = max_rss_kib() - before;
    om_test_record(grown < 64 * 1024, __FILE__, __LINE__,
                   "peak memory grew by %ld KiB", grown);
}

static void test_huge_composite_mesh(void)
{
    /* 2 * 3 * 357913941 = 2^31 - 2 ranks; small groups anywhere in it,
     * checked against the naive reference. */
    long before = max_rss_kib();
    shape_t s = {3, {2, 3, 357913941}, 2147483646};
    om_mesh *mesh = om_test_mesh("dp=2,cp=3,tp=357913941");
    OM_EXPECT_INT(om_mesh_size(mesh), s.total);
    uint64_t rng = 7;
    static const char *const sets[] = {"dp", "cp", "dp,cp", ""};
    for (size_t k = 0; k < 4; k++) {
        uint64_t mask = mask_of(mesh, sets[k]);
        int64_t rc, rs, count = 0, size = 0;
        ref_shape(&s, mask, &rc, &rs);
        om_error err;
        om_error_clear(&err);
        OM_EXPECT_OK(om_mesh_group_shape(mesh, mask, &count, &size, &err), &err);
        OM_EXPECT(count == rc && size == rs);
        bool ok = true;
        for (int i = 0; i < 200 && ok; i++) {
            int64_t r = i < 2 ? (i ? s.total - 1 : 0)
                              : om_test_rand_range(&rng, 0, s.total - 1);
            int32_t got[6], want[6];
            int64_t index = -1;
            ref_group_of(&s, mask, r, want);
            ok = om_mesh_group_of(mesh, mask, r, got, 6, &err) == OM_OK &&
                 memcmp(got, want, (size_t)rs * sizeof *got) == 0 &&
                 om_mesh_group_index(mesh, mask, r, &index, &err) == OM_OK &&
                 index == ref_index(&s, mask, r);
            /* The group at that index, through a slice of om_mesh_groups. */
            int32_t slice[6];
            ok = ok && om_mesh_groups(mesh, mask, index, 1, slice, 6, &err) == OM_OK &&
                 memcmp(slice, want, (size_t)rs * sizeof *slice) == 0;
            om_test_record(ok, __FILE__, __LINE__, "set \"%s\" rank %lld: %s",
                           sets[k], (long long)r, err.message);
        }
    }
    /* The last dp group is {1073741822, 2147483645}. */
    int32_t pair[2] = {0, 0};
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_OK(om_mesh_group_of(mesh, mask_of(mesh, "dp"), 2147483645, pair, 2, &err),
                 &err);
    OM_EXPECT(pair[0] == 1073741822 && pair[1] == 2147483645);
    om_mesh_free(mesh);
    long grown = max_rss_kib() - before;
    om_test_record(grown < 64 * 1024, __FILE__, __LINE__,
                   "peak memory grew by %ld KiB", grown);
}

static const om_test_case topology_tests[] = {
    {"DOMAIN example (dp=2,cp=2,tp=2)", test_domain_example},
    {"axis masks", test_axes_masks},
    {"axis mask errors", test_axes_errors},
    {"axes beyond index 63", test_axes_beyond_64},
    {"coordinate/rank round trip", test_coordinate_rank},
    {"coordinate errors", test_coordinate_errors},
    {"rank errors", test_rank_errors},
    {"group_shape, group_index, group_of, slices", test_group_queries},
    {"group query errors", test_group_errors},
    {"random shapes vs naive reference", test_random_cross_check},
    {"long and prime axes vs naive reference", test_large_axes_cross_check},
    {"2^31-1 ranks (prime axis)", test_huge_prime_mesh},
    {"2^31-2 ranks (composite)", test_huge_composite_mesh},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"topology", NULL, NULL, topology_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
