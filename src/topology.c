/* Rank topology: coordinates, ranks and process groups, computed without
 * any allocation. The ranks of a group slice are the row-major enumeration
 * of an (outside axes, selected axes) transpose of arange(size); the
 * enumerator that writes them lives in group_kernel.c. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "topology_layout.h"

/* ---- coordinates and ranks ---- */

static om_status check_rank(const om_mesh *mesh, int64_t rank, om_error *err)
{
    return omi_check_rank(mesh, rank, err);
}

/* Checks `rank` and, for a view of at most 64 axes, decodes it once into
 * `coord` (*have true), so a per-rank loop pays one decode, not two. */
static om_status check_and_decode(const om_mesh *mesh, int64_t rank,
                                  int64_t *coord, bool *have, om_error *err)
{
    *have = !mesh->plain && mesh->ndim <= 64 &&
            omi_view_coordinate(mesh, rank, coord, NULL);
    return *have ? OM_OK : check_rank(mesh, rank, err);
}

/* A view's coordinate is taken inside the instance holding the rank (the
 * rank is checked first, so the decode cannot fail). */
static void write_coordinate(const om_mesh *mesh, int64_t rank, int64_t *coord)
{
    if (!mesh->plain) {
        omi_view_coordinate(mesh, rank, coord, NULL);
        return;
    }
    for (size_t i = 0; i < mesh->ndim; i++)
        coord[i] = (rank / mesh->strides[i]) % mesh->sizes[i];
}

om_status om_mesh_coordinate(const om_mesh *mesh, int64_t rank, int64_t *coord,
                             size_t coord_len, om_error *err)
{
    if (!mesh || (!coord && mesh->ndim > 0))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        mesh ? "coordinate buffer" : "mesh");
    int64_t decoded[64];
    bool have;
    om_status st = check_and_decode(mesh, rank, decoded, &have, err);
    if (st != OM_OK)
        return st;
    if (coord_len < mesh->ndim)
        return omi_fail(err, OM_ERR_BUFFER_TOO_SMALL,
                        "coordinate buffer holds %zu values; the mesh has %zu "
                        "axes", coord_len, mesh->ndim);
    if (have)
        memcpy(coord, decoded, mesh->ndim * sizeof *coord);
    else
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
    int64_t decoded[64];
    bool have;
    om_status st = check_and_decode(mesh, rank, decoded, &have, err);
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
    if (st == OM_OK && fill && have)
        memcpy(out, decoded, mesh->ndim * sizeof *out);
    else if (st == OM_OK && fill)
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
    /* Views: the rank in the first instance. */
    *rank = mesh->plain ? r : omi_view_rank(mesh, coord);
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
    return omi_groups_write(mesh, axes, first_group, group_count, out, err);
}

static om_status group_index_of_set(const om_mesh *mesh,
                                    const omi_axis_set *axes, int64_t rank,
                                    int64_t *index, om_error *err)
{
    om_status st = check_rank(mesh, rank, err);
    if (st != OM_OK)
        return st;
    *index = omi_group_index(mesh, axes, rank);
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
    omi_group_members(mesh, axes, rank, out);
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
