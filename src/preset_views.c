/* A described preset view made real: an om_mesh view (view.h) built from
 * its modes and instance modes, whose groups and coordinates the topology
 * calls compute; the preset's world (world.h) checks the consistency of
 * its views. */
#include <string.h>

#include "preset_internal.h"

/* The view as an om_mesh: with Megatron's own axis names (`world_names`
 * false, every axis kept) or with the names it has among the world's views
 * (size-1 placeholders left out). */
om_status omi_pview_mesh(const omi_pview *view, bool world_names, om_mesh **out,
                        om_error *err)
{
    const char *names[OMI_PRESET_MAX_AXES];
    int64_t counts[OMI_PRESET_MAX_AXES];
    int64_t modes[2 * OMI_PRESET_MAX_AXES * OMI_PRESET_MAX_MODES];
    int64_t inst[2 * OMI_PRESET_MAX_AXES];
    size_t naxes = 0, nmodes = 0;
    for (size_t a = 0; a < view->naxes; a++) {
        const omi_paxis *axis = &view->axes[a];
        if (world_names && !axis->world_name[0])
            continue;
        names[naxes] = world_names ? axis->world_name : axis->name;
        counts[naxes++] = (int64_t)axis->nmodes;
        for (size_t m = 0; m < axis->nmodes; m++) {
            modes[nmodes++] = axis->modes[m].size;
            modes[nmodes++] = axis->modes[m].stride;
        }
    }
    for (size_t i = 0; i < view->ninst; i++) {
        inst[2 * i] = view->inst[i].size;
        inst[2 * i + 1] = view->inst[i].stride;
    }
    return om_view_new_modes(names, naxes, counts, naxes, modes, nmodes,
                             view->ninst ? inst : NULL, 2 * view->ninst, 0, out, err);
}

om_status omi_pview_groups(const omi_pview *view, const char *const *axes,
                           size_t naxes, omi_group_list *out, om_error *err)
{
    memset(out, 0, sizeof *out);
    om_mesh *mesh = NULL;
    omi_axis_set set;
    om_status st = omi_pview_mesh(view, false, &mesh, err);
    if (st == OM_OK)
        st = omi_axis_set_from_names(mesh, axes, naxes, &set, err);
    if (st != OM_OK) {
        om_mesh_free(mesh);
        return st;
    }
    int64_t count = 0, size = 0;
    omi_group_shape(mesh, &set, &count, &size);
    out->count = (size_t)count;
    out->size = (size_t)size;
    out->base = mesh->offset;
    omi_layout_build(mesh, &set, true, false, &out->outer);
    omi_layout_build(mesh, &set, false, true, &out->inner);
    if (!mesh->plain && !omi_layout_ascending(&out->outer)) {
        /* Row-major over the outside modes is not ascending: keep the
         * sorted first members (views torch would not build). */
        out->bases = omi_group_bases(mesh, &out->outer, count);
        out->outer.n = 0;
        if (!out->bases)
            st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory listing groups");
    }
    omi_axis_set_release(&set);
    om_mesh_free(mesh);
    return st;
}

/* The preset's views under their world names: as a world (`out`), or
 * only checked, every broken rule reported to `rules` (`out` NULL). */
static void report_rule(void *rules, const char *message)
{
    omi_rule(rules, false, false, "%s", message);
}

static om_status build_world(const om_preset *preset, omi_rules *rules,
                             om_world **out, om_error *err)
{
    om_mesh *meshes[OMI_PRESET_MAX_VIEWS] = {NULL};
    const char *names[OMI_PRESET_MAX_VIEWS];
    om_status st = OM_OK;
    for (size_t i = 0; st == OM_OK && i < preset->nviews; i++) {
        names[i] = preset->views[i].name;
        st = omi_pview_mesh(&preset->views[i], true, &meshes[i], err);
    }
    const om_mesh *const *views = (const om_mesh *const *)meshes;
    if (st == OM_OK && out)
        st = om_world_new(preset->world, names, preset->nviews, views,
                          preset->nviews, out, err);
    else if (st == OM_OK)
        st = omi_world_conflicts(preset->world, names, views, preset->nviews,
                                 report_rule, rules, err);
    for (size_t i = 0; i < preset->nviews; i++)
        om_mesh_free(meshes[i]);
    return st;
}

om_status omi_preset_check_consistency(const om_preset *preset, omi_rules *rules,
                                       om_error *err)
{
    return build_world(preset, rules, NULL, err);
}

om_status om_preset_world(const om_preset *preset, om_world **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!preset)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "preset is NULL");
    return build_world(preset, NULL, out, err);
}
