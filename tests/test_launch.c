/* Launch plans (torchrun, Slurm, Open MPI) and admission checks.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_test.h"

static char *plan(const char *mesh_spec, int64_t nnodes, int64_t nproc,
                  om_launch_format format, const char *addr, int64_t port,
                  const char *const *hosts, size_t nhosts)
{
    om_mesh *mesh = om_test_mesh(mesh_spec);
    char *json = NULL;
    om_error err;
    om_test_poison(&err);
    OM_EXPECT_OK(om_launch_plan(mesh, nnodes, nproc, format, addr, port, hosts,
                                nhosts, &json, &err), &err);
    OM_EXPECT(om_test_is_poisoned(&err));
    om_mesh_free(mesh);
    return json;
}

static void test_torchrun_single_process_nodes(void)
{
    char *json = plan("dp=2", 2, 1, OM_LAUNCH_TORCHRUN, NULL, 0, NULL, 0);
    /* One process per node: torchrun leaves OMP_NUM_THREADS alone. */
    OM_EXPECT_STR(json,
        "{\"nodes\":[{\"node_rank\":0,\"processes\":[{\"env\":{"
        "\"GROUP_RANK\":\"0\",\"GROUP_WORLD_SIZE\":\"2\",\"LOCAL_RANK\":\"0\","
        "\"LOCAL_WORLD_SIZE\":\"1\",\"MASTER_ADDR\":\"127.0.0.1\","
        "\"MASTER_PORT\":\"29500\",\"RANK\":\"0\",\"ROLE_NAME\":\"default\","
        "\"ROLE_RANK\":\"0\",\"ROLE_WORLD_SIZE\":\"2\","
        "\"TORCHELASTIC_MAX_RESTARTS\":\"0\",\"TORCHELASTIC_RESTART_COUNT\":\"0\","
        "\"TORCHELASTIC_RUN_ID\":\"none\","
        "\"TORCHELASTIC_SIGNALS_TO_HANDLE\":\"SIGTERM,SIGINT,SIGHUP,SIGQUIT\","
        "\"TORCHELASTIC_USE_AGENT_STORE\":\"True\","
        "\"TORCH_NCCL_ASYNC_ERROR_HANDLING\":\"1\",\"WORLD_SIZE\":\"2\"},"
        "\"local_rank\":0,\"rank\":0}],\"ranks\":[0]},"
        "{\"node_rank\":1,\"processes\":[{\"env\":{"
        "\"GROUP_RANK\":\"1\",\"GROUP_WORLD_SIZE\":\"2\",\"LOCAL_RANK\":\"0\","
        "\"LOCAL_WORLD_SIZE\":\"1\",\"MASTER_ADDR\":\"127.0.0.1\","
        "\"MASTER_PORT\":\"29500\",\"RANK\":\"1\",\"ROLE_NAME\":\"default\","
        "\"ROLE_RANK\":\"1\",\"ROLE_WORLD_SIZE\":\"2\","
        "\"TORCHELASTIC_MAX_RESTARTS\":\"0\",\"TORCHELASTIC_RESTART_COUNT\":\"0\","
        "\"TORCHELASTIC_RUN_ID\":\"none\","
        "\"TORCHELASTIC_SIGNALS_TO_HANDLE\":\"SIGTERM,SIGINT,SIGHUP,SIGQUIT\","
        "\"TORCHELASTIC_USE_AGENT_STORE\":\"True\","
        "\"TORCH_NCCL_ASYNC_ERROR_HANDLING\":\"1\",\"WORLD_SIZE\":\"2\"},"
        "\"local_rank\":0,\"rank\":1}],\"ranks\":[1]}],"
        "\"not_reproduced\":{\"TORCHELASTIC_ERROR_FILE\":"
        "\"{tmpdir}/torchelastic_{random}/none_{random}/attempt_0/{local_rank}/"
        "error.json\"}}");
    om_string_free(json);
}

static void test_torchrun_master_and_hosts(void)
{
    const char *hosts[] = {"node66", "node7"};
    char *json = plan("dp=2,tp=4", 2, 4, OM_LAUNCH_TORCHRUN, "10.0.0.1", 1234,
                      hosts, 2);
    OM_EXPECT(strstr(json, "{\"host\":\"node7\",\"node_rank\":1,") != NULL);
    OM_EXPECT(strstr(json, "\"MASTER_ADDR\":\"10.0.0.1\",\"MASTER_PORT\":\"1234\","
                           "\"OMP_NUM_THREADS\":\"1\",\"RANK\":\"6\"") != NULL);
    OM_EXPECT(strstr(json, "\"local_rank\":2,\"rank\":6}") != NULL);
    OM_EXPECT(strstr(json, "\"ranks\":[4,5,6,7]}],\"not_reproduced\":{"
                           "\"TORCHELASTIC_ERROR_FILE\":") != NULL);
    om_string_free(json);
}

