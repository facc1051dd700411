/* Fuzz target: the offline-mesh command line, run in-process through
 * omcli_main().
 *
 * Input: one argument per line (argv[0] is supplied). Each run happens in
 * a scratch directory holding a few files the arguments can name
 * (c.yaml, bad.yaml, m.json, a directory d); arguments containing '/' are
 * not run, so a run never reads devices or files outside it. Calls that
 * produce a mesh are wrapped (ld --wrap): a mesh over 256 ranks is refused
 * with OM_ERR_MESH_TOO_LARGE, which keeps every run fast (the library's
 * large-mesh paths are fuzzed by fuzz_mesh_new).
 * Invariants: the exit status is 0, 1 or 2; failures write one
 * "offline-mesh: error: ..." report to err and succeed silently
 * otherwise; the output of every JSON command is valid JSON (JSON Lines
 * for dump), a mesh printed by "mesh" parses back as a mesh; running the
 * same arguments twice gives identical results (no global state).
 * SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- mesh size limit through ld --wrap ---- */

#define HARNESS_MAX_RANKS 256

static om_status limit(om_status st, om_mesh **out, om_error *err)
{
    if (st != OM_OK || !out || om_mesh_size(*out) <= HARNESS_MAX_RANKS)
        return st;
    int64_t size = om_mesh_size(*out);
    om_mesh_free(*out);
    *out = NULL;
    if (err) {
        err->status = OM_ERR_MESH_TOO_LARGE;
        snprintf(err->message, sizeof err->message,
                 "fuzz harness: mesh of %lld ranks is over %d", (long long)size,
                 HARNESS_MAX_RANKS);
    }
    return OM_ERR_MESH_TOO_LARGE;
}

om_status __real_om_mesh_from_spec(const char *, om_mesh **, om_error *);
om_status __wrap_om_mesh_from_spec(const char *, om_mesh **, om_error *);
om_status __wrap_om_mesh_from_spec(const char *spec, om_mesh **out, om_error *err)
{
    return limit(__real_om_mesh_from_spec(spec, out, err), out, err);
}

om_status __real_om_mesh_load_json(const char *, om_mesh **, om_error *);
om_status __wrap_om_mesh_load_json(const char *, om_mesh **, om_error *);
om_status __wrap_om_mesh_load_json(const char *path, om_mesh **out, om_error *err)
{
    return limit(__real_om_mesh_load_json(path, out, err), out, err);
}

om_status __real_om_mesh_from_dims(const om_dims *, om_mesh **, om_error *);
om_status __wrap_om_mesh_from_dims(const om_dims *, om_mesh **, om_error *);
om_status __wrap_om_mesh_from_dims(const om_dims *dims, om_mesh **out, om_error *err)
{
    return limit(__real_om_mesh_from_dims(dims, out, err), out, err);
}

om_status __real_om_mesh_from_dims_in_order(const om_dims *, const char *,
                                            om_mesh **, om_error *);
om_status __wrap_om_mesh_from_dims_in_order(const om_dims *, const char *,
                                            om_mesh **, om_error *);
om_status __wrap_om_mesh_from_dims_in_order(const om_dims *dims, const char *order,
                                            om_mesh **out, om_error *err)
{
    return limit(__real_om_mesh_from_dims_in_order(dims, order, out, err), out, err);
}

om_status __real_om_mesh_reslice_experts(const om_mesh *, int64_t, int64_t,
                                         om_mesh **, om_error *);
om_status __wrap_om_mesh_reslice_experts(const om_mesh *, int64_t, int64_t,
                                         om_mesh **, om_error *);
om_status __wrap_om_mesh_reslice_experts(const om_mesh *mesh, int64_t ep,
                                         int64_t experts, om_mesh **out,
                                         om_error *err)
{
    return limit(__real_om_mesh_reslice_experts(mesh, ep, experts, out, err), out,
                 err);
}

/* ---- capped capture streams ---- */

typedef struct {
    char *data;
    size_t cap, len, total;
} capture;

static ssize_t capture_write(void *cookie, const char *buf, size_t size)
{
    capture *c = cookie;
    size_t room = c->cap - c->len;
    size_t n = size < room ? size : room;
    memcpy(c->data + c->len, buf, n);
    c->len += n;
    c->total += size;
    return (ssize_t)size;
}

