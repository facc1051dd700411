/* Framework presets through the C API: every case of the four vector files
 * (tests/vectors/, computed by running the frameworks), then every rule,
 * message and error path.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "om_test.h"

#define MAX_PARAMS 16

/* "KEY=VALUE" for a vector parameter: JSON spelling (null, true, [2,2],
 * strings without their quotes). */
static char *param_text(const char *key, const json_t *value)
{
    char *text = json_is_string(value)
                     ? strdup(json_string_value(value))
                     : json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
    size_t size = strlen(key) + strlen(text) + 2;
    char *param = malloc(size);
    snprintf(param, size, "%s=%s", key, text);
    free(text);
    return param;
}

static json_t *load_vectors(const char *stem)
{
    const char *fixtures = getenv("OM_FIXTURES");
    char path[1024];
    snprintf(path, sizeof path, "%s/../vectors/%s.json", fixtures ? fixtures : "tests/fixtures",
             stem);
    json_error_t error;
    json_t *doc = json_load_file(path, 0, &error);
    if (!doc)
        om_test_record(false, __FILE__, __LINE__, "cannot read %s: %s", path, error.text);
    return doc;
}

static bool expects_error(const json_t *c)
{
    const json_t *library = json_object_get(c, "library");
    if (library)
        return json_object_get(library, "error") != NULL;
    return json_object_get(c, "error") != NULL;
}

/* torchtitan's single-axis meshes equal the vector's (without the groups,
 * which the vector's view `from_view` holds under `mesh_dim_name`). */
static void check_single_axes(const om_preset *p, const json_t *c)
{
    om_error err;
    char *json = NULL;
    OM_EXPECT_OK(om_preset_single_axes_json(p, &json, &err), &err);
    json_t *got = json ? json_loads(json, 0, NULL) : NULL;
    json_t *want = json_deep_copy(json_object_get(c, "single_axis"));
    const char *key;
    json_t *axis;
    json_object_foreach(want, key, axis) {
        const json_t *view = json_object_get(json_object_get(c, "views"),
                                             json_string_value(json_object_get(axis, "from_view")));
        const json_t *groups = json_object_get(
            json_object_get(view, "groups"),
            json_string_value(json_object_get(axis, "mesh_dim_name")));
        om_test_record(json_equal(groups, json_object_get(axis, "groups")), __FILE__,
                       __LINE__, "single axis %s: groups not those of its view", key);
        json_object_del(axis, "groups");
    }
    json_t *doc = json_pack("{s:O,s:o}", "one_dimensional_active",
                            json_object_get(c, "one_dimensional_active"), "single_axis",
                            want);
    om_test_record(got && json_equal(got, doc), __FILE__, __LINE__,
                   "single axes differ from the vector: %s", json ? json : "(none)");
    json_decref(doc);
    json_decref(got);
    om_string_free(json);
}

/* Runs every case of one vector file through om_preset_new() and
 * om_preset_to_json(), comparing views, named groups and local ranks
 * exactly. */
static void run_vectors(const char *stem, const char *preset, bool named_groups)
{
    json_t *doc = load_vectors(stem);
    if (!doc)
        return;
    size_t index;
    json_t *c;
    size_t checked = 0;
    json_array_foreach(json_object_get(doc, "cases"), index, c) {
        char *params[MAX_PARAMS];
        size_t n = 0;
        const char *key;
        json_t *value;
        json_object_foreach(json_object_get(c, "params"), key, value)
            params[n++] = param_text(key, value);
        int64_t world = json_integer_value(json_object_get(c, "world_size"));
        om_error err;
        om_preset *p = NULL;
        om_status st = om_preset_new(preset, (const char *const *)params, n, world,
                                     &p, &err);
        if (expects_error(c)) {
            om_test_record(st == OM_ERR_INVALID_ARGUMENT && p == NULL, __FILE__,
                           __LINE__, "%s case %zu: expected an error, got status %d",
                           stem, index, st);
        } else {
            OM_EXPECT_OK(st, &err);
            char *json = NULL;
            if (st == OM_OK)
                OM_EXPECT_OK(om_preset_to_json(p, &json, &err), &err);
            json_t *got = json ? json_loads(json, 0, NULL) : NULL;
            json_t *want = json_pack("{s:O}", "views", json_object_get(c, "views"));
            if (named_groups)
                json_object_set(want, "groups", json_object_get(c, "groups"));
            /* hyper-parallel: MeshContext's per-rank local ranks too. */
            if (json_object_get(c, "local_ranks"))
                json_object_set(want, "local_ranks", json_object_get(c, "local_ranks"));
            om_test_record(got && json_equal(got, want), __FILE__, __LINE__,
                           "%s case %zu: views/groups differ from the vector", stem,
                           index);
            /* The view names, in build order, are the vector's. */
            size_t v = 0;
            json_object_foreach(json_object_get(c, "views"), key, value) {
                (void)value;
                v++;
            }
            OM_EXPECT_INT(om_preset_view_count(p), v);
            if (json_object_get(c, "single_axis"))
                check_single_axes(p, c);
            OM_EXPECT_INT(om_preset_world_size(p), world);
            json_decref(got);
            json_decref(want);
            om_string_free(json);
            om_preset_free(p);
        }
        for (size_t i = 0; i < n; i++)
            free(params[i]);
        checked++;
    }
    OM_EXPECT(checked > 5);
    json_decref(doc);
}

