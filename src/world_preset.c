/* The world of a framework preset: its views as om_mesh views under their
 * world axis names (Megatron's reused tokens renamed, size-1 placeholders
 * left out, as VIEWS.md 3.2 says), checked by om_world_new(). */
#include <string.h>

#include "internal.h"
#include "preset_internal.h"

/* One preset view as an om_mesh view. */
static om_status view_of(const omi_pview *pv, om_mesh **out, om_error *err)
{
    const char *names[OMI_PRESET_MAX_AXES];
    size_t lens[OMI_PRESET_MAX_AXES], counts[OMI_PRESET_MAX_AXES], n = 0, k = 0;
    omi_mode modes[OMI_PRESET_MAX_AXES * OMI_PRESET_MAX_MODES];
    for (size_t i = 0; i < pv->naxes; i++) {
        const omi_paxis *axis = &pv->axes[i];
        if (!axis->world_name[0])
            continue;
        names[n] = axis->world_name;
        lens[n] = strlen(axis->world_name);
        counts[n++] = axis->nmodes;
        memcpy(modes + k, axis->modes, axis->nmodes * sizeof *modes);
        k += axis->nmodes;
    }
    return omi_view_create(names, lens, n, counts, modes, pv->inst, pv->ninst,
                           0, out, err);
}

om_status om_world_from_preset(const om_preset *preset, om_world **out,
                               om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!preset)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "preset is NULL");
    om_mesh *views[OMI_PRESET_MAX_VIEWS] = {NULL};
    const char *names[OMI_PRESET_MAX_VIEWS];
    om_status st = OM_OK;
    size_t n = 0;
    for (; n < preset->nviews && st == OM_OK; n++) {
        names[n] = preset->views[n].name;
        st = view_of(&preset->views[n], &views[n], err);
        if (st != OM_OK) {
            char prefix[64 + OMI_PRESET_NAME_LEN];
            omi_squote(prefix + 5, sizeof prefix - 5, names[n], strlen(names[n]));
            memcpy(prefix, "view ", 5);
            omi_prefix_error(err, prefix);
        }
    }
    if (st == OM_OK)
        st = om_world_new(preset->world, names, n, (const om_mesh *const *)views,
                          n, out, err);
    for (size_t i = 0; i < n; i++)
        om_mesh_free(views[i]);
    return st;
}
