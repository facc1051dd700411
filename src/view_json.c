/* The JSON record of a view (the vectors' format): writing, and the strict
 * reader (parsed by json_read.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "internal.h"
#include "topology_layout.h"

static void put_pairs(omi_buf *buf, const omi_mode *m, size_t n)
{
    omi_buf_put(buf, "[", 1);
    for (size_t j = 0; j < n; j++) {
        omi_buf_puts(buf, j ? ",[" : "[");
        omi_buf_int(buf, m[j].size);
        omi_buf_put(buf, ",", 1);
        omi_buf_int(buf, m[j].stride);
        omi_buf_put(buf, "]", 1);
    }
    omi_buf_put(buf, "]", 1);
}

/* Every instance's ranks, row-major over the axes, instances ascending by
 * first rank: the groups over all axes (caller frees *ranks). */
static om_status all_instances(const om_mesh *v, int32_t **ranks, om_error *err)
{
    omi_axis_set set;
    om_status st = omi_axis_set_range(v, 0, v->ndim, &set, err);
    if (st != OM_OK)
        return st;
    *ranks = omi_malloc((size_t)(v->instances * v->size) * sizeof **ranks);
    if (!*ranks)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory listing instances");
    else
        st = omi_groups_write(v, &set, 0, v->instances, *ranks, err);
    omi_axis_set_release(&set);
    return st;
}

/* Writes "instances": every instance's ranks. */
static om_status put_instances(omi_buf *buf, const om_mesh *v, om_error *err)
{
    int32_t *ranks = NULL;
    om_status st = all_instances(v, &ranks, err);
    if (st == OM_OK) {
        omi_buf_puts(buf, "\"instances\":[");
        for (int64_t g = 0; g < v->instances; g++) {
            omi_buf_puts(buf, g ? ",[" : "[");
            for (int64_t k = 0; k < v->size; k++) {
                if (k)
                    omi_buf_put(buf, ",", 1);
                omi_buf_int(buf, ranks[g * v->size + k]);
            }
            omi_buf_put(buf, "]", 1);
        }
        omi_buf_puts(buf, "],");
    }
    omi_free(ranks);
    return st;
}

om_status omi_view_json(omi_buf *buf, const om_mesh *v, om_error *err)
{
    omi_buf_puts(buf, "{\"dim_names\":[");
    for (size_t i = 0; i < v->ndim; i++) {
        if (i)
            omi_buf_put(buf, ",", 1);
        omi_buf_json_string(buf, v->names[i], v->name_lens[i]);
    }
    omi_buf_puts(buf, "],");
    if (v->instances > 1) {
        om_status st = put_instances(buf, v, err);
        if (st != OM_OK)
            return st;
    }
    omi_buf_puts(buf, "\"layout\":[");
    for (size_t i = 0; i < v->ndim; i++) {
        if (i)
            omi_buf_put(buf, ",", 1);
        put_pairs(buf, v->modes + v->mode_first[i],
                  v->mode_first[i + 1] - v->mode_first[i]);
    }
    omi_buf_puts(buf, "],");
    if (v->offset != 0) {
        omi_buf_puts(buf, "\"offset\":");
        omi_buf_int(buf, v->offset);
        omi_buf_put(buf, ",", 1);
    }
    omi_buf_puts(buf, "\"shape\":[");
    for (size_t i = 0; i < v->ndim; i++) {
        if (i)
            omi_buf_put(buf, ",", 1);
        omi_buf_int(buf, v->sizes[i]);
    }
    omi_buf_puts(buf, "]}");
    return OM_OK;
}

om_status om_view_to_json(const om_mesh *view, char **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!view)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "view is NULL");
    omi_buf buf = {0};
    om_status st = omi_view_json(&buf, view, err);
    if (st != OM_OK) {
        omi_free(buf.data);
        return st;
    }
    return omi_buf_finish(&buf, out, err);
}

/* ---- reading ---- */

static bool read_int(json_t *j, int64_t *v)
{
    if (!json_is_integer(j))
        return false;
    *v = (int64_t)json_integer_value(j);
    return true;
}

