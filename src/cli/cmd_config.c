/* Commands about a training config: dims, mesh and order (check:
 * cmd_check.c). */
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
