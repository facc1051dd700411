/* Launch plans: per node, its ranks and each process's launcher
 * environment (torchrun static rendezvous, Slurm, Open MPI). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "launch_internal.h"
#include "offline_mesh/launch.h"

om_status om_launch_format_from_name(const char *name, om_launch_format *format,
                                     om_error *err)
{
    if (!name || !format)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        name ? "format pointer" : "format name");
    static const char *const names[] = {"torchrun", "slurm", "openmpi"};
    for (int i = 0; i < 3; i++)
        if (strcmp(name, names[i]) == 0) {
            *format = (om_launch_format)i;
            return OM_OK;
        }
    char quoted[80];
    omi_quote(quoted, sizeof quoted, name, strlen(name));
    return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                    "unknown launch format %s (torchrun, slurm, openmpi)", quoted);
}

/* A host or address: non-empty UTF-8 without spaces or control bytes. */
#define PLAIN_WORD_RULE \
    "is not a plain host name (empty, not UTF-8, or with blanks, quotes or " \
    "backslashes)"
static bool plain_word(const char *s)
{
    if (!s || !*s || !omi_utf8_valid(s, strlen(s)))
        return false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p <= ' ' || *p == 0x7F || *p == '"' || *p == '\\')
            return false;
    return true;
}

/* The length of `addr` without one pair of enclosing brackets ("[::1]" is
 * "::1" to torchrun and its workers), and where that host starts. */
static size_t torchrun_host(const char *addr, const char **start)
{
    size_t n = strlen(addr);
    *start = addr;
    if (n > 1 && addr[0] == '[' && addr[n - 1] == ']') {
        *start = addr + 1;
        return n - 2;
    }
    return n;
}

static bool torchrun_host_ok(const char *addr)
{
    const char *host;
    size_t n = torchrun_host(addr, &host);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)host[i];
        if (c < 0x80 && !(c == '_' || c == '.' || c == ':' || c == '-' ||
                          (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                          (c >= 'A' && c <= 'Z')))
            return false;
    }
    return n > 0;
}

om_status omi_launch_whole_job(const om_mesh *mesh, om_error *err)
{
    if (mesh->instances == 1 && mesh->offset == 0 && mesh->extent == mesh->size)
        return OM_OK;
    return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                    "the mesh is a view of part of a job (%lld instance%s of %lld "
                    "ranks, ranks %lld..%lld), not ranks 0..N-1 of one: launch the "
                    "job's mesh", (long long)mesh->instances,
                    mesh->instances == 1 ? "" : "s", (long long)mesh->size,
                    (long long)mesh->offset, (long long)(mesh->extent - 1));
}

static om_status check_args(const om_mesh *mesh, int64_t nnodes, int64_t nproc,
                            om_launch_format format, const char *master_addr,
                            int64_t master_port, const char *const *hosts,
                            size_t nhosts, om_error *err)
{
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    om_status st = omi_launch_whole_job(mesh, err);
    if (st != OM_OK)
        return st;
    if (nnodes < 1 || nproc < 1)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "%s must be >= 1, got %lld",
                        nnodes < 1 ? "nnodes" : "nproc_per_node",
                        (long long)(nnodes < 1 ? nnodes : nproc));
    if (nnodes > OMI_MAX_INT32 / nproc || nnodes * nproc != om_mesh_size(mesh))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "the mesh has %lld ranks, not nnodes*nproc_per_node = "
                        "%lld*%lld", (long long)om_mesh_size(mesh),
                        (long long)nnodes, (long long)nproc);
    if ((int)format < 0 || (int)format > OM_LAUNCH_OPENMPI)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "unknown launch format %d",
                        (int)format);
    if (master_addr && *master_addr && !plain_word(master_addr)) {
        char quoted[80];
        omi_quote(quoted, sizeof quoted, master_addr, strlen(master_addr));
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "master address %s " PLAIN_WORD_RULE, quoted);
    }
    /* torchrun's static rendezvous (every case but one node without a
     * port, which runs c10d on localhost) parses "ADDR:PORT" and refuses a
     * host outside [\w.:-] once one pair of IPv6 brackets is dropped
     * (rendezvous.utils.parse_rendezvous_endpoint): the job would not
     * start. Bytes past ASCII are left to torch's Unicode \w. */
    if (format == OM_LAUNCH_TORCHRUN && (nnodes > 1 || master_port != 0) && master_addr &&
        *master_addr && !torchrun_host_ok(master_addr)) {
        char quoted[80];
        omi_quote(quoted, sizeof quoted, master_addr, strlen(master_addr));
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "master address %s is refused by torchrun's static rendezvous "
                        "(letters, digits, '_', '.', ':' and '-' only, an IPv6 address "
                        "in brackets or not)", quoted);
    }
    if (master_port < 0 || master_port > 65535)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "master port %lld is outside 1..65535",
                        (long long)master_port);
    if (nhosts == 0)
        return OM_OK; /* no hosts (bindings pass empty lists as non-NULL) */
    if (!hosts || nhosts != (size_t)nnodes)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "%zu hosts given for %lld nodes", hosts ? nhosts : 0,
                        (long long)nnodes);
    for (size_t k = 0; k < nhosts; k++) {
        if (!plain_word(hosts[k])) {
            char quoted[80];
            omi_quote(quoted, sizeof quoted, hosts[k] ? hosts[k] : "",
                      hosts[k] ? strlen(hosts[k]) : 0);
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "host %zu (%s) " PLAIN_WORD_RULE, k, quoted);
        }
        for (size_t j = 0; j < k; j++)
            if (strcmp(hosts[j], hosts[k]) == 0)
                return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                                "host \"%.60s\" is listed twice (nodes %zu and %zu)",
                                hosts[k], j, k);
    }
    return OM_OK;
}

