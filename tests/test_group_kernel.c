/* The group kernel (src/group_kernel.c) against a brute-force reference:
 * random strided layouts with prime, odd and power-of-two lengths, every
 * kind of slice (empty, one value, across row and run boundaries, whole),
 * with guards around the output; then the awkward meshes of issue 16 and
 * others through om_mesh_groups() and om_mesh_group_of(), against the
 * naive definition of a group. Links the static library for omi_emit().
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_test.h"
#include "topology_layout.h"

#define GUARD 16
#define GUARD_VALUE INT32_C(-77)

/* Value of element e of the row-major enumeration, by division. */
static int64_t reference_value(const omi_layout *l, int64_t base, int64_t e)
{
    int64_t v = base;
    for (size_t i = l->n; i-- > 0;) {
        v += (e % l->ax[i].len) * l->ax[i].stride;
        e /= l->ax[i].len;
    }
    return v;
}

static int64_t layout_size(const omi_layout *l)
{
    int64_t size = 1;
    for (size_t i = 0; i < l->n; i++)
        size *= l->ax[i].len;
    return size;
}

static void describe(const omi_layout *l, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < l->n && o + 32 < size; i++)
        o += (size_t)snprintf(buf + o, size - o, "%s(%lld,%lld)", i ? " " : "",
                              (long long)l->ax[i].len, (long long)l->ax[i].stride);
}

static long slices_checked;

/* Emits [e0, e1) into a guarded buffer and compares every value. */
static void check_slice(const omi_layout *l, int64_t base, int64_t e0, int64_t e1)
{
    int64_t count = e1 > e0 ? e1 - e0 : 0;
    int32_t *buf = malloc((size_t)(count + 2 * GUARD) * sizeof *buf);
    if (!buf) {
        om_test_record(false, __FILE__, __LINE__, "out of memory");
        return;
    }
    for (int64_t i = 0; i < count + 2 * GUARD; i++)
        buf[i] = GUARD_VALUE;
    omi_emit(l, base, e0, e1, buf + GUARD);
    bool ok = true;
    int64_t bad = -1;
    for (int64_t i = 0; i < GUARD && ok; i++)
        if (buf[i] != GUARD_VALUE || buf[GUARD + count + i] != GUARD_VALUE) {
            ok = false;
            bad = i < GUARD ? -1 - i : count + i;
        }
    for (int64_t i = 0; i < count && ok; i++)
        if (buf[GUARD + i] != reference_value(l, base, e0 + i)) {
            ok = false;
            bad = e0 + i;
        }
    char text[512];
    describe(l, text, sizeof text);
    om_test_record(ok, __FILE__, __LINE__,
                   "layout %s base %lld slice [%lld,%lld): wrong value or guard "
                   "at element %lld", text, (long long)base, (long long)e0,
                   (long long)e1, (long long)bad);
    free(buf);
    slices_checked++;
}

/* Lengths that trip divisor-based blocking: primes around the pattern
 * capacity (4096), odd composites and powers of two. */
static const int64_t lengths[] = {
    1, 2, 3, 4, 5, 7, 8, 11, 13, 16, 31, 64, 127, 257, 1021, 1024,
    1031, 2047, 2048, 4093, 4095, 4096, 4097, 4099, 8191, 12289,
};
#define NLENGTHS (sizeof lengths / sizeof lengths[0])

static void random_layout(uint64_t *rng, omi_layout *l, int64_t max_size)
{
    l->n = (size_t)om_test_rand_range(rng, 0, 5);
    int64_t size = 1;
    for (size_t i = 0; i < l->n; i++) {
        int64_t len = lengths[om_test_rand_range(rng, 0, NLENGTHS - 1)];
        while (len > 1 && size * len > max_size)
            len /= 2;
        if (len < 1)
            len = 1;
        l->ax[i].len = len;
        size *= len;
    }
    /* Arbitrary strides (the kernel must not rely on mesh-like ones),
     * kept small enough that every value fits in an int32. */
    for (size_t i = 0; i < l->n; i++)
        l->ax[i].stride = om_test_rand_range(rng, 0, 3) == 0
                              ? 1
                              : om_test_rand_range(rng, 1, 5000);
}

