/* The experts command: the extended expert-parallel layout. */
#include <stdlib.h>

#include "cli_internal.h"

/* Writes every group of `experts` over its axis `axis` (0 edp, 1 ep) as a
 * JSON array of arrays, streamed through `buf`. */
static bool write_all(omu_writer *w, const om_mesh *experts, int axis,
                      int32_t *buf, om_error *e)
{
    cli_axis_set set;
    cli_axis_set_single(om_mesh_name(experts, (size_t)axis), &set);
    omu_write_char(w, '[');
    bool ok = cli_stream_groups(w, experts, &set, buf, e);
    omu_write_char(w, ']');
    return ok;
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
    int32_t *buf = NULL;
    if (om_mesh_reslice_experts(mesh, ep, opt.has_num_experts ? opt.num_experts : 0,
                                &experts, &e) != OM_OK) {
        rc = cli_lib_error(io, &e);
    } else {
        /* One buffer that fits a group of either axis, allocated before
         * the first byte is written, so only a write error can leave a
         * partial output. */
        int64_t edp = cli_group_buffer(experts, om_mesh_dim_size(experts, 0));
        int64_t eps = cli_group_buffer(experts, om_mesh_dim_size(experts, 1));
        buf = malloc((size_t)(edp > eps ? edp : eps) * sizeof *buf);
        if (!buf)
            rc = cli_error(io, CLI_FAILED, "out of memory");
    }
    if (rc == CLI_OK) {
        char storage[OMU_WRITER_BLOCK];
        omu_writer w;
        cli_writer_start(io, &w, storage, sizeof storage);
        omu_write_str(&w, "{\"edp\":");
        omu_write_int(&w, om_mesh_dim_size(experts, 0));
        omu_write_str(&w, ",\"edp_groups\":");
        bool ok = write_all(&w, experts, 0, buf, &e);
        if (ok) {
            omu_write_str(&w, ",\"ep\":");
            omu_write_int(&w, om_mesh_dim_size(experts, 1));
            omu_write_str(&w, ",\"ep_groups\":");
            ok = write_all(&w, experts, 1, buf, &e);
        }
        omu_write_str(&w, "}\n");
        rc = cli_writer_finish(io, &w, ok ? CLI_OK : cli_lib_error(io, &e));
    }
    free(buf);
    om_mesh_free(experts);
    om_mesh_free(mesh);
    om_dims_free(dims);
    return rc;
}
