/* Host locality of process groups (om_mesh_locality), hand-checked and
 * cross-checked against a brute-force count.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_test.h"

typedef struct {
    int64_t count, local, max_hosts;
} locality;

static locality query(const om_mesh *mesh, uint64_t mask, int64_t k, unsigned line)
{
    locality l = {-1, -1, -1};
    om_error err;
    om_test_poison(&err);
    om_status st = om_mesh_locality(mesh, mask, k, &l.count, &l.local, &l.max_hosts,
                                    &err);
    om_test_record(st == OM_OK && om_test_is_poisoned(&err), __FILE__, line,
                   "locality(mask %llx, k %lld): %s", (unsigned long long)mask,
                   (long long)k, st == OM_OK ? "" : err.message);
    return l;
}

static void expect_locality(const om_mesh *mesh, const char *axes, int64_t k,
                            int64_t count, int64_t local, int64_t max_hosts,
                            unsigned line)
{
    uint64_t mask = 0;
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_OK(om_mesh_axes(mesh, axes, &mask, &err), &err);
    locality l = query(mesh, mask, k, line);
    om_test_record(l.count == count && l.local == local && l.max_hosts == max_hosts,
                   __FILE__, line,
                   "\"%s\" k=%lld: %lld groups, %lld local, max %lld hosts; "
                   "expected %lld, %lld, %lld",
                   axes, (long long)k, (long long)l.count, (long long)l.local,
                   (long long)l.max_hosts, (long long)count, (long long)local,
                   (long long)max_hosts);
}

static void test_hand_checked(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=2,tp=2");
    /* Hosts of 2 ranks: {0,1},{2,3},{4,5},{6,7}. */
    expect_locality(mesh, "tp", 2, 4, 4, 1, __LINE__);
    expect_locality(mesh, "cp", 2, 4, 0, 2, __LINE__);      /* {0,2}: hosts 0,1 */
    expect_locality(mesh, "dp", 2, 4, 0, 2, __LINE__);      /* {0,4}: hosts 0,2 */
    expect_locality(mesh, "dp,cp", 2, 2, 0, 4, __LINE__);   /* {0,2,4,6} */
    expect_locality(mesh, "cp,tp", 2, 2, 0, 2, __LINE__);   /* {0..3} */
    expect_locality(mesh, "dp,cp,tp", 2, 1, 0, 4, __LINE__);
    expect_locality(mesh, "", 2, 8, 8, 1, __LINE__);
    /* Hosts of 4 ranks. */
    expect_locality(mesh, "tp", 4, 4, 4, 1, __LINE__);
    expect_locality(mesh, "cp", 4, 4, 4, 1, __LINE__);
    expect_locality(mesh, "dp", 4, 4, 0, 2, __LINE__);
    expect_locality(mesh, "cp,tp", 4, 2, 2, 1, __LINE__);
    expect_locality(mesh, "dp,tp", 4, 2, 0, 2, __LINE__);
    /* Hosts of 3 ranks, the last one partial: {0,1,2},{3,4,5},{6,7}. */
    expect_locality(mesh, "tp", 3, 4, 3, 2, __LINE__);      /* {2,3} spans two */
    expect_locality(mesh, "cp", 3, 4, 1, 2, __LINE__);      /* only {0,2} local */
    expect_locality(mesh, "dp", 3, 4, 0, 2, __LINE__);
    expect_locality(mesh, "dp,cp", 3, 2, 0, 3, __LINE__);   /* {0,2,4,6}: 0,0,1,2 */
    /* One rank per host: only single-rank groups are local. */
    expect_locality(mesh, "tp", 1, 4, 0, 2, __LINE__);
    expect_locality(mesh, "dp,cp,tp", 1, 1, 0, 8, __LINE__);
    expect_locality(mesh, "", 1, 8, 8, 1, __LINE__);
    /* One host for everything, or more room than ranks. */
    expect_locality(mesh, "dp,cp,tp", 8, 1, 1, 1, __LINE__);
    expect_locality(mesh, "dp", 1000, 4, 4, 1, __LINE__);
    expect_locality(mesh, "dp", INT64_MAX, 4, 4, 1, __LINE__);
    om_mesh_free(mesh);

    /* A typical job: 2 nodes of 8 GPUs, (dp=2, tp=8): tp stays inside a
     * node, dp crosses nodes. */
    mesh = om_test_mesh("dp=2,tp=8");
    expect_locality(mesh, "tp", 8, 2, 2, 1, __LINE__);
    expect_locality(mesh, "dp", 8, 8, 0, 2, __LINE__);
    om_mesh_free(mesh);
    /* Size-1 axes change nothing. */
    mesh = om_test_mesh("pp=1,dp=2,cp=1,tp=8");
    expect_locality(mesh, "cp,tp", 8, 2, 2, 1, __LINE__);
    expect_locality(mesh, "pp,cp", 8, 16, 16, 1, __LINE__);
    om_mesh_free(mesh);
    /* The empty mesh: one single-rank group. */
    mesh = om_test_mesh("");
    expect_locality(mesh, "", 4, 1, 1, 1, __LINE__);
    om_mesh_free(mesh);
}

