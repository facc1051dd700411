/* Views (view.h): VIEWS.md section 1's examples, normal form, equality,
 * every validity rule and operation error with its message, JSON round
 * trips, and properties on random views checked against a brute-force
 * reference built from the definition (rank = offset + sum of digit *
 * stride; groups = ranks agreeing off S, ascending by first member).
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_test.h"

/* ---- helpers ---- */

static om_mesh *view1(const char *names_csv, const int64_t *sizes,
                      const int64_t *strides, size_t n, int64_t offset)
{
    static char storage[16][16];
    const char *names[16];
    const char *p = names_csv;
    for (size_t i = 0; i < n; i++) {
        size_t len = strcspn(p, ",");
        memcpy(storage[i], p, len);
        storage[i][len] = '\0';
        names[i] = storage[i];
        p += len + (p[len] == ',');
    }
    om_error err;
    om_mesh *v = NULL;
    OM_EXPECT_OK(om_view_new(names, n, sizes, n, strides, n, offset, &v, &err), &err);
    return v;
}

/* "{0,1},{2,3}" of the groups over the axes named in `axes` (csv). */
static void groups_text(const om_mesh *v, const char *axes, char *buf, size_t size)
{
    om_error err;
    uint64_t mask = 0;
    OM_EXPECT_OK(om_mesh_axes(v, axes, &mask, &err), &err);
    int64_t count = 0, gsize = 0;
    OM_EXPECT_OK(om_mesh_group_shape(v, mask, &count, &gsize, &err), &err);
    int32_t *out = malloc((size_t)(count * gsize + 1) * sizeof *out);
    OM_EXPECT_OK(om_mesh_groups(v, mask, 0, count, out, (size_t)(count * gsize), &err), &err);
    size_t o = 0;
    buf[0] = '\0';
    for (int64_t g = 0; g < count && o + 16 < size; g++) {
        o += (size_t)snprintf(buf + o, size - o, "%s{", g ? "," : "");
        for (int64_t m = 0; m < gsize && o + 16 < size; m++)
            o += (size_t)snprintf(buf + o, size - o, "%s%d", m ? "," : "", out[g * gsize + m]);
        o += (size_t)snprintf(buf + o, size - o, "}");
    }
    free(out);
}

#define EXPECT_GROUPS(v, axes, want)                                           \
    do {                                                                       \
        char buf_[4096];                                                       \
        groups_text((v), (axes), buf_, sizeof buf_);                           \
        om_test_record(strcmp(buf_, (want)) == 0, __FILE__, __LINE__,          \
                       "groups over \"%s\" are %s, expected %s", (axes), buf_, \
                       (want));                                                \
    } while (0)

static void modes_text(const om_mesh *v, size_t axis, char *buf, size_t size)
{
    int64_t m[64];
    size_t needed = 0;
    om_error err;
    OM_EXPECT_OK(om_view_modes(v, axis, m, 64, &needed, &err), &err);
    size_t o = (size_t)snprintf(buf, size, "[");
    for (size_t j = 0; j + 1 < needed; j += 2)
        o += (size_t)snprintf(buf + o, size - o, "%s(%lld,%lld)", j ? "," : "",
                              (long long)m[j], (long long)m[j + 1]);
    snprintf(buf + o, size - o, "]");
}

#define EXPECT_MODES(v, axis, want)                                            \
    do {                                                                       \
        char buf_[512];                                                        \
        modes_text((v), (axis), buf_, sizeof buf_);                            \
        om_test_record(strcmp(buf_, (want)) == 0, __FILE__, __LINE__,          \
                       "modes of axis %d are %s, expected %s", (int)(axis),    \
                       buf_, (want));                                          \
    } while (0)

static om_mesh *flatten(const om_mesh *v, const char *a, const char *b,
                        const char *name)
{
    const char *axes[2] = {a, b};
    om_error err;
    om_mesh *out = NULL;
    OM_EXPECT_OK(om_view_flatten(v, axes, b ? 2 : 1, name, &out, &err), &err);
    return out;
}

/* ---- VIEWS.md section 1 ---- */

static void test_spec_examples(void)
{
    om_mesh *v = view1("dp,cp,tp", (int64_t[]){2, 2, 2}, (int64_t[]){4, 2, 1}, 3, 0);
    OM_EXPECT(om_view_is_plain(v));
    EXPECT_GROUPS(v, "tp", "{0,1},{2,3},{4,5},{6,7}");
    EXPECT_GROUPS(v, "cp", "{0,2},{1,3},{4,6},{5,7}");
    EXPECT_GROUPS(v, "dp", "{0,4},{1,5},{2,6},{3,7}");

    om_mesh *dp_cp = flatten(v, "dp", "cp", NULL);
    OM_EXPECT_STR(om_mesh_name(dp_cp, 0), "dp_cp");
    EXPECT_MODES(dp_cp, 0, "[(4,2)]");
    EXPECT_GROUPS(dp_cp, "dp_cp", "{0,2,4,6},{1,3,5,7}");
    OM_EXPECT_INT(om_view_instance_count(dp_cp), 2);

    om_mesh *dp_tp = flatten(v, "dp", "tp", NULL);
    EXPECT_MODES(dp_tp, 0, "[(2,4),(2,1)]");
    EXPECT_GROUPS(dp_tp, "dp_tp", "{0,1,4,5},{2,3,6,7}");
    int64_t c = -1;
    om_error err;
    OM_EXPECT_OK(om_mesh_coordinate(dp_tp, 4, &c, 1, &err), &err);
    OM_EXPECT_INT(c, 2);

    /* unflatten of a multi-mode axis splits at mode boundaries */
    om_mesh *xy = NULL;
    const char *xy_names[2] = {"x", "y"};
    OM_EXPECT_OK(om_view_unflatten(dp_tp, "dp_tp", (int64_t[]){2, 2}, 2, xy_names, 2,
                                   &xy, &err), &err);
    EXPECT_MODES(xy, 0, "[(2,4)]");
    EXPECT_MODES(xy, 1, "[(2,1)]");
    EXPECT_GROUPS(xy, "x", "{0,4},{1,5},{2,6},{3,7}");
    EXPECT_GROUPS(xy, "y", "{0,1},{2,3},{4,5},{6,7}");
    om_mesh *back = NULL;
    OM_EXPECT_OK(om_view_unflatten(dp_tp, "dp_tp", (int64_t[]){4, 1}, 2, xy_names, 2,
                                   &back, &err), &err);
    EXPECT_MODES(back, 0, "[(2,4),(2,1)]");
    EXPECT_MODES(back, 1, "[]");
    om_mesh_free(back);
    om_mesh_free(xy);

    om_mesh *p4 = view1("pp,dp,cp,tp", (int64_t[]){2, 2, 2, 2}, (int64_t[]){8, 4, 2, 1}, 4, 0);
    om_mesh *pp_cp = flatten(p4, "pp", "cp", NULL);
    EXPECT_MODES(pp_cp, 0, "[(2,8),(2,2)]");
    EXPECT_GROUPS(pp_cp, "pp_cp", "{0,2,8,10},{1,3,9,11},{4,6,12,14},{5,7,13,15}");

    /* Chained: world 12 -> (a, b) -> slice b -> (b1, b2). */
    om_mesh *world = view1("world", (int64_t[]){12}, (int64_t[]){1}, 1, 0), *ab = NULL,
            *b = NULL, *bb = NULL;
    OM_EXPECT_OK(om_view_unflatten(world, "world", (int64_t[]){3, 4}, 2,
                                   (const char *[]){"a", "b"}, 2, &ab, &err), &err);
    OM_EXPECT_OK(om_view_slice(ab, (const char *[]){"b"}, 1, &b, &err), &err);
    OM_EXPECT_OK(om_view_unflatten(b, "b", (int64_t[]){2, 2}, 2,
                                   (const char *[]){"b1", "b2"}, 2, &bb, &err), &err);
    EXPECT_MODES(bb, 0, "[(2,2)]");
    EXPECT_MODES(bb, 1, "[(2,1)]");
    EXPECT_GROUPS(bb, "b1", "{0,2},{1,3},{4,6},{5,7},{8,10},{9,11}");
    OM_EXPECT_INT(om_view_instance_count(bb), 3);
    OM_EXPECT_INT(om_view_rank_count(bb), 12);
    OM_EXPECT_INT(om_mesh_size(bb), 4);
    /* Rank 9's coordinate is taken inside its instance [8, 12). */
    int64_t cc[2];
    OM_EXPECT_OK(om_mesh_coordinate(bb, 9, cc, 2, &err), &err);
    OM_EXPECT_INT(cc[0], 0);
    OM_EXPECT_INT(cc[1], 1);
    int32_t members[2];
    OM_EXPECT_OK(om_mesh_group_of(bb, 1, 9, members, 2, &err), &err);
    OM_EXPECT_INT(members[0], 9);
    OM_EXPECT_INT(members[1], 11);
    int64_t index = -1;
    OM_EXPECT_OK(om_mesh_group_index(bb, 1, 9, &index, &err), &err);
    OM_EXPECT_INT(index, 5);

    om_mesh *list[] = {v, dp_cp, dp_tp, p4, pp_cp, world, ab, b, bb};
    for (size_t i = 0; i < sizeof list / sizeof *list; i++)
        om_mesh_free(list[i]);
}

