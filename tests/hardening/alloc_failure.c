/* Allocation-failure injection: every public call that allocates is run
 * once per allocation it makes, with exactly that allocation failing.
 *
 * Two injectors:
 *  - the library's own hook, omi_alloc_fail_after() (a build with
 *    -Dalloc_failure_injection=true), which fails the n-th allocation made
 *    through omi_malloc/omi_realloc;
 *  - a malloc/calloc/realloc/free interposer defined in this executable,
 *    which sees every heap allocation of the process, including those
 *    jansson, libyaml and libc (fopen) make for the library: jansson's
 *    own allocations fail too (the library gives jansson a per-call pool,
 *    src/json_read.c, so they reach both injectors).
 * After each injected failure the call must return OM_ERR_NO_MEMORY with
 * err filled and every out-handle NULL, or succeed with the same result as
 * without the failure; either way the number of live heap blocks must be
 * what it was before the call (nothing leaked). Calls documented as not
 * allocating must make no allocation at all.
 *
 * Not compatible with sanitizers (they own malloc); leaks are counted by
 * the interposer itself.
 * SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h" /* omi_alloc_fail_after (OM_ALLOC_FAILURE_INJECTION) */

#ifndef OM_ALLOC_FAILURE_INJECTION
#error "build with -DOM_ALLOC_FAILURE_INJECTION against a library built with -Dalloc_failure_injection=true"
#endif

/* ---- the interposer (glibc supports replacing malloc this way) ---- */

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static bool armed;      /* count (and maybe fail) allocations */
static long fail_at = -1; /* index of the allocation to fail, -1: none */
static long counted;    /* allocations seen while armed */
static long live;       /* live blocks, always tracked */

static bool inject(void)
{
    if (!armed)
        return false;
    if (counted++ == fail_at) {
        errno = ENOMEM;
        return true;
    }
    return false;
}

void *malloc(size_t size)
{
    if (inject())
        return NULL;
    void *p = __libc_malloc(size);
    if (p)
        live++;
    return p;
}

void *calloc(size_t n, size_t size)
{
    if (inject())
        return NULL;
    void *p = __libc_calloc(n, size);
    if (p)
        live++;
    return p;
}

void *realloc(void *ptr, size_t size)
{
    if (!ptr)
        return malloc(size);
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    if (inject())
        return NULL;
    return __libc_realloc(ptr, size);
}

void free(void *ptr)
{
    if (ptr)
        live--;
    __libc_free(ptr);
}

/* ---- test bookkeeping ---- */

static int failures;       /* failed checks in this process, this run */
static int call_failures;  /* failing runs of the call being exercised */
static int total_failures; /* failing runs of all calls */
static int checks;
static int crashes;        /* injected runs that ended by a signal */
static char context[160];
static int print_limit = 3; /* failures printed per call (env OM_ALLOC_FAILURE_VERBOSE: all) */

/* Reports a failed check; only the first few of each call are printed. */
static void fail(const char *fmt, ...)
{
    va_list args;
    failures++;
    if (call_failures + failures > print_limit)
        return;
    va_start(args, fmt);
    fprintf(stdout, "FAIL %s: ", context);
    vfprintf(stdout, fmt, args);
    fputc('\n', stdout);
    va_end(args);
}

/* What one call produced. */
typedef struct {
    om_status st;
    om_error err;
    om_mesh *mesh;
    om_dims *dims;
    om_world *world;
    om_hierarchy *hierarchy;
    char *string;
    int64_t value; /* for calls returning a number */
    bool has_mesh, has_dims, has_world, has_hierarchy, has_string;
} result;

typedef void (*call_fn)(result *r);

