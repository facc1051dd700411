/* --view NAME: a command's mesh is one view of a world, read from
 * --world FILE (what `offline-mesh views` prints) or built by a framework
 * preset (--preset NAME --param KEY=VALUE..., or a hyper-parallel
 * CONFIG.yaml with --preset hyper-parallel). */
#include <string.h>

#include "cli_internal.h"

static int load_world(const cli_io *io, const cli_options *opt, om_world **world)
{
    om_error e;
    if (opt->world) {
        if (cli_refuse_stdin(io, "--world", opt->world) != CLI_OK)
            return CLI_FAILED;
        if (om_world_load_json(opt->world, world, &e) != OM_OK)
            return cli_error(io, CLI_FAILED, "--world %s", e.message);
        return CLI_OK;
    }
    cli_preset_args pa;
    memset(&pa, 0, sizeof pa);
    pa.preset = opt->preset;
    for (size_t i = 0; i < opt->nparams; i++) {
        pa.params[pa.nparams++] = opt->params[i];
        if (strncmp(opt->params[i], "world_size=", 11) == 0)
            pa.world_param = true;
    }
    om_preset *preset = NULL;
    int rc = cli_load_preset(io, &pa, opt, &preset);
    if (rc != CLI_OK)
        return rc;
    om_status st = om_preset_world(preset, world, &e);
    om_preset_free(preset);
    return st == OM_OK ? CLI_OK : cli_lib_error(io, &e);
}

int cli_load_view(const cli_io *io, const cli_options *opt, om_mesh **mesh)
{
    *mesh = NULL;
    if (!opt->view)
        return cli_error(io, CLI_USAGE, "--world, --preset and --param need "
                                        "--view NAME");
    if (opt->mesh || opt->order)
        return cli_error(io, CLI_USAGE,
                         "--view cannot be combined with --mesh or --order");
    if (opt->world && (opt->preset || opt->nparams || opt->config || opt->world_size))
        return cli_error(io, CLI_USAGE,
                         "--world FILE cannot be combined with --preset, "
                         "--param, a CONFIG.yaml or --world-size");
    if (!opt->world && !opt->preset)
        return cli_error(io, CLI_USAGE,
                         "--view needs --world FILE or --preset NAME");
    if (opt->config && strcmp(opt->preset, "hyper-parallel") != 0)
        return cli_error(io, CLI_USAGE,
                         "a CONFIG.yaml goes with --preset hyper-parallel only");
    if (opt->config && opt->nparams)
        return cli_error(io, CLI_USAGE,
                         "give the hyper-parallel parameters in CONFIG.yaml or "
                         "as --param, not both");
    om_world *world = NULL;
    int rc = load_world(io, opt, &world);
    if (rc != CLI_OK)
        return rc;
    om_error e;
    om_status st = om_world_view(world, opt->view, mesh, &e);
    om_world_free(world);
    return st == OM_OK ? CLI_OK : cli_lib_error(io, &e);
}
