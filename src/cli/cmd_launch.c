/* offline-mesh launch: the per-node plan of a job after its admission
 * check (every violation printed, exit 1). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_internal.h"

/* Launch plans printed whole: the largest clusters have some 10^4 hosts
 * and 10^5 GPUs, so beyond these a plan is refused naming the limit
 * (and, for processes, the value). */
#define CLI_MAX_HOSTS 65536
#define CLI_MAX_LAUNCH_PROCESSES (1 << 22)

typedef struct {
    char *text;                       /* owned storage of the names */
    const char *names[CLI_MAX_HOSTS];
    size_t count;
} host_list;

/* "a,b,c" in node-rank order. */
static int split_hosts(const cli_io *io, const char *value, host_list *hosts)
{
    hosts->text = strdup(value);
    if (!hosts->text)
        return cli_error(io, CLI_FAILED, "out of memory");
    for (char *p = hosts->text;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (hosts->count == CLI_MAX_HOSTS)
            return cli_error(io, CLI_USAGE, "--hosts names more than %d hosts",
                             CLI_MAX_HOSTS);
        hosts->names[hosts->count++] = p;
        if (!comma)
            return CLI_OK;
        p = comma + 1;
    }
}

/* Hosts of a hostfile, advised order: file order, kept stable, with the
 * hosts of each domain of the slower levels made consecutive (slowest
 * level first), so a node rank never depends on host-name sorting and
 * neighbouring node ranks share their NVLink domain or rack. */
static int hostfile_hosts(const cli_io *io, const char *path, host_list *hosts)
{
    om_hierarchy *h;
    int rc = cli_load_hierarchy(io, "--hosts", path, &h);
    if (rc != CLI_OK)
        return rc;
    om_error e;
    int64_t nranks = om_hierarchy_ranks(h);
    size_t levels = om_hierarchy_levels(h);
    /* First rank of each host (hosts are numbered in file order). */
    int64_t *first = malloc((size_t)nranks * sizeof *first);
    int64_t *key = malloc((size_t)nranks * levels * sizeof *key);
    size_t *order = malloc((size_t)nranks * sizeof *order);
    size_t total = 0;
    if (!first || !key || !order)
        rc = cli_error(io, CLI_FAILED, "out of memory");
    for (int64_t r = 0; rc == CLI_OK && r < nranks; r++) {
        int64_t d;
        if (om_hierarchy_domain_of(h, 0, r, &d, &e) != OM_OK)
            rc = cli_lib_error(io, &e);
        else if ((size_t)d == total) {
            first[total] = r;
            for (size_t l = 1; l < levels && rc == CLI_OK; l++)
                if (om_hierarchy_domain_of(h, l, r, &key[total * levels + l], &e) !=
                    OM_OK)
                    rc = cli_lib_error(io, &e);
            order[total] = total;
            total++;
        }
    }
    /* Insertion sort: stable, by the slowest level's domain first. */
    for (size_t i = 1; rc == CLI_OK && i < total; i++) {
        size_t j = i, cur = order[i];
        for (; j > 0; j--) {
            size_t prev = order[j - 1];
            int cmp = 0;
            for (size_t l = levels; l-- > 1 && cmp == 0;)
                cmp = (key[prev * levels + l] > key[cur * levels + l]) -
                      (key[prev * levels + l] < key[cur * levels + l]);
            if (cmp <= 0)
                break;
            order[j] = prev;
        }
        order[j] = cur;
    }
    size_t bytes = 0;
    char **labels = rc == CLI_OK ? calloc(total ? total : 1, sizeof *labels) : NULL;
    if (rc == CLI_OK && !labels)
        rc = cli_error(io, CLI_FAILED, "out of memory");
    for (size_t k = 0; rc == CLI_OK && k < total; k++) {
        if (om_hierarchy_domain_label(h, 0, (int64_t)order[k], &labels[k], &e) != OM_OK)
            rc = cli_lib_error(io, &e);
        else
            bytes += strlen(labels[k]) + 1;
    }
    if (rc == CLI_OK && total > CLI_MAX_HOSTS)
        rc = cli_error(io, CLI_USAGE, "the hostfile lists more than %d hosts",
                       CLI_MAX_HOSTS);
    if (rc == CLI_OK && !(hosts->text = malloc(bytes ? bytes : 1)))
        rc = cli_error(io, CLI_FAILED, "out of memory");
    for (size_t k = 0, o = 0; rc == CLI_OK && k < total; k++) {
        size_t n = strlen(labels[k]) + 1;
        memcpy(hosts->text + o, labels[k], n);
        hosts->names[hosts->count++] = hosts->text + o;
        o += n;
    }
    for (size_t k = 0; labels && k < total; k++)
        om_string_free(labels[k]);
    free(labels);
    free(first);
    free(key);
    free(order);
    om_hierarchy_free(h);
    return rc;
}