/* A canonical text of a result, to compare runs. Made unarmed. */
static char *describe(const result *r)
{
    char *text = NULL;
    om_error e;
    if (r->st != OM_OK) {
        text = strdup(r->err.message);
    } else if (r->has_mesh) {
        if (om_mesh_to_json(r->mesh, &text, &e) != OM_OK)
            text = NULL;
        else {
            char *copy = strdup(text);
            om_string_free(text);
            text = copy;
        }
    } else if (r->has_dims) {
        char *json = NULL;
        if (om_dims_to_json(r->dims, &json, &e) == OM_OK) {
            text = strdup(json);
            om_string_free(json);
        }
    } else if (r->has_world || r->has_hierarchy) {
        char *json = NULL;
        if ((r->has_world ? om_world_to_json(r->world, &json, &e)
                          : om_hierarchy_to_json(r->hierarchy, &json, &e)) == OM_OK) {
            text = strdup(json);
            om_string_free(json);
        }
    } else if (r->has_string) {
        text = strdup(r->string);
    } else {
        char buf[32];
        snprintf(buf, sizeof buf, "%lld", (long long)r->value);
        text = strdup(buf);
    }
    return text ? text : strdup("?");
}

static void release(result *r)
{
    if (r->st != OM_OK)
        return;
    if (r->has_mesh)
        om_mesh_free(r->mesh);
    if (r->has_dims)
        om_dims_free(r->dims);
    if (r->has_world)
        om_world_free(r->world);
    if (r->has_hierarchy)
        om_hierarchy_free(r->hierarchy);
    if (r->has_string)
        om_string_free(r->string);
}

static void run_once(call_fn fn, result *r)
{
    memset(r, 0, sizeof *r);
    /* Sentinels a failing call must overwrite with NULL. */
    r->mesh = (om_mesh *)(void *)r;
    r->dims = (om_dims *)(void *)r;
    r->world = (om_world *)(void *)r;
    r->hierarchy = (om_hierarchy *)(void *)r;
    r->string = (char *)r;
    om_error_clear(&r->err);
    fn(r);
}

/* Checks one injected run against the reference description. */
static void check_run(result *r, const char *reference)
{
    if (r->st == OM_OK) {
        char *got = describe(r);
        if (strcmp(got, reference) != 0)
            fail("succeeded with a different result: %.300s (expected %.300s)",
                 got, reference);
        free(got);
        return;
    }
    if (r->st != OM_ERR_NO_MEMORY)
        fail("status %d (%s) instead of OM_ERR_NO_MEMORY: %s", (int)r->st,
             om_status_string(r->st), r->err.message);
    if (r->err.status != r->st)
        fail("err.status %d differs from the returned %d", (int)r->err.status,
             (int)r->st);
    if (r->err.message[0] == '\0')
        fail("empty error message");
    if (r->has_mesh && r->mesh != NULL)
        fail("*out mesh is not NULL after a failure");
    if (r->has_dims && r->dims != NULL)
        fail("*out dims is not NULL after a failure");
    if (r->has_world && r->world != NULL)
        fail("*out world is not NULL after a failure");
    if (r->has_hierarchy && r->hierarchy != NULL)
        fail("*out hierarchy is not NULL after a failure");
    if (r->has_string && r->string != NULL)
        fail("*out string is not NULL after a failure");
}

