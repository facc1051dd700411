/* offline-mesh: subcommand dispatch, --help and --version. */
#include <string.h>

#include "cli.h"
#include "cli_internal.h"

typedef struct {
    const char *name;
    int (*run)(const cli_io *io, int argc, char **argv);
    const char *usage;
    const char *summary;
    const char *options; /* what --help lists, space-separated (help.c) */
} command;

#define SOURCE "CONFIG.yaml --strict --world-size --order --mesh"
#define VIEW_SOURCE "--view --world --preset --param"

static const command commands[] = {
    {"dims", cli_cmd_dims, "dims CONFIG.yaml [--world-size N]",
     "parallel dims projected from the config's accelerator section",
     "CONFIG.yaml --strict --world-size"},
    {"mesh", cli_cmd_mesh,
     "mesh (CONFIG.yaml [--world-size N] [--order AXES] | --mesh SPEC)",
     "the offline mesh (or the runtime mesh in --order)", SOURCE},
    {"groups", cli_cmd_groups, "groups SOURCE --dims AXES",
     "process groups over AXES, as a JSON array of arrays",
     SOURCE " " VIEW_SOURCE " --dims"},
    {"coord", cli_cmd_coord, "coord SOURCE --rank R", "coordinates of rank R",
     SOURCE " " VIEW_SOURCE " --rank"},
    {"experts", cli_cmd_experts,
     "experts (CONFIG.yaml [--world-size N] | --mesh SPEC) [--ep N] [--num-experts E]",
     "extended expert-parallel layout: EP and EDP groups",
     "CONFIG.yaml --strict --world-size --mesh --ep --num-experts"},
    {"check", cli_cmd_check_any,
     "check CONFIG.yaml [--world-size N] [--num-experts E]\n"
     "       offline-mesh check --preset NAME [--param KEY=VALUE]... [--world-size N]",
     "planner preflight as a JSON verdict listing every broken rule (exit 1\n"
     "when one breaks); with --preset: every framework rule and view consistency",
     "CONFIG.yaml --strict --world-size --num-experts --preset --param"},
    {"locality", cli_cmd_locality,
     "locality SOURCE (--ranks-per-host K | --hierarchy LEVELS [--require AXES:LEVEL,...] [--examples]) [--dims AXES]...",
     "how many groups stay inside one host (or each domain of LEVELS)",
     SOURCE " " VIEW_SOURCE " --dims --ranks-per-host --hierarchy --require --examples"},
    {"dump", cli_cmd_dump, "dump SOURCE [--dims AXES]...",
     "JSON Lines: the groups once, then each rank's place in them",
     SOURCE " " VIEW_SOURCE " --dims"},
    {"order", cli_cmd_order, "order AXES",
     "the mesh an axis order describes (pp,dp,cp,tp or tp-cp-ep-dp-pp)", "AXES"},
    {"views", cli_cmd_views,
     "views --preset NAME [--param KEY=VALUE]... [--world-size N] [--single-axes | --layouts] | views CONFIG.yaml [--world-size N] [--layouts]",
     "every view and named group of a framework preset (torchtitan, megatron, ...)",
     "--preset --param CONFIG.yaml --strict --world-size --single-axes --layouts"},
    {"launch", cli_cmd_launch,
     "launch SOURCE --nnodes N --nproc-per-node P [--format torchrun|slurm|openmpi] [--master-addr HOST --master-port PORT] [--hosts LIST|HOSTFILE] [--hierarchy LEVELS] [--require AXES:LEVEL,...]",
     "per-node launch plan with each process's launcher environment",
     SOURCE " --nnodes --nproc-per-node --format --master-addr --master-port "
     "--hosts --hierarchy --require"},
    {"advise", cli_cmd_advise,
     "advise CONFIG.yaml [--world-size N] --hierarchy LEVELS [--require AXES:LEVEL,...] [--prefer AXES:LEVEL,...] [--priority tp>ep>cp>pp>dp] [--order ORDER]",
     "runtime axis orders ranked by crossings per level (or what one order breaks)",
     "CONFIG.yaml --strict --world-size --hierarchy --require --prefer --priority --order"},
    {"show", cli_cmd_show,
     "show SOURCE [--color-by AXES] [--ranks-per-host K] [--format text|svg] [--hierarchy LEVELS]",
     "a picture of the ranks, their groups and hosts (terminal or SVG)",
     SOURCE " " VIEW_SOURCE " --color-by --ranks-per-host --format --hierarchy"},
};

