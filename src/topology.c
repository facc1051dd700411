/* Rank topology: coordinates, ranks and process groups, computed without
 * any allocation. The ranks of a group slice are the row-major enumeration
 * of an (outside axes, selected axes) transpose of arange(size); the
 * enumerator that writes them lives in group_kernel.c. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "topology_layout.h"

/* Appends an axis, dropping size 1 and merging with a contiguous
 * predecessor. */
static void layout_push(omi_layout *layout, int64_t len, int64_t stride)
{
    if (len == 1)
        return;
    if (layout->n > 0 && layout->ax[layout->n - 1].stride == len * stride) {
        /* Contiguous with the axis before it: merge the two. */
        layout->ax[layout->n - 1].len *= len;
        layout->ax[layout->n - 1].stride = stride;
        return;
    }
    layout->ax[layout->n].len = len;
    layout->ax[layout->n].stride = stride;
    layout->n++;
}

static bool selected(uint64_t axes, size_t index)
{
    return index < 64 && ((axes >> index) & 1u);
}

void omi_layout_build(const om_mesh *mesh, uint64_t axes, bool outside,
                      bool inside, omi_layout *layout)
{
    layout->n = 0;
    if (outside)
        for (size_t i = 0; i < mesh->ndim; i++)
            if (!selected(axes, i))
                layout_push(layout, mesh->sizes[i], mesh->strides[i]);
    if (inside)
        for (size_t i = 0; i < mesh->ndim; i++)
            if (selected(axes, i))
                layout_push(layout, mesh->sizes[i], mesh->strides[i]);
}

om_status omi_check_axes(const om_mesh *mesh, uint64_t axes, om_error *err)
{
    if (mesh->ndim < 64 && (axes >> mesh->ndim) != 0) {
        int bit = 63;
        while (!((axes >> bit) & 1u))
            bit--;
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "axis mask 0x%llx selects axis %d but the mesh has %zu "
                        "axes", (unsigned long long)axes, bit, mesh->ndim);
    }
    return OM_OK;
}

void omi_group_shape(const om_mesh *mesh, uint64_t axes, int64_t *count,
                     int64_t *size)
{
    int64_t inside = 1;
    for (size_t i = 0; i < mesh->ndim; i++)
        if (selected(axes, i))
            inside *= mesh->sizes[i];
    *size = inside;
    *count = mesh->size / inside;
}

/* Writes "dp, cp, tp" (shortened) for messages. */
static void describe_names(const om_mesh *mesh, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < mesh->ndim && o + 8 < size; i++) {
        int n = snprintf(buf + o, size - o, "%s%.40s", i ? ", " : "", mesh->names[i]);
        if (n < 0)
            break;
        o += (size_t)n;
    }
    if (o >= size)
        memcpy(buf + size - 4, "...", 4);
}

typedef struct {
    const om_mesh *mesh;
    uint64_t mask;
    const char *text;
} axes_ctx;

static om_status read_axis(const char *item, size_t len, size_t index,
                           void *vctx, om_error *err)
{
    axes_ctx *ctx = vctx;
    char quoted[96];
    (void)index;
    omi_quote(quoted, sizeof quoted, item, len);
    if (len == 0) {
        char whole[96];
        omi_quote(whole, sizeof whole, ctx->text, strlen(ctx->text));
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "axis list %s has an empty item", whole);
    }
    int found = omi_mesh_find(ctx->mesh, item, len);
    if (found < 0) {
        char names[128];
        describe_names(ctx->mesh, names, sizeof names);
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "axis %s is not in the mesh (%s)", quoted, names);
    }
    if (found >= 64)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "axis %s is at index %d; only the first 64 axes can be "
                        "selected", quoted, found);
    if ((ctx->mask >> found) & 1u)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "axis %s is named twice", quoted);
    ctx->mask |= UINT64_C(1) << found;
    return OM_OK;
}

om_status om_mesh_axes(const om_mesh *mesh, const char *names, uint64_t *mask,
                       om_error *err)
{
    if (!mesh || !names || !mask)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        !mesh ? "mesh" : !names ? "axis list" : "mask pointer");
    *mask = 0;
    const char *p = names;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '\0')
        return OM_OK;
    axes_ctx ctx = {mesh, 0, names};
    om_status st = omi_split(names, ',', read_axis, &ctx, err);
    if (st == OM_OK)
        *mask = ctx.mask;
    return st;
}

om_status om_mesh_coordinate(const om_mesh *mesh, int64_t rank, int64_t *coord,
                             size_t coord_len, om_error *err)
{
    if (!mesh || (!coord && mesh->ndim > 0))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        mesh ? "coordinate buffer" : "mesh");
    if (rank < 0 || rank >= mesh->size)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "rank %lld is outside the mesh of %lld ranks",
                        (long long)rank, (long long)mesh->size);
    if (coord_len < mesh->ndim)
        return omi_fail(err, OM_ERR_BUFFER_TOO_SMALL,
                        "coordinate buffer holds %zu values; the mesh has %zu "
                        "axes", coord_len, mesh->ndim);
    for (size_t i = 0; i < mesh->ndim; i++)
        coord[i] = (rank / mesh->strides[i]) % mesh->sizes[i];
    return OM_OK;
}

