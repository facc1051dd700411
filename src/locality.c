/* Host locality of process groups: ranks r..r+k-1 share a host. Members
 * of a group are increasing, so the hosts a group spans are counted run by
 * run (an arithmetic run of ranks covers a computable range of hosts)
 * without materialising any group. */
#include <stdlib.h>

#include "internal.h"
#include "topology_layout.h"

/* Hosts covered by base + i*stride, i < len; also the first and last. */
static int64_t run_hosts(int64_t base, int64_t len, int64_t stride, int64_t k,
                         int64_t *first, int64_t *last)
{
    *first = base / k;
    *last = (base + (len - 1) * stride) / k;
    /* Steps of at least k never share a host; smaller steps visit every
     * host between the first and the last. */
    return stride >= k ? len : *last - *first + 1;
}

/* Hosts spanned by the group whose members are `members` enumerated from
 * `base`. */
static int64_t group_hosts(const omi_layout *members, int64_t base, int64_t k)
{
    const omi_axis *inner = &members->ax[members->n - 1];
    size_t outer = members->n - 1;
    int64_t coord[OMI_MAX_LAYOUT] = {0};
    int64_t run_base = base, hosts = 0, previous_last = -1;
    for (;;) {
        int64_t first, last;
        hosts += run_hosts(run_base, inner->len, inner->stride, k, &first, &last);
        if (first == previous_last)
            hosts--;
        previous_last = last;
        if (!omi_odometer_step(members->ax, outer, coord, &run_base))
            return hosts;
    }
}

static int compare_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Views whose member modes interleave (no increasing enumeration): each
 * group is written out and sorted. Allocates one group. */
static om_status interleaved_locality(const om_mesh *mesh,
                                      const omi_layout *members,
                                      const omi_layout *bases, int64_t count,
                                      int64_t size, int64_t k,
                                      int64_t *local_groups, int64_t *max_hosts)
{
    int32_t *group = omi_malloc((size_t)size * sizeof *group);
    if (!group)
        return OM_ERR_NO_MEMORY;
    int64_t local = 0, most = 0;
    int64_t coord[OMI_MAX_LAYOUT] = {0};
    int64_t base = mesh->offset;
    for (int64_t g = 0; g < count; g++) {
        omi_emit(members, base, 0, size, group);
        qsort(group, (size_t)size, sizeof *group, compare_int32);
        int64_t hosts = 1;
        for (int64_t i = 1; i < size; i++)
            hosts += group[i] / k != group[i - 1] / k;
        local += hosts == 1;
        most = hosts > most ? hosts : most;
        omi_odometer_step(bases->ax, bases->n, coord, &base);
    }
    omi_free(group);
    *local_groups = local;
    *max_hosts = most;
    return OM_OK;
}

/* Locality of the groups over an axis set. */
static om_status locality_of_set(const om_mesh *mesh, const omi_axis_set *axes,
                                 int64_t ranks_per_host, int64_t *group_count,
                                 int64_t *local_groups, int64_t *max_hosts)
{
    int64_t count, size;
    omi_group_shape(mesh, axes, &count, &size);
    /* Hosts depend on a group's member set only: enumerate it by stride,
     * largest first, so the members come out increasing. */
    omi_layout members, bases;
    omi_layout_build_sorted(mesh, axes, &members);
    omi_layout_build(mesh, axes, true, false, &bases);
    *group_count = count;
    if (!omi_layout_ascending(&members))
        return interleaved_locality(mesh, &members, &bases, count, size,
                                    ranks_per_host, local_groups, max_hosts);
    if (members.n == 0) {
        /* Single-rank groups never leave their host. */
        *local_groups = count;
        *max_hosts = 1;
        return OM_OK;
    }
    int64_t local = 0, most = 0;
    int64_t coord[OMI_MAX_LAYOUT] = {0};
    int64_t base = mesh->offset;
    for (int64_t g = 0; g < count; g++) {
        int64_t hosts = group_hosts(&members, base, ranks_per_host);
        local += hosts == 1;
        most = hosts > most ? hosts : most;
        omi_odometer_step(bases.ax, bases.n, coord, &base);
    }
    *local_groups = local;
    *max_hosts = most;
    return OM_OK;
}

static om_status check_arguments(const om_mesh *mesh, int64_t ranks_per_host,
                                 const int64_t *group_count,
                                 const int64_t *local_groups,
                                 const int64_t *max_hosts, om_error *err)
{
    if (!mesh || !group_count || !local_groups || !max_hosts)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        mesh ? "out pointer" : "mesh");
    if (ranks_per_host < 1)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "ranks per host must be >= 1, got %lld",
                        (long long)ranks_per_host);
    return OM_OK;
}

om_status om_mesh_locality(const om_mesh *mesh, uint64_t axes,
                           int64_t ranks_per_host, int64_t *group_count,
                           int64_t *local_groups, int64_t *max_hosts,
                           om_error *err)
{
    om_status st = check_arguments(mesh, ranks_per_host, group_count,
                                   local_groups, max_hosts, err);
    omi_axis_set set;
    if (st == OM_OK)
        st = omi_axis_set_from_mask(mesh, axes, &set, err);
    if (st == OM_OK)
        st = locality_of_set(mesh, &set, ranks_per_host, group_count,
                             local_groups, max_hosts);
    if (st == OM_ERR_NO_MEMORY)
        omi_fail(err, st, "out of memory for a group of an interleaved view");
    return st;
}

om_status om_mesh_locality_named(const om_mesh *mesh, const char *const *axes,
                                 size_t naxes, int64_t ranks_per_host,
                                 int64_t *group_count, int64_t *local_groups,
                                 int64_t *max_hosts, om_error *err)
{
    om_status st = check_arguments(mesh, ranks_per_host, group_count,
                                   local_groups, max_hosts, err);
    if (st != OM_OK)
        return st;
    omi_axis_set set;
    st = omi_axis_set_from_names(mesh, axes, naxes, &set, err);
    if (st == OM_OK)
        st = locality_of_set(mesh, &set, ranks_per_host, group_count,
                             local_groups, max_hosts);
    if (st == OM_ERR_NO_MEMORY)
        omi_fail(err, st, "out of memory for a group of an interleaved view");
    omi_axis_set_release(&set);
    return st;
}