/* Runs `fn` with every one of its allocations failing in turn. */
static void exercise(const char *name, call_fn fn, bool may_allocate)
{
    result r;
    call_failures = 0;
    failures = 0;
    /* Warm up (libc caches, lazily made state), then take the reference. */
    run_once(fn, &r);
    release(&r);
    run_once(fn, &r);
    snprintf(context, sizeof context, "%s", name);
    if (r.st != OM_OK) {
        fail("fails without injection: %s", r.err.message);
        total_failures += failures;
        return;
    }
    char *reference = describe(&r);
    release(&r);

    /* Count the allocations of one clean run, both ways. */
    long before = live;
    omi_alloc_fail_after(-1);
    armed = true;
    counted = 0;
    fail_at = -1;
    run_once(fn, &r);
    armed = false;
    long total = counted;
    long own = omi_alloc_fail_after(-1);
    release(&r);
    snprintf(context, sizeof context, "%s (clean run)", name);
    if (live != before)
        fail("leaked %ld heap blocks", live - before);
    if (!may_allocate && total != 0)
        fail("documented not to allocate, made %ld allocations", total);
    call_failures = failures;

    /* Each injected run happens in a child process, so a crash (inside a
     * dependency too) is reported as a failure of that run and the rest go
     * on. First the library's own hook, then the heap interposer. */
    long injected = own + total;
    for (long n = 0; n < injected; n++) {
        bool hook = n < own;
        long k = hook ? n : n - own;
        snprintf(context, sizeof context, "%s, %s allocation %ld of %ld", name,
                 hook ? "library" : "heap", k + 1, hook ? own : total);
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            exit(2);
        }
        if (pid == 0) {
            failures = 0;
            before = live;
            if (hook) {
                omi_alloc_fail_after(k);
            } else {
                armed = true;
                counted = 0;
                fail_at = k;
            }
            run_once(fn, &r);
            armed = false;
            fail_at = -1;
            omi_alloc_fail_after(-1);
            check_run(&r, reference);
            release(&r);
            if (live != before)
                fail("leaked %ld heap blocks", live - before);
            _exit(failures > 0 ? 1 : 0);
        }
        int status;
        if (waitpid(pid, &status, 0) < 0) {
            perror("waitpid");
            exit(2);
        }
        checks++;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
            continue;
        call_failures++;
        if (!WIFEXITED(status)) {
            crashes++;
            if (call_failures <= print_limit)
                printf("FAIL %s: crashed (signal %d)\n", context,
                       WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        }
    }
    if (call_failures > print_limit)
        printf("FAIL %s: %d failing runs in all (first %d shown)\n", name,
               call_failures, print_limit);
    printf("%s %-28s %3ld library + %3ld heap allocations failed in turn\n",
           call_failures ? "not ok" : "ok", name, own, injected - own);
    total_failures += call_failures;
    free(reference);
}

/* ---- the calls, with fixed valid inputs ---- */

static om_mesh *mesh_dpcptp; /* built unarmed, shared by the read-only calls */
static om_mesh *mesh_wide;
static om_dims *dims_fixture;
static char yaml_path[64];

static const char *const yaml_text =
    "# a training config\n"
    "model: {name: llama, layers: 32}\n"
    "base: &base\n"
    "  tp_size: 2\n"
    "  sequence_parallel: yes\n"
    "accelerator:\n"
    "  <<: *base\n"
    "  cp_size: 2\n"
    "  pp_size: 2\n"
    "  loss_parallel: On\n";

static void c_mesh_new(result *r)
{
    const char *names[] = {"dp", "cp", "tp"};
    const int64_t sizes[] = {2, 2, 2};
    r->has_mesh = true;
    r->st = om_mesh_new(names, sizes, 3, &r->mesh, &r->err);
}

static void c_mesh_new_wide(result *r)
{
    /* More than 16 axes: the name lengths go to the heap. */
    static const char *const names[20] = {"a0", "a1", "a2", "a3", "a4", "a5", "a6",
                                          "a7", "a8", "a9", "b0", "b1", "b2", "b3",
                                          "b4", "b5", "b6", "b7", "b8", "b9"};
    int64_t sizes[20];
    for (int i = 0; i < 20; i++)
        sizes[i] = 1 + (i % 2);
    r->has_mesh = true;
    r->st = om_mesh_new(names, sizes, 20, &r->mesh, &r->err);
}

static void c_mesh_new_checked(result *r)
{
    const char *names[] = {"dp", "tp"};
    const int64_t sizes[] = {4, 2};
    r->has_mesh = true;
    r->st = om_mesh_new_checked(names, 2, sizes, 2, &r->mesh, &r->err);
}

static void c_mesh_get(result *r)
{
    r->has_mesh = true;
    r->st = om_mesh_get(mesh_dpcptp, "cp", &r->mesh, &r->err);
}

static void c_mesh_get_absent(result *r)
{
    r->has_mesh = true;
    r->st = om_mesh_get(mesh_dpcptp, "ep", &r->mesh, &r->err);
}