/* Reads "layout": per axis a list of [size, stride] pairs. */
static om_status read_layout(json_t *layout, size_t naxes, size_t *counts,
                             omi_mode **modes_out, om_error *err)
{
    size_t total = 0;
    for (size_t i = 0; i < naxes; i++) {
        json_t *axis = json_array_get(layout, i);
        if (!json_is_array(axis))
            return omi_fail(err, OM_ERR_PARSE, "layout[%zu] must be an array", i);
        counts[i] = json_array_size(axis);
        total += counts[i];
    }
    omi_mode *modes = omi_malloc((total + 1) * sizeof *modes);
    if (!modes)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading a view");
    size_t k = 0;
    for (size_t i = 0; i < naxes; i++) {
        json_t *axis = json_array_get(layout, i);
        for (size_t j = 0; j < counts[i]; j++) {
            json_t *pair = json_array_get(axis, j);
            int64_t s, d;
            if (!json_is_array(pair) || json_array_size(pair) != 2 ||
                !read_int(json_array_get(pair, 0), &s) ||
                !read_int(json_array_get(pair, 1), &d)) {
                /* Name the element that is no integer, else the pair. */
                json_t *bad = pair;
                if (json_is_array(pair) && json_array_size(pair) == 2)
                    bad = json_array_get(pair, json_is_integer(json_array_get(pair, 0)));
                char got[80];
                omi_json_shown(bad, got, sizeof got);
                if (bad == pair && json_is_array(pair))
                    snprintf(got, sizeof got, "an array of %zu", json_array_size(pair));
                omi_free(modes);
                return omi_fail(err, OM_ERR_PARSE,
                                "layout[%zu][%zu] must be a [size, stride] pair "
                                "of integers, got %s", i, j, got);
            }
            modes[k++] = (omi_mode){s, d};
        }
    }
    *modes_out = modes;
    return OM_OK;
}

/* Recovers the instance modes from the sorted first ranks of the
 * instances: the innermost mode is the longest arithmetic run, and so on
 * outwards; the result is checked by the caller. */
static bool factor_bases(const int64_t *bases, size_t n, omi_mode *inst,
                         size_t *ninst)
{
    size_t step = 1, k = 0;
    omi_mode found[OMI_MAX_DIGITS];
    while (n / step > 1) {
        size_t count = n / step;
        int64_t d = bases[step] - bases[0];
        if (d <= 0 || k == OMI_MAX_DIGITS)
            return false;
        size_t run = 1;
        while (run < count && bases[run * step] == bases[0] + (int64_t)run * d)
            run++;
        if (count % run != 0)
            return false;
        found[k++] = (omi_mode){(int64_t)run, d};
        step *= run;
    }
    for (size_t j = 0; j < k; j++)
        inst[j] = found[k - 1 - j];
    *ninst = k;
    return true;
}

/* Checks that `instances` lists exactly the view's instances. */
static om_status check_instances(const om_mesh *v, json_t *instances,
                                 om_error *err)
{
    size_t n = json_array_size(instances);
    if ((int64_t)n != v->instances)
        return omi_fail(err, OM_ERR_PARSE,
                        "\"instances\" does not list a strided family of the "
                        "layout (%zu instances)", n);
    int32_t *ranks = NULL;
    om_status st = all_instances(v, &ranks, err);
    for (size_t g = 0; st == OM_OK && g < n; g++) {
        json_t *inst = json_array_get(instances, g);
        if (json_array_size(inst) != (size_t)v->size)
            st = omi_fail(err, OM_ERR_PARSE,
                          "instances[%zu] has %zu ranks; the shape holds %lld",
                          g, json_array_size(inst), (long long)v->size);
        for (size_t k = 0; st == OM_OK && k < (size_t)v->size; k++) {
            int64_t r;
            if (!read_int(json_array_get(inst, k), &r) ||
                r != ranks[g * (size_t)v->size + k])
                st = omi_fail(err, OM_ERR_PARSE,
                              "instances[%zu][%zu] is not rank %d of the "
                              "layout", g, k, ranks[g * (size_t)v->size + k]);
        }
    }
    omi_free(ranks);
    return st;
}

static int compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Offset and instance modes from "instances" (first ranks of each). */
static om_status read_instance_bases(json_t *instances, int64_t *offset,
                                     omi_mode *inst, size_t *ninst,
                                     om_error *err)
{
    size_t n = json_array_size(instances);
    if (n == 0)
        return omi_fail(err, OM_ERR_PARSE, "\"instances\" is empty");
    int64_t *bases = omi_malloc(n * sizeof *bases);
    if (!bases)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading a view");
    om_status st = OM_OK;
    for (size_t g = 0; st == OM_OK && g < n; g++) {
        json_t *list = json_array_get(instances, g);
        if (!json_is_array(list) || json_array_size(list) == 0 ||
            !read_int(json_array_get(list, 0), &bases[g]))
            st = omi_fail(err, OM_ERR_PARSE,
                          "instances[%zu] must be a non-empty array of ranks", g);
    }
    if (st == OM_OK) {
        qsort(bases, n, sizeof *bases, compare_int64);
        *offset = bases[0];
        if (!factor_bases(bases, n, inst, ninst))
            st = omi_fail(err, OM_ERR_PARSE,
                          "\"instances\" does not list a strided family of "
                          "the layout");
    }
    omi_free(bases);
    return st;
}

static const char *const view_keys[] = {
    "dim_names", "shape", "layout", "offset", "instances",
    /* derived data that other tools print beside the layout: */
    "groups", "coords", "order",
};