/* One environment variable of a process. */
typedef struct {
    const char *name;
    char value[64];
    const char *text; /* value when longer than 63 bytes (a host name) */
} env_var;

typedef struct {
    env_var vars[32];
    size_t n;
} env_list;

static void env_int(env_list *e, const char *name, int64_t value)
{
    env_var *v = &e->vars[e->n++];
    v->name = name;
    v->text = NULL;
    snprintf(v->value, sizeof v->value, "%lld", (long long)value);
}

static void env_str(env_list *e, const char *name, const char *value)
{
    env_var *v = &e->vars[e->n++];
    v->name = name;
    v->text = value;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(((const env_var *)a)->name, ((const env_var *)b)->name);
}

typedef struct {
    int64_t nnodes, nproc;
    om_launch_format format;
    const char *master_addr;
    int64_t master_port;
    const char *const *hosts;
    bool master_port_given;
    const int64_t *slurm_nodeid; /* Slurm's number of each node (with hosts) */
} plan_args;

/* What Open MPI 4.1's mpirun sets alike for every process. */
static const char *const openmpi_constants[][2] = {
    {"HFI_NO_BACKTRACE", "1"},
    {"IPATH_NO_BACKTRACE", "1"},
    {"OMPI_FIRST_RANKS", "0"},
    {"OMPI_MCA_ess", "^singleton"},
    {"OMPI_MCA_mpi_oversubscribe", "0"},
    {"OMPI_MCA_orte_app_num", "0"},
    {"OMPI_MCA_orte_bound_at_launch", "1"},
    {"OMPI_MCA_orte_launch", "1"},
    {"OMPI_MCA_pmix", "^s1,s2,cray,isolated"},
    {"OMPI_MCA_shmem_RUNTIME_QUERY_hint", "mmap"},
    {"OMPI_NUM_APP_CTX", "1"},
    {"PMIX_BFROP_BUFFER_TYPE", "PMIX_BFROP_BUFFER_NON_DESC"},
    {"PMIX_GDS_MODULE", "ds21,ds12,hash"},
    {"PMIX_MCA_mca_base_component_show_load_errors", "1"},
    {"PMIX_SECURITY_MODE", "native"},
};
#define OPENMPI_NCONSTANTS (sizeof openmpi_constants / sizeof openmpi_constants[0])

