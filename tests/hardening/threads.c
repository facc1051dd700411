/* Thread safety: many threads run the public API at once on shared,
 * immutable handles (a mesh, a dims handle nobody writes, shared input
 * texts) and on handles of their own, and compare every result with the
 * one the main thread computed alone. Meant for a ThreadSanitizer build
 * (clang -fsanitize=thread, library built with -Db_sanitize=thread), where
 * any data race is a failure; it also checks results in any build.
 *
 * The rules it exercises are those of docs/hardening.md: a mesh is
 * immutable and every call taking `const om_mesh *` may run concurrently;
 * dims getters may run concurrently, setters need exclusive access (each
 * thread writes only its own dims); errors travel in the caller's
 * om_error, so concurrent failures never mix their messages; the YAML
 * functions only read the environment.
 * SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "offline_mesh.h"

#define THREADS 8
#define ROUNDS 200

static const om_mesh *shared_mesh;
static const om_dims *shared_dims;
static pthread_barrier_t start;

static const char yaml_text[] =
    "base: &base {tp_size: 2, sequence_parallel: on}\n"
    "accelerator:\n"
    "  <<: *base\n"
    "  cp_size: 2\n"
    "  pp_size: 2\n";
static const char json_text[] =
    "{\"mesh_dim_names\":[\"dp\",\"cp\",\"tp\"],\"mesh_shape\":[4,2,8]}";

/* What the main thread computed alone. */
static struct {
    char json[256];
    char spec[256];
    char dims_json[256];
    char runtime_json[256];
    char plan[256];
    char expert_json[256];
    char error_tp[OM_ERROR_MESSAGE_SIZE];
    char error_yaml[OM_ERROR_MESSAGE_SIZE];
    char error_env[OM_ERROR_MESSAGE_SIZE];
    uint64_t hash;
    int32_t groups[64];
    int64_t local, most;
} ref;

static int failed_checks; /* written under `report_lock` */
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(int thread, const char *fmt, ...)
{
    va_list args;
    pthread_mutex_lock(&report_lock);
    if (failed_checks++ < 10) {
        va_start(args, fmt);
        printf("FAIL thread %d: ", thread);
        vprintf(fmt, args);
        putchar('\n');
        va_end(args);
    }
    pthread_mutex_unlock(&report_lock);
}

#define CHECK(thread, cond, ...)                                              \
    do {                                                                      \
        if (!(cond))                                                          \
            fail(thread, __VA_ARGS__);                                        \
    } while (0)

static void copy_out(char *dst, size_t size, char *owned)
{
    snprintf(dst, size, "%s", owned ? owned : "(null)");
    om_string_free(owned);
}

