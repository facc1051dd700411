/* Benchmark (issue 13): building a framework preset's views (or views made
 * by flatten / unflatten / lenient slicing) for a 2^20-rank world, with the
 * world's consistency check, and listing every group of every axis of
 * every view and every named group list of the preset (Megatron's ~20,
 * DeepSpeed's two), timed against the cheapest honest yardstick measured
 * in the same run: a write-only fill (memset) of the same number of ranks,
 * pass for pass into the same buffer, each pass consumed. Besides the
 * power of two, every preset also runs on 2^20-1 = 3*5^2*11*31*41 ranks
 * with odd degrees. Best of several runs each; prints ratios, never a
 * pass/fail (the target is <= 2x).
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

/* 2^20 - 1 = 3 * 5^2 * 11 * 31 * 41: no axis a power of two. */
#define ODD_WORLD ((1 << 20) - 1)

typedef struct {
    const char *label;
    const char *preset;            /* NULL: the layout world below */
    const char *params[8];
    size_t nparams;
    int64_t world;
} config;

static const config configs[] = {
    {"torchtitan pp=4 dp_replicate=2 cp=2 tp=8 ep=16", "torchtitan",
     {"pp=4", "dp_replicate=2", "dp_shard=-1", "cp=2", "tp=8", "ep=16"}, 6, WORLD},
    {"torchtitan partial_dtensor pp=2 cp=4 tp=4 ep=8", "torchtitan",
     {"pp=2", "dp_shard=-1", "cp=4", "tp=4", "ep=8", "spmd_backend=partial_dtensor"}, 6, WORLD},
    {"megatron tp=8 pp=4 cp=2 ep=8 etp=1", "megatron",
     {"tensor_model_parallel_size=8", "pipeline_model_parallel_size=4",
      "context_parallel_size=2", "expert_model_parallel_size=8",
      "expert_tensor_parallel_size=1"}, 5, WORLD},
    {"deepspeed tp=4 ep=64 pp=2", "deepspeed",
     {"tensor_parallel_size_=4", "expert_parallel_size_=64", "pipeline_parallel_size_=2"}, 3,
     WORLD},
    {"hyper-parallel tp=8 cp=2 pp=4 ep=32 dp_shard=64 edp_shard=8", "hyper-parallel",
     {"accelerator.tp_size=8", "accelerator.cp_size=2", "accelerator.pp_size=4",
      "accelerator.ep_size=32", "fsdp_config.dp_shard_size=64",
      "fsdp_config.edp_shard_size=8"}, 6, WORLD},
    {"layout views of (pp=4,dp=2048,cp=16,tp=8): flatten(dp,tp), slice(tp,dp), "
     "unflatten(dp)", NULL, {NULL}, 0, WORLD},
    {"odd world 2^20-1: torchtitan pp=3 dp_replicate=5 tp=11 ep=31", "torchtitan",
     {"pp=3", "dp_replicate=5", "dp_shard=-1", "tp=11", "ep=31"}, 5, ODD_WORLD},
    {"odd world 2^20-1: megatron tp=5 pp=3 ep=11 etp=1 order tp-cp-ep-dp-pp",
     "megatron",
     {"tensor_model_parallel_size=5", "pipeline_model_parallel_size=3",
      "expert_model_parallel_size=11", "expert_tensor_parallel_size=1"}, 4, ODD_WORLD},
    {"odd world 2^20-1: megatron tp=3 cp=5 ep=5 etp=3 order tp-dp-cp-ep-pp, "
     "hcp 5", "megatron",
     {"tensor_model_parallel_size=3", "context_parallel_size=5",
      "expert_model_parallel_size=5", "order=tp-dp-cp-ep-pp",
      "hierarchical_context_parallel_sizes=[5]"}, 5, ODD_WORLD},
    {"odd world 2^20-1: deepspeed tp=3 ep=25 D+E", "deepspeed",
     {"tensor_parallel_size_=3", "expert_parallel_size_=25",
      "use_data_before_expert_parallel_=true"}, 3, ODD_WORLD},
    {"odd world 2^20-1: hyper-parallel tp=5 cp=3 ep=11 dp_shard=41 edp_shard=31",
     "hyper-parallel",
     {"accelerator.tp_size=5", "accelerator.cp_size=3", "accelerator.ep_size=11",
      "fsdp_config.dp_shard_size=41", "fsdp_config.edp_shard_size=31"}, 5, ODD_WORLD},
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

/* Listings of one run: the ranks of each pass (the yardstick repeats
 * them). */
#define MAX_PASSES 128
typedef struct {
    int64_t ranks[MAX_PASSES];
    int64_t passes;
    int64_t total;
    double build_seconds;
} listing;

static void count_pass(listing *l, int64_t ranks)
{
    if (l->passes < MAX_PASSES)
        l->ranks[l->passes++] = ranks;
    l->total += ranks;
}

/* Every group of every axis of every view of the world into `buf`. */
static om_status list_views(const om_world *world, int32_t *buf, listing *l,
                            om_error *e)
{
    om_status st = OM_OK;
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
            count_pass(l, count * size);
        }
        om_mesh_free(view);
    }
    return st;
}

