/* Internal to the CLI: parsed options, mesh sources and JSON writing. */
#ifndef OFFLINE_MESH_CLI_INTERNAL_H
#define OFFLINE_MESH_CLI_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "offline_mesh.h"
#include "writer.h"

#define CLI_OK 0
#define CLI_FAILED 1
#define CLI_USAGE 2
/* --dims options of one command (dump, locality: one axis set each);
 * more are refused naming the limit. Without --dims every single axis is
 * taken, with no limit. */
#define CLI_MAX_DIMS 16

/* Options a command may accept (bit set). */
enum {
    OPT_CONFIG = 1 << 0,      /* positional CONFIG.yaml */
    OPT_WORLD_SIZE = 1 << 1,
    OPT_ORDER = 1 << 2,
    OPT_MESH = 1 << 3,
    OPT_DIMS = 1 << 4,
    OPT_DIMS_MANY = 1 << 5,   /* --dims may repeat */
    OPT_RANK = 1 << 6,
    OPT_EP = 1 << 7,
    OPT_NUM_EXPERTS = 1 << 8,
    OPT_RANKS_PER_HOST = 1 << 9,
    OPT_COLOR_BY = 1 << 10,
    OPT_FORMAT = 1 << 11,
    OPT_AXES_ARG = 1 << 12,   /* positional AXES (order command) */
    OPT_HIERARCHY = 1 << 13,
    OPT_REQUIRE = 1 << 14,
    OPT_EXAMPLES = 1 << 15,   /* flag: add the worst group of each level */
    OPT_NNODES = 1 << 16,
    OPT_NPROC = 1 << 17,
    OPT_MASTER_ADDR = 1 << 18,
    OPT_MASTER_PORT = 1 << 19,
    OPT_HOSTS = 1 << 20,
    OPT_PREFER = 1 << 21,
    OPT_PRIORITY = 1 << 22,
    OPT_VIEW = 1 << 23,       /* --view NAME [--world FILE | --preset NAME
                                 --param K=V...]: a view of a world */
    OPT_WORLD = 1 << 24,
    OPT_PRESET = 1 << 25,
    OPT_PARAM = 1 << 26,      /* --param may repeat */
    OPT_STRICT = 1 << 27,     /* flag: config diagnostics are errors; every
                                 command taking OPT_CONFIG accepts it */
    OPT_SINGLE_AXES = 1 << 28, /* flag (views): torchtitan's single-axis meshes */
    OPT_LAYOUTS = 1 << 29     /* flag (views): the world JSON, layouts only */
};

#define CLI_VIEW_OPTIONS (OPT_VIEW | OPT_WORLD | OPT_PRESET | OPT_PARAM)
/* --param options: more than any preset's keys (16) plus world_size, so
 * the 33rd is a repeat, which the preset refuses anyway. */
#define CLI_MAX_VIEW_PARAMS 32

typedef struct {
    const char *config;
    const char *config_after_dims; /* the --dims value `config` followed */
    const char *mesh;
    const char *order;
    const char *dims[CLI_MAX_DIMS];
    size_t ndims;
    const char *color_by;
    const char *format;
    int64_t world_size; /* 0 = not given */
    int64_t rank;
    int64_t ep;
    int64_t num_experts;
    int64_t ranks_per_host;
    bool has_rank, has_ep, has_num_experts, has_ranks_per_host;
    const char *hierarchy;
    const char *require;
    bool examples;
    int64_t nnodes, nproc_per_node, master_port;
    const char *master_addr;
    const char *hosts;
    const char *prefer;
    const char *priority;
    const char *view;   /* --view NAME */
    const char *world;  /* --world FILE */
    const char *preset; /* --preset NAME */
    const char *params[CLI_MAX_VIEW_PARAMS]; /* --param KEY=VALUE */
    size_t nparams;
    bool strict;        /* --strict */
    bool single_axes;   /* --single-axes */
    bool layouts;       /* --layouts */
} cli_options;

typedef struct {
    FILE *out;
    FILE *err;
} cli_io;

