/* hyper-parallel's per-rank local ranks ("local_ranks" of
 * om_preset_to_json()) against a brute force from the views alone: a
 * rank's local rank on an axis is its position in its group sorted
 * ascending (dp, cp, tp in `device`, ep in `fsdp_moe`, 0 without it), its
 * pp rank its position among the ranks of the same device coordinate.
 * Every valid shape of a small grid, odd sizes included.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "om_test.h"

#define MAX_WORLD 256

/* Position of `rank` in its group over `axis` of `view`, sorted. */
static int64_t position_in_group(const om_mesh *view, const char *axis, int64_t rank)
{
    int32_t members[MAX_WORLD];
    size_t needed = 0;
    om_error err;
    OM_EXPECT_OK(om_mesh_group_of_named(view, &axis, 1, rank, members, MAX_WORLD,
                                        &needed, &err), &err);
    int64_t below = 0;
    for (size_t i = 0; i < needed; i++)
        below += members[i] < rank;
    return below;
}

/* Per rank its position among the ranks whose device coordinate is its
 * own (ascending), counted in one pass: the coordinate as a key. */
static void stage_positions(const om_mesh *device, int64_t world, int64_t *out)
{
    int64_t seen[MAX_WORLD] = {0};
    om_error err;
    for (int64_t r = 0; r < world; r++) {
        int64_t c[3] = {0};
        OM_EXPECT_OK(om_mesh_coordinate(device, r, c, 3, &err), &err);
        int64_t key = (c[0] * om_mesh_dim_size(device, 1) + c[1]) *
                          om_mesh_dim_size(device, 2) + c[2];
        out[r] = key >= 0 && key < MAX_WORLD ? seen[key]++ : -1;
    }
}

static int64_t field(const json_t *entry, const char *key)
{
    const json_t *value = json_object_get(entry, key);
    OM_EXPECT(json_is_integer(value));
    return json_integer_value(value);
}

/* Builds one shape and compares every rank; false when the shape is not
 * valid for hyper-parallel (skipped). */
static bool check_shape(int64_t tp, int64_t cp, int64_t pp, int64_t dp, int64_t ep,
                        int64_t dp_shard, int64_t edp_shard)
{
    int64_t world = tp * cp * pp * dp;
    if (world > MAX_WORLD || (dp * cp) % dp_shard != 0 ||
        (ep > 1 && ((dp * cp * tp) % ep != 0 || (dp * cp * tp / ep) % edp_shard != 0)))
        return false;
    char text[6][64];
    snprintf(text[0], sizeof text[0], "accelerator.tp_size=%lld", (long long)tp);
    snprintf(text[1], sizeof text[1], "accelerator.cp_size=%lld", (long long)cp);
    snprintf(text[2], sizeof text[2], "accelerator.pp_size=%lld", (long long)pp);
    snprintf(text[3], sizeof text[3], "accelerator.ep_size=%lld", (long long)ep);
    snprintf(text[4], sizeof text[4], "fsdp_config.dp_shard_size=%lld", (long long)dp_shard);
    snprintf(text[5], sizeof text[5], "fsdp_config.edp_shard_size=%lld",
             (long long)edp_shard);
    const char *params[6] = {text[0], text[1], text[2], text[3], text[4], text[5]};
    om_error err;
    om_preset *preset = NULL;
    om_world *views = NULL;
    om_mesh *device = NULL, *moe = NULL;
    char *json = NULL;
    OM_EXPECT_OK(om_preset_new("hyper-parallel", params, 6, world, &preset, &err), &err);
    OM_EXPECT_OK(om_preset_to_json(preset, &json, &err), &err);
    OM_EXPECT_OK(om_preset_world(preset, &views, &err), &err);
    OM_EXPECT_OK(om_world_view(views, "device", &device, &err), &err);
    if (ep > 1)
        OM_EXPECT_OK(om_world_view(views, "fsdp_moe", &moe, &err), &err);
    else
        OM_EXPECT(om_world_view_index(views, "fsdp_moe") < 0);
    json_t *doc = json ? json_loads(json, 0, NULL) : NULL;
    const json_t *local = json_object_get(doc, "local_ranks");
    OM_EXPECT_INT(json_array_size(local), world);
    bool same = json_array_size(local) == (size_t)world;
    int64_t stage[MAX_WORLD];
    stage_positions(device, world, stage);
    for (int64_t r = 0; same && r < world; r++) {
        const json_t *entry = json_array_get(local, (size_t)r);
        int64_t want[5] = {position_in_group(device, "cp", r),
                           position_in_group(device, "dp", r),
                           moe ? position_in_group(moe, "ep", r) : 0,
                           stage[r],
                           position_in_group(device, "tp", r)};
        static const char *const keys[5] = {"cp_rank", "dp_rank", "ep_rank", "pp_rank",
                                            "tp_rank"};
        same = json_object_size(entry) == 5;
        for (size_t k = 0; same && k < 5; k++)
            same = field(entry, keys[k]) == want[k];
        if (!same)
            fprintf(stderr, "tp=%lld cp=%lld pp=%lld dp=%lld ep=%lld dp_shard=%lld "
                    "edp_shard=%lld: rank %lld differs\n", (long long)tp, (long long)cp,
                    (long long)pp, (long long)dp, (long long)ep, (long long)dp_shard,
                    (long long)edp_shard, (long long)r);
    }
    OM_EXPECT(same);
    json_decref(doc);
    om_string_free(json);
    om_mesh_free(device);
    om_mesh_free(moe);
    om_world_free(views);
    om_preset_free(preset);
    return true;
}

