/* The text form of a mesh: "dp=2,cp=2,tp=8". */
#include <stdio.h>
#include <string.h>

#include "internal.h"

typedef struct {
    size_t count;
    const char **names;
    size_t *lens;
    int64_t *sizes;
} spec_items;

static om_status count_item(const char *item, size_t len, size_t index,
                            void *ctx, om_error *err)
{
    (void)item;
    (void)len;
    (void)index;
    (void)err;
    ((spec_items *)ctx)->count++;
    return OM_OK;
}

static om_status read_item(const char *item, size_t len, size_t index,
                           void *ctx, om_error *err)
{
    spec_items *items = ctx;
    char quoted[96];
    omi_quote(quoted, sizeof quoted, item, len);
    size_t name_len;
    int64_t size;
    omi_name_size parsed = omi_parse_name_size(item, len, &name_len, &size);
    if (parsed == OMI_NAME_SIZE_NO_EQUALS)
        return omi_fail(err, OM_ERR_PARSE,
                        "mesh spec item %s is not name=size", quoted);
    if (parsed == OMI_NAME_SIZE_NOT_DECIMAL)
        return omi_fail(err, OM_ERR_PARSE,
                        "mesh spec item %s: size is not a decimal integer", quoted);
    /* Beyond int64 the size saturated: name the text, not the limit (the
     * mesh's own checks name the number, with the same statuses). */
    if (size == INT64_MAX)
        return omi_fail(err, OM_ERR_MESH_TOO_LARGE,
                        "mesh spec item %s: size exceeds 2^31-1 ranks", quoted);
    if (size == INT64_MIN)
        return omi_fail(err, OM_ERR_BAD_SIZE,
                        "mesh spec item %s: sizes must be >= 1", quoted);
    items->names[index] = item;
    items->lens[index] = name_len;
    items->sizes[index] = size;
    return OM_OK;
}

om_status om_mesh_from_spec(const char *spec, om_mesh **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!spec)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh spec is NULL");
    size_t i = 0;
    while (spec[i] == ' ' || spec[i] == '\t')
        i++;
    if (spec[i] == '\0')
        return omi_mesh_create(NULL, NULL, NULL, 0, out, err);

    spec_items items = {0};
    om_status st = omi_split(spec, ',', count_item, &items, err);
    if (st != OM_OK)
        return st;
    items.names = omi_malloc(items.count * sizeof(char *));
    items.lens = omi_malloc(items.count * sizeof(size_t));
    items.sizes = omi_malloc(items.count * sizeof(int64_t));
    if (!items.names || !items.lens || !items.sizes)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading a mesh spec");
    if (st == OM_OK)
        st = omi_split(spec, ',', read_item, &items, err);
    if (st == OM_OK)
        st = omi_mesh_create(items.names, items.lens, items.sizes, items.count,
                             out, err);
    omi_free(items.names);
    omi_free(items.lens);
    omi_free(items.sizes);
    return st;
}

om_status om_mesh_to_spec(const om_mesh *mesh, char **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    size_t total = 1;
    for (size_t i = 0; i < mesh->ndim; i++) {
        const char *name = mesh->names[i];
        size_t len = mesh->name_lens[i];
        if (strpbrk(name, ",=") || name[0] == ' ' || name[0] == '\t' ||
            name[len - 1] == ' ' || name[len - 1] == '\t') {
            char quoted[96];
            omi_quote(quoted, sizeof quoted, name, len);
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "axis name %s cannot be written in the text form", quoted);
        }
        total += len + 22;
    }
    char *text = omi_malloc(total);
    if (!text)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory writing a mesh spec");
    size_t o = 0;
    for (size_t i = 0; i < mesh->ndim; i++) {
        if (i)
            text[o++] = ',';
        memcpy(text + o, mesh->names[i], mesh->name_lens[i]);
        o += mesh->name_lens[i];
        int n = snprintf(text + o, total - o, "=%lld", (long long)mesh->sizes[i]);
        o += (size_t)n;
    }
    text[o] = '\0';
    *out = text;
    return OM_OK;
}
