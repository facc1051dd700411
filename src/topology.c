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

void omi_layout_build(const om_mesh *mesh, const omi_axis_set *axes,
                      bool outside, bool inside, omi_layout *layout)
{
    layout->n = 0;
    if (outside)
        for (size_t i = 0; i < mesh->ndim; i++)
            if (!omi_axis_set_has(axes, i))
                layout_push(layout, mesh->sizes[i], mesh->strides[i]);
    if (inside)
        for (size_t i = 0; i < mesh->ndim; i++)
            if (omi_axis_set_has(axes, i))
                layout_push(layout, mesh->sizes[i], mesh->strides[i]);
}

void omi_group_shape(const om_mesh *mesh, const omi_axis_set *axes,
                     int64_t *count, int64_t *size)
{
    int64_t inside = 1;
    for (size_t i = 0; i < mesh->ndim; i++)
        if (omi_axis_set_has(axes, i))
            inside *= mesh->sizes[i];
    *size = inside;
    *count = mesh->size / inside;
}

/* ---- coordinates and ranks ---- */

static om_status check_rank(const om_mesh *mesh, int64_t rank, om_error *err)
{
    if (rank < 0 || rank >= mesh->size)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "rank %lld is outside the mesh of %lld ranks",
                        (long long)rank, (long long)mesh->size);
    return OM_OK;
}

static void write_coordinate(const om_mesh *mesh, int64_t rank, int64_t *coord)
{
    for (size_t i = 0; i < mesh->ndim; i++)
        coord[i] = (rank / mesh->strides[i]) % mesh->sizes[i];
}

om_status om_mesh_coordinate(const om_mesh *mesh, int64_t rank, int64_t *coord,
                             size_t coord_len, om_error *err)
{
    if (!mesh || (!coord && mesh->ndim > 0))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        mesh ? "coordinate buffer" : "mesh");
    om_status st = check_rank(mesh, rank, err);
    if (st != OM_OK)
        return st;
    if (coord_len < mesh->ndim)
        return omi_fail(err, OM_ERR_BUFFER_TOO_SMALL,
                        "coordinate buffer holds %zu values; the mesh has %zu "
                        "axes", coord_len, mesh->ndim);
    write_coordinate(mesh, rank, coord);
    return OM_OK;
}

om_status om_mesh_coordinate_of(const om_mesh *mesh, int64_t rank, int64_t *out,
                                size_t out_len, size_t *needed, om_error *err)
{
    if (needed)
        *needed = mesh ? mesh->ndim : 0;
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    om_status st = check_rank(mesh, rank, err);
    if (st != OM_OK)
        return st;
    /* A coordinate is exactly ndim values, read (om_mesh_rank) or written:
     * a longer buffer means the caller expects other axes. */
    if (out && out_len > mesh->ndim)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "coordinate buffer holds %zu values; the mesh has %zu "
                        "axes", out_len, mesh->ndim);
    bool fill;
    st = omi_check_output(out, out_len, mesh->ndim, needed, &fill, err);
    if (st == OM_OK && fill)
        write_coordinate(mesh, rank, out);
    return st;
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
        if (coord[i] < 0 || coord[i] >= mesh->sizes[i]) {
            char quoted[80];
            omi_quote(quoted, sizeof quoted, mesh->names[i], mesh->name_lens[i]);
            return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                            "coordinate %lld is outside axis %.*s of size %lld",
                            (long long)coord[i], (int)(strlen(quoted) - 2),
                            quoted + 1, (long long)mesh->sizes[i]);
        }
        r += coord[i] * mesh->strides[i];
    }
    *rank = r;
    return OM_OK;
}

/* ---- groups: one implementation over an axis set ---- */

static om_status groups_of_set(const om_mesh *mesh, const omi_axis_set *axes,
                               int64_t first_group, int64_t group_count,
                               int32_t *out, size_t out_len, size_t *needed,
                               om_error *err)
{
    int64_t count, size;
    omi_group_shape(mesh, axes, &count, &size);
    if (first_group < 0 || group_count < 0 || first_group > count ||
        group_count > count - first_group)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "%lld groups from group %lld are outside the %lld "
                        "groups", (long long)group_count,
                        (long long)first_group, (long long)count);
    bool fill;
    om_status st = omi_check_output(out, out_len, (size_t)(group_count * size),
                                    needed, &fill, err);
    if (st != OM_OK || !fill)
        return st;
    omi_layout layout;
    omi_layout_build(mesh, axes, true, true, &layout);
    omi_emit(&layout, 0, first_group * size, (first_group + group_count) * size,
             out);
    return OM_OK;
}

static om_status group_index_of_set(const om_mesh *mesh,
                                    const omi_axis_set *axes, int64_t rank,
                                    int64_t *index, om_error *err)
{
    om_status st = check_rank(mesh, rank, err);
    if (st != OM_OK)
        return st;
    int64_t g = 0;
    for (size_t i = 0; i < mesh->ndim; i++)
        if (!omi_axis_set_has(axes, i))
            g = g * mesh->sizes[i] + (rank / mesh->strides[i]) % mesh->sizes[i];
    *index = g;
    return OM_OK;
}

