/* Launch plans against the real Open MPI: every process of every case of
 * tests/openmpi/openmpi.json (recorded by tests/openmpi/generate.py from
 * mpirun 4.1 started with the plan's own rankfile on simulated nodes).
 * SPDX-License-Identifier: MIT */
#include <jansson.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch_vectors.h"
#include "om_test.h"

static json_t *load_vectors(void)
{
    return launch_vectors_load("OM_OPENMPI_VECTORS", "tests/openmpi/openmpi.json");
}

/* What the recording knows about one process, for the rules' placeholders. */
typedef struct {
    json_t *doc;
    const char *hostname;
    int64_t rank;
} process_facts;

/* The value a known placeholder stands for, or NULL. */
static const char *known_value(const process_facts *f, const char *name,
                               char *number, size_t cap)
{
    static const struct { const char *hole, *key; } keys[] = {
        {"{tmpdir}", "tmpdir"}, {"{cwd}", "cwd"},
        {"{rankfile}", "rankfile_path"}, {"{program}", "program"}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(name, keys[i].hole) == 0)
            return json_string_value(json_object_get(f->doc, keys[i].key));
    if (strcmp(name, "{hostname}") == 0)
        return f->hostname;
    if (strcmp(name, "{uid}") == 0 || strcmp(name, "{rank}") == 0) {
        snprintf(number, cap, "%lld", (long long)(name[1] == 'u'
                     ? json_integer_value(json_object_get(f->doc, "uid"))
                     : f->rank));
        return number;
    }
    return NULL;
}

/* The plan's rule as an anchored extended regex (placeholders as
 * documented in offline_mesh/launch.h); false on an unknown placeholder. */
static bool rule_regex(const char *rule, const process_facts *f, char *out,
                       size_t cap)
{
    static const struct { const char *name, *regex; } holes[] = {
        {"{int}", "[0-9]+"}, {"{jobid}", "[0-9]+"}, {"{hex16}", "[0-9a-f]{16}"},
        {"{uri}", "[0-9]+\\.[0-9]+;[a-z0-9]+://[^[:space:]]+"},
        {"{node_regex}", "[^[:space:]]+"},
        {"{pmix_version}", "[0-9]+\\.[0-9]+\\.[0-9]+[^[:space:]]*"},
        {"{args}", ".*"}, {"{jobfam_dir}", "(pid|jf)\\.[0-9]+"}};
    char expanded[512] = "";
    for (const char *p = rule; *p;) {
        const char *session = "{session_dir}";
        if (strncmp(p, session, strlen(session)) == 0) {
            strncat(expanded, "{tmpdir}/ompi.{hostname}.{uid}/{jobfam_dir}",
                    sizeof expanded - strlen(expanded) - 1);
            p += strlen(session);
        } else {
            strncat(expanded, p++, 1);
        }
    }
    snprintf(out, cap, "^");
    for (const char *p = expanded; *p;) {
        const char *end = *p == '{' ? strchr(p, '}') : NULL;
        if (!end) {
            launch_vectors_append_literal(out, cap, p++, 1);
            continue;
        }
        char name[40], number[24];
        snprintf(name, sizeof name, "%.*s", (int)(end - p + 1), p);
        const char *value = known_value(f, name, number, sizeof number);
        bool done = value != NULL;
        if (value)
            launch_vectors_append_literal(out, cap, value, strlen(value));
        for (size_t h = 0; h < sizeof holes / sizeof holes[0] && !done; h++)
            if (strcmp(name, holes[h].name) == 0) {
                strncat(out, holes[h].regex, cap - strlen(out) - 1);
                done = true;
            }
        if (!done)
            return false;
        p = end + 1;
    }
    strncat(out, "$", cap - strlen(out) - 1);
    return true;
}