/* Every named group list of the preset into `buf`. */
static om_status list_named(const om_preset *preset, int32_t *buf, listing *l,
                            om_error *e)
{
    om_status st = OM_OK;
    for (size_t i = 0; st == OM_OK && i < om_preset_group_list_count(preset); i++) {
        size_t needed = 0, size = 0;
        st = om_preset_group_list(preset, om_preset_group_list_name(preset, i), buf,
                                  WORLD, &needed, &size, e);
        consume(buf);
        count_pass(l, (int64_t)needed);
    }
    return st;
}

/* One full run: build the world (and the preset), then list every group.
 * Returns false on an error. */
static bool run(const config *c, int32_t *buf, listing *l, om_error *e)
{
    memset(l, 0, sizeof *l);
    double t0 = now();
    om_world *world = NULL;
    om_preset *preset = NULL;
    om_status st;
    if (c->preset) {
        st = om_preset_new(c->preset, c->params, c->nparams, c->world, &preset, e);
        if (st == OM_OK)
            st = om_preset_world(preset, &world, e);
    } else {
        st = layout_world(&world, e);
    }
    l->build_seconds = now() - t0;
    if (st == OM_OK)
        st = list_views(world, buf, l, e);
    if (st == OM_OK && preset)
        st = list_named(preset, buf, l, e);
    om_world_free(world);
    om_preset_free(preset);
    return st == OM_OK;
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
    printf("worlds of %d (and %d) ranks; best of %d runs; yardstick: memset of the "
           "same ranks, pass for pass\n", WORLD, ODD_WORLD, reps);
    for (size_t k = 0; k < sizeof configs / sizeof *configs; k++) {
        const config *c = &configs[k];
        if (only && !strstr(c->label, only))
            continue;
        om_error e;
        double best = 1e30, fill = 1e30, build = 1e30;
        listing l;
        for (int r = 0; r < reps; r++) {
            double t0 = now();
            bool ok = run(c, buf, &l, &e);
            double dt = now() - t0;
            if (!ok) {
                fprintf(stderr, "bench-views: %s: %s\n", c->label, e.message);
                free(buf);
                return 1;
            }
            best = dt < best ? dt : best;
            build = l.build_seconds < build ? l.build_seconds : build;
            /* The yardstick: the same passes of the same sizes. */
            t0 = now();
            for (int64_t p = 0; p < l.passes; p++) {
                memset(buf, (int)(p & 0x7f), (size_t)l.ranks[p] * sizeof *buf);
                consume(buf);
            }
            dt = now() - t0;
            fill = dt < fill ? dt : fill;
        }
        double ratio = best / fill;
        worst = ratio > worst ? ratio : worst;
        printf("%s\n  %lld listings, %lld ranks: %.3f ms (building the "
               "world %.3f ms), memset %.3f ms, ratio %.2f\n", c->label,
               (long long)l.passes, (long long)l.total, best * 1e3, build * 1e3,
               fill * 1e3, ratio);
    }
    printf("worst ratio (views + every group) / memset: %.2f (target <= 2.0)\n", worst);
    free(buf);
    return 0;
}
