/* The "megatron" preset: megatron-core 0.16 parallel_state.
 * initialize_model_parallel(). Two RankGenerators over one world, dense
 * (tp, dp, pp, cp; ep = 1) and expert (etp, edp, pp, ep; cp = 1), each the
 * row-major view over reversed(order); then every group Megatron creates,
 * in creation order. Rules run in the order the function checks them. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "preset_internal.h"

enum {
    P_TP, P_PP, P_CP, P_EP, P_ETP, P_ORDER, P_INSTANCES, P_HCP, P_VPP, P_COUNT
};

static const omi_param_spec params[P_COUNT] = {
    [P_TP] = {"tensor_model_parallel_size", OMI_PARAM_INT, 1, NULL, "tp"},
    [P_PP] = {"pipeline_model_parallel_size", OMI_PARAM_INT, 1, NULL, "pp"},
    [P_CP] = {"context_parallel_size", OMI_PARAM_INT, 1, NULL, "cp"},
    [P_EP] = {"expert_model_parallel_size", OMI_PARAM_INT, 1, NULL, "ep"},
    [P_ETP] = {"expert_tensor_parallel_size", OMI_PARAM_INT_OR_NULL, 0, NULL, "etp"},
    [P_ORDER] = {"order", OMI_PARAM_STRING, 0, "tp-cp-ep-dp-pp", NULL},
    [P_INSTANCES] = {"num_distributed_optimizer_instances", OMI_PARAM_INT, 1, NULL, NULL},
    [P_HCP] = {"hierarchical_context_parallel_sizes", OMI_PARAM_INT_LIST_OR_NULL, 0,
               NULL, "hcp"},
    [P_VPP] = {"virtual_pipeline_model_parallel_size", OMI_PARAM_INT_OR_NULL, 0, NULL, "vpp"},
};

/* Megatron's generator tokens, in the order RankGenerator checks them. */
static const char *const tokens[5] = {"tp", "pp", "dp", "ep", "cp"};

typedef struct {
    char order[64];         /* completed, lower case */
    const char *names[5];   /* order tokens, fastest first */
    int64_t sizes[5];
    size_t n;
} generator;

/* RankGenerator.__init__: tokens of size > 1 must be in the order, the
 * others are appended. `sizes` follow `tokens`. */
static bool make_generator(omi_rules *rules, const char *order,
                           const int64_t *sizes, generator *gen)
{
    char lower[64];
    size_t len = strlen(order);
    for (size_t i = 0; i <= len; i++)
        lower[i] = (char)tolower((unsigned char)order[i]);
    for (size_t t = 0; t < 5; t++) {
        if (strstr(lower, tokens[t]))
            continue;
        if (!omi_rule(rules, sizes[t] == 1, true,
                      "The size of (%s) is (%lld), but you haven'tspecified the "
                      "order (%s).", tokens[t], (long long)sizes[t], order))
            return false;
        size_t used = strlen(lower);
        snprintf(lower + used, sizeof lower - used, "-%s", tokens[t]);
    }
    snprintf(gen->order, sizeof gen->order, "%s", lower);
    gen->n = 0;
    const char *p = lower;
    while (true) {
        const char *dash = strchr(p, '-');
        size_t item = dash ? (size_t)(dash - p) : strlen(p);
        size_t t = 0;
        while (t < 5 && !(strlen(tokens[t]) == item && memcmp(tokens[t], p, item) == 0))
            t++;
        if (!omi_rule(rules, t < 5, true,
                      "order '%s' has an unknown token '%.*s' (tokens: tp, cp, "
                      "ep, dp, pp)", order, (int)(item < 20 ? item : 20), p))
            return false;
        for (size_t k = 0; k < gen->n; k++)
            if (!omi_rule(rules, gen->names[k] != tokens[t], true,
                          "order '%s' names '%s' twice", order, tokens[t]))
                return false;
        gen->names[gen->n] = tokens[t];
        gen->sizes[gen->n++] = sizes[t];
        if (!dash)
            break;
        p = dash + 1;
    }
    return true;
}

/* The generator as a view: axes reversed(order), row-major. Megatron's
 * tokens name the axes (as its own get_ranks does); `world_names` maps
 * each token to its name among the world's views ("" = a size-1 dummy). */