static void test_every_small_shape(void)
{
    static const int64_t tps[] = {1, 2, 3}, cps[] = {1, 2}, pps[] = {1, 3};
    static const int64_t dps[] = {1, 2, 4, 6}, eps[] = {1, 2, 3, 4};
    static const int64_t shards[] = {1, 2, 3};
#define EACH(v, list) for (size_t v = 0; v < sizeof list / sizeof list[0]; v++)
    size_t checked = 0, with_ep = 0, with_pp_and_ep = 0;
    EACH(a, tps) EACH(b, cps) EACH(c, pps) EACH(d, dps) EACH(e, eps) EACH(f, shards)
        EACH(g, shards) {
            if (!check_shape(tps[a], cps[b], pps[c], dps[d], eps[e], shards[f], shards[g]))
                continue;
            checked++;
            with_ep += eps[e] > 1;
            with_pp_and_ep += eps[e] > 1 && pps[c] > 1;
        }
#undef EACH
    OM_EXPECT(checked > 300 && with_ep > 150 && with_pp_and_ep > 75);
}

/* Presets without local ranks print none. */
static void test_other_presets_have_none(void)
{
    static const char *const names[] = {"torchtitan", "megatron", "deepspeed"};
    for (size_t i = 0; i < 3; i++) {
        om_error err;
        om_preset *p = NULL;
        char *json = NULL;
        OM_EXPECT_OK(om_preset_new(names[i], NULL, 0, 8, &p, &err), &err);
        OM_EXPECT_OK(om_preset_to_json(p, &json, &err), &err);
        OM_EXPECT(json && !strstr(json, "local_ranks"));
        om_string_free(json);
        om_preset_free(p);
    }
}

static const om_test_case tests[] = {
    {"every small shape: positions in sorted groups", test_every_small_shape},
    {"other presets have no local ranks", test_other_presets_have_none},
    {NULL, NULL},
};

int main(int argc, char **argv)
{
    static const om_test_suite suites[] = {
        {"hyper-parallel local ranks", NULL, NULL, tests},
        {NULL, NULL, NULL, NULL},
    };
    return om_test_main(argc, argv, suites);
}
