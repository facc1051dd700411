/* Where a command's mesh comes from: a training config, a mesh spec or a
 * mesh JSON file. Files are read by the library (bounded, regular files
 * only); nothing here reads a file itself. */
#include <string.h>
#include <sys/stat.h>

#include "cli_internal.h"

int cli_refuse_stdin(const cli_io *io, const char *option, const char *path)
{
    struct stat info;
    if (strcmp(path, "-") != 0 || stat(path, &info) == 0)
        return CLI_OK;
    return cli_error(io, CLI_FAILED,
                     "%s%s\"-\": standard input is not read; give a file's path",
                     option ? option : "", option ? " " : "");
}

int cli_load_dims(const cli_io *io, const cli_options *opt, om_dims **dims)
{
    om_error e;
    *dims = NULL;
    if (!opt->config)
        return cli_error(io, CLI_USAGE, "a CONFIG.yaml argument is required");
    /* The projection, then the world size as its own step: its errors say
     * where the number came from. */
    int rc = cli_read_config(io, opt, dims);
    if (rc != CLI_OK)
        return rc;
    if (om_dims_resolve_world_size(*dims, opt->world_size, &e) != OM_OK) {
        om_dims_free(*dims);
        *dims = NULL;
        return cli_lib_error(io, &e);
    }
    return CLI_OK;
}

/* A --mesh value names a file when one exists there (whatever its name
 * holds, '=' included); otherwise it is a spec when it looks like one. */
static bool is_spec(const char *value)
{
    struct stat info;
    if (stat(value, &info) == 0)
        return false;
    return strchr(value, '=') || value[strspn(value, " \t")] == '\0';
}

static int load_mesh_option(const cli_io *io, const char *value, om_mesh **mesh)
{
    om_error e;
    if (is_spec(value)) {
        if (om_mesh_from_spec(value, mesh, &e) != OM_OK)
            return cli_error(io, CLI_FAILED, "--mesh: %s", e.message);
        return CLI_OK;
    }
    if (cli_refuse_stdin(io, "--mesh", value) != CLI_OK)
        return CLI_FAILED;
    om_status st = om_mesh_load_json(value, mesh, &e);
    if (st == OM_OK)
        return CLI_OK;
    if (st == OM_ERR_IO && !strchr(value, '='))
        return cli_error(io, CLI_FAILED, "--mesh: %s (and not a name=size list)",
                         e.message);
    return cli_error(io, CLI_FAILED, "--mesh: %s", e.message);
}

int cli_load_mesh(const cli_io *io, const cli_options *opt, om_mesh **mesh,
                  om_dims **dims_out)
{
    om_error e;
    *mesh = NULL;
    if (dims_out)
        *dims_out = NULL;
    if (opt->view || opt->world || opt->preset || opt->nparams)
        return cli_load_view(io, opt, mesh);
    if (opt->mesh) {
        cli_quoted q, q_dims, q_joined;
        if (opt->config && opt->config_after_dims) {
            char joined[256];
            snprintf(joined, sizeof joined, "%s,%s", opt->config_after_dims,
                     opt->config);
            return cli_error(io, CLI_USAGE,
                             "stray %s after --dims %s: an axis set is one "
                             "comma-separated value (--dims %s); with --mesh "
                             "there is no CONFIG.yaml",
                             cli_quote(&q, opt->config),
                             cli_quote(&q_dims, opt->config_after_dims),
                             cli_quote(&q_joined, joined));
        }
        if (opt->config)
            return cli_error(io, CLI_USAGE,
                             "--mesh cannot be combined with a CONFIG.yaml "
                             "(got %s)", cli_quote(&q, opt->config));
        if (opt->world_size || opt->order)
            return cli_error(io, CLI_USAGE,
                             "--mesh cannot be combined with --world-size or "
                             "--order");
        return load_mesh_option(io, opt->mesh, mesh);
    }
    if (!opt->config)
        return cli_error(io, CLI_USAGE, "give a CONFIG.yaml or --mesh SPEC");
    om_dims *dims;
    int rc = cli_load_dims(io, opt, &dims);
    if (rc != CLI_OK)
        return rc;
    om_status st = opt->order ? om_mesh_from_dims_in_order(dims, opt->order, mesh, &e)
                              : om_mesh_from_dims(dims, mesh, &e);
    if (st != OM_OK) {
        om_dims_free(dims);
        return cli_lib_error(io, &e);
    }
    if (dims_out)
        *dims_out = dims;
    else
        om_dims_free(dims);
    return CLI_OK;
}
