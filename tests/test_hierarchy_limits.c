/* Hierarchies, placement rules and order advice at their limits: the
 * level and rule-length caps, NULL arguments of every call, long
 * level lists in messages, preference rules and levels whose names are
 * not in sorted order (test_hierarchy.c has the main cases).
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_test.h"

static om_hierarchy *spec(const char *text) { return om_test_hierarchy(text); }

/* "l0=1,l1=2,..." with `n` levels. */
static void many_levels(char *buf, size_t cap, int n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++)
        o += (size_t)snprintf(buf + o, cap - o, "%sl%d=%d", i ? "," : "", i, i + 1);
}

static void test_spec_limits(void)
{
    char text[1024];
    om_hierarchy *h = NULL;
    om_error err;
    many_levels(text, sizeof text, 64);
    OM_EXPECT_OK(om_hierarchy_from_spec(text, &h, &err), &err);
    OM_EXPECT_INT(om_hierarchy_levels(h), 64);
    om_hierarchy_free(h);
    many_levels(text, sizeof text, 65);
    OM_EXPECT_ERR(om_hierarchy_from_spec(text, &h, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "a hierarchy has at most 64 levels");
    OM_EXPECT(h == NULL);
    /* Blanks around the size are allowed, as in mesh specs. */
    h = spec("host = 8 ,nvl=\t72");
    OM_EXPECT_INT(om_hierarchy_ranks_per_domain(h, 0), 8);
    OM_EXPECT_INT(om_hierarchy_ranks_per_domain(h, 1), 72);
    om_hierarchy_free(h);
}

static void test_null_arguments(void)
{
    om_hierarchy *h = spec("host=8,nvl=72");
    om_error err;
    size_t index;
    int64_t domain;
    char *out = (char *)&out;
    OM_EXPECT_ERR(om_hierarchy_level_index(NULL, "host", &index, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "hierarchy is NULL");
    OM_EXPECT_ERR(om_hierarchy_level_index(h, NULL, &index, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "level name is NULL");
    OM_EXPECT_ERR(om_hierarchy_level_index(h, "host", NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "index pointer is NULL");
    OM_EXPECT_ERR(om_hierarchy_domain_of(NULL, 0, 0, &domain, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "hierarchy is NULL");
    OM_EXPECT_ERR(om_hierarchy_domain_of(h, 0, 0, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "domain pointer is NULL");
    OM_EXPECT_ERR(om_hierarchy_domain_label(h, 0, 0, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    OM_EXPECT_ERR(om_hierarchy_domain_label(NULL, 0, 0, &out, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "hierarchy is NULL");
    OM_EXPECT(out == NULL);
    OM_EXPECT_ERR(om_hierarchy_to_json(h, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    out = (char *)&out;
    OM_EXPECT_ERR(om_hierarchy_to_json(NULL, &out, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "hierarchy is NULL");
    OM_EXPECT(out == NULL);
    om_hierarchy *made = (om_hierarchy *)&made;
    OM_EXPECT_ERR(om_hierarchy_from_hostfile(NULL, 0, &made, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "hostfile text is NULL");
    OM_EXPECT(made == NULL);
    OM_EXPECT_ERR(om_hierarchy_from_hostfile("a slots=1\n", 10, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    OM_EXPECT_ERR(om_hierarchy_from_json("{}", 2, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    om_hierarchy_free(h);
}

/* An unknown level names the known ones, cut with "..." when long. */
static void test_long_level_list(void)
{
    char text[512];
    size_t o = 0;
    for (int i = 0; i < 5; i++)
        o += (size_t)snprintf(text + o, sizeof text - o, "%slevel_%d_%.30s=%d",
                              i ? "," : "", i, "abcdefghijklmnopqrstuvwxyz0123", i + 1);
    om_hierarchy *h = spec(text);
    size_t index;
    om_error err;
    OM_EXPECT_ERR(om_hierarchy_level_index(h, "rack", &index, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "unknown level \"rack\" (levels: "
                  "level_0_abcdefghijklmnopqrstuvwxyz0123, level_1_", "...)");
    om_hierarchy_free(h);
}

static void test_json_shapes(void)
{
    const char *levels = "{\"levels\":\"host\",\"ranks\":[{\"rank\":0,\"host\":0}]}";
    const char *ranks = "{\"levels\":[\"host\"],\"ranks\":{\"rank\":0}}";
    om_hierarchy *h = (om_hierarchy *)&h;
    om_error err;
    OM_EXPECT_ERR(om_hierarchy_from_json(levels, strlen(levels), &h, &err), &err,
                  OM_ERR_PARSE, "hierarchy JSON \"levels\" must be an array of "
                  "level names");
    OM_EXPECT(h == NULL);
    OM_EXPECT_ERR(om_hierarchy_from_json(ranks, strlen(ranks), &h, &err), &err,
                  OM_ERR_PARSE, "hierarchy JSON \"ranks\" must be an array");
}

static void test_rule_limits(void)
{
    om_mesh *mesh = om_test_mesh("dp=4,tp=4");
    om_hierarchy *h = spec("host=4");
    char *lines = (char *)&lines;
    size_t count = 7;
    om_error err;
    /* Blank rules: nothing to check, nothing broken. */
    OM_EXPECT_OK(om_hierarchy_check(mesh, h, " \t", &lines, &count, &err), &err);
    OM_EXPECT_STR(lines, "");
    OM_EXPECT_INT(count, 0);
    om_string_free(lines);
    char rule[700];
    memset(rule, 't', 600);
    strcpy(rule + 600, ":host");
    OM_EXPECT_ERR(om_hierarchy_check(mesh, h, rule, &lines, &count, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "placement rule \"tttt", "is too long");
    size_t o = 0;
    for (int i = 0; i < 65; i++)
        o += (size_t)snprintf(rule + o, sizeof rule - o, "%stp", i ? "+" : "");
    snprintf(rule + o, sizeof rule - o, ":host");
    OM_EXPECT_ERR(om_hierarchy_check(mesh, h, rule, &lines, &count, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "names too many axes");
    om_hierarchy_free(h);
    om_mesh_free(mesh);
}

static om_dims *dims_of(int64_t tp, int64_t dp, int64_t pp)
{
    om_dims *d = NULL;
    om_error err;
    OM_EXPECT_OK(om_dims_new(&d, &err), &err);
    OM_EXPECT_OK(om_dims_set(d, OM_DIM_TP, tp, &err), &err);
    OM_EXPECT_OK(om_dims_set(d, OM_DIM_DP, dp, &err), &err);
    OM_EXPECT_OK(om_dims_set(d, OM_DIM_PP, pp, &err), &err);
    return d;
}

/* A preference ranks the orders that keep it first; hand-checked on
 * 8 ranks (tp 2, dp 2, pp 2) in hosts of 2 and nodes of 4. */
static void test_advice_prefer(void)
{
    om_dims *d = dims_of(2, 2, 2);
    om_hierarchy *h = spec("host=2,node=4");
    char *json = NULL;
    om_error err;
    OM_EXPECT_OK(om_order_advice(d, h, NULL, "dp:host", "tp>dp>pp", &json, &err),
                 &err);
    /* dp fastest: dp groups {0,1} in one host, tp {0,2} in one node. */
    const char *best =
        "{\"orders\":[{\"broken\":[],\"crossings\":{"
        "\"dp\":{\"host\":0,\"node\":0},\"pp\":{\"host\":4,\"node\":4},"
        "\"tp\":{\"host\":4,\"node\":0}},\"megatron\":\"dp-tp-pp\","
        "\"torch\":\"pp,tp,dp\"},{\"broken\":[],\"crossings\":{"
        "\"dp\":{\"host\":0,\"node\":0},\"pp\":{\"host\":4,\"node\":0},"
        "\"tp\":{\"host\":4,\"node\":4}},\"megatron\":\"dp-pp-tp\",";
    OM_EXPECT(json && strncmp(json, best, strlen(best)) == 0);
    om_string_free(json);
    /* Levels given slowest-named first still print sorted by name. */
    om_hierarchy *named = spec("node=2,dc=4");
    OM_EXPECT_OK(om_order_advice(d, named, "tp:node", NULL, NULL, &json, &err), &err);
    OM_EXPECT(json && strncmp(json, "{\"orders\":[{\"broken\":[],\"crossings\":{"
                                    "\"dp\":{\"dc\":0,\"node\":4},", 60) == 0);
    om_string_free(json);
    om_hierarchy_free(named);
    char rule[300];
    memset(rule, 't', 290);
    strcpy(rule + 290, ":host");
    OM_EXPECT_ERR(om_order_advice(d, h, rule, NULL, NULL, &json, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "a placement rule is too long");
    OM_EXPECT_ERR(om_order_advice(d, h, "tp:host,,dp:node", NULL, NULL, &json, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "a placement rule is empty");
    OM_EXPECT_ERR(om_order_advice(d, h, NULL, NULL, NULL, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    char *broken = NULL;
    size_t count;
    OM_EXPECT_ERR(om_order_check(d, h, "tp-dp-pp", NULL, NULL, &count, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    OM_EXPECT_ERR(om_order_check(d, h, NULL, NULL, &broken, &count, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "order is NULL");
    OM_EXPECT(broken == NULL);
    char text[512];
    many_levels(text, sizeof text, 17);
    om_hierarchy *deep = spec(text);
    OM_EXPECT_ERR(om_order_advice(d, deep, NULL, NULL, NULL, &json, &err), &err,
                  OM_ERR_INVALID_ARGUMENT,
                  "order advice takes at most 16 levels, the hierarchy has 17");
    om_hierarchy_free(deep);
    om_hierarchy_free(h);
    om_dims_free(d);
}

static void test_launch_master_address_utf8(void)
{
    om_mesh *mesh = om_test_mesh("dp=2");
    char *json = (char *)&json;
    om_error err;
    OM_EXPECT_ERR(om_launch_plan(mesh, 2, 1, OM_LAUNCH_TORCHRUN, "head\xff", 0, NULL,
                                 0, &json, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "master address \"head\\xFF\" is not a plain host name "
                  "(empty, not UTF-8");
    OM_EXPECT(json == NULL);
    om_mesh_free(mesh);
}

int main(int argc, char **argv)
{
    static const om_test_case cases[] = {
        {"spec: 64 levels, blanks", test_spec_limits},
        {"NULL arguments", test_null_arguments},
        {"long level list in a message", test_long_level_list},
        {"JSON: levels and ranks not arrays", test_json_shapes},
        {"rules: blank, too long, too many axes", test_rule_limits},
        {"advice: prefer, level names, limits", test_advice_prefer},
        {"launch: master address not UTF-8", test_launch_master_address_utf8},
        {NULL, NULL}};
    static const om_test_suite suites[] = {{"hierarchy_limits", NULL, NULL, cases},
                                           {NULL, NULL, NULL, NULL}};
    return om_test_main(argc, argv, suites);
}