/* srun numbers a step's nodes as slurmctld orders its node table: by name in
 * natural order (digit runs as numbers; a run with a leading zero digit by
 * digit), whatever the hostfile's order (tests/slurm/ has srun's values). */
static void test_slurm_node_ids_follow_natural_name_order(void)
{
    const char *hosts[] = {"sn10", "sn2", "n01", "n1", "n001", "sn02", "r2n1", "r10n1"};
    const int want[] = {7, 6, 1, 2, 0, 5, 3, 4};
    char *json = plan("dp=8", 8, 1, OM_LAUNCH_SLURM, NULL, 0, hosts, 8);
    for (int k = 0; k < 8 && json; k++) {
        char env[200];
        snprintf(env, sizeof env,
                 "{\"env\":{\"SLURMD_NODENAME\":\"%s\",\"SLURM_LOCALID\":\"0\","
                 "\"SLURM_NNODES\":\"8\",\"SLURM_NODEID\":\"%d\",", hosts[k], want[k]);
        OM_EXPECT(strstr(json, env) != NULL);
    }
    om_string_free(json);
    /* Without hosts, node K is the allocation's K-th node in that order. */
    json = plan("dp=2", 2, 1, OM_LAUNCH_SLURM, NULL, 0, NULL, 0);
    OM_EXPECT(json && strstr(json, "\"node_rank\":1,\"processes\":[{\"env\":{"
                                   "\"SLURM_LOCALID\":\"0\",\"SLURM_NNODES\":\"2\","
                                   "\"SLURM_NODEID\":\"1\",") != NULL);
    om_string_free(json);
}

/* torchrun hands the workers an IPv6 master address without its brackets
 * (the static rendezvous parses "[::1]:PORT"); other hosts stay whole. */
static void test_torchrun_ipv6_master_address(void)
{
    char *json = plan("dp=4", 2, 2, OM_LAUNCH_TORCHRUN, "[::1]", 29514, NULL, 0);
    OM_EXPECT(json && strstr(json, "\"MASTER_ADDR\":\"::1\",") != NULL);
    OM_EXPECT(json && strstr(json, "[::1]") == NULL);
    om_string_free(json);
    const char *whole[] = {"::1", "node_0.example-1", "LOCALHOST"};
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
        char want[64];
        json = plan("dp=4", 2, 2, OM_LAUNCH_TORCHRUN, whole[i], 0, NULL, 0);
        snprintf(want, sizeof want, "\"MASTER_ADDR\":\"%s\",", whole[i]);
        OM_EXPECT(json && strstr(json, want) != NULL);
        om_string_free(json);
    }
}

