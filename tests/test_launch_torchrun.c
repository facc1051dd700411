/* Launch plans against the real torchrun: every process of every case of
 * tests/torchrun/torchrun.json (recorded by tests/torchrun/generate.py from
 * torch's own `python -m torch.distributed.run --rdzv-backend=static`).
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
    return launch_vectors_load("OM_TORCHRUN_VECTORS", "tests/torchrun/torchrun.json");
}

/* The plan's rule for a variable it does not reproduce, as an anchored
 * extended regex (placeholders as documented in offline_mesh/launch.h). */
static void rule_regex(const char *rule, const char *tmpdir, int64_t local_rank,
                       char *out, size_t cap)
{
    static const struct { const char *name, *regex; } holes[] = {
        {"{random}", "[a-z0-9_]{8}"},
        {"{uuid4}", "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"},
        {"{free_port}", "[1-9][0-9]{0,4}"},
    };
    snprintf(out, cap, "^");
    for (const char *p = rule; *p;) {
        bool done = false;
        char number[24];
        snprintf(number, sizeof number, "%lld", (long long)local_rank);
        if (strncmp(p, "{tmpdir}", 8) == 0) {
            launch_vectors_append_literal(out, cap, tmpdir, strlen(tmpdir));
            p += 8;
            continue;
        }
        if (strncmp(p, "{local_rank}", 12) == 0) {
            launch_vectors_append_literal(out, cap, number, strlen(number));
            p += 12;
            continue;
        }
        for (size_t h = 0; h < sizeof holes / sizeof holes[0] && !done; h++)
            if (strncmp(p, holes[h].name, strlen(holes[h].name)) == 0) {
                strncat(out, holes[h].regex, cap - strlen(out) - 1);
                p += strlen(holes[h].name);
                done = true;
            }
        if (!done)
            launch_vectors_append_literal(out, cap, p++, 1);
    }
    strncat(out, "$", cap - strlen(out) - 1);
}

static bool matches_rule(const char *rule, const char *tmpdir, int64_t local_rank,
                         const char *value)
{
    char pattern[512];
    regex_t re;
    rule_regex(rule, tmpdir, local_rank, pattern, sizeof pattern);
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
        return false;
    bool ok = regexec(&re, value, 0, NULL, 0) == 0;
    regfree(&re);
    return ok;
}

/* One process: the plan's env and rules against torchrun's variables. */
static void check_process(json_t *got, json_t *rules, json_t *want,
                          const char *tmpdir)
{
    json_t *env = json_object_get(got, "env");
    json_t *set = json_object_get(want, "set");
    int64_t local = json_integer_value(json_object_get(want, "local_rank"));
    OM_EXPECT_INT(json_integer_value(json_object_get(got, "local_rank")), local);
    OM_EXPECT_INT(json_integer_value(json_object_get(got, "rank")),
                  json_integer_value(json_object_get(want, "rank")));
    OM_EXPECT_INT(json_array_size(json_object_get(want, "removed")), 0);
    const char *name;
    json_t *value;
    json_object_foreach(set, name, value) {
        json_t *rule = json_object_get(rules, name);
        if (rule) {
            OM_EXPECT(matches_rule(json_string_value(rule), tmpdir, local,
                                   json_string_value(value)));
            continue;
        }
        json_t *mine = json_object_get(env, name);
        OM_EXPECT(mine != NULL);
        OM_EXPECT_STR(mine ? json_string_value(mine) : "(missing)",
                      json_string_value(value));
    }
    json_object_foreach(env, name, value)
        OM_EXPECT(json_object_get(set, name) != NULL); /* nothing invented */
    json_object_foreach(json_object_get(want, "run_dependent"), name, value) {
        OM_EXPECT(json_object_get(rules, name) != NULL);
        for (size_t i = 0; i < json_array_size(value); i++)
            OM_EXPECT(json_object_get(rules, name) &&
                      matches_rule(json_string_value(json_object_get(rules, name)),
                                   tmpdir, local,
                                   json_string_value(json_array_get(value, i))));
    }
}

