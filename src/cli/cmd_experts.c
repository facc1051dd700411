/* The experts command: the extended expert-parallel layout. */
#include <stdlib.h>

#include "cli_internal.h"

/* Writes every group of `experts` over its axis `axis` (0 edp, 1 ep). */
static int write_all(const cli_io *io, const om_mesh *experts, int axis)
{
    om_error e;
    uint64_t mask = UINT64_C(1) << axis;
    int64_t count, size;
    if (om_mesh_group_shape(experts, mask, &count, &size, &e) != OM_OK)
        return cli_lib_error(io, &e);
    int32_t *buf = malloc((size_t)size * sizeof *buf);
    if (!buf)
        return cli_error(io, CLI_FAILED, "out of memory");
    fputc('[', io->out);
    for (int64_t g = 0; g < count; g++) {
        if (om_mesh_groups(experts, mask, g, 1, buf, (size_t)size, &e) != OM_OK) {
            free(buf);
            return cli_lib_error(io, &e);
        }
        if (g)
            fputc(',', io->out);
        cli_json_int_array(io->out, buf, size);
    }
    fputc(']', io->out);
    free(buf);
    return CLI_OK;
}

int cli_cmd_experts(const cli_io *io, int argc, char **argv)
{
    cli_options opt;
    int rc = cli_parse(io, "experts", argc, argv, 2,
                       OPT_CONFIG | OPT_WORLD_SIZE | OPT_MESH | OPT_EP |
                           OPT_NUM_EXPERTS, &opt);
    om_mesh *mesh = NULL, *experts = NULL;
    om_dims *dims = NULL;
    if (rc == CLI_OK)
        rc = cli_load_mesh(io, &opt, &mesh, &dims);
    if (rc != CLI_OK)
        return rc;
    /* ep defaults to the config's ep_size (1 for a bare mesh). */
    int64_t ep = opt.has_ep ? opt.ep : dims ? om_dims_get(dims, OM_DIM_EP) : 1;
    if (ep < 1)
        ep = 1;
    om_error e;
    if (om_expert_mesh(mesh, ep, opt.has_num_experts ? opt.num_experts : 0,
                       &experts, &e) != OM_OK) {
        rc = cli_lib_error(io, &e);
    } else {
        fprintf(io->out, "{\"edp\":%lld,\"edp_groups\":",
                (long long)om_mesh_dim_size(experts, 0));
        rc = write_all(io, experts, 0);
        if (rc == CLI_OK) {
            fprintf(io->out, ",\"ep\":%lld,\"ep_groups\":",
                    (long long)om_mesh_dim_size(experts, 1));
            rc = write_all(io, experts, 1);
        }
        if (rc == CLI_OK)
            fputs("}\n", io->out);
    }
    om_mesh_free(experts);
    om_mesh_free(mesh);
    om_dims_free(dims);
    return rc;
}