static void c_mesh_to_json(result *r)
{
    r->has_string = true;
    r->st = om_mesh_to_json(mesh_wide, &r->string, &r->err);
}

static void c_mesh_from_json(result *r)
{
    static const char text[] =
        "{\"mesh_shape\": [2, 4, 2], \"mesh_dim_names\": [\"dp\", \"\\u00e9p\", \"tp\"]}";
    r->has_mesh = true;
    r->st = om_mesh_from_json(text, sizeof text - 1, &r->mesh, &r->err);
}

static char mesh_json_path[64];

static void c_mesh_load_json(result *r)
{
    r->has_mesh = true;
    r->st = om_mesh_load_json(mesh_json_path, &r->mesh, &r->err);
}

static void c_view_from_json(result *r)
{
    static const char text[] =
        "{\"dim_names\":[\"dp_tp\"],\"instances\":[[0,1,4,5],[2,3,6,7]],"
        "\"layout\":[[[2,4],[2,1]]],\"shape\":[4]}";
    r->has_mesh = true;
    r->st = om_view_from_json(text, sizeof text - 1, &r->mesh, &r->err);
}

static void c_world_from_json(result *r)
{
    static const char text[] =
        "{\"views\":{\"root\":{\"dim_names\":[\"dp\",\"cp\",\"tp\"],"
        "\"layout\":[[[2,4]],[[2,2]],[[2,1]]],\"shape\":[2,2,2]},"
        "\"dp_tp\":{\"dim_names\":[\"dp_tp\"],\"instances\":[[0,1,4,5],"
        "[2,3,6,7]],\"layout\":[[[2,4],[2,1]]],\"shape\":[4]}},"
        "\"world_size\":8}";
    r->has_world = true;
    r->st = om_world_from_json(text, sizeof text - 1, &r->world, &r->err);
}

static void c_hierarchy_from_json(result *r)
{
    static const char text[] =
        "{\"levels\":[\"host\",\"nvl\"],\"ranks\":["
        "{\"rank\":2,\"host\":\"b\",\"nvl\":7},{\"rank\":0,\"host\":\"a\",\"nvl\":7},"
        "{\"rank\":1,\"host\":\"a\",\"nvl\":7},{\"rank\":3,\"host\":\"c\",\"nvl\":9}]}";
    r->has_hierarchy = true;
    r->st = om_hierarchy_from_json(text, sizeof text - 1, &r->hierarchy, &r->err);
}

static void c_mesh_from_spec(result *r)
{
    r->has_mesh = true;
    r->st = om_mesh_from_spec(" pp=2, dp=4 ,tp=8", &r->mesh, &r->err);
}

static void c_mesh_to_spec(result *r)
{
    r->has_string = true;
    r->st = om_mesh_to_spec(mesh_dpcptp, &r->string, &r->err);
}

static void c_dims_new(result *r)
{
    r->has_dims = true;
    r->st = om_dims_new(&r->dims, &r->err);
}

static void c_dims_copy(result *r)
{
    r->has_dims = true;
    r->st = om_dims_copy(dims_fixture, &r->dims, &r->err);
}

static void c_dims_to_json(result *r)
{
    r->has_string = true;
    r->st = om_dims_to_json(dims_fixture, &r->string, &r->err);
}

static void c_build_offline(result *r)
{
    r->has_mesh = true;
    r->st = om_build_offline_mesh(dims_fixture, &r->mesh, &r->err);
}

static void c_build_runtime(result *r)
{
    r->has_mesh = true;
    r->st = om_build_runtime_mesh(dims_fixture, "tp-cp-dp-pp", &r->mesh, &r->err);
}

static void c_order_normalize(result *r)
{
    r->has_string = true;
    r->st = om_order_normalize("tp-cp-ep-dp-pp", &r->string, &r->err);
}

static void c_dims_from_yaml(result *r)
{
    r->has_dims = true;
    r->st = om_dims_from_yaml(yaml_text, strlen(yaml_text), 16, &r->dims, &r->err);
}

