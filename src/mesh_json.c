/* Canonical JSON of a mesh and the strict reader, both through jansson. */
#include <string.h>

#include <jansson.h>

#include "internal.h"

/* Python's json.dumps(sort_keys=True, separators=(",", ":")) spelling:
 * sorted keys, no spaces, non-ASCII escaped. */
#define OMI_JSON_FLAGS (JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII)

static om_status dump(json_t *root, char **out, om_error *err)
{
    char *text = root ? json_dumps(root, OMI_JSON_FLAGS) : NULL;
    json_decref(root);
    if (!text)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory writing JSON");
    /* Hand the caller memory that om_string_free() releases, respelled as
     * Python writes it: jansson prints "\u00E9" and a raw DEL, json.dumps
     * "\u00e9" and "\u007f". */
    size_t len = strlen(text), extra = 0;
    for (size_t i = 0; i < len; i++)
        extra += text[i] == 0x7F ? 5 : 0;
    char *copy = omi_malloc(len + extra + 1);
    if (!copy) {
        free(text);
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory writing JSON");
    }
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == 0x7F) {
            memcpy(copy + o, "\\u007f", 6);
            o += 6;
        } else if (c == '\\' && i + 1 < len) {
            copy[o++] = c;
            copy[o++] = text[++i];
            if (text[i] == 'u')
                for (int k = 0; k < 4 && i + 1 < len; k++) {
                    char h = text[++i];
                    copy[o++] = (h >= 'A' && h <= 'F') ? (char)(h - 'A' + 'a') : h;
                }
        } else {
            copy[o++] = c;
        }
    }
    copy[o] = '\0';
    free(text);
    *out = copy;
    return OM_OK;
}

om_status om_mesh_to_json(const om_mesh *mesh, char **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    json_t *root = json_object();
    json_t *names = json_array();
    json_t *shape = json_array();
    bool ok = root && names && shape;
    for (size_t i = 0; ok && i < mesh->ndim; i++) {
        ok = json_array_append_new(names, json_stringn(mesh->names[i],
                                                       mesh->name_lens[i])) == 0 &&
             json_array_append_new(shape, json_integer(mesh->sizes[i])) == 0;
    }
    ok = ok && json_object_set(root, "mesh_dim_names", names) == 0 &&
         json_object_set(root, "mesh_shape", shape) == 0;
    json_decref(names);
    json_decref(shape);
    if (!ok) {
        json_decref(root);
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory writing JSON");
    }
    return dump(root, out, err);
}

om_status omi_json_dump(json_t *root, char **out, om_error *err)
{
    return dump(root, out, err);
}

static om_status parse_fields(json_t *root, om_mesh **out, om_error *err)
{
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
        if (!json_is_string(name))
            st = omi_fail(err, OM_ERR_PARSE, "mesh_dim_names[%zu] must be a string", i);
        else if (!json_is_integer(size))
            st = omi_fail(err, OM_ERR_PARSE, "mesh_shape[%zu] must be an integer", i);
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
    if (!text)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "JSON text is NULL");
    json_error_t jerr;
    json_t *root = json_loadb(text, length, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        if (json_error_code(&jerr) == json_error_out_of_memory)
            return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading mesh JSON");
        return omi_fail(err, OM_ERR_PARSE, "mesh JSON line %d column %d: %s",
                        jerr.line, jerr.column, jerr.text);
    }
    om_status st = parse_fields(root, out, err);
    json_decref(root);
    return st;
}
