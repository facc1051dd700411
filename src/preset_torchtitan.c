/* The "torchtitan" preset: torchtitan 0.3.0 ParallelDims (validation and
 * build_mesh()). Every view is unflattened from the 1-D world, pp
 * outermost, row-major; batch = dp_replicate*dp_shard, fsdp =
 * dp_shard*cp, efsdp = dp_shard*cp*tp/ep (EP takes the innermost ranks of
 * dp_shard*cp*tp). */
#include <stdio.h>
#include <string.h>

#include "preset_internal.h"

enum { P_DP_REPLICATE, P_DP_SHARD, P_CP, P_TP, P_PP, P_EP, P_BACKEND, P_COUNT };

static const omi_param_spec params[P_COUNT] = {
    [P_DP_REPLICATE] = {"dp_replicate", OMI_PARAM_INT, 1, NULL, NULL},
    [P_DP_SHARD] = {"dp_shard", OMI_PARAM_INT, -1, NULL, NULL},
    [P_CP] = {"cp", OMI_PARAM_INT, 1, NULL, NULL},
    [P_TP] = {"tp", OMI_PARAM_INT, 1, NULL, NULL},
    [P_PP] = {"pp", OMI_PARAM_INT, 1, NULL, NULL},
    [P_EP] = {"ep", OMI_PARAM_INT, 1, NULL, NULL},
    [P_BACKEND] = {"spmd_backend", OMI_PARAM_STRING, 0, "spmd_types", NULL},
};

typedef enum { SPMD_TYPES, PARTIAL_DTENSOR, FULL_DTENSOR } backend;

static void add_views(om_preset *preset, backend spmd, int64_t pp, int64_t dr,
                      int64_t ds, int64_t cp, int64_t tp, int64_t ep)
{
    int64_t world = preset->world, stage = world / pp;
    int64_t batch = dr * ds, efsdp = ds * cp * tp / ep;
    const omi_mode stages = {pp, stage};

    const char *loader[] = {"pp", "batch", "cp", "tp"};
    omi_preset_add_view(preset, "dataloading", loader,
                        (int64_t[]){pp, batch, cp, tp}, NULL, 4)
        ->flags = OMI_VIEW_INSTANCES;

    /* loss = flatten(batch, cp) of dataloading: one instance per (pp, tp). */
    const char *loss_axis[] = {"loss_mesh"};
    omi_pview *loss = omi_preset_add_view(preset, "loss", loss_axis,
                                          (int64_t[]){batch}, (int64_t[]){cp * tp}, 1);
    loss->axes[0].modes[1] = (omi_mode){cp, tp};
    loss->axes[0].nmodes = 2;
    loss->inst[0] = stages;
    loss->inst[1] = (omi_mode){tp, 1};
    loss->ninst = 2;
    loss->flags = OMI_VIEW_INSTANCES;

    if (spmd == PARTIAL_DTENSOR) {
        const char *dense[] = {"pp", "dp_replicate", "fsdp", "tp"};
        omi_preset_add_view(preset, "dense", dense,
                            (int64_t[]){pp, dr, ds * cp, tp}, NULL, 4)
            ->flags = OMI_VIEW_INSTANCES;
    } else {
        const char *dense[] = {"pp", "dp_replicate", "dp_shard", "cp", "tp"};
        omi_preset_add_view(preset, "dense", dense,
                            (int64_t[]){pp, dr, ds, cp, tp}, NULL, 5)
            ->flags = OMI_VIEW_INSTANCES;
    }

    const char *sparse[] = {"pp", "dp_replicate", "efsdp", "ep"};
    omi_preset_add_view(preset, "sparse", sparse, (int64_t[]){pp, dr, efsdp, ep},
                        NULL, 4)
        ->flags = OMI_VIEW_INSTANCES;

    if (spmd != SPMD_TYPES)
        return;
    /* The fwd/bwd meshes are slices without pp: one instance per stage. */
    const char *spmd_dense[] = {"dp", "cp", "tp"};
    omi_pview *view = omi_preset_add_view(preset, "spmd_dense_for_fwdbwd", spmd_dense,
                                          (int64_t[]){batch, cp, tp}, NULL, 3);
    view->inst[0] = stages;
    view->ninst = 1;
    view->flags = OMI_VIEW_INSTANCES;
    if (ep == 1)
        return;
    const char *spmd_sparse[] = {"dp_replicate", "efsdp", "ep"};
    view = omi_preset_add_view(preset, "spmd_sparse_for_fwdbwd", spmd_sparse,
                               (int64_t[]){dr, efsdp, ep}, NULL, 3);
    view->inst[0] = stages;
    view->ninst = 1;
    view->flags = OMI_VIEW_INSTANCES;
}

static void single(om_preset *preset, const char *name, const char *mesh_dim,
                   const char *view, int64_t size, bool fake_backed,
                   bool optional_none)
{
    omi_single_axis *a = &preset->single[preset->nsingle++];
    snprintf(a->name, sizeof a->name, "%s", name);
    snprintf(a->mesh_dim, sizeof a->mesh_dim, "%s", mesh_dim);
    snprintf(a->view, sizeof a->view, "%s", view);
    a->size = size;
    a->fake_backed = fake_backed;
    a->optional_none = optional_none;
}

