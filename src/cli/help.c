/* offline-mesh COMMAND --help: the usage, every option the command takes
 * with its default, and a pointer to the man page (doc/offline-mesh.1.in
 * says the same at length). tests/cli/test_help.py checks that each list
 * is exactly what the command accepts. */
#include <string.h>

#include "cli_internal.h"

typedef struct {
    const char *command; /* NULL: every command taking the option */
    const char *option;  /* "--rank" or a positional "CONFIG.yaml" */
    const char *value;   /* "R", or "" for a flag or a positional */
    const char *text;    /* what it is, then "(default: ...)" */
} option_help;

/* Texts that several commands' entries share. */
#define PRESET_NAMES "torchtitan, megatron, deepspeed or hyper-parallel"
#define NUM_EXPERTS(EP) \
    "number of experts; must be divisible by " EP " (default: not checked)"

/* Per-command entries come before the generic one of the same option: the
 * first match wins. */
static const option_help entries[] = {
    {"order", "AXES", "", "an axis order: pp,dp,cp,tp (slowest first) or "
     "tp-cp-ep-dp-pp (Megatron, fastest first) (required)"},
    {"views", "CONFIG.yaml", "", "a training config read with hyper-parallel's "
     "keys, instead of --preset"},
    {NULL, "CONFIG.yaml", "", "training config; its accelerator: section gives "
     "the sizes (this or --mesh)"},
    {NULL, "--strict", "", "make the config's warnings (unknown accelerator "
     "key, missing section, a mesh JSON as config) errors, exit 1 (default: "
     "warnings on stderr, exit 0)"},
    {NULL, "--world-size", "N", "number of ranks (default: WORLD_SIZE, "
     "OMPI_COMM_WORLD_SIZE, PMI_SIZE or SLURM_NTASKS, the first set, else 1)"},
    {"advise", "--order", "ORDER", "judge this one runtime order only: the "
     "rules it breaks, exit 1 when any (default: rank every order)"},
    {NULL, "--order", "AXES", "runtime axis order: pp,dp,cp,tp (slowest first) "
     "or tp-cp-ep-dp-pp (Megatron, fastest first) (default: the offline "
     "order dp,cp,tp then pp)"},
    {NULL, "--mesh", "SPEC", "the mesh itself, instead of CONFIG.yaml: "
     "name=size,... (e.g. dp=2,tp=4) or a mesh JSON file"},
    {"groups", "--dims", "AXES", "comma-separated axes whose groups to list, "
     "e.g. dp,cp (required)"},
    {NULL, "--dims", "AXES", "an axis set, comma-separated; repeat for more "
     "(default: each axis on its own)"},
    {NULL, "--rank", "R", "the rank, 0 to size-1 (required)"},
    {NULL, "--ep", "N", "expert-parallel size (default: the config's ep_size; "
     "1 with --mesh)"},
    {"check", "--num-experts", "E", NUM_EXPERTS("ep_size")},
    {NULL, "--num-experts", "E", NUM_EXPERTS("ep")},
    {"show", "--ranks-per-host", "K", "draw host boundaries every K ranks "
     "(default: none)"},
    {NULL, "--ranks-per-host", "K", "ranks r..r+K-1 share a host (this or "
     "--hierarchy is required)"},
    {NULL, "--color-by", "AXES", "the axis set whose groups give the colors "
     "(default: the innermost axis)"},
    {"show", "--format", "text|svg", "a terminal picture or a standalone SVG "
     "(default: text)"},
    {NULL, "--format", "torchrun|slurm|openmpi", "the launcher whose "
     "environment to write (default: torchrun)"},
    {"show", "--hierarchy", "LEVELS", "draw the boundaries of each level, "
     "e.g. host=8,rack=64 (default: none)"},
    {"advise", "--hierarchy", "LEVELS", "the levels to judge, e.g. "
     "host=8,nvl=72, or a hostfile or JSON file (required)"},
    {"launch", "--hierarchy", "LEVELS", "levels for --require, e.g. host=8 "
     "(default: none)"},
    {NULL, "--hierarchy", "LEVELS", "per-level report: e.g. host=8,nvl=72, or "
     "a hostfile or JSON file of per-rank domains"},
    {NULL, "--require", "AXES:LEVEL,...", "placement rules that must hold, "
     "e.g. tp:host; exit 1 when one breaks (default: none)"},
    {NULL, "--examples", "", "add the worst group of each level to the "
     "report, at most 16777216 ranks in all (default: off)"},
    {NULL, "--nnodes", "N", "number of nodes; nnodes * nproc-per-node is at most "
     "4194304 (required)"},
    {NULL, "--nproc-per-node", "P", "processes per node (required)"},
    {NULL, "--master-addr", "HOST", "rendezvous address, not empty (default: "
     "127.0.0.1)"},
    {NULL, "--master-port", "PORT", "rendezvous port, 1 to 65535 (default: "
     "29500)"},
    {NULL, "--hosts", "LIST|HOSTFILE", "node names in node-rank order, "
     "comma-separated or one per line in a file (default: none)"},
    {NULL, "--prefer", "AXES:LEVEL,...", "placement rules that should hold, "
     "ranked after --require (default: none)"},
    {NULL, "--priority", "P", "the axes whose crossings matter most, first "
     "to last (default: tp>cp>ep>dp>pp)"},
    {NULL, "--view", "NAME", "one view of a world (with --world or --preset) "
     "instead of CONFIG.yaml or --mesh"},
    {NULL, "--world", "FILE", "a world JSON, as views --layouts prints it"},
    {"views", "--preset", "NAME", PRESET_NAMES " (this or CONFIG.yaml)"},
    {"views", "--single-axes", "", "torchtitan's single-axis meshes "
     "(get_mesh names, fake-backed, one-dimensional active) instead of the "
     "views"},
    {"views", "--layouts", "", "the world JSON only (what --world reads "
     "back): each view's layout and instances, no groups or coordinates"},
    {"check", "--preset", "NAME", "check a framework preset instead: " PRESET_NAMES},
    {NULL, "--preset", "NAME", "the world of a framework preset: " PRESET_NAMES},
    {NULL, "--param", "KEY=VALUE", "a preset parameter by the framework's "
     "own name; repeat for more (default: the framework's defaults)"},
};