/* The plan of one case for `mesh` (its size is the case's world size). */
static void check_case(json_t *c, const char *mesh_spec, const char *tmpdir)
{
    int64_t nnodes = json_integer_value(json_object_get(c, "nnodes"));
    int64_t nproc = json_integer_value(json_object_get(c, "nproc_per_node"));
    const char *addr = json_string_value(json_object_get(c, "master_addr"));
    int64_t port = json_integer_value(json_object_get(c, "master_port"));
    om_mesh *mesh = om_test_mesh(mesh_spec);
    char *text = NULL;
    om_error err;
    OM_EXPECT_OK(om_launch_plan(mesh, nnodes, nproc, OM_LAUNCH_TORCHRUN, addr, port,
                                NULL, 0, &text, &err), &err);
    json_t *plan = text ? json_loads(text, 0, NULL) : NULL;
    OM_EXPECT(plan != NULL);
    json_t *nodes = json_object_get(plan, "nodes");
    json_t *rules = json_object_get(plan, "not_reproduced");
    OM_EXPECT_INT(json_array_size(nodes), nnodes);
    size_t i;
    json_t *want;
    json_array_foreach(json_object_get(c, "processes"), i, want) {
        int64_t node = json_integer_value(json_object_get(want, "node_rank"));
        int64_t local = json_integer_value(json_object_get(want, "local_rank"));
        json_t *n = json_array_get(nodes, (size_t)node);
        OM_EXPECT_INT(json_integer_value(json_object_get(n, "node_rank")), node);
        OM_EXPECT_INT(json_integer_value(
                          json_array_get(json_object_get(n, "ranks"), (size_t)local)),
                      json_integer_value(json_object_get(want, "rank")));
        json_t *got = json_array_get(json_object_get(n, "processes"), (size_t)local);
        OM_EXPECT(got != NULL);
        if (got)
            check_process(got, rules, want, tmpdir);
    }
    json_decref(plan);
    om_string_free(text);
    om_mesh_free(mesh);
}

static void test_every_vector(void)
{
    json_t *doc = load_vectors();
    const char *tmpdir = json_string_value(json_object_get(doc, "tmpdir"));
    json_t *cases = json_object_get(doc, "cases");
    OM_EXPECT(json_array_size(cases) >= 10);
    OM_EXPECT(strncmp(json_string_value(json_object_get(doc, "torch_version")),
                      "2.", 2) == 0);
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        int64_t nnodes = json_integer_value(json_object_get(c, "nnodes"));
        int64_t nproc = json_integer_value(json_object_get(c, "nproc_per_node"));
        char spec[64];
        /* One axis, then nodes x processes as two axes (the plan depends on
         * the world size only, whatever the axes). */
        snprintf(spec, sizeof spec, "dp=%lld", (long long)(nnodes * nproc));
        check_case(c, spec, tmpdir);
        snprintf(spec, sizeof spec, "pp=%lld,tp=%lld", (long long)nnodes,
                 (long long)nproc);
        check_case(c, spec, tmpdir);
    }
    json_decref(doc);
}

/* The regex translation itself, on a value that must not match. */
static void test_rules_reject_other_values(void)
{
    const char *rule = "{tmpdir}/torchelastic_{random}/none_{random}/attempt_0/"
                       "{local_rank}/error.json";
    OM_EXPECT(matches_rule(rule, "/tmp", 3,
                           "/tmp/torchelastic_ab12cd_e/none_0123abcd/attempt_0/3/error.json"));
    OM_EXPECT(!matches_rule(rule, "/tmp", 2,
                            "/tmp/torchelastic_ab12cd_e/none_0123abcd/attempt_0/3/error.json"));
    OM_EXPECT(!matches_rule(rule, "/tmp", 3,
                            "/tmp/torchelastic_ab12cd_e/none_0123abc/attempt_0/3/error.json"));
    OM_EXPECT(!matches_rule("{uuid4}", "/tmp", 0, "none"));
}

int main(int argc, char **argv)
{
    static const om_test_case cases[] = {
        {"every process of every torchrun vector", test_every_vector},
        {"rules reject other values", test_rules_reject_other_values},
        {NULL, NULL}};
    static const om_test_suite suites[] = {{"launch_torchrun", NULL, NULL, cases},
                                           {NULL, NULL, NULL, NULL}};
    return om_test_main(argc, argv, suites);
}