static void print_command_help(FILE *out, const command *c)
{
    const char *names[32];
    char copy[512];
    size_t count = 0;
    snprintf(copy, sizeof copy, "%s", c->options);
    for (char *p = strtok(copy, " "); p && count < 32; p = strtok(NULL, " "))
        names[count++] = p;
    cli_print_command_help(out, c->name, c->usage, c->summary, names, count);
}

static void print_help(FILE *out)
{
    fputs("usage: offline-mesh COMMAND [OPTIONS]\n"
          "\n"
          "Computes the static device mesh of a distributed-training job.\n"
          "\n"
          "commands:\n", out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        /* A summary of two lines keeps its second under the first. */
        const char *text = commands[i].summary;
        int len = (int)strcspn(text, "\n");
        fprintf(out, "  %-9s %.*s\n", commands[i].name, len, text);
        for (text += len; *text == '\n'; text += len) {
            text++;
            len = (int)strcspn(text, "\n");
            fprintf(out, "  %-9s %.*s\n", "", len, text);
        }
    }
    fputs("\n"
          "SOURCE is CONFIG.yaml [--world-size N] [--order AXES] or --mesh SPEC,\n"
          "or (groups, coord, dump, show, locality) --view NAME with --world FILE\n"
          "(the JSON views --layouts prints) or --preset NAME [--param KEY=VALUE]...,\n"
          "SPEC is name=size,... (e.g. dp=2,cp=2,tp=2) or a mesh JSON file,\n"
          "AXES is a comma-separated axis list (e.g. dp,cp). --order reads\n"
          "'pp,dp,cp,tp' slowest-varying first, 'tp-cp-ep-dp-pp' (Megatron)\n"
          "fastest first. Without --world-size the world size comes from\n"
          "WORLD_SIZE, OMPI_COMM_WORLD_SIZE, PMI_SIZE or SLURM_NTASKS (else 1).\n"
          "A config's likely mistakes (an unknown accelerator key, a key given\n"
          "twice, no or an empty accelerator section, a mesh JSON) are warnings\n"
          "on stderr;"
          " --strict, with any CONFIG.yaml, makes them errors (exit status 1).\n"
          "\n"
          "Output is one JSON document on stdout (dump: one per line; show:\n"
          "a picture, text or SVG). Errors\n"
          "go to stderr; exit status 1 for invalid input, 2 for usage errors.\n"
          "\n"
          "  offline-mesh --help | --version | COMMAND --help | help COMMAND\n"
          "\n"
          "See man offline-mesh for every command and option.\n", out);
}

static bool wants_help(int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        if (argv[i] && strcmp(argv[i], "--") == 0)
            return false;
        if (argv[i] && (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0))
            return true;
    }
    return false;
}

static bool is_help_word(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0 ||
           strcmp(arg, "help") == 0;
}

int omcli_main(int argc, char **argv, FILE *out, FILE *err)
{
    cli_io io = {out, err};
    if (argc < 2 || !argv[1])
        return cli_error(&io, CLI_USAGE,
                         "missing COMMAND; try 'offline-mesh --help'");
    const char *name = argv[1];
    bool help = is_help_word(name);
    cli_quoted q;
    /* "help groups" is "groups --help"; anything else after --help or
     * --version is a mistake, not something to ignore. */
    if ((help && argc > 3) || (strcmp(name, "--version") == 0 && argc > 2))
        return cli_error(&io, CLI_USAGE, "'%s' takes %s, got %s", name,
                         help ? "at most a COMMAND" : "no argument",
                         cli_quote(&q, argv[help ? 3 : 2]));
    if (help && argc == 3 && argv[2])
        name = argv[2];
    if (help && (argc < 3 || !argv[2] || is_help_word(name))) {
        print_help(out);
        return cli_output_failed(&io) ? CLI_FAILED : CLI_OK;
    }
    if (!help && strcmp(name, "--version") == 0) {
        fprintf(out, "offline-mesh %s\n", om_version_string());
        return cli_output_failed(&io) ? CLI_FAILED : CLI_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(commands[i].name, name) != 0)
            continue;
        if (help || wants_help(argc, argv)) {
            print_command_help(out, &commands[i]);
            return cli_output_failed(&io) ? CLI_FAILED : CLI_OK;
        }
        int rc = commands[i].run(&io, argc, argv);
        if (rc == CLI_OK && cli_output_failed(&io))
            return CLI_FAILED;
        return rc;
    }
    char known[512];
    size_t o = 0;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        o += (size_t)snprintf(known + o, sizeof known - o, "%s%s", i ? ", " : "",
                              commands[i].name);
    return cli_error(&io, CLI_USAGE,
                     "unknown command %s (commands: %s); try 'offline-mesh --help'",
                     cli_quote(&q, name), known);
}