static int load_hosts(const cli_io *io, const char *value, host_list *hosts)
{
    /* stat, not fopen: fopen can fail for lack of memory, and a hostfile
     * must then not be taken for one host name. */
    struct stat info;
    if (!strchr(value, ',') && stat(value, &info) == 0)
        return hostfile_hosts(io, value, hosts);
    return split_hosts(io, value, hosts);
}

static void print_lines(const cli_io *io, const char *lines)
{
    for (const char *p = lines; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        cli_error(io, CLI_FAILED, "%.*s", (int)len, p);
        p += len + (eol ? 1 : 0);
    }
}

static int plan(const cli_io *io, const cli_options *opt, const om_mesh *mesh,
                const host_list *hosts)
{
    om_error e;
    om_launch_format format = OM_LAUNCH_TORCHRUN;
    if (opt->format && om_launch_format_from_name(opt->format, &format, &e) != OM_OK)
        return cli_error(io, CLI_USAGE, "--format: %s", e.message);
    om_hierarchy *h = NULL;
    int rc = opt->hierarchy ? cli_load_hierarchy(io, "--hierarchy", opt->hierarchy, &h) : CLI_OK;
    char *violations = NULL;
    size_t count = 0;
    if (rc == CLI_OK &&
        om_launch_check(mesh, h, opt->nnodes, opt->nproc_per_node, opt->require,
                        &violations, &count, &e) != OM_OK)
        rc = cli_lib_error(io, &e);
    if (rc == CLI_OK && count > 0) {
        print_lines(io, violations);
        rc = CLI_FAILED;
    }
    om_string_free(violations);
    om_hierarchy_free(h);
    char *json = NULL;
    if (rc == CLI_OK &&
        om_launch_plan(mesh, opt->nnodes, opt->nproc_per_node, format,
                       opt->master_addr, opt->master_port,
                       hosts->count ? hosts->names : NULL, hosts->count, &json,
                       &e) != OM_OK)
        rc = cli_lib_error(io, &e);
    if (rc == CLI_OK) {
        fputs(json, io->out);
        fputc('\n', io->out);
    }
    om_string_free(json);
    return rc;
}

int cli_cmd_launch(const cli_io *io, int argc, char **argv)
{
    cli_options opt;
    int rc = cli_parse(io, "launch", argc, argv, 2,
                       OPT_CONFIG | OPT_WORLD_SIZE | OPT_ORDER | OPT_MESH |
                           OPT_NNODES | OPT_NPROC | OPT_FORMAT | OPT_MASTER_ADDR |
                           OPT_MASTER_PORT | OPT_HOSTS | OPT_HIERARCHY | OPT_REQUIRE,
                       &opt);
    if (rc != CLI_OK)
        return rc;
    if (!opt.nnodes || !opt.nproc_per_node)
        return cli_error(io, CLI_USAGE,
                         "'launch' needs --nnodes N and --nproc-per-node P");
    /* The library reads "" as its default; on a command line it is an
     * unset shell variable, not 127.0.0.1. */
    if (opt.master_addr && !*opt.master_addr)
        return cli_error(io, CLI_FAILED, "--master-addr is empty (leave it out "
                         "for 127.0.0.1)");
    /* The plan is built whole in memory (about 1 KB a process): refuse what
     * no machine holds instead of running out of memory late. */
    if (opt.nnodes * opt.nproc_per_node > CLI_MAX_LAUNCH_PROCESSES)
        return cli_error(io, CLI_FAILED,
                         "a launch plan of %lld processes (--nnodes %lld x "
                         "--nproc-per-node %lld) is over the limit of %d",
                         (long long)(opt.nnodes * opt.nproc_per_node),
                         (long long)opt.nnodes, (long long)opt.nproc_per_node,
                         CLI_MAX_LAUNCH_PROCESSES);
    om_mesh *mesh;
    rc = cli_load_mesh(io, &opt, &mesh, NULL);
    if (rc != CLI_OK)
        return rc;
    host_list *hosts = calloc(1, sizeof *hosts);
    if (!hosts)
        rc = cli_error(io, CLI_FAILED, "out of memory");
    else if (opt.hosts)
        rc = load_hosts(io, opt.hosts, hosts);
    if (rc == CLI_OK)
        rc = plan(io, &opt, mesh, hosts);
    if (hosts)
        free(hosts->text);
    free(hosts);
    om_mesh_free(mesh);
    return rc;
}