static void test_random_layouts(void)
{
    uint64_t rng = UINT64_C(0x9e3779b97f4a7c15);
    slices_checked = 0;
    for (int iter = 0; iter < 300; iter++) {
        omi_layout l;
        random_layout(&rng, &l, 60000);
        int64_t size = layout_size(&l);
        int64_t base = om_test_rand_range(&rng, 0, 1000);
        check_slice(&l, base, 0, size);
        check_slice(&l, base, 0, 0);
        check_slice(&l, base, size - 1, size);
        for (int k = 0; k < 6; k++) {
            int64_t a = om_test_rand_range(&rng, 0, size);
            int64_t b = om_test_rand_range(&rng, 0, size);
            check_slice(&l, base, a < b ? a : b, a < b ? b : a);
        }
        /* Short slices at the start of a row of the outermost axis. */
        if (l.n > 0) {
            int64_t row = size / l.ax[0].len;
            int64_t at = row * om_test_rand_range(&rng, 0, l.ax[0].len - 1);
            check_slice(&l, base, at, at + (size - at < 3 ? size - at : 3));
        }
    }
    om_test_record(slices_checked > 2500, __FILE__, __LINE__,
                   "only %ld slices checked", slices_checked);
}

/* Layouts made to hit each branch: one axis longer than the pattern, a
 * prime outside a small block, a block exactly filling the pattern, a
 * block of one value, a split axis whose last run is a single block. */