static const option_help *find(const char *command, const char *option)
{
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
        if ((!entries[i].command || strcmp(entries[i].command, command) == 0) &&
            strcmp(entries[i].option, option) == 0)
            return &entries[i];
    return NULL;
}

/* One option: its head in a column of 24, the text wrapped at 79 columns
 * (a longer head puts the text on the next line). */
static void print_option(FILE *out, const char *head, const char *text)
{
    enum { INDENT = 27, WIDTH = 79 };
    int col = fprintf(out, "  %-24s", head);
    if (col > INDENT - 1) {
        fprintf(out, "\n%*s", INDENT - 1, "");
        col = INDENT - 1;
    }
    for (const char *p = text; *p;) {
        size_t word = strcspn(p, " ");
        if (col + 1 + (int)word > WIDTH && col > INDENT - 1) {
            fprintf(out, "\n%*s", INDENT - 1, "");
            col = INDENT - 1;
        }
        col += fprintf(out, " %.*s", (int)word, p);
        p += word;
        p += strspn(p, " ");
    }
    fputc('\n', out);
}

void cli_print_command_help(FILE *out, const char *command, const char *usage,
                            const char *summary, const char *const *options,
                            size_t count)
{
    fprintf(out, "usage: offline-mesh %s\n\n%s\n\noptions:\n", usage, summary);
    for (size_t i = 0; i < count; i++) {
        const option_help *h = find(command, options[i]);
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", options[i],
                 h && *h->value ? " " : "", h ? h->value : "");
        print_option(out, head, h ? h->text : "");
    }
    print_option(out, "-h, --help", "show this help");
    fputs("\nSee man offline-mesh for every command and option.\n", out);
}