static void test_vectors_torchtitan(void) { run_vectors("torchtitan", "torchtitan", false); }
static void test_vectors_megatron(void) { run_vectors("megatron", "megatron", true); }
static void test_vectors_deepspeed(void) { run_vectors("deepspeed", "deepspeed", true); }
static void test_vectors_hyper_parallel(void)
{
    run_vectors("hyper_parallel", "hyper-parallel", false);
}

/* ---- helpers for the rule tests ---- */

/* Builds from alternating keys and values (NULL-terminated). */
static om_status build(const char *preset, const char *const *kv, int64_t world,
                       om_preset **out, om_error *err)
{
    char text[MAX_PARAMS][128];
    const char *params[MAX_PARAMS];
    size_t n = 0;
    for (; kv[2 * n]; n++) {
        snprintf(text[n], sizeof text[n], "%s=%s", kv[2 * n], kv[2 * n + 1]);
        params[n] = text[n];
    }
    return om_preset_new(preset, params, n, world, out, err);
}

#define KV(...) ((const char *const[]){__VA_ARGS__, NULL})

static void expect_rule(const char *preset, const char *const *kv, int64_t world,
                        const char *message)
{
    om_error err;
    om_preset *p = (om_preset *)&err; /* must become NULL */
    OM_EXPECT_ERR(build(preset, kv, world, &p, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  message);
    OM_EXPECT(p == NULL);
}

/* ---- torchtitan ---- */

static void test_torchtitan_rules(void)
{
    /* torchtitan's messages, then the degree that broke them (1.3). */
    expect_rule("torchtitan", KV("tp", "0"), 8,
                "Parallelism degree should be >= 1, except for dp_shard (tp = 0)");
    expect_rule("torchtitan", KV("tp", "2", "pp", "-3", "ep", "0"), 8,
                "Parallelism degree should be >= 1, except for dp_shard (pp = -3)");
    expect_rule("torchtitan", KV("dp_shard", "-2"), 8,
                "dp_shard must -1 or >=1. (dp_shard = -2)");
    expect_rule("torchtitan", KV("dp_shard", "3"), 4,
                "Invalid parallel dims: dp_replicate(1) * dp_shard(3) * cp(1) * "
                "tp(1) * pp(1) != WORLD_SIZE(4)");
    /* dp_shard = -1 takes the floor and then fails the product check. */
    expect_rule("torchtitan", KV("tp", "4"), 6,
                "dp_replicate(1) * dp_shard(1) * cp(1) * tp(4) * pp(1) != WORLD_SIZE(6)");
    expect_rule("torchtitan", KV("tp", "8"), 4, "dp_shard = -1 resolves to 0");
    expect_rule("torchtitan", KV("dp_shard", "2", "tp", "2", "ep", "3"), 4,
                "ep (3) must divide dp_shard*cp*tp (4)");
    expect_rule("torchtitan", KV("spmd_backend", "dtensor"), 4,
                "spmd_backend must be spmd_types, partial_dtensor or full_dtensor");
    /* ETP is gone from 0.3.0: an unknown key, with a suggestion. */
    om_error err;
    om_preset *p;
    OM_EXPECT_ERR(build("torchtitan", KV("etp", "2"), 8, &p, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "unknown torchtitan parameter \"etp\"",
                  "did you mean \"tp\"?");
}

static void test_torchtitan_defaults(void)
{
    /* Everything absent: dp_shard = -1 takes the world, spmd_types views. */
    om_error err;
    om_preset *p = NULL;
    OM_EXPECT_OK(build("torchtitan", KV("world_size", "4"), 0, &p, &err), &err);
    OM_EXPECT_INT(om_preset_view_count(p), 5);
    OM_EXPECT_STR(om_preset_view_name(p, 0), "dataloading");
    OM_EXPECT_STR(om_preset_view_name(p, 4), "spmd_dense_for_fwdbwd");
    OM_EXPECT(om_preset_view_name(p, 5) == NULL);
    OM_EXPECT_INT(om_preset_group_list_count(p), 0);
    OM_EXPECT_STR(om_preset_name(p), "torchtitan");
    char *json = NULL;
    OM_EXPECT_OK(om_preset_to_json(p, &json, &err), &err);
    OM_EXPECT(json && strstr(json, "\"dense\":{\"coords\":[[0,0,0,0,0],[0,0,1,0,0]"));
    om_string_free(json);
    om_preset_free(p);
    /* Quoted strings and spaces are accepted in values. */
    OM_EXPECT_OK(build("torchtitan", KV("spmd_backend", "\"partial_dtensor\"", "cp",
                                        " 2 "), 4, &p, &err), &err);
    OM_EXPECT_INT(om_preset_view_count(p), 4);
    om_preset_free(p);
}

/* ---- megatron ---- */

static void test_megatron_rules(void)
{
    expect_rule("megatron", KV("tensor_model_parallel_size", "3"), 8,
                "world_size (8) is not divisible by 3");
    expect_rule("megatron", KV("context_parallel_size", "2", "order", "tp-dp-pp"), 8,
                "The size of (cp) is (2), but you haven'tspecified the order (tp-dp-pp).");
    expect_rule("megatron", KV("expert_model_parallel_size", "3"), 8,
                "world_size (8) is not divisible by "
                "expert_tensor_model_pipeline_parallel size (3)");
    expect_rule("megatron",
                KV("tensor_model_parallel_size", "2", "pipeline_model_parallel_size",
                   "2", "expert_model_parallel_size", "4",
                   "expert_tensor_parallel_size", "1", "order", "tp-cp-ep-pp-dp"),
                16, "When not using pp-last rank ordering, the data parallel size of "
                    "the attention and moe layers must be the same (4 and 2, order "
                    "tp-cp-ep-pp-dp)");
    /* Megatron's texts, then (1.3) the values that break them. */
    expect_rule("megatron", KV("virtual_pipeline_model_parallel_size", "2"), 8,
                "pipeline-model-parallel size should be greater than 1 with "
                "interleaved schedule (pipeline_model_parallel_size = 1, "
                "virtual_pipeline_model_parallel_size = 2)");
    /* Same dp sizes but pp strides differ between the two generators. */
    expect_rule("megatron",
                KV("tensor_model_parallel_size", "2", "pipeline_model_parallel_size",
                   "2", "expert_model_parallel_size", "2",
                   "expert_tensor_parallel_size", "1", "order", "tp-pp-dp-ep-cp"),
                8, "Pipeline parallel groups are expected to be the same for "
                   "Non-Expert and Expert part, but got [[0, 2], [1, 3]");
    expect_rule("megatron", KV("num_distributed_optimizer_instances", "3"), 8,
                "Data parallel size should be divisible by partial DistOpt shard factor "
                "(dp*cp = 8, num_distributed_optimizer_instances = 3)");
    expect_rule("megatron",
                KV("num_distributed_optimizer_instances", "4",
                   "tensor_model_parallel_size", "2", "expert_model_parallel_size", "4",
                   "expert_tensor_parallel_size", "1"),
                8, "Expert data parallel size should be divisible by partial DistOpt "
                   "shard factor (2, num_distributed_optimizer_instances = 4)");
    expect_rule("megatron",
                KV("context_parallel_size", "4", "hierarchical_context_parallel_sizes",
                   "[2, 3]"),
                8, "hierarchical_context_parallel_sizes [2, 3] multiply to 6");
    expect_rule("megatron", KV("order", "tp-xx-dp-pp"), 8, "unknown token 'xx'");
    expect_rule("megatron", KV("order", "tp-dp-tp-pp"), 8, "names 'tp' twice");
    expect_rule("megatron", KV("pipeline_model_parallel_size", "0"), 8,
                "pipeline_model_parallel_size must be >= 1, got 0");
    expect_rule("megatron", KV("virtual_pipeline_model_parallel_size", "2"), 8,
                "pipeline-model-parallel size should be greater than 1");
    om_error err;
    om_preset *p;
    OM_EXPECT_ERR(build("megatron", KV("tensor_parallel_size", "2"), 8, &p, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "unknown megatron parameter",
                  "did you mean \"tensor_model_parallel_size\"?");
    /* The usual short names point to Megatron's own. */
    OM_EXPECT_ERR(build("megatron", KV("etp", "2"), 8, &p, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "unknown megatron parameter \"etp\"",
                  "did you mean \"expert_tensor_parallel_size\"?");
    OM_EXPECT_ERR(build("megatron", KV("zzzzzzzzzz", "2"), 8, &p, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "valid parameters: tensor_model_parallel_size, ");
}

static void test_megatron_lists(void)
{
    om_error err;
    om_preset *p = NULL;
    /* Upper-case order, Python spellings (None) and an appended cp. */
    OM_EXPECT_OK(build("megatron",
                       KV("tensor_model_parallel_size", "2",
                          "expert_tensor_parallel_size", "None", "order", "TP-DP-PP"),
                       8, &p, &err), &err);
    OM_EXPECT_INT(om_preset_group_list_count(p), 17);
    OM_EXPECT_STR(om_preset_group_list_name(p, 0), "dp_cp");
    OM_EXPECT_STR(om_preset_group_list_name(p, 16), "intra_dist_opt");
    OM_EXPECT(om_preset_group_list_name(p, 17) == NULL);
    size_t needed = 0, size = 0;
    int32_t small[2];
    OM_EXPECT_ERR(om_preset_group_list(p, "tp", small, 2, &needed, &size, &err), &err,
                  OM_ERR_BUFFER_TOO_SMALL, "needs 8 ranks");
    OM_EXPECT_INT(needed, 8);
    OM_EXPECT_INT(size, 2);
    int32_t tp[8];
    OM_EXPECT_OK(om_preset_group_list(p, "tp", tp, 8, &needed, &size, &err), &err);
    OM_EXPECT(tp[0] == 0 && tp[1] == 1 && tp[6] == 6 && tp[7] == 7);
    OM_EXPECT_INT(om_preset_group_list(p, "tp", NULL, 0, NULL, NULL, &err),
                  OM_ERR_BUFFER_TOO_SMALL);
    OM_EXPECT_ERR(om_preset_group_list(p, "hcp[0]", tp, 8, NULL, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "no group list \"hcp[0]\"");
    char *json = NULL;
    OM_EXPECT_OK(om_preset_to_json(p, &json, &err), &err);
    OM_EXPECT(json && strstr(json, "\"order\":\"tp-dp-pp-ep-cp\""));
    om_string_free(json);
    om_preset_free(p);
}

/* ---- deepspeed and hyper-parallel ---- */

static void test_deepspeed_rules(void)
{
    expect_rule("deepspeed", KV("expert_parallel_size_", "3"), 8, "8 is not divisible by 3");
    expect_rule("deepspeed", KV("tensor_parallel_size_", "3", "pipeline_parallel_size_", "3"),
                12, "12 is not divisible by 9");
    expect_rule("deepspeed", KV("tensor_parallel_size_", "0"), 8,
                "tensor_parallel_size_ must be >= 1, got 0");
    om_error err;
    om_preset *p;
    OM_EXPECT_ERR(build("deepspeed", KV("use_data_before_expert_parallel_", "maybe"), 8,
                        &p, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "use_data_before_expert_parallel_ must be true or false");
}

static void test_hyper_parallel_rules(void)
{
    expect_rule("hyper-parallel", KV("accelerator.tp_size", "3"), 8,
                "world_size 8 is not divisible by non-DP size 3");
    expect_rule("hyper-parallel",
                KV("accelerator.tp_size", "2", "fsdp_config.dp_shard_size", "3"), 8,
                "DP+CP size 4 is not divisible by FSDP shard size 3");
    expect_rule("hyper-parallel", KV("accelerator.ep_size", "8"), 12,
                "expert domain size (12) must be divisible by ep_size (8)");
    expect_rule("hyper-parallel",
                KV("accelerator.ep_size", "2", "fsdp_config.edp_shard_size", "3"), 8,
                "expert data-parallel size (4) must be divisible by edp_shard_size (3)");
    /* max(1, value): 0, negative and null sizes are 1. */
    om_error err;
    om_preset *p = NULL;
    OM_EXPECT_OK(build("hyper-parallel",
                       KV("accelerator.tp_size", "0", "accelerator.cp_size", "-4",
                          "accelerator.ep_size", "null"), 4, &p, &err), &err);
    OM_EXPECT_INT(om_preset_view_count(p), 3); /* no fsdp_moe with ep 1 */
    om_preset_free(p);
}

/* ---- check: every violation, consistency ---- */

static void test_check_verdicts(void)
{
    om_error err;
    char *verdict = NULL;
    const char *params[] = {"accelerator.tp_size=2", "fsdp_config.dp_shard_size=3",
                            "accelerator.ep_size=2", "fsdp_config.edp_shard_size=3"};
    OM_EXPECT_OK(om_preset_check("hyper-parallel", params, 4, 8, &verdict, &err), &err);
    /* Both the FSDP and the EDP rule fail: both are listed. */
    OM_EXPECT_STR(verdict,
                  "{\"ok\":false,\"preset\":\"hyper-parallel\",\"violations\":["
                  "\"DP+CP size 4 is not divisible by FSDP shard size 3\","
                  "\"expert data-parallel size (4) must be divisible by "
                  "edp_shard_size (3)\"]}");
    om_string_free(verdict);
    /* Megatron's two divisibility rules are independent: both listed, in
     * the order Megatron checks them; a build stops at the first. */
    const char *indivisible[] = {"tensor_model_parallel_size=3",
                                 "expert_model_parallel_size=3"};
    OM_EXPECT_OK(om_preset_check("megatron", indivisible, 2, 8, &verdict, &err), &err);
    OM_EXPECT_STR(verdict,
                  "{\"ok\":false,\"preset\":\"megatron\",\"violations\":["
                  "\"world_size (8) is not divisible by 3\","
                  "\"world_size (8) is not divisible by "
                  "expert_tensor_model_pipeline_parallel size (9)\"]}");
    om_string_free(verdict);
    om_preset *p = NULL;
    OM_EXPECT_ERR(om_preset_new("megatron", indivisible, 2, 8, &p, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "world_size (8) is not divisible by 3");
    OM_EXPECT(p == NULL);
    OM_EXPECT_OK(om_preset_check("megatron", NULL, 0, 8, &verdict, &err), &err);
    OM_EXPECT_STR(verdict, "{\"ok\":true,\"preset\":\"megatron\",\"violations\":[]}");
    om_string_free(verdict);
    /* Parameter errors are errors of the call, not violations. */
    OM_EXPECT_ERR(om_preset_check("megatron", params, 1, 8, &verdict, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "unknown megatron parameter");
    OM_EXPECT(verdict == NULL);
    OM_EXPECT_ERR(om_preset_check("megatron", NULL, 0, 8, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out pointer");
}

/* ---- the world of a preset ---- */

static void test_world(void)
{
    om_error err;
    om_preset *p = NULL;
    OM_EXPECT_OK(build("megatron",
                       KV("tensor_model_parallel_size", "2", "expert_model_parallel_size",
                          "2", "expert_tensor_parallel_size", "1",
                          "pipeline_model_parallel_size", "2"),
                       8, &p, &err), &err);
    om_world *world = NULL;
    OM_EXPECT_OK(om_preset_world(p, &world, &err), &err);
    OM_EXPECT_INT(om_world_size(world), 8);
    OM_EXPECT_INT(om_world_view_count(world), 2);
    OM_EXPECT_STR(om_world_view_name(world, 1), "expert");
    /* Megatron's tokens are renamed in the world: only pp is shared. */
    OM_EXPECT_STR(om_world_axis_view(world, "tp"), "dense");
    OM_EXPECT_STR(om_world_axis_view(world, "expt_tp"), "expert");
    OM_EXPECT_STR(om_world_axis_view(world, "expt_dp"), "expert");
    OM_EXPECT(om_world_axis_view(world, "cp") != NULL); /* dense cp (size 1) */
    om_mesh *expert = NULL;
    OM_EXPECT_OK(om_world_view(world, "expert", &expert, &err), &err);
    OM_EXPECT_INT(om_mesh_ndim(expert), 4); /* pp, expt_dp, ep, expt_tp */
    OM_EXPECT_STR(om_mesh_name(expert, 1), "expt_dp");
    /* etp 1, ep 2: expert groups [0,1],[2,3],... in the world's view. */
    int32_t group[2];
    OM_EXPECT_OK(om_mesh_group_of_named(expert, (const char *[]){"ep"}, 1, 5, group, 2,
                                        NULL, &err), &err);
    OM_EXPECT(group[0] == 4 && group[1] == 5);
    om_mesh_free(expert);
    om_world_free(world);
    om_preset_free(p);

    OM_EXPECT_OK(build("torchtitan", KV("tp", "2", "cp", "2", "pp", "2"), 16, &p, &err),
                 &err);
    OM_EXPECT_OK(om_preset_world(p, &world, &err), &err);
    OM_EXPECT_INT(om_world_view_count(world), 5);
    OM_EXPECT_STR(om_world_axis_view(world, "loss_mesh"), "loss");
    OM_EXPECT_STR(om_world_axis_view(world, "tp"), "dataloading");
    om_world_free(world);
    om_preset_free(p);
    OM_EXPECT_ERR(om_preset_world(NULL, &world, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "preset is NULL");
    OM_EXPECT_ERR(om_preset_world(p, NULL, &err), &err, OM_ERR_INVALID_ARGUMENT, "out");
}

/* ---- arguments ---- */

static void test_bad_arguments(void)
{
    om_error err;
    om_preset *p = NULL;
    const char *twice[] = {"tp=2", "tp=2"};
    OM_EXPECT_ERR(om_preset_new("titan", NULL, 0, 8, &p, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "unknown preset \"titan\"", "torchtitan");
    OM_EXPECT_ERR(om_preset_new(NULL, NULL, 0, 8, &p, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "preset name is NULL");
    OM_EXPECT_ERR(om_preset_new("megatron", NULL, 0, 8, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out pointer");
    OM_EXPECT_ERR(om_preset_new("torchtitan", NULL, 1, 8, &p, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "params is NULL");
    OM_EXPECT_ERR(om_preset_new("torchtitan", twice, 2, 8, &p, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "parameter tp given twice");
    OM_EXPECT_ERR(om_preset_new("torchtitan", (const char *[]){"tp=two"}, 1, 8, &p, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "parameter tp must be an integer",
                  "\"two\"");
    OM_EXPECT_ERR(om_preset_new("torchtitan", (const char *[]){"tp"}, 1, 8, &p, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "parameter \"tp\" is not KEY=VALUE");
    OM_EXPECT_ERR(om_preset_new("torchtitan", (const char *[]){"=2"}, 1, 8, &p, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "is not KEY=VALUE");
    OM_EXPECT_ERR(om_preset_new("torchtitan", (const char *[]){NULL}, 1, 8, &p, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "parameter 0 is NULL");
    OM_EXPECT_ERR(om_preset_new("torchtitan", (const char *[]){"tp=4294967296"}, 1, 8,
                                &p, &err), &err, OM_ERR_OUT_OF_RANGE, "beyond 2^31-1");
    /* A world size beyond 2^31-1 is refused as the parameter is: deepspeed
     * built a preset of 2^31 ranks, torchtitan's check said its product of
     * 2^62 "!= WORLD_SIZE(2^62)". */
    OM_EXPECT_ERR(om_preset_new("deepspeed", NULL, 0, INT64_C(2147483648), &p, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "world size 2147483648 is beyond 2^31-1");
    OM_EXPECT(p == NULL);
    char *verdict = NULL;
    OM_EXPECT_ERR(om_preset_check("torchtitan", NULL, 0, INT64_C(1) << 62, &verdict, &err),
                  &err, OM_ERR_OUT_OF_RANGE, "world size 4611686018427387904 is beyond 2^31-1");
    OM_EXPECT(verdict == NULL);
    OM_EXPECT_OK(om_preset_new("deepspeed", NULL, 0, INT64_C(2147483647), &p, &err), &err);
    OM_EXPECT_INT(om_preset_world_size(p), INT64_C(2147483647));
    om_preset_free(p);
    p = NULL;
    OM_EXPECT_ERR(om_preset_new("torchtitan", NULL, 0, 0, &p, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "no world size");
    OM_EXPECT_ERR(om_preset_new("torchtitan", NULL, 0, -3, &p, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "world size must be >= 1");
    OM_EXPECT_ERR(om_preset_new("deepspeed", (const char *[]){"world_size=16"}, 1, 8, &p,
                                &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "world_size = 16 disagrees", "8");
    OM_EXPECT_ERR(om_preset_new("megatron",
                                (const char *[]){"hierarchical_context_parallel_sizes=[2,x]"},
                                1, 8, &p, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "must be an integer");
    OM_EXPECT_ERR(om_preset_to_json(NULL, (char *[]){NULL}, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "preset is NULL");
    OM_EXPECT_ERR(om_preset_group_list(NULL, "tp", NULL, 0, NULL, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT(om_preset_name(NULL) == NULL);
    OM_EXPECT_INT(om_preset_view_count(NULL), 0);
    OM_EXPECT_INT(om_preset_group_list_count(NULL), 0);
    OM_EXPECT(om_preset_group_list_name(NULL, 0) == NULL);
    OM_EXPECT_INT(om_preset_world_size(NULL), 0);
    om_preset_free(NULL);
}

/* ---- YAML ---- */

static const char *write_yaml(const char *name, const char *text)
{
    static char path[1024];
    const char *dir = getenv("OM_TEST_TMPDIR");
    snprintf(path, sizeof path, "%s/%s", dir ? dir : ".", name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

static void test_yaml(void)
{
    om_error err;
    om_preset *p = NULL;
    const char *path = write_yaml("preset_hp.yaml",
                                  "base: &acc {tp_size: 2}\n"
                                  "accelerator:\n  <<: *acc\n  ep_size: 2\n"
                                  "fsdp_config:\n  dp_shard_size: 2\n"
                                  "  edp_shard_size: ~\n"
                                  "model: {layers: 4}\n");
    OM_EXPECT_OK(om_preset_load_yaml(path, 8, &p, &err), &err);
    OM_EXPECT_INT(om_preset_view_count(p), 4);
    OM_EXPECT_STR(om_preset_view_name(p, 2), "fsdp_moe");
    char *json = NULL;
    OM_EXPECT_OK(om_preset_to_json(p, &json, &err), &err);
    /* dp 4, dp_shard 2: fsdp_replicate 2; ep 2 of tp*dp 8: edp 4. */
    OM_EXPECT(json && strstr(json, "\"fsdp_non_moe\":{") &&
              strstr(json, "\"shape\":[2,2,2]}") && strstr(json, "\"shape\":[4,1,2]}"));
    om_string_free(json);
    om_preset_free(p);

    char *verdict = NULL;
    path = write_yaml("preset_hp_bad.yaml", "accelerator: {tp_size: 3}\n");
    OM_EXPECT_OK(om_preset_check_yaml(path, 8, &verdict, &err), &err);
    OM_EXPECT(verdict && strstr(verdict, "world_size 8 is not divisible by non-DP size 3"));
    om_string_free(verdict);
    OM_EXPECT_ERR(om_preset_load_yaml(path, 8, &p, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "non-DP size 3");
    path = write_yaml("preset_hp_type.yaml", "fsdp_config:\n  dp_shard_size: \"2\"\n");
    OM_EXPECT_ERR(om_preset_load_yaml(path, 8, &p, &err), &err, OM_ERR_PARSE,
                  "preset_hp_type.yaml", "line 2", "dp_shard_size must be an integer");
    OM_EXPECT_ERR(om_preset_load_yaml("/nonexistent/\x1b[2Jx.yaml", 8, &p, &err), &err,
                  OM_ERR_IO, "/nonexistent/\\x1B[2Jx.yaml: cannot open");
    OM_EXPECT_ERR(om_preset_load_yaml("/nonexistent/x.yaml", 8, &p, &err), &err,
                  OM_ERR_IO, "/nonexistent/x.yaml");
    OM_EXPECT_ERR(om_preset_load_yaml(NULL, 8, &p, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "path is NULL");
    OM_EXPECT_ERR(om_preset_check_yaml(path, 8, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out pointer");
}

/* A key the preset reads, given twice, used to keep the last value
 * without a word (1.3 bug fix): refused, worded as the DUPLICATE_KEY
 * diagnostic of config.h, for both calls. */
static void test_yaml_repeated_keys(void)
{
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"accelerator:\n  tp_size: 2\n  tp_size: 4\n",
         "line 3: key \"tp_size\" appears again in accelerator (line 2's value 2 "
         "is replaced by 4)"},
        {"fsdp_config:\n  dp_shard_size: 2\n  edp_shard_size: 1\n"
         "  dp_shard_size: 4\n",
         "line 4: key \"dp_shard_size\" appears again in fsdp_config (line 2's "
         "value 2 is replaced by 4)"},
        {"fsdp_config: {edp_shard_size: 2}\nmodel: {}\nfsdp_config: {}\n",
         "line 3: section \"fsdp_config\" appears again at the top level: it "
         "replaces the one at line 1"},
        {"accelerator: {tp_size: 2}\naccelerator: {ep_size: 2}\n",
         "line 2: section \"accelerator\" appears again at the top level"},
        {"base: &b {ep_size: 2, ep_size: 4}\naccelerator: {<<: *b}\n",
         "line 1: key \"ep_size\" appears again in a mapping accelerator merges"},
        /* Two merge keys in a mapping (1.3 bug fix too). */
        {"a: &a {tp_size: 2}\nb: &b {tp_size: 4}\naccelerator:\n  <<: *a\n  <<: *b\n",
         "line 5: merge key \"<<\" appears again in accelerator (line 4 has one)"},
        {"a: &a {dp_shard_size: 2}\nfsdp_config: {<<: *a, !!merge x: *a}\n",
         "line 2: merge key \"<<\" appears again in fsdp_config (line 2 has one)"},
        {"a: &a {accelerator: {tp_size: 2}}\n<<: *a\n<<: *a\n",
         "line 3: merge key \"<<\" appears again at the top level (line 2 has one)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *path = write_yaml("preset_hp_repeat.yaml", cases[i].text);
        om_error err;
        om_preset *p = (om_preset *)&err;
        OM_EXPECT_ERR(om_preset_load_yaml(path, 8, &p, &err), &err, OM_ERR_PARSE,
                      "preset_hp_repeat.yaml", cases[i].message);
        OM_EXPECT(p == NULL);
        char *verdict = (char *)&err;
        OM_EXPECT_ERR(om_preset_check_yaml(path, 8, &verdict, &err), &err,
                      OM_ERR_PARSE, cases[i].message);
        OM_EXPECT(verdict == NULL);
    }
    /* Keys it does not read may repeat (dp_size is the dims's, a merge
     * beside a key overrides it), as may the fields of other sections. */
    const char *path = write_yaml("preset_hp_repeat.yaml",
                                  "base: &b {tp_size: 4}\n"
                                  "accelerator: {<<: *b, tp_size: 2, dp_size: 1, "
                                  "dp_size: 2}\n"
                                  "model: {tp_size: 1, tp_size: 3}\n"
                                  "accelerator_extra: {}\n");
    om_error err;
    om_preset *p = NULL;
    OM_EXPECT_OK(om_preset_load_yaml(path, 8, &p, &err), &err);
    OM_EXPECT_INT(om_preset_world_size(p), 8);
    char *json = NULL;
    OM_EXPECT_OK(om_preset_to_json(p, &json, &err), &err);
    /* device view dp, cp, tp: tp 2 (the explicit key), dp 8 / 2 = 4. */
    OM_EXPECT(json && strstr(json, "\"dim_names\":[\"dp\",\"cp\",\"tp\"]") &&
              strstr(json, "\"layout\":[[[4,2]],[],[[2,1]]],\"shape\":[4,1,2]}"));
    om_string_free(json);
    om_preset_free(p);
}

/* om_preset_write_json streams exactly om_preset_to_json's text, for
 * every preset, and reports a failed write as OM_ERR_IO. */
static void test_write_json(void)
{
    static const struct {
        const char *name;
        const char *params[4];
        size_t n;
        int64_t world;
    } runs[] = {
        {"torchtitan", {"pp=2", "tp=2", "cp=3", "ep=4"}, 4, 48},
        {"megatron", {"tensor_model_parallel_size=2", "context_parallel_size=2",
                      "hierarchical_context_parallel_sizes=[2]",
                      "num_distributed_optimizer_instances=2"}, 4, 48},
        {"deepspeed", {"tensor_parallel_size_=3", "expert_parallel_size_=5"}, 2, 90000},
        {"hyper-parallel", {"accelerator.tp_size=2", "accelerator.ep_size=4",
                            "accelerator.pp_size=3"}, 3, 96},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        om_error err;
        om_preset *p = NULL;
        char *json = NULL;
        OM_EXPECT_OK(om_preset_new(runs[i].name, runs[i].params, runs[i].n, runs[i].world,
                                   &p, &err), &err);
        OM_EXPECT_OK(om_preset_to_json(p, &json, &err), &err);
        FILE *f = tmpfile();
        OM_EXPECT(f != NULL);
        OM_EXPECT_OK(om_preset_write_json(p, f, &err), &err);
        long len = ftell(f);
        OM_EXPECT(json && len == (long)strlen(json));
        char *back = malloc((size_t)len + 1);
        rewind(f);
        OM_EXPECT(fread(back, 1, (size_t)len, f) == (size_t)len);
        back[len] = '\0';
        OM_EXPECT(json && strcmp(back, json) == 0);
        free(back);
        fclose(f);
        om_string_free(json);
        if (i == 2) {
            FILE *full = fopen("/dev/full", "w");
            OM_EXPECT(full != NULL);
            if (full) {
                OM_EXPECT_ERR(om_preset_write_json(p, full, &err), &err, OM_ERR_IO,
                              "cannot write the views: No space left on device");
                fclose(full);
            }
        }
        OM_EXPECT_ERR(om_preset_write_json(p, NULL, &err), &err,
                      OM_ERR_INVALID_ARGUMENT, "stream is NULL");
        om_preset_free(p);
    }
    om_error err;
    OM_EXPECT_ERR(om_preset_write_json(NULL, stdout, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "preset is NULL");
}

static void test_single_axes_errors(void)
{
    om_error err;
    om_preset *p = NULL;
    char *json = NULL;
    OM_EXPECT_OK(om_preset_new("megatron", NULL, 0, 8, &p, &err), &err);
    OM_EXPECT_ERR(om_preset_single_axes_json(p, &json, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "preset megatron has no single-axis meshes");
    OM_EXPECT(json == NULL);
    OM_EXPECT_ERR(om_preset_single_axes_json(NULL, &json, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "preset is NULL");
    OM_EXPECT_ERR(om_preset_single_axes_json(p, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    om_preset_free(p);
    /* partial_dtensor has fsdp (always real, even of size 1), no dp. */
    OM_EXPECT_OK(om_preset_new("torchtitan", (const char *[]){"tp=8",
                                 "spmd_backend=partial_dtensor"}, 2, 8, &p, &err), &err);
    OM_EXPECT_OK(om_preset_single_axes_json(p, &json, &err), &err);
    OM_EXPECT(json && strstr(json, "\"one_dimensional_active\":[\"tp\"]"));
    OM_EXPECT(json && strstr(json, "\"fsdp\":{\"fake_backed\":false,\"from_view\":"
                                   "\"dense\",\"get_optional_mesh_is_none\":false,"
                                   "\"mesh_dim_name\":\"fsdp\",\"size\":1}"));
    OM_EXPECT(json && !strstr(json, "\"dp\":"));
    om_string_free(json);
    om_preset_free(p);
}

/* A loss mesh of size 1 (tp 4, pp 2 on 8 ranks, recorded from torchtitan
 * 0.3.0): torchtitan flattens it with the default backend, so it is not
 * fake-backed, yet get_optional_mesh("loss") is None (size 1) and it is not
 * one-dimensional active. */
static void test_single_axes_loss_of_size_one(void)
{
    om_error err;
    om_preset *p = NULL;
    char *json = NULL;
    OM_EXPECT_OK(om_preset_new("torchtitan", (const char *[]){"tp=4", "pp=2"}, 2, 8, &p,
                               &err), &err);
    OM_EXPECT_OK(om_preset_single_axes_json(p, &json, &err), &err);
    OM_EXPECT(json && strstr(json, "\"one_dimensional_active\":[\"pp\",\"tp\"]"));
    OM_EXPECT(json && strstr(json, "\"loss\":{\"fake_backed\":false,\"from_view\":"
                                   "\"loss\",\"get_optional_mesh_is_none\":true,"
                                   "\"mesh_dim_name\":\"loss_mesh\",\"size\":1}"));
    OM_EXPECT(json && strstr(json, "\"batch\":{\"fake_backed\":true,\"from_view\":"
                                   "\"dataloading\",\"get_optional_mesh_is_none\":true,"));
    om_string_free(json);
    om_preset_free(p);
}

static const om_test_case vector_tests[] = {
    {"torchtitan", test_vectors_torchtitan},
    {"megatron", test_vectors_megatron},
    {"deepspeed", test_vectors_deepspeed},
    {"hyper_parallel", test_vectors_hyper_parallel},
    {NULL, NULL},
};

static const om_test_case rule_tests[] = {
    {"torchtitan rules", test_torchtitan_rules},
    {"torchtitan defaults", test_torchtitan_defaults},
    {"megatron rules", test_megatron_rules},
    {"megatron lists", test_megatron_lists},
    {"deepspeed rules", test_deepspeed_rules},
    {"hyper-parallel rules", test_hyper_parallel_rules},
    {"check verdicts", test_check_verdicts},
    {"world", test_world},
    {"bad arguments", test_bad_arguments},
    {"write_json streams to_json's text", test_write_json},
    {"single axes: errors and partial_dtensor", test_single_axes_errors},
    {"single axes: loss of size 1 is real-backed", test_single_axes_loss_of_size_one},
    {"yaml", test_yaml},
    {"yaml: repeated keys", test_yaml_repeated_keys},
    {NULL, NULL},
};

int main(int argc, char **argv)
{
    static const om_test_suite suites[] = {
        {"vectors", NULL, NULL, vector_tests},
        {"rules", NULL, NULL, rule_tests},
        {NULL, NULL, NULL, NULL},
    };
    return om_test_main(argc, argv, suites);
}