static void test_errors(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,tp=4");
    om_error err;
    om_error_clear(&err);
    int64_t c, l, m;
    OM_EXPECT_ERR(om_mesh_locality(mesh, 1, 0, &c, &l, &m, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "0");
    OM_EXPECT_ERR(om_mesh_locality(mesh, 1, -8, &c, &l, &m, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "-8");
    OM_EXPECT_ERR(om_mesh_locality(mesh, 4, 8, &c, &l, &m, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "2");
    OM_EXPECT_ERR(om_mesh_locality(mesh, UINT64_MAX, 8, &c, &l, &m, &err), &err,
                  OM_ERR_OUT_OF_RANGE, NULL);
    OM_EXPECT_ERR(om_mesh_locality(NULL, 1, 8, &c, &l, &m, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh");
    OM_EXPECT_ERR(om_mesh_locality(mesh, 1, 8, NULL, &l, &m, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_locality(mesh, 1, 8, &c, NULL, &m, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_mesh_locality(mesh, 1, 8, &c, &l, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    om_mesh_free(mesh);
}

/* ---- brute force ---- */

typedef struct {
    size_t n;
    int64_t sizes[8];
    int64_t total;
} shape_t;

/* Counts hosts per group after bucketing every rank by its group. */
static locality brute(const shape_t *s, uint64_t mask, int64_t k)
{
    int64_t count = 1, size = 1;
    for (size_t i = 0; i < s->n; i++) {
        if ((mask >> i) & 1u)
            size *= s->sizes[i];
        else
            count *= s->sizes[i];
    }
    int64_t *hosts = calloc((size_t)count, sizeof *hosts);
    int64_t *last_host = malloc((size_t)count * sizeof *last_host);
    for (int64_t g = 0; g < count; g++)
        last_host[g] = -1;
    for (int64_t r = 0; r < s->total; r++) {
        int64_t rest = r, g = 0, coord[8];
        for (size_t i = s->n; i-- > 0;) {
            coord[i] = rest % s->sizes[i];
            rest /= s->sizes[i];
        }
        for (size_t i = 0; i < s->n; i++)
            if (!((mask >> i) & 1u))
                g = g * s->sizes[i] + coord[i];
        /* Ranks arrive in increasing order, so hosts never go back. */
        if (r / k != last_host[g]) {
            hosts[g]++;
            last_host[g] = r / k;
        }
    }
    locality l = {count, 0, 0};
    for (int64_t g = 0; g < count; g++) {
        l.local += hosts[g] == 1;
        l.max_hosts = hosts[g] > l.max_hosts ? hosts[g] : l.max_hosts;
    }
    (void)size;
    free(hosts);
    free(last_host);
    return l;
}

static void cross_check(const shape_t *s, uint64_t *rng, int masks_per_shape)
{
    char spec[256];
    size_t o = 0;
    spec[0] = '\0';
    for (size_t i = 0; i < s->n; i++)
        o += (size_t)snprintf(spec + o, sizeof spec - o, "%sa%zu=%lld", i ? "," : "",
                              i, (long long)s->sizes[i]);
    om_mesh *mesh = om_test_mesh(spec);
    if (!mesh)
        return;
    uint64_t all = (UINT64_C(1) << s->n);
    for (int j = 0; j < masks_per_shape; j++) {
        uint64_t mask = masks_per_shape >= (int)all ? (uint64_t)j % all
                                                    : om_test_rand(rng) % all;
        int64_t ks[6] = {1, 2, 3, s->total, s->total + 1,
                         om_test_rand_range(rng, 1, s->total + 2)};
        for (int q = 0; q < 6; q++) {
            locality want = brute(s, mask, ks[q]);
            locality got = query(mesh, mask, ks[q], __LINE__);
            om_test_record(got.count == want.count && got.local == want.local &&
                               got.max_hosts == want.max_hosts,
                           __FILE__, __LINE__,
                           "%s mask %llx k %lld: got (%lld, %lld, %lld), brute force "
                           "(%lld, %lld, %lld)",
                           spec, (unsigned long long)mask, (long long)ks[q],
                           (long long)got.count, (long long)got.local,
                           (long long)got.max_hosts, (long long)want.count,
                           (long long)want.local, (long long)want.max_hosts);
        }
    }
    om_mesh_free(mesh);
}

static void test_random_cross_check(void)
{
    uint64_t rng = UINT64_C(0x10ca11c0ffee);
    for (int iter = 0; iter < 150; iter++) {
        shape_t s;
        s.n = (size_t)om_test_rand_range(&rng, 1, 6);
        s.total = 1;
        for (size_t i = 0; i < s.n; i++) {
            int64_t cap = 2048 / s.total;
            int64_t hi = cap < 8 ? cap : 8;
            s.sizes[i] = om_test_rand_range(&rng, 1, hi < 1 ? 1 : hi);
            s.total *= s.sizes[i];
        }
        cross_check(&s, &rng, 64);
    }
}

static void test_long_axes_cross_check(void)
{
    static const struct {
        size_t n;
        int64_t sizes[4];
    } shapes[] = {
        {2, {2, 4099}}, {3, {3, 1031, 2}}, {2, {1031, 7}}, {3, {16, 3, 64}},
        {4, {2, 5, 1, 409}},
    };
    uint64_t rng = 99;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        shape_t s = {shapes[k].n, {0}, 1};
        for (size_t i = 0; i < s.n; i++) {
            s.sizes[i] = shapes[k].sizes[i];
            s.total *= s.sizes[i];
        }
        cross_check(&s, &rng, 1 << s.n);
    }
}

static void test_huge_mesh(void)
{
    /* One group of 2^31-1 ranks: counted without walking every rank. */
    om_mesh *mesh = om_test_mesh("big=2147483647");
    locality l = query(mesh, 1, 8, __LINE__);
    OM_EXPECT_INT(l.count, 1);
    OM_EXPECT_INT(l.local, 0);
    OM_EXPECT_INT(l.max_hosts, 268435456); /* ceil((2^31-1) / 8) */
    l = query(mesh, 1, 2147483647, __LINE__);
    OM_EXPECT(l.count == 1 && l.local == 1 && l.max_hosts == 1);
    l = query(mesh, 0, 8, __LINE__);
    OM_EXPECT(l.count == 2147483647 && l.local == 2147483647 && l.max_hosts == 1);
    om_mesh_free(mesh);
    /* Two groups of 2^30-1 contiguous ranks each. */
    mesh = om_test_mesh("dp=2,tp=1073741823");
    l = query(mesh, 2, 1000, __LINE__);
    OM_EXPECT_INT(l.count, 2);
    OM_EXPECT_INT(l.local, 0);
    /* Group 1 is ranks 1073741823..2147483645: hosts 1073741..2147483. */
    OM_EXPECT_INT(l.max_hosts, 2147483 - 1073741 + 1);
    l = query(mesh, 2, 1073741823, __LINE__);
    OM_EXPECT(l.count == 2 && l.local == 2 && l.max_hosts == 1);
    om_mesh_free(mesh);
}

static const om_test_case locality_tests[] = {
    {"hand-checked cases", test_hand_checked},
    {"errors", test_errors},
    {"random shapes vs brute force", test_random_cross_check},
    {"long and prime axes vs brute force", test_long_axes_cross_check},
    {"2^31-1 ranks", test_huge_mesh},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"locality", NULL, NULL, locality_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
