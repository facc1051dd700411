/* The JSON document of a preset: every view (dim_names, shape, layout,
 * groups, coords, instances) and the named group lists, keys sorted. One
 * writer for both outputs: a string built whole (om_preset_to_json) or a
 * stream through the buffered writer (om_preset_write_json), which holds
 * no more than a block of text and a chunk of ranks at any time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preset_internal.h"
#include "util/writer.h"

/* Where the text goes: exactly one of the two. */
typedef struct {
    omu_writer *w;
    omi_buf *buf;
    int32_t *ranks; /* CHUNK ranks of scratch */
} jout;

static void put(jout *o, const char *text)
{
    if (o->w)
        omu_write_str(o->w, text);
    else
        omi_buf_puts(o->buf, text);
}

static inline void put_char(jout *o, char c)
{
    if (o->w)
        omu_write_char(o->w, c);
    else
        omi_buf_put(o->buf, &c, 1);
}

static void put_int(jout *o, int64_t value)
{
    if (o->w)
        omu_write_int(o->w, value);
    else
        omi_buf_int(o->buf, value);
}

static void put_string(jout *o, const char *s)
{
    if (o->w)
        omu_write_json_string(o->w, s);
    else
        omi_buf_json_string(o->buf, s, strlen(s));
}

/* True once a write failed (stream) or an allocation did (string): the
 * rest of the document is not computed. */
static bool failed(const jout *o)
{
    return o->w ? omu_writer_error(o->w) != 0 : o->buf->failed;
}

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

typedef struct {
    const char *name;
    size_t index;
} named_list;

static int compare_lists(const void *a, const void *b)
{
    return strcmp(((const named_list *)a)->name, ((const named_list *)b)->name);
}

/* The preset's lists in name order (names are unique), or NULL when out
 * of memory. qsort: Megatron has a list per hierarchical CP level. */
static size_t *sorted_lists(const om_preset *preset)
{
    size_t n = preset->nlists;
    size_t *order = omi_malloc((n + 1) * sizeof *order);
    named_list *named = omi_malloc((n + 1) * sizeof *named);
    if (order && named) {
        for (size_t i = 0; i < n; i++)
            named[i] = (named_list){preset->lists[i].name, i};
        qsort(named, n, sizeof *named, compare_lists);
        for (size_t i = 0; i < n; i++)
            order[i] = named[i].index;
    } else {
        omi_free(order);
        order = NULL;
    }
    omi_free(named);
    return order;
}

/* Ranks computed per call of the group kernel (a 256 KiB scratch: long
 * enough that the kernel's pattern set-up is negligible). */
#define CHUNK 65536

static void put_ints(jout *o, const int32_t *values, size_t n)
{
    if (o->w) {
        omu_write_int_array(o->w, values, n);
        return;
    }
    put_char(o, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            put_char(o, ',');
        put_int(o, values[i]);
    }
    put_char(o, ']');
}

static void put_groups(jout *o, const omi_group_list *groups)
{
    int64_t total = (int64_t)(groups->count * groups->size);
    int64_t size = (int64_t)groups->size;
    put_char(o, '[');
    if (size <= CHUNK) {
        /* Whole groups per chunk, each written as one array. */
        int64_t step = CHUNK / size * size;
        for (int64_t e0 = 0; e0 < total && !failed(o); e0 += step) {
            int64_t e1 = total - e0 < step ? total : e0 + step;
            omi_group_list_write(groups, e0, e1, o->ranks);
            for (int64_t e = e0; e < e1; e += size) {
                if (e)
                    put_char(o, ',');
                put_ints(o, o->ranks + (e - e0), (size_t)size);
            }
        }
    } else {
        /* Groups longer than the scratch: value by value. */
        for (int64_t e0 = 0; e0 < total && !failed(o); e0 += CHUNK) {
            int64_t e1 = total - e0 < CHUNK ? total : e0 + CHUNK;
            omi_group_list_write(groups, e0, e1, o->ranks);
            for (int64_t e = e0; e < e1; e++) {
                if (e % size != 0)
                    put_char(o, ',');
                else
                    put(o, e ? "],[" : "[");
                put_int(o, o->ranks[e - e0]);
            }
        }
        if (total)
            put_char(o, ']');
    }
    put_char(o, ']');
}

/* Per axis its modes: as the generator built them (raw) or in the view's
 * normal form (torch's _MeshLayout: size-1 modes dropped, neighbours
 * merged), which the view itself computes. */
static void put_layout(jout *o, const omi_pview *view, const om_mesh *mesh)
{
    put(o, "[");
    for (size_t a = 0; a < view->naxes; a++) {
        const omi_paxis *axis = &view->axes[a];
        size_t n = axis->nmodes;
        const omi_mode *modes = axis->modes;
        if (!(view->flags & OMI_VIEW_RAW_LAYOUT)) {
            n = mesh->mode_first[a + 1] - mesh->mode_first[a];
            modes = mesh->modes + mesh->mode_first[a];
        }
        put(o, a ? ",[" : "[");
        for (size_t m = 0; m < n; m++) {
            put(o, m ? ",[" : "[");
            put_int(o, modes[m].size);
            put(o, ",");
            put_int(o, modes[m].stride);
            put(o, "]");
        }
        put(o, "]");
    }
    put(o, "]");
}

