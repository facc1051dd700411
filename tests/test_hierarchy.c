/* Hierarchies (uniform, JSON, hostfile), per-level locality and placement
 * rules: hand-checked cases, every validation message, and a brute-force
 * cross-check of locality on random meshes and hierarchies.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_test.h"

static om_hierarchy *spec(const char *text) { return om_test_hierarchy(text); }

static om_hierarchy *from_json(const char *text)
{
    om_hierarchy *h = NULL;
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_OK(om_hierarchy_from_json(text, strlen(text), &h, &err), &err);
    return h;
}

/* ---- uniform specs ---- */

static void test_spec(void)
{
    om_hierarchy *h = spec("host=8, nvl=72 ,rack=576");
    OM_EXPECT_INT(om_hierarchy_levels(h), 3);
    OM_EXPECT_STR(om_hierarchy_level_name(h, 1), "nvl");
    OM_EXPECT_INT(om_hierarchy_ranks_per_domain(h, 2), 576);
    OM_EXPECT_INT(om_hierarchy_ranks(h), 0);
    OM_EXPECT(om_hierarchy_level_name(h, 3) == NULL);
    OM_EXPECT_INT(om_hierarchy_ranks_per_domain(h, 3), 0);
    om_error err;
    size_t index = 9;
    OM_EXPECT_OK(om_hierarchy_level_index(h, "rack", &index, &err), &err);
    OM_EXPECT_INT(index, 2);
    OM_EXPECT_ERR(om_hierarchy_level_index(h, "pod", &index, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "unknown level \"pod\"",
                  "host, nvl, rack");
    int64_t d = -1;
    OM_EXPECT_OK(om_hierarchy_domain_of(h, 1, 143, &d, &err), &err);
    OM_EXPECT_INT(d, 1);
    OM_EXPECT_ERR(om_hierarchy_domain_of(h, 3, 0, &d, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "level 3");
    OM_EXPECT_ERR(om_hierarchy_domain_of(h, 0, -1, &d, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "rank -1");
    char *label = NULL;
    OM_EXPECT_OK(om_hierarchy_domain_label(h, 0, 17, &label, &err), &err);
    OM_EXPECT_STR(label, "17");
    om_string_free(label);
    char *json = NULL;
    OM_EXPECT_OK(om_hierarchy_to_json(h, &json, &err), &err);
    OM_EXPECT_STR(json, "[{\"name\":\"host\",\"ranks_per_domain\":8},"
                        "{\"name\":\"nvl\",\"ranks_per_domain\":72},"
                        "{\"name\":\"rack\",\"ranks_per_domain\":576}]");
    om_string_free(json);
    om_hierarchy_free(h);
}

static void test_spec_errors(void)
{
    om_hierarchy *h = (om_hierarchy *)&h;
    om_error err;
    OM_EXPECT_ERR(om_hierarchy_from_spec("host=8,nvl=8", &h, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "must increase", "\"nvl=8\"", "(8)");
    OM_EXPECT(h == NULL);
    OM_EXPECT_ERR(om_hierarchy_from_spec("host=8,nvl=4", &h, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "\"nvl=4\" has 4 ranks per domain");
    OM_EXPECT_ERR(om_hierarchy_from_spec("host=8,host=16", &h, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "level \"host\" is named twice");
    OM_EXPECT_ERR(om_hierarchy_from_spec("host", &h, &err), &err, OM_ERR_PARSE,
                  "\"host\" is not level=ranks_per_domain");
    OM_EXPECT_ERR(om_hierarchy_from_spec("host=eight", &h, &err), &err,
                  OM_ERR_PARSE, "\"host=eight\"", "not a decimal integer");
    OM_EXPECT_ERR(om_hierarchy_from_spec("host=0", &h, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "\"host=0\"", "1..2147483647");
    OM_EXPECT_ERR(om_hierarchy_from_spec("host=2147483648", &h, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "1..2147483647");
    OM_EXPECT_ERR(om_hierarchy_from_spec(" ", &h, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "empty");
    OM_EXPECT_ERR(om_hierarchy_from_spec("=8", &h, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "a level name is empty");
    OM_EXPECT_ERR(om_hierarchy_from_spec("host=8,", &h, &err), &err,
                  OM_ERR_PARSE, "\"\" is not level=ranks_per_domain");
    OM_EXPECT_ERR(om_hierarchy_from_spec("a:b=8", &h, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "contains ':'");
    /* A newline in a level name (found by fuzz_launch: it split the
     * admission check's one-line violations). */
    OM_EXPECT_ERR(om_hierarchy_from_spec("host=4,n\nvl=8", &h, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "contains a control character (0x0a)");
    static const char tab[] = "{\"levels\":[\"h\\tx\"],\"ranks\":[{\"rank\":0,\"h\\tx\":0}]}";
    OM_EXPECT_ERR(om_hierarchy_from_json(tab, sizeof tab - 1, &h, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "contains a control character (0x09)");
    OM_EXPECT_ERR(om_hierarchy_from_spec("h\xff=8", &h, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "not valid UTF-8");
    OM_EXPECT_ERR(om_hierarchy_from_spec(NULL, &h, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_hierarchy_from_spec("host=8", NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
}

/* ---- explicit JSON ---- */

static void test_json(void)
{
    om_hierarchy *h = from_json(
        "{\"levels\":[\"host\",\"nvl\"],\"ranks\":["
        "{\"rank\":2,\"host\":\"b\",\"nvl\":7},{\"rank\":0,\"host\":\"a\",\"nvl\":7},"
        "{\"rank\":1,\"host\":\"a\",\"nvl\":7},{\"rank\":3,\"host\":\"c\",\"nvl\":9}]}");
    OM_EXPECT_INT(om_hierarchy_levels(h), 2);
    OM_EXPECT_INT(om_hierarchy_ranks(h), 4);
    OM_EXPECT_INT(om_hierarchy_ranks_per_domain(h, 0), 0);
    om_error err;
    int64_t d = -1;
    OM_EXPECT_OK(om_hierarchy_domain_of(h, 0, 2, &d, &err), &err);
    OM_EXPECT_INT(d, 1); /* a, b, c numbered by the first rank of each */
    char *label = NULL;
    OM_EXPECT_OK(om_hierarchy_domain_label(h, 1, 1, &label, &err), &err);
    OM_EXPECT_STR(label, "9");
    om_string_free(label);
    OM_EXPECT_ERR(om_hierarchy_domain_label(h, 1, 2, &label, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "domain 2", "2 domains of level nvl");
    OM_EXPECT_ERR(om_hierarchy_domain_of(h, 0, 4, &d, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "rank 4", "4 ranks");
    char *json = NULL;
    OM_EXPECT_OK(om_hierarchy_to_json(h, &json, &err), &err);
    OM_EXPECT_STR(json, "[{\"domains\":3,\"name\":\"host\"},"
                        "{\"domains\":2,\"name\":\"nvl\"}]");
    om_string_free(json);
    om_hierarchy_free(h);
}

static void expect_json_error(const char *text, om_status want,
                              const char *needle, unsigned line)
{
    om_hierarchy *h = (om_hierarchy *)&h;
    om_error err;
    om_status st = om_hierarchy_from_json(text, strlen(text), &h, &err);
    om_test_expect_hierarchy_err(st, h, &err, text, want, needle, __FILE__, line);
}

static void test_json_errors(void)
{
    expect_json_error("{\"levels\":[\"host\"],\"ranks\":[{\"rank\":0,\"host\":1},"
                      "{\"rank\":0,\"host\":1}]}",
                      OM_ERR_INVALID_ARGUMENT,
                      "rank 0 appears twice in the hierarchy JSON (ranks[0] and "
                      "ranks[1])", __LINE__);
    expect_json_error("{\"levels\":[\"host\"],\"ranks\":[{\"rank\":0,\"host\":1},"
                      "{\"rank\":2,\"host\":1}]}",
                      OM_ERR_INVALID_ARGUMENT,
                      "ranks[1] is rank 2, but 2 entries describe ranks 0..1: "
                      "some rank is missing", __LINE__);
    expect_json_error("{\"levels\":[\"host\"],\"ranks\":[{\"rank\":0,\"hots\":1}]}",
                      OM_ERR_PARSE, "ranks[0] names unknown level \"hots\"",
                      __LINE__);
    expect_json_error("{\"levels\":[\"host\",\"nvl\"],\"ranks\":[{\"rank\":0,"
                      "\"host\":1}]}",
                      OM_ERR_INVALID_ARGUMENT, "ranks[0] (rank 0) has no \"nvl\"",
                      __LINE__);
    expect_json_error("{\"levels\":[\"host\",\"nvl\"],\"ranks\":["
                      "{\"rank\":0,\"host\":\"a\",\"nvl\":0},"
                      "{\"rank\":1,\"host\":\"a\",\"nvl\":1}]}",
                      OM_ERR_INVALID_ARGUMENT,
                      "levels do not nest: host \"a\" is in nvl \"0\" (rank 0) "
                      "and in nvl \"1\" (rank 1)", __LINE__);
    /* An empty id (found by fuzz_hierarchy: it was accepted, labelled ""). */
    expect_json_error("{\"levels\":[\"host\"],\"ranks\":[{\"rank\":0,\"host\":\"n0\"},"
                      "{\"rank\":1,\"host\":\"\"}]}",
                      OM_ERR_INVALID_ARGUMENT, "ranks[1].host is an empty id", __LINE__);
    expect_json_error("{\"levels\":[],\"ranks\":[{\"rank\":0}]}",
                      OM_ERR_INVALID_ARGUMENT, "\"levels\" is empty", __LINE__);
    expect_json_error("{\"levels\":[\"host\"],\"ranks\":[]}",
                      OM_ERR_INVALID_ARGUMENT, "\"ranks\" is empty", __LINE__);
    expect_json_error("{\"levels\":[\"host\",\"host\"],\"ranks\":[{\"rank\":0}]}",
                      OM_ERR_INVALID_ARGUMENT, "level \"host\" is named twice",
                      __LINE__);
    expect_json_error("{\"levels\":[\"host\"]}", OM_ERR_PARSE, "lacks \"ranks\"",
                      __LINE__);
    expect_json_error("{\"levels\":[\"host\"],\"ranks\":[],\"x\":1}", OM_ERR_PARSE,
                      "unknown key \"x\"", __LINE__);
    expect_json_error("{\"levels\":[3],\"ranks\":[{\"rank\":0}]}", OM_ERR_PARSE,
                      "levels[0] must be a string, got 3", __LINE__);
    expect_json_error("{\"levels\":[\"host\"],\"ranks\":[{\"rank\":\"0\"}]}",
                      OM_ERR_PARSE, "\"rank\" must be an integer, got \"0\"", __LINE__);
    expect_json_error("{\"levels\":[\"host\"],\"ranks\":[{\"host\":1}]}",
                      OM_ERR_PARSE, "ranks[0] has no \"rank\"", __LINE__);
    expect_json_error("{\"levels\":[\"host\"],\"ranks\":[{\"rank\":0,\"host\":1.5}]}",
                      OM_ERR_PARSE, "must be a string or an integer id, got 1.5", __LINE__);
    expect_json_error("{\"levels\":[\"host\"],\"ranks\":[{\"rank\":0.0,\"host\":1}]}",
                      OM_ERR_PARSE, "\"rank\" must be an integer, got 0.0", __LINE__);
    /* 1 and "1" are one id as text but two JSON values (1.3: refused, they
     * used to be merged into one domain); distinct texts may mix types. */
    expect_json_error("{\"levels\":[\"host\",\"rack\"],\"ranks\":[{\"rank\":0,\"rack\":0,"
                      "\"host\":\"a\"},{\"rank\":2,\"rack\":0,\"host\":1},{\"rank\":1,"
                      "\"rack\":0,\"host\":\"1\"}]}",
                      OM_ERR_INVALID_ARGUMENT,
                      "hierarchy JSON ranks[1].host is the integer 1 and ranks[2].host "
                      "the string \"1\": one id here, two values in JSON", __LINE__);
    {
        om_hierarchy *mixed = from_json("{\"levels\":[\"host\"],\"ranks\":[{\"rank\":0,"
                                        "\"host\":\"a\"},{\"rank\":1,\"host\":1},"
                                        "{\"rank\":2,\"host\":1}]}");
        int64_t d0 = -1, d1 = -1, d2 = -1;
        om_error err;
        OM_EXPECT_OK(om_hierarchy_domain_of(mixed, 0, 0, &d0, &err), &err);
        OM_EXPECT_OK(om_hierarchy_domain_of(mixed, 0, 1, &d1, &err), &err);
        OM_EXPECT_OK(om_hierarchy_domain_of(mixed, 0, 2, &d2, &err), &err);
        OM_EXPECT_INT(d0, 0);
        OM_EXPECT_INT(d1, 1);
        OM_EXPECT_INT(d2, 1);
        om_hierarchy_free(mixed);
    }
    expect_json_error("{\"levels\":[\"host\"],\"ranks\":[{\"rank\":0,\"host\":\"7\"},"
                      "{\"rank\":1,\"host\":7}]}",
                      OM_ERR_INVALID_ARGUMENT, "ranks[1].host is the integer 7", __LINE__);
    expect_json_error("{\"levels\":[\"host\"],\"ranks\":[7]}", OM_ERR_PARSE,
                      "ranks[0] must be an object", __LINE__);
    expect_json_error("[1]", OM_ERR_PARSE, "must be an object", __LINE__);
    expect_json_error("{\"levels\":", OM_ERR_PARSE, "line 1", __LINE__);
}

/* ---- hostfiles ---- */

static void test_hostfile(void)
{
    const char *text = "# two trays in one NVLink domain\n"
                       "gb-01 slots=4 nvl=n0\n"
                       "gb-02:4 nvl=n0   # MPICH style\n"
                       "\n"
                       "gb-03 slots=2 max_slots=8 nvl=n1\r\n";
    om_hierarchy *h = NULL;
    om_error err;
    OM_EXPECT_OK(om_hierarchy_from_hostfile(text, strlen(text), &h, &err), &err);
    OM_EXPECT_INT(om_hierarchy_levels(h), 2);
    OM_EXPECT_STR(om_hierarchy_level_name(h, 0), "host");
    OM_EXPECT_STR(om_hierarchy_level_name(h, 1), "nvl");
    OM_EXPECT_INT(om_hierarchy_ranks(h), 10);
    int64_t d = -1;
    OM_EXPECT_OK(om_hierarchy_domain_of(h, 0, 9, &d, &err), &err);
    OM_EXPECT_INT(d, 2);
    OM_EXPECT_OK(om_hierarchy_domain_of(h, 1, 7, &d, &err), &err);
    OM_EXPECT_INT(d, 0);
    char *label = NULL;
    OM_EXPECT_OK(om_hierarchy_domain_label(h, 0, 1, &label, &err), &err);
    OM_EXPECT_STR(label, "gb-02");
    om_string_free(label);
    om_hierarchy_free(h);
}

static void expect_hostfile_error(const char *text, om_status want,
                                  const char *needle, unsigned line)
{
    om_hierarchy *h = (om_hierarchy *)&h;
    om_error err;
    om_status st = om_hierarchy_from_hostfile(text, strlen(text), &h, &err);
    om_test_expect_hierarchy_err(st, h, &err, text, want, needle, __FILE__, line);
}

static void test_hostfile_errors(void)
{
    expect_hostfile_error("a slots=2\nb slots=2\na slots=2\n",
                          OM_ERR_INVALID_ARGUMENT,
                          "lists host \"a\" twice (lines 1 and 3)", __LINE__);
    expect_hostfile_error("a\n", OM_ERR_PARSE,
                          "line 1: host \"a\" has no slot count", __LINE__);
    expect_hostfile_error("a slots=x\n", OM_ERR_PARSE,
                          "line 1: slot count \"x\" is not an integer", __LINE__);
    expect_hostfile_error("a:0\n", OM_ERR_OUT_OF_RANGE, "must be 1..2147483647",
                          __LINE__);
    expect_hostfile_error("a slots=1 rack\n", OM_ERR_PARSE,
                          "field \"rack\" is not key=value", __LINE__);
    expect_hostfile_error("a slots=1 nvl=x\nb slots=1 rack=y\n", OM_ERR_PARSE,
                          "line 2: level \"rack\" differs from the levels of line 1",
                          __LINE__);
    expect_hostfile_error("a slots=1 nvl=x\nb slots=1\n", OM_ERR_PARSE,
                          "line 2 names 0 levels, line 1 names 1", __LINE__);
    expect_hostfile_error("a slots=1 nvl=\n", OM_ERR_PARSE, "has an empty id",
                          __LINE__);
    expect_hostfile_error("# nothing\n\n", OM_ERR_INVALID_ARGUMENT,
                          "lists no hosts", __LINE__);
    expect_hostfile_error("a slots=1 host=x\n", OM_ERR_PARSE,
                          "\"host\" is the first level", __LINE__);
    expect_hostfile_error("a slots=2147483647\nb slots=1\n", OM_ERR_OUT_OF_RANGE,
                          "more than 2147483647 slots (line 2)", __LINE__);
    expect_hostfile_error("\xff slots=1\n", OM_ERR_PARSE, "not valid UTF-8",
                          __LINE__);
    expect_hostfile_error(":4\n", OM_ERR_PARSE, "empty host name", __LINE__);
    /* A key given twice on a line used to keep the last value (1.3 bug
     * fix); both forms of the slot count are one key. */
    expect_hostfile_error("a slots=1\nb slots=2 slots=4\n", OM_ERR_PARSE,
                          "hostfile line 2: key \"slots\" is given twice "
                          "(\"slots=2\" and \"slots=4\")", __LINE__);
    expect_hostfile_error("a:2 slots=4\n", OM_ERR_PARSE,
                          "line 1: key \"slots\" is given twice (\"a:2\" and "
                          "\"slots=4\")", __LINE__);
    expect_hostfile_error("a slots=2 max_slots=4 max_slots=8\n", OM_ERR_PARSE,
                          "line 1: key \"max_slots\" is given twice", __LINE__);
    expect_hostfile_error("a slots=1 rack=1 rack=2\n", OM_ERR_PARSE,
                          "line 1: key \"rack\" is given twice (\"rack=1\" and "
                          "\"rack=2\")", __LINE__);
    expect_hostfile_error("a slots=1 rack=1\nb slots=1 rack=1 rack=2\n",
                          OM_ERR_PARSE, "line 2: key \"rack\" is given twice",
                          __LINE__);
    expect_hostfile_error("a slots=2 max_slots=x\n", OM_ERR_PARSE,
                          "line 1: max_slots \"x\" is not an integer", __LINE__);
    expect_hostfile_error("a slots=2 max_slots=0\n", OM_ERR_OUT_OF_RANGE,
                          "line 1: max_slots \"0\" must be 1..2147483647", __LINE__);
    expect_hostfile_error("a slots=2\nb max_slots=2 slots=4\n", OM_ERR_OUT_OF_RANGE,
                          "line 2: host \"b\" has max_slots=2 below its 4 slots",
                          __LINE__);
    expect_hostfile_error("a slots=2 =r0\n", OM_ERR_PARSE,
                          "line 1: field \"=r0\" has an empty key", __LINE__);
    /* A host named again, in either form, is refused as before. */
    expect_hostfile_error("a:2\nb:2\na:4\n", OM_ERR_INVALID_ARGUMENT,
                          "lists host \"a\" twice (lines 1 and 3)", __LINE__);
    expect_hostfile_error("a:2\na slots=2\n", OM_ERR_INVALID_ARGUMENT,
                          "lists host \"a\" twice (lines 1 and 2)", __LINE__);
    /* A NUL inside a field (found by fuzz_hierarchy): the host would be ""
     * as a string. */
    static const char with_nul[] = "a slots=1\n\0\0b:1 rack=r\n";
    om_hierarchy *h = (om_hierarchy *)&h;
    om_error err;
    om_status st = om_hierarchy_from_hostfile(with_nul, sizeof with_nul - 1, &h, &err);
    om_test_expect_hierarchy_err(st, h, &err, "a NUL inside a host name", OM_ERR_PARSE,
                                 "hostfile line 2 contains a NUL byte", __FILE__, __LINE__);
}

/* The level and field caps, and many hosts. */
static void test_hostfile_limits(void)
{
    char line[512];
    size_t o = (size_t)snprintf(line, sizeof line, "a slots=1");
    for (int i = 0; i < 17; i++)
        o += (size_t)snprintf(line + o, sizeof line - o, " l%d=x", i);
    snprintf(line + o, sizeof line - o, "\n");
    expect_hostfile_error(line, OM_ERR_PARSE, "hostfile line 1: more than 16 levels",
                          __LINE__);
    o = (size_t)snprintf(line, sizeof line, "a slots=1");
    for (int i = 0; i < 19; i++)
        o += (size_t)snprintf(line + o, sizeof line - o, " f%d", i);
    expect_hostfile_error(line, OM_ERR_PARSE, "hostfile line 1 has too many fields",
                          __LINE__);
    /* Many hosts (the duplicate check's table grows): every one kept, in
     * file order, and a duplicate far down still found. */
    enum { HOSTS = 5000 };
    char *text = malloc(HOSTS * 24 + 32);
    o = 0;
    for (int i = 0; i < HOSTS; i++)
        o += (size_t)sprintf(text + o, "node%d slots=2\n", i);
    om_hierarchy *h = NULL;
    om_error err;
    OM_EXPECT_OK(om_hierarchy_from_hostfile(text, o, &h, &err), &err);
    OM_EXPECT_INT(om_hierarchy_ranks(h), 2 * HOSTS);
    char *label = NULL;
    OM_EXPECT_OK(om_hierarchy_domain_label(h, 0, 4321, &label, &err), &err);
    OM_EXPECT_STR(label, "node4321");
    om_string_free(label);
    om_hierarchy_free(h);
    sprintf(text + o, "node17 slots=2\n");
    expect_hostfile_error(text, OM_ERR_INVALID_ARGUMENT,
                          "lists host \"node17\" twice (lines 18 and 5001)", __LINE__);
    free(text);
}

/* ---- locality ---- */

static int64_t value(const om_locality *loc, size_t level, om_locality_field f)
{
    int64_t v = -99;
    om_error err;
    OM_EXPECT_OK(om_locality_get(loc, level, f, &v, &err), &err);
    return v;
}

static om_locality *locality(const om_mesh *mesh, const om_hierarchy *h,
                             const char *const *axes, size_t naxes)
{
    om_locality *loc = NULL;
    om_error err;
    om_test_poison(&err);
    OM_EXPECT_OK(om_hierarchy_locality(mesh, h, axes, naxes, &loc, &err), &err);
    OM_EXPECT(om_test_is_poisoned(&err));
    return loc;
}

static void test_locality_hand_checked(void)
{
    /* dp=3, tp=5, hosts of 4, NVLink domains of 6 (partial last domains;
     * 4 does not divide 6). tp groups [0..4], [5..9], [10..14]. */
    om_mesh *mesh = om_test_mesh("dp=3,tp=5");
    om_hierarchy *h = spec("host=4,nvl=6");
    const char *tp[] = {"tp"}, *dp[] = {"dp"};
    om_locality *loc = locality(mesh, h, tp, 1);
    OM_EXPECT_INT(om_locality_groups(loc), 3);
    OM_EXPECT_INT(om_locality_levels(loc), 2);
    OM_EXPECT_INT(value(loc, 0, OM_LOCALITY_GROUPS_INSIDE), 0);
    OM_EXPECT_INT(value(loc, 0, OM_LOCALITY_GROUPS_CROSSING), 3);
    OM_EXPECT_INT(value(loc, 0, OM_LOCALITY_MAX_DOMAINS), 2);
    OM_EXPECT_INT(value(loc, 0, OM_LOCALITY_PPN_MIN), 1);
    OM_EXPECT_INT(value(loc, 0, OM_LOCALITY_PPN_MAX), 4);
    OM_EXPECT_INT(value(loc, 0, OM_LOCALITY_FIRST_CROSSING), 0);
    OM_EXPECT_INT(value(loc, 0, OM_LOCALITY_CROSSING_RANK), 4);
    OM_EXPECT_INT(value(loc, 1, OM_LOCALITY_GROUPS_INSIDE), 1);
    OM_EXPECT_INT(value(loc, 1, OM_LOCALITY_GROUPS_CROSSING), 2);
    OM_EXPECT_INT(value(loc, 1, OM_LOCALITY_PPN_MAX), 5);
    OM_EXPECT_INT(value(loc, 1, OM_LOCALITY_WORST_GROUP), 1);
    OM_EXPECT_INT(value(loc, 1, OM_LOCALITY_FIRST_CROSSING), 1);
    OM_EXPECT_INT(value(loc, 1, OM_LOCALITY_CROSSING_RANK), 6);
    om_locality_free(loc);
    /* dp groups [0,5,10] .. [4,9,14]: [2,7,12] spans nvl 0, 1, 2. */
    loc = locality(mesh, h, dp, 1);
    OM_EXPECT_INT(value(loc, 1, OM_LOCALITY_MAX_DOMAINS), 3);
    OM_EXPECT_INT(value(loc, 1, OM_LOCALITY_WORST_GROUP), 2);
    OM_EXPECT_INT(value(loc, 1, OM_LOCALITY_PPN_MAX), 2);
    OM_EXPECT_INT(value(loc, 1, OM_LOCALITY_GROUPS_INSIDE), 0);
    om_locality_free(loc);
    /* No axes: single-rank groups are always inside. */
    loc = locality(mesh, h, NULL, 0);
    OM_EXPECT_INT(om_locality_groups(loc), 15);
    OM_EXPECT_INT(value(loc, 0, OM_LOCALITY_GROUPS_INSIDE), 15);
    OM_EXPECT_INT(value(loc, 0, OM_LOCALITY_FIRST_CROSSING), -1);
    OM_EXPECT_INT(value(loc, 0, OM_LOCALITY_CROSSING_RANK), -1);
    OM_EXPECT_INT(value(loc, 0, OM_LOCALITY_PPN_MAX), 1);
    om_locality_free(loc);
    om_hierarchy_free(h);
    om_mesh_free(mesh);
}

static void test_locality_errors(void)
{
    om_mesh *mesh = om_test_mesh("dp=2,tp=2");
    om_hierarchy *h = spec("host=2");
    om_hierarchy *four = from_json("{\"levels\":[\"host\"],\"ranks\":["
                                   "{\"rank\":0,\"host\":0},{\"rank\":1,\"host\":0}]}");
    om_locality *loc = (om_locality *)&loc;
    om_error err;
    const char *bad[] = {"ep"}, *twice[] = {"tp", "tp"}, *null_axis[] = {NULL};
    OM_EXPECT_ERR(om_hierarchy_locality(mesh, h, bad, 1, &loc, &err), &err,
                  OM_ERR_UNKNOWN_AXIS, "axis \"ep\" is not in the mesh (dp, tp)");
    OM_EXPECT(loc == NULL);
    OM_EXPECT_ERR(om_hierarchy_locality(mesh, h, twice, 2, &loc, &err), &err,
                  OM_ERR_DUPLICATE_NAME, "axis \"tp\" is named twice");
    OM_EXPECT_ERR(om_hierarchy_locality(mesh, h, null_axis, 1, &loc, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "axis name 0 is NULL");
    OM_EXPECT_ERR(om_hierarchy_locality(mesh, h, NULL, 1, &loc, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "axis name array is NULL");
    OM_EXPECT_ERR(om_hierarchy_locality(mesh, four, NULL, 0, &loc, &err), &err,
                  OM_ERR_INVALID_ARGUMENT,
                  "the hierarchy describes 2 ranks but the mesh has 4");
    OM_EXPECT_ERR(om_hierarchy_locality(NULL, h, NULL, 0, &loc, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    OM_EXPECT_ERR(om_hierarchy_locality(mesh, NULL, NULL, 0, &loc, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "hierarchy is NULL");
    OM_EXPECT_ERR(om_hierarchy_locality(mesh, h, NULL, 0, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    loc = locality(mesh, h, NULL, 0);
    int64_t v;
    OM_EXPECT_ERR(om_locality_get(loc, 1, OM_LOCALITY_PPN_MIN, &v, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "level 1");
    OM_EXPECT_ERR(om_locality_get(loc, 0, (om_locality_field)8, &v, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "unknown locality field 8");
    OM_EXPECT_ERR(om_locality_get(loc, 0, OM_LOCALITY_PPN_MIN, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_INT(om_locality_groups(NULL), 0);
    OM_EXPECT_INT(om_locality_levels(NULL), 0);
    om_locality_free(loc);
    om_locality_free(NULL);
    om_hierarchy_free(NULL);
    OM_EXPECT_INT(om_hierarchy_levels(NULL), 0);
    om_hierarchy_free(four);
    om_hierarchy_free(h);
    om_mesh_free(mesh);
}

/* ---- brute force ---- */

typedef struct {
    int64_t v[8];
} expected;

/* Every value of one level from the materialised groups and a domain
 * function. */
static expected brute(const om_mesh *mesh, uint64_t mask,
                      int64_t (*domain)(const void *, int64_t), const void *ctx)
{
    int64_t count, size;
    om_error err;
    OM_EXPECT_OK(om_mesh_group_shape(mesh, mask, &count, &size, &err), &err);
    int32_t *groups = malloc((size_t)(count * size) * sizeof *groups);
    OM_EXPECT_OK(om_mesh_groups(mesh, mask, 0, count, groups,
                                (size_t)(count * size), &err), &err);
    expected e = {{0, 0, 0, INT64_MAX, 0, 0, -1, -1}};
    int64_t *doms = malloc((size_t)size * sizeof *doms);
    for (int64_t g = 0; g < count; g++) {
        const int32_t *m = groups + g * size;
        int64_t distinct = 0, lo = INT64_MAX, hi = 0, outside = -1;
        for (int64_t i = 0; i < size; i++) {
            doms[i] = domain(ctx, m[i]);
            if (outside < 0 && doms[i] != doms[0])
                outside = m[i];
        }
        for (int64_t i = 0; i < size; i++) {
            bool seen = false;
            for (int64_t j = 0; j < i; j++)
                seen = seen || doms[j] == doms[i];
            if (seen)
                continue;
            distinct++;
            int64_t c = 0;
            for (int64_t j = 0; j < size; j++)
                c += doms[j] == doms[i];
            lo = c < lo ? c : lo;
            hi = c > hi ? c : hi;
        }
        if (distinct == 1) {
            e.v[OM_LOCALITY_GROUPS_INSIDE]++;
        } else {
            e.v[OM_LOCALITY_GROUPS_CROSSING]++;
            if (e.v[OM_LOCALITY_FIRST_CROSSING] < 0) {
                e.v[OM_LOCALITY_FIRST_CROSSING] = g;
                e.v[OM_LOCALITY_CROSSING_RANK] = outside;
            }
        }
        if (distinct > e.v[OM_LOCALITY_MAX_DOMAINS]) {
            e.v[OM_LOCALITY_MAX_DOMAINS] = distinct;
            e.v[OM_LOCALITY_WORST_GROUP] = g;
        }
        if (lo < e.v[OM_LOCALITY_PPN_MIN])
            e.v[OM_LOCALITY_PPN_MIN] = lo;
        if (hi > e.v[OM_LOCALITY_PPN_MAX])
            e.v[OM_LOCALITY_PPN_MAX] = hi;
    }
    free(doms);
    free(groups);
    return e;
}

static int64_t uniform_domain(const void *ctx, int64_t rank)
{
    return rank / *(const int64_t *)ctx;
}

static int64_t table_domain(const void *ctx, int64_t rank)
{
    return ((const int64_t *)ctx)[rank];
}

static void compare(const om_locality *loc, size_t level, const expected *e,
                    const char *what, unsigned line)
{
    for (int f = 0; f < 8; f++) {
        int64_t got = value(loc, level, (om_locality_field)f);
        om_test_record(got == e->v[f], __FILE__, line,
                       "%s level %zu field %d: got %lld, brute force %lld", what,
                       level, f, (long long)got, (long long)e->v[f]);
    }
}

static void test_brute_force(void)
{
    uint64_t seed = 14;
    static const char *names[] = {"a", "b", "c", "d", "e"};
    for (int trial = 0; trial < 400; trial++) {
        /* A random mesh of up to 5 axes and up to ~2000 ranks. */
        size_t ndim = (size_t)om_test_rand_range(&seed, 1, 5);
        int64_t sizes[5], total = 1;
        for (size_t i = 0; i < ndim; i++) {
            sizes[i] = om_test_rand_range(&seed, 1, total > 200 ? 2 : 7);
            total *= sizes[i];
        }
        om_mesh *mesh = NULL;
        om_error err;
        OM_EXPECT_OK(om_mesh_new(names, sizes, ndim, &mesh, &err), &err);
        /* Random increasing uniform levels, dividing or not. */
        char text[128] = "";
        int64_t k[3], last = 0;
        size_t nlevels = (size_t)om_test_rand_range(&seed, 1, 3);
        for (size_t l = 0; l < nlevels; l++) {
            k[l] = last + om_test_rand_range(&seed, 1, l == 0 ? 9 : 3 * last + 1);
            last = k[l];
            snprintf(text + strlen(text), sizeof text - strlen(text), "%sL%zu=%lld",
                     l ? "," : "", l, (long long)k[l]);
        }
        om_hierarchy *h = spec(text);
        /* The same levels written out per rank as JSON, plus a shuffled
         * explicit level, both checked against the brute force too. */
        int64_t *shuffled = malloc((size_t)total * sizeof *shuffled);
        int64_t ndom = om_test_rand_range(&seed, 1, total);
        for (int64_t r = 0; r < total; r++)
            shuffled[r] = om_test_rand_range(&seed, 0, ndom - 1);
        size_t cap = (size_t)total * 48 + 64;
        char *json = malloc(cap);
        size_t o = (size_t)snprintf(json, cap, "{\"levels\":[\"u\",\"x\"],\"ranks\":[");
        for (int64_t r = 0; r < total; r++)
            o += (size_t)snprintf(json + o, cap - o, "%s{\"rank\":%lld,\"u\":%lld,\"x\":0}",
                                  r ? "," : "", (long long)r,
                                  (long long)(r / k[0]));
        snprintf(json + o, cap - o, "]}");
        om_hierarchy *ex = from_json(json);
        o = (size_t)snprintf(json, cap, "{\"levels\":[\"s\"],\"ranks\":[");
        for (int64_t r = 0; r < total; r++)
            o += (size_t)snprintf(json + o, cap - o, "%s{\"rank\":%lld,\"s\":\"d%lld\"}",
                                  r ? "," : "", (long long)r, (long long)shuffled[r]);
        snprintf(json + o, cap - o, "]}");
        om_hierarchy *sh = from_json(json);
        /* Shuffled ids are numbered by first appearance: map them. */
        int64_t *dense = malloc((size_t)total * sizeof *dense);
        for (int64_t r = 0; r < total; r++)
            OM_EXPECT_OK(om_hierarchy_domain_of(sh, 0, r, &dense[r], &err), &err);
        /* A random axis subset, in random order. */
        const char *axes[5];
        size_t naxes = 0;
        uint64_t mask = 0;
        for (size_t i = 0; i < ndim; i++)
            if (om_test_rand(&seed) & 1) {
                mask |= UINT64_C(1) << i;
                axes[naxes++] = names[i];
            }
        if (naxes > 1 && (om_test_rand(&seed) & 1)) {
            const char *t = axes[0];
            axes[0] = axes[naxes - 1];
            axes[naxes - 1] = t;
        }
        om_locality *loc = locality(mesh, h, axes, naxes);
        for (size_t l = 0; l < nlevels; l++) {
            expected e = brute(mesh, mask, uniform_domain, &k[l]);
            compare(loc, l, &e, text, __LINE__);
        }
        om_locality_free(loc);
        loc = locality(mesh, ex, axes, naxes);
        expected e = brute(mesh, mask, uniform_domain, &k[0]);
        compare(loc, 0, &e, "explicit copy of level 0", __LINE__);
        om_locality_free(loc);
        loc = locality(mesh, sh, axes, naxes);
        e = brute(mesh, mask, table_domain, dense);
        compare(loc, 0, &e, "shuffled explicit level", __LINE__);
        om_locality_free(loc);
        /* The same axes as a view: strides of a random axis order (members
         * and groups then interleave), in the explicit table and, shifted
         * by an offset, in the uniform levels. */
        int64_t strides[5], stride = 1;
        size_t order[5];
        for (size_t i = 0; i < ndim; i++)
            order[i] = i;
        for (size_t i = ndim; i-- > 1;) {
            size_t j = (size_t)om_test_rand_range(&seed, 0, (int64_t)i), x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        for (size_t i = ndim; i-- > 0;) {
            strides[order[i]] = stride;
            stride *= sizes[order[i]];
        }
        om_mesh *view = NULL, *shifted = NULL;
        int64_t offset = om_test_rand_range(&seed, 1, 9);
        OM_EXPECT_OK(om_view_new(names, ndim, sizes, ndim, strides, ndim, 0, &view, &err), &err);
        OM_EXPECT_OK(om_view_new(names, ndim, sizes, ndim, strides, ndim, offset, &shifted,
                                 &err), &err);
        loc = locality(view, sh, axes, naxes);
        e = brute(view, mask, table_domain, dense);
        compare(loc, 0, &e, "a view in the shuffled explicit level", __LINE__);
        om_locality_free(loc);
        loc = locality(shifted, h, axes, naxes);
        for (size_t l = 0; l < nlevels; l++) {
            e = brute(shifted, mask, uniform_domain, &k[l]);
            compare(loc, l, &e, "a shifted view in uniform levels", __LINE__);
        }
        om_locality_free(loc);
        om_mesh_free(shifted);
        om_mesh_free(view);
        free(dense);
        free(json);
        free(shuffled);
        om_hierarchy_free(sh);
        om_hierarchy_free(ex);
        om_hierarchy_free(h);
        om_mesh_free(mesh);
    }
}

/* Views in an explicit hierarchy of the job's ranks: a flatten (a family
 * whose instances cover the job), a slice and a strided view with an
 * offset (part of it). Their global ranks index the table; a view holding
 * a rank past it is refused (it used to be read out of bounds). */
static void test_views_in_explicit_tables(void)
{
    om_mesh *mesh = om_test_mesh("dp=3,cp=2,tp=4");
    const char *dpcp[] = {"dp", "cp"}, *cp[] = {"cp"}, *ab[] = {"a", "b"};
    const char *abc[] = {"a", "b", "c"};
    const int64_t sizes[] = {3, 2}, strides[] = {8, 1};
    const int64_t mixed_sizes[] = {3, 2, 2}, mixed_strides[] = {2, 3, 12};
    om_mesh *views[5] = {NULL};
    om_error err;
    OM_EXPECT_OK(om_view_flatten(mesh, dpcp, 2, "dpcp", &views[0], &err), &err);
    OM_EXPECT_OK(om_view_slice(mesh, cp, 1, &views[1], &err), &err);
    OM_EXPECT_OK(om_view_new(ab, 2, sizes, 2, strides, 2, 2, &views[2], &err), &err);
    OM_EXPECT_OK(om_view_flatten(views[2], ab, 2, "ab", &views[3], &err), &err);
    /* Strides that interleave: members and groups not increasing. */
    OM_EXPECT_OK(om_view_new(abc, 3, mixed_sizes, 3, mixed_strides, 3, 0, &views[4], &err),
                 &err);
    const char *hostfile = "h0 slots=5 rack=x\nh1 slots=7 rack=x\nh2 slots=3 rack=y\n"
                           "h3 slots=9 rack=y\n";
    om_hierarchy *h = NULL;
    OM_EXPECT_OK(om_hierarchy_from_hostfile(hostfile, strlen(hostfile), &h, &err), &err);
    int64_t host[24], rack[24];
    for (int64_t r = 0; r < 24; r++) {
        OM_EXPECT_OK(om_hierarchy_domain_of(h, 0, r, &host[r], &err), &err);
        OM_EXPECT_OK(om_hierarchy_domain_of(h, 1, r, &rack[r], &err), &err);
    }
    OM_EXPECT_INT(host[5], 1);
    OM_EXPECT_INT(rack[15], 1);
    for (size_t v = 0; v < 5; v++) {
        size_t ndim = om_mesh_ndim(views[v]);
        for (uint64_t mask = 0; mask < (UINT64_C(1) << ndim); mask++) {
            const char *axes[3];
            size_t naxes = 0;
            for (size_t i = 0; i < ndim; i++)
                if (mask >> i & 1)
                    axes[naxes++] = om_mesh_name(views[v], i);
            om_locality *loc = locality(views[v], h, axes, naxes);
            expected e = brute(views[v], mask, table_domain, host);
            compare(loc, 0, &e, "view in a hostfile, host", __LINE__);
            e = brute(views[v], mask, table_domain, rack);
            compare(loc, 1, &e, "view in a hostfile, rack", __LINE__);
            om_locality_free(loc);
        }
    }
    /* The flatten's dpcp groups: ranks 0,4,..,20 plus tp, hosts 0-3. */
    om_locality *loc = locality(views[0], h, dpcp + 1, 0);
    OM_EXPECT_INT(value(loc, 0, OM_LOCALITY_GROUPS_INSIDE), 24);
    om_locality_free(loc);
    const char *dims[] = {"dpcp"};
    loc = locality(views[0], h, dims, 1);
    OM_EXPECT_INT(value(loc, 0, OM_LOCALITY_MAX_DOMAINS), 4);
    OM_EXPECT_INT(value(loc, 0, OM_LOCALITY_CROSSING_RANK), 8);
    om_locality_free(loc);
    /* A rule names the group as om_mesh_groups lists it: c's groups start
     * at the sorted first members 0, 2, 3, 4, 5, 7 (the odometer gives
     * 0, 2, 4, 3, 5, 7), and only rank 15's domain differs. */
    char json[1024];
    size_t o = (size_t)snprintf(json, sizeof json, "{\"levels\":[\"s\"],\"ranks\":[");
    for (int r = 0; r < 20; r++)
        o += (size_t)snprintf(json + o, sizeof json - o, "%s{\"rank\":%d,\"s\":\"%s\"}",
                              r ? "," : "", r, r == 15 ? "B" : "A");
    snprintf(json + o, sizeof json - o, "]}");
    om_hierarchy *odd = from_json(json);
    char *broken = NULL;
    size_t nbroken = 0;
    OM_EXPECT_OK(om_hierarchy_check(views[4], odd, "c:s", &broken, &nbroken, &err), &err);
    OM_EXPECT_STR(broken, "c:s broken: c group 2 (ranks 3, 15) crosses s domains: "
                          "rank 15 is in s B, rank 3 in s A (groups span up to 2 "
                          "domains)\n");
    om_string_free(broken);
    om_hierarchy_free(odd);
    /* Past the table: a strided view of 4 ranks (so as many as the table
     * of a 4-slot hostfile) reaching rank 3000000, and one rank too far. */
    om_hierarchy *four = NULL;
    OM_EXPECT_OK(om_hierarchy_from_hostfile("x slots=2\ny slots=2\n", 20, &four, &err), &err);
    const char *a[] = {"a"};
    const int64_t four_size[] = {4}, wide[] = {1000000}, one[] = {1};
    om_mesh *far = NULL, *shifted = NULL;
    OM_EXPECT_OK(om_view_new(a, 1, four_size, 1, wide, 1, 0, &far, &err), &err);
    OM_EXPECT_OK(om_view_new(a, 1, four_size, 1, one, 1, 1, &shifted, &err), &err);
    loc = (om_locality *)&loc;
    OM_EXPECT_ERR(om_hierarchy_locality(far, four, a, 1, &loc, &err), &err,
                  OM_ERR_INVALID_ARGUMENT,
                  "the view holds rank 3000000 but the hierarchy describes only ranks 0..3");
    OM_EXPECT(loc == NULL);
    OM_EXPECT_ERR(om_hierarchy_locality(shifted, four, a, 1, &loc, &err), &err,
                  OM_ERR_INVALID_ARGUMENT,
                  "the view holds rank 4 but the hierarchy describes only ranks 0..3");
    om_mesh_free(shifted);
    om_mesh_free(far);
    om_hierarchy_free(four);
    om_hierarchy_free(h);
    for (size_t v = 0; v < 5; v++)
        om_mesh_free(views[v]);
    om_mesh_free(mesh);
}

/* Long runs and strides that do not divide the domain size: the cases the
 * run walker handles without visiting every member. */
static void test_brute_force_long_runs(void)
{
    static const char *specs[] = {"a=3,b=1000", "a=700,b=3", "a=5,b=16,c=7",
                                  "a=2,b=37,c=3"};
    static const int64_t ks[] = {1, 2, 3, 5, 7, 8, 16, 24, 36, 72, 100, 577, 1999};
    static const char *sets[][2] = {{"a", NULL}, {"b", NULL}, {"a", "b"},
                                    {"c", NULL}, {"a", "c"}};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        om_mesh *mesh = om_test_mesh(specs[s]);
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
            char text[32];
            snprintf(text, sizeof text, "host=%lld", (long long)ks[i]);
            om_hierarchy *h = spec(text);
            for (size_t a = 0; a < sizeof sets / sizeof sets[0]; a++) {
                size_t naxes = sets[a][1] ? 2 : 1;
                uint64_t mask = 0;
                bool known = true;
                for (size_t j = 0; j < naxes; j++) {
                    int idx = om_mesh_index_of(mesh, sets[a][j]);
                    known = known && idx >= 0;
                    if (idx >= 0)
                        mask |= UINT64_C(1) << idx;
                }
                if (!known)
                    continue;
                om_locality *loc = locality(mesh, h, sets[a], naxes);
                expected e = brute(mesh, mask, uniform_domain, &ks[i]);
                compare(loc, 0, &e, specs[s], __LINE__);
                om_locality_free(loc);
            }
            om_hierarchy_free(h);
        }
        om_mesh_free(mesh);
    }
}

/* ---- rules ---- */

static void test_check(void)
{
    om_mesh *mesh = om_test_mesh("dp=4,cp=2,tp=4");
    om_hierarchy *h = spec("host=8,nvl=16");
    char *lines = NULL;
    size_t count = 99;
    om_error err;
    om_test_poison(&err);
    OM_EXPECT_OK(om_hierarchy_check(mesh, h, "tp:host, cp+tp:host,dp+cp+tp:nvl",
                                    &lines, &count, &err), &err);
    OM_EXPECT_INT(count, 1);
    OM_EXPECT_STR(lines,
                  "dp+cp+tp:nvl broken: dp+cp+tp group 0 (ranks 0, 1, 2, 3, ...) "
                  "crosses nvl domains: rank 16 is in nvl 1, rank 0 in nvl 0 "
                  "(groups span up to 2 domains)\n");
    om_string_free(lines);
    OM_EXPECT_OK(om_hierarchy_check(mesh, h, "dp:host,tp:host,cp:nvl", &lines,
                                    &count, &err), &err);
    OM_EXPECT_INT(count, 1);
    OM_EXPECT(strncmp(lines, "dp:host broken: dp group 0 (ranks 0, 8, 16, 24) "
                             "crosses host domains: rank 8 is in host 1", 80) == 0);
    om_string_free(lines);
    OM_EXPECT_OK(om_hierarchy_check(mesh, h, "tp:host", &lines, &count, &err), &err);
    OM_EXPECT_INT(count, 0);
    OM_EXPECT_STR(lines, "");
    om_string_free(lines);
    OM_EXPECT_ERR(om_hierarchy_check(mesh, h, "tp:rack", &lines, &count, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "unknown level \"rack\"");
    OM_EXPECT(lines == NULL);
    OM_EXPECT_ERR(om_hierarchy_check(mesh, h, "ep:host", &lines, &count, &err),
                  &err, OM_ERR_UNKNOWN_AXIS, "axis \"ep\" is not in the mesh");
    OM_EXPECT_ERR(om_hierarchy_check(mesh, h, "tp", &lines, &count, &err), &err,
                  OM_ERR_PARSE, "\"tp\" is not AXES:LEVEL");
    OM_EXPECT_ERR(om_hierarchy_check(mesh, h, "tp:host,", &lines, &count, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "a placement rule is empty");
    OM_EXPECT_ERR(om_hierarchy_check(mesh, h, "tp++cp:host", &lines, &count, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "empty axis name");
    OM_EXPECT_ERR(om_hierarchy_check(mesh, NULL, "tp:host", &lines, &count, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "hierarchy is NULL");
    OM_EXPECT_ERR(om_hierarchy_check(mesh, h, "tp:host", NULL, &count, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    om_hierarchy_free(h);
    /* Explicit levels name their domains by the file's ids. */
    const char *hf = "n7 slots=2\nn8 slots=2\n";
    OM_EXPECT_OK(om_hierarchy_from_hostfile(hf, strlen(hf), &h, &err), &err);
    om_mesh *small = om_test_mesh("dp=2,tp=2");
    OM_EXPECT_OK(om_hierarchy_check(small, h, "dp:host", &lines, &count, &err), &err);
    OM_EXPECT(strstr(lines, "rank 2 is in host n8, rank 0 in host n7") != NULL);
    om_string_free(lines);
    om_mesh_free(small);
    om_hierarchy_free(h);
    om_mesh_free(mesh);
}

/* ---- order advice ---- */

static om_dims *moe_dims(int64_t tp, int64_t cp, int64_t ep, int64_t dp,
                         int64_t pp)
{
    om_dims *d = NULL;
    om_error err;
    OM_EXPECT_OK(om_dims_new(&d, &err), &err);
    OM_EXPECT_OK(om_dims_set(d, OM_DIM_TP, tp, &err), &err);
    OM_EXPECT_OK(om_dims_set(d, OM_DIM_CP, cp, &err), &err);
    OM_EXPECT_OK(om_dims_set(d, OM_DIM_EP, ep, &err), &err);
    OM_EXPECT_OK(om_dims_set(d, OM_DIM_DP, dp, &err), &err);
    OM_EXPECT_OK(om_dims_set(d, OM_DIM_PP, pp, &err), &err);
    return d;
}

static void test_order_advice(void)
{
    /* tp 2, dp 2, pp 2 on hosts of 2 and nodes of 4: the best order keeps
     * tp inside a host and pp outermost. */
    om_dims *d = moe_dims(2, 1, 1, 2, 2);
    om_hierarchy *h = spec("host=2,node=4");
    char *json = NULL;
    om_error err;
    OM_EXPECT_OK(om_order_advice(d, h, "tp:host", NULL, "tp>dp>pp", &json, &err),
                 &err);
    const char *best = "{\"orders\":[{\"broken\":[],\"crossings\":{"
                       "\"dp\":{\"host\":4,\"node\":0},"
                       "\"pp\":{\"host\":4,\"node\":4},"
                       "\"tp\":{\"host\":0,\"node\":0}},"
                       "\"megatron\":\"tp-dp-pp\",\"torch\":\"pp,dp,tp\"},"
                       "{\"broken\":[],\"crossings\":{"
                       "\"dp\":{\"host\":4,\"node\":4},"
                       "\"pp\":{\"host\":4,\"node\":0},";
    OM_EXPECT(strncmp(json, best, strlen(best)) == 0);
    /* Six orders, none rejected (ep == cp == 1). */
    OM_EXPECT(strstr(json, "\"rejected\":[]}") != NULL);
    size_t orders = 0;
    for (const char *p = json; (p = strstr(p, "\"megatron\"")); p++)
        orders++;
    OM_EXPECT_INT(orders, 6);
    om_string_free(json);
    char *broken = NULL;
    size_t count = 9;
    OM_EXPECT_OK(om_order_check(d, h, "pp,tp,dp", "tp:host", &broken, &count, &err),
                 &err);
    OM_EXPECT_INT(count, 1);
    OM_EXPECT(strncmp(broken, "tp:host broken: tp group 0 (ranks 0, 2)", 39) == 0);
    om_string_free(broken);
    OM_EXPECT_OK(om_order_check(d, h, "tp-dp-pp", "tp:host", &broken, &count, &err),
                 &err);
    OM_EXPECT_INT(count, 0);
    om_string_free(broken);
    OM_EXPECT_ERR(om_order_check(d, h, "pp,tp", NULL, &broken, &count, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "omits dp of size 2");
    OM_EXPECT_ERR(om_order_advice(d, h, NULL, NULL, "tp>xx", &json, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "\"xx\" is not one of tp, cp, ep, dp, pp");
    OM_EXPECT_ERR(om_order_advice(d, h, NULL, NULL, "tp>tp", &json, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "named twice");
    /* A trailing '>' is an empty item, as a leading one (it was ignored). */
    OM_EXPECT_ERR(om_order_advice(d, h, NULL, NULL, "tp>", &json, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "priority \"tp>\": \"\" is not one of tp");
    OM_EXPECT_ERR(om_order_advice(d, h, NULL, NULL, ">tp", &json, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "priority \">tp\": \"\" is not one of tp");
    OM_EXPECT_ERR(om_order_advice(d, h, "tp:rack", NULL, NULL, &json, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "unknown level \"rack\"");
    OM_EXPECT_ERR(om_order_advice(NULL, h, NULL, NULL, NULL, &json, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "dims is NULL");
    om_dims_free(d);
    /* MoE: ep 4 != cp 1 with pp 2, so Megatron needs pp last; the rule on
     * ep is judged on the expert layout. */
    d = moe_dims(2, 1, 4, 4, 2);
    OM_EXPECT_OK(om_order_check(d, h, "tp-dp-pp-ep", NULL, &broken, &count, &err),
                 &err);
    OM_EXPECT_INT(count, 1);
    OM_EXPECT(strstr(broken, "Megatron needs pp last (slowest) when the expert "
                             "data-parallel size (1) differs from dp (4)") != NULL);
    om_string_free(broken);
    OM_EXPECT_OK(om_order_check(d, h, "tp-ep-dp-pp", "tp+ep:node", &broken, &count,
                                &err), &err);
    OM_EXPECT_INT(count, 1);
    OM_EXPECT(strncmp(broken, "tp+ep:node broken: tp+ep group 0 (ranks 0, 1, 2, 3, "
                              "...) crosses node domains: rank 4", 80) == 0);
    om_string_free(broken);
    OM_EXPECT_OK(om_order_advice(d, h, NULL, NULL, NULL, &json, &err), &err);
    OM_EXPECT(strstr(json, "{\"megatron\":\"tp-dp-pp-ep\",\"torch\":"
                           "\"ep,pp,dp,tp\",\"reason\":\"Megatron needs pp last") != NULL);
    om_string_free(json);
    OM_EXPECT_ERR(om_order_advice(d, h, "cp+ep:host", NULL, NULL, &json, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mixes cp and ep");
    om_dims_free(d);
    /* One rank: Megatron's default order, not "" (which it refuses). */
    d = moe_dims(1, 1, 1, 1, 1);
    OM_EXPECT_OK(om_order_advice(d, h, NULL, NULL, NULL, &json, &err), &err);
    OM_EXPECT_STR(json, "{\"orders\":[{\"broken\":[],\"crossings\":{},\"megatron\":"
                        "\"tp-cp-ep-dp-pp\",\"torch\":\"pp,dp,ep,cp,tp\"}],\"rejected\":[]}");
    om_string_free(json);
    om_dims_free(d);
    d = moe_dims(3, 1, 4, 2, 1);
    OM_EXPECT_ERR(om_order_advice(d, h, NULL, NULL, NULL, &json, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "world size 6 is not divisible by "
                  "tp*ep*pp = 12");
    om_dims_free(d);
    om_hierarchy_free(h);
}

/* Megatron also asserts that the dense and expert generators give the
 * same pp groups: with ep == cp and pp not last that fails when something
 * sits between them (tp-cp-pp-ep). Advice used to rank such orders. For
 * tp = cp = ep = 2, pp = 3 (dp 1), every order of the four tokens is
 * ranked or rejected exactly as the megatron preset (checked against
 * megatron-core) accepts or refuses it. */
static void test_order_advice_matches_megatron(void)
{
    om_dims *d = moe_dims(2, 2, 2, 1, 3);
    om_hierarchy *h = spec("host=4");
    om_error err;
    char *json = NULL;
    OM_EXPECT_OK(om_order_advice(d, h, NULL, NULL, NULL, &json, &err), &err);
    const char *tokens[] = {"tp", "cp", "ep", "pp"};
    size_t refused = 0, orders = 0;
    for (int n = 0; n < 256; n++) {
        /* every order of the four tokens: n's base-4 digits, all distinct */
        size_t perm[4] = {(size_t)n & 3, (size_t)n >> 2 & 3, (size_t)n >> 4 & 3,
                          (size_t)n >> 6 & 3};
        if (perm[0] == perm[1] || perm[0] == perm[2] || perm[0] == perm[3] ||
            perm[1] == perm[2] || perm[1] == perm[3] || perm[2] == perm[3])
            continue;
        char order[32], param[64], quoted[64];
        snprintf(order, sizeof order, "%s-%s-%s-%s", tokens[perm[0]], tokens[perm[1]],
                 tokens[perm[2]], tokens[perm[3]]);
        snprintf(param, sizeof param, "order=%s", order);
        const char *params[] = {"tensor_model_parallel_size=2", "context_parallel_size=2",
                                "expert_model_parallel_size=2",
                                "pipeline_model_parallel_size=3", param};
        om_preset *p = NULL;
        om_status st = om_preset_new("megatron", params, 5, 12, &p, &err);
        om_preset_free(p);
        snprintf(quoted, sizeof quoted, "\"megatron\":\"%s\"", order);
        const char *at = strstr(json, quoted), *rejected = strstr(json, "\"rejected\"");
        OM_EXPECT(at != NULL && rejected != NULL);
        om_test_record(at && rejected && (st == OM_OK) == (at < rejected), __FILE__, __LINE__,
                       "%s: megatron %s it, advice %s it", order,
                       st == OM_OK ? "accepts" : "refuses",
                       at && at < rejected ? "ranks" : "rejects");
        refused += st != OM_OK;
        orders += at && at < rejected;
        char *broken = NULL;
        size_t count = 0;
        OM_EXPECT_OK(om_order_check(d, h, order, NULL, &broken, &count, &err), &err);
        OM_EXPECT_INT(count, st == OM_OK ? 0 : 1);
        om_string_free(broken);
    }
    OM_EXPECT_INT(orders + refused, 24);
    OM_EXPECT(refused > 0 && refused < 24);
    OM_EXPECT(strstr(json, "{\"megatron\":\"tp-cp-pp-ep\",\"torch\":\"ep,pp,cp,tp\","
                           "\"reason\":\"Megatron needs the same pp groups in the dense "
                           "and the expert layout") != NULL);
    om_string_free(json);
    om_hierarchy_free(h);
    om_dims_free(d);
}

static const om_test_case hierarchy_tests[] = {
    {"uniform spec", test_spec},
    {"uniform spec errors", test_spec_errors},
    {"explicit JSON", test_json},
    {"explicit JSON errors", test_json_errors},
    {"hostfile", test_hostfile},
    {"hostfile errors", test_hostfile_errors},
    {"hostfile: levels, fields, 5000 hosts", test_hostfile_limits},
    {NULL, NULL},
};

static const om_test_case locality_tests[] = {
    {"hand-checked", test_locality_hand_checked},
    {"errors", test_locality_errors},
    {"brute force, random meshes", test_brute_force},
    {"brute force, long runs", test_brute_force_long_runs},
    {"views in an explicit hierarchy", test_views_in_explicit_tables},
    {"placement rules", test_check},
    {"order advice", test_order_advice},
    {"order advice: Megatron's pp-group rule", test_order_advice_matches_megatron},
    {NULL, NULL},
};

int main(int argc, char **argv)
{
    static const om_test_suite suites[] = {
        {"hierarchy", NULL, NULL, hierarchy_tests},
        {"hierarchy locality", NULL, NULL, locality_tests},
        {NULL, NULL, NULL, NULL},
    };
    return om_test_main(argc, argv, suites);
}