static FILE *capture_open(capture *c, size_t cap)
{
    c->data = malloc(cap + 1);
    c->cap = cap;
    c->len = c->total = 0;
    cookie_io_functions_t fns = {NULL, capture_write, NULL, NULL};
    return fopencookie(c, "w", fns);
}

/* ---- scratch directory ---- */

/* Each run happens inside the scratch directory (chdir in, and back out
 * before libFuzzer writes anything), so libFuzzer's own relative paths
 * (corpus directories, -dict, artifacts) keep meaning what they meant. */
static char scratch[64];
static char home[4096];
static const char *const fixture_files[] = {"c.yaml", "bad.yaml", "m.json"};

static void enter_scratch(void)
{
    if (chdir(scratch) != 0)
        abort();
}

static void leave_scratch(void)
{
    if (chdir(home) != 0)
        abort();
}

static void write_fixture(const char *name, const char *text)
{
    FILE *f = fopen(name, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        perror(name);
        abort();
    }
}

static void remove_scratch(void)
{
    if (chdir(scratch) != 0)
        return;
    for (size_t i = 0; i < 3; i++)
        unlink(fixture_files[i]);
    rmdir("d");
    if (chdir(home) == 0)
        rmdir(scratch);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static const char *const vars[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE",
                                       "PMI_SIZE", "SLURM_NTASKS"};
    for (size_t i = 0; i < 4; i++)
        unsetenv(vars[i]);
    int null = open("/dev/null", O_RDONLY);
    if (null < 0 || dup2(null, 0) < 0)
        abort();
    close(null);
    if (!getcwd(home, sizeof home))
        abort();
    snprintf(scratch, sizeof scratch, "/tmp/om-fuzz-cli-XXXXXX");
    if (!mkdtemp(scratch))
        abort();
    enter_scratch();
    write_fixture("c.yaml", "model: x\naccelerator:\n  tp_size: 2\n  cp_size: 2\n"
                            "  ep_size: 2\n  sequence_parallel: true\n");
    write_fixture("bad.yaml", "accelerator:\n  tp_size: \"2\"\n");
    write_fixture("m.json", "{\"mesh_dim_names\":[\"dp\",\"tp\"],\"mesh_shape\":[2,4]}");
    if (mkdir("d", 0700) != 0)
        abort();
    leave_scratch();
    atexit(remove_scratch);

    /* A crash happens inside the scratch directory: artifact paths are made
     * absolute (relative ones count from where the fuzzer was started),
     * and by default artifacts go there too. */
    static const char *const path_flags[] = {"-artifact_prefix=",
                                             "-exact_artifact_path="};
    char **args = calloc((size_t)*argc + 2, sizeof *args);
    if (!args)
        abort();
    bool has_prefix = false;
    for (int i = 0; i < *argc; i++) {
        args[i] = (*argv)[i];
        for (size_t k = 0; i > 0 && k < 2; k++) {
            size_t n = strlen(path_flags[k]);
            if (strncmp(args[i], path_flags[k], n) != 0)
                continue;
            has_prefix = true;
            if (args[i][n] != '/') {
                size_t size = strlen(home) + strlen(args[i]) + 2;
                char *abs = malloc(size);
                if (!abs)
                    abort();
                snprintf(abs, size, "%s%s/%s", path_flags[k], home, args[i] + n);
                args[i] = abs;
            }
        }
    }
    if (!has_prefix) {
        size_t size = strlen(home) + 20;
        char *prefix = malloc(size);
        if (!prefix)
            abort();
        snprintf(prefix, size, "-artifact_prefix=%s/", home);
        args[(*argc)++] = prefix;
    }
    args[*argc] = NULL;
    *argv = args;
    return 0;
}

/* ---- one run ---- */

#define MAX_ARGS 24
#define OUT_CAP (256 * 1024)
#define ERR_CAP 4096

typedef struct {
    int rc;
    capture out, err;
} result;

static void run(int argc, char **argv, result *r)
{
    FILE *out = capture_open(&r->out, OUT_CAP);
    FILE *err = capture_open(&r->err, ERR_CAP);
    if (!out || !err)
        abort();
    r->rc = omcli_main(argc, argv, out, err);
    fclose(out);
    fclose(err);
    r->out.data[r->out.len] = '\0';
    r->err.data[r->err.len] = '\0';
}

/* Config diagnostics may come first on stderr: every line is
 * "offline-mesh: warning: ...", then, when the command failed, exactly one
 * "offline-mesh: error: ..." line, the last. (A capture cut at ERR_CAP
 * is judged on its complete lines.) */