static int64_t axis_size(const omi_paxis *axis)
{
    int64_t size = 1;
    for (size_t m = 0; m < axis->nmodes; m++)
        size *= axis->modes[m].size;
    return size;
}

/* Every rank's coordinate inside its instance, null when the view does not
 * hold it. When the modes nest, the held ranks come in ascending order
 * from an odometer over the digits: no rank is decoded but the first. */
static void put_coords(jout *o, const om_mesh *mesh, int64_t world)
{
    int64_t digits[OMI_MAX_DIGITS], coord[OMI_PRESET_MAX_AXES];
    int64_t next = -1; /* nested: the next held rank (INT64_MAX: none) */
    put(o, "[");
    for (int64_t r = 0; r < world && !(r % CHUNK == 0 && failed(o)); r++) {
        if (r)
            put_char(o, ',');
        bool held = mesh->nested && next >= 0 ? r == next
                                              : omi_view_decode(mesh, r, digits);
        if (!held) {
            put(o, "null");
            continue;
        }
        omi_view_digits_coord(mesh, digits, coord, NULL);
        put_char(o, '[');
        for (size_t a = 0; a < mesh->ndim; a++) {
            if (a)
                put_char(o, ',');
            put_int(o, coord[a]);
        }
        put_char(o, ']');
        if (mesh->nested) {
            int64_t rank = r;
            next = omi_view_digits_step(mesh, digits, &rank) ? rank : INT64_MAX;
        }
    }
    put(o, "]");
}

/* Per rank the framework's local ranks ({"dp_rank":0,...}, keys sorted
 * when added): coordinates or instance indices in the views, each view
 * decoded once per rank; null where a view does not hold the rank. */
static void put_local_ranks(jout *o, const om_preset *preset,
                            om_mesh *const *meshes)
{
    int64_t coord[OMI_PRESET_MAX_VIEWS][OMI_PRESET_MAX_AXES];
    int64_t instance[OMI_PRESET_MAX_VIEWS];
    bool held[OMI_PRESET_MAX_VIEWS];
    /* The keys are the preset's own names (no escapes): quoted once. */
    char keys[OMI_PRESET_MAX_LOCAL][OMI_PRESET_NAME_LEN + 4];
    for (size_t i = 0; i < preset->nlocal; i++)
        snprintf(keys[i], sizeof keys[i], "%s\"%s\":", i ? "," : "",
                 preset->local[i].key);
    put(o, "[");
    for (int64_t r = 0; r < preset->world && !(r % CHUNK == 0 && failed(o)); r++) {
        unsigned decoded = 0;
        put(o, r ? ",{" : "{");
        for (size_t i = 0; i < preset->nlocal; i++) {
            const omi_local_rank *local = &preset->local[i];
            int v = local->view;
            if (v >= 0 && !(decoded & (1u << v))) {
                held[v] = omi_view_coordinate(meshes[v], r, coord[v], &instance[v]);
                decoded |= 1u << v;
            }
            put(o, keys[i]);
            if (v < 0)
                put_int(o, 0);
            else if (!held[v])
                put(o, "null");
            else
                put_int(o, local->axis < 0 ? instance[v] : coord[v][local->axis]);
        }
        put_char(o, '}');
    }
    put(o, "]");
}

/* Everything the document needs that allocates, made before its first
 * byte: a failed allocation leaves the output empty (whole or nothing),
 * and writing allocates nothing. */
typedef struct {
    om_mesh *mesh;
    omi_group_list axes[OMI_PRESET_MAX_AXES]; /* by axis index */
    omi_group_list instances;
} prepared_view;

typedef struct {
    prepared_view views[OMI_PRESET_MAX_VIEWS];
    size_t nviews;
} prepared;

static void release(prepared *p)
{
    if (!p)
        return;
    for (size_t v = 0; v < p->nviews; v++) {
        om_mesh_free(p->views[v].mesh);
        for (size_t a = 0; a < OMI_PRESET_MAX_AXES; a++)
            omi_group_list_free(&p->views[v].axes[a]);
        omi_group_list_free(&p->views[v].instances);
    }
    omi_free(p);
}

static om_status prepare(const om_preset *preset, prepared **out, om_error *err)
{
    prepared *p = omi_malloc(sizeof *p);
    if (!p)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory writing a preset");
    memset(p, 0, sizeof *p);
    om_status st = OM_OK;
    for (size_t v = 0; st == OM_OK && v < preset->nviews; v++) {
        const omi_pview *view = &preset->views[v];
        prepared_view *pv = &p->views[p->nviews++];
        st = omi_pview_mesh(view, false, &pv->mesh, err);
        for (size_t a = 0; st == OM_OK && !(view->flags & OMI_VIEW_NO_GROUPS) &&
                           a < view->naxes; a++) {
            const char *name = view->axes[a].name;
            st = omi_pview_groups(view, &name, 1, &pv->axes[a], err);
        }
        if (st == OM_OK && (view->flags & OMI_VIEW_INSTANCES)) {
            const char *names[OMI_PRESET_MAX_AXES];
            for (size_t a = 0; a < view->naxes; a++)
                names[a] = view->axes[a].name;
            st = omi_pview_groups(view, names, view->naxes, &pv->instances, err);
        }
    }
    if (st != OM_OK) {
        release(p);
        return st;
    }
    *out = p;
    return OM_OK;
}

