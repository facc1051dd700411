/* The JSON document of a preset: every view (dim_names, shape, layout,
 * groups, coords, instances) and the named group lists, keys sorted. */
#include <string.h>

#include "preset_internal.h"

/* Sorts `index[0..n)` so that name_of(index[i]) ascend (bytewise, as
 * Python's sort_keys). */
static void sort_by_name(size_t *index, size_t n,
                         const char *(*name_of)(const void *, size_t),
                         const void *owner)
{
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        while (j > 0 && strcmp(name_of(owner, index[j - 1]), name_of(owner, i)) > 0) {
            index[j] = index[j - 1];
            j--;
        }
        index[j] = i;
    }
}

static const char *view_name(const void *preset, size_t i)
{
    return ((const om_preset *)preset)->views[i].name;
}

static const char *axis_name(const void *view, size_t i)
{
    return ((const omi_pview *)view)->axes[i].name;
}

static const char *list_name(const void *preset, size_t i)
{
    return ((const om_preset *)preset)->lists[i].name;
}

static void put_string(omi_buf *buf, const char *s)
{
    omi_buf_json_string(buf, s, strlen(s));
}

/* Ranks written per call of the group kernel. */
#define CHUNK 4096

static void put_groups(omi_buf *buf, const omi_group_list *groups)
{
    int32_t ranks[CHUNK];
    int64_t total = (int64_t)(groups->count * groups->size);
    int64_t size = (int64_t)groups->size;
    omi_buf_puts(buf, "[");
    for (int64_t e0 = 0; e0 < total; e0 += CHUNK) {
        int64_t e1 = total - e0 < CHUNK ? total : e0 + CHUNK;
        omi_group_list_write(groups, e0, e1, ranks);
        for (int64_t e = e0; e < e1; e++) {
            if (e % size == 0)
                omi_buf_puts(buf, e ? "],[" : "[");
            else
                omi_buf_puts(buf, ",");
            omi_buf_int(buf, ranks[e - e0]);
        }
    }
    omi_buf_puts(buf, total ? "]]" : "]");
}

/* Per axis its modes: as the generator built them (raw) or in the view's
 * normal form (torch's _MeshLayout: size-1 modes dropped, neighbours
 * merged), which the view itself computes. */
static om_status put_layout(omi_buf *buf, const omi_pview *view, om_error *err)
{
    om_mesh *mesh = NULL;
    om_status st = OM_OK;
    if (!(view->flags & OMI_VIEW_RAW_LAYOUT))
        st = omi_pview_mesh(view, false, &mesh, err);
    omi_buf_puts(buf, "[");
    for (size_t a = 0; st == OM_OK && a < view->naxes; a++) {
        int64_t pairs[2 * OMI_PRESET_MAX_MODES];
        size_t n = view->axes[a].nmodes;
        for (size_t m = 0; m < n; m++) {
            pairs[2 * m] = view->axes[a].modes[m].size;
            pairs[2 * m + 1] = view->axes[a].modes[m].stride;
        }
        if (mesh) {
            st = om_view_modes(mesh, a, pairs, 2 * OMI_PRESET_MAX_MODES, &n, err);
            n /= 2;
        }
        omi_buf_puts(buf, a ? ",[" : "[");
        for (size_t m = 0; st == OM_OK && m < n; m++) {
            omi_buf_puts(buf, m ? ",[" : "[");
            omi_buf_int(buf, pairs[2 * m]);
            omi_buf_puts(buf, ",");
            omi_buf_int(buf, pairs[2 * m + 1]);
            omi_buf_puts(buf, "]");
        }
        omi_buf_puts(buf, "]");
    }
    omi_buf_puts(buf, "]");
    om_mesh_free(mesh);
    return st;
}

static int64_t axis_size(const omi_paxis *axis)
{
    int64_t size = 1;
    for (size_t m = 0; m < axis->nmodes; m++)
        size *= axis->modes[m].size;
    return size;
}

