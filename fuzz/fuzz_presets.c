/* Fuzz target: framework presets (om_preset_new, om_preset_check) from
 * chosen or arbitrary parameters, and everything a preset then offers.
 *
 * Input: byte 0 picks the preset (b % 5: torchtitan, megatron, deepspeed,
 * hyper-parallel, an unknown name); byte 1 the world size (sizes[b % 16]);
 * byte 2 the number of parameters (b % 8). Each parameter is a selector
 * byte: below 224 a known key (keys[b % NKEYS]) with a value byte
 * (values[b % NVALUES]); from 224 on, arbitrary text up to a NUL byte or
 * the end of the input (so "KEY=VALUE" spellings get fuzzed too).
 * Invariants: om_preset_new fails with *out NULL, INVALID_ARGUMENT or
 * OUT_OF_RANGE and a valid message, and om_preset_check then reports a
 * violation or refuses the parameters; or it succeeds, and then
 * om_preset_check finds nothing, the preset's world has its world size and
 * views whose ranks lie inside it, its group lists hold groups of distinct
 * ranks of the world, its JSON is written, and only torchtitan has
 * single-axis meshes.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const presets[] = {"torchtitan", "megatron", "deepspeed", "hyper-parallel",
                                      "torchtitan2"};
static const int64_t sizes[16] = {0, 1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 3, 5, 7, 128};
static const char *const keys[] = {
    "world_size", "dp_replicate", "dp_shard", "cp", "tp", "pp", "ep", "spmd_backend",
    "tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size",
    "expert_model_parallel_size", "expert_tensor_parallel_size", "order",
    "num_distributed_optimizer_instances", "hierarchical_context_parallel_sizes",
    "virtual_pipeline_model_parallel_size", "tensor_parallel_size_", "expert_parallel_size_",
    "pipeline_parallel_size_", "use_data_before_expert_parallel_", "accelerator.tp_size",
    "accelerator.cp_size", "accelerator.pp_size", "accelerator.ep_size",
    "fsdp_config.dp_shard_size", "fsdp_config.edp_shard_size",
};
static const char *const values[] = {
    "1", "2", "3", "4", "8", "-1", "0", "6", "null", "None", "true", "False", "[2,2]", "2,2",
    "[2,2,2]", "tp-cp-ep-dp-pp", "tp-cp-dp-pp", "pp-dp-cp-tp", "\"tp-cp-ep-dp-pp\"",
    "spmd_types", "partial_dtensor", "full_dtensor", "2147483648", "x", "", "16", "5", "12",
};
#define NKEYS (sizeof keys / sizeof keys[0])
#define NVALUES (sizeof values / sizeof values[0])

static void check_lists(const om_preset *p, int64_t world)
{
    om_error err;
    static int32_t ranks[1 << 16];
    static int seen[128], stamp;
    for (size_t i = 0; i < om_preset_group_list_count(p); i++) {
        const char *name = om_preset_group_list_name(p, i);
        size_t needed = 0, group = 0;
        FUZZ_CHECK(name && om_preset_group_list(p, name, ranks, sizeof ranks / sizeof *ranks,
                                                &needed, &group, &err) == OM_OK,
                   "group list %zu: %s", i, err.message);
        FUZZ_CHECK(group >= 1 && needed % group == 0, "list %s: %zu ranks in groups of %zu", name,
                   needed, group);
        for (size_t g = 0; g < needed / group; g++) {
            stamp++;
            for (size_t k = 0; k < group; k++) {
                int32_t r = ranks[g * group + k];
                FUZZ_CHECK(r >= 0 && r < world && seen[r] != stamp,
                           "list %s group %zu: rank %d outside the world or repeated", name, g, r);
                seen[r] = stamp;
            }
        }
    }
    size_t needed = 0, group = 0;
    om_status st = om_preset_group_list(p, "\001none", NULL, 0, &needed, &group, &err);
    FUZZ_CHECK(st == OM_ERR_INVALID_ARGUMENT, "an absent group list gave %d", (int)st);
}

static void check_preset(const om_preset *p, const char *name)
{
    om_error err;
    int64_t world = om_preset_world_size(p);
    FUZZ_CHECK(world >= 1 && world <= 128 && strcmp(om_preset_name(p), name) == 0,
               "preset %s of world %lld", om_preset_name(p), (long long)world);
    om_world *w = NULL;
    FUZZ_CHECK(om_preset_world(p, &w, &err) == OM_OK && om_world_size(w) == world,
               "world: %s", err.message);
    FUZZ_CHECK(om_world_view_count(w) == om_preset_view_count(p), "the world has %zu views, "
               "the preset %zu", om_world_view_count(w), om_preset_view_count(p));
    for (size_t i = 0; i < om_preset_view_count(p); i++) {
        om_mesh *v = NULL;
        const char *view = om_preset_view_name(p, i);
        FUZZ_CHECK(om_world_view(w, view, &v, &err) == OM_OK, "view %s: %s", view, err.message);
        FUZZ_CHECK(om_view_extent(v) <= world && om_view_rank_count(v) <= world,
                   "view %s reaches rank %lld of a world of %lld", view,
                   (long long)om_view_extent(v), (long long)world);
        om_mesh_free(v);
    }
    om_world_free(w);
    check_lists(p, world);
    char *json = NULL;
    FUZZ_CHECK(om_preset_to_json(p, &json, &err) == OM_OK && strncmp(json, "{\"", 2) == 0,
               "to_json: %s", err.message);
    om_string_free(json);
    om_status st = om_preset_single_axes_json(p, &json, &err);
    FUZZ_CHECK((st == OM_OK) == (strcmp(name, "torchtitan") == 0),
               "single axes of %s gave %d", name, (int)st);
    if (st == OM_OK)
        om_string_free(json);
    else
        fuzz_check_error("om_preset_single_axes_json", st, &err, FUZZ_BIT(OM_ERR_INVALID_ARGUMENT));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    const char *name = presets[data[0] % 5];
    int64_t world = sizes[data[1] % 16];
    size_t nparams = data[2] % 8, at = 3;
    static char text[8][256];
    const char *params[8];
    for (size_t i = 0; i < nparams; i++) {
        uint8_t sel = at < size ? data[at++] : 0;
        if (sel < 224) {
            uint8_t v = at < size ? data[at++] : 0;
            snprintf(text[i], sizeof text[i], "%s=%s", keys[sel % NKEYS], values[v % NVALUES]);
        } else {
            size_t n = 0;
            while (at < size && data[at] != 0 && n + 1 < sizeof text[i])
                text[i][n++] = (char)data[at++];
            at += at < size; /* the NUL */
            text[i][n] = '\0';
        }
        params[i] = text[i];
    }
    om_error err, cerr;
    om_preset *p = (om_preset *)(uintptr_t)1;
    om_status st = om_preset_new(name, params, nparams, world, &p, &err);
    char *verdict = NULL;
    om_status cst = om_preset_check(name, params, nparams, world, &verdict, &cerr);
    if (st != OM_OK) {
        FUZZ_CHECK(p == NULL, "a failed preset left *out set");
        fuzz_check_error("om_preset_new", st, &err,
                         FUZZ_BIT(OM_ERR_INVALID_ARGUMENT) | FUZZ_BIT(OM_ERR_OUT_OF_RANGE));
        if (cst == OM_OK)
            FUZZ_CHECK(strstr(verdict, "\"ok\":false") != NULL,
                       "om_preset_new refused (%s), om_preset_check says %s", err.message, verdict);
        else
            fuzz_check_error("om_preset_check", cst, &cerr,
                             FUZZ_BIT(OM_ERR_INVALID_ARGUMENT) | FUZZ_BIT(OM_ERR_OUT_OF_RANGE));
    } else {
        FUZZ_CHECK(cst == OM_OK && strstr(verdict, "\"ok\":true") != NULL &&
                       strstr(verdict, "\"violations\":[]") != NULL,
                   "om_preset_new accepted, om_preset_check says %s",
                   cst == OM_OK ? verdict : cerr.message);
        check_preset(p, name);
        om_preset_free(p);
    }
    if (cst == OM_OK)
        om_string_free(verdict);
    return 0;
}
