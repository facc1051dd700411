/* Benchmark: per-level locality (om_hierarchy_locality) of every axis set
 * of a 2^24-rank mesh in a three-level hierarchy, against enumerating the
 * same groups (om_mesh_groups_named in slices of 64 Ki ranks into one
 * cache-resident buffer, every slice consumed: the cheapest honest way to
 * see every group). Rows: the GB200-like uniform hierarchy host=4,nvl=72,
 * rack=576 and host=8,nvl=64,rack=512 (friendly), sizes that divide
 * nothing (awkward: host=6,nvl=70,rack=1000), a mesh of odd sizes, prime
 * sizes that leave no two groups alike (adversarial: every group walked), and
 * the same levels given explicitly by a hostfile (memory O(ranks) there).
 * Prints ratios from one run (best of N each); never a pass/fail. Target:
 * locality <= 10x enumeration for the uniform rows. Memory: the process's
 * peak resident size after the uniform rows (which come first) against
 * the 2^24 * 8 bytes one int64 per rank would take, then after the
 * explicit row (whose per-rank tables are O(ranks) by nature).
 *
 *   build/bench/bench-hierarchy [--quick]   (--quick: fewer repetitions) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "offline_mesh.h"

#define SLICE_RANKS (1 << 16)

/* CPU time of this thread: both sides are single-threaded, and on a shared
 * machine wall time would also count the time other processes ran. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void consume(const void *p)
{
#if defined(__GNUC__)
    __asm__ volatile("" : : "r"(p) : "memory");
#else
    static volatile unsigned char sink;
    sink = *(const volatile unsigned char *)p;
#endif
}

static volatile int64_t sink;

/* Peak resident set size of this process so far, in MiB (Linux: KiB). */
static double peak_rss_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

static void die(const char *what, const om_error *err)
{
    fprintf(stderr, "bench-hierarchy: %s: %s\n", what, err->message);
    exit(1);
}

/* All groups over `axes`, slice by slice. */
static double enumerate(const om_mesh *mesh, const char *const *axes,
                        size_t naxes, int32_t *buf, int reps)
{
    om_error err;
    int64_t count, size;
    if (om_mesh_group_shape_named(mesh, axes, naxes, &count, &size, &err) != OM_OK)
        die("group shape", &err);
    int64_t per = size >= SLICE_RANKS ? 1 : SLICE_RANKS / size;
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        int64_t acc = 0;
        for (int64_t g = 0; g < count; g += per) {
            int64_t n = count - g < per ? count - g : per;
            size_t needed;
            if (om_mesh_groups_named(mesh, axes, naxes, g, n, buf,
                                     (size_t)(per * size), &needed, &err) != OM_OK)
                die("groups", &err);
            consume(buf);
            acc += buf[n * size - 1];
        }
        sink = acc;
        double dt = now() - t0;
        best = dt < best ? dt : best;
    }
    return best;
}

static double locality(const om_mesh *mesh, const om_hierarchy *h,
                       const char *const *axes, size_t naxes, int reps)
{
    om_error err;
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        om_locality *loc;
        if (om_hierarchy_locality(mesh, h, axes, naxes, &loc, &err) != OM_OK)
            die("locality", &err);
        int64_t acc = 0, v;
        for (size_t l = 0; l < om_locality_levels(loc); l++)
            for (int f = 0; f <= OM_LOCALITY_CROSSING_RANK; f++)
                if (om_locality_get(loc, l, (om_locality_field)f, &v, &err) == OM_OK)
                    acc += v;
        sink = acc;
        om_locality_free(loc);
        double dt = now() - t0;
        best = dt < best ? dt : best;
    }
    return best;
}

/* host lines "hK slots=S nvl=N rack=R" for the uniform levels given. */
static om_hierarchy *hostfile_of(int64_t world, int64_t host, int64_t nvl,
                                 int64_t rack)
{
    int64_t hosts = (world + host - 1) / host;
    size_t cap = (size_t)hosts * 48 + 1;
    char *text = malloc(cap);
    size_t o = 0;
    for (int64_t k = 0; k < hosts; k++) {
        int64_t first = k * host, slots = world - first < host ? world - first : host;
        o += (size_t)snprintf(text + o, cap - o, "h%lld slots=%lld nvl=%lld rack=%lld\n",
                              (long long)k, (long long)slots,
                              (long long)(first / nvl), (long long)(first / rack));
    }
    om_hierarchy *h;
    om_error err;
    if (om_hierarchy_from_hostfile(text, o, &h, &err) != OM_OK)
        die("hostfile", &err);
    free(text);
    return h;
}

typedef struct {
    const char *mesh;
    const char *levels;       /* uniform spec, or NULL: the hostfile below */
    int64_t host, nvl, rack;  /* explicit levels (hostfile rows) */
    const char *label;
} row;

