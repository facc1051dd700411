/* Fuzz target: launch plans (om_launch_plan) and admission checks
 * (om_launch_check) of a small mesh, read back with jansson.
 *
 * Input: byte 0 gives the mesh size (1 + b), bytes 1-2 nnodes and
 * nproc_per_node (b % 10, so 0 and sizes that do not multiply to the mesh
 * occur), byte 3 the format (b % 4: torchrun, slurm, openmpi, an unknown
 * value), byte 4 the master address (addresses[b % 5]) and port
 * (ports[b / 16 % 5]), byte 5 the hosts (b % 4: none, distinct names, a
 * repeated name, an empty one). The rest is a hierarchy spec for the check.
 * Invariants: a refused plan leaves *out NULL with INVALID_ARGUMENT and a
 * valid message, exactly when a documented rule is broken; a plan is JSON
 * with one node per node rank holding ranks K*P .. K*P+P-1, one process
 * per local rank whose environment gives its rank, local rank, node
 * number (Open MPI: its NODE_RANK, the rank among the node's processes)
 * and the world size as the launcher spells them, and the hosts in
 * node order; the check's violation count matches its lines, a size
 * mismatch is always a violation, and without a hierarchy a job of the
 * mesh's size has none.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const addresses[5] = {NULL, "", "10.0.0.1", "node-0.cluster", "a b"};
static const int64_t ports[5] = {0, 29500, 65535, 65536, -1};
static const char *const host_names[8] = {"n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7"};

/* The environment variable of a process that holds `what` for `format`. */
static const char *var(int format, int what)
{
    static const char *const names[3][4] = {
        {"RANK", "LOCAL_RANK", "GROUP_RANK", "WORLD_SIZE"},
        {"SLURM_PROCID", "SLURM_LOCALID", "SLURM_NODEID", "SLURM_NTASKS"},
        /* Open MPI's NODE_RANK is the rank among the node's processes (of
         * all jobs, so the local rank here), not the node's number. */
        {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", NULL, "OMPI_COMM_WORLD_SIZE"},
    };
    return names[format][what];
}

static void expect_env(json_t *env, const char *name, long long want, const char *where)
{
    const char *got = json_string_value(json_object_get(env, name));
    char text[24];
    snprintf(text, sizeof text, "%lld", want);
    FUZZ_CHECK(got && strcmp(got, text) == 0, "%s: %s is %s, want %s", where, name,
               got ? got : "absent", text);
}

static void check_plan(const char *text, int format, int64_t nnodes, int64_t nproc,
                       const char *const *hosts, size_t nhosts)
{
    json_error_t jerr;
    json_t *plan = json_loads(text, 0, &jerr);
    FUZZ_CHECK(plan != NULL, "plan is not JSON: %s", jerr.text);
    json_t *nodes = json_object_get(plan, "nodes");
    FUZZ_CHECK((int64_t)json_array_size(nodes) == nnodes, "%zu nodes, want %lld",
               json_array_size(nodes), (long long)nnodes);
    for (int64_t k = 0; k < nnodes; k++) {
        json_t *node = json_array_get(nodes, (size_t)k);
        FUZZ_CHECK(json_integer_value(json_object_get(node, "node_rank")) == k, "node_rank");
        const char *host = json_string_value(json_object_get(node, "host"));
        FUZZ_CHECK(nhosts ? host && strcmp(host, hosts[k]) == 0 : host == NULL, "node %lld host",
                   (long long)k);
        json_t *ranks = json_object_get(node, "ranks"), *procs = json_object_get(node, "processes");
        FUZZ_CHECK((int64_t)json_array_size(ranks) == nproc &&
                       (int64_t)json_array_size(procs) == nproc,
                   "node %lld: %zu ranks, %zu processes", (long long)k, json_array_size(ranks),
                   json_array_size(procs));
        for (int64_t l = 0; l < nproc; l++) {
            json_t *proc = json_array_get(procs, (size_t)l), *env = json_object_get(proc, "env");
            int64_t rank = k * nproc + l;
            FUZZ_CHECK(json_integer_value(json_array_get(ranks, (size_t)l)) == rank &&
                           json_integer_value(json_object_get(proc, "rank")) == rank &&
                           json_integer_value(json_object_get(proc, "local_rank")) == l,
                       "node %lld process %lld", (long long)k, (long long)l);
            const char *key;
            json_t *value;
            json_object_foreach(env, key, value)
                FUZZ_CHECK(json_is_string(value), "env %s is not a string", key);
            char where[64];
            snprintf(where, sizeof where, "rank %lld", (long long)rank);
            expect_env(env, var(format, 0), rank, where);
            expect_env(env, var(format, 1), l, where);
            if (var(format, 2))
                expect_env(env, var(format, 2), k, where);
            else
                expect_env(env, "OMPI_COMM_WORLD_NODE_RANK", l, where);
            expect_env(env, var(format, 3), nnodes * nproc, where);
        }
    }
    json_decref(plan);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 6)
        return 0;
    int64_t ranks = 1 + data[0], nnodes = data[1] % 10, nproc = data[2] % 10;
    int format = data[3] % 4;
    const char *addr = addresses[data[4] % 5];
    int64_t port = ports[data[4] / 16 % 5];
    const char *hosts[8];
    size_t nhosts = 0;
    if (data[5] % 4 && nnodes >= 1 && nnodes <= 8) {
        nhosts = (size_t)nnodes;
        for (size_t i = 0; i < nhosts; i++)
            hosts[i] = host_names[i];
        if (data[5] % 4 == 2 && nhosts > 1)
            hosts[nhosts - 1] = hosts[0];
        else if (data[5] % 4 == 3)
            hosts[nhosts - 1] = "";
    }
    char spec[256];
    size_t len = size - 6 < sizeof spec - 1 ? size - 6 : sizeof spec - 1;
    memcpy(spec, data + 6, len);
    spec[len] = '\0';

    om_error err;
    om_mesh *mesh = NULL;
    FUZZ_CHECK(om_mesh_new((const char *[]){"w"}, &ranks, 1, &mesh, &err) == OM_OK, "mesh");
    bool valid = nnodes >= 1 && nproc >= 1 && nnodes * nproc == ranks && format < 3 &&
                 port >= 0 && port <= 65535 && !(addr && strchr(addr, ' '));
    bool hosts_ok = nhosts == 0 || (data[5] % 4 == 1 || (data[5] % 4 == 2 && nhosts == 1));
    char *out = (char *)(uintptr_t)1;
    om_status st = om_launch_plan(mesh, nnodes, nproc, (om_launch_format)format, addr, port, hosts,
                                  nhosts, &out, &err);
    if (st != OM_OK) {
        FUZZ_CHECK(out == NULL, "a refused plan left *out set");
        fuzz_check_error("om_launch_plan", st, &err, FUZZ_BIT(OM_ERR_INVALID_ARGUMENT));
        FUZZ_CHECK(!(valid && hosts_ok), "a valid plan refused: %s", err.message);
    } else {
        FUZZ_CHECK(valid && hosts_ok,
                   "an invalid plan written (nnodes %lld, nproc %lld, %lld ranks, format %d)",
                   (long long)nnodes, (long long)nproc, (long long)ranks, format);
        check_plan(out, format, nnodes, nproc, hosts, nhosts);
        om_string_free(out);
    }

    /* The admission check, with a hierarchy from the rest of the input. */
    om_hierarchy *h = NULL;
    if (len && om_hierarchy_from_spec(spec, &h, &err) != OM_OK)
        h = NULL;
    char *violations = NULL;
    size_t count = 99;
    st = om_launch_check(mesh, h, nnodes, nproc, NULL, &violations, &count, &err);
    if (nnodes < 1 || nproc < 1) {
        FUZZ_CHECK(st == OM_ERR_INVALID_ARGUMENT, "check of %lld x %lld gave %d",
                   (long long)nnodes, (long long)nproc, (int)st);
    } else {
        FUZZ_CHECK(st == OM_OK, "check: %s", err.message);
        size_t lines = 0;
        for (const char *p = violations; *p; p++)
            lines += *p == '\n';
        FUZZ_CHECK(lines == count && (count == 0) == (violations[0] == '\0'),
                   "%zu violations in %zu lines", count, lines);
        FUZZ_CHECK(nnodes * nproc == ranks || count >= 1, "a size mismatch admitted");
        FUZZ_CHECK(h != NULL || nnodes * nproc != ranks || count == 0,
                   "a job of matching size without a hierarchy has violations: %s", violations);
        om_string_free(violations);
    }
    om_hierarchy_free(h);
    om_mesh_free(mesh);
    return 0;
}
