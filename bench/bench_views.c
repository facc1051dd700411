/* Benchmark (issue 13): building a framework preset's views (or views made
 * by flatten / unflatten / lenient slicing) for a 2^20-rank world, with the
 * world's consistency check, and listing every group of every axis of
 * every view, timed against the cheapest honest yardstick measured in the
 * same run: a write-only fill (memset) of the same number of ranks, pass
 * for pass into the same buffer, each pass consumed. Best of several runs
 * each; prints ratios, never a pass/fail (the target is <= 2x).
 *
 *   build/bench/bench-views [--quick] [WORD]
 * (--quick: fewer repetitions; WORD: only the configurations naming it) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "offline_mesh.h"

#define WORLD (1 << 20)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Makes the compiler assume `p`'s memory is read. */
static void consume(const void *p)
{
#if defined(__GNUC__)
    __asm__ volatile("" : : "r"(p) : "memory");
#else
    static volatile unsigned char sink;
    sink = *(const volatile unsigned char *)p;
#endif
}

typedef struct {
    const char *label;
    const char *preset;            /* NULL: the layout world below */
    const char *params[8];
    size_t nparams;
} config;

static const config configs[] = {
    {"torchtitan pp=4 dp_replicate=2 cp=2 tp=8 ep=16", "torchtitan",
     {"pp=4", "dp_replicate=2", "dp_shard=-1", "cp=2", "tp=8", "ep=16"}, 6},
    {"torchtitan partial_dtensor pp=2 cp=4 tp=4 ep=8", "torchtitan",
     {"pp=2", "dp_shard=-1", "cp=4", "tp=4", "ep=8", "spmd_backend=partial_dtensor"}, 6},
    {"megatron tp=8 pp=4 cp=2 ep=8 etp=1", "megatron",
     {"tensor_model_parallel_size=8", "pipeline_model_parallel_size=4",
      "context_parallel_size=2", "expert_model_parallel_size=8",
      "expert_tensor_parallel_size=1"}, 5},
    {"deepspeed tp=4 ep=64 pp=2", "deepspeed",
     {"tensor_parallel_size_=4", "expert_parallel_size_=64", "pipeline_parallel_size_=2"}, 3},
    {"hyper-parallel tp=8 cp=2 pp=4 ep=32 dp_shard=64 edp_shard=8", "hyper-parallel",
     {"accelerator.tp_size=8", "accelerator.cp_size=2", "accelerator.pp_size=4",
      "accelerator.ep_size=32", "fsdp_config.dp_shard_size=64",
      "fsdp_config.edp_shard_size=8"}, 6},
    {"layout views of (pp=4,dp=2048,cp=16,tp=8): flatten(dp,tp), slice(tp,dp), "
     "unflatten(dp)", NULL, {NULL}, 0},
};

/* The world of flatten / unflatten / lenient-slice views. */
static om_status layout_world(om_world **out, om_error *e)
{
    om_mesh *base = NULL, *flat = NULL, *slice = NULL, *split = NULL;
    om_status st = om_mesh_from_spec("pp=4,dp=2048,cp=16,tp=8", &base, e);
    if (st == OM_OK)
        st = om_view_flatten(base, (const char *[]){"dp", "tp"}, 2, NULL, &flat, e);
    if (st == OM_OK)
        st = om_view_slice(base, (const char *[]){"tp", "dp"}, 2, &slice, e);
    if (st == OM_OK)
        st = om_view_unflatten(base, "dp", (int64_t[]){64, 32}, 2,
                               (const char *[]){"dp_replicate", "dp_shard"}, 2,
                               &split, e);
    if (st == OM_OK)
        st = om_world_new(WORLD, (const char *[]){"base", "dp_tp", "tp_dp", "split"}, 4,
                          (const om_mesh *[]){base, flat, slice, split}, 4, out, e);
    om_mesh_free(base);
    om_mesh_free(flat);
    om_mesh_free(slice);
    om_mesh_free(split);
    return st;
}

/* One full run: build the world, then every group of every axis of every
 * view into `buf`. Returns the ranks written (0 on error). */
static double build_seconds;

static int64_t run(const config *c, int32_t *buf, int64_t *passes, om_error *e)
{
    double t0 = now();
    om_world *world = NULL;
    om_preset *preset = NULL;
    om_status st;
    if (c->preset) {
        st = om_preset_new(c->preset, c->params, c->nparams, WORLD, &preset, e);
        if (st == OM_OK)
            st = om_preset_world(preset, &world, e);
        om_preset_free(preset);
    } else {
        st = layout_world(&world, e);
    }
    build_seconds = now() - t0;
    int64_t written = 0;
    *passes = 0;
    for (size_t v = 0; st == OM_OK && v < om_world_view_count(world); v++) {
        om_mesh *view = NULL;
        st = om_world_view(world, om_world_view_name(world, v), &view, e);
        for (size_t i = 0; st == OM_OK && i < om_mesh_ndim(view); i++) {
            const char *axis = om_mesh_name(view, i);
            int64_t count = 0, size = 0;
            st = om_mesh_group_shape_named(view, &axis, 1, &count, &size, e);
            if (st == OM_OK)
                st = om_mesh_groups_named(view, &axis, 1, 0, count, buf, WORLD, NULL, e);
            consume(buf);
            written += count * size;
            (*passes)++;
        }
        om_mesh_free(view);
    }
    om_world_free(world);
    return st == OM_OK ? written : 0;
}

int main(int argc, char **argv)
{
    int reps = 9;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            reps = 3;
        else
            only = argv[i];
    }
    int32_t *buf = malloc((size_t)WORLD * sizeof *buf);
    if (!buf)
        return 1;
    memset(buf, 1, (size_t)WORLD * sizeof *buf); /* no page faults timed */
    double worst = 0;
    printf("world of %d ranks; best of %d runs; yardstick: memset of the same "
           "ranks, pass for pass\n", WORLD, reps);
    for (size_t k = 0; k < sizeof configs / sizeof *configs; k++) {
        const config *c = &configs[k];
        if (only && !strstr(c->label, only))
            continue;
        om_error e;
        double best = 1e30, fill = 1e30, build = 1e30;
        int64_t ranks = 0, passes = 0;
        for (int r = 0; r < reps; r++) {
            double t0 = now();
            ranks = run(c, buf, &passes, &e);
            double dt = now() - t0;
            if (ranks == 0) {
                fprintf(stderr, "bench-views: %s: %s\n", c->label, e.message);
                free(buf);
                return 1;
            }
            best = dt < best ? dt : best;
            build = build_seconds < build ? build_seconds : build;
            /* The yardstick: the same passes of the same sizes. */
            t0 = now();
            for (int64_t p = 0, left = ranks; p < passes; p++) {
                int64_t n = left < WORLD ? left : WORLD;
                memset(buf, (int)(p & 0x7f), (size_t)n * sizeof *buf);
                consume(buf);
                left -= n;
            }
            dt = now() - t0;
            fill = dt < fill ? dt : fill;
        }
        double ratio = best / fill;
        worst = ratio > worst ? ratio : worst;
        printf("%s\n  %lld axis listings, %lld ranks: %.3f ms (building the "
               "world %.3f ms), memset %.3f ms, ratio %.2f\n", c->label,
               (long long)passes, (long long)ranks, best * 1e3, build * 1e3,
               fill * 1e3, ratio);
    }
    printf("worst ratio (views + every group) / memset: %.2f (target <= 2.0)\n", worst);
    free(buf);
    return 0;
}