static void test_slurm_and_openmpi(void)
{
    const char *hosts[] = {"b", "a"};
    char *json = plan("dp=2,tp=2", 2, 2, OM_LAUNCH_SLURM, NULL, 0, hosts, 2);
    OM_EXPECT(strncmp(json, "{\"hostfile\":\"b\\nb\\na\\na\\n\",\"nodes\":", 35) == 0);
    /* Node 1 runs on "a", which srun numbers first (names in order). */
    OM_EXPECT(strstr(json, "{\"env\":{\"SLURMD_NODENAME\":\"a\",\"SLURM_LOCALID\":\"1\","
                           "\"SLURM_NNODES\":\"2\",\"SLURM_NODEID\":\"0\","
                           "\"SLURM_NTASKS\":\"4\",\"SLURM_PROCID\":\"3\"},"
                           "\"local_rank\":1,\"rank\":3}") != NULL);
    om_string_free(json);
    json = plan("dp=2,tp=2", 2, 2, OM_LAUNCH_SLURM, NULL, 0, NULL, 0);
    OM_EXPECT(strstr(json, "hostfile") == NULL);
    OM_EXPECT(strstr(json, "SLURMD_NODENAME") == NULL);
    om_string_free(json);
    json = plan("dp=2,tp=2", 2, 2, OM_LAUNCH_OPENMPI, NULL, 0, NULL, 0);
    OM_EXPECT(strstr(json, ",\"rankfile\":\"rank 0=+n0 slot=0\\nrank 1=+n0 slot=1\\n"
                           "rank 2=+n1 slot=0\\nrank 3=+n1 slot=1\\n\"}") != NULL);
    /* Every variable is checked against mpirun by test_launch_openmpi. */
    OM_EXPECT(strstr(json, "\"OMPI_APP_CTX_NUM_PROCS\":\"4\","
                           "\"OMPI_COMM_WORLD_LOCAL_RANK\":\"1\","
                           "\"OMPI_COMM_WORLD_LOCAL_SIZE\":\"2\","
                           "\"OMPI_COMM_WORLD_NODE_RANK\":\"1\","
                           "\"OMPI_COMM_WORLD_RANK\":\"3\","
                           "\"OMPI_COMM_WORLD_SIZE\":\"4\",") != NULL);
    OM_EXPECT(strstr(json, "\"OMPI_UNIVERSE_SIZE\":\"4\","
                           "\"PMIX_BFROP_BUFFER_TYPE\":\"PMIX_BFROP_BUFFER_NON_DESC\","
                           "\"PMIX_GDS_MODULE\":\"ds21,ds12,hash\","
                           "\"PMIX_MCA_mca_base_component_show_load_errors\":\"1\","
                           "\"PMIX_RANK\":\"3\"") != NULL);
    OM_EXPECT(strstr(json, "\"not_reproduced\":{\"OMPI_ARGV\":\"{args}\",") != NULL);
    om_string_free(json);
    json = plan("dp=2,tp=2", 2, 2, OM_LAUNCH_OPENMPI, NULL, 0, hosts, 2);
    OM_EXPECT(strstr(json, "rank 3=a slot=1\\n") != NULL);
    om_string_free(json);
}