static void c_dims_load_yaml(result *r)
{
    r->has_dims = true;
    r->st = om_dims_load_yaml(yaml_path, 16, &r->dims, &r->err);
}

static void c_plan_dim_names(result *r)
{
    r->has_string = true;
    r->st = om_plan_dim_names(mesh_dpcptp, 2, 2, 1, &r->string, &r->err);
}

static void c_expert_mesh(result *r)
{
    r->has_mesh = true;
    r->st = om_expert_mesh(mesh_dpcptp, 4, 8, &r->mesh, &r->err);
}

/* ---- the 1.1 calls: hierarchies, placement rules, launch plans, presets,
 * views and worlds (strings made inside the call count as its allocations) */

static om_hierarchy *hierarchy_fixture; /* host=4,nvl=8 over mesh_dpcptp's 8 ranks */

/* Hands a string result (or the failure) to `r`. */
static void string_result(result *r, om_status st, char *text)
{
    r->has_string = true;
    r->st = st;
    r->string = st == OM_OK ? text : NULL;
}

static void c_hierarchy_from_spec(result *r)
{
    r->has_hierarchy = true;
    r->st = om_hierarchy_from_spec("host=4,nvl=8", &r->hierarchy, &r->err);
}

static void c_hierarchy_from_hostfile(result *r)
{
    static const char text[] = "# two hosts\nn0 slots=4\nn1 slots=4\n";
    r->has_hierarchy = true;
    r->st = om_hierarchy_from_hostfile(text, sizeof text - 1, &r->hierarchy, &r->err);
}

static void c_hierarchy_to_json(result *r)
{
    r->has_string = true;
    r->st = om_hierarchy_to_json(hierarchy_fixture, &r->string, &r->err);
}

static void c_hierarchy_domain_label(result *r)
{
    r->has_string = true;
    r->st = om_hierarchy_domain_label(hierarchy_fixture, 0, 1, &r->string, &r->err);
}

static void c_hierarchy_locality(result *r)
{
    om_locality *loc = (om_locality *)(void *)r; /* a failure must reset it */
    const char *axes[] = {"cp", "tp"};
    r->st = om_hierarchy_locality(mesh_dpcptp, hierarchy_fixture, axes, 2, &loc,
                                  &r->err);
    if (r->st == OM_OK) {
        int64_t crossing = 0;
        r->st = om_locality_get(loc, 0, OM_LOCALITY_GROUPS_CROSSING, &crossing, &r->err);
        r->value = om_locality_groups(loc) * 100 + crossing;
    } else if (loc) {
        snprintf(r->err.message, sizeof r->err.message, "*out locality not reset");
        r->st = OM_ERR_INVALID_ARGUMENT;
        return;
    }
    om_locality_free(loc);
}

static void c_hierarchy_check(result *r)
{
    char *lines = NULL;
    size_t count = 0;
    om_status st = om_hierarchy_check(mesh_dpcptp, hierarchy_fixture,
                                      "tp:host,dp+cp+tp:nvl", &lines, &count, &r->err);
    string_result(r, st, lines);
}

static void c_order_advice(result *r)
{
    char *text = NULL;
    om_status st = om_order_advice(dims_fixture, hierarchy_fixture, "tp:host", NULL,
                                   NULL, &text, &r->err);
    string_result(r, st, text);
}

static void c_order_check(result *r)
{
    char *text = NULL;
    size_t count = 0;
    om_status st = om_order_check(dims_fixture, hierarchy_fixture, "tp-cp-dp-pp",
                                  "tp:host", &text, &count, &r->err);
    string_result(r, st, text);
}

static void c_launch_plan(result *r)
{
    const char *hosts[] = {"n0", "n1"};
    char *text = NULL;
    om_status st = om_launch_plan(mesh_dpcptp, 2, 4, OM_LAUNCH_SLURM, "n0", 29500,
                                  hosts, 2, &text, &r->err);
    string_result(r, st, text);
}