static omi_pview *generator_view(om_preset *preset, const char *name,
                                 const generator *gen,
                                 const char *const *world_names)
{
    const char *names[5];
    int64_t sizes[5];
    for (size_t i = 0; i < gen->n; i++) {
        names[i] = gen->names[gen->n - 1 - i];
        sizes[i] = gen->sizes[gen->n - 1 - i];
    }
    omi_pview *view = omi_preset_add_view(preset, name, names, sizes, NULL, gen->n);
    view->flags = OMI_VIEW_RAW_LAYOUT;
    snprintf(view->order, sizeof view->order, "%s", gen->order);
    for (size_t i = 0; i < gen->n; i++)
        for (size_t t = 0; t < 5; t++)
            if (strcmp(names[i], tokens[t]) == 0)
                snprintf(view->axes[i].world_name, sizeof view->axes[i].world_name,
                         "%s", world_names[t]);
    return view;
}

/* get_ranks("a-b"): the groups over those tokens, stored as `name`. */
static om_status axis_list(om_preset *preset, const omi_pview *view,
                           const char *name, const char *const *axes, size_t naxes,
                           om_error *err)
{
    omi_group_list list;
    om_status st = omi_pview_groups(view, axes, naxes, &list, err);
    return st == OM_OK ? omi_preset_add_list(preset, name, &list, err) : st;
}

/* create_hierarchical_groups(ranks, sizes), for every group of `source`:
 * level l cuts each group into runs of prod sizes[:l+1] and takes every
 * prod sizes[:l]-th member; list `names[l]` (names NULL: "hcp[l]")
 * collects level l. */
static om_status hierarchical_lists(om_preset *preset, const omi_group_list *source,
                                    const int64_t *sizes, size_t levels,
                                    const char *const *names, om_error *err)
{
    /* Adding lists may move the preset's lists: keep the source's layout. */
    omi_group_list from = *source;
    size_t processed = 1;
    for (size_t l = 0; l < levels; l++) {
        omi_group_list list;
        char name[OMI_PRESET_NAME_LEN];
        snprintf(name, sizeof name, "hcp[%zu]", l);
        omi_group_list_split(&from, processed, (size_t)sizes[l], &list);
        om_status st = omi_preset_add_list(preset, names ? names[l] : name, &list, err);
        if (st != OM_OK)
            return st;
        processed *= (size_t)sizes[l];
    }
    return OM_OK;
}

/* The ranks of `source` in groups of `size`: each group cut into
 * consecutive runs (intra_dp_cp), or consecutive groups joined
 * (intra_dist_opt). */
static om_status regrouped_list(om_preset *preset, const omi_group_list *source,
                                size_t size, const char *name, om_error *err)
{
    omi_group_list list;
    omi_group_list_regroup(source, size, &list);
    return omi_preset_add_list(preset, name, &list, err);
}

static om_status check_pp_groups(const omi_pview *dense, const omi_pview *expert,
                                 omi_rules *rules, om_error *err)
{
    const char *pp = "pp";
    omi_group_list a, b;
    om_status st = omi_pview_groups(dense, &pp, 1, &a, err);
    if (st != OM_OK)
        return st;
    st = omi_pview_groups(expert, &pp, 1, &b, err);
    if (st == OM_OK && !omi_group_list_equal(&a, &b)) {
        char text_a[100], text_b[100];
        omi_group_list_format(text_a, sizeof text_a, &a);
        omi_group_list_format(text_b, sizeof text_b, &b);
        omi_rule(rules, false, false,
                 "Pipeline parallel groups are expected to be the same for "
                 "Non-Expert and Expert part, but got %s and %s", text_a, text_b);
    }
    omi_group_list_free(&a);
    omi_group_list_free(&b);
    return st;
}

static om_status embedding_lists(om_preset *preset, om_error *err)
{
    const omi_group_list *pp = omi_preset_find_list(preset, "pp");
    omi_group_list embd, pos;
    omi_group_list_ends(pp, true, &embd);
    omi_group_list_ends(pp, false, &pos);
    om_status st = omi_preset_add_list(preset, "embd", &embd, err);
    return st == OM_OK ? omi_preset_add_list(preset, "pos_embd", &pos, err) : st;
}

typedef struct {
    int64_t instances, edp;
    const omi_param_value *hcp;
} group_plan;