static om_status group_of_set(const om_mesh *mesh, const omi_axis_set *axes,
                              int64_t rank, int32_t *out, size_t out_len,
                              size_t *needed, om_error *err)
{
    om_status st = check_rank(mesh, rank, err);
    if (st != OM_OK)
        return st;
    int64_t count, size;
    omi_group_shape(mesh, axes, &count, &size);
    bool fill;
    st = omi_check_output(out, out_len, (size_t)size, needed, &fill, err);
    if (st != OM_OK || !fill)
        return st;
    int64_t base = rank;
    for (size_t i = 0; i < mesh->ndim; i++)
        if (omi_axis_set_has(axes, i))
            base -= ((rank / mesh->strides[i]) % mesh->sizes[i]) * mesh->strides[i];
    omi_layout layout;
    omi_layout_build(mesh, axes, false, true, &layout);
    omi_emit(&layout, base, 0, size, out);
    return OM_OK;
}

/* ---- 1.0: axis sets as bit masks ---- */

om_status om_mesh_group_shape(const om_mesh *mesh, uint64_t axes,
                              int64_t *group_count, int64_t *group_size,
                              om_error *err)
{
    if (!mesh || !group_count || !group_size)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        mesh ? "out pointer" : "mesh");
    omi_axis_set set;
    om_status st = omi_axis_set_from_mask(mesh, axes, &set, err);
    if (st == OM_OK)
        omi_group_shape(mesh, &set, group_count, group_size);
    return st;
}

om_status om_mesh_groups(const om_mesh *mesh, uint64_t axes,
                         int64_t first_group, int64_t group_count,
                         int32_t *out, size_t out_len, om_error *err)
{
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    omi_axis_set set;
    om_status st = omi_axis_set_from_mask(mesh, axes, &set, err);
    if (st == OM_OK)
        st = groups_of_set(mesh, &set, first_group, group_count, out, out_len,
                           NULL, err);
    return st;
}

om_status om_mesh_group_index(const om_mesh *mesh, uint64_t axes, int64_t rank,
                              int64_t *index, om_error *err)
{
    if (!mesh || !index)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        mesh ? "index pointer" : "mesh");
    omi_axis_set set;
    om_status st = omi_axis_set_from_mask(mesh, axes, &set, err);
    if (st == OM_OK)
        st = group_index_of_set(mesh, &set, rank, index, err);
    return st;
}

om_status om_mesh_group_of(const om_mesh *mesh, uint64_t axes, int64_t rank,
                           int32_t *out, size_t out_len, om_error *err)
{
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    omi_axis_set set;
    om_status st = omi_axis_set_from_mask(mesh, axes, &set, err);
    if (st == OM_OK)
        st = group_of_set(mesh, &set, rank, out, out_len, NULL, err);
    return st;
}

/* ---- 1.1: axis sets by name ---- */

om_status om_mesh_group_shape_named(const om_mesh *mesh,
                                    const char *const *axes, size_t naxes,
                                    int64_t *group_count, int64_t *group_size,
                                    om_error *err)
{
    if (!mesh || !group_count || !group_size)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        mesh ? "out pointer" : "mesh");
    omi_axis_set set;
    om_status st = omi_axis_set_from_names(mesh, axes, naxes, &set, err);
    if (st == OM_OK)
        omi_group_shape(mesh, &set, group_count, group_size);
    omi_axis_set_release(&set);
    return st;
}

om_status om_mesh_groups_named(const om_mesh *mesh, const char *const *axes,
                               size_t naxes, int64_t first_group,
                               int64_t group_count, int32_t *out,
                               size_t out_len, size_t *needed, om_error *err)
{
    if (needed)
        *needed = 0;
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    omi_axis_set set;
    om_status st = omi_axis_set_from_names(mesh, axes, naxes, &set, err);
    if (st == OM_OK)
        st = groups_of_set(mesh, &set, first_group, group_count, out, out_len,
                           needed, err);
    omi_axis_set_release(&set);
    return st;
}

om_status om_mesh_group_index_named(const om_mesh *mesh,
                                    const char *const *axes, size_t naxes,
                                    int64_t rank, int64_t *index, om_error *err)
{
    if (!mesh || !index)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        mesh ? "index pointer" : "mesh");
    omi_axis_set set;
    om_status st = omi_axis_set_from_names(mesh, axes, naxes, &set, err);
    if (st == OM_OK)
        st = group_index_of_set(mesh, &set, rank, index, err);
    omi_axis_set_release(&set);
    return st;
}

om_status om_mesh_group_of_named(const om_mesh *mesh, const char *const *axes,
                                 size_t naxes, int64_t rank, int32_t *out,
                                 size_t out_len, size_t *needed, om_error *err)
{
    if (needed)
        *needed = 0;
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    omi_axis_set set;
    om_status st = omi_axis_set_from_names(mesh, axes, naxes, &set, err);
    if (st == OM_OK)
        st = group_of_set(mesh, &set, rank, out, out_len, needed, err);
    omi_axis_set_release(&set);
    return st;
}
