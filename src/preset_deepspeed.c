/* The "deepspeed" preset: deepspeed 0.19.8
 * utils/groups._get_expert_parallel_ranks(). Its expert groups are the
 * axis groups of the view (pp, edp, ep, tp) (E+D, the default) or
 * (pp, ep, edp, tp) (D+E), listed in DeepSpeed's order: by pipeline stage,
 * then tensor-parallel index, then the remaining axis. */
#include <stdlib.h>
#include <string.h>

#include "preset_internal.h"

enum { P_TP, P_EP, P_PP, P_DATA_FIRST, P_COUNT };

static const omi_param_spec params[P_COUNT] = {
    [P_TP] = {"tensor_parallel_size_", OMI_PARAM_INT, 1, NULL, "tp"},
    [P_EP] = {"expert_parallel_size_", OMI_PARAM_INT, 1, NULL, "ep"},
    [P_PP] = {"pipeline_parallel_size_", OMI_PARAM_INT, 1, NULL, "pp"},
    [P_DATA_FIRST] = {"use_data_before_expert_parallel_", OMI_PARAM_BOOL, 0, NULL, NULL},
};

typedef struct {
    int64_t key;
    size_t index;
} keyed;

static int compare_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

/* The groups over `axis`, reordered by the coordinates (pp, tp, other) of
 * their first members, as DeepSpeed builds them. */
static om_status deepspeed_list(om_preset *preset, const omi_pview *view,
                                const char *axis, const char *other,
                                const char *list_name, om_error *err)
{
    int64_t world = preset->world;
    omi_group_list groups;
    om_status st = omi_pview_groups(view, &axis, 1, &groups, err);
    if (st != OM_OK)
        return st;
    int64_t *coords = omi_malloc((size_t)world * view->naxes * sizeof *coords);
    keyed *keys = omi_malloc(groups.count * sizeof *keys);
    int32_t *sorted = omi_malloc(groups.count * groups.size * sizeof *sorted);
    if (!coords || !keys || !sorted)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory listing groups");
    if (st == OM_OK)
        st = omi_pview_coords(view, world, coords, err);
    if (st == OM_OK) {
        int pp = omi_pview_axis(view, "pp"), tp = omi_pview_axis(view, "tp");
        int rest = omi_pview_axis(view, other);
        int64_t tp_size = view->axes[tp].modes[0].size;
        int64_t rest_size = view->axes[rest].modes[0].size;
        for (size_t g = 0; g < groups.count; g++) {
            const int64_t *c = coords + groups.ranks[g * groups.size] *
                                            (int64_t)view->naxes;
            keys[g].key = (c[pp] * tp_size + c[tp]) * rest_size + c[rest];
            keys[g].index = g;
        }
        qsort(keys, groups.count, sizeof *keys, compare_keyed);
        for (size_t g = 0; g < groups.count; g++)
            memcpy(sorted + g * groups.size,
                   groups.ranks + keys[g].index * groups.size,
                   groups.size * sizeof *sorted);
        omi_free(groups.ranks);
        groups.ranks = sorted;
        sorted = NULL;
        st = omi_preset_add_list(preset, list_name, &groups, err);
    }
    omi_free(coords);
    omi_free(keys);
    omi_free(sorted);
    omi_group_list_free(&groups);
    return st;
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