/* Every group Megatron creates, in creation order. */
static om_status add_lists(om_preset *preset, const omi_pview *dense,
                           const omi_pview *expert, const group_plan *plan,
                           om_error *err)
{
    size_t n = (size_t)plan->instances;
    om_status st = axis_list(preset, dense, "dp_cp", (const char *[]){"dp", "cp"}, 2, err);
    if (st == OM_OK && n > 1)
        st = regrouped_list(preset, omi_preset_find_list(preset, "dp_cp"),
                            omi_preset_find_list(preset, "dp_cp")->size / n,
                            "intra_dp_cp", err);
    if (st == OM_OK)
        st = axis_list(preset, dense, "dp", (const char *[]){"dp"}, 1, err);
    if (st == OM_OK)
        st = axis_list(preset, dense, "cp", (const char *[]){"cp"}, 1, err);
    if (st == OM_OK && !plan->hcp->is_null && plan->hcp->list_len > 0)
        st = hierarchical_lists(preset, omi_preset_find_list(preset, "cp"),
                                plan->hcp->list, plan->hcp->list_len, NULL, err);
    if (st == OM_OK)
        st = axis_list(preset, dense, "mp", (const char *[]){"tp", "pp"}, 2, err);
    if (st == OM_OK)
        st = axis_list(preset, dense, "tp", (const char *[]){"tp"}, 1, err);
    if (st == OM_OK)
        st = axis_list(preset, dense, "pp", (const char *[]){"pp"}, 1, err);
    if (st == OM_OK)
        st = embedding_lists(preset, err);
    if (st == OM_OK)
        st = axis_list(preset, dense, "tp_dp_cp", (const char *[]){"tp", "dp", "cp"}, 3,
                       err);
    if (st == OM_OK)
        st = axis_list(preset, dense, "tp_dp", (const char *[]){"tp", "dp"}, 2, err);
    if (st == OM_OK)
        st = axis_list(preset, dense, "tp_cp", (const char *[]){"tp", "cp"}, 2, err);
    if (st == OM_OK)
        st = axis_list(preset, expert, "ep", (const char *[]){"ep"}, 1, err);
    if (st == OM_OK)
        st = axis_list(preset, expert, "expt_tp", (const char *[]){"tp"}, 1, err);
    if (st == OM_OK)
        st = axis_list(preset, expert, "tp_ep", (const char *[]){"tp", "ep"}, 2, err);
    if (st == OM_OK)
        st = axis_list(preset, expert, "tp_ep_pp", (const char *[]){"tp", "ep", "pp"}, 3,
                       err);
    if (st == OM_OK)
        st = axis_list(preset, expert, "expt_dp", (const char *[]){"dp"}, 1, err);
    if (st == OM_OK && n > 1)
        st = hierarchical_lists(preset, omi_preset_find_list(preset, "expt_dp"),
                                (int64_t[]){plan->edp / plan->instances, plan->instances},
                                2, (const char *[]){"intra_expt_dp", "inter_dist_opt"},
                                err);
    if (st == OM_OK)
        st = regrouped_list(preset, omi_preset_find_list(preset, "tp_ep_pp"),
                            omi_preset_find_list(preset, "tp_ep_pp")->size *
                                (size_t)(plan->edp / plan->instances),
                            "intra_dist_opt", err);
    return st;
}