/* The single-axis meshes in torchtitan's order. get_optional_mesh gives
 * None (ParallelDims._mesh_exist is false) for size 1, except fsdp and
 * dp_shard (always exist), and for efsdp exactly when ep == 1 (whatever its
 * size). Those axes were unflattened with the "fake" backend, except loss:
 * it is flattened from dataloading with the default backend, so it has a
 * real communicator even of size 1. */
static void add_single_axes(om_preset *preset, backend spmd, int64_t pp, int64_t dr,
                            int64_t ds, int64_t cp, int64_t tp, int64_t ep)
{
    int64_t batch = dr * ds, efsdp = ds * cp * tp / ep;
    single(preset, "pp", "pp", "dataloading", pp, pp == 1, pp == 1);
    single(preset, "batch", "batch", "dataloading", batch, batch == 1, batch == 1);
    single(preset, "loss", "loss_mesh", "loss", batch * cp, false, batch * cp == 1);
    single(preset, "dp_replicate", "dp_replicate", "dense", dr, dr == 1, dr == 1);
    single(preset, "cp", "cp", "dataloading", cp, cp == 1, cp == 1);
    single(preset, "tp", "tp", "dataloading", tp, tp == 1, tp == 1);
    single(preset, "ep", "ep", "sparse", ep, ep == 1, ep == 1);
    single(preset, "efsdp", "efsdp", "sparse", efsdp, ep == 1, ep == 1);
    if (spmd == SPMD_TYPES)
        single(preset, "dp", "dp", "spmd_dense_for_fwdbwd", batch, batch == 1, batch == 1);
    if (spmd == PARTIAL_DTENSOR)
        single(preset, "fsdp", "fsdp", "dense", ds * cp, false, false);
    else
        single(preset, "dp_shard", "dp_shard", "dense", ds, false, false);
}

static om_status run(const omi_param_value *v, int64_t world, omi_rules *rules,
                     om_preset *preset, om_error *err)
{
    (void)err;
    const char *name = v[P_BACKEND].string;
    backend spmd = SPMD_TYPES;
    if (strcmp(name, "partial_dtensor") == 0)
        spmd = PARTIAL_DTENSOR;
    else if (strcmp(name, "full_dtensor") == 0)
        spmd = FULL_DTENSOR;
    else
        omi_rule(rules, strcmp(name, "spmd_types") == 0, false,
                 "spmd_backend must be spmd_types, partial_dtensor or "
                 "full_dtensor, got '%.40s'", name);

    int64_t dr = v[P_DP_REPLICATE].integer, ds = v[P_DP_SHARD].integer;
    int64_t cp = v[P_CP].integer, tp = v[P_TP].integer, pp = v[P_PP].integer;
    int64_t ep = v[P_EP].integer;
    /* torchtitan's message, and which degree broke it (it names none). */
    const char *low = dr < 1 ? "dp_replicate" : cp < 1 ? "cp" : tp < 1 ? "tp"
                      : pp < 1 ? "pp" : "ep";
    int64_t low_value = dr < 1 ? dr : cp < 1 ? cp : tp < 1 ? tp : pp < 1 ? pp : ep;
    if (!omi_rule(rules, dr >= 1 && cp >= 1 && tp >= 1 && pp >= 1 && ep >= 1, true,
                  "Parallelism degree should be >= 1, except for dp_shard (%s = %lld)",
                  low, (long long)low_value))
        return OM_OK;
    if (!omi_rule(rules, ds == -1 || ds >= 1, true,
                  "dp_shard must -1 or >=1. (dp_shard = %lld)", (long long)ds))
        return OM_OK;
    if (ds < 0) {
        int64_t rest = omi_preset_product((int64_t[]){dr, cp, tp, pp}, 4);
        ds = world / rest;
        if (!omi_rule(rules, ds >= 1, true,
                      "dp_shard = -1 resolves to %lld: world size %lld is "
                      "smaller than dp_replicate*cp*tp*pp = %lld",
                      (long long)ds, (long long)world, (long long)rest))
            return OM_OK;
    }
    if (!omi_rule(rules, omi_preset_product((int64_t[]){dr, ds, cp, tp, pp}, 5) == world, true,
                  "Invalid parallel dims: dp_replicate(%lld) * dp_shard(%lld) * "
                  "cp(%lld) * tp(%lld) * pp(%lld) != WORLD_SIZE(%lld)",
                  (long long)dr, (long long)ds, (long long)cp, (long long)tp,
                  (long long)pp, (long long)world))
        return OM_OK;
    /* torchtitan HEAD's rule (0.3.0 fails later, inside torch's unflatten). */
    int64_t expert_domain = ds * cp * tp;
    omi_rule(rules, expert_domain % ep == 0, true,
             "ep (%lld) must divide dp_shard*cp*tp (%lld)", (long long)ep,
             (long long)expert_domain);
    if (rules->count)
        return OM_OK;
    add_views(preset, spmd, pp, dr, ds, cp, tp, ep);
    add_single_axes(preset, spmd, pp, dr, ds, cp, tp, ep);
    return OM_OK;
}

const omi_preset_def omi_preset_torchtitan = {"torchtitan", params, P_COUNT, run};
