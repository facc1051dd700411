/* Option parsing for every subcommand: "--opt value" and "--opt=value".
 * Hand-written instead of getopt_long so it keeps no global state (the
 * fuzzer and the tests call it many times in one process). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli_internal.h"
#include "util.h"

int cli_error(const cli_io *io, int code, const char *fmt, ...)
{
    char text[2048], line[2048];
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1;
    /* Values come in quoted; this keeps whatever else reached the message
     * (a library message, an option name) on one harmless line. */
    omu_quote(line, sizeof line, text, len, 0);
    fprintf(io->err, "offline-mesh: error: %s\n", line);
    return code;
}

const char *cli_quote(cli_quoted *q, const char *value)
{
    omu_quote(q->text, sizeof q->text, value, value ? strlen(value) : 0, '"');
    if (!value)
        snprintf(q->text, sizeof q->text, "(none)");
    return q->text;
}

int cli_lib_error(const cli_io *io, const om_error *e)
{
    return cli_error(io, CLI_FAILED, "%s", e->message);
}

typedef struct {
    const char *name;
    unsigned flag;
} option_spec;

static const option_spec options[] = {
    {"world-size", OPT_WORLD_SIZE}, {"order", OPT_ORDER},
    {"mesh", OPT_MESH},             {"dims", OPT_DIMS},
    {"rank", OPT_RANK},             {"ep", OPT_EP},
    {"num-experts", OPT_NUM_EXPERTS}, {"ranks-per-host", OPT_RANKS_PER_HOST},
    {"color-by", OPT_COLOR_BY},     {"format", OPT_FORMAT},
    {"hierarchy", OPT_HIERARCHY},   {"require", OPT_REQUIRE},
    {"examples", OPT_EXAMPLES},     {"nnodes", OPT_NNODES},
    {"nproc-per-node", OPT_NPROC},  {"master-addr", OPT_MASTER_ADDR},
    {"master-port", OPT_MASTER_PORT}, {"hosts", OPT_HOSTS},
    {"prefer", OPT_PREFER},         {"priority", OPT_PRIORITY},
    {"view", OPT_VIEW},             {"world", OPT_WORLD},
    {"preset", OPT_PRESET},         {"param", OPT_PARAM},
    {"strict", OPT_STRICT},         {"single-axes", OPT_SINGLE_AXES},
    {"layouts", OPT_LAYOUTS},
};

/* Options that take no value. */
static bool is_flag(unsigned flag)
{
    return flag == OPT_EXAMPLES || flag == OPT_STRICT || flag == OPT_SINGLE_AXES ||
           flag == OPT_LAYOUTS;
}

#define COUNT_MAX INT64_C(2147483647)

/* A decimal integer in [min, max] (max at most COUNT_MAX). Text that is no
 * integer is a usage error (exit 2); an integer out of range is a bad
 * value (exit 1), like a rank outside the mesh. */
static int parse_count(const cli_io *io, const char *option, const char *text,
                       int64_t min, int64_t max, int64_t *value)
{
    cli_quoted q;
    const char *p = text;
    bool negative = *p == '-';
    int64_t v = 0;
    if (*p == '+' || *p == '-')
        p++;
    bool digits = *p != '\0';
    bool huge = false;
    for (; *p && digits; p++) {
        digits = *p >= '0' && *p <= '9';
        if (digits && !huge)
            v = v * 10 + (*p - '0');
        huge = huge || v > COUNT_MAX;
    }
    if (!digits)
        return cli_error(io, CLI_USAGE,
                         "--%s needs an integer, got %s (from %lld to %lld)",
                         option, cli_quote(&q, text), (long long)min,
                         (long long)max);
    /* From here the text is a sign and digits: shown as is. */
    bool below = (negative && (huge || v > 0)) || (!huge && v < min);
    bool above = !negative && (huge || v > max);
    if ((below || above) && max < COUNT_MAX)
        return cli_error(io, CLI_FAILED, "--%s must be %lld..%lld, got %.40s%s",
                         option, (long long)min, (long long)max, text,
                         strlen(text) > 40 ? "..." : "");
    if (below)
        return cli_error(io, CLI_FAILED, "--%s must be >= %lld, got %.40s%s", option,
                         (long long)min, text, strlen(text) > 40 ? "..." : "");
    if (above)
        return cli_error(io, CLI_FAILED, "--%s %.40s%s exceeds 2147483647", option,
                         text, strlen(text) > 40 ? "..." : "");
    *value = v;
    return CLI_OK;
}