static bool stderr_well_formed(const capture *err, bool failed)
{
    const char *p = err->data, *end = err->data + err->len;
    bool truncated = err->total > err->len, saw_error = false;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return truncated;
        size_t len = (size_t)(nl - p);
        if (saw_error)
            return false;
        if (len > 23 && strncmp(p, "offline-mesh: warning: ", 23) == 0)
            ;
        else if (failed && len > 21 && strncmp(p, "offline-mesh: error: ", 21) == 0)
            saw_error = true;
        else
            return false;
        p = nl + 1;
    }
    return truncated || saw_error == failed;
}

static bool is_one_of(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return true;
    return false;
}

static void check_json_output(const char *command, const result *r)
{
    static const char *const json_commands[] = {
        "dims", "mesh", "groups", "coord", "experts", "check", "locality",
        "order", NULL};
    json_error_t jerr;
    if (r->out.total > r->out.len)
        return; /* truncated capture */
    if (strcmp(command, "dump") == 0) {
        const char *line = r->out.data;
        while (*line) {
            const char *end = strchr(line, '\n');
            FUZZ_CHECK(end != NULL, "dump: last line lacks a newline");
            json_t *doc = json_loadb(line, (size_t)(end - line), 0, &jerr);
            FUZZ_CHECK(json_is_object(doc), "dump line is not a JSON object: %s",
                       jerr.text);
            json_decref(doc);
            line = end + 1;
        }
        return;
    }
    if (!is_one_of(command, json_commands))
        return;
    json_t *doc = json_loadb(r->out.data, r->out.len, 0, &jerr);
    FUZZ_CHECK(doc != NULL, "%s: output is not JSON (%s): %.200s", command,
               jerr.text, r->out.data);
    json_decref(doc);
    if (strcmp(command, "mesh") == 0) {
        om_mesh *mesh = NULL;
        om_error e;
        size_t len = r->out.len;
        while (len > 0 && r->out.data[len - 1] == '\n')
            len--;
        FUZZ_CHECK(om_mesh_from_json(r->out.data, len, &mesh, &e) == OM_OK,
                   "mesh output does not parse as a mesh: %s", e.message);
        om_mesh_free(mesh);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = strdup("offline-mesh");
    size_t start = 0;
    bool runnable = true;
    for (size_t i = 0; i <= size && argc <= MAX_ARGS; i++) {
        if (i < size && data[i] != '\n')
            continue;
        size_t len = i - start;
        char *arg = malloc(len + 1);
        memcpy(arg, data + start, len);
        arg[len] = '\0';
        /* Paths stay inside the scratch directory. */
        if (strchr(arg, '/'))
            runnable = false;
        argv[argc++] = arg;
        start = i + 1;
    }
    if (size > 0 && data[size - 1] == '\n' && argc > 1 && argv[argc - 1][0] == '\0')
        free(argv[--argc]); /* a trailing newline ends the last argument */
    argv[argc] = NULL;
    if (runnable) {
        result first, second;
        enter_scratch();
        run(argc, argv, &first);
        FUZZ_CHECK(first.rc >= 0 && first.rc <= 2, "exit status %d", first.rc);
        if (first.rc != 0) {
            FUZZ_CHECK(stderr_well_formed(&first.err, true),
                       "status %d with error output \"%s\"", first.rc, first.err.data);
        } else {
            FUZZ_CHECK(stderr_well_formed(&first.err, false),
                       "success with error output \"%s\"", first.err.data);
            bool help = false;
            for (int i = 1; i < argc; i++)
                help = help || is_one_of(argv[i], (const char *const[]){
                                                     "--help", "-h", "help",
                                                     "--version", NULL});
            if (!help && argc > 1)
                check_json_output(argv[1], &first);
        }
        run(argc, argv, &second);
        leave_scratch();
        FUZZ_CHECK(first.rc == second.rc && first.out.total == second.out.total &&
                       first.err.total == second.err.total &&
                       memcmp(first.out.data, second.out.data, first.out.len) == 0 &&
                       strcmp(first.err.data, second.err.data) == 0,
                   "a second run differs (status %d vs %d)", first.rc, second.rc);
        free(first.out.data);
        free(first.err.data);
        free(second.out.data);
        free(second.err.data);
    }
    for (int i = 0; i < argc; i++)
        free(argv[i]);
    return 0;
}