static void put_view(jout *o, const omi_pview *view, const prepared_view *pv,
                     int64_t world)
{
    put(o, "{\"coords\":");
    put_coords(o, pv->mesh, world);
    put(o, ",\"dim_names\":[");
    for (size_t a = 0; a < view->naxes; a++) {
        if (a)
            put(o, ",");
        put_string(o, view->axes[a].name);
    }
    put(o, "]");
    if (!(view->flags & OMI_VIEW_NO_GROUPS)) {
        size_t order[OMI_PRESET_MAX_AXES];
        sort_by_name(order, view->naxes, axis_name, view);
        put(o, ",\"groups\":{");
        for (size_t i = 0; i < view->naxes && !failed(o); i++) {
            if (i)
                put(o, ",");
            put_string(o, view->axes[order[i]].name);
            put(o, ":");
            put_groups(o, &pv->axes[order[i]]);
        }
        put(o, "}");
    }
    if (view->flags & OMI_VIEW_INSTANCES) {
        put(o, ",\"instances\":");
        put_groups(o, &pv->instances);
    }
    put(o, ",\"layout\":");
    put_layout(o, view, pv->mesh);
    if (view->order[0]) {
        put(o, ",\"order\":");
        put_string(o, view->order);
    }
    put(o, ",\"shape\":[");
    for (size_t a = 0; a < view->naxes; a++) {
        if (a)
            put(o, ",");
        put_int(o, axis_size(&view->axes[a]));
    }
    put(o, "]}");
}

/* The whole document; every allocation comes first, then the text (which
 * stops early once `o` failed). */
static om_status put_preset(jout *o, const om_preset *preset, om_error *err)
{
    prepared *p = NULL;
    om_status st = prepare(preset, &p, err);
    if (st != OM_OK)
        return st;
    o->ranks = omi_malloc(CHUNK * sizeof *o->ranks);
    size_t *lists = sorted_lists(preset);
    if (!o->ranks || !lists) {
        omi_free(o->ranks);
        omi_free(lists);
        release(p);
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory writing a preset");
    }
    put(o, "{");
    if (preset->nlists > 0) {
        put(o, "\"groups\":{");
        for (size_t i = 0; i < preset->nlists && !failed(o); i++) {
            if (i)
                put(o, ",");
            put_string(o, preset->lists[lists[i]].name);
            put(o, ":");
            put_groups(o, &preset->lists[lists[i]]);
        }
        put(o, "},");
    }
    omi_free(lists);
    if (preset->nlocal > 0) {
        om_mesh *meshes[OMI_PRESET_MAX_VIEWS];
        for (size_t v = 0; v < preset->nviews; v++)
            meshes[v] = p->views[v].mesh;
        put(o, "\"local_ranks\":");
        put_local_ranks(o, preset, meshes);
        put(o, ",");
    }
    size_t order[OMI_PRESET_MAX_VIEWS];
    sort_by_name(order, preset->nviews, view_name, preset);
    put(o, "\"views\":{");
    for (size_t i = 0; i < preset->nviews && !failed(o); i++) {
        if (i)
            put(o, ",");
        put_string(o, preset->views[order[i]].name);
        put(o, ":");
        put_view(o, &preset->views[order[i]], &p->views[order[i]], preset->world);
    }
    put(o, "}}");
    omi_free(o->ranks);
    release(p);
    return OM_OK;
}

om_status om_preset_to_json(const om_preset *preset, char **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!preset)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "preset is NULL");
    omi_buf buf = {0};
    jout o = {NULL, &buf, NULL};
    om_status st = put_preset(&o, preset, err);
    if (st != OM_OK) {
        omi_free(buf.data);
        return st;
    }
    return omi_buf_finish(&buf, out, err);
}

om_status om_preset_write_json(const om_preset *preset, FILE *stream, om_error *err)
{
    if (!preset || !stream)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        preset ? "stream" : "preset");
    char *storage = omi_malloc(OMU_WRITER_BLOCK);
    if (!storage)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory writing a preset");
    omu_writer w;
    omu_writer_init(&w, stream, storage, OMU_WRITER_BLOCK);
    jout o = {&w, NULL, NULL};
    om_status st = put_preset(&o, preset, err);
    /* put_preset fails only before its first byte (its allocations come
     * first); nothing of a failed document reaches the stream. */
    if (st != OM_OK)
        w.len = 0;
    int error = omu_writer_flush(&w);
    omi_free(storage);
    if (st == OM_OK && error != 0)
        st = omi_fail(err, OM_ERR_IO, "cannot write the views: %s", strerror(error));
    return st;
}