static void c_launch_check(result *r)
{
    char *text = NULL;
    size_t count = 0;
    om_status st = om_launch_check(mesh_dpcptp, hierarchy_fixture, 2, 4, "tp:host",
                                   &text, &count, &r->err);
    string_result(r, st, text);
}

static void c_preset(result *r)
{
    const char *params[] = {"tp=2"};
    om_preset *preset = NULL;
    char *text = NULL;
    om_status st = om_preset_new("torchtitan", params, 1, 8, &preset, &r->err);
    if (st == OM_OK)
        st = om_preset_to_json(preset, &text, &r->err);
    om_preset_free(preset);
    string_result(r, st, text);
}

static void c_preset_world(result *r)
{
    om_preset *preset = NULL;
    om_status st = om_preset_new("megatron", NULL, 0, 16, &preset, &r->err);
    r->has_world = true;
    r->st = st == OM_OK ? om_preset_world(preset, &r->world, &r->err) : st;
    if (st != OM_OK)
        r->world = NULL;
    om_preset_free(preset);
}

static void c_preset_check(result *r)
{
    char *text = NULL;
    om_status st = om_preset_check("torchtitan", NULL, 0, 8, &text, &r->err);
    string_result(r, st, text);
}

static void c_view_ops(result *r)
{
    /* new -> flatten -> unflatten -> slice -> JSON, one chain */
    const char *names[] = {"a", "b"};
    om_mesh *v = NULL, *flat = NULL, *back = NULL, *cut = NULL;
    char *text = NULL;
    om_status st = om_view_new(names, 2, (int64_t[]){3, 2}, 2, (int64_t[]){2, 1}, 2, 4,
                               &v, &r->err);
    if (st == OM_OK)
        st = om_view_flatten(v, names, 2, "ab", &flat, &r->err);
    if (st == OM_OK)
        st = om_view_unflatten(flat, "ab", (int64_t[]){2, 3}, 2,
                               (const char *[]){"x", "y"}, 2, &back, &r->err);
    if (st == OM_OK)
        st = om_view_slice(back, (const char *[]){"y"}, 1, &cut, &r->err);
    if (st == OM_OK)
        st = om_view_to_json(cut, &text, &r->err);
    om_mesh_free(v);
    om_mesh_free(flat);
    om_mesh_free(back);
    om_mesh_free(cut);
    string_result(r, st, text);
}

static void c_world_ops(result *r)
{
    /* new -> view -> slice -> JSON, one chain */
    const char *vnames[] = {"root"};
    const om_mesh *views[] = {mesh_dpcptp};
    om_world *w = NULL;
    om_mesh *root = NULL, *cut = NULL;
    char *text = NULL;
    om_status st = om_world_new(8, vnames, 1, views, 1, &w, &r->err);
    if (st == OM_OK)
        st = om_world_view(w, "root", &root, &r->err);
    if (st == OM_OK)
        st = om_world_slice(w, (const char *[]){"tp", "dp"}, 2, &cut, &r->err);
    if (st == OM_OK)
        st = om_world_to_json(w, &text, &r->err);
    om_mesh_free(root);
    om_mesh_free(cut);
    om_world_free(w);
    string_result(r, st, text);
}

static void c_mesh_plan_axes(result *r)
{
    char *text = NULL;
    om_status st = om_mesh_plan_axes(mesh_dpcptp, 2, 2, 1, &text, &r->err);
    string_result(r, st, text);
}

static void c_mesh_reslice_experts(result *r)
{
    r->has_mesh = true;
    r->st = om_mesh_reslice_experts(mesh_dpcptp, 4, 8, &r->mesh, &r->err);
}

static void c_mesh_from_dims_in_order(result *r)
{
    r->has_mesh = true;
    r->st = om_mesh_from_dims_in_order(dims_fixture, "tp-cp-dp-pp", &r->mesh, &r->err);
}