static bool matches_rule(const char *rule, const process_facts *f,
                         const char *value)
{
    char pattern[1024];
    regex_t re;
    if (!rule || !value || !rule_regex(rule, f, pattern, sizeof pattern) ||
        regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
        return false;
    bool ok = regexec(&re, value, 0, NULL, 0) == 0;
    regfree(&re);
    return ok;
}

/* The recording's own --mca NAME VALUE options reach every process as
 * OMPI_MCA_NAME; the value of `name` among them, or NULL. */
static const char *mca_option(json_t *c, const char *name)
{
    const char *prefix = "OMPI_MCA_";
    if (strncmp(name, prefix, strlen(prefix)) != 0)
        return NULL;
    return json_string_value(
        json_object_get(json_object_get(c, "mca"), name + strlen(prefix)));
}

/* One process: placement, then the plan's env and rules against mpirun's. */
static void check_process(json_t *doc, json_t *c, json_t *want, json_t *got,
                          json_t *rules, const char *host)
{
    int64_t local = json_integer_value(json_object_get(got, "local_rank"));
    json_t *map = json_object_get(want, "map");
    const char *hostname = json_string_value(json_object_get(want, "hostname"));
    OM_EXPECT_STR(hostname, host);
    OM_EXPECT_STR(json_string_value(json_object_get(map, "host")), host);
    OM_EXPECT_INT(json_integer_value(json_object_get(map, "core")), local);
    json_t *cpus = json_object_get(want, "cpus");
    if (!json_is_null(cpus)) {
        OM_EXPECT_INT(json_array_size(cpus), 1);
        OM_EXPECT_INT(json_integer_value(json_array_get(cpus, 0)), local);
    }
    OM_EXPECT_INT(json_array_size(json_object_get(want, "removed")), 0);
    process_facts f = {doc, hostname,
                       json_integer_value(json_object_get(want, "rank"))};
    json_t *env = json_object_get(got, "env");
    json_t *set = json_object_get(want, "set");
    const char *name;
    json_t *value;
    json_object_foreach(set, name, value) {
        const char *option = mca_option(c, name);
        json_t *rule = json_object_get(rules, name);
        json_t *mine = json_object_get(env, name);
        if (option) {
            OM_EXPECT_STR(json_string_value(value), option);
        } else if (strcmp(name, "OMPI_UNIVERSE_SIZE") == 0 && mine &&
                   json_is_string(json_object_get(c, "mpirun_host"))) {
            /* mpirun's own host is in the allocation, with its cores. */
            OM_EXPECT_INT(atoll(json_string_value(value)),
                          atoll(json_string_value(mine)) +
                              json_integer_value(json_object_get(doc, "cpu_count")));
        } else if (rule) {
            OM_EXPECT(matches_rule(json_string_value(rule), &f,
                                   json_string_value(value)));
        } else {
            OM_EXPECT(mine != NULL);
            OM_EXPECT_STR(mine ? json_string_value(mine) : "(missing)",
                          json_string_value(value));
        }
    }
    json_object_foreach(env, name, value)
        OM_EXPECT(json_object_get(set, name) != NULL); /* nothing invented */
    json_object_foreach(json_object_get(want, "run_dependent"), name, value) {
        if (mca_option(c, name))
            continue;
        for (size_t i = 0; i < json_array_size(value); i++)
            OM_EXPECT(matches_rule(json_string_value(json_object_get(rules, name)),
                                   &f, json_string_value(json_array_get(value, i))));
    }
}

/* The plan of one case for `mesh` (its size is the case's world size). */
static void check_case(json_t *doc, json_t *c, const char *mesh_spec)
{
    int64_t nnodes = json_integer_value(json_object_get(c, "nnodes"));
    int64_t nproc = json_integer_value(json_object_get(c, "nproc_per_node"));
    json_t *hosts = json_object_get(c, "hosts");
    json_t *names = json_is_null(hosts) ? json_object_get(c, "allocation") : hosts;
    const char *host_list[16];
    size_t nhosts = json_array_size(hosts);
    OM_EXPECT(nhosts <= 16 && json_array_size(names) == (size_t)nnodes);
    for (size_t k = 0; k < nhosts && k < 16; k++)
        host_list[k] = json_string_value(json_array_get(hosts, k));
    om_mesh *mesh = om_test_mesh(mesh_spec);
    char *text = NULL;
    om_error err;
    OM_EXPECT_OK(om_launch_plan(mesh, nnodes, nproc, OM_LAUNCH_OPENMPI, NULL, 0,
                                host_list, nhosts, &text, &err), &err);
    json_t *plan = text ? json_loads(text, 0, NULL) : NULL;
    OM_EXPECT(plan != NULL);
    OM_EXPECT_STR(json_string_value(json_object_get(plan, "rankfile")),
                  json_string_value(json_object_get(c, "rankfile")));
    json_t *nodes = json_object_get(plan, "nodes");
    json_t *rules = json_object_get(plan, "not_reproduced");
    OM_EXPECT_INT(json_array_size(nodes), nnodes);
    size_t i;
    json_t *want;
    json_array_foreach(json_object_get(c, "processes"), i, want) {
        int64_t rank = json_integer_value(json_object_get(want, "rank"));
        json_t *got = NULL;
        size_t k;
        json_t *n;
        json_array_foreach(nodes, k, n) {
            size_t l;
            json_t *p;
            json_array_foreach(json_object_get(n, "processes"), l, p)
                if (json_integer_value(json_object_get(p, "rank")) == rank) {
                    got = p;
                    check_process(doc, c, want, p, rules,
                                  json_string_value(json_array_get(names, k)));
                }
        }
        OM_EXPECT(got != NULL);
    }
    json_decref(plan);
    om_string_free(text);
    om_mesh_free(mesh);
}

static void test_every_vector(void)
{
    json_t *doc = load_vectors();
    json_t *cases = json_object_get(doc, "cases");
    OM_EXPECT(json_array_size(cases) >= 10);
    OM_EXPECT(strncmp(json_string_value(json_object_get(doc, "openmpi_version")),
                      "mpirun (Open MPI) 4.1", 21) == 0);
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        int64_t nnodes = json_integer_value(json_object_get(c, "nnodes"));
        int64_t nproc = json_integer_value(json_object_get(c, "nproc_per_node"));
        char spec[64];
        snprintf(spec, sizeof spec, "dp=%lld", (long long)(nnodes * nproc));
        check_case(doc, c, spec);
        snprintf(spec, sizeof spec, "pp=%lld,tp=%lld", (long long)nnodes,
                 (long long)nproc);
        check_case(doc, c, spec);
    }
    json_decref(doc);
}

