/* The planner contract: axis validation, plan coordinate axes and the
 * extended expert-parallel layout. */
#include <string.h>

#include "internal.h"
#include "offline_mesh/view.h"

static om_status check_sizes(const om_mesh *mesh, int64_t tp, int64_t cp,
                             int64_t ep, om_error *err)
{
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    const char *names[] = {"tp_size", "cp_size", "ep_size"};
    int64_t sizes[] = {tp, cp, ep};
    for (int i = 0; i < 3; i++)
        if (sizes[i] < 1)
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "%s must be >= 1, got %lld", names[i],
                            (long long)sizes[i]);
    return OM_OK;
}

static om_status expect_axis(const om_mesh *mesh, const char *axis,
                             int64_t size, om_error *err)
{
    int index = om_mesh_index_of(mesh, axis);
    if (index < 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "%s_size %lld needs a mesh axis \"%s\", but the mesh "
                        "has none", axis, (long long)size, axis);
    if (mesh->sizes[index] != size)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "%s_size %lld does not match mesh axis \"%s\" of size "
                        "%lld", axis, (long long)size, axis,
                        (long long)mesh->sizes[index]);
    return OM_OK;
}

om_status om_mesh_validate_plan(const om_mesh *mesh, int64_t tp_size,
                                int64_t cp_size, int64_t ep_size, om_error *err)
{
    om_status st = check_sizes(mesh, tp_size, cp_size, ep_size, err);
    if (st == OM_OK && tp_size > 1)
        st = expect_axis(mesh, "tp", tp_size, err);
    if (st == OM_OK && cp_size > 1)
        st = expect_axis(mesh, "cp", cp_size, err);
    if (st == OM_OK && om_mesh_index_of(mesh, "ep") >= 0)
        st = expect_axis(mesh, "ep", ep_size, err);
    return st;
}

om_status om_mesh_plan_axes(const om_mesh *mesh, int64_t tp_size,
                            int64_t cp_size, int64_t ep_size, char **out,
                            om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    om_status st = check_sizes(mesh, tp_size, cp_size, ep_size, err);
    if (st != OM_OK)
        return st;
    char *text = omi_malloc(3 * 3 + 1);
    if (!text)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory");
    size_t o = 0;
    for (size_t i = 0; i < mesh->ndim; i++) {
        const char *name = mesh->names[i];
        int64_t plan = strcmp(name, "tp") == 0   ? tp_size
                       : strcmp(name, "cp") == 0 ? cp_size
                       : strcmp(name, "ep") == 0 ? ep_size
                                                 : 0;
        if (plan > 1) {
            if (o)
                text[o++] = ',';
            memcpy(text + o, name, 2);
            o += 2;
        }
    }
    text[o] = '\0';
    *out = text;
    return OM_OK;
}

om_status om_mesh_reslice_experts(const om_mesh *mesh, int64_t ep_size,
                                  int64_t num_experts, om_mesh **out,
                                  om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    if (ep_size < 1)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "ep_size must be >= 1, got %lld", (long long)ep_size);
    if (num_experts < 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "num_experts must be >= 0 (0 = not given), got %lld",
                        (long long)num_experts);
    int pp = om_mesh_index_of(mesh, "pp");
    if (pp >= 0 && mesh->sizes[pp] > 1)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "pp_size %lld > 1 is not supported with extended expert "
                        "parallelism", (long long)mesh->sizes[pp]);
    int64_t dense = mesh->size / (pp >= 0 ? mesh->sizes[pp] : 1);
    if (ep_size > dense || dense % ep_size != 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "ep_size %lld does not divide the dense region of %lld "
                        "ranks", (long long)ep_size, (long long)dense);
    if (num_experts > 0 && num_experts % ep_size != 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "num_experts %lld is not divisible by ep_size %lld",
                        (long long)num_experts, (long long)ep_size);
    const char *names[] = {"edp", "ep"};
    size_t lens[] = {3, 2};
    int64_t sizes[] = {dense / ep_size, ep_size};
    if (mesh->plain)
        return omi_mesh_create(names, lens, sizes, 2, out, err);
    if (mesh->ndim == 0) { /* nothing to flatten: (1, 1) on the view's ranks */
        const size_t no_modes[] = {0, 0};
        const omi_mode none[1] = {{1, 1}};
        return omi_view_create(names, lens, 2, no_modes, none, mesh->inst,
                               mesh->ninst, mesh->offset, out, err);
    }
    /* A view: the same cut of its own ranks (flatten every axis, then
     * unflatten), so the groups are the view's global ranks, per
     * instance; it used to be the plain mesh of ranks 0..dense-1. */
    om_mesh *flat = NULL;
    om_status st = om_view_flatten(mesh, (const char *const *)mesh->names, mesh->ndim,
                                   "edp_ep", &flat, err);
    if (st == OM_OK)
        st = om_view_unflatten(flat, "edp_ep", sizes, 2, names, 2, out, err);
    om_mesh_free(flat);
    return st;
}

/* ---- the 1.0 names ---- */

om_status om_validate_axes(const om_mesh *mesh, int64_t tp_size,
                           int64_t cp_size, int64_t ep_size, om_error *err)
{
    return om_mesh_validate_plan(mesh, tp_size, cp_size, ep_size, err);
}

om_status om_plan_dim_names(const om_mesh *mesh, int64_t tp_size,
                            int64_t cp_size, int64_t ep_size, char **out,
                            om_error *err)
{
    return om_mesh_plan_axes(mesh, tp_size, cp_size, ep_size, out, err);
}

om_status om_expert_mesh(const om_mesh *mesh, int64_t ep_size,
                         int64_t num_experts, om_mesh **out, om_error *err)
{
    return om_mesh_reslice_experts(mesh, ep_size, num_experts, out, err);
}