static void test_normal_form_and_equality(void)
{
    om_error err;
    om_mesh *v = NULL;
    /* [(2,4),(2,2)] is [(4,2)]; a size-1 axis has no modes; [1, x] modes go. */
    OM_EXPECT_OK(om_view_new_modes((const char *[]){"a", "b"}, 2, (int64_t[]){2, 1}, 2,
                                   (int64_t[]){2, 4, 2, 2, 1, 7}, 6, NULL, 0, 0, &v, &err),
                 &err);
    EXPECT_MODES(v, 0, "[(4,2)]");
    EXPECT_MODES(v, 1, "[]");
    OM_EXPECT_INT(om_view_mode_count(v, 0), 1);
    OM_EXPECT_INT(om_view_mode_count(v, 1), 0);
    OM_EXPECT_INT(om_mesh_dim_size(v, 0), 4);
    OM_EXPECT_INT(om_mesh_dim_size(v, 1), 1);
    OM_EXPECT(!om_view_is_plain(v));
    om_mesh *w = view1("a,b", (int64_t[]){4, 1}, (int64_t[]){2, 99}, 2, 0);
    OM_EXPECT(om_mesh_equal(v, w));
    OM_EXPECT_INT(om_mesh_hash(v), om_mesh_hash(w));
    om_mesh *shifted = view1("a,b", (int64_t[]){4, 1}, (int64_t[]){2, 1}, 2, 1);
    OM_EXPECT(!om_mesh_equal(v, shifted));
    OM_EXPECT_INT(om_view_offset(shifted), 1);
    OM_EXPECT_INT(om_view_extent(shifted), 8);
    OM_EXPECT(om_view_holds(shifted, 7));
    OM_EXPECT(!om_view_holds(shifted, 2));
    /* A plain mesh is the row-major view; same names and sizes but other
     * strides are a different view. */
    om_mesh *plain = om_test_mesh("a=4,b=1");
    om_mesh *rm = view1("a,b", (int64_t[]){4, 1}, (int64_t[]){1, 1}, 2, 0);
    OM_EXPECT(om_view_is_plain(plain));
    OM_EXPECT(om_view_is_plain(rm));
    OM_EXPECT(om_mesh_equal(plain, rm));
    OM_EXPECT(!om_mesh_equal(plain, v));
    /* The 1.0 JSON of a plain mesh is unchanged; views keep it too. */
    char *json = NULL;
    OM_EXPECT_OK(om_mesh_to_json(plain, &json, &err), &err);
    OM_EXPECT_STR(json, "{\"mesh_dim_names\":[\"a\",\"b\"],\"mesh_shape\":[4,1]}");
    om_string_free(json);
    om_mesh *list[] = {v, w, shifted, plain, rm};
    for (size_t i = 0; i < 5; i++)
        om_mesh_free(list[i]);
}

/* ---- validity rules ---- */