/* Without hosts the rankfile's "+nK" lines need a resource manager's
 * allocation: the recorded refusal is of the plan's own rankfile. */
static void test_relative_hosts_refused_without_allocation(void)
{
    json_t *doc = load_vectors();
    json_t *refused = json_array_get(json_object_get(doc, "refused"), 0);
    om_mesh *mesh = om_test_mesh("dp=4");
    char *text = NULL;
    om_error err;
    OM_EXPECT_OK(om_launch_plan(mesh, 2, 2, OM_LAUNCH_OPENMPI, NULL, 0, NULL, 0,
                                &text, &err), &err);
    json_t *plan = text ? json_loads(text, 0, NULL) : NULL;
    OM_EXPECT_STR(json_string_value(json_object_get(plan, "rankfile")),
                  json_string_value(json_object_get(refused, "rankfile")));
    OM_EXPECT(json_integer_value(json_object_get(refused, "exit_status")) != 0);
    OM_EXPECT(strstr(json_string_value(json_object_get(refused, "message")),
                     "no prior allocation") != NULL);
    json_decref(plan);
    om_string_free(text);
    om_mesh_free(mesh);
    json_decref(doc);
}

/* The regex translation itself, on values that must not match. */
static void test_rules_reject_other_values(void)
{
    json_t *doc = json_pack("{s:s,s:i}", "tmpdir", "/tmp", "uid", 0);
    process_facts f = {doc, "hz", 3};
    OM_EXPECT(matches_rule("{session_dir}", &f, "/tmp/ompi.hz.0/jf.123"));
    OM_EXPECT(!matches_rule("{session_dir}", &f, "/tmp/ompi.hz.0/xx.123"));
    OM_EXPECT(!matches_rule("{session_dir}", &f, "/tmp/ompi.hy.0/jf.123"));
    OM_EXPECT(matches_rule("{jobid}.{rank}", &f, "77.3"));
    OM_EXPECT(!matches_rule("{jobid}.{rank}", &f, "77.4"));
    OM_EXPECT(matches_rule("{uri}", &f, "12.0;tcp4://127.0.0.1:5"));
    OM_EXPECT(!matches_rule("{uri}", &f, "none"));
    OM_EXPECT(!matches_rule("rsh", &f, "ssh"));
    OM_EXPECT(!matches_rule("{unknown}", &f, "x"));
    json_decref(doc);
}

int main(int argc, char **argv)
{
    static const om_test_case cases[] = {
        {"every process of every Open MPI vector", test_every_vector},
        {"+nK rankfile refused without an allocation",
         test_relative_hosts_refused_without_allocation},
        {"rules reject other values", test_rules_reject_other_values},
        {NULL, NULL}};
    static const om_test_suite suites[] = {{"launch_openmpi", NULL, NULL, cases},
                                           {NULL, NULL, NULL, NULL}};
    return om_test_main(argc, argv, suites);
}