static void process_env(const plan_args *a, int64_t node, int64_t local,
                        env_list *e)
{
    int64_t rank = node * a->nproc + local, world = a->nnodes * a->nproc;
    e->n = 0;
    switch (a->format) {
    case OM_LAUNCH_TORCHRUN:
        /* LocalElasticAgent._start_workers with the static rendezvous. */
        env_int(e, "RANK", rank);
        env_int(e, "LOCAL_RANK", local);
        env_int(e, "GROUP_RANK", node);
        env_int(e, "ROLE_RANK", rank);
        env_str(e, "ROLE_NAME", "default");
        env_int(e, "LOCAL_WORLD_SIZE", a->nproc);
        env_int(e, "WORLD_SIZE", world);
        env_int(e, "GROUP_WORLD_SIZE", a->nnodes);
        env_int(e, "ROLE_WORLD_SIZE", world);
        env_str(e, "MASTER_ADDR", a->master_addr);
        env_int(e, "MASTER_PORT", a->master_port);
        env_str(e, "TORCHELASTIC_RESTART_COUNT", "0");
        env_str(e, "TORCHELASTIC_MAX_RESTARTS", "0");
        env_str(e, "TORCHELASTIC_RUN_ID", "none");
        env_str(e, "TORCHELASTIC_USE_AGENT_STORE", "True");
        env_str(e, "TORCH_NCCL_ASYNC_ERROR_HANDLING", "1");
        /* Set in the launcher's own environment, inherited by workers. */
        env_str(e, "TORCHELASTIC_SIGNALS_TO_HANDLE", "SIGTERM,SIGINT,SIGHUP,SIGQUIT");
        if (a->nproc > 1)
            env_str(e, "OMP_NUM_THREADS", "1");
        break;
    case OM_LAUNCH_SLURM:
        env_int(e, "SLURM_PROCID", rank);
        env_int(e, "SLURM_LOCALID", local);
        env_int(e, "SLURM_NODEID", a->slurm_nodeid ? a->slurm_nodeid[node] : node);
        env_int(e, "SLURM_NTASKS", world);
        env_int(e, "SLURM_NNODES", a->nnodes);
        if (a->hosts)
            env_str(e, "SLURMD_NODENAME", a->hosts[node]);
        break;
    case OM_LAUNCH_OPENMPI:
        /* mpirun --rankfile of Open MPI 4.1 (one app context, the
         * rankfile's N*P slots as the allocation). */
        env_int(e, "OMPI_COMM_WORLD_RANK", rank);
        env_int(e, "OMPI_COMM_WORLD_SIZE", world);
        env_int(e, "OMPI_COMM_WORLD_LOCAL_RANK", local);
        env_int(e, "OMPI_COMM_WORLD_LOCAL_SIZE", a->nproc);
        /* Rank among the node's processes of all app contexts: with one
         * app context, the local rank. */
        env_int(e, "OMPI_COMM_WORLD_NODE_RANK", local);
        env_int(e, "OMPI_UNIVERSE_SIZE", world);
        env_int(e, "OMPI_APP_CTX_NUM_PROCS", world);
        env_int(e, "OMPI_MCA_ess_base_vpid", rank);
        env_int(e, "OMPI_MCA_orte_ess_node_rank", local);
        env_int(e, "OMPI_MCA_orte_ess_num_procs", world);
        env_int(e, "PMIX_RANK", rank);
        for (size_t i = 0; i < OPENMPI_NCONSTANTS; i++)
            env_str(e, openmpi_constants[i][0], openmpi_constants[i][1]);
        break;
    }
    qsort(e->vars, e->n, sizeof e->vars[0], compare_names);
}

static void write_node(omi_buf *b, const plan_args *a, int64_t node)
{
    omi_buf_puts(b, node ? ",{" : "{");
    if (a->hosts) {
        omi_buf_puts(b, "\"host\":");
        omi_buf_json_string(b, a->hosts[node], strlen(a->hosts[node]));
        omi_buf_puts(b, ",");
    }
    omi_buf_puts(b, "\"node_rank\":");
    omi_buf_int(b, node);
    omi_buf_puts(b, ",\"processes\":[");
    env_list e;
    for (int64_t l = 0; l < a->nproc; l++) {
        process_env(a, node, l, &e);
        omi_buf_puts(b, l ? ",{\"env\":{" : "{\"env\":{");
        for (size_t i = 0; i < e.n; i++) {
            const char *v = e.vars[i].text ? e.vars[i].text : e.vars[i].value;
            if (i)
                omi_buf_puts(b, ",");
            omi_buf_json_string(b, e.vars[i].name, strlen(e.vars[i].name));
            omi_buf_puts(b, ":");
            omi_buf_json_string(b, v, strlen(v));
        }
        omi_buf_puts(b, "},\"local_rank\":");
        omi_buf_int(b, l);
        omi_buf_puts(b, ",\"rank\":");
        omi_buf_int(b, node * a->nproc + l);
        omi_buf_puts(b, "}");
    }
    omi_buf_puts(b, "],\"ranks\":[");
    for (int64_t l = 0; l < a->nproc; l++) {
        if (l)
            omi_buf_puts(b, ",");
        omi_buf_int(b, node * a->nproc + l);
    }
    omi_buf_puts(b, "]}");
}