static int store(const cli_io *io, unsigned flag, const char *name,
                 const char *value, unsigned allowed, cli_options *opt)
{
    switch (flag) {
    case OPT_WORLD_SIZE:
        return parse_count(io, name, value, 1, COUNT_MAX, &opt->world_size);
    case OPT_ORDER:
        opt->order = value;
        return CLI_OK;
    case OPT_MESH:
        opt->mesh = value;
        return CLI_OK;
    case OPT_DIMS:
        if (opt->ndims > 0 && !(allowed & OPT_DIMS_MANY))
            return cli_error(io, CLI_USAGE, "--dims given twice");
        if (opt->ndims == CLI_MAX_DIMS)
            return cli_error(io, CLI_USAGE, "--dims given more than %d times",
                             CLI_MAX_DIMS);
        opt->dims[opt->ndims++] = value;
        return CLI_OK;
    case OPT_RANK:
        opt->has_rank = true;
        return parse_count(io, name, value, 0, COUNT_MAX, &opt->rank);
    case OPT_EP:
        opt->has_ep = true;
        return parse_count(io, name, value, 1, COUNT_MAX, &opt->ep);
    case OPT_NUM_EXPERTS:
        opt->has_num_experts = true;
        return parse_count(io, name, value, 1, COUNT_MAX, &opt->num_experts);
    case OPT_RANKS_PER_HOST:
        opt->has_ranks_per_host = true;
        return parse_count(io, name, value, 1, COUNT_MAX, &opt->ranks_per_host);
    case OPT_COLOR_BY:
        opt->color_by = value;
        return CLI_OK;
    case OPT_FORMAT:
        opt->format = value;
        return CLI_OK;
    case OPT_HIERARCHY:
        opt->hierarchy = value;
        return CLI_OK;
    case OPT_REQUIRE:
        opt->require = value;
        return CLI_OK;
    case OPT_EXAMPLES:
        opt->examples = true;
        return CLI_OK;
    case OPT_STRICT:
        opt->strict = true;
        return CLI_OK;
    case OPT_SINGLE_AXES:
        opt->single_axes = true;
        return CLI_OK;
    case OPT_LAYOUTS:
        opt->layouts = true;
        return CLI_OK;
    case OPT_NNODES:
        return parse_count(io, name, value, 1, COUNT_MAX, &opt->nnodes);
    case OPT_NPROC:
        return parse_count(io, name, value, 1, COUNT_MAX, &opt->nproc_per_node);
    case OPT_MASTER_ADDR:
        opt->master_addr = value;
        return CLI_OK;
    case OPT_MASTER_PORT:
        return parse_count(io, name, value, 1, INT64_C(65535), &opt->master_port);
    case OPT_HOSTS:
        opt->hosts = value;
        return CLI_OK;
    case OPT_PREFER:
        opt->prefer = value;
        return CLI_OK;
    case OPT_PRIORITY:
        opt->priority = value;
        return CLI_OK;
    case OPT_VIEW:
        opt->view = value;
        return CLI_OK;
    case OPT_WORLD:
        opt->world = value;
        return CLI_OK;
    case OPT_PRESET:
        opt->preset = value;
        return CLI_OK;
    case OPT_PARAM:
        if (!strchr(value, '=') || value[0] == '=') {
            cli_quoted q;
            return cli_error(io, CLI_USAGE, "--param needs KEY=VALUE, got %s",
                             cli_quote(&q, value));
        }
        if (opt->nparams == CLI_MAX_VIEW_PARAMS)
            return cli_error(io, CLI_USAGE, "more than %d --param options",
                             CLI_MAX_VIEW_PARAMS);
        opt->params[opt->nparams++] = value;
        return CLI_OK;
    }
    return cli_error(io, CLI_USAGE, "internal: unhandled option");
}

size_t cli_option_names(unsigned allowed, char *buf, size_t size)
{
    size_t o = 0, count = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < sizeof options / sizeof options[0]; k++) {
        if (!(allowed & options[k].flag))
            continue;
        int n = snprintf(buf + o, size - o, "%s--%s", count ? ", " : "",
                         options[k].name);
        if (n < 0 || (size_t)n >= size - o)
            break;
        o += (size_t)n;
        count++;
    }
    return count;
}

/* Names the options `command` does take, so the fix is in the message. */
static int unknown_option(const cli_io *io, const char *command, const char *arg,
                          size_t len, unsigned allowed)
{
    char shown[96], valid[512];
    omu_quote(shown, sizeof shown, arg, len, '"');
    if (cli_option_names(allowed, valid, sizeof valid) == 0)
        return cli_error(io, CLI_USAGE, "unknown option %s: '%s' takes no options",
                         shown, command);
    return cli_error(io, CLI_USAGE, "unknown option %s for '%s' (it takes %s)",
                     shown, command, valid);
}

/* Whether `arg` is "--NAME" or "--NAME=..." for an option of any command
 * (or --help). */
static bool names_option(const char *arg)
{
    if (strncmp(arg, "--", 2) != 0)
        return false;
    size_t len = strcspn(arg + 2, "=");
    if (len == 4 && strncmp(arg + 2, "help", 4) == 0)
        return true;
    for (size_t k = 0; k < sizeof options / sizeof options[0]; k++)
        if (strlen(options[k].name) == len && strncmp(options[k].name, arg + 2, len) == 0)
            return true;
    return false;
}