static void test_plan_errors(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,tp=2");
    char *json = (char *)&json;
    om_error err;
    const char *dup[] = {"a", "a"}, *space[] = {"a b", "c"}, *one[] = {"a"};
    OM_EXPECT_ERR(om_launch_plan(mesh, 3, 2, OM_LAUNCH_TORCHRUN, NULL, 0, NULL, 0,
                                 &json, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "the mesh has 4 ranks, not nnodes*nproc_per_node = 3*2");
    OM_EXPECT(json == NULL);
    OM_EXPECT_ERR(om_launch_plan(mesh, 0, 2, OM_LAUNCH_TORCHRUN, NULL, 0, NULL, 0,
                                 &json, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "nnodes must be >= 1, got 0");
    OM_EXPECT_ERR(om_launch_plan(mesh, 2, 2, OM_LAUNCH_TORCHRUN, "a b", 0, NULL, 0,
                                 &json, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "master address \"a b\"");
    /* torchrun's static rendezvous refuses these hosts (tests/torchrun has
     * "[::1]", which it takes as ::1). */
    const char *refused[] = {"fe80::1%eth0", "a/b", "[]", "[::1", "x]", "h@x"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, "master address \"%s\" is refused by torchrun", refused[i]);
        OM_EXPECT_ERR(om_launch_plan(mesh, 2, 2, OM_LAUNCH_TORCHRUN, refused[i], 0, NULL, 0,
                                     &json, &err), &err, OM_ERR_INVALID_ARGUMENT, want);
        OM_EXPECT(json == NULL);
        /* One node with a port is static too. */
        OM_EXPECT_ERR(om_launch_plan(mesh, 1, 4, OM_LAUNCH_TORCHRUN, refused[i], 1234, NULL,
                                     0, &json, &err), &err, OM_ERR_INVALID_ARGUMENT, want);
    }
    /* One node without a port runs c10d on localhost: the address is unused;
     * and the other launchers never read it. */
    OM_EXPECT_OK(om_launch_plan(mesh, 1, 4, OM_LAUNCH_TORCHRUN, "a/b", 0, NULL, 0, &json,
                                &err), &err);
    om_string_free(json);
    OM_EXPECT_OK(om_launch_plan(mesh, 2, 2, OM_LAUNCH_SLURM, "a/b", 0, NULL, 0, &json,
                                &err), &err);
    om_string_free(json);
    OM_EXPECT_ERR(om_launch_plan(mesh, 2, 2, OM_LAUNCH_TORCHRUN, NULL, 70000, NULL,
                                 0, &json, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "master port 70000");
    OM_EXPECT_ERR(om_launch_plan(mesh, 2, 2, OM_LAUNCH_TORCHRUN, NULL, 0, dup, 2,
                                 &json, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "host \"a\" is listed twice (nodes 0 and 1)");
    OM_EXPECT_ERR(om_launch_plan(mesh, 2, 2, OM_LAUNCH_TORCHRUN, NULL, 0, space, 2,
                                 &json, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "host 0 (\"a b\")");
    OM_EXPECT_ERR(om_launch_plan(mesh, 2, 2, OM_LAUNCH_TORCHRUN, NULL, 0, one, 1,
                                 &json, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "1 hosts given for 2 nodes");
    OM_EXPECT_ERR(om_launch_plan(mesh, 2, 2, (om_launch_format)3, NULL, 0, NULL, 0,
                                 &json, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "unknown launch format 3");
    OM_EXPECT_ERR(om_launch_plan(NULL, 2, 2, OM_LAUNCH_TORCHRUN, NULL, 0, NULL, 0,
                                 &json, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "mesh is NULL");
    OM_EXPECT_ERR(om_launch_plan(mesh, 2, 2, OM_LAUNCH_TORCHRUN, NULL, 0, NULL, 0,
                                 NULL, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "out pointer is NULL");
    om_launch_format f = OM_LAUNCH_TORCHRUN;
    OM_EXPECT_OK(om_launch_format_from_name("openmpi", &f, &err), &err);
    OM_EXPECT_INT(f, OM_LAUNCH_OPENMPI);
    OM_EXPECT_ERR(om_launch_format_from_name("mpich", &f, &err), &err,
                  OM_ERR_INVALID_ARGUMENT,
                  "unknown launch format \"mpich\" (torchrun, slurm, openmpi)");
    OM_EXPECT_ERR(om_launch_format_from_name(NULL, &f, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    om_mesh_free(mesh);
}

/* A plan places a whole job. A view of part of one (a flatten's
 * instances, an offset) used to give the plan of a job of one instance's
 * size without a word; a permuted view of ranks 0..N-1 is a whole job. */
static void test_views_of_part_of_a_job_refused(void)
{
    om_mesh *job = om_test_mesh("dp=2,tp=4"), *flat = NULL, *shifted = NULL, *permuted = NULL;
    om_error err;
    const char *tp[] = {"tp"}, *ab[] = {"a", "b"};
    OM_EXPECT_OK(om_view_flatten(job, tp, 1, "x", &flat, &err), &err);
    OM_EXPECT_OK(om_view_new(ab, 2, (int64_t[]){2, 2}, 2, (int64_t[]){2, 1}, 2, 4, &shifted,
                             &err), &err);
    OM_EXPECT_OK(om_view_new(ab, 2, (int64_t[]){4, 2}, 2, (int64_t[]){1, 4}, 2, 0, &permuted,
                             &err), &err);
    char *plan = (char *)"x", *lines = (char *)"x";
    size_t count = 7;
    OM_EXPECT_ERR(om_launch_plan(flat, 1, 4, OM_LAUNCH_TORCHRUN, NULL, 0, NULL, 0, &plan, &err),
                  &err, OM_ERR_INVALID_ARGUMENT,
                  "the mesh is a view of part of a job (2 instances of 4 ranks, ranks 0..7), "
                  "not ranks 0..N-1 of one: launch the job's mesh");
    OM_EXPECT(plan == NULL);
    OM_EXPECT_ERR(om_launch_plan(shifted, 2, 2, OM_LAUNCH_SLURM, NULL, 0, NULL, 0, &plan, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "(1 instance of 4 ranks, ranks 4..7)");
    OM_EXPECT_ERR(om_launch_check(flat, NULL, 1, 4, NULL, &lines, &count, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "2 instances of 4 ranks");
    OM_EXPECT(lines == NULL && count == 0);
    char *expected = NULL;
    OM_EXPECT_OK(om_launch_plan(job, 2, 4, OM_LAUNCH_TORCHRUN, NULL, 0, NULL, 0, &expected,
                                &err), &err);
    OM_EXPECT_OK(om_launch_plan(permuted, 2, 4, OM_LAUNCH_TORCHRUN, NULL, 0, NULL, 0, &plan,
                                &err), &err);
    OM_EXPECT_STR(plan, expected);
    om_string_free(plan);
    om_string_free(expected);
    om_mesh_free(permuted);
    om_mesh_free(shifted);
    om_mesh_free(flat);
    om_mesh_free(job);
}

static void test_check_lists_every_violation(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,cp=2,tp=4");
    om_hierarchy *h = NULL;
    om_error err;
    OM_EXPECT_OK(om_hierarchy_from_spec("host=8,nvl=10", &h, &err), &err);
    char *lines = NULL;
    size_t count = 0;
    OM_EXPECT_OK(om_launch_check(mesh, h, 3, 4, "tp:host,dp+tp:host", &lines,
                                 &count, &err), &err);
    OM_EXPECT_INT(count, 4);
    OM_EXPECT_STR(lines,
        "world size 16 (the mesh) is not nnodes*nproc_per_node = 3*4 = 12\n"
        "level host has 8 ranks per domain but nproc_per_node is 4\n"
        "level nvl has 10 ranks per domain, not a multiple of nproc_per_node 4: "
        "node 2 straddles two nvl domains\n"
        "dp+tp:host broken: dp+tp group 0 (ranks 0, 1, 2, 3, ...) crosses host "
        "domains: rank 8 is in host 1, rank 0 in host 0 (groups span up to 2 "
        "domains)\n");
    om_string_free(lines);
    om_hierarchy_free(h);
    /* Without a hierarchy the host level is nproc_per_node. */
    OM_EXPECT_OK(om_launch_check(mesh, NULL, 4, 4, "tp:host", &lines, &count, &err),
                 &err);
    OM_EXPECT_INT(count, 0);
    OM_EXPECT_STR(lines, "");
    om_string_free(lines);
    OM_EXPECT_OK(om_launch_check(mesh, NULL, 8, 2, "tp:host", &lines, &count, &err),
                 &err);
    OM_EXPECT_INT(count, 1);
    OM_EXPECT(strncmp(lines, "tp:host broken: tp group 0 (ranks 0, 1, 2, 3)", 45) == 0);
    om_string_free(lines);
    /* An explicit hierarchy of the wrong size is a violation, not an error. */
    const char *hf = "a slots=4\n";
    OM_EXPECT_OK(om_hierarchy_from_hostfile(hf, strlen(hf), &h, &err), &err);
    OM_EXPECT_OK(om_launch_check(mesh, h, 4, 4, "tp:host", &lines, &count, &err),
                 &err);
    OM_EXPECT_INT(count, 1);
    OM_EXPECT_STR(lines, "the hierarchy describes 4 ranks but the mesh has 16\n");
    om_string_free(lines);
    om_hierarchy_free(h);
    /* Far too many nodes: the product is past int64 and said so (it was
     * computed with a signed overflow: "9223372036854775807*4 = -4"). */
    OM_EXPECT_OK(om_launch_check(mesh, NULL, INT64_MAX, 4, NULL, &lines, &count,
                                 &err), &err);
    OM_EXPECT_STR(lines, "world size 16 (the mesh) is not nnodes*nproc_per_node = "
                         "9223372036854775807*4, over 2^63-1\n");
    om_string_free(lines);
    OM_EXPECT_OK(om_launch_check(mesh, NULL, INT64_MAX / 4, 4, NULL, &lines,
                                 &count, &err), &err);
    OM_EXPECT_STR(lines, "world size 16 (the mesh) is not nnodes*nproc_per_node = "
                         "2305843009213693951*4 = 9223372036854775804\n");
    om_string_free(lines);
    OM_EXPECT_ERR(om_launch_check(mesh, NULL, 4, 4, "tp:rack", &lines, &count, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "unknown level \"rack\"");
    OM_EXPECT(lines == NULL);
    OM_EXPECT_ERR(om_launch_check(mesh, NULL, 0, 4, NULL, &lines, &count, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "nnodes must be");
    OM_EXPECT_ERR(om_launch_check(NULL, NULL, 1, 4, NULL, &lines, &count, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    OM_EXPECT_ERR(om_launch_check(mesh, NULL, 1, 4, NULL, NULL, &count, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    om_mesh_free(mesh);
}

static const om_test_case launch_tests[] = {
    {"torchrun, one process per node", test_torchrun_single_process_nodes},
    {"torchrun, master and hosts", test_torchrun_master_and_hosts},
    {"torchrun, IPv6 master address", test_torchrun_ipv6_master_address},
    {"slurm and openmpi", test_slurm_and_openmpi},
    {"slurm node ids follow natural name order", test_slurm_node_ids_follow_natural_name_order},
    {"plan errors", test_plan_errors},
    {"admission: every violation", test_check_lists_every_violation},
    {"views of part of a job refused", test_views_of_part_of_a_job_refused},
    {NULL, NULL},
};

int main(int argc, char **argv)
{
    static const om_test_suite suites[] = {
        {"launch", NULL, NULL, launch_tests},
        {NULL, NULL, NULL, NULL},
    };
    return om_test_main(argc, argv, suites);
}
