/* The offline mesh: construction rules, accessors, equality and hashing.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "om_test.h"

static om_mesh *make(const char *const *names, const int64_t *sizes, size_t n)
{
    om_mesh *mesh = NULL;
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_OK(om_mesh_new(names, sizes, n, &mesh, &err), &err);
    return mesh;
}

/* ---- construction ---- */

static void test_new_basic(void)
{
    const char *names[] = {"dp", "cp", "tp"};
    const int64_t sizes[] = {2, 2, 2};
    om_error err;
    om_test_poison(&err);
    om_mesh *mesh = NULL;
    OM_EXPECT_OK(om_mesh_new(names, sizes, 3, &mesh, &err), &err);
    OM_EXPECT(om_test_is_poisoned(&err)); /* success leaves err untouched */
    OM_EXPECT_INT(om_mesh_ndim(mesh), 3);
    OM_EXPECT_INT(om_mesh_size(mesh), 8);
    OM_EXPECT_STR(om_mesh_name(mesh, 0), "dp");
    OM_EXPECT_STR(om_mesh_name(mesh, 1), "cp");
    OM_EXPECT_STR(om_mesh_name(mesh, 2), "tp");
    OM_EXPECT_INT(om_mesh_dim_size(mesh, 0), 2);
    OM_EXPECT_INT(om_mesh_dim_size(mesh, 2), 2);
    om_mesh_free(mesh);
}

static void test_new_copies_names(void)
{
    char a[8] = "dp", b[8] = "tp";
    const char *names[] = {a, b};
    int64_t sizes[] = {3, 5};
    om_mesh *mesh = make(names, sizes, 2);
    strcpy(a, "XX");
    strcpy(b, "YY");
    sizes[0] = 99;
    OM_EXPECT_STR(om_mesh_name(mesh, 0), "dp");
    OM_EXPECT_STR(om_mesh_name(mesh, 1), "tp");
    OM_EXPECT_INT(om_mesh_dim_size(mesh, 0), 3);
    OM_EXPECT_INT(om_mesh_size(mesh), 15);
    OM_EXPECT(om_mesh_name(mesh, 0) != a);
    om_mesh_free(mesh);
}

static void test_empty_mesh(void)
{
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = NULL;
    OM_EXPECT_OK(om_mesh_new(NULL, NULL, 0, &mesh, &err), &err);
    OM_EXPECT(mesh != NULL);
    OM_EXPECT_INT(om_mesh_ndim(mesh), 0);
    OM_EXPECT_INT(om_mesh_size(mesh), 1);
    OM_EXPECT(om_mesh_name(mesh, 0) == NULL);
    OM_EXPECT_INT(om_mesh_dim_size(mesh, 0), 0);
    OM_EXPECT_INT(om_mesh_size_of(mesh, "tp"), 1);
    OM_EXPECT_INT(om_mesh_index_of(mesh, "tp"), -1);
    /* Non-NULL arrays with ndim 0 are fine too. */
    const char *names[] = {"x"};
    const int64_t sizes[] = {0};
    om_mesh *other = NULL;
    OM_EXPECT_OK(om_mesh_new(names, sizes, 0, &other, &err), &err);
    OM_EXPECT(om_mesh_equal(mesh, other));
    OM_EXPECT(om_mesh_hash(mesh) == om_mesh_hash(other));
    om_mesh_free(other);
    om_mesh_free(mesh);
}

