/* The hyper-parallel preset read from a training YAML: the keys
 * accelerator.{tp,cp,pp,ep}_size and fsdp_config.{dp,edp}_shard_size
 * become the preset's parameters of the same dotted names. */
#include <stdio.h>
#include <string.h>

#include "preset_internal.h"
#include "yaml_tree.h"

#define YAML_KEYS 6

static const char *const sections[YAML_KEYS] = {
    "accelerator", "accelerator", "accelerator", "accelerator",
    "fsdp_config", "fsdp_config"};
static const char *const fields[YAML_KEYS] = {
    "tp_size", "cp_size", "pp_size", "ep_size", "dp_shard_size", "edp_shard_size"};

typedef struct {
    char text[YAML_KEYS][64];
    const char *params[YAML_KEYS];
    size_t count;
} yaml_params;

/* A key the preset reads given twice (PyYAML, like the composer, keeps
 * the last value without a word): OM_ERR_PARSE worded as config.h's
 * DUPLICATE_KEY diagnostic; the preset calls have no diagnostics. */
static om_status refuse_repeats(const omi_tree *tree, om_error *err)
{
    static const char *const top[] = {"accelerator", "fsdp_config"};
    static const char *const accel[] = {"tp_size", "cp_size", "pp_size", "ep_size"};
    static const char *const fsdp[] = {"dp_shard_size", "edp_shard_size"};
    char message[OM_ERROR_MESSAGE_SIZE];
    if (!tree->has_root)
        return OM_OK;
    const omi_node *root = omi_tree_node(tree, tree->root);
    if (omi_yaml_first_repeat(tree, root, "at the top level",
                              "in a mapping the top level merges", top, 2, message,
                              sizeof message))
        return omi_fail(err, OM_ERR_PARSE, "%s", message);
    omi_lookup ctx = {tree, OMI_MERGE_BUDGET, err, OM_OK};
    const omi_node *map = NULL;
    om_status st = omi_yaml_find_section(&ctx, "accelerator", &map);
    if (st == OM_OK && map &&
        omi_yaml_first_repeat(tree, map, "in accelerator",
                              "in a mapping accelerator merges", accel, 4, message,
                              sizeof message))
        return omi_fail(err, OM_ERR_PARSE, "%s", message);
    ctx.budget = OMI_MERGE_BUDGET;
    map = NULL;
    if (st == OM_OK)
        st = omi_yaml_find_section(&ctx, "fsdp_config", &map);
    if (st == OM_OK && map &&
        omi_yaml_first_repeat(tree, map, "in fsdp_config",
                              "in a mapping fsdp_config merges", fsdp, 2, message,
                              sizeof message))
        return omi_fail(err, OM_ERR_PARSE, "%s", message);
    return st;
}

/* The hyper-parallel keys of a file's text (omu_file_parse). */
static om_status parse_params(const char *text, size_t length, void *ctx,
                              om_error *err)
{
    yaml_params *out = ctx;
    omi_tree tree;
    memset(&tree, 0, sizeof tree);
    om_status st = omi_yaml_compose(text, length, &tree, err);
    if (st == OM_OK)
        st = refuse_repeats(&tree, err);
    for (size_t i = 0; st == OM_OK && i < YAML_KEYS; i++) {
        int64_t value;
        bool given;
        st = omi_yaml_read_int(&tree, sections[i], fields[i], &value, &given, err);
        if (st != OM_OK || !given)
            continue;
        size_t k = out->count++;
        snprintf(out->text[k], sizeof out->text[k], "%s.%s=%lld", sections[i],
                 fields[i], (long long)value);
        out->params[k] = out->text[k];
    }
    omi_tree_free(&tree);
    return st;
}

static om_status read_params(const char *path, yaml_params *out, om_error *err)
{
    out->count = 0;
    if (!path)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "path is NULL");
    return omu_file_parse(path, parse_params, out, err);
}

om_status om_preset_load_yaml(const char *path, int64_t world_size,
                              om_preset **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    yaml_params params;
    om_status st = read_params(path, &params, err);
    if (st != OM_OK)
        return st;
    return om_preset_new("hyper-parallel", params.params, params.count, world_size,
                         out, err);
}

om_status om_preset_check_yaml(const char *path, int64_t world_size, char **out,
                               om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    yaml_params params;
    om_status st = read_params(path, &params, err);
    if (st != OM_OK)
        return st;
    return om_preset_check("hyper-parallel", params.params, params.count, world_size,
                           out, err);
}