int cli_parse(const cli_io *io, const char *command, int argc, char **argv,
              int first, unsigned allowed, cli_options *opt)
{
    memset(opt, 0, sizeof *opt);
    if (allowed & OPT_CONFIG)
        allowed |= OPT_STRICT;
    unsigned seen = 0;
    bool only_positional = false;
    const char *last_dims = NULL; /* the --dims value just read, if any */
    for (int i = first; i < argc; i++) {
        const char *arg = argv[i];
        if (!arg)
            return cli_error(io, CLI_USAGE, "argument %d is missing", i);
        if (!only_positional && strcmp(arg, "--") == 0) {
            only_positional = true;
            continue;
        }
        if (only_positional || arg[0] != '-' || arg[1] == '\0') {
            unsigned slot = allowed & (OPT_CONFIG | OPT_AXES_ARG);
            cli_quoted q, q_dims, q_joined;
            if (!slot)
                return cli_error(io, CLI_USAGE,
                                 "'%s' takes no argument, got %s (options only; "
                                 "see offline-mesh %s --help)",
                                 command, cli_quote(&q, arg), command);
            if (opt->config && last_dims) {
                char joined[256];
                snprintf(joined, sizeof joined, "%s,%s", last_dims, arg);
                return cli_error(io, CLI_USAGE,
                                 "extra %s after --dims %s: an axis set is one "
                                 "comma-separated value (--dims %s)",
                                 cli_quote(&q, arg), cli_quote(&q_dims, last_dims),
                                 cli_quote(&q_joined, joined));
            }
            if (opt->config)
                return cli_error(io, CLI_USAGE,
                                 "'%s' takes one argument; extra %s", command,
                                 cli_quote(&q, arg));
            opt->config = arg;
            opt->config_after_dims = last_dims;
            last_dims = NULL;
            continue;
        }
        if (arg[1] != '-')
            return unknown_option(io, command, arg, strlen(arg), allowed);
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t name_len = eq ? (size_t)(eq - name) : strlen(name);
        const option_spec *spec = NULL;
        for (size_t k = 0; k < sizeof options / sizeof options[0]; k++)
            if (strlen(options[k].name) == name_len &&
                memcmp(options[k].name, name, name_len) == 0)
                spec = &options[k];
        if (!spec || !(allowed & spec->flag))
            return unknown_option(io, command, arg, name_len + 2, allowed);
        if ((seen & spec->flag) && spec->flag != OPT_DIMS && spec->flag != OPT_PARAM)
            return cli_error(io, CLI_USAGE, "--%s given twice", spec->name);
        seen |= spec->flag;
        const char *value = eq ? eq + 1 : NULL;
        if (is_flag(spec->flag)) {
            if (value)
                return cli_error(io, CLI_USAGE, "--%s takes no value", spec->name);
            value = "";
        } else if (!value) {
            if (i + 1 >= argc || !argv[i + 1])
                return cli_error(io, CLI_USAGE, "--%s needs a value", spec->name);
            value = argv[++i];
            /* "--mesh --dims tp": the value was forgotten, and taking
             * "--dims" for it would blame "tp" instead. */
            if (names_option(value)) {
                cli_quoted q;
                return cli_error(io, CLI_USAGE,
                                 "--%s needs a value, got the option %s (give "
                                 "--%s=VALUE for a value starting with --)",
                                 spec->name, cli_quote(&q, value), spec->name);
            }
        }
        last_dims = spec->flag == OPT_DIMS ? value : NULL;
        int rc = store(io, spec->flag, spec->name, value, allowed, opt);
        if (rc != CLI_OK)
            return rc;
    }
    return CLI_OK;
}

/* ---- axis sets named on the command line ---- */

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

int cli_axis_set_parse(const cli_io *io, const char *option, const char *list,
                       cli_axis_set *set)
{
    memset(set, 0, sizeof *set);
    set->label = list;
    size_t len = strlen(list), items = 1;
    for (size_t i = 0; i < len; i++)
        items += list[i] == ',';
    set->text = malloc(len + 1);
    set->names = malloc(items * sizeof *set->names);
    if (!set->text || !set->names) {
        cli_axis_set_free(set);
        return cli_error(io, CLI_FAILED, "out of memory");
    }
    memcpy(set->text, list, len + 1);
    if (list[strspn(list, " \t")] == '\0')
        return CLI_OK; /* "" names the empty set */
    /* Split at commas, trimming blanks around each name; the library
     * checks the names themselves. */
    char *p = set->text;
    for (;;) {
        char *end = strchr(p, ',');
        if (end)
            *end = '\0';
        while (is_blank(*p))
            p++;
        size_t n = strlen(p);
        while (n > 0 && is_blank(p[n - 1]))
            p[--n] = '\0';
        if (n == 0) {
            cli_quoted q;
            int rc = cli_error(io, CLI_FAILED,
                               "--%s: axis list %s has an empty item (names are "
                               "separated by single commas, e.g. dp,tp)",
                               option, cli_quote(&q, list));
            cli_axis_set_free(set);
            return rc;
        }
        set->names[set->count++] = p;
        if (!end)
            return CLI_OK;
        p = end + 1;
    }
}

void cli_axis_set_single(const char *name, cli_axis_set *set)
{
    memset(set, 0, sizeof *set);
    set->label = name;
    set->single = name;
    set->names = &set->single;
    set->count = 1;
}

void cli_axis_set_free(cli_axis_set *set)
{
    free(set->text);
    if (set->names != &set->single)
        free(set->names);
    memset(set, 0, sizeof *set);
}