/* One round of everything; `thread` < 0 fills `ref` instead of checking. */
static void round_trip(int thread, om_dims *own)
{
    om_error err;
    char *s = NULL;
    char buf[256];
    bool filling = thread < 0;
    const om_mesh *m = shared_mesh;

    /* Accessors and topology on the shared mesh. */
    CHECK(thread, om_mesh_ndim(m) == 3 && om_mesh_size(m) == 64 &&
                      strcmp(om_mesh_name(m, 1), "cp") == 0 &&
                      om_mesh_size_of(m, "tp") == 8 && om_mesh_size_of(m, "ep") == 1 &&
                      om_mesh_index_of(m, "tp") == 2,
          "accessors");
    if (filling)
        ref.hash = om_mesh_hash(m);
    CHECK(thread, om_mesh_hash(m) == ref.hash, "hash");
    uint64_t mask = 0;
    int64_t coord[3], rank = -1, count = 0, size = 0, index = -1, a = 0, b = 0, c = 0;
    int32_t groups[64], members[8];
    CHECK(thread, om_mesh_axes(m, "dp, cp", &mask, &err) == OM_OK && mask == 3,
          "axes");
    CHECK(thread, om_mesh_coordinate(m, 45, coord, 3, &err) == OM_OK &&
                      coord[0] == 2 && coord[1] == 1 && coord[2] == 5,
          "coordinate");
    CHECK(thread, om_mesh_rank(m, coord, 3, &rank, &err) == OM_OK && rank == 45, "rank");
    CHECK(thread, om_mesh_group_shape(m, mask, &count, &size, &err) == OM_OK &&
                      count == 8 && size == 8,
          "group shape");
    CHECK(thread, om_mesh_groups(m, mask, 0, 8, groups, 64, &err) == OM_OK, "groups");
    if (filling)
        memcpy(ref.groups, groups, sizeof groups);
    CHECK(thread, memcmp(groups, ref.groups, sizeof groups) == 0, "groups differ");
    CHECK(thread, om_mesh_group_index(m, mask, 45, &index, &err) == OM_OK && index == 5,
          "group index");
    CHECK(thread, om_mesh_group_of(m, mask, 45, members, 8, &err) == OM_OK &&
                      memcmp(members, groups + 5 * 8, sizeof members) == 0,
          "group of");
    CHECK(thread, om_mesh_locality(m, mask, 8, &a, &b, &c, &err) == OM_OK && a == 8,
          "locality");
    if (filling) {
        ref.local = b;
        ref.most = c;
    }
    CHECK(thread, b == ref.local && c == ref.most, "locality differs");

    /* Serialisation of the shared mesh, parsing of shared text. */
    CHECK(thread, om_mesh_to_json(m, &s, &err) == OM_OK, "to_json");
    copy_out(buf, sizeof buf, s);
    if (filling)
        snprintf(ref.json, sizeof ref.json, "%s", buf);
    CHECK(thread, strcmp(buf, ref.json) == 0, "to_json differs: %s", buf);
    om_mesh *parsed = NULL;
    CHECK(thread, om_mesh_from_json(json_text, sizeof json_text - 1, &parsed, &err) ==
                          OM_OK &&
                      om_mesh_equal(parsed, m),
          "from_json");
    om_mesh_free(parsed);
    CHECK(thread, om_mesh_to_spec(m, &s, &err) == OM_OK, "to_spec");
    copy_out(buf, sizeof buf, s);
    if (filling)
        snprintf(ref.spec, sizeof ref.spec, "%s", buf);
    CHECK(thread, strcmp(buf, ref.spec) == 0, "to_spec differs");
    CHECK(thread, om_mesh_from_spec(ref.spec, &parsed, &err) == OM_OK &&
                      om_mesh_equal(parsed, m),
          "from_spec");
    om_mesh_free(parsed);
    om_mesh *sub = NULL;
    CHECK(thread, om_mesh_get(m, "tp", &sub, &err) == OM_OK && om_mesh_size(sub) == 8,
          "get");
    om_mesh_free(sub);

    /* Planner checks. */
    CHECK(thread, om_validate_axes(m, 8, 2, 1, &err) == OM_OK, "validate");
    CHECK(thread, om_plan_dim_names(m, 8, 2, 1, &s, &err) == OM_OK, "plan names");
    copy_out(buf, sizeof buf, s);
    if (filling)
        snprintf(ref.plan, sizeof ref.plan, "%s", buf);
    CHECK(thread, strcmp(buf, ref.plan) == 0, "plan names differ");
    om_mesh *experts = NULL;
    CHECK(thread, om_expert_mesh(m, 8, 16, &experts, &err) == OM_OK, "expert mesh");
    CHECK(thread, om_mesh_to_json(experts, &s, &err) == OM_OK, "expert json");
    om_mesh_free(experts);
    copy_out(buf, sizeof buf, s);
    if (filling)
        snprintf(ref.expert_json, sizeof ref.expert_json, "%s", buf);
    CHECK(thread, strcmp(buf, ref.expert_json) == 0, "expert mesh differs");

    /* Shared dims: getters and builders only. */
    CHECK(thread, om_dims_get(shared_dims, OM_DIM_TP) == 2 &&
                      om_dims_get_flag(shared_dims, OM_FLAG_SEQUENCE_PARALLEL),
          "dims getters");
    CHECK(thread, om_dims_to_json(shared_dims, &s, &err) == OM_OK, "dims json");
    copy_out(buf, sizeof buf, s);
    if (filling)
        snprintf(ref.dims_json, sizeof ref.dims_json, "%s", buf);
    CHECK(thread, strcmp(buf, ref.dims_json) == 0, "dims json differs");
    om_mesh *built = NULL;
    CHECK(thread, om_build_runtime_mesh(shared_dims, "tp-cp-dp-pp", &built, &err) == OM_OK,
          "runtime mesh");
    CHECK(thread, om_mesh_to_json(built, &s, &err) == OM_OK, "runtime json");
    om_mesh_free(built);
    copy_out(buf, sizeof buf, s);
    if (filling)
        snprintf(ref.runtime_json, sizeof ref.runtime_json, "%s", buf);
    CHECK(thread, strcmp(buf, ref.runtime_json) == 0, "runtime mesh differs");
    CHECK(thread, om_build_offline_mesh(shared_dims, &built, &err) == OM_OK &&
                      om_mesh_size(built) == 16,
          "offline mesh");
    om_mesh_free(built);

    /* A thread's own dims: copies and setters. */
    om_dims *copy = NULL;
    CHECK(thread, om_dims_copy(shared_dims, &copy, &err) == OM_OK &&
                      om_dims_equal(copy, shared_dims),
          "dims copy");
    om_dims_free(copy);
    int64_t mine = thread < 0 ? 1 : thread + 1;
    CHECK(thread, om_dims_set(own, OM_DIM_TP, mine, &err) == OM_OK &&
                      om_dims_get(own, OM_DIM_TP) == mine,
          "own dims");

    /* YAML projection of shared text (the world size from the caller and
     * from the environment, which nobody writes meanwhile). */
    om_dims *projected = NULL;
    CHECK(thread, om_dims_from_yaml(yaml_text, sizeof yaml_text - 1, 16, &projected,
                                    &err) == OM_OK &&
                      om_dims_equal(projected, shared_dims),
          "dims from yaml");
    om_dims_free(projected);
    CHECK(thread, om_dims_from_yaml(yaml_text, sizeof yaml_text - 1, 0, &projected,
                                    &err) == OM_OK &&
                      om_dims_equal(projected, shared_dims),
          "dims from yaml with WORLD_SIZE");
    om_dims_free(projected);

    /* Failures: each message travels in the caller's om_error. */
    om_error e1, e2, e3;
    CHECK(thread, om_validate_axes(m, 4, 1, 1, &e1) == OM_ERR_INVALID_ARGUMENT,
          "validate failure");
    CHECK(thread, om_dims_from_yaml("accelerator: {tp_size: \"8\"}", 27, 8, &projected,
                                    &e2) == OM_ERR_PARSE && projected == NULL,
          "yaml failure");
    int64_t ws;
    bool found;
    CHECK(thread, om_world_size_from_env(&ws, &found, &e3) == OM_OK && found && ws == 16,
          "world size");
    CHECK(thread, om_mesh_coordinate(m, 64 + (thread < 0 ? 0 : thread), coord, 3, &e3) ==
                      OM_ERR_OUT_OF_RANGE,
          "coordinate failure");
    if (filling) {
        snprintf(ref.error_tp, sizeof ref.error_tp, "%s", e1.message);
        snprintf(ref.error_yaml, sizeof ref.error_yaml, "%s", e2.message);
    }
    CHECK(thread, strcmp(e1.message, ref.error_tp) == 0, "validate message: %s",
          e1.message);
    CHECK(thread, strcmp(e2.message, ref.error_yaml) == 0, "yaml message: %s",
          e2.message);
    snprintf(buf, sizeof buf, "rank %d is outside the mesh of 64 ranks",
             64 + (thread < 0 ? 0 : thread));
    CHECK(thread, strcmp(e3.message, buf) == 0, "own message mixed up: %s", e3.message);
    CHECK(thread, strcmp(om_status_string(OM_ERR_PARSE), "parse error") == 0 &&
                      strcmp(om_version_string(), OM_VERSION_STRING) == 0,
          "static strings");
}