om_status omi_view_from_jansson(json_t *root, om_mesh **out, om_error *err)
{
    *out = NULL;
    if (!json_is_object(root))
        return omi_fail(err, OM_ERR_PARSE, "a view record must be an object");
    const char *key;
    json_t *value;
    json_object_foreach(root, key, value) {
        bool known = false;
        for (size_t k = 0; k < sizeof view_keys / sizeof *view_keys; k++)
            known |= strcmp(key, view_keys[k]) == 0;
        if (!known) {
            char quoted[80];
            omi_squote(quoted, sizeof quoted, key, strlen(key));
            return omi_fail(err, OM_ERR_PARSE, "view record has unknown key %s",
                            quoted);
        }
    }
    json_t *names = json_object_get(root, "dim_names");
    json_t *shape = json_object_get(root, "shape");
    json_t *layout = json_object_get(root, "layout");
    json_t *offset_j = json_object_get(root, "offset");
    json_t *instances = json_object_get(root, "instances");
    const char *missing = !names ? "dim_names" : !shape ? "shape"
                        : !layout ? "layout" : NULL;
    if (missing)
        return omi_fail(err, OM_ERR_PARSE, "view record lacks \"%s\"", missing);
    if (!json_is_array(names) || !json_is_array(shape) || !json_is_array(layout))
        return omi_fail(err, OM_ERR_PARSE,
                        "\"dim_names\", \"shape\" and \"layout\" must be arrays");
    size_t n = json_array_size(names);
    if (json_array_size(shape) != n || json_array_size(layout) != n)
        return omi_fail(err, OM_ERR_LENGTH_MISMATCH,
                        "dim_names has %zu entries, shape %zu and layout %zu",
                        n, json_array_size(shape), json_array_size(layout));
    int64_t offset = 0;
    if (offset_j && !read_int(offset_j, &offset)) {
        char got[80];
        omi_json_shown(offset_j, got, sizeof got);
        return omi_fail(err, OM_ERR_PARSE, "\"offset\" must be an integer, got %s", got);
    }
    if (instances && !json_is_array(instances))
        return omi_fail(err, OM_ERR_PARSE, "\"instances\" must be an array");
    const char **name_ptrs = omi_malloc((n + 1) * sizeof *name_ptrs);
    size_t *lens = omi_malloc((n + 1) * sizeof *lens);
    size_t *counts = omi_malloc((n + 1) * sizeof *counts);
    omi_mode *modes = NULL;
    omi_mode inst[OMI_MAX_DIGITS];
    size_t ninst = 0;
    om_status st = OM_OK;
    if (!name_ptrs || !lens || !counts)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading a view");
    for (size_t i = 0; st == OM_OK && i < n; i++) {
        json_t *name = json_array_get(names, i);
        if (!json_is_string(name)) {
            char got[80];
            omi_json_shown(name, got, sizeof got);
            st = omi_fail(err, OM_ERR_PARSE, "dim_names[%zu] must be a string, got %s",
                          i, got);
        } else {
            name_ptrs[i] = json_string_value(name);
            lens[i] = json_string_length(name);
        }
    }
    if (st == OM_OK)
        st = read_layout(layout, n, counts, &modes, err);
    for (size_t i = 0, k = 0; st == OM_OK && i < n; i++) {
        int64_t size = 0, product = 1;
        if (!read_int(json_array_get(shape, i), &size)) {
            char got[80];
            omi_json_shown(json_array_get(shape, i), got, sizeof got);
            st = omi_fail(err, OM_ERR_PARSE, "shape[%zu] must be an integer, got %s", i,
                          got);
        }
        for (size_t j = 0; st == OM_OK && j < counts[i]; j++, k++)
            if (modes[k].size >= 1 && modes[k].size <= OMI_MAX_INT32 &&
                product <= OMI_MAX_INT32)
                product *= modes[k].size;
        if (st == OM_OK && product != size) {
            char quoted[96];
            omi_squote(quoted, sizeof quoted, name_ptrs[i], lens[i]);
            st = omi_fail(err, OM_ERR_PARSE,
                          "axis %s has shape %lld but its layout holds %lld "
                          "ranks", quoted, (long long)size, (long long)product);
        }
    }
    if (st == OM_OK && instances) {
        int64_t first = 0;
        st = read_instance_bases(instances, &first, inst, &ninst, err);
        if (st == OM_OK && offset_j && first != offset)
            st = omi_fail(err, OM_ERR_PARSE,
                          "\"offset\" %lld disagrees with the first instance "
                          "(rank %lld)", (long long)offset, (long long)first);
        offset = first;
    }
    om_mesh *v = NULL;
    if (st == OM_OK)
        st = omi_view_create(name_ptrs, lens, n, counts, modes, inst, ninst,
                             offset, &v, err);
    if (st == OM_OK && instances)
        st = check_instances(v, instances, err);
    if (st == OM_OK)
        *out = v;
    else
        om_mesh_free(v);
    omi_free((void *)name_ptrs);
    omi_free(lens);
    omi_free(counts);
    omi_free(modes);
    return st;
}

static om_status read_view(json_t *root, void *ctx, om_error *err)
{
    return omi_view_from_jansson(root, ctx, err);
}

om_status om_view_from_json(const char *text, size_t length, om_mesh **out,
                            om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    return omi_json_read(text, length, "view", read_view, out, err);
}