/* Prints "offline-mesh: error: <message>" (one line: any control character
 * or byte that is not UTF-8 left in it is escaped as omu_quote() spells it)
 * and returns `code`. Values the user gave go in through cli_quote(). */
int cli_error(const cli_io *io, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A value the user gave, spelled for a message as the library spells it
 * (omu_quote: in double quotes, escaped, shortened after a whole
 * character). The text lives in `q`; one cli_quoted per value. */
typedef struct {
    char text[96];
} cli_quoted;
const char *cli_quote(cli_quoted *q, const char *value);
/* Reports a library failure (exit status 1). */
int cli_lib_error(const cli_io *io, const om_error *e);

/* Parses argv[first..argc) for a command accepting `allowed` options. */
int cli_parse(const cli_io *io, const char *command, int argc, char **argv,
              int first, unsigned allowed, cli_options *opt);

/* Writes "--a, --b" for the options in `allowed` into buf; returns how many. */
size_t cli_option_names(unsigned allowed, char *buf, size_t size);

/* The mesh a command works on: CONFIG.yaml [--world-size] [--order] or
 * --mesh SPEC (name=size,... or a mesh JSON file). `dims_out` (may be NULL)
 * receives the projected dims when a config was given, else NULL. */
int cli_load_mesh(const cli_io *io, const cli_options *opt, om_mesh **mesh,
                  om_dims **dims_out);
/* The view --view NAME of the world of --world FILE or of --preset NAME
 * --param K=V... (view_source.c); cli_load_mesh() calls it when one of
 * those options is given. */
int cli_load_view(const cli_io *io, const cli_options *opt, om_mesh **mesh);
/* Files are read by name only: "-" (when no file has that name) is
 * refused as standard input, with `option` (may be NULL) in the message. */
int cli_refuse_stdin(const cli_io *io, const char *option, const char *path);
/* Loads the config's dims (exit status on failure). */
int cli_load_dims(const cli_io *io, const cli_options *opt, om_dims **dims);
/* (config_read.c) Projects opt->config with its diagnostics: each one is
 * printed as "offline-mesh: warning: ..." on stderr, or with --strict the
 * read fails (one error line, exit status 1). `dims` may be NULL when only
 * the diagnostics matter (a preset reads the file itself). */
int cli_read_config(const cli_io *io, const cli_options *opt, om_dims **dims);

/* An axis set named on the command line ("dp,cp"): the library resolves
 * and checks the names, the CLI only splits the list. */
typedef struct {
    const char *label;   /* the option value as given, or the axis name */
    const char **names;  /* count names */
    size_t count;
    char *text;          /* owned, split copy of the list */
    const char *single;  /* storage of a one-axis set */
} cli_axis_set;

/* Splits `list` at commas (blanks around names trimmed; "" is the empty
 * set; an empty item is an error naming --option). */
int cli_axis_set_parse(const cli_io *io, const char *option, const char *list,
                       cli_axis_set *set);
/* The set of one axis, borrowing `name`. */
void cli_axis_set_single(const char *name, cli_axis_set *set);
void cli_axis_set_free(cli_axis_set *set);

/* (cmd_topology.c) Writes every group over `axes` as JSON arrays separated
 * by commas (no outer brackets), streamed through `buf` of
 * cli_group_buffer(mesh, group size) ranks; false on a library error (in
 * `e`). Memory stays bounded whatever the group size. */
bool cli_stream_groups(omu_writer *w, const om_mesh *mesh,
                       const cli_axis_set *axes, int32_t *buf, om_error *e);
int64_t cli_group_buffer(const om_mesh *mesh, int64_t size);
/* What cli_stream_groups does for a group of 2^24 ranks or more of a mesh
 * or view: each group's members computed from the modes (om_view_modes),
 * `piece` ranks at a time through `buf` (room for `piece`), not from the
 * library. Its own
 * entry so tests can compare it with the library on small meshes. */
bool cli_stream_groups_in_pieces(omu_writer *w, const om_mesh *mesh,
                                 const cli_axis_set *axes, int64_t piece,
                                 int32_t *buf, om_error *e);

/* Buffered output of a command: cli_writer_start() flushes `io->out` and
 * starts `w` on it; cli_writer_finish() writes the rest out and, when a
 * write failed and `rc` is CLI_OK, reports "cannot write the output" and
 * returns CLI_FAILED (else returns `rc`). */
void cli_writer_start(const cli_io *io, omu_writer *w, char *storage,
                      size_t size);
int cli_writer_finish(const cli_io *io, omu_writer *w, int rc);
/* Flushes `io->out`; when a write failed (now or before), reports "cannot
 * write the output: ..." and returns true. For what a command printed
 * itself before failing on another ground (a check's verdict), so its
 * message does not speak of output nobody got. */
bool cli_output_failed(const cli_io *io);
/* JSON writing to a FILE: strings escaped as the library's canonical JSON. */
void cli_json_string(FILE *out, const char *s);
void cli_json_int_array(FILE *out, const int32_t *values, int64_t count);
/* Writes ["a","b"] for a comma-separated list ("" gives []). */
void cli_json_name_list(FILE *out, const char *csv);
/* Indices of the mesh axes sorted by name (for canonical object keys), in
 * O(n log n); -1 when out of memory. */
int cli_sorted_axes(const om_mesh *mesh, size_t *order);

/* Prints COMMAND --help: usage, summary, each of `options` ("--rank",
 * "CONFIG.yaml") with its value, meaning and default, and the man page. */
void cli_print_command_help(FILE *out, const char *command, const char *usage,
                            const char *summary, const char *const *options,
                            size_t count);

/* Commands. */
int cli_cmd_dims(const cli_io *io, int argc, char **argv);
int cli_cmd_mesh(const cli_io *io, int argc, char **argv);
int cli_cmd_order(const cli_io *io, int argc, char **argv);
int cli_cmd_check(const cli_io *io, int argc, char **argv);
/* The one stderr line of a check whose verdict (on stdout) failed, for
 * check and check --preset alike; returns CLI_FAILED. */
int cli_check_failed(const cli_io *io);
int cli_cmd_groups(const cli_io *io, int argc, char **argv);
int cli_cmd_coord(const cli_io *io, int argc, char **argv);
int cli_cmd_dump(const cli_io *io, int argc, char **argv);
int cli_cmd_experts(const cli_io *io, int argc, char **argv);
int cli_cmd_locality(const cli_io *io, int argc, char **argv);
int cli_cmd_show(const cli_io *io, int argc, char **argv);
int cli_cmd_launch(const cli_io *io, int argc, char **argv);
int cli_cmd_advise(const cli_io *io, int argc, char **argv);

/* locality --hierarchy (cmd_hierarchy.c): the per-level report and the
 * --require rules, for a mesh already loaded. */
int cli_hierarchy_locality(const cli_io *io, const cli_options *opt,
                           const om_mesh *mesh);
/* Loads --hierarchy (a spec with '=' or a file: JSON or hostfile) or, with
 * `option` "--hosts", a hostfile; messages name `option`. */
int cli_load_hierarchy(const cli_io *io, const char *option, const char *value,
                       om_hierarchy **out);

/* ---- framework presets (cmd_views.c) ---- */
#define CLI_MAX_PARAMS CLI_MAX_VIEW_PARAMS /* most --param options */

typedef struct {
    const char *preset;                 /* --preset NAME, or NULL */
    const char *params[CLI_MAX_PARAMS]; /* every --param KEY=VALUE */
    size_t nparams;
    bool world_param;                   /* a --param world_size was given */
} cli_preset_args;

/* Builds the preset (or, with a CONFIG.yaml, the hyper-parallel preset of
 * that file) at --world-size / the world_size
 * parameter / the environment. Exit status on failure. */
int cli_load_preset(const cli_io *io, const cli_preset_args *pa,
                    const cli_options *opt, om_preset **preset);
/* The views command; check with --preset (else cli_cmd_check). */
int cli_cmd_views(const cli_io *io, int argc, char **argv);
int cli_cmd_check_any(const cli_io *io, int argc, char **argv);

#endif
