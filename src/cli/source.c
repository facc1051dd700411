/* Where a command's mesh comes from: a training config, a mesh spec or a
 * mesh JSON file. */
#include <stdlib.h>
#include <string.h>

#include "cli_internal.h"

int cli_load_dims(const cli_io *io, const cli_options *opt, om_dims **dims)
{
    om_error e;
    if (!opt->config)
        return cli_error(io, CLI_USAGE, "a CONFIG.yaml argument is required");
    if (om_dims_load_yaml(opt->config, opt->world_size, dims, &e) != OM_OK)
        return cli_lib_error(io, &e);
    return CLI_OK;
}

static int read_mesh_file(const cli_io *io, const char *path, om_mesh **mesh)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return cli_error(io, CLI_FAILED,
                         "--mesh %.200s: not a name=size list and not a "
                         "readable mesh JSON file", path);
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    while (text) {
        size_t n = fread(text + len, 1, cap - len, file);
        len += n;
        if (n == 0)
            break;
        if (len == cap) {
            if (cap >= (size_t)64 << 20)
                break;
            char *bigger = realloc(text, cap * 2);
            if (!bigger) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
            cap *= 2;
        }
    }
    bool failed = ferror(file) != 0;
    fclose(file);
    if (!text || failed) {
        free(text);
        return cli_error(io, CLI_FAILED, "--mesh %.200s: cannot read the file",
                         path);
    }
    om_error e;
    om_status st = om_mesh_from_json(text, len, mesh, &e);
    free(text);
    if (st != OM_OK)
        return cli_error(io, CLI_FAILED, "--mesh %.200s: %s", path, e.message);
    return CLI_OK;
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
        if (opt->config || opt->world_size || opt->order)
            return cli_error(io, CLI_USAGE,
                             "--mesh cannot be combined with a CONFIG.yaml, "
                             "--world-size or --order");
        if (strchr(opt->mesh, '=') || opt->mesh[strspn(opt->mesh, " \t")] == '\0') {
            if (om_mesh_from_spec(opt->mesh, mesh, &e) != OM_OK)
                return cli_error(io, CLI_FAILED, "--mesh: %s", e.message);
            return CLI_OK;
        }
        return read_mesh_file(io, opt->mesh, mesh);
    }
    if (!opt->config)
        return cli_error(io, CLI_USAGE, "give a CONFIG.yaml or --mesh SPEC");
    om_dims *dims;
    int rc = cli_load_dims(io, opt, &dims);
    if (rc != CLI_OK)
        return rc;
    om_status st = opt->order ? om_build_runtime_mesh(dims, opt->order, mesh, &e)
                              : om_build_offline_mesh(dims, mesh, &e);
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
