/* Canonical JSON of a mesh, and its strict reader (parsed by json_read.c). */
#include <string.h>

#include <jansson.h>

#include "internal.h"

om_status om_mesh_to_json(const om_mesh *mesh, char **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    omi_buf buf = {0};
    omi_buf_puts(&buf, "{\"mesh_dim_names\":[");
    for (size_t i = 0; i < mesh->ndim; i++) {
        if (i)
            omi_buf_put(&buf, ",", 1);
        omi_buf_json_string(&buf, mesh->names[i], mesh->name_lens[i]);
    }
    omi_buf_puts(&buf, "],\"mesh_shape\":[");
    for (size_t i = 0; i < mesh->ndim; i++) {
        if (i)
            omi_buf_put(&buf, ",", 1);
        omi_buf_int(&buf, mesh->sizes[i]);
    }
    omi_buf_puts(&buf, "]}");
    return omi_buf_finish(&buf, out, err);
}

static om_status parse_fields(json_t *root, void *ctx, om_error *err)
{
    om_mesh **out = ctx;
    if (!json_is_object(root))
        return omi_fail(err, OM_ERR_PARSE, "mesh JSON must be an object");
    json_t *names = json_object_get(root, "mesh_dim_names");
    json_t *shape = json_object_get(root, "mesh_shape");
    if (!names)
        return omi_fail(err, OM_ERR_PARSE, "mesh JSON lacks \"mesh_dim_names\"");
    if (!shape)
        return omi_fail(err, OM_ERR_PARSE, "mesh JSON lacks \"mesh_shape\"");
    if (json_object_size(root) != 2) {
        const char *key;
        json_t *value;
        json_object_foreach(root, key, value) {
            if (strcmp(key, "mesh_dim_names") != 0 && strcmp(key, "mesh_shape") != 0) {
                char quoted[80];
                omi_quote(quoted, sizeof quoted, key, strlen(key));
                return omi_fail(err, OM_ERR_PARSE, "mesh JSON has unknown key %s",
                                quoted);
            }
        }
    }
    if (!json_is_array(names))
        return omi_fail(err, OM_ERR_PARSE, "\"mesh_dim_names\" must be an array");
    if (!json_is_array(shape))
        return omi_fail(err, OM_ERR_PARSE, "\"mesh_shape\" must be an array");
    size_t n = json_array_size(names);
    size_t m = json_array_size(shape);
    if (n != m)
        return omi_fail(err, OM_ERR_LENGTH_MISMATCH,
                        "mesh_dim_names has %zu entries but mesh_shape has %zu",
                        n, m);
    const char **name_ptrs = omi_malloc((n ? n : 1) * sizeof(char *));
    size_t *lens = omi_malloc((n ? n : 1) * sizeof(size_t));
    int64_t *sizes = omi_malloc((n ? n : 1) * sizeof(int64_t));
    om_status st = OM_OK;
    if (!name_ptrs || !lens || !sizes)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading mesh JSON");
    for (size_t i = 0; st == OM_OK && i < n; i++) {
        json_t *name = json_array_get(names, i);
        json_t *size = json_array_get(shape, i);
        char got[80];
        omi_json_shown(json_is_string(name) ? size : name, got, sizeof got);
        if (!json_is_string(name))
            st = omi_fail(err, OM_ERR_PARSE,
                          "mesh_dim_names[%zu] must be a string, got %s", i, got);
        else if (!json_is_integer(size))
            st = omi_fail(err, OM_ERR_PARSE,
                          "mesh_shape[%zu] must be an integer, got %s", i, got);
        else {
            name_ptrs[i] = json_string_value(name);
            lens[i] = json_string_length(name);
            sizes[i] = (int64_t)json_integer_value(size);
        }
    }
    if (st == OM_OK)
        st = omi_mesh_create(name_ptrs, lens, sizes, n, out, err);
    omi_free(name_ptrs);
    omi_free(lens);
    omi_free(sizes);
    return st;
}

om_status om_mesh_from_json(const char *text, size_t length, om_mesh **out,
                            om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    return omi_json_read(text, length, "mesh", parse_fields, out, err);
}

static om_status parse_mesh(const char *text, size_t length, void *out,
                            om_error *err)
{
    return om_mesh_from_json(text, length, out, err);
}

om_status om_mesh_load_json(const char *path, om_mesh **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!path)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "path is NULL");
    return omu_file_parse(path, parse_mesh, out, err);
}