int main(int argc, char **argv)
{
    bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    int reps = quick ? 2 : 5;
    static const row rows[] = {
        {"pp=16,dp=32768,cp=4,tp=8", "host=4,nvl=72,rack=576", 0, 0, 0,
         "uniform, GB200 NVL72 trays of 4"},
        {"pp=16,dp=32768,cp=4,tp=8", "host=8,nvl=64,rack=512", 0, 0, 0,
         "uniform, powers of two"},
        {"pp=16,dp=32768,cp=4,tp=8", "host=6,nvl=70,rack=1000", 0, 0, 0,
         "uniform, sizes dividing nothing (awkward)"},
        {"pp=7,dp=14979,cp=2,tp=80", "host=8,nvl=72,rack=576", 0, 0, 0,
         "uniform, odd mesh (awkward)"},
        {"pp=16,dp=32768,cp=4,tp=8", "host=7,nvl=1009,rack=1000003", 0, 0, 0,
         "uniform, prime sizes: every group its own residue (adversarial)"},
        {"pp=16,dp=32768,cp=4,tp=8", NULL, 4, 72, 576,
         "explicit hostfile, same levels as row 1"},
    };
    int32_t *buf = malloc(SLICE_RANKS * sizeof *buf * 2);
    double worst_uniform = 0, rss_start = peak_rss_mib(), rss_uniform = 0;
    bool printed_uniform_rss = false;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        om_mesh *mesh;
        om_error err;
        if (om_mesh_from_spec(rows[r].mesh, &mesh, &err) != OM_OK)
            die("mesh", &err);
        om_hierarchy *h;
        if (!rows[r].levels && !printed_uniform_rss) {
            rss_uniform = peak_rss_mib();
            printed_uniform_rss = true;
        }
        if (rows[r].levels) {
            if (om_hierarchy_from_spec(rows[r].levels, &h, &err) != OM_OK)
                die("hierarchy", &err);
        } else {
            h = hostfile_of(om_mesh_size(mesh), rows[r].host, rows[r].nvl,
                            rows[r].rack);
        }
        printf("%s, mesh %s (%lld ranks), levels %s\n", rows[r].label,
               rows[r].mesh, (long long)om_mesh_size(mesh),
               rows[r].levels ? rows[r].levels : "host/nvl/rack from a hostfile");
        size_t n = om_mesh_ndim(mesh);
        /* Every single axis, then the two innermost and the two middle
         * axes together. */
        const char *sets[8][2];
        size_t sizes[8], nsets = 0;
        for (size_t i = 0; i < n; i++) {
            sets[nsets][0] = om_mesh_name(mesh, i);
            sizes[nsets++] = 1;
        }
        sets[nsets][0] = om_mesh_name(mesh, n - 2);
        sets[nsets][1] = om_mesh_name(mesh, n - 1);
        sizes[nsets++] = 2;
        sets[nsets][0] = om_mesh_name(mesh, 1);
        sets[nsets][1] = om_mesh_name(mesh, 2);
        sizes[nsets++] = 2;
        double row_worst = 0;
        for (size_t s = 0; s < nsets; s++) {
            int64_t count, size;
            if (om_mesh_group_shape_named(mesh, sets[s], sizes[s], &count, &size,
                                          &err) != OM_OK)
                die("shape", &err);
            double te = enumerate(mesh, sets[s], sizes[s], buf, reps);
            double tl = locality(mesh, h, sets[s], sizes[s], reps);
            double ratio = tl / te;
            row_worst = ratio > row_worst ? ratio : row_worst;
            printf("  %-6s%s%-6s (%8lld x %8lld): enumerate %8.2f ms, locality "
                   "(3 levels) %8.3f ms, ratio %6.3f\n",
                   sets[s][0], sizes[s] > 1 ? "," : " ",
                   sizes[s] > 1 ? sets[s][1] : "", (long long)count,
                   (long long)size, te * 1e3, tl * 1e3, ratio);
        }
        printf("  worst ratio locality/enumeration: %.3f%s\n\n", row_worst,
               rows[r].levels ? " (target <= 10)" : " (explicit: no target)");
        if (rows[r].levels && row_worst > worst_uniform)
            worst_uniform = row_worst;
        om_hierarchy_free(h);
        om_mesh_free(mesh);
    }
    printf("worst ratio over the uniform rows: %.3f (target <= 10)\n", worst_uniform);
    printf("peak RSS: %.1f MiB at start, %.1f MiB after the uniform rows "
           "(one int64 per rank of 2^24 would be %.0f MiB), %.1f MiB after the "
           "explicit row\n", rss_start, rss_uniform,
           (double)(1 << 24) * 8 / (1 << 20), peak_rss_mib());
    free(buf);
    return 0;
}
