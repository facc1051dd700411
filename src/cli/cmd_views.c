/* The views command (every view of a framework preset as JSON) and the
 * preset form of check (every rule violation, then view consistency). */
#include <errno.h>
#include <string.h>

#include "cli_internal.h"

/* The world size handed to the library: --world-size, else 0 when a
 * world_size parameter decides, else the environment (1 when unset);
 * *source says which (OM_WORLD_SIZE_EXPLICIT for the first two). */
static int world_size(const cli_io *io, const cli_options *opt,
                      const cli_preset_args *pa, int64_t *world,
                      om_world_size_source *source)
{
    *world = opt->world_size;
    *source = OM_WORLD_SIZE_EXPLICIT;
    if (*world > 0 || pa->world_param)
        return CLI_OK;
    om_error e;
    if (om_world_size_resolve(0, world, source, &e) != OM_OK)
        return cli_lib_error(io, &e);
    return CLI_OK;
}

/* Whether `text` holds the number n alone (not inside a longer number). */
static bool names_number(const char *text, int64_t n)
{
    char digits[24];
    int len = snprintf(digits, sizeof digits, "%lld", (long long)n);
    for (const char *at = text; (at = strstr(at, digits)) != NULL; at += len)
        if ((at == text || at[-1] < '0' || at[-1] > '9') && (at[len] < '0' || at[len] > '9'))
            return true;
    return false;
}

/* A preset's failure. The frameworks' own messages name the world size
 * ("... != WORLD_SIZE(6)", "world_size (1) is not divisible by 4") but not
 * where the CLI found it: when it was not given and the message names it,
 * say so ("(world size 6 from SLURM_NTASKS)"). */
static int preset_error(const cli_io *io, const om_error *e, int64_t world,
                        om_world_size_source source)
{
    if (source == OM_WORLD_SIZE_EXPLICIT || !names_number(e->message, world))
        return cli_lib_error(io, e);
    return cli_error(io, CLI_FAILED, "%s (world size %lld%s%s)", e->message, (long long)world,
                     source == OM_WORLD_SIZE_DEFAULT ? ", " : " ",
                     om_world_size_source_string(source));
}

/* The options of views and check --preset, through the common parser (so
 * "--" and unknown options are handled as everywhere); `extra` adds
 * OPT_SINGLE_AXES for views. */
static int parse(const cli_io *io, const char *command, int argc, char **argv,
                 unsigned extra, cli_preset_args *pa, cli_options *opt)
{
    memset(pa, 0, sizeof *pa);
    int rc = cli_parse(io, command, argc, argv, 2,
                       OPT_CONFIG | OPT_WORLD_SIZE | OPT_PRESET | OPT_PARAM | extra,
                       opt);
    if (rc != CLI_OK)
        return rc;
    pa->preset = opt->preset;
    for (size_t i = 0; i < opt->nparams; i++) {
        pa->params[pa->nparams++] = opt->params[i];
        if (strncmp(opt->params[i], "world_size=", 11) == 0)
            pa->world_param = true;
    }
    cli_quoted q;
    if (opt->config && pa->preset && strcmp(pa->preset, "hyper-parallel") != 0)
        return cli_error(io, CLI_USAGE,
                         "a CONFIG.yaml goes with the hyper-parallel preset only, "
                         "not with --preset %s", cli_quote(&q, pa->preset));
    if (opt->config && pa->nparams)
        return cli_error(io, CLI_USAGE,
                         "give the hyper-parallel parameters in CONFIG.yaml or "
                         "as --param, not both");
    return CLI_OK;
}

int cli_load_preset(const cli_io *io, const cli_preset_args *pa,
                    const cli_options *opt, om_preset **preset)
{
    *preset = NULL;
    int64_t world;
    om_world_size_source source;
    int rc = world_size(io, opt, pa, &world, &source);
    if (rc != CLI_OK)
        return rc;
    if (opt->config && (rc = cli_read_config(io, opt, NULL)) != CLI_OK)
        return rc;
    om_error e;
    om_status st = opt->config
                       ? om_preset_load_yaml(opt->config, world, preset, &e)
                       : om_preset_new(pa->preset, pa->params, pa->nparams, world,
                                       preset, &e);
    return st == OM_OK ? CLI_OK : preset_error(io, &e, world, source);
}