static void test_new_null_arguments(void)
{
    const char *names[] = {"dp"};
    const int64_t sizes[] = {2};
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = (om_mesh *)(void *)&err; /* must be reset to NULL */
    OM_EXPECT_ERR(om_mesh_new(names, sizes, 1, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
    OM_EXPECT_ERR(om_mesh_new(NULL, sizes, 1, &mesh, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "names", "1");
    OM_EXPECT(mesh == NULL);
    mesh = (om_mesh *)(void *)&err;
    OM_EXPECT_ERR(om_mesh_new(names, NULL, 1, &mesh, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "sizes");
    OM_EXPECT(mesh == NULL);
}

static void test_new_null_name(void)
{
    const char *names[] = {"dp", NULL};
    const int64_t sizes[] = {2, 2};
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = (om_mesh *)(void *)&err;
    OM_EXPECT_ERR(om_mesh_new(names, sizes, 2, &mesh, &err), &err,
                  OM_ERR_INVALID_NAME, "1", "NULL");
    OM_EXPECT(mesh == NULL);
}

static void test_new_invalid_utf8(void)
{
    static const char *const bad[] = {
        "\xff",         /* never valid */
        "tp\xc3",       /* truncated sequence */
        "\xc0\xaf",     /* overlong '/' */
        "\xe0\x80\xaf", /* overlong */
        "\xed\xa0\x80", /* surrogate U+D800 */
        "\xf4\x90\x80\x80", /* beyond U+10FFFF */
        "a\x80",        /* stray continuation byte */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *names[] = {"dp", bad[i]};
        const int64_t sizes[] = {2, 2};
        om_error err;
        om_error_clear(&err);
        om_mesh *mesh = NULL;
        OM_EXPECT_ERR(om_mesh_new(names, sizes, 2, &mesh, &err), &err,
                      OM_ERR_INVALID_NAME, "UTF-8", "axis 1");
        OM_EXPECT(mesh == NULL);
    }
    /* Valid multi-byte UTF-8 is accepted and kept byte for byte. */
    const char *names[] = {"d\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
    const int64_t sizes[] = {2, 3, 1};
    om_mesh *mesh = make(names, sizes, 3);
    OM_EXPECT_STR(om_mesh_name(mesh, 0), "d\xc3\xa9");
    OM_EXPECT_STR(om_mesh_name(mesh, 2), "\xf0\x9f\x98\x80");
    OM_EXPECT_INT(om_mesh_index_of(mesh, "\xe2\x82\xac"), 1);
    om_mesh_free(mesh);
}

static void test_new_empty_name(void)
{
    const char *names[] = {"dp", ""};
    const int64_t sizes[] = {2, 2};
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = (om_mesh *)(void *)&err;
    OM_EXPECT_ERR(om_mesh_new(names, sizes, 2, &mesh, &err), &err,
                  OM_ERR_EMPTY_NAME, "axis 1", "empty");
    OM_EXPECT(mesh == NULL);
}

static void test_new_duplicate_name(void)
{
    const char *names[] = {"dp", "tp", "dp"};
    const int64_t sizes[] = {2, 2, 2};
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = (om_mesh *)(void *)&err;
    OM_EXPECT_ERR(om_mesh_new(names, sizes, 3, &mesh, &err), &err,
                  OM_ERR_DUPLICATE_NAME, "\"dp\"");
    OM_EXPECT(mesh == NULL);
    /* Names differing only in case or by a prefix are distinct. */
    const char *ok_names[] = {"dp", "DP", "d", "dpp"};
    const int64_t ok_sizes[] = {1, 2, 3, 4};
    mesh = make(ok_names, ok_sizes, 4);
    OM_EXPECT_INT(om_mesh_size(mesh), 24);
    OM_EXPECT_INT(om_mesh_index_of(mesh, "d"), 2);
    OM_EXPECT_INT(om_mesh_index_of(mesh, "dpp"), 3);
    om_mesh_free(mesh);
}

static void test_new_bad_size(void)
{
    const int64_t bad[] = {0, -1, -2147483648LL, INT64_MIN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *names[] = {"dp", "tp"};
        const int64_t sizes[] = {2, bad[i]};
        char value[32];
        snprintf(value, sizeof value, "%lld", (long long)bad[i]);
        om_error err;
        om_error_clear(&err);
        om_mesh *mesh = (om_mesh *)(void *)&err;
        OM_EXPECT_ERR(om_mesh_new(names, sizes, 2, &mesh, &err), &err,
                      OM_ERR_BAD_SIZE, "\"tp\"", value);
        OM_EXPECT(mesh == NULL);
    }
}

static void test_new_too_large(void)
{
    struct {
        size_t n;
        int64_t sizes[3];
        const char *value;
    } cases[] = {
        {1, {2147483648LL}, "2147483648"},
        {2, {2147483647LL, 2}, "2"},
        {2, {46341, 46341}, "46341"},
        {3, {1024, 1024, 2048}, "2048"},
        {2, {2, INT64_MAX}, "9223372036854775807"},
        {3, {65536, 65536, 65536}, "65536"},
    };
    const char *names[] = {"a", "b", "c"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        om_error err;
        om_error_clear(&err);
        om_mesh *mesh = (om_mesh *)(void *)&err;
        OM_EXPECT_ERR(om_mesh_new(names, cases[i].sizes, cases[i].n, &mesh, &err),
                      &err, OM_ERR_MESH_TOO_LARGE, cases[i].value, "2^31-1");
        OM_EXPECT(mesh == NULL);
    }
    /* The limit itself is fine. */
    const int64_t max1[] = {2147483647LL};
    om_mesh *mesh = make(names, max1, 1);
    OM_EXPECT_INT(om_mesh_size(mesh), OM_MAX_RANKS);
    om_mesh_free(mesh);
    const int64_t near[] = {46340, 46340, 1};
    mesh = make(names, near, 3);
    OM_EXPECT_INT(om_mesh_size(mesh), 2147395600LL);
    om_mesh_free(mesh);
}

static void test_new_checked(void)
{
    const char *names[] = {"dp", "cp", "tp"};
    const int64_t sizes[] = {2, 3, 4};
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = (om_mesh *)(void *)&err;
    OM_EXPECT_ERR(om_mesh_new_checked(names, 3, sizes, 2, &mesh, &err), &err,
                  OM_ERR_LENGTH_MISMATCH, "3", "2");
    OM_EXPECT(mesh == NULL);
    OM_EXPECT_ERR(om_mesh_new_checked(names, 0, sizes, 1, &mesh, &err), &err,
                  OM_ERR_LENGTH_MISMATCH, "0", "1");
    OM_EXPECT_ERR(om_mesh_new_checked(names, 3, sizes, 3, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
    OM_EXPECT_OK(om_mesh_new_checked(names, 3, sizes, 3, &mesh, &err), &err);
    OM_EXPECT_INT(om_mesh_size(mesh), 24);
    om_mesh_free(mesh);
    /* The checked form still validates everything else. */
    const int64_t zero[] = {2, 0, 4};
    OM_EXPECT_ERR(om_mesh_new_checked(names, 3, zero, 3, &mesh, &err), &err,
                  OM_ERR_BAD_SIZE, "\"cp\"", "0");
    OM_EXPECT_OK(om_mesh_new_checked(NULL, 0, NULL, 0, &mesh, &err), &err);
    OM_EXPECT_INT(om_mesh_ndim(mesh), 0);
    om_mesh_free(mesh);
}

static void test_many_axes(void)
{
    /* More axes than any small internal buffer. */
    enum { N = 100 };
    char storage[N][8];
    const char *names[N];
    int64_t sizes[N];
    for (int i = 0; i < N; i++) {
        snprintf(storage[i], sizeof storage[i], "a%d", i);
        names[i] = storage[i];
        sizes[i] = (i % 10 == 0) ? 2 : 1;
    }
    om_mesh *mesh = make(names, sizes, N);
    OM_EXPECT_INT(om_mesh_ndim(mesh), N);
    OM_EXPECT_INT(om_mesh_size(mesh), 1024);
    OM_EXPECT_INT(om_mesh_index_of(mesh, "a99"), 99);
    OM_EXPECT_STR(om_mesh_name(mesh, 57), "a57");
    OM_EXPECT_INT(om_mesh_size_of(mesh, "a90"), 2);
    OM_EXPECT_INT(om_mesh_size_of(mesh, "a91"), 1);
    om_mesh_free(mesh);
    /* A duplicate late in a long list is still found. */
    names[N - 1] = "a3";
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_ERR(om_mesh_new(names, sizes, N, &mesh, &err), &err,
                  OM_ERR_DUPLICATE_NAME, "\"a3\"");
}

/* Over OMI_NAME_INDEX_MIN axes names are found by binary search in name
 * order (length, then bytes): every name of a long mesh, in a scrambled
 * order of mixed lengths, is found at its axis; near misses are not; and
 * the views and groups that resolve names agree. */
static void test_name_index(void)
{
    enum { N = 3000 };
    static char storage[N][16];
    const char *names[N], *every_third[N / 3];
    int64_t sizes[N];
    for (int i = 0; i < N; i++) {
        /* 7919 is prime: consecutive axes get far-apart, mixed-length names. */
        snprintf(storage[i], sizeof storage[i], "x%d", (i * 7919) % 100003);
        names[i] = storage[i];
        sizes[i] = i == 1 || i == 4 || i == 2007 ? 3 : 1;
    }
    om_mesh *mesh = make(names, sizes, N);
    for (int i = 0; i < N; i++)
        if (om_mesh_index_of(mesh, names[i]) != i)
            OM_EXPECT_INT(om_mesh_index_of(mesh, names[i]), i);
    const char *misses[] = {"", "x", "x00", "x07", "y0", "x0 ", "x100003"};
    for (size_t k = 0; k < sizeof misses / sizeof *misses; k++)
        OM_EXPECT_INT(om_mesh_index_of(mesh, misses[k]), -1);
    OM_EXPECT_INT(om_mesh_index_of(mesh, "x0"), 0);
    OM_EXPECT_INT(om_mesh_size_of(mesh, names[2007]), 3);

    /* Every third axis (2998, 2995, ..., 1), last first: axes 1 and 4 (size
     * 3) among them and 2007 not, so a group has 9 ranks, as the flattened
     * axis. */
    for (int k = 0; k < N / 3; k++)
        every_third[k] = names[N - 2 - 3 * k];
    om_error err;
    om_error_clear(&err);
    size_t needed = 0;
    int32_t group[9];
    OM_EXPECT_OK(om_mesh_groups_named(mesh, every_third, N / 3, 0, 1, group, 9,
                                      &needed, &err), &err);
    OM_EXPECT_INT(needed, 9);
    om_mesh *sliced = NULL, *flat = NULL;
    OM_EXPECT_OK(om_view_slice(mesh, every_third, N / 3, &sliced, &err), &err);
    OM_EXPECT_INT(om_mesh_ndim(sliced), N / 3);
    OM_EXPECT_INT(om_mesh_index_of(sliced, names[N - 2]), 0);
    OM_EXPECT_INT(om_mesh_index_of(sliced, names[1]), N / 3 - 1);
    OM_EXPECT_INT(om_mesh_index_of(sliced, names[0]), -1);
    const char *ascending[N / 3];
    for (int k = 0; k < N / 3; k++)
        ascending[k] = every_third[N / 3 - 1 - k];
    OM_EXPECT_OK(om_view_flatten(mesh, ascending, N / 3, "f", &flat, &err), &err);
    OM_EXPECT_INT(om_mesh_ndim(flat), 1);
    OM_EXPECT_INT(om_mesh_size_of(flat, "f"), 9);
    /* A repeat far down a long list is still found. */
    ascending[N / 3 - 1] = ascending[5];
    om_mesh *none = NULL;
    OM_EXPECT_ERR(om_view_flatten(mesh, ascending, N / 3, "f", &none, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "is named twice");
    OM_EXPECT_ERR(om_mesh_groups_named(mesh, ascending, N / 3, 0, 1, group, 9,
                                       &needed, &err), &err,
                  OM_ERR_DUPLICATE_NAME, "is named twice");
    om_mesh_free(flat);
    om_mesh_free(sliced);
    om_mesh_free(mesh);
}

/* ---- accessors ---- */

static void test_accessors_out_of_range(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,tp=4");
    OM_EXPECT(om_mesh_name(mesh, 2) == NULL);
    OM_EXPECT(om_mesh_name(mesh, (size_t)-1) == NULL);
    OM_EXPECT_INT(om_mesh_dim_size(mesh, 2), 0);
    OM_EXPECT_INT(om_mesh_dim_size(mesh, (size_t)-1), 0);
    OM_EXPECT_INT(om_mesh_index_of(mesh, "tp"), 1);
    OM_EXPECT_INT(om_mesh_index_of(mesh, "t"), -1);
    OM_EXPECT_INT(om_mesh_index_of(mesh, "tpx"), -1);
    OM_EXPECT_INT(om_mesh_index_of(mesh, ""), -1);
    OM_EXPECT_INT(om_mesh_index_of(mesh, NULL), -1);
    om_mesh_free(mesh);
}

static void test_size_of(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=3,tp=4");
    OM_EXPECT_INT(om_mesh_size_of(mesh, "dp"), 2);
    OM_EXPECT_INT(om_mesh_size_of(mesh, "cp"), 3);
    OM_EXPECT_INT(om_mesh_size_of(mesh, "tp"), 4);
    OM_EXPECT_INT(om_mesh_size_of(mesh, "pp"), 1); /* absent: 1 */
    OM_EXPECT_INT(om_mesh_size_of(mesh, "ep"), 1);
    OM_EXPECT_INT(om_mesh_size_of(mesh, NULL), 1);
    OM_EXPECT_INT(om_mesh_size_of(NULL, "dp"), 1);
    OM_EXPECT_INT(om_mesh_size(mesh), 24);
    om_mesh_free(mesh);
}

static void test_get(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=3,tp=4");
    om_error err;
    om_test_poison(&err);
    om_mesh *sub = NULL;
    OM_EXPECT_OK(om_mesh_get(mesh, "cp", &sub, &err), &err);
    OM_EXPECT(om_test_is_poisoned(&err));
    OM_EXPECT_INT(om_mesh_ndim(sub), 1);
    OM_EXPECT_STR(om_mesh_name(sub, 0), "cp");
    OM_EXPECT_INT(om_mesh_dim_size(sub, 0), 3);
    OM_EXPECT_INT(om_mesh_size(sub), 3);
    om_mesh *expected = om_test_mesh("cp=3");
    OM_EXPECT(om_mesh_equal(sub, expected));
    OM_EXPECT(om_mesh_hash(sub) == om_mesh_hash(expected));
    om_mesh_free(expected);
    om_mesh_free(sub);
    /* The sub-mesh outlives its parent. */
    OM_EXPECT_OK(om_mesh_get(mesh, "tp", &sub, &err), &err);
    om_mesh_free(mesh);
    OM_EXPECT_STR(om_mesh_name(sub, 0), "tp");
    OM_EXPECT_INT(om_mesh_size(sub), 4);
    om_mesh_free(sub);
}

static void test_get_absent_is_empty(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,tp=4");
    om_error err;
    om_error_clear(&err);
    om_mesh *sub = NULL;
    OM_EXPECT_OK(om_mesh_get(mesh, "pp", &sub, &err), &err);
    OM_EXPECT(sub != NULL);
    OM_EXPECT_INT(om_mesh_ndim(sub), 0);
    OM_EXPECT_INT(om_mesh_size(sub), 1);
    om_mesh *empty = NULL;
    OM_EXPECT_OK(om_mesh_new(NULL, NULL, 0, &empty, &err), &err);
    OM_EXPECT(om_mesh_equal(sub, empty));
    om_mesh_free(empty);
    om_mesh_free(sub);
    OM_EXPECT_OK(om_mesh_get(mesh, "", &sub, &err), &err);
    OM_EXPECT_INT(om_mesh_ndim(sub), 0);
    om_mesh_free(sub);
    om_mesh_free(mesh);
}

static void test_get_null(void)
{
    om_mesh *mesh = om_test_mesh("dp=2");
    om_error err;
    om_error_clear(&err);
    om_mesh *sub = (om_mesh *)(void *)&err;
    OM_EXPECT_ERR(om_mesh_get(NULL, "dp", &sub, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh");
    OM_EXPECT(sub == NULL);
    sub = (om_mesh *)(void *)&err;
    OM_EXPECT_ERR(om_mesh_get(mesh, NULL, &sub, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "name");
    OM_EXPECT(sub == NULL);
    OM_EXPECT_ERR(om_mesh_get(mesh, "dp", NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
    om_mesh_free(mesh);
}

static void test_null_mesh_accessors(void)
{
    OM_EXPECT_INT(om_mesh_ndim(NULL), 0);
    OM_EXPECT_INT(om_mesh_size(NULL), 0);
    OM_EXPECT(om_mesh_name(NULL, 0) == NULL);
    OM_EXPECT_INT(om_mesh_dim_size(NULL, 0), 0);
    OM_EXPECT_INT(om_mesh_index_of(NULL, "dp"), -1);
    OM_EXPECT_INT(om_mesh_hash(NULL), 0);
}

/* ---- equality and hashing ---- */

static void test_equal(void)
{
    om_mesh *a = om_test_mesh("dp=2,cp=2,tp=2");
    om_mesh *b = om_test_mesh("dp=2,cp=2,tp=2");
    om_mesh *order = om_test_mesh("cp=2,dp=2,tp=2");
    om_mesh *size = om_test_mesh("dp=2,cp=2,tp=4");
    om_mesh *shorter = om_test_mesh("dp=2,cp=2");
    om_mesh *name = om_test_mesh("dp=2,cp=2,TP=2");
    OM_EXPECT(om_mesh_equal(a, b));
    OM_EXPECT(om_mesh_equal(b, a));
    OM_EXPECT(om_mesh_equal(a, a));
    OM_EXPECT(!om_mesh_equal(a, order));
    OM_EXPECT(!om_mesh_equal(a, size));
    OM_EXPECT(!om_mesh_equal(a, shorter));
    OM_EXPECT(!om_mesh_equal(shorter, a));
    OM_EXPECT(!om_mesh_equal(a, name));
    OM_EXPECT(om_mesh_equal(NULL, NULL));
    OM_EXPECT(!om_mesh_equal(a, NULL));
    OM_EXPECT(!om_mesh_equal(NULL, a));
    OM_EXPECT(a != b);
    om_mesh_free(a);
    om_mesh_free(b);
    om_mesh_free(order);
    om_mesh_free(size);
    om_mesh_free(shorter);
    om_mesh_free(name);
}

static void test_equal_name_boundaries(void)
{
    /* ("ab","c") and ("a","bc") hold the same bytes but differ. */
    const char *n1[] = {"ab", "c"};
    const char *n2[] = {"a", "bc"};
    const int64_t sizes[] = {2, 3};
    om_mesh *a = make(n1, sizes, 2);
    om_mesh *b = make(n2, sizes, 2);
    OM_EXPECT(!om_mesh_equal(a, b));
    OM_EXPECT(om_mesh_hash(a) != om_mesh_hash(b));
    om_mesh_free(a);
    om_mesh_free(b);
}

static void test_hash_consistent(void)
{
    static const char *const specs[] = {
        "",          "dp=1",      "dp=2",       "tp=2",     "dp=2,tp=2",
        "tp=2,dp=2", "dp=2,tp=4", "dp=4,tp=2",  "dp=2,cp=2,tp=2",
        "dp=8",      "pp=8",      "d=2,p=2",    "dp=2,pp=1",
    };
    enum { N = sizeof specs / sizeof specs[0] };
    om_mesh *first[N], *second[N];
    for (size_t i = 0; i < N; i++) {
        first[i] = om_test_mesh(specs[i]);
        second[i] = om_test_mesh(specs[i]);
    }
    for (size_t i = 0; i < N; i++) {
        /* Equal meshes hash alike, and the hash is a pure function. */
        OM_EXPECT(om_mesh_equal(first[i], second[i]));
        OM_EXPECT(om_mesh_hash(first[i]) == om_mesh_hash(second[i]));
        OM_EXPECT(om_mesh_hash(first[i]) == om_mesh_hash(first[i]));
        for (size_t j = 0; j < N; j++) {
            if (i == j)
                continue;
            OM_EXPECT(!om_mesh_equal(first[i], second[j]));
            /* These few distinct meshes should not collide. */
            OM_EXPECT(om_mesh_hash(first[i]) != om_mesh_hash(second[j]));
        }
    }
    for (size_t i = 0; i < N; i++) {
        om_mesh_free(first[i]);
        om_mesh_free(second[i]);
    }
}

static void test_hash_via_other_constructors(void)
{
    /* The same (names, shape) from the spec, JSON, get and new. */
    om_error err;
    om_error_clear(&err);
    om_mesh *spec = om_test_mesh("dp=4,tp=2");
    om_mesh *json = NULL;
    const char *text = "{\"mesh_dim_names\":[\"dp\",\"tp\"],\"mesh_shape\":[4,2]}";
    OM_EXPECT_OK(om_mesh_from_json(text, strlen(text), &json, &err), &err);
    const char *names[] = {"dp", "tp"};
    const int64_t sizes[] = {4, 2};
    om_mesh *direct = make(names, sizes, 2);
    OM_EXPECT(om_mesh_equal(spec, json));
    OM_EXPECT(om_mesh_equal(spec, direct));
    OM_EXPECT(om_mesh_hash(spec) == om_mesh_hash(json));
    OM_EXPECT(om_mesh_hash(spec) == om_mesh_hash(direct));
    om_mesh *tp = NULL, *tp_direct = om_test_mesh("tp=2");
    OM_EXPECT_OK(om_mesh_get(direct, "tp", &tp, &err), &err);
    OM_EXPECT(om_mesh_hash(tp) == om_mesh_hash(tp_direct));
    om_mesh_free(tp);
    om_mesh_free(tp_direct);
    om_mesh_free(spec);
    om_mesh_free(json);
    om_mesh_free(direct);
}

static const om_test_case mesh_tests[] = {
    {"new: basic", test_new_basic},
    {"new: copies its input", test_new_copies_names},
    {"new: empty mesh", test_empty_mesh},
    {"new: NULL arguments", test_new_null_arguments},
    {"new: NULL name", test_new_null_name},
    {"new: invalid UTF-8", test_new_invalid_utf8},
    {"new: empty name", test_new_empty_name},
    {"new: duplicate name", test_new_duplicate_name},
    {"new: size < 1", test_new_bad_size},
    {"new: product over 2^31-1", test_new_too_large},
    {"new_checked: length mismatch", test_new_checked},
    {"new: many axes", test_many_axes},
    {"many axes: names found by the index", test_name_index},
    {"accessors out of range", test_accessors_out_of_range},
    {"size_of: absent = 1", test_size_of},
    {"get: single-axis sub-mesh", test_get},
    {"get: absent = empty mesh", test_get_absent_is_empty},
    {"get: NULL arguments", test_get_null},
    {"accessors on NULL", test_null_mesh_accessors},
    {"equality", test_equal},
    {"equality at name boundaries", test_equal_name_boundaries},
    {"hash consistent with equality", test_hash_consistent},
    {"hash across constructors", test_hash_via_other_constructors},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"mesh", NULL, NULL, mesh_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