static void test_edge_layouts(void)
{
    static const struct {
        size_t n;
        omi_axis ax[4];
    } cases[] = {
        {0, {{0, 0}}},
        {1, {{1, 1}}},
        {1, {{100003, 1}}},
        {1, {{100003, 7}}},
        {2, {{524287, 1}, {2, 524287}}},
        {3, {{262139, 4}, {2, 1}, {2, 2}}},
        {2, {{3, 4096}, {4096, 1}}},
        {2, {{4097, 1}, {1, 5}}},
        {2, {{1001, 2}, {2, 1}}},
        {2, {{10000, 41}, {41, 1}}},
        {3, {{5, 3}, {4099, 15}, {3, 1}}},
        {2, {{2049, 2}, {2, 1}}},
        {4, {{7, 147588}, {4099, 36}, {3, 12}, {12, 1}}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        omi_layout l;
        l.n = cases[c].n;
        memcpy(l.ax, cases[c].ax, sizeof cases[c].ax);
        int64_t size = layout_size(&l);
        check_slice(&l, 0, 0, size);
        check_slice(&l, 5, 1, size);
        check_slice(&l, 0, size / 3, size / 3 + 4097);
    }
}

/* A slice long enough for the kernel's non-temporal stores (at least 16M
 * values), written to a destination that is not 16-byte aligned: the
 * transpose of a 4099 x 4099 square, checked value by value. */
static void test_streamed_slice(void)
{
    const int64_t n = 4099;
    omi_layout l = {2, {{n, 1}, {n, n}}};
    int64_t e0 = 3, e1 = n * n - 5;
    int32_t *buf = malloc((size_t)(n * n + 2 * GUARD) * sizeof *buf);
    if (!buf) {
        om_test_record(false, __FILE__, __LINE__, "out of memory");
        return;
    }
    for (int64_t i = 0; i < n * n + 2 * GUARD; i++)
        buf[i] = GUARD_VALUE;
    int32_t *out = buf + GUARD + 1; /* 4 bytes off a 16-byte boundary */
    omi_emit(&l, 7, e0, e1, out);
    int64_t bad = -1;
    for (int64_t e = e0; e < e1 && bad < 0; e++)
        if (out[e - e0] != 7 + (e / n) + (e % n) * n)
            bad = e;
    for (int64_t i = 0; i < GUARD && bad < 0; i++)
        if (buf[i] != GUARD_VALUE || out[e1 - e0 + i] != GUARD_VALUE)
            bad = -2 - i;
    om_test_record(bad == -1, __FILE__, __LINE__,
                   "streamed slice wrong at element %lld", (long long)bad);
    free(buf);
}

/* ---- through the public API, against the definition of a group ---- */

/* Member m of group g over `axes`: outside coordinates from g, inside
 * ones from m, each row-major in mesh order. */
static int64_t naive_member(const om_mesh *mesh, uint64_t axes, int64_t g,
                            int64_t m)
{
    size_t n = om_mesh_ndim(mesh);
    int64_t rank = 0, stride = 1;
    for (size_t i = n; i-- > 0;) {
        int64_t len = om_mesh_dim_size(mesh, i);
        int64_t c;
        if ((axes >> i) & 1u) {
            c = m % len;
            m /= len;
        } else {
            c = g % len;
            g /= len;
        }
        rank += c * stride;
        stride *= len;
    }
    return rank;
}

static void check_mesh(const char *spec)
{
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = NULL;
    OM_EXPECT_OK(om_mesh_from_spec(spec, &mesh, &err), &err);
    if (!mesh)
        return;
    size_t ndim = om_mesh_ndim(mesh);
    size_t total = (size_t)om_mesh_size(mesh);
    int32_t *out = malloc(total * sizeof *out);
    int32_t *one = malloc(total * sizeof *one);
    for (uint64_t axes = 0; out && one && axes < (UINT64_C(1) << ndim); axes++) {
        int64_t count = 0, size = 0;
        OM_EXPECT_OK(om_mesh_group_shape(mesh, axes, &count, &size, &err), &err);
        OM_EXPECT_OK(om_mesh_groups(mesh, axes, 0, count, out, total, &err), &err);
        int64_t bad = -1;
        for (int64_t e = 0; e < count * size && bad < 0; e++)
            if (out[e] != naive_member(mesh, axes, e / size, e % size))
                bad = e;
        om_test_record(bad < 0, __FILE__, __LINE__,
                       "%s groups over mask %llx differ at element %lld", spec,
                       (unsigned long long)axes, (long long)bad);
        /* The group of a few ranks, and a slice of groups in the middle. */
        for (int64_t r = 0; r < (int64_t)total; r += (int64_t)total / 5 + 1) {
            int64_t index = -1;
            OM_EXPECT_OK(om_mesh_group_index(mesh, axes, r, &index, &err), &err);
            OM_EXPECT_OK(om_mesh_group_of(mesh, axes, r, one, total, &err), &err);
            bool same = index >= 0 &&
                        memcmp(one, out + index * size, (size_t)size * sizeof *one) == 0;
            om_test_record(same, __FILE__, __LINE__,
                           "%s group of rank %lld over mask %llx", spec,
                           (long long)r, (unsigned long long)axes);
        }
        int64_t first = count / 3, take = count - first < 3 ? count - first : 3;
        OM_EXPECT_OK(om_mesh_groups(mesh, axes, first, take, one, total, &err), &err);
        om_test_record(memcmp(one, out + first * size,
                              (size_t)(take * size) * sizeof *one) == 0,
                       __FILE__, __LINE__, "%s groups %lld..+%lld over mask %llx",
                       spec, (long long)first, (long long)take,
                       (unsigned long long)axes);
    }
    free(out);
    free(one);
    om_mesh_free(mesh);
}

static void test_awkward_meshes(void)
{
    /* Issue 16's slow shapes (dp=262139,cp=2,tp=2 and dp=2,tp=524287)
     * and others, scaled down so the suite stays quick under valgrind:
     * the kernel's blocking depends on how lengths compare with its
     * 4096-value pattern (65521 is a prime above it), not on the total. */
    static const char *const specs[] = {
        "dp=65521,cp=2,tp=2",  "dp=2,tp=65521",   "a=101,b=103",
        "pp=3,dp=5,cp=7,ep=11,tp=13",             "pp=7,dp=4099,cp=3",
        "dp=8191",             "pp=4,dp=512,cp=4,tp=8",
        "a=3,b=1,c=4097,d=5",  "x=3,y=4097",      "x=2,y=3,z=4093,w=2",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        check_mesh(specs[i]);
}

static const om_test_case kernel_tests[] = {
    {"random layouts and slices vs brute force", test_random_layouts},
    {"edge layouts vs brute force", test_edge_layouts},
    {"a 16M-value slice (streamed stores), unaligned", test_streamed_slice},
    {"awkward meshes vs the definition of a group", test_awkward_meshes},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"group_kernel", NULL, NULL, kernel_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
