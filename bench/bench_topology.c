/* Benchmark: all groups over every axis and every pair of axes of meshes
 * of friendly and awkward shapes (powers of two, primes, odd and mixed
 * lengths), in two tables: one that fits in the cache (about 4 MiB of
 * output per pass) and one far larger than it (about 512 MiB). Each row is
 * timed against the cheapest honest yardstick measured in the same run: a
 * write-only fill (memset) of the same bytes; a memcpy of the same bytes
 * (which moves twice as many) is shown beside it. Every result is consumed
 * so no compiler can delete the work. Then the per-call cost of
 * build_offline_mesh + canonical JSON. Prints ratios; never a pass/fail
 * (machines are noisy): the target is groups <= 2x memset on every row.
 *
 *   build/bench/bench-topology [--quick]    (--quick: the cache table only) */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "offline_mesh.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Makes the compiler assume `p`'s memory is read: a fill or copy whose
 * result is never read may be deleted (clang does). */
static void consume(const void *p)
{
#if defined(__GNUC__)
    __asm__ volatile("" : : "r"(p) : "memory");
#else
    static volatile unsigned char sink;
    sink = *(const volatile unsigned char *)p;
#endif
}

/* Best of `reps` runs: the least disturbed by other work on the machine. */
#define BEST_OF(reps, seconds, body)                                          \
    do {                                                                      \
        seconds = 1e30;                                                       \
        for (int rep_ = 0; rep_ < (reps); rep_++) {                           \
            double t0_ = now();                                               \
            body;                                                             \
            double dt_ = now() - t0_;                                         \
            if (dt_ < seconds)                                                \
                seconds = dt_;                                                \
        }                                                                     \
    } while (0)

typedef struct {
    const char *title;
    int reps;
    const char *const *meshes;
} table;

static const char *const cache_meshes[] = {
    "pp=4,dp=8192,cp=4,tp=8",          /* 2^20, powers of two */
    "dp=262139,cp=2,tp=2",             /* a large prime outside */
    "dp=2,tp=524287",                  /* a large prime inside */
    "a=1021,b=1069",                   /* two primes */
    "pp=3,dp=5,cp=7,ep=11,tp=13,sp=67", /* six odd primes */
    "pp=7,dp=4099,cp=3,tp=12",         /* mixed */
    "dp=1048573",                      /* one prime axis */
    NULL,
};

static const char *const dram_meshes[] = {
    "pp=4,dp=1048576,cp=4,tp=8",        /* 2^27 */
    "dp=33554393,cp=2,tp=2",
    "dp=2,tp=67108859",
    "a=11579,b=11633",
    "pp=3,dp=5,cp=7,ep=11,tp=13,sp=8939",
    "pp=7,dp=532607,cp=3,tp=12",
    "dp=134217689",
    NULL,
};

typedef struct {
    int32_t *out;
    unsigned char *src;
    unsigned char *dst;
    size_t capacity; /* ranks */
} buffers;

static int alloc_buffers(buffers *b, size_t ranks)
{
    b->capacity = ranks;
    b->out = malloc(ranks * sizeof(int32_t));
    b->src = malloc(ranks * sizeof(int32_t));
    b->dst = malloc(ranks * sizeof(int32_t));
    if (!b->out || !b->src || !b->dst)
        return -1;
    /* Touch every page first so no timed pass pays for page faults. */
    memset(b->out, 1, ranks * sizeof(int32_t));
    memset(b->src, 2, ranks * sizeof(int32_t));
    memset(b->dst, 3, ranks * sizeof(int32_t));
    return 0;
}

static double worst_overall = 0;