static void c_dims_parse_yaml(result *r)
{
    r->has_dims = true;
    r->st = om_dims_parse_yaml(yaml_text, strlen(yaml_text), &r->dims, &r->err);
}

/* Calls documented as not allocating (topology.h: "nothing here
 * allocates"; the accessors; world size discovery). */
static void c_topology(result *r)
{
    om_error *e = &r->err;
    int64_t coord[3], rank = 0, count = 0, size = 0, index = 0, a, b, c;
    int32_t groups[8];
    uint64_t mask = 0;
    r->st = om_mesh_axes(mesh_dpcptp, "dp, tp", &mask, e);
    if (r->st == OM_OK)
        r->st = om_mesh_coordinate(mesh_dpcptp, 5, coord, 3, e);
    if (r->st == OM_OK)
        r->st = om_mesh_rank(mesh_dpcptp, coord, 3, &rank, e);
    if (r->st == OM_OK)
        r->st = om_mesh_group_shape(mesh_dpcptp, mask, &count, &size, e);
    if (r->st == OM_OK)
        r->st = om_mesh_groups(mesh_dpcptp, mask, 0, count, groups, 8, e);
    if (r->st == OM_OK)
        r->st = om_mesh_group_index(mesh_dpcptp, mask, 5, &index, e);
    if (r->st == OM_OK)
        r->st = om_mesh_group_of(mesh_dpcptp, mask, 5, groups, 8, e);
    if (r->st == OM_OK)
        r->st = om_mesh_locality(mesh_dpcptp, mask, 2, &a, &b, &c, e);
    if (r->st == OM_OK)
        r->st = om_validate_axes(mesh_dpcptp, 2, 2, 1, e);
    r->value = rank * 1000 + index * 100 + b * 10 + c + (int64_t)mask;
    r->value += om_mesh_size_of(mesh_dpcptp, "tp") + om_mesh_index_of(mesh_dpcptp, "cp");
    r->value += (int64_t)om_mesh_hash(mesh_dpcptp) % 7 + om_mesh_equal(mesh_dpcptp, mesh_wide);
}

static void c_world_size_env(result *r)
{
    bool found = false;
    r->st = om_world_size_from_env(&r->value, &found, &r->err);
}