static void test_validity_errors(void)
{
    om_error err;
    om_mesh *v = (om_mesh *)1;
    const char *ab[2] = {"a", "b"};
    OM_EXPECT_ERR(om_view_new((const char *[]){"tp", "tp"}, 2, (int64_t[]){2, 2}, 2,
                              (int64_t[]){2, 1}, 2, 0, &v, &err), &err,
                  OM_ERR_DUPLICATE_NAME, "duplicate axis name 'tp'");
    OM_EXPECT(v == NULL);
    OM_EXPECT_ERR(om_view_new((const char *[]){"", "b"}, 2, (int64_t[]){2, 2}, 2,
                              (int64_t[]){2, 1}, 2, 0, &v, &err), &err,
                  OM_ERR_EMPTY_NAME, "axis 0");
    OM_EXPECT_ERR(om_view_new((const char *[]){"a", NULL}, 2, (int64_t[]){2, 2}, 2,
                              (int64_t[]){2, 1}, 2, 0, &v, &err), &err,
                  OM_ERR_INVALID_NAME, "NULL");
    OM_EXPECT_ERR(om_view_new((const char *[]){"a", "\xff"}, 2, (int64_t[]){2, 2}, 2,
                              (int64_t[]){2, 1}, 2, 0, &v, &err), &err,
                  OM_ERR_INVALID_NAME, "UTF-8");
    OM_EXPECT_ERR(om_view_new(ab, 2, (int64_t[]){2, 0}, 2, (int64_t[]){2, 1}, 2, 0, &v,
                              &err), &err, OM_ERR_BAD_SIZE, "'b'", "size 0");
    OM_EXPECT_ERR(om_view_new(ab, 2, (int64_t[]){2, 2}, 2, (int64_t[]){0, 1}, 2, 0, &v,
                              &err), &err, OM_ERR_OUT_OF_RANGE, "'a'", "stride 0");
    OM_EXPECT_ERR(om_view_new(ab, 2, (int64_t[]){2, 2}, 2, (int64_t[]){-2, 1}, 2, 0, &v,
                              &err), &err, OM_ERR_OUT_OF_RANGE, "stride -2");
    OM_EXPECT_ERR(om_view_new(ab, 2, (int64_t[]){2, 2}, 2, (int64_t[]){2, 1}, 2, -1, &v,
                              &err), &err, OM_ERR_OUT_OF_RANGE, "offset -1");
    OM_EXPECT_ERR(om_view_new(ab, 2, (int64_t[]){2, 2}, 2,
                              (int64_t[]){INT64_C(2147483647), 1}, 2, 0, &v, &err),
                  &err, OM_ERR_OUT_OF_RANGE, "reaches rank 2147483648, beyond 2^31-1");
    OM_EXPECT_ERR(om_view_new(ab, 2, (int64_t[]){2, 2}, 2, (int64_t[]){5, 5}, 2, 0, &v,
                              &err), &err, OM_ERR_RANK_COLLISION,
                  "rank 5 appears twice: coords (0,1) and (1,0)");
    OM_EXPECT_ERR(om_view_new(ab, 2, (int64_t[]){3, 2}, 2, (int64_t[]){1, 2}, 2, 0, &v,
                              &err), &err, OM_ERR_RANK_COLLISION,
                  "rank 2 appears twice: coords (2,0) and (0,1)");
    /* Collisions across instances name the instances. */
    OM_EXPECT_ERR(om_view_new_modes(ab, 2, (int64_t[]){1, 1}, 2, (int64_t[]){2, 2, 2, 1}, 4,
                                    (int64_t[]){2, 1}, 2, 0, &v, &err),
                  &err, OM_ERR_RANK_COLLISION, "instance");
    OM_EXPECT_ERR(om_view_new(ab, 2, (int64_t[]){2, 2}, 1, (int64_t[]){2, 1}, 2, 0, &v,
                              &err), &err, OM_ERR_LENGTH_MISMATCH, "2 axis names, 1 sizes");
    OM_EXPECT_ERR(om_view_new_modes(ab, 2, (int64_t[]){1, 1}, 2, (int64_t[]){2, 2, 2}, 3,
                                    NULL, 0, 0, &v, &err),
                  &err, OM_ERR_LENGTH_MISMATCH, "modes");
    OM_EXPECT_ERR(om_view_new_modes(ab, 2, (int64_t[]){1, 1}, 1, (int64_t[]){2, 2, 2, 1}, 4,
                                    NULL, 0, 0, &v, &err),
                  &err, OM_ERR_LENGTH_MISMATCH, "mode counts");
    OM_EXPECT_ERR(om_view_new_modes(ab, 2, (int64_t[]){1, 1}, 2, (int64_t[]){2, 2, 2, 1}, 4,
                                    (int64_t[]){2}, 1, 0, &v, &err),
                  &err, OM_ERR_LENGTH_MISMATCH, "even");
    OM_EXPECT_ERR(om_view_new_modes(ab, 2, (int64_t[]){1, 1}, 2, (int64_t[]){2, 2, 0, 1}, 4,
                                    NULL, 0, 0, &v, &err),
                  &err, OM_ERR_BAD_SIZE, "'b'", "size 0");
    OM_EXPECT_ERR(om_view_new_modes(ab, 2, (int64_t[]){1, 1}, 2, (int64_t[]){2, 2, 2, 1}, 4,
                                    (int64_t[]){0, 4}, 2, 0, &v, &err),
                  &err, OM_ERR_BAD_SIZE, "instance mode");
    OM_EXPECT_ERR(om_view_new_modes(ab, 2, (int64_t[]){1, 1}, 2, (int64_t[]){2, 2, 2, 1}, 4,
                                    (int64_t[]){INT64_C(2147483648), 4}, 2, 0, &v, &err),
                  &err, OM_ERR_OUT_OF_RANGE, "instance mode has size 2147483648");
    /* Instances whose product passes 2^31-1 say which product did. */
    OM_EXPECT_ERR(om_view_new_modes((const char *[]){"a"}, 1, (int64_t[]){1}, 1,
                                    (int64_t[]){65536, 1}, 2, (int64_t[]){65536, 65536}, 2,
                                    0, &v, &err),
                  &err, OM_ERR_MESH_TOO_LARGE, "more than 2^31-1 ranks",
                  "65536 ranks times an instance mode of size 65536");
    /* Each NULL array is named. */
    OM_EXPECT_ERR(om_view_new_modes(NULL, 2, (int64_t[]){1, 1}, 2, (int64_t[]){2, 2, 2, 1}, 4,
                                    NULL, 0, 0, &v, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "names array is NULL");
    OM_EXPECT_ERR(om_view_new_modes(ab, 2, NULL, 2, (int64_t[]){2, 2, 2, 1}, 4,
                                    NULL, 0, 0, &v, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "mode_counts array is NULL");
    OM_EXPECT_ERR(om_view_new_modes(ab, 2, (int64_t[]){1, 1}, 2, NULL, 4,
                                    NULL, 0, 0, &v, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "modes array is NULL");
    OM_EXPECT_ERR(om_view_new_modes(ab, 2, (int64_t[]){1, 1}, 2, (int64_t[]){2, 2, 2, 1}, 4,
                                    NULL, 2, 0, &v, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "instance_modes array is NULL");
    OM_EXPECT_ERR(om_view_new_modes(ab, 2, (int64_t[]){1, 1}, 2, (int64_t[]){2, 2, 2, 1}, 4,
                                    NULL, 0, 0, NULL, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    OM_EXPECT_ERR(om_view_new(ab, 2, NULL, 2, (int64_t[]){2, 1}, 2, 0, &v, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "sizes");
    OM_EXPECT_ERR(om_view_new(ab, 2, (int64_t[]){2, 2}, 2, (int64_t[]){2, 1}, 2, 0, NULL,
                              &err), &err, OM_ERR_INVALID_ARGUMENT, "out");
    OM_EXPECT_ERR(om_view_modes(NULL, 0, NULL, 0, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "view");
    om_mesh *ok = view1("a,b", (int64_t[]){2, 2}, (int64_t[]){1, 2}, 2, 0);
    int64_t small[1];
    size_t needed = 0;
    OM_EXPECT_ERR(om_view_modes(ok, 0, small, 1, &needed, &err), &err,
                  OM_ERR_BUFFER_TOO_SMALL, "needs 2");
    OM_EXPECT_INT(needed, 2);
    OM_EXPECT_ERR(om_view_modes(ok, 2, small, 1, &needed, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "axis index 2");
    OM_EXPECT_OK(om_view_instance_modes(ok, NULL, 0, &needed, &err), &err);
    OM_EXPECT_INT(needed, 0);
    OM_EXPECT_ERR(om_view_instance_modes(NULL, NULL, 0, &needed, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    /* A rank the view does not hold. */
    int64_t c[2];
    om_mesh *shifted = view1("a", (int64_t[]){2}, (int64_t[]){3}, 1, 4);
    OM_EXPECT_ERR(om_mesh_coordinate(shifted, 5, c, 2, &err), &err, OM_ERR_OUT_OF_RANGE,
                  "rank 5 is not in the view", "from 4 to 7");
    om_mesh_free(shifted);
    om_mesh_free(ok);
}

/* ---- operations ---- */

static void test_operation_errors(void)
{
    om_error err;
    om_mesh *v = om_test_mesh("pp=2,dp=4,tp=2"), *out = (om_mesh *)1;
    OM_EXPECT_ERR(om_view_flatten(v, (const char *[]){"tp", "dp"}, 2, NULL, &out, &err),
                  &err, OM_ERR_AXIS_ORDER, "axes 'tp' and 'dp' are not in view order (pp, dp, tp)");
    OM_EXPECT(out == NULL);
    OM_EXPECT_ERR(om_view_flatten(v, (const char *[]){"dp", "tp"}, 2, "tp", &out, &err),
                  &err, OM_ERR_DUPLICATE_NAME, "'tp' already exists in the view (pp, dp, tp)");
    OM_EXPECT_ERR(om_view_flatten(v, (const char *[]){"dp", "xp"}, 2, NULL, &out, &err),
                  &err, OM_ERR_UNKNOWN_AXIS, "axis 'xp' is not in the view (pp, dp, tp)");
    OM_EXPECT_ERR(om_view_flatten(v, (const char *[]){"dp", "dp"}, 2, NULL, &out, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "'dp' is named twice");
    OM_EXPECT_ERR(om_view_flatten(v, NULL, 0, NULL, &out, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "no axes");
    OM_EXPECT_ERR(om_view_flatten(NULL, (const char *[]){"dp"}, 1, NULL, &out, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "view");
    const char *ab[2] = {"a", "b"};
    OM_EXPECT_ERR(om_view_unflatten(v, "dp", (int64_t[]){3, 2}, 2, ab, 2, &out, &err),
                  &err, OM_ERR_SIZE_MISMATCH,
                  "the product of sizes (3, 2) is 6, but axis 'dp' has size 4");
    /* A product past 2^31-1 is said so (it printed the saturated 2^31 as the
     * product), and sizes after it are still checked. */
    OM_EXPECT_ERR(om_view_unflatten(v, "dp", (int64_t[]){INT64_MAX, 2}, 2, ab, 2, &out, &err),
                  &err, OM_ERR_SIZE_MISMATCH,
                  "the product of sizes (9223372036854775807, 2) is over 2^31-1, but axis "
                  "'dp' has size 4");
    OM_EXPECT_ERR(om_view_unflatten(v, "dp", (int64_t[]){1LL << 32, -1}, 2, ab, 2, &out, &err),
                  &err, OM_ERR_BAD_SIZE, "unflatten size -1 of 'dp' must be >= 1");
    OM_EXPECT_ERR(om_view_unflatten(v, "dp", (int64_t[]){2, 2}, 2, ab, 1, &out, &err),
                  &err, OM_ERR_LENGTH_MISMATCH, "2 sizes but 1 names");
    OM_EXPECT_ERR(om_view_unflatten(v, "dp", (int64_t[]){4, 0}, 2, ab, 2, &out, &err),
                  &err, OM_ERR_BAD_SIZE, "size 0");
    OM_EXPECT_ERR(om_view_unflatten(v, "xp", (int64_t[]){2, 2}, 2, ab, 2, &out, &err),
                  &err, OM_ERR_UNKNOWN_AXIS, "'xp'");
    OM_EXPECT_ERR(om_view_unflatten(v, "dp", (int64_t[]){2, 2}, 2,
                                    (const char *[]){"x", "tp"}, 2, &out, &err),
                  &err, OM_ERR_DUPLICATE_NAME, "duplicate axis name 'tp'");
    OM_EXPECT_ERR(om_view_unflatten(v, "dp", (int64_t[]){2, 2}, 0, ab, 0, &out, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "no sizes");
    /* [(3,4),(2,1)] into (2,3) cuts the (2,1) mode. */
    om_mesh *a = NULL;
    OM_EXPECT_OK(om_view_new_modes((const char *[]){"a"}, 1, (int64_t[]){2}, 1,
                                   (int64_t[]){3, 4, 2, 1}, 4, NULL, 0, 0, &a, &err), &err);
    OM_EXPECT_ERR(om_view_unflatten(a, "a", (int64_t[]){2, 3}, 2, ab, 2, &out, &err),
                  &err, OM_ERR_UNALIGNED,
                  "unflatten of 'a' into (2,3) does not align with its modes");
    om_mesh *ok = NULL;
    OM_EXPECT_OK(om_view_unflatten(a, "a", (int64_t[]){3, 2}, 2, ab, 2, &ok, &err), &err);
    EXPECT_MODES(ok, 0, "[(3,4)]");
    EXPECT_MODES(ok, 1, "[(2,1)]");
    om_mesh_free(ok);
    /* Slices: repeated names and absent names in tuples are errors; one
     * absent name is the empty mesh (DOMAIN.md). */
    OM_EXPECT_ERR(om_view_slice(v, (const char *[]){"dp", "dp"}, 2, &out, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "'dp' is named twice");
    OM_EXPECT_ERR(om_view_slice(v, (const char *[]){"dp", "ep"}, 2, &out, &err), &err,
                  OM_ERR_UNKNOWN_AXIS, "'ep'");
    OM_EXPECT_OK(om_view_slice(v, (const char *[]){"ep"}, 1, &out, &err), &err);
    OM_EXPECT_INT(om_mesh_ndim(out), 0);
    OM_EXPECT_INT(om_mesh_size(out), 1);
    om_mesh_free(out);
    /* Flattening a one-axis view into its own name returns it. */
    om_mesh *tp = NULL, *same = NULL;
    OM_EXPECT_OK(om_view_slice(v, (const char *[]){"tp"}, 1, &tp, &err), &err);
    OM_EXPECT_OK(om_view_flatten(tp, (const char *[]){"tp"}, 1, "tp", &same, &err), &err);
    OM_EXPECT(om_mesh_equal(tp, same));
    om_mesh_free(tp);
    om_mesh_free(same);
    om_mesh_free(a);
    om_mesh_free(v);
}

static void test_lenient_slice(void)
{
    /* view[("tp","dp")] is accepted: axes in the order named. */
    om_error err;
    om_mesh *v = om_test_mesh("dp=2,cp=2,tp=2"), *s = NULL;
    OM_EXPECT_OK(om_view_slice(v, (const char *[]){"tp", "dp"}, 2, &s, &err), &err);
    OM_EXPECT_STR(om_mesh_name(s, 0), "tp");
    OM_EXPECT_STR(om_mesh_name(s, 1), "dp");
    EXPECT_MODES(s, 0, "[(2,1)]");
    EXPECT_MODES(s, 1, "[(2,4)]");
    /* Members row-major over (tp, dp); groups ascending by first member. */
    EXPECT_GROUPS(s, "tp,dp", "{0,4,1,5},{2,6,3,7}");
    EXPECT_GROUPS(s, "dp", "{0,4},{1,5},{2,6},{3,7}");
    EXPECT_GROUPS(s, "tp", "{0,1},{2,3},{4,5},{6,7}");
    int64_t c[2];
    OM_EXPECT_OK(om_mesh_coordinate(s, 4, c, 2, &err), &err);
    OM_EXPECT_INT(c[0], 0);
    OM_EXPECT_INT(c[1], 1);
    int64_t r = -1;
    OM_EXPECT_OK(om_mesh_rank(s, (int64_t[]){1, 1}, 2, &r, &err), &err);
    OM_EXPECT_INT(r, 5);
    /* Locality counts hosts of the member set. */
    int64_t count, local, most;
    OM_EXPECT_OK(om_mesh_locality(s, 3, 2, &count, &local, &most, &err), &err);
    OM_EXPECT_INT(count, 2);
    OM_EXPECT_INT(local, 0);
    OM_EXPECT_INT(most, 2);
    om_mesh_free(s);
    om_mesh_free(v);
}

/* The flatten rules torch's mesh[axes]._flatten() follows (torch 2.15,
 * checked in tests/torch_layout/layout.json): one axis into its own name
 * is mesh[axis]; size-1 axes may be named anywhere. */
static void test_flatten_as_torch(void)
{
    om_error err;
    om_mesh *v = om_test_mesh("dp=3,cp=2,ep=1,tp=2"), *out = NULL, *want = NULL;
    /* ("cp") into "cp" (or the default name): the cp sub-view family, 6 instances. */
    OM_EXPECT_OK(om_view_flatten(v, (const char *[]){"cp"}, 1, NULL, &out, &err), &err);
    OM_EXPECT_OK(om_view_slice(v, (const char *[]){"cp"}, 1, &want, &err), &err);
    OM_EXPECT(om_mesh_equal(out, want));
    OM_EXPECT_INT(om_view_instance_count(out), 6);
    EXPECT_GROUPS(out, "cp", "{0,2},{1,3},{4,6},{5,7},{8,10},{9,11}");
    om_mesh_free(out);
    OM_EXPECT_OK(om_view_flatten(v, (const char *[]){"cp"}, 1, "cp", &out, &err), &err);
    OM_EXPECT(om_mesh_equal(out, want));
    om_mesh_free(out);
    om_mesh_free(want);
    /* Into another axis's name it is still refused. */
    OM_EXPECT_ERR(om_view_flatten(v, (const char *[]){"cp"}, 1, "tp", &out, &err), &err,
                  OM_ERR_DUPLICATE_NAME, "'tp' already exists in the view (dp, cp, ep, tp)");
    /* ep has size 1 (no modes): (ep, dp, cp) flattens as (dp, cp), named in that order. */
    OM_EXPECT_OK(om_view_flatten(v, (const char *[]){"ep", "dp", "cp"}, 3, NULL, &out, &err), &err);
    OM_EXPECT_STR(om_mesh_name(out, 0), "ep_dp_cp");
    EXPECT_MODES(out, 0, "[(6,2)]");
    EXPECT_GROUPS(out, "ep_dp_cp", "{0,2,4,6,8,10},{1,3,5,7,9,11}");
    om_mesh_free(out);
    /* Axes of size > 1 out of view order are refused, with or without
     * size-1 axes between; the message names the two of them. */
    OM_EXPECT_ERR(om_view_flatten(v, (const char *[]){"cp", "ep", "dp"}, 3, NULL, &out, &err),
                  &err, OM_ERR_AXIS_ORDER,
                  "axes 'cp' and 'dp' are not in view order (dp, cp, ep, tp)");
    OM_EXPECT(out == NULL);
    /* Falling strides do not make an order torch accepts: torch checks the
     * order of the mesh's own dimensions. DeviceMesh("cpu",
     * arange(8).reshape(2, 4).T, mesh_dim_names=("tp", "dp")) is the view
     * tp=(4:1), dp=(2:4), and its [("dp", "tp")]._flatten() raises the
     * ascending-order KeyError (torch 2.15), so both refuse (VIEWS.md 1). */
    om_mesh *t = NULL;
    OM_EXPECT_OK(om_view_new((const char *[]){"tp", "dp"}, 2, (int64_t[]){4, 2}, 2,
                             (int64_t[]){1, 4}, 2, 0, &t, &err), &err);
    OM_EXPECT_ERR(om_view_flatten(t, (const char *[]){"dp", "tp"}, 2, NULL, &out, &err), &err,
                  OM_ERR_AXIS_ORDER, "axes 'dp' and 'tp' are not in view order (tp, dp)");
    OM_EXPECT(out == NULL);
    OM_EXPECT_OK(om_view_flatten(t, (const char *[]){"tp", "dp"}, 2, NULL, &out, &err), &err);
    EXPECT_GROUPS(out, "tp_dp", "{0,4,1,5,2,6,3,7}");
    om_mesh_free(out);
    om_mesh_free(t);
    /* Likewise on a transposed slice (tp, ep, dp); the view order stays
     * accepted, and the size-1 ep may still stand anywhere. */
    om_mesh *s = NULL;
    OM_EXPECT_OK(om_view_slice(v, (const char *[]){"tp", "ep", "dp"}, 3, &s, &err), &err);
    OM_EXPECT_ERR(om_view_flatten(s, (const char *[]){"dp", "tp"}, 2, NULL, &out, &err), &err,
                  OM_ERR_AXIS_ORDER, "axes 'dp' and 'tp' are not in view order (tp, ep, dp)");
    OM_EXPECT(out == NULL);
    OM_EXPECT_OK(om_view_flatten(s, (const char *[]){"tp", "dp"}, 2, NULL, &out, &err), &err);
    EXPECT_MODES(out, 0, "[(2,1),(3,4)]");
    om_mesh_free(out);
    OM_EXPECT_OK(om_view_flatten(s, (const char *[]){"tp", "dp", "ep"}, 3, NULL, &out, &err), &err);
    EXPECT_MODES(out, 0, "[(2,1),(3,4)]");
    EXPECT_GROUPS(out, "tp_dp_ep", "{0,4,8,1,5,9},{2,6,10,3,7,11}");
    om_mesh_free(out);
    om_mesh_free(s);
    om_mesh_free(v);
}

/* A family whose instance modes outnumber its axis modes: slicing or
 * flattening it keeps every instance mode (these overran a buffer sized by
 * the axis modes alone; the C suite runs under ASan in tests/hardening). */
static void test_family_with_many_instance_modes(void)
{
    om_error err;
    om_mesh *v = om_test_mesh("ep=2,cp=2,pp=4"), *cp = NULL, *split = NULL, *out = NULL;
    OM_EXPECT_OK(om_view_slice(v, (const char *[]){"cp"}, 1, &cp, &err), &err);
    OM_EXPECT_OK(om_view_unflatten(cp, "cp", (int64_t[]){2, 1}, 2,
                                   (const char *[]){"u0", "u1"}, 2, &split, &err), &err);
    OM_EXPECT_INT(om_view_instance_count(split), 8);
    /* u1 (size 1, no modes): u0's mode and the two instance modes become instances. */
    OM_EXPECT_OK(om_view_slice(split, (const char *[]){"u1"}, 1, &out, &err), &err);
    OM_EXPECT_INT(om_view_instance_count(out), 16);
    OM_EXPECT_INT(om_view_rank_count(out), 16);
    EXPECT_GROUPS(out, "u1", "{0},{1},{2},{3},{4},{5},{6},{7},{8},{9},{10},{11},{12},{13},{14},{15}");
    om_mesh_free(out);
    OM_EXPECT_OK(om_view_flatten(split, (const char *[]){"u1"}, 1, "x", &out, &err), &err);
    OM_EXPECT_INT(om_view_instance_count(out), 16);
    om_mesh_free(out);
    om_mesh_free(split);
    om_mesh_free(cp);
    om_mesh_free(v);
}

/* ---- JSON ---- */

static void test_json(void)
{
    om_error err;
    om_mesh *v = om_test_mesh("dp=2,cp=2,tp=2");
    om_mesh *dp_tp = flatten(v, "dp", "tp", NULL), *back = NULL;
    char *json = NULL;
    OM_EXPECT_OK(om_view_to_json(dp_tp, &json, &err), &err);
    OM_EXPECT_STR(json, "{\"dim_names\":[\"dp_tp\"],\"instances\":[[0,1,4,5],[2,3,6,7]],"
                        "\"layout\":[[[2,4],[2,1]]],\"shape\":[4]}");
    OM_EXPECT_OK(om_view_from_json(json, strlen(json), &back, &err), &err);
    OM_EXPECT(om_mesh_equal(dp_tp, back));
    om_mesh_free(back);
    om_string_free(json);
    OM_EXPECT_OK(om_view_to_json(v, &json, &err), &err);
    OM_EXPECT_STR(json, "{\"dim_names\":[\"dp\",\"cp\",\"tp\"],\"layout\":[[[2,4]],[[2,2]],"
                        "[[2,1]]],\"shape\":[2,2,2]}");
    om_string_free(json);
    om_mesh *shifted = view1("a,b", (int64_t[]){2, 1}, (int64_t[]){3, 1}, 2, 8);
    OM_EXPECT_OK(om_view_to_json(shifted, &json, &err), &err);
    OM_EXPECT_STR(json, "{\"dim_names\":[\"a\",\"b\"],\"layout\":[[[2,3]],[]],"
                        "\"offset\":8,\"shape\":[2,1]}");
    OM_EXPECT_OK(om_view_from_json(json, strlen(json), &back, &err), &err);
    OM_EXPECT(om_mesh_equal(shifted, back));
    om_mesh_free(back);
    om_string_free(json);
    /* Records other tools print: size-1 modes and derived keys accepted. */
    const char *megatron = "{\"order\":\"tp-pp\",\"dim_names\":[\"pp\",\"tp\"],"
                           "\"shape\":[1,2],\"layout\":[[[1,2]],[[2,1]]],"
                           "\"groups\":{},\"coords\":[]}";
    OM_EXPECT_OK(om_view_from_json(megatron, strlen(megatron), &back, &err), &err);
    OM_EXPECT(om_view_is_plain(back));
    om_mesh_free(back);
    struct {
        const char *text;
        om_status status;
        const char *needle;
    } bad[] = {
        {"[]", OM_ERR_PARSE, "object"},
        {"{\"dim_names\":[\"a\"],\"shape\":[2]}", OM_ERR_PARSE, "lacks \"layout\""},
        {"{\"dim_names\":[\"a\"],\"shape\":[2],\"layout\":[[[2,1]]],\"x\":1}",
         OM_ERR_PARSE, "unknown key 'x'"},
        {"{\"dim_names\":[\"a\"],\"shape\":[3],\"layout\":[[[2,1]]]}", OM_ERR_PARSE,
         "axis 'a' has shape 3 but its layout holds 2"},
        {"{\"dim_names\":[\"a\"],\"shape\":[2],\"layout\":[[[2]]]}", OM_ERR_PARSE,
         "layout[0][0] must be a [size, stride] pair of integers, got an array of 1"},
        {"{\"dim_names\":[\"a\"],\"shape\":[2],\"layout\":[[[2,1.0]]]}", OM_ERR_PARSE,
         "layout[0][0] must be a [size, stride] pair of integers, got 1.0"},
        {"{\"dim_names\":[\"a\"],\"shape\":[2],\"layout\":[[\"2,1\"]]}", OM_ERR_PARSE,
         "layout[0][0] must be a [size, stride] pair of integers, got \"2,1\""},
        {"{\"dim_names\":[\"a\"],\"shape\":[2.0],\"layout\":[[[2,1]]]}", OM_ERR_PARSE,
         "shape[0] must be an integer, got 2.0"},
        {"{\"dim_names\":[\"a\"],\"shape\":[2],\"layout\":[[[2,1]]],\"offset\":\"4\"}",
         OM_ERR_PARSE, "\"offset\" must be an integer, got \"4\""},
        {"{\"dim_names\":[\"a\",\"b\"],\"shape\":[2],\"layout\":[[[2,1]]]}",
         OM_ERR_LENGTH_MISMATCH, "dim_names has 2"},
        {"{\"dim_names\":[1],\"shape\":[2],\"layout\":[[[2,1]]]}", OM_ERR_PARSE,
         "dim_names[0] must be a string, got 1"},
        {"{\"dim_names\":[\"a\"],\"shape\":[2],\"layout\":[[[2,1]]],"
         "\"instances\":[[0,1],[3,4],[5,6]]}", OM_ERR_PARSE, "strided family"},
        {"{\"dim_names\":[\"a\"],\"shape\":[2],\"layout\":[[[2,1]]],"
         "\"instances\":[[0,1],[2,4]]}", OM_ERR_PARSE, "instances[1][1]"},
        {"{\"dim_names\":[\"a\"],\"shape\":[2],\"layout\":[[[2,1]]],"
         "\"instances\":[[2,3]],\"offset\":1}", OM_ERR_PARSE, "disagrees"},
        {"{\"dim_names\":[\"a\",\"a\"],\"shape\":[2,1],\"layout\":[[[2,1]],[]]}",
         OM_ERR_DUPLICATE_NAME, "'a'"},
        {"{\"dim_names\":[\"a\"],\"shape\":[2],\"layout\":[[[2,1]]]} x", OM_ERR_PARSE,
         "view JSON"},
        /* Normalising multiplied size and stride before they were checked:
         * 3 * 3333333333333333332 overflowed (UBSan, found by fuzz_world_json). */
        {"{\"dim_names\":[\"ab\"],\"layout\":[[[0,1],[3,3333333333333333332]]],"
         "\"shape\":[3]}", OM_ERR_BAD_SIZE, "mode of size 0"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        OM_EXPECT_ERR(om_view_from_json(bad[i].text, strlen(bad[i].text), &back, &err),
                      &err, bad[i].status, bad[i].needle);
    om_mesh_free(shifted);
    om_mesh_free(dp_tp);
    om_mesh_free(v);
}

/* ---- properties on random views vs a brute-force reference ---- */

typedef struct {
    size_t ndim;
    int64_t size;
    int64_t count;      /* instances */
    int64_t *rank;      /* rank of (instance, row-major coordinate) */
} reference;

/* Enumerates the view by its definition from its public modes. */
static void reference_build(const om_mesh *v, reference *ref)
{
    om_error err;
    size_t n = om_mesh_ndim(v);
    ref->ndim = n;
    ref->size = om_mesh_size(v);
    ref->count = om_view_instance_count(v);
    ref->rank = malloc((size_t)(ref->size * ref->count) * sizeof *ref->rank);
    int64_t inst[64];
    size_t ni = 0;
    OM_EXPECT_OK(om_view_instance_modes(v, inst, 64, &ni, &err), &err);
    for (int64_t i = 0; i < ref->count; i++) {
        int64_t base = om_view_offset(v), rest = i;
        for (size_t j = ni / 2; j-- > 0;) {
            base += (rest % inst[2 * j]) * inst[2 * j + 1];
            rest /= inst[2 * j];
        }
        for (int64_t k = 0; k < ref->size; k++) {
            int64_t r = base, c = k;
            for (size_t a = n; a-- > 0;) {
                int64_t digit = c % om_mesh_dim_size(v, a);
                c /= om_mesh_dim_size(v, a);
                int64_t m[64];
                size_t nm = 0;
                OM_EXPECT_OK(om_view_modes(v, a, m, 64, &nm, &err), &err);
                for (size_t j = nm / 2; j-- > 0;) {
                    r += (digit % m[2 * j]) * m[2 * j + 1];
                    digit /= m[2 * j];
                }
            }
            ref->rank[i * ref->size + k] = r;
        }
    }
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Checks groups, group_of, group_index, coordinates and the partition
 * property of every axis set of `v` against the reference. */
static void check_view(const om_mesh *v, const char *what)
{
    om_error err;
    reference ref;
    reference_build(v, &ref);
    int64_t total = ref.size * ref.count;
    int64_t *sorted = malloc((size_t)total * sizeof *sorted);
    memcpy(sorted, ref.rank, (size_t)total * sizeof *sorted);
    qsort(sorted, (size_t)total, sizeof *sorted, cmp64);
    for (int64_t i = 1; i < total; i++)
        OM_EXPECT(sorted[i] != sorted[i - 1]);
    OM_EXPECT_INT(om_view_rank_count(v), total);
    OM_EXPECT_INT(om_view_extent(v), sorted[total - 1] + 1);
    size_t n = ref.ndim;
    int64_t *coord = malloc((n + 1) * sizeof *coord);
    /* Coordinates: rank k of each instance has coordinate row-major k. */
    for (int64_t i = 0; i < ref.count; i++)
        for (int64_t k = 0; k < ref.size; k++) {
            int64_t r = ref.rank[i * ref.size + k];
            OM_EXPECT_OK(om_mesh_coordinate(v, r, coord, n, &err), &err);
            int64_t flat = 0;
            for (size_t a = 0; a < n; a++)
                flat = flat * om_mesh_dim_size(v, a) + coord[a];
            if (flat != k)
                fprintf(stderr, "%s: rank %lld coordinate %lld, expected %lld\n", what,
                        (long long)r, (long long)flat, (long long)k);
            OM_EXPECT_INT(flat, k);
            if (i == 0) {
                int64_t back = -1;
                OM_EXPECT_OK(om_mesh_rank(v, coord, n, &back, &err), &err);
                OM_EXPECT_INT(back, r);
            }
        }
    /* Every axis set: groups = ranks agreeing off S within the instance,
     * members row-major over S, ascending by first member. */
    int32_t *out = malloc((size_t)total * sizeof *out);
    int64_t *want = malloc((size_t)total * sizeof *want);
    int64_t *firsts = malloc((size_t)total * sizeof *firsts);
    for (uint64_t mask = 0; mask < (UINT64_C(1) << n); mask++) {
        int64_t count = 0, gsize = 0;
        OM_EXPECT_OK(om_mesh_group_shape(v, mask, &count, &gsize, &err), &err);
        OM_EXPECT_INT(count * gsize, total);
        OM_EXPECT_OK(om_mesh_groups(v, mask, 0, count, out, (size_t)total, &err), &err);
        /* Reference groups: for each instance and outside coordinate. */
        int64_t g = 0;
        for (int64_t i = 0; i < ref.count; i++)
            for (int64_t k = 0; k < ref.size; k++) {
                /* k is a group's first member when its S digits are 0. */
                int64_t c = k;
                bool first = true;
                for (size_t a = n; a-- > 0;) {
                    if (((mask >> a) & 1u) && c % om_mesh_dim_size(v, a) != 0)
                        first = false;
                    c /= om_mesh_dim_size(v, a);
                }
                if (!first)
                    continue;
                firsts[g] = ref.rank[i * ref.size + k];
                /* Members: row-major over S from k. */
                for (int64_t m = 0; m < gsize; m++) {
                    int64_t rest = m, kk = k, place = 1;
                    for (size_t a = n; a-- > 0;) {
                        if ((mask >> a) & 1u) {
                            kk += (rest % om_mesh_dim_size(v, a)) * place;
                            rest /= om_mesh_dim_size(v, a);
                        }
                        place *= om_mesh_dim_size(v, a);
                    }
                    want[g * gsize + m] = ref.rank[i * ref.size + kk];
                }
                g++;
            }
        OM_EXPECT_INT(g, count);
        /* Order groups by first member (selection into `sorted`). */
        int64_t *order = malloc((size_t)count * sizeof *order);
        for (int64_t x = 0; x < count; x++)
            order[x] = firsts[x] * (total + 1) + x;
        qsort(order, (size_t)count, sizeof *order, cmp64);
        bool same = true, partition;
        for (int64_t x = 0; x < count; x++) {
            int64_t src = order[x] % (total + 1);
            for (int64_t m = 0; m < gsize; m++) {
                int32_t got = out[x * gsize + m];
                same &= got == want[src * gsize + m];
            }
        }
        /* Partition: every held rank exactly once. */
        int64_t *seen = malloc((size_t)total * sizeof *seen);
        for (int64_t x = 0; x < total; x++)
            seen[x] = out[x];
        qsort(seen, (size_t)total, sizeof *seen, cmp64);
        int64_t *held = malloc((size_t)total * sizeof *held);
        memcpy(held, ref.rank, (size_t)total * sizeof *held);
        qsort(held, (size_t)total, sizeof *held, cmp64);
        partition = memcmp(seen, held, (size_t)total * sizeof *seen) == 0;
        if (!same || !partition)
            fprintf(stderr, "%s mask %llx: groups differ from the reference\n", what,
                    (unsigned long long)mask);
        OM_EXPECT(same);
        OM_EXPECT(partition);
        /* group_of and group_index of every member. */
        for (int64_t x = 0; x < count; x++)
            for (int64_t m = 0; m < gsize; m++) {
                int32_t of[4096];
                int64_t index = -1;
                OM_EXPECT_OK(om_mesh_group_of(v, mask, out[x * gsize + m], of, 4096, &err),
                             &err);
                OM_EXPECT(memcmp(of, out + x * gsize, (size_t)gsize * sizeof *of) == 0);
                OM_EXPECT_OK(om_mesh_group_index(v, mask, out[x * gsize + m], &index, &err),
                             &err);
                OM_EXPECT_INT(index, x);
            }
        free(held);
        free(seen);
        free(order);
    }
    free(out);
    free(want);
    free(firsts);
    free(coord);
    free(sorted);
    free(ref.rank);
}

/* A random plain mesh of up to 5 axes and at most 256 ranks. */
static om_mesh *random_mesh(uint64_t *rng, char names[][8], size_t *n)
{
    *n = (size_t)om_test_rand_range(rng, 1, 5);
    const char *ptr[8];
    int64_t sizes[8], total = 1;
    for (size_t i = 0; i < *n; i++) {
        snprintf(names[i], 8, "a%zu", i);
        ptr[i] = names[i];
        int64_t hi = 256 / total;
        sizes[i] = om_test_rand_range(rng, 1, hi < 4 ? hi : 4);
        total *= sizes[i];
    }
    om_mesh *m = NULL;
    om_error err;
    OM_EXPECT_OK(om_mesh_new(ptr, sizes, *n, &m, &err), &err);
    return m;
}

static void test_random_views(void)
{
    uint64_t rng = 0x5eed;
    om_error err;
    for (int iter = 0; iter < 150; iter++) {
        char names[8][8];
        size_t n;
        om_mesh *m = random_mesh(&rng, names, &n);
        check_view(m, "plain");
        /* The same mesh through om_view_new with row-major strides. */
        const char *ptr[8];
        int64_t sizes[8], strides[8], stride = 1;
        for (size_t i = n; i-- > 0;) {
            ptr[i] = names[i];
            sizes[i] = om_mesh_dim_size(m, i);
            strides[i] = stride;
            stride *= sizes[i];
        }
        om_mesh *rm = NULL;
        OM_EXPECT_OK(om_view_new(ptr, n, sizes, n, strides, n, 0, &rm, &err), &err);
        OM_EXPECT(om_mesh_equal(m, rm));
        OM_EXPECT(om_view_is_plain(rm));
        /* A random permutation as a lenient slice (transposed view). */
        const char *perm[8];
        for (size_t i = 0; i < n; i++)
            perm[i] = names[i];
        for (size_t i = n; i-- > 1;) {
            size_t j = (size_t)om_test_rand_range(&rng, 0, (int64_t)i);
            const char *t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        size_t take = (size_t)om_test_rand_range(&rng, 1, (int64_t)n);
        om_mesh *s = NULL;
        OM_EXPECT_OK(om_view_slice(m, perm, take, &s, &err), &err);
        check_view(s, "slice");
        /* Flatten a random in-order subset of the slice, then unflatten:
         * the identity on the flattened axes. */
        om_mesh *f = NULL, *u = NULL;
        size_t ns = om_mesh_ndim(s);
        const char *sub[8];
        int64_t subsizes[8];
        size_t nsub = 0;
        for (size_t i = 0; i < ns; i++)
            if (om_test_rand_range(&rng, 0, 1) || (i + 1 == ns && nsub == 0)) {
                sub[nsub] = om_mesh_name(s, i);
                subsizes[nsub++] = om_mesh_dim_size(s, i);
            }
        OM_EXPECT_OK(om_view_flatten(s, sub, nsub, "flat", &f, &err), &err);
        check_view(f, "flatten");
        OM_EXPECT_OK(om_view_unflatten(f, "flat", subsizes, nsub, sub, nsub, &u, &err),
                     &err);
        om_mesh *direct = NULL;
        OM_EXPECT_OK(om_view_slice(s, sub, nsub, &direct, &err), &err);
        if (!om_mesh_equal(u, direct))
            fprintf(stderr, "flatten/unflatten not the identity (iteration %d)\n", iter);
        OM_EXPECT(om_mesh_equal(u, direct));
        check_view(u, "unflatten");
        /* JSON round trip. */
        char *json = NULL;
        om_mesh *back = NULL;
        OM_EXPECT_OK(om_view_to_json(u, &json, &err), &err);
        OM_EXPECT_OK(om_view_from_json(json, strlen(json), &back, &err), &err);
        OM_EXPECT(om_mesh_equal(u, back));
        om_string_free(json);
        om_mesh *list[] = {m, rm, s, f, u, direct, back};
        for (size_t i = 0; i < sizeof list / sizeof *list; i++)
            om_mesh_free(list[i]);
    }
}

static void test_interleaved_view(void)
{
    /* Distinct ranks without a mixed radix: a=(3,2), b=(2,3) reaches
     * {0,2,4,3,5,7}; groups over b come out sorted by first member. */
    om_mesh *v = view1("a,b", (int64_t[]){3, 2}, (int64_t[]){2, 3}, 2, 0);
    EXPECT_GROUPS(v, "b", "{0,3},{2,5},{4,7}");
    EXPECT_GROUPS(v, "a", "{0,2,4},{3,5,7}");
    check_view(v, "interleaved");
    om_mesh *w = view1("a,b", (int64_t[]){2, 3}, (int64_t[]){3, 2}, 2, 0);
    EXPECT_GROUPS(w, "b", "{0,2,4},{3,5,7}");
    EXPECT_GROUPS(w, "a", "{0,3},{2,5},{4,7}");
    check_view(w, "interleaved 2");
    int64_t count, local, most;
    om_error err;
    OM_EXPECT_OK(om_mesh_locality(w, 1, 3, &count, &local, &most, &err), &err);
    OM_EXPECT_INT(count, 3);
    OM_EXPECT_INT(local, 0);
    OM_EXPECT_INT(most, 2);
    /* One group over both axes, {0,2,3,4,5,7}: two ranks per host spread it
     * over hosts 0..3; eight per host keep it on one. */
    OM_EXPECT_OK(om_mesh_locality(w, 3, 2, &count, &local, &most, &err), &err);
    OM_EXPECT_INT(count, 1);
    OM_EXPECT_INT(local, 0);
    OM_EXPECT_INT(most, 4);
    OM_EXPECT_OK(om_mesh_locality(w, 3, 8, &count, &local, &most, &err), &err);
    OM_EXPECT_INT(count, 1);
    OM_EXPECT_INT(local, 1);
    OM_EXPECT_INT(most, 1);
    om_mesh_free(v);
    om_mesh_free(w);
}

static const om_test_case view_tests[] = {
    {"VIEWS.md examples", test_spec_examples},
    {"normal form and equality", test_normal_form_and_equality},
    {"validity rules and messages", test_validity_errors},
    {"operation errors", test_operation_errors},
    {"lenient transposed slice", test_lenient_slice},
    {"flatten as torch does", test_flatten_as_torch},
    {"families with many instance modes", test_family_with_many_instance_modes},
    {"JSON", test_json},
    {"random views vs reference", test_random_views},
    {"interleaved modes", test_interleaved_view},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"views", NULL, NULL, view_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