/* Times every group query of interest on `spec`; returns -1 on error. */
static int bench_mesh(const char *spec, int reps, buffers *b, double *worst)
{
    om_error e;
    om_mesh *mesh;
    if (om_mesh_from_spec(spec, &mesh, &e) != OM_OK) {
        fprintf(stderr, "bench: %s\n", e.message);
        return -1;
    }
    size_t n = (size_t)om_mesh_size(mesh), bytes = n * sizeof(int32_t);
    if (n > b->capacity) {
        fprintf(stderr, "bench: %s is larger than the buffers\n", spec);
        om_mesh_free(mesh);
        return -1;
    }
    printf("%s: %zu ranks, %zu bytes per pass\n", spec, n, bytes);
    size_t ndim = om_mesh_ndim(mesh);
    double mesh_worst = 0;
    /* Each single axis, then each pair. */
    for (size_t i = 0; i < ndim; i++) {
        for (size_t j = i; j < ndim; j++) {
            uint64_t mask = (UINT64_C(1) << i) | (UINT64_C(1) << j);
            char label[64];
            if (i == j)
                snprintf(label, sizeof label, "%s", om_mesh_name(mesh, i));
            else
                snprintf(label, sizeof label, "%s,%s", om_mesh_name(mesh, i),
                         om_mesh_name(mesh, j));
            int64_t count, size;
            if (om_mesh_group_shape(mesh, mask, &count, &size, &e) != OM_OK)
                return -1;
            /* The yardsticks run interleaved with the query, so a burst of
             * other work on the machine hits all three alike. */
            double t = 1e30, t_set = 1e30, t_copy = 1e30;
            om_status st = OM_OK;
            volatile int32_t sink = 0;
            for (int rep = 0; rep < reps && st == OM_OK; rep++) {
                double t0 = now();
                memset(b->dst, rep & 0x7f, bytes);
                consume(b->dst);
                double t1 = now();
                memcpy(b->dst, b->src, bytes);
                consume(b->dst);
                double t2 = now();
                st = om_mesh_groups(mesh, mask, 0, count, b->out, n, &e);
                consume(b->out);
                sink = b->out[n - 1 - (size_t)rep % n];
                double t3 = now();
                t_set = t1 - t0 < t_set ? t1 - t0 : t_set;
                t_copy = t2 - t1 < t_copy ? t2 - t1 : t_copy;
                t = t3 - t2 < t ? t3 - t2 : t;
            }
            (void)sink;
            if (st != OM_OK) {
                fprintf(stderr, "bench: %s\n", e.message);
                return -1;
            }
            double ratio = t / t_set;
            mesh_worst = ratio > mesh_worst ? ratio : mesh_worst;
            printf("  over %-7s (%9lld x %9lld): %8.3f ms  memset %8.3f ms  "
                   "x memset %.2f  x memcpy %.2f\n", label, (long long)count,
                   (long long)size, t * 1e3, t_set * 1e3, ratio, t / t_copy);
        }
    }
    printf("  worst on %s: %.2f x memset\n", spec, mesh_worst);
    *worst = mesh_worst > *worst ? mesh_worst : *worst;
    om_mesh_free(mesh);
    return 0;
}

static int bench_table(const table *t)
{
    size_t most = 0;
    for (const char *const *m = t->meshes; *m; m++) {
        om_mesh *mesh;
        om_error e;
        if (om_mesh_from_spec(*m, &mesh, &e) != OM_OK) {
            fprintf(stderr, "bench: %s\n", e.message);
            return -1;
        }
        size_t n = (size_t)om_mesh_size(mesh);
        most = n > most ? n : most;
        om_mesh_free(mesh);
    }
    buffers b;
    if (alloc_buffers(&b, most) != 0) {
        fprintf(stderr, "bench: out of memory for %zu ranks\n", most);
        return -1;
    }
    printf("== %s (best of %d runs) ==\n", t->title, t->reps);
    double worst = 0;
    int rc = 0;
    for (const char *const *m = t->meshes; *m && rc == 0; m++)
        rc = bench_mesh(*m, t->reps, &b, &worst);
    if (rc == 0)
        printf("worst ratio groups/memset in this table: %.2f (target <= 2.0)\n\n",
               worst);
    worst_overall = worst > worst_overall ? worst : worst_overall;
    free(b.out);
    free(b.src);
    free(b.dst);
    return rc;
}

static int bench_build(void)
{
    om_error e;
    om_dims *dims;
    if (om_dims_new(&dims, &e) != OM_OK ||
        om_dims_set(dims, OM_DIM_DP, 8, &e) != OM_OK ||
        om_dims_set(dims, OM_DIM_TP, 8, &e) != OM_OK ||
        om_dims_set(dims, OM_DIM_PP, 4, &e) != OM_OK)
        return -1;
    const int calls = 200000;
    double t_build;
    size_t total_len = 0;
    BEST_OF(5, t_build, {
        for (int i = 0; i < calls; i++) {
            om_mesh *m;
            char *json;
            if (om_build_offline_mesh(dims, &m, &e) != OM_OK ||
                om_mesh_to_json(m, &json, &e) != OM_OK)
                return -1;
            total_len += strlen(json);
            om_string_free(json);
            om_mesh_free(m);
        }
    });
    printf("build_offline_mesh + to_json: %.0f ns per call (%zu bytes written)\n",
           t_build / calls * 1e9, total_len);
    double t_only;
    int64_t sum = 0;
    BEST_OF(5, t_only, {
        for (int i = 0; i < calls; i++) {
            om_mesh *m;
            if (om_build_offline_mesh(dims, &m, &e) != OM_OK)
                return -1;
            sum += om_mesh_size(m);
            om_mesh_free(m);
        }
    });
    printf("build_offline_mesh alone:     %.0f ns per call (%" PRId64
           " ranks built)\n", t_only / calls * 1e9, sum);
    om_dims_free(dims);
    return 0;
}

int main(int argc, char **argv)
{
    bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    const table tables[] = {
        {"in cache: about 4 MiB per pass", 30, cache_meshes},
        {"out of cache: about 512 MiB per pass", 7, dram_meshes},
    };
    for (size_t i = 0; i < (quick ? 1u : 2u); i++)
        if (bench_table(&tables[i]) != 0)
            return 1;
    printf("worst ratio groups/memset over all tables: %.2f (target <= 2.0)\n",
           worst_overall);
    return bench_build() == 0 ? 0 : 1;
}