static void *worker(void *arg)
{
    int thread = (int)(intptr_t)arg;
    om_dims *own = NULL;
    om_error err;
    if (om_dims_new(&own, &err) != OM_OK) {
        fail(thread, "dims_new: %s", err.message);
        return NULL;
    }
    pthread_barrier_wait(&start);
    for (int i = 0; i < ROUNDS; i++)
        round_trip(thread, own);
    CHECK(thread, om_dims_get(own, OM_DIM_TP) == thread + 1, "own dims changed");
    om_dims_free(own);
    return NULL;
}

int main(void)
{
    om_error err;
    om_mesh *mesh = NULL;
    om_dims *dims = NULL, *scratch = NULL;
    setenv("WORLD_SIZE", "16", 1);
    if (om_mesh_from_json(json_text, sizeof json_text - 1, &mesh, &err) != OM_OK ||
        om_dims_from_yaml(yaml_text, sizeof yaml_text - 1, 16, &dims, &err) != OM_OK ||
        om_dims_new(&scratch, &err) != OM_OK) {
        fprintf(stderr, "fixtures: %s\n", err.message);
        return 2;
    }
    shared_mesh = mesh;
    shared_dims = dims;
    round_trip(-1, scratch); /* fills ref */
    if (failed_checks) {
        printf("the single-threaded reference run failed\n");
        return 1;
    }
    pthread_t threads[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (int t = 0; t < THREADS; t++)
        if (pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t) != 0) {
            perror("pthread_create");
            return 2;
        }
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    pthread_barrier_destroy(&start);
    om_mesh_free(mesh);
    om_dims_free(dims);
    om_dims_free(scratch);
    printf("threads: %d threads x %d rounds, %d failed checks\n", THREADS, ROUNDS,
           failed_checks);
    return failed_checks ? 1 : 0;
}