/* The launcher's file, as one JSON string: a Slurm hostfile (one host per
 * rank) or an Open MPI rankfile. */
static void write_file(omi_buf *b, const plan_args *a)
{
    omi_buf text = {0};
    char line[200];
    for (int64_t node = 0; node < a->nnodes; node++)
        for (int64_t l = 0; l < a->nproc; l++) {
            /* Host names have no length limit: written whole, never cut
             * to a line buffer (a cut name is another host). */
            if (a->format == OM_LAUNCH_SLURM) {
                omi_buf_puts(&text, a->hosts[node]);
                omi_buf_puts(&text, "\n");
                continue;
            }
            if (a->hosts) {
                snprintf(line, sizeof line, "rank %lld=",
                         (long long)(node * a->nproc + l));
                omi_buf_puts(&text, line);
                omi_buf_puts(&text, a->hosts[node]);
                snprintf(line, sizeof line, " slot=%lld\n", (long long)l);
            } else {
                snprintf(line, sizeof line, "rank %lld=+n%lld slot=%lld\n",
                         (long long)(node * a->nproc + l), (long long)node,
                         (long long)l);
            }
            omi_buf_puts(&text, line);
        }
    if (text.failed)
        b->failed = true;
    else
        omi_buf_json_string(b, text.data ? text.data : "", text.len);
    omi_free(text.data);
}

/* Slurm's natural order of node names (strnatcmp, which slurmctld sorts its
 * node table by): digit runs compare as numbers, "sn2" before "sn10"; a run
 * with a leading zero compares digit by digit ("n01" before "n1"). Host
 * names have no blanks (check_args), so Slurm's skipping of them does not
 * arise. */
static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static int natural_compare(const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    for (;;) {
        if (is_digit(*x) && is_digit(*y)) {
            const unsigned char *p = x, *q = y;
            int bias = 0;
            if (*x == '0' || *y == '0') { /* left-aligned: first difference */
                for (; is_digit(*p) && is_digit(*q); p++, q++)
                    if (*p != *q)
                        return *p < *q ? -1 : 1;
                if (is_digit(*p) != is_digit(*q))
                    return is_digit(*p) ? 1 : -1;
            } else { /* right-aligned: the longer run, then the first difference */
                for (; is_digit(*p) && is_digit(*q); p++, q++)
                    if (!bias && *p != *q)
                        bias = *p < *q ? -1 : 1;
                if (is_digit(*p) != is_digit(*q))
                    return is_digit(*p) ? 1 : -1;
                if (bias)
                    return bias;
            }
            x = p;
            y = q;
            continue;
        }
        if (*x != *y)
            return *x < *y ? -1 : 1;
        if (!*x)
            return 0;
        x++;
        y++;
    }
}

typedef struct {
    const char *name;
    int64_t node;
} named_node;

static int compare_named(const void *a, const void *b)
{
    return natural_compare(((const named_node *)a)->name, ((const named_node *)b)->name);
}

/* SLURM_NODEID of each node: srun numbers a step's nodes in slurmctld's node
 * order (their names in natural order), not in the hostfile's. */
static om_status slurm_node_ids(const char *const *hosts, int64_t nnodes,
                                int64_t **out, om_error *err)
{
    named_node *sorted = omi_malloc((size_t)nnodes * sizeof *sorted);
    int64_t *ids = omi_malloc((size_t)nnodes * sizeof *ids);
    if (!sorted || !ids) {
        omi_free(sorted);
        omi_free(ids);
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory numbering %lld Slurm nodes",
                        (long long)nnodes);
    }
    for (int64_t k = 0; k < nnodes; k++)
        sorted[k] = (named_node){hosts[k], k};
    qsort(sorted, (size_t)nnodes, sizeof *sorted, compare_named);
    for (int64_t k = 0; k < nnodes; k++)
        ids[sorted[k].node] = k;
    omi_free(sorted);
    *out = ids;
    return OM_OK;
}

