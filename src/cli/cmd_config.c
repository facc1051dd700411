/* Commands about a training config: dims, mesh, order and check. */
#include <string.h>

#include "cli_internal.h"

static int print_owned(const cli_io *io, char *text)
{
    fputs(text, io->out);
    fputc('\n', io->out);
    om_string_free(text);
    return CLI_OK;
}

int cli_cmd_dims(const cli_io *io, int argc, char **argv)
{
    cli_options opt;
    int rc = cli_parse(io, "dims", argc, argv, 2, OPT_CONFIG | OPT_WORLD_SIZE, &opt);
    om_dims *dims;
    if (rc == CLI_OK)
        rc = cli_load_dims(io, &opt, &dims);
    if (rc != CLI_OK)
        return rc;
    om_error e;
    char *json;
    om_status st = om_dims_to_json(dims, &json, &e);
    om_dims_free(dims);
    return st == OM_OK ? print_owned(io, json) : cli_lib_error(io, &e);
}

int cli_cmd_mesh(const cli_io *io, int argc, char **argv)
{
    cli_options opt;
    int rc = cli_parse(io, "mesh", argc, argv, 2,
                       OPT_CONFIG | OPT_WORLD_SIZE | OPT_ORDER | OPT_MESH, &opt);
    om_mesh *mesh;
    if (rc == CLI_OK)
        rc = cli_load_mesh(io, &opt, &mesh, NULL);
    if (rc != CLI_OK)
        return rc;
    om_error e;
    char *json;
    om_status st = om_mesh_to_json(mesh, &json, &e);
    om_mesh_free(mesh);
    return st == OM_OK ? print_owned(io, json) : cli_lib_error(io, &e);
}

int cli_cmd_order(const cli_io *io, int argc, char **argv)
{
    cli_options opt;
    int rc = cli_parse(io, "order", argc, argv, 2, OPT_AXES_ARG, &opt);
    if (rc != CLI_OK)
        return rc;
    if (!opt.config)
        return cli_error(io, CLI_USAGE, "'order' needs an axis order argument");
    om_error e;
    char *csv;
    if (om_axis_order_normalize(opt.config, &csv, &e) != OM_OK)
        return cli_lib_error(io, &e);
    cli_json_name_list(io->out, csv);
    fputc('\n', io->out);
    om_string_free(csv);
    return CLI_OK;
}

/* Every check a planner runs on the config, in the order it runs them. */
int cli_cmd_check(const cli_io *io, int argc, char **argv)
{
    cli_options opt;
    int rc = cli_parse(io, "check", argc, argv, 2,
                       OPT_CONFIG | OPT_WORLD_SIZE | OPT_NUM_EXPERTS, &opt);
    om_dims *dims = NULL;
    om_mesh *mesh = NULL, *experts = NULL;
    char *dims_json = NULL, *mesh_json = NULL, *plan = NULL;
    if (rc == CLI_OK)
        rc = cli_load_mesh(io, &opt, &mesh, &dims);
    if (rc != CLI_OK)
        return rc;
    om_error e;
    int64_t tp = om_dims_get(dims, OM_DIM_TP), cp = om_dims_get(dims, OM_DIM_CP);
    int64_t ep = om_dims_get(dims, OM_DIM_EP);
    om_status st = om_mesh_validate_plan(mesh, tp, cp, ep, &e);
    if (st == OM_OK)
        st = om_mesh_plan_axes(mesh, tp, cp, ep, &plan, &e);
    /* Extended expert parallelism only exists with ep > 1 (with ep 1 any
     * num_experts divides and pp is free). */
    if (st == OM_OK && ep > 1)
        st = om_mesh_reslice_experts(mesh, ep, opt.has_num_experts ? opt.num_experts : 0,
                            &experts, &e);
    if (st == OM_OK)
        st = om_dims_to_json(dims, &dims_json, &e);
    if (st == OM_OK)
        st = om_mesh_to_json(mesh, &mesh_json, &e);
    if (st == OM_OK) {
        fprintf(io->out, "{\"dims\":%s,", dims_json);
        if (experts)
            fprintf(io->out, "\"experts\":{\"edp\":%lld,\"ep\":%lld},",
                    (long long)om_mesh_dim_size(experts, 0),
                    (long long)om_mesh_dim_size(experts, 1));
        fprintf(io->out, "\"mesh\":%s,\"ok\":true,\"plan_dim_names\":", mesh_json);
        cli_json_name_list(io->out, plan);
        fputs("}\n", io->out);
    }
    om_string_free(dims_json);
    om_string_free(mesh_json);
    om_string_free(plan);
    om_mesh_free(experts);
    om_mesh_free(mesh);
    om_dims_free(dims);
    return st == OM_OK ? CLI_OK : cli_lib_error(io, &e);
}