static om_status put_coords(omi_buf *buf, const omi_pview *view, int64_t world,
                            om_error *err)
{
    int64_t *coords = omi_malloc((size_t)world * (view->naxes ? view->naxes : 1) *
                                 sizeof *coords);
    if (!coords)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory writing coordinates");
    om_status st = omi_pview_coords(view, 0, world, coords, err);
    omi_buf_puts(buf, "[");
    for (int64_t r = 0; st == OM_OK && r < world; r++) {
        if (r)
            omi_buf_puts(buf, ",");
        const int64_t *c = coords + r * (int64_t)view->naxes;
        if (view->naxes > 0 && c[0] < 0) {
            omi_buf_puts(buf, "null");
            continue;
        }
        omi_buf_puts(buf, "[");
        for (size_t a = 0; a < view->naxes; a++) {
            if (a)
                omi_buf_puts(buf, ",");
            omi_buf_int(buf, c[a]);
        }
        omi_buf_puts(buf, "]");
    }
    omi_buf_puts(buf, "]");
    omi_free(coords);
    return st;
}

static om_status put_view(omi_buf *buf, const omi_pview *view, int64_t world,
                          om_error *err)
{
    omi_buf_puts(buf, "{\"coords\":");
    om_status st = put_coords(buf, view, world, err);
    omi_buf_puts(buf, ",\"dim_names\":[");
    for (size_t a = 0; a < view->naxes; a++) {
        if (a)
            omi_buf_puts(buf, ",");
        put_string(buf, view->axes[a].name);
    }
    omi_buf_puts(buf, "]");
    if (st == OM_OK && !(view->flags & OMI_VIEW_NO_GROUPS)) {
        size_t order[OMI_PRESET_MAX_AXES];
        sort_by_name(order, view->naxes, axis_name, view);
        omi_buf_puts(buf, ",\"groups\":{");
        for (size_t i = 0; st == OM_OK && i < view->naxes; i++) {
            const char *name = view->axes[order[i]].name;
            omi_group_list groups;
            st = omi_pview_groups(view, &name, 1, &groups, err);
            if (st != OM_OK)
                break;
            if (i)
                omi_buf_puts(buf, ",");
            put_string(buf, name);
            omi_buf_puts(buf, ":");
            put_groups(buf, &groups);
            omi_group_list_free(&groups);
        }
        omi_buf_puts(buf, "}");
    }
    if (st == OM_OK && (view->flags & OMI_VIEW_INSTANCES)) {
        const char *names[OMI_PRESET_MAX_AXES];
        for (size_t a = 0; a < view->naxes; a++)
            names[a] = view->axes[a].name;
        omi_group_list instances;
        st = omi_pview_groups(view, names, view->naxes, &instances, err);
        if (st == OM_OK) {
            omi_buf_puts(buf, ",\"instances\":");
            put_groups(buf, &instances);
            omi_group_list_free(&instances);
        }
    }
    omi_buf_puts(buf, ",\"layout\":");
    if (st == OM_OK)
        st = put_layout(buf, view, err);
    if (view->order[0]) {
        omi_buf_puts(buf, ",\"order\":");
        put_string(buf, view->order);
    }
    omi_buf_puts(buf, ",\"shape\":[");
    for (size_t a = 0; a < view->naxes; a++) {
        if (a)
            omi_buf_puts(buf, ",");
        omi_buf_int(buf, axis_size(&view->axes[a]));
    }
    omi_buf_puts(buf, "]}");
    return st;
}

om_status om_preset_to_json(const om_preset *preset, char **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!preset)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "preset is NULL");
    omi_buf buf = {0};
    om_status st = OM_OK;
    omi_buf_puts(&buf, "{");
    if (preset->nlists > 0) {
        size_t order[OMI_PRESET_MAX_LISTS];
        sort_by_name(order, preset->nlists, list_name, preset);
        omi_buf_puts(&buf, "\"groups\":{");
        for (size_t i = 0; i < preset->nlists; i++) {
            if (i)
                omi_buf_puts(&buf, ",");
            put_string(&buf, preset->lists[order[i]].name);
            omi_buf_puts(&buf, ":");
            put_groups(&buf, &preset->lists[order[i]]);
        }
        omi_buf_puts(&buf, "},");
    }
    size_t order[OMI_PRESET_MAX_VIEWS];
    sort_by_name(order, preset->nviews, view_name, preset);
    omi_buf_puts(&buf, "\"views\":{");
    for (size_t i = 0; st == OM_OK && i < preset->nviews; i++) {
        if (i)
            omi_buf_puts(&buf, ",");
        put_string(&buf, preset->views[order[i]].name);
        omi_buf_puts(&buf, ":");
        st = put_view(&buf, &preset->views[order[i]], preset->world, err);
    }
    omi_buf_puts(&buf, "}}");
    if (st != OM_OK) {
        omi_free(buf.data);
        return st;
    }
    return omi_buf_finish(&buf, out, err);
}