static om_status run(const omi_param_value *v, int64_t world, omi_rules *rules,
                     om_preset *preset, om_error *err)
{
    int64_t tp = v[P_TP].integer, pp = v[P_PP].integer, cp = v[P_CP].integer;
    int64_t ep = v[P_EP].integer, n = v[P_INSTANCES].integer;
    int64_t etp = v[P_ETP].is_null ? tp : v[P_ETP].integer;
    const char *order = v[P_ORDER].string;
    /* Python would divide by zero or loop on sizes < 1; say so first. */
    static const int sized[] = {P_TP, P_PP, P_CP, P_EP, P_ETP, P_INSTANCES};
    bool ok = true;
    for (size_t i = 0; ok && i < sizeof sized / sizeof sized[0]; i++) {
        const omi_param_value *value = &v[sized[i]];
        ok = omi_rule(rules, value->is_null || value->integer >= 1, true,
                      "%s must be >= 1, got %lld", params[sized[i]].key,
                      (long long)value->integer);
    }
    for (size_t l = 0; ok && !v[P_HCP].is_null && l < v[P_HCP].list_len; l++)
        ok = omi_rule(rules, v[P_HCP].list[l] >= 1, true,
                      "hierarchical_context_parallel_sizes must be >= 1, got %lld",
                      (long long)v[P_HCP].list[l]);
    if (!ok || rules->count)
        return OM_OK;

    int64_t model = omi_preset_product((int64_t[]){tp, pp, cp}, 3);
    /* Not fatal for the expert generator's own divisibility rule, which
     * does not need dp: a check lists both. */
    if (!omi_rule(rules, world % model == 0, false,
                  "world_size (%lld) is not divisible by %lld", (long long)world,
                  (long long)model))
        return OM_OK;
    bool dense_ok = world % model == 0;
    int64_t dp = world / model;
    if (!omi_rule(rules, v[P_VPP].is_null || pp > 1, false,
                  "pipeline-model-parallel size should be greater than 1 with "
                  "interleaved schedule (pipeline_model_parallel_size = %lld, "
                  "virtual_pipeline_model_parallel_size = %lld)", (long long)pp,
                  (long long)v[P_VPP].integer))
        return OM_OK;
    generator dense_gen, expert_gen;
    if (dense_ok && !make_generator(rules, order, (int64_t[]){tp, pp, dp, 1, cp},
                                    &dense_gen))
        return OM_OK;
    int64_t expert_model = omi_preset_product((int64_t[]){etp, ep, pp}, 3);
    if (!omi_rule(rules, world % expert_model == 0, true,
                  "world_size (%lld) is not divisible by "
                  "expert_tensor_model_pipeline_parallel size (%lld)",
                  (long long)world, (long long)expert_model) ||
        !dense_ok)
        return OM_OK;
    int64_t edp = world / expert_model;
    if (!make_generator(rules, order, (int64_t[]){etp, pp, edp, ep, 1}, &expert_gen))
        return OM_OK;
    size_t order_len = strlen(order);
    bool pp_last = order_len >= 2 && strcmp(order + order_len - 2, "pp") == 0;
    if (!omi_rule(rules, pp_last || pp == 1 || edp == dp, true,
                  "When not using pp-last rank ordering, the data parallel size "
                  "of the attention and moe layers must be the same (%lld and %lld, "
                  "order %.40s)", (long long)dp, (long long)edp, order))
        return OM_OK;
    if (rules->count)
        return OM_OK;

    omi_pview *dense = generator_view(preset, "dense", &dense_gen,
                                      (const char *[]){"tp", "pp", "dp", "", "cp"});
    omi_pview *expert = generator_view(preset, "expert", &expert_gen,
                                       (const char *[]){"expt_tp", "pp", "expt_dp",
                                                        "ep", ""});
    om_status st = check_pp_groups(dense, expert, rules, err);
    if (st != OM_OK)
        return st;
    omi_rule(rules, (dp * cp) % n == 0, false,
             "Data parallel size should be divisible by partial DistOpt shard factor "
             "(dp*cp = %lld, num_distributed_optimizer_instances = %lld)",
             (long long)(dp * cp), (long long)n);
    if (!v[P_HCP].is_null && v[P_HCP].list_len > 0) {
        int64_t product = 1;
        char shown[80] = "[";
        for (size_t l = 0; l < v[P_HCP].list_len; l++) {
            product = product > world ? product : product * v[P_HCP].list[l];
            size_t used = strlen(shown);
            snprintf(shown + used, sizeof shown - used, "%s%lld", l ? ", " : "",
                     (long long)v[P_HCP].list[l]);
        }
        size_t used = strlen(shown);
        snprintf(shown + used, sizeof shown - used, "]");
        omi_rule(rules, product == cp, false,
                 "hierarchical_context_parallel_sizes %s multiply to %lld, not to "
                 "context_parallel_size %lld", shown, (long long)product,
                 (long long)cp);
    }
    omi_rule(rules, edp % n == 0, false,
             "Expert data parallel size should be divisible by partial DistOpt "
             "shard factor (%lld, num_distributed_optimizer_instances = %lld)",
             (long long)edp, (long long)n);
    if (rules->count)
        return OM_OK;
    group_plan plan = {n, edp, &v[P_HCP]};
    return add_lists(preset, dense, expert, &plan, err);
}

const omi_preset_def omi_preset_megatron = {"megatron", params, P_COUNT, run};