/* torchrun's variables whose value the plan does not give, each with the
 * rule torchrun follows (checked against the real torchrun by
 * tests/torchrun/): placeholders {tmpdir} (tempfile.gettempdir() in the
 * launcher: $TMPDIR, $TEMP or $TMP, else /tmp), {random} (8 characters of
 * tempfile.mkdtemp: a-z 0-9 _),
 * {local_rank}, {uuid4} and {free_port}. */
static void write_not_reproduced(omi_buf *b, const plan_args *a)
{
    /* --nnodes 1 without --master-port: torchrun runs a c10d rendezvous on
     * localhost, a free port and a random run id instead of the static one
     * (run.run); the plan keeps the static values it documents. */
    bool c10d = a->nnodes == 1 && !a->master_port_given;
    omi_buf_puts(b, ",\"not_reproduced\":{");
    if (c10d)
        omi_buf_puts(b, "\"MASTER_ADDR\":\"localhost\",\"MASTER_PORT\":\"{free_port}\",");
    omi_buf_puts(b, "\"TORCHELASTIC_ERROR_FILE\":\"{tmpdir}/torchelastic_{random}/");
    omi_buf_puts(b, c10d ? "{uuid4}" : "none");
    omi_buf_puts(b, "_{random}/attempt_0/{local_rank}/error.json\"");
    if (c10d)
        omi_buf_puts(b, ",\"TORCHELASTIC_RUN_ID\":\"{uuid4}\"");
    omi_buf_puts(b, "}");
}

om_status om_launch_plan(const om_mesh *mesh, int64_t nnodes,
                         int64_t nproc_per_node, om_launch_format format,
                         const char *master_addr, int64_t master_port,
                         const char *const *hosts, size_t nhosts, char **out,
                         om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    om_status st = check_args(mesh, nnodes, nproc_per_node, format, master_addr,
                              master_port, hosts, nhosts, err);
    if (st != OM_OK)
        return st;
    plan_args a = {nnodes, nproc_per_node, format,
                   master_addr && *master_addr ? master_addr : "127.0.0.1",
                   master_port ? master_port : 29500, nhosts ? hosts : NULL,
                   master_port != 0, NULL};
    int64_t *nodeid = NULL;
    char *host = NULL;
    const char *start;
    size_t n = torchrun_host(a.master_addr, &start);
    if (format == OM_LAUNCH_TORCHRUN && start != a.master_addr) {
        host = omi_malloc(n + 1);
        if (!host)
            return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory copying the master address");
        memcpy(host, start, n);
        host[n] = '\0';
        a.master_addr = host;
    }
    if (format == OM_LAUNCH_SLURM && a.hosts) {
        st = slurm_node_ids(hosts, nnodes, &nodeid, err);
        if (st != OM_OK)
            return st; /* host is NULL: not torchrun */
        a.slurm_nodeid = nodeid;
    }
    omi_buf b = {0};
    omi_buf_puts(&b, "{");
    if (format == OM_LAUNCH_SLURM && a.hosts) {
        omi_buf_puts(&b, "\"hostfile\":");
        write_file(&b, &a);
        omi_buf_puts(&b, ",");
    }
    omi_buf_puts(&b, "\"nodes\":[");
    for (int64_t node = 0; node < nnodes && !b.failed; node++)
        write_node(&b, &a, node);
    omi_buf_puts(&b, "]");
    if (format == OM_LAUNCH_TORCHRUN)
        write_not_reproduced(&b, &a);
    if (format == OM_LAUNCH_OPENMPI) {
        omi_launch_openmpi_not_reproduced(&b);
        omi_buf_puts(&b, ",\"rankfile\":");
        write_file(&b, &a);
    }
    omi_buf_puts(&b, "}");
    omi_free(nodeid);
    omi_free(host);
    return omi_buf_finish(&b, out, err);
}
