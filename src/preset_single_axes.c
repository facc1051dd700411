/* torchtitan's single-axis meshes of a preset (om_preset_single_axes_json):
 * the get_mesh / get_optional_mesh keys, which are fake-backed, for which
 * get_optional_mesh returns None, and which get_all_one_dimensional_meshes
 * returns (VIEWS.md 3.1). */
#include <string.h>

#include "preset_internal.h"

om_status om_preset_single_axes_json(const om_preset *preset, char **out,
                                     om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!preset)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "preset is NULL");
    if (preset->nsingle == 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "preset %s has no single-axis meshes (torchtitan has)",
                        preset->name);
    const omi_single_axis *axes = preset->single;
    size_t n = preset->nsingle;
    omi_buf buf = {0};
    omi_buf_puts(&buf, "{\"one_dimensional_active\":[");
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (axes[i].size < 2 || axes[i].optional_none)
            continue;
        if (!first)
            omi_buf_puts(&buf, ",");
        omi_buf_json_string(&buf, axes[i].name, strlen(axes[i].name));
        first = false;
    }
    omi_buf_puts(&buf, "],\"single_axis\":{");
    /* Keys sorted (canonical JSON): a selection over the few names. */
    const char *last = "";
    for (size_t k = 0; k < n; k++) {
        size_t next = n;
        for (size_t i = 0; i < n; i++)
            if (strcmp(axes[i].name, last) > 0 &&
                (next == n || strcmp(axes[i].name, axes[next].name) < 0))
                next = i;
        const omi_single_axis *a = &axes[next];
        if (k)
            omi_buf_puts(&buf, ",");
        omi_buf_json_string(&buf, a->name, strlen(a->name));
        omi_buf_puts(&buf, ":{\"fake_backed\":");
        omi_buf_puts(&buf, a->fake_backed ? "true" : "false");
        omi_buf_puts(&buf, ",\"from_view\":");
        omi_buf_json_string(&buf, a->view, strlen(a->view));
        omi_buf_puts(&buf, ",\"get_optional_mesh_is_none\":");
        omi_buf_puts(&buf, a->optional_none ? "true" : "false");
        omi_buf_puts(&buf, ",\"mesh_dim_name\":");
        omi_buf_json_string(&buf, a->mesh_dim, strlen(a->mesh_dim));
        omi_buf_puts(&buf, ",\"size\":");
        omi_buf_int(&buf, a->size);
        omi_buf_puts(&buf, "}");
        last = a->name;
    }
    omi_buf_puts(&buf, "}}");
    return omi_buf_finish(&buf, out, err);
}
