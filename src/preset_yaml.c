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

/* The hyper-parallel keys of a file's text (omu_file_parse). */
static om_status parse_params(const char *text, size_t length, void *ctx,
                              om_error *err)
{
    yaml_params *out = ctx;
    omi_tree tree;
    memset(&tree, 0, sizeof tree);
    om_status st = omi_yaml_compose(text, length, &tree, err);
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
