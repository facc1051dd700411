/* The "hyper-parallel" preset: mindspore-ai/hyper-parallel
 * distributed/mesh.py (create_distributed_setup_from_config, then
 * MeshContext.build_meshs; commit cdacc60, read, not run). Each view is a
 * family with one instance per pipeline stage s, ranks [s*D, (s+1)*D) for
 * D = dp*cp*tp: pp is the rank offset, not an axis. */
#include "preset_internal.h"

enum { P_TP, P_CP, P_PP, P_EP, P_DP_SHARD, P_EDP_SHARD, P_COUNT };

static const omi_param_spec params[P_COUNT] = {
    [P_TP] = {"accelerator.tp_size", OMI_PARAM_INT_OR_NULL, 1, NULL, "tp"},
    [P_CP] = {"accelerator.cp_size", OMI_PARAM_INT_OR_NULL, 1, NULL, "cp"},
    [P_PP] = {"accelerator.pp_size", OMI_PARAM_INT_OR_NULL, 1, NULL, "pp"},
    [P_EP] = {"accelerator.ep_size", OMI_PARAM_INT_OR_NULL, 1, NULL, "ep"},
    [P_DP_SHARD] = {"fsdp_config.dp_shard_size", OMI_PARAM_INT_OR_NULL, 1, NULL, "dp_shard"},
    [P_EDP_SHARD] = {"fsdp_config.edp_shard_size", OMI_PARAM_INT_OR_NULL, 1, NULL, "edp_shard"},
};

/* hyper-parallel reads every size as max(1, value); null is the default. */
static int64_t clamped(const omi_param_value *v)
{
    if (v->is_null)
        return 1;
    return v->integer > 1 ? v->integer : 1;
}

static omi_pview *stage_view(om_preset *preset, const char *name,
                             const char *const *names, const int64_t *sizes,
                             size_t naxes, omi_mode stages)
{
    int64_t strides[3];
    int64_t stride = 1;
    for (size_t i = naxes; i-- > 0;) {
        strides[i] = stride;
        stride *= sizes[i];
    }
    omi_pview *view = omi_preset_add_view(preset, name, names, sizes, strides, naxes);
    view->inst[0] = stages;
    view->ninst = 1;
    view->flags = OMI_VIEW_INSTANCES;
    return view;
}

static om_status run(const omi_param_value *v, int64_t world, omi_rules *rules,
                     om_preset *preset, om_error *err)
{
    (void)err;
    int64_t tp = clamped(&v[P_TP]), cp = clamped(&v[P_CP]), pp = clamped(&v[P_PP]);
    int64_t ep = clamped(&v[P_EP]), dp_shard = clamped(&v[P_DP_SHARD]);
    int64_t edp_shard = clamped(&v[P_EDP_SHARD]);
    int64_t non_dp = omi_preset_product((int64_t[]){tp, cp, pp}, 3);
    if (!omi_rule(rules, world % non_dp == 0, true,
                  "world_size %lld is not divisible by non-DP size %lld",
                  (long long)world, (long long)non_dp))
        return OM_OK;
    int64_t dp = world / non_dp;
    if (!omi_rule(rules, (dp * cp) % dp_shard == 0, false,
                  "DP+CP size %lld is not divisible by FSDP shard size %lld",
                  (long long)(dp * cp), (long long)dp_shard))
        return OM_OK;
    int64_t stage = dp * cp * tp, edp = 1;
    if (ep > 1) {
        if (!omi_rule(rules, stage % ep == 0, true,
                      "expert domain size (%lld) must be divisible by ep_size (%lld)",
                      (long long)stage, (long long)ep))
            return OM_OK;
        edp = stage / ep;
        omi_rule(rules, edp % edp_shard == 0, true,
                 "expert data-parallel size (%lld) must be divisible by "
                 "edp_shard_size (%lld)", (long long)edp, (long long)edp_shard);
    }
    if (rules->count)
        return OM_OK;

    const omi_mode stages = {pp, stage};
    const char *device[] = {"dp", "cp", "tp"};
    stage_view(preset, "device", device, (int64_t[]){dp, cp, tp}, 3, stages);
    const char *fsdp[] = {"fsdp_replicate", "fsdp_shard", "tp"};
    stage_view(preset, "fsdp_non_moe", fsdp,
               (int64_t[]){dp * cp / dp_shard, dp_shard, tp}, 3, stages);
    if (ep > 1) {
        int64_t edp_replicate = edp / edp_shard;
        const char *moe[] = {"edp_replicate", "edp_shard", "ep"};
        if (edp_replicate > 1)
            stage_view(preset, "fsdp_moe", moe,
                       (int64_t[]){edp_replicate, edp_shard, ep}, 3, stages);
        else
            stage_view(preset, "fsdp_moe", moe + 1, (int64_t[]){edp_shard, ep}, 2,
                       stages);
    }
    /* dp_cp = flatten(dp, cp) of device: one instance per (stage, tp). */
    const char *dp_cp[] = {"dp_cp"};
    omi_pview *flat = stage_view(preset, "dp_cp", dp_cp, (int64_t[]){dp}, 1, stages);
    flat->axes[0].modes[0].stride = cp * tp;
    flat->axes[0].modes[1] = (omi_mode){cp, tp};
    flat->axes[0].nmodes = 2;
    flat->inst[1] = (omi_mode){tp, 1};
    flat->ninst = 2;
    /* MeshContext's local ranks: dp/cp/tp are the device coordinate, pp the
     * stage (the device instance), ep the fsdp_moe coordinate (0 without
     * expert parallelism). */
    omi_preset_add_local_rank(preset, "cp_rank", "device", "cp");
    omi_preset_add_local_rank(preset, "dp_rank", "device", "dp");
    omi_preset_add_local_rank(preset, "ep_rank", ep > 1 ? "fsdp_moe" : NULL, "ep");
    omi_preset_add_local_rank(preset, "pp_rank", "device", NULL);
    omi_preset_add_local_rank(preset, "tp_rank", "device", "tp");
    return OM_OK;
}

const omi_preset_def omi_preset_hyper_parallel = {"hyper-parallel", params, P_COUNT,
                                                  run};