int cli_cmd_views(const cli_io *io, int argc, char **argv)
{
    cli_preset_args pa;
    cli_options opt;
    int rc = parse(io, "views", argc, argv, OPT_SINGLE_AXES | OPT_LAYOUTS, &pa, &opt);
    if (rc != CLI_OK)
        return rc;
    /* --single-axes: torchtitan's single-axis meshes instead of the views. */
    bool single_axes = opt.single_axes;
    if (!opt.config && !pa.preset)
        return cli_error(io, CLI_USAGE,
                         "give --preset NAME [--param KEY=VALUE]... or a "
                         "hyper-parallel CONFIG.yaml");
    if (single_axes && (!pa.preset || strcmp(pa.preset, "torchtitan") != 0))
        return cli_error(io, CLI_USAGE,
                         "--single-axes goes with --preset torchtitan only");
    if (single_axes && opt.layouts)
        return cli_error(io, CLI_USAGE, "--single-axes and --layouts cannot be combined");
    om_preset *preset = NULL;
    rc = cli_load_preset(io, &pa, &opt, &preset);
    if (rc != CLI_OK)
        return rc;
    if (single_axes || opt.layouts) {
        /* One small document: torchtitan's single-axis meshes, or the
         * views as a world (om_world_to_json: layouts and instances, no
         * groups or coordinates). */
        om_error e;
        om_world *world = NULL;
        char *json = NULL;
        om_status st = single_axes ? om_preset_single_axes_json(preset, &json, &e)
                                   : om_preset_world(preset, &world, &e);
        if (st == OM_OK && world)
            st = om_world_to_json(world, &json, &e);
        om_world_free(world);
        om_preset_free(preset);
        if (st != OM_OK)
            return cli_lib_error(io, &e);
        fputs(json, io->out);
        fputc('\n', io->out);
        om_string_free(json);
        return CLI_OK;
    }
    /* Every parameter is valid once the preset exists: from here on the
     * document streams out as it is computed (bounded memory; a failed
     * write stops it at once). */
    om_error e;
    fflush(io->out);
    om_status st = om_preset_write_json(preset, io->out, &e);
    om_preset_free(preset);
    if (st == OM_OK && (fputc('\n', io->out) == EOF || fflush(io->out) != 0))
        return cli_error(io, CLI_FAILED, "cannot write the output: %s",
                         strerror(errno));
    if (st == OM_ERR_IO)
        return cli_error(io, CLI_FAILED, "cannot write the output: %s",
                         strchr(e.message, ':') ? strchr(e.message, ':') + 2
                                                : e.message);
    return st == OM_OK ? CLI_OK : cli_lib_error(io, &e);
}

static bool has_preset(int argc, char **argv)
{
    for (int i = 2; i < argc && !(argv[i] && strcmp(argv[i], "--") == 0); i++)
        if (argv[i] && strncmp(argv[i], "--preset", 8) == 0 &&
            (argv[i][8] == '\0' || argv[i][8] == '='))
            return true;
    return false;
}

/* check --preset NAME ...: the verdict on stdout; exit status 1 when it
 * lists violations. Without --preset: the planner preflight (cmd_config.c). */
int cli_cmd_check_any(const cli_io *io, int argc, char **argv)
{
    if (!has_preset(argc, argv))
        return cli_cmd_check(io, argc, argv);
    cli_preset_args pa;
    cli_options opt;
    int rc = parse(io, "check", argc, argv, 0, &pa, &opt);
    int64_t world = 0;
    om_world_size_source source = OM_WORLD_SIZE_EXPLICIT;
    if (rc == CLI_OK)
        rc = world_size(io, &opt, &pa, &world, &source);
    if (rc == CLI_OK && opt.config)
        rc = cli_read_config(io, &opt, NULL);
    if (rc != CLI_OK)
        return rc;
    om_error e;
    char *verdict = NULL;
    om_status st = opt.config
                       ? om_preset_check_yaml(opt.config, world, &verdict, &e)
                       : om_preset_check(pa.preset, pa.params, pa.nparams, world,
                                         &verdict, &e);
    if (st != OM_OK)
        return preset_error(io, &e, world, source);
    bool ok = strncmp(verdict, "{\"ok\":true", 10) == 0;
    fputs(verdict, io->out);
    fputc('\n', io->out);
    om_string_free(verdict);
    return ok ? CLI_OK : cli_check_failed(io);
}