int main(void)
{
    om_error e;
    setvbuf(stdout, NULL, _IONBF, 0);
    if (getenv("OM_ALLOC_FAILURE_VERBOSE"))
        print_limit = 1 << 30;
    setenv("WORLD_SIZE", "16", 1);
    unsetenv("OMPI_COMM_WORLD_SIZE");
    unsetenv("PMI_SIZE");
    unsetenv("SLURM_NTASKS");
    snprintf(yaml_path, sizeof yaml_path, "/tmp/om-alloc-failure-%ld.yaml",
             (long)getpid());
    FILE *f = fopen(yaml_path, "w");
    if (!f || fputs(yaml_text, f) < 0 || fclose(f) != 0) {
        perror(yaml_path);
        return 2;
    }
    snprintf(mesh_json_path, sizeof mesh_json_path,
             "/tmp/om-alloc-failure-%ld.json", (long)getpid());
    f = fopen(mesh_json_path, "w");
    if (!f || fputs("{\"mesh_dim_names\":[\"dp\",\"tp\"],\"mesh_shape\":[2,4]}", f) < 0 ||
        fclose(f) != 0) {
        perror(mesh_json_path);
        return 2;
    }
    const char *names[] = {"dp", "cp", "tp"};
    const int64_t sizes[] = {2, 2, 2};
    const char *wide_names[] = {"dp", "\xc3\xa9p", "tp"};
    if (om_mesh_new(names, sizes, 3, &mesh_dpcptp, &e) != OM_OK ||
        om_mesh_new(wide_names, sizes, 3, &mesh_wide, &e) != OM_OK ||
        om_dims_new(&dims_fixture, &e) != OM_OK ||
        om_dims_set(dims_fixture, OM_DIM_TP, 2, &e) != OM_OK ||
        om_dims_set(dims_fixture, OM_DIM_CP, 2, &e) != OM_OK ||
        om_dims_set(dims_fixture, OM_DIM_PP, 2, &e) != OM_OK ||
        om_dims_set(dims_fixture, OM_DIM_DP, 4, &e) != OM_OK ||
        om_hierarchy_from_spec("host=4,nvl=8", &hierarchy_fixture, &e) != OM_OK) {
        fprintf(stderr, "fixtures: %s\n", e.message);
        return 2;
    }

    exercise("om_mesh_new", c_mesh_new, true);
    exercise("om_mesh_new (20 axes)", c_mesh_new_wide, true);
    exercise("om_mesh_new_checked", c_mesh_new_checked, true);
    exercise("om_mesh_get", c_mesh_get, true);
    exercise("om_mesh_get (absent axis)", c_mesh_get_absent, true);
    exercise("om_mesh_to_json", c_mesh_to_json, true);
    exercise("om_mesh_from_json", c_mesh_from_json, true);
    exercise("om_mesh_load_json", c_mesh_load_json, true);
    exercise("om_view_from_json", c_view_from_json, true);
    exercise("om_world_from_json", c_world_from_json, true);
    exercise("om_hierarchy_from_json", c_hierarchy_from_json, true);
    exercise("om_mesh_from_spec", c_mesh_from_spec, true);
    exercise("om_mesh_to_spec", c_mesh_to_spec, true);
    exercise("om_dims_new", c_dims_new, true);
    exercise("om_dims_copy", c_dims_copy, true);
    exercise("om_dims_to_json", c_dims_to_json, true);
    exercise("om_build_offline_mesh", c_build_offline, true);
    exercise("om_build_runtime_mesh", c_build_runtime, true);
    exercise("om_order_normalize", c_order_normalize, true);
    exercise("om_dims_from_yaml", c_dims_from_yaml, true);
    exercise("om_dims_load_yaml", c_dims_load_yaml, true);
    exercise("om_plan_dim_names", c_plan_dim_names, true);
    exercise("om_expert_mesh", c_expert_mesh, true);
    exercise("om_hierarchy_from_spec", c_hierarchy_from_spec, true);
    exercise("om_hierarchy_from_hostfile", c_hierarchy_from_hostfile, true);
    exercise("om_hierarchy_to_json", c_hierarchy_to_json, true);
    exercise("om_hierarchy_domain_label", c_hierarchy_domain_label, true);
    exercise("om_hierarchy_locality", c_hierarchy_locality, true);
    exercise("om_hierarchy_check", c_hierarchy_check, true);
    exercise("om_order_advice", c_order_advice, true);
    exercise("om_order_check", c_order_check, true);
    exercise("om_launch_plan", c_launch_plan, true);
    exercise("om_launch_check", c_launch_check, true);
    exercise("om_preset_new + _to_json", c_preset, true);
    exercise("om_preset_world", c_preset_world, true);
    exercise("om_preset_check", c_preset_check, true);
    exercise("om_view_new/flatten/unflatten/slice/to_json", c_view_ops, true);
    exercise("om_world_new/view/slice/to_json", c_world_ops, true);
    exercise("om_mesh_plan_axes", c_mesh_plan_axes, true);
    exercise("om_mesh_reslice_experts", c_mesh_reslice_experts, true);
    exercise("om_mesh_from_dims_in_order", c_mesh_from_dims_in_order, true);
    exercise("om_dims_parse_yaml", c_dims_parse_yaml, true);
    exercise("topology and accessors", c_topology, false);
    exercise("om_world_size_from_env", c_world_size_env, false);

    om_mesh_free(mesh_dpcptp);
    om_mesh_free(mesh_wide);
    om_dims_free(dims_fixture);
    om_hierarchy_free(hierarchy_fixture);
    unlink(yaml_path);
    unlink(mesh_json_path);
    printf("allocation failures: %d injected runs, %d failed, %d crashed\n",
           checks, total_failures, crashes);
    return total_failures ? 1 : 0;
}
