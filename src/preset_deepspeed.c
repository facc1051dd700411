/* The "deepspeed" preset: deepspeed 0.19.8
 * utils/groups._get_expert_parallel_ranks(). Its expert groups are the
 * axis groups of the view (pp, edp, ep, tp) (E+D, the default) or
 * (pp, ep, edp, tp) (D+E), listed in DeepSpeed's order: by pipeline stage,
 * then tensor-parallel index, then the remaining axis. */

#include "preset_internal.h"

enum { P_TP, P_EP, P_PP, P_DATA_FIRST, P_COUNT };

static const omi_param_spec params[P_COUNT] = {
    [P_TP] = {"tensor_parallel_size_", OMI_PARAM_INT, 1, NULL, "tp"},
    [P_EP] = {"expert_parallel_size_", OMI_PARAM_INT, 1, NULL, "ep"},
    [P_PP] = {"pipeline_parallel_size_", OMI_PARAM_INT, 1, NULL, "pp"},
    [P_DATA_FIRST] = {"use_data_before_expert_parallel_", OMI_PARAM_BOOL, 0, NULL, NULL},
};

/* The groups over `axis`, in DeepSpeed's order: by the pipeline stage,
 * then the tensor-parallel index, then the `other` axis of their first
 * members (a layout over those axes, not a sort). */
static om_status deepspeed_list(om_preset *preset, const omi_pview *view,
                                const char *axis, const char *other,
                                const char *list_name, om_error *err)
{
    omi_group_list groups;
    omi_pview_list(view, (const char *[]){"pp", "tp", other}, 3, &axis, 1, &groups);
    return omi_preset_add_list(preset, list_name, &groups, err);
}

static om_status run(const omi_param_value *v, int64_t world, omi_rules *rules,
                     om_preset *preset, om_error *err)
{
    int64_t tp = v[P_TP].integer, ep = v[P_EP].integer, pp = v[P_PP].integer;
    bool ok = true;
    for (int p = P_TP; ok && p <= P_PP; p++)
        ok = omi_rule(rules, v[p].integer >= 1, true, "%s must be >= 1, got %lld",
                      params[p].key, (long long)v[p].integer);
    if (!ok || rules->count)
        return OM_OK;
    /* _ensure_divisibility(world_size, tp * pp), then (dp world, ep). */
    int64_t model = omi_preset_product((int64_t[]){tp, pp}, 2);
    if (!omi_rule(rules, world % model == 0, true, "%lld is not divisible by %lld",
                  (long long)world, (long long)model))
        return OM_OK;
    int64_t dp_world = world / model;
    if (!omi_rule(rules, dp_world % ep == 0, true, "%lld is not divisible by %lld",
                  (long long)dp_world, (long long)ep))
        return OM_OK;
    if (rules->count)
        return OM_OK;
    int64_t edp = dp_world / ep;
    bool data_first = v[P_DATA_FIRST].integer != 0;
    const char *names[4] = {"pp", data_first ? "ep" : "edp",
                            data_first ? "edp" : "ep", "tp"};
    int64_t sizes[4] = {pp, data_first ? ep : edp, data_first ? edp : ep, tp};
    omi_pview *view = omi_preset_add_view(preset, "expert", names, sizes, NULL, 4);
    view->flags = OMI_VIEW_RAW_LAYOUT | OMI_VIEW_NO_GROUPS;
    om_status st = deepspeed_list(preset, view, "ep", "edp", "ep", err);
    if (st == OM_OK)
        st = deepspeed_list(preset, view, "edp", "ep", "expt_dp", err);
    return st;
}

const omi_preset_def omi_preset_deepspeed = {"deepspeed", params, P_COUNT, run};