om_status om_mesh_rank(const om_mesh *mesh, const int64_t *coord,
                       size_t coord_len, int64_t *rank, om_error *err)
{
    if (!mesh || !rank || (!coord && coord_len > 0))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        !mesh ? "mesh" : !rank ? "rank pointer" : "coordinate");
    if (coord_len != mesh->ndim)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "coordinate has %zu values; the mesh has %zu axes",
                        coord_len, mesh->ndim);
    int64_t r = 0;
    for (size_t i = 0; i < mesh->ndim; i++) {
        if (coord[i] < 0 || coord[i] >= mesh->sizes[i])
            return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                            "coordinate %lld is outside axis %.60s of size %lld",
                            (long long)coord[i], mesh->names[i],
                            (long long)mesh->sizes[i]);
        r += coord[i] * mesh->strides[i];
    }
    *rank = r;
    return OM_OK;
}

om_status om_mesh_group_shape(const om_mesh *mesh, uint64_t axes,
                              int64_t *group_count, int64_t *group_size,
                              om_error *err)
{
    if (!mesh || !group_count || !group_size)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        mesh ? "out pointer" : "mesh");
    om_status st = omi_check_axes(mesh, axes, err);
    if (st == OM_OK)
        omi_group_shape(mesh, axes, group_count, group_size);
    return st;
}

static om_status check_buffer(int32_t *out, size_t out_len, int64_t needed,
                              om_error *err)
{
    if ((uint64_t)needed > (uint64_t)out_len)
        return omi_fail(err, OM_ERR_BUFFER_TOO_SMALL,
                        "the result needs %lld elements but the buffer holds %zu",
                        (long long)needed, out_len);
    if (!out && needed > 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "output buffer is NULL");
    return OM_OK;
}

om_status om_mesh_groups(const om_mesh *mesh, uint64_t axes,
                         int64_t first_group, int64_t group_count,
                         int32_t *out, size_t out_len, om_error *err)
{
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    om_status st = omi_check_axes(mesh, axes, err);
    if (st != OM_OK)
        return st;
    int64_t count, size;
    omi_group_shape(mesh, axes, &count, &size);
    if (first_group < 0 || group_count < 0 || first_group > count ||
        group_count > count - first_group)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "%lld groups from group %lld are outside the %lld "
                        "groups", (long long)group_count,
                        (long long)first_group, (long long)count);
    st = check_buffer(out, out_len, group_count * size, err);
    if (st != OM_OK)
        return st;
    omi_layout layout;
    omi_layout_build(mesh, axes, true, true, &layout);
    omi_emit(&layout, 0, first_group * size, (first_group + group_count) * size,
             out);
    return OM_OK;
}

static om_status check_rank(const om_mesh *mesh, int64_t rank, om_error *err)
{
    if (rank < 0 || rank >= mesh->size)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "rank %lld is outside the mesh of %lld ranks",
                        (long long)rank, (long long)mesh->size);
    return OM_OK;
}

om_status om_mesh_group_index(const om_mesh *mesh, uint64_t axes, int64_t rank,
                              int64_t *index, om_error *err)
{
    if (!mesh || !index)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        mesh ? "index pointer" : "mesh");
    om_status st = omi_check_axes(mesh, axes, err);
    if (st == OM_OK)
        st = check_rank(mesh, rank, err);
    if (st != OM_OK)
        return st;
    int64_t g = 0;
    for (size_t i = 0; i < mesh->ndim; i++)
        if (!selected(axes, i))
            g = g * mesh->sizes[i] + (rank / mesh->strides[i]) % mesh->sizes[i];
    *index = g;
    return OM_OK;
}

om_status om_mesh_group_of(const om_mesh *mesh, uint64_t axes, int64_t rank,
                           int32_t *out, size_t out_len, om_error *err)
{
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    om_status st = omi_check_axes(mesh, axes, err);
    if (st == OM_OK)
        st = check_rank(mesh, rank, err);
    if (st != OM_OK)
        return st;
    int64_t count, size;
    omi_group_shape(mesh, axes, &count, &size);
    st = check_buffer(out, out_len, size, err);
    if (st != OM_OK)
        return st;
    int64_t base = rank;
    for (size_t i = 0; i < mesh->ndim; i++)
        if (selected(axes, i))
            base -= ((rank / mesh->strides[i]) % mesh->sizes[i]) * mesh->strides[i];
    omi_layout layout;
    omi_layout_build(mesh, axes, false, true, &layout);
    omi_emit(&layout, base, 0, size, out);
    return OM_OK;
}
