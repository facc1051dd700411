/* The YAML projection: om_dims_from_yaml() and om_dims_load_yaml().
 * Fixtures live in tests/fixtures/yaml (OM_FIXTURES points there).
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "om_test.h"

static char fixture_dir[1024];
static char tmp_dir[1024];

static int suite_init(void)
{
    /* The projection reads the environment when asked to discover the
     * world size; start from a clean slate. */
    unsetenv("WORLD_SIZE");
    unsetenv("OMPI_COMM_WORLD_SIZE");
    unsetenv("PMI_SIZE");
    unsetenv("SLURM_NTASKS");
    const char *fixtures = getenv("OM_FIXTURES");
    if (!fixtures)
        return 1;
    snprintf(fixture_dir, sizeof fixture_dir, "%s/yaml", fixtures);
    const char *base = getenv("OM_TEST_TMPDIR");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/om-yaml-XXXXXX", base ? base : "/tmp");
    return mkdtemp(tmp_dir) ? 0 : 1;
}

static int suite_cleanup(void)
{
    char path[1200];
    static const char *const leftovers[] = {"exact.yaml", "big.yaml", "bad.yaml",
                                            "unreadable.yaml", "plain", NULL};
    for (const char *const *f = leftovers; *f; f++) {
        snprintf(path, sizeof path, "%s/%s", tmp_dir, *f);
        chmod(path, 0600);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/dir", tmp_dir);
    rmdir(path);
    return rmdir(tmp_dir) == 0 ? 0 : 1;
}

static void fixture_path(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", fixture_dir, name);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 16);
    *len = fread(buf, 1, 1 << 16, f);
    fclose(f);
    return buf;
}

typedef struct {
    int64_t dp, tp, cp, ep, pp;
    bool sp, lp;
} fields;

static void check_fields(const om_dims *dims, fields want, const char *what,
                         unsigned line)
{
    fields got = {om_dims_get(dims, OM_DIM_DP), om_dims_get(dims, OM_DIM_TP),
                  om_dims_get(dims, OM_DIM_CP), om_dims_get(dims, OM_DIM_EP),
                  om_dims_get(dims, OM_DIM_PP),
                  om_dims_get_flag(dims, OM_FLAG_SEQUENCE_PARALLEL),
                  om_dims_get_flag(dims, OM_FLAG_LOSS_PARALLEL)};
    bool ok = got.dp == want.dp && got.tp == want.tp && got.cp == want.cp &&
              got.ep == want.ep && got.pp == want.pp && got.sp == want.sp &&
              got.lp == want.lp;
    om_test_record(ok, __FILE__, line,
                   "%s: got dp=%lld tp=%lld cp=%lld ep=%lld pp=%lld sp=%d lp=%d, "
                   "expected dp=%lld tp=%lld cp=%lld ep=%lld pp=%lld sp=%d lp=%d",
                   what, (long long)got.dp, (long long)got.tp, (long long)got.cp,
                   (long long)got.ep, (long long)got.pp, got.sp, got.lp,
                   (long long)want.dp, (long long)want.tp, (long long)want.cp,
                   (long long)want.ep, (long long)want.pp, want.sp, want.lp);
}

/* Loads a fixture both by path and from memory; both must agree. */
static void expect_fixture(const char *name, int64_t world, fields want,
                           unsigned line)
{
    char path[1200];
    fixture_path(name, path, sizeof path);
    om_error err;
    om_test_poison(&err);
    om_dims *dims = NULL;
    om_status st = om_dims_load_yaml(path, world, &dims, &err);
    om_test_record(st == OM_OK && om_test_is_poisoned(&err), __FILE__, line,
                   "load %s: %s", name, st == OM_OK ? "" : err.message);
    if (st == OM_OK)
        check_fields(dims, want, name, line);
    om_dims_free(dims);

    size_t len = 0;
    char *text = read_all(path, &len);
    om_test_record(text != NULL, __FILE__, line, "cannot read fixture %s", path);
    if (!text)
        return;
    dims = NULL;
    st = om_dims_from_yaml(text, len, world, &dims, &err);
    om_test_record(st == OM_OK, __FILE__, line, "from_yaml %s: %s", name,
                   st == OM_OK ? "" : err.message);
    if (st == OM_OK)
        check_fields(dims, want, name, line);
    om_dims_free(dims);
    free(text);
}

/* From memory, expecting success. */
static void expect_text(const char *text, int64_t world, fields want,
                        unsigned line)
{
    om_error err;
    om_error_clear(&err);
    om_dims *dims = NULL;
    om_status st = om_dims_from_yaml(text, strlen(text), world, &dims, &err);
    om_test_record(st == OM_OK, __FILE__, line, "from_yaml(%.60s): %s", text,
                   st == OM_OK ? "" : err.message);
    if (st == OM_OK)
        check_fields(dims, want, text, line);
    om_dims_free(dims);
}

/* From memory, expecting `want` with a message holding both needles. */
static void expect_text_error(const char *text, size_t len, int64_t world,
                              om_status want, const char *needle1,
                              const char *needle2, unsigned line)
{
    om_error err;
    om_error_clear(&err);
    om_dims *dims = (om_dims *)(void *)&err;
    om_status st = om_dims_from_yaml(text, len, world, &dims, &err);
    om_test_record(st == want && err.status == want, __FILE__, line,
                   "from_yaml(%.60s) returned %d (%s), expected %d (%s): %s",
                   text, (int)st, om_status_string(st), (int)want,
                   om_status_string(want), err.message);
    om_test_record(dims == NULL, __FILE__, line, "*out not reset to NULL");
    const char *needles[] = {needle1, needle2};
    for (int i = 0; i < 2; i++)
        if (needles[i])
            om_test_record(strstr(err.message, needles[i]) != NULL, __FILE__, line,
                           "message \"%s\" lacks \"%s\"", err.message, needles[i]);
    if (st == OM_OK)
        om_dims_free(dims);
}
#define TEXT_ERROR(text, want, n1, n2) \
    expect_text_error((text), strlen(text), 1024, (want), (n1), (n2), __LINE__)

static const fields DEFAULTS = {1, 1, 1, 1, 1, false, false};
/* The defaults at world size 8. */
static const fields DEFAULTS_8 = {8, 1, 1, 1, 1, false, false};

/* ---- features real configs use ---- */

static void test_basic(void)
{
    fields want = {2, 4, 2, 8, 2, true, false};
    expect_fixture("basic.yaml", 32, want, __LINE__);
    fields want64 = {4, 4, 2, 8, 2, true, false};
    expect_fixture("basic.yaml", 64, want64, __LINE__);
}

static void test_flow_style(void)
{
    fields want = {2, 4, 1, 1, 1, true, true};
    expect_fixture("flow.yaml", 8, want, __LINE__);
    fields inline_want = {3, 2, 1, 1, 1, false, true};
    expect_text("{accelerator: {tp_size: 2, loss_parallel: true}}", 6, inline_want,
                __LINE__);
}

/* What PyYAML's loaders disagree on (tests/yaml_reference/README.md, "Left
 * out"): a tab after "key:" is separation (the C loader's value; the pure
 * loader refuses), and an empty tagged value before a flow comma is
 * refused as both loaders fail. */
static void test_loaders_disagree(void)
{
    fields want = {2, 4, 2, 1, 1, false, false};
    expect_text("accelerator: {cp_size: 2, tp_size:\t4}\n", 16, want, __LINE__);
    expect_text("accelerator:\n  cp_size:\t2\n  tp_size: \t4\n", 16, want,
                __LINE__);
    TEXT_ERROR("accelerator: {tp_size: !!int, cp_size: 2}\n", OM_ERR_PARSE,
               "line 1: tp_size must be an integer", "got string \"\"");
}

static void test_anchors_aliases(void)
{
    fields want = {2, 2, 2, 1, 1, false, true};
    expect_fixture("anchors.yaml", 8, want, __LINE__);
}

static void test_merge_keys(void)
{
    /* Explicit keys override merged ones. */
    fields merge = {1, 8, 4, 1, 1, false, false};
    expect_fixture("merge.yaml", 32, merge, __LINE__);
    /* Lists: earlier mappings win. */
    fields list = {2, 2, 2, 4, 2, false, true};
    expect_fixture("merge_list.yaml", 16, list, __LINE__);
    /* Merges of merges; the nearer override wins. */
    fields nested = {2, 2, 2, 4, 2, false, false};
    expect_fixture("merge_nested.yaml", 16, nested, __LINE__);
    /* The accelerator key itself can arrive through a merge. */
    fields top = {1, 4, 1, 1, 2, false, false};
    expect_fixture("merge_top_level.yaml", 8, top, __LINE__);
    /* A quoted "<<" is no merge key. */
    fields quoted = {4, 1, 2, 1, 1, false, false};
    expect_fixture("quoted_merge_key.yaml", 8, quoted, __LINE__);
    /* Two merge keys in one mapping: the later one wins (as PyYAML). */
    fields twice = {1, 4, 1, 1, 1, false, false};
    expect_text("a: &a {tp_size: 2}\nb: &b {tp_size: 4}\n"
                "accelerator:\n  <<: *a\n  <<: *b\n",
                4, twice, __LINE__);
    /* A chain of 40 nested merges still resolves. */
    char chain[8192];
    size_t o = (size_t)snprintf(chain, sizeof chain, "m0: &m0 {tp_size: 2}\n");
    for (int i = 1; i < 40; i++)
        o += (size_t)snprintf(chain + o, sizeof chain - o,
                              "m%d: &m%d {<<: *m%d}\n", i, i, i - 1);
    snprintf(chain + o, sizeof chain - o, "accelerator: {<<: *m39}\n");
    fields deep = {2, 2, 1, 1, 1, false, false};
    expect_text(chain, 4, deep, __LINE__);
}

static void test_merge_errors(void)
{
    TEXT_ERROR("accelerator:\n  <<: 3\n", OM_ERR_PARSE, "line 2", "<<");
    TEXT_ERROR("a: &a {tp_size: 2}\naccelerator:\n  <<: [*a, 3]\n", OM_ERR_PARSE,
               "line 3", "<<");
    TEXT_ERROR("a: &a [1]\naccelerator:\n  <<: *a\n", OM_ERR_PARSE, NULL, "<<");
    /* PyYAML refuses a bad merge even when every field is given beside it
     * (found by tests/yaml_reference): so must the projection, before it
     * looks at any field. */
    TEXT_ERROR("accelerator: {<<: 5, dp_size: 1, tp_size: 1, cp_size: 1, ep_size: 1,\n"
               "  pp_size: 1, sequence_parallel: on, loss_parallel: on}\n",
               OM_ERR_PARSE, "line 1", "a merge key (<<) must refer to a mapping");
    TEXT_ERROR("accelerator: {dp_size: 0, <<: [{tp_size: 2}, 3]}\n", OM_ERR_PARSE,
               "a merge key (<<) list may only hold mappings", NULL);
    /* The top level's merges too, beside an explicit accelerator. */
    TEXT_ERROR("<<: foo\naccelerator: {tp_size: 2}\n", OM_ERR_PARSE, "line 1", "<<");
    /* What was merged instead is named (1.3: the messages said nothing
     * of the value), as PyYAML refuses each ("expected a mapping or list
     * of mappings for merging, but found scalar"). */
    TEXT_ERROR("accelerator: {<<: 5}\n", OM_ERR_PARSE,
               "a list of mappings, got integer 5", NULL);
    TEXT_ERROR("accelerator: {<<: null}\n", OM_ERR_PARSE,
               "a list of mappings, got null", NULL);
    TEXT_ERROR("accelerator: {<<: ~}\n", OM_ERR_PARSE, "a list of mappings, got null ~",
               NULL);
    TEXT_ERROR("accelerator:\n  <<:\n", OM_ERR_PARSE, "line 2",
               "a list of mappings, got null (empty)");
    TEXT_ERROR("s: &s four\naccelerator: {<<: *s}\n", OM_ERR_PARSE, "line 1",
               "a list of mappings, got string \"four\"");
    TEXT_ERROR("a: &a {tp_size: 2}\naccelerator: {<<: [*a, [*a]]}\n", OM_ERR_PARSE,
               "line 2", "may only hold mappings, got a list");
    TEXT_ERROR("a: &a {tp_size: 2}\naccelerator: {<<: [*a, '3']}\n", OM_ERR_PARSE,
               "may only hold mappings, got string \"3\"", NULL);
}

static void test_merge_tag(void)
{
    /* PyYAML merges on the tag: any key tagged !!merge merges, whatever its
     * text (found by tests/yaml_reference); a quoted "<<" does not. */
    expect_text("b: &b {tp_size: 4}\naccelerator: {!!merge x: *b}\n", 8,
                (fields){2, 4, 1, 1, 1, false, false}, __LINE__);
    expect_text("b: &b {tp_size: 4}\naccelerator: {!!merge \"<<\": *b, pp_size: 2}\n", 8,
                (fields){1, 4, 1, 1, 2, false, false}, __LINE__);
    expect_text("b: &b {tp_size: 4}\naccelerator: {\"<<\": *b}\n", 8, DEFAULTS_8,
                __LINE__);
    TEXT_ERROR("accelerator: {!!merge x: 5}\n", OM_ERR_PARSE, "line 1", "<<");
}

static void test_crlf(void)
{
    fields want = {2, 4, 2, 1, 1, true, false};
    expect_fixture("crlf.yaml", 16, want, __LINE__);
    expect_text("accelerator:\r\n  tp_size: 2\r\n  loss_parallel: on\r\n", 4,
                (fields){2, 2, 1, 1, 1, false, true}, __LINE__);
    /* Line numbers count CRLF lines. */
    char path[1200];
    fixture_path("crlf_bad.yaml", path, sizeof path);
    om_error err;
    om_error_clear(&err);
    om_dims *dims = NULL;
    OM_EXPECT_ERR(om_dims_load_yaml(path, 16, &dims, &err), &err, OM_ERR_PARSE,
                  "line 6", "loss_parallel");
}

static void test_utf8_bom(void)
{
    fields want = {2, 2, 2, 1, 1, false, false};
    expect_fixture("utf8_bom.yaml", 8, want, __LINE__);
}

static void test_null_or_missing_accelerator(void)
{
    expect_fixture("null_accelerator.yaml", 1, DEFAULTS, __LINE__);
    expect_fixture("missing_accelerator.yaml", 1, DEFAULTS, __LINE__);
    fields eight = {8, 1, 1, 1, 1, false, false};
    expect_fixture("missing_accelerator.yaml", 8, eight, __LINE__);
    expect_text("accelerator: ~\n", 1, DEFAULTS, __LINE__);
    expect_text("accelerator: null\nmodel: 1\n", 1, DEFAULTS, __LINE__);
    expect_text("accelerator: {}\n", 1, DEFAULTS, __LINE__);
    /* Empty documents and comments only: all defaults. */
    expect_text("", 1, DEFAULTS, __LINE__);
    expect_text("# nothing here\n\n", 1, DEFAULTS, __LINE__);
    expect_text("---\n", 1, DEFAULTS, __LINE__);
    expect_text("~\n", 1, DEFAULTS, __LINE__);
}

static void test_null_fields(void)
{
    /* null sizes are "not given": dp derived, the others keep defaults. */
    fields want = {4, 2, 1, 1, 1, false, false};
    expect_fixture("null_fields.yaml", 8, want, __LINE__);
}

static void test_integer_spellings(void)
{
    /* YAML 1.1 integers, as PyYAML reads them. */
    expect_text("accelerator: {tp_size: 0x4}\n", 8, (fields){2, 4, 1, 1, 1, false, false},
                __LINE__);
    expect_text("accelerator: {tp_size: 010}\n", 8, (fields){1, 8, 1, 1, 1, false, false},
                __LINE__);
    expect_text("accelerator: {tp_size: +4}\n", 8, (fields){2, 4, 1, 1, 1, false, false},
                __LINE__);
    expect_text("accelerator: {tp_size: 1_024}\n", 2048,
                (fields){2, 1024, 1, 1, 1, false, false}, __LINE__);
    expect_text("accelerator: {tp_size: !!int 4}\n", 8,
                (fields){2, 4, 1, 1, 1, false, false}, __LINE__);
    expect_text("accelerator: {tp_size: 2147483647}\n", 2147483647,
                (fields){1, 2147483647, 1, 1, 1, false, false}, __LINE__);
    /* 0[0-7_]+: "0_" is 0 in PyYAML (found by tests/yaml_reference), so a
     * size written so is refused as 0, not as a string. */
    TEXT_ERROR("accelerator: {tp_size: 0_}\n", OM_ERR_INVALID_ARGUMENT,
               "tp_size must be >= 1", "0_");
    TEXT_ERROR("accelerator: {tp_size: -0__}\n", OM_ERR_INVALID_ARGUMENT,
               "tp_size must be >= 1", NULL);
    TEXT_ERROR("accelerator: {tp_size: !!int 0_}\n", OM_ERR_INVALID_ARGUMENT,
               "tp_size must be >= 1", NULL);
    expect_text("accelerator: {tp_size: 0_4}\n", 8, (fields){2, 4, 1, 1, 1, false, false},
                __LINE__);
    /* 0x and 0b need a digit (PyYAML fails with a ValueError). */
    TEXT_ERROR("accelerator: {tp_size: 0x_}\n", OM_ERR_PARSE, "got string", NULL);
    TEXT_ERROR("accelerator: {tp_size: 0b_}\n", OM_ERR_PARSE, "got string", NULL);
}

static void test_boolean_spellings(void)
{
    static const char *const yes[] = {"true", "True", "TRUE", "yes", "Yes",
                                      "YES",  "on",   "On",   "ON"};
    static const char *const no[] = {"false", "False", "FALSE", "no", "No",
                                     "NO",    "off",   "Off",   "OFF"};
    char text[128];
    for (size_t i = 0; i < 9; i++) {
        snprintf(text, sizeof text,
                 "accelerator: {sequence_parallel: %s, loss_parallel: %s}\n",
                 yes[i], no[i]);
        expect_text(text, 1, (fields){1, 1, 1, 1, 1, true, false}, __LINE__);
        snprintf(text, sizeof text,
                 "accelerator: {sequence_parallel: %s, loss_parallel: %s}\n",
                 no[i], yes[i]);
        expect_text(text, 1, (fields){1, 1, 1, 1, 1, false, true}, __LINE__);
    }
}

static void test_tagged_boolean_any_case(void)
{
    /* An explicit !!bool is read lower-cased, as PyYAML does (found by
     * tests/yaml_reference); untagged, only the three cases count. */
    expect_text("accelerator: {sequence_parallel: !!bool tRue, loss_parallel: !!bool yEs}\n",
                1, (fields){1, 1, 1, 1, 1, true, true}, __LINE__);
    expect_text("accelerator: {sequence_parallel: !!bool oN, loss_parallel: !!bool OfF}\n",
                1, (fields){1, 1, 1, 1, 1, true, false}, __LINE__);
    TEXT_ERROR("accelerator: {sequence_parallel: tRue}\n", OM_ERR_PARSE,
               "sequence_parallel must be a boolean", "\"tRue\"");
    TEXT_ERROR("accelerator: {sequence_parallel: !!bool y}\n", OM_ERR_PARSE,
               "sequence_parallel must be a boolean", NULL);
    TEXT_ERROR("accelerator: {sequence_parallel: !!bool truetrue}\n", OM_ERR_PARSE,
               "sequence_parallel must be a boolean", NULL);
}

static void test_duplicate_key_last_wins(void)
{
    expect_text("accelerator:\n  tp_size: 2\n  tp_size: 4\n", 8,
                (fields){2, 4, 1, 1, 1, false, false}, __LINE__);
}

/* ---- type errors ---- */

static void test_bad_size_types(void)
{
    TEXT_ERROR("accelerator:\n  tp_size: \"2\"\n", OM_ERR_PARSE, "line 2",
               "tp_size must be an integer");
    TEXT_ERROR("accelerator:\n  tp_size: \"2\"\n", OM_ERR_PARSE, "\"2\"", NULL);
    TEXT_ERROR("accelerator:\n  cp_size: '2'\n", OM_ERR_PARSE, "cp_size", "\"2\"");
    TEXT_ERROR("accelerator:\n  pp_size: 2.0\n", OM_ERR_PARSE, "pp_size", "2.0");
    TEXT_ERROR("accelerator:\n  pp_size: 2.5\n", OM_ERR_PARSE, "pp_size", "2.5");
    TEXT_ERROR("accelerator:\n  pp_size: 1e3\n", OM_ERR_PARSE, "pp_size", "1e3");
    TEXT_ERROR("accelerator:\n  pp_size: .inf\n", OM_ERR_PARSE, "pp_size", NULL);
    TEXT_ERROR("accelerator:\n  ep_size: true\n", OM_ERR_PARSE, "ep_size", "true");
    TEXT_ERROR("accelerator:\n  ep_size: yes\n", OM_ERR_PARSE, "ep_size", "yes");
    TEXT_ERROR("accelerator:\n  dp_size: [2]\n", OM_ERR_PARSE, "dp_size", "list");
    TEXT_ERROR("accelerator:\n  dp_size: {n: 2}\n", OM_ERR_PARSE, "dp_size", "mapping");
    TEXT_ERROR("accelerator:\n  dp_size: two\n", OM_ERR_PARSE, "dp_size", "two");
    TEXT_ERROR("accelerator:\n  dp_size: |\n    2\n", OM_ERR_PARSE, "dp_size", NULL);
    TEXT_ERROR("accelerator:\n  tp_size: 0o4\n", OM_ERR_PARSE, "tp_size", "0o4");
    /* The line of the offending value, in a longer document. */
    TEXT_ERROR("# c\nmodel: {a: 1}\n\naccelerator:\n  cp_size: 1\n  tp_size: \"2\"\n",
               OM_ERR_PARSE, "line 6", "tp_size");
}

static void test_explicit_str_tag(void)
{
    /* An explicit !!str tag makes a string, as a quoted value does
     * (PyYAML: !!str 2 -> '2'). */
    TEXT_ERROR("accelerator:\n  dp_size: !!str 2\n", OM_ERR_PARSE, "dp_size", "\"2\"");
    TEXT_ERROR("accelerator:\n  loss_parallel: !!str true\n", OM_ERR_PARSE,
               "loss_parallel", NULL);
    TEXT_ERROR("accelerator:\n  tp_size: !<tag:yaml.org,2002:str> 4\n", OM_ERR_PARSE,
               "tp_size", NULL);
}

static void test_explicit_tag_after_utf8(void)
{
    /* Tags are recognised wherever the value sits, also after multi-byte
     * UTF-8 text or a byte order mark (libyaml's marks count characters,
     * not bytes). */
    TEXT_ERROR("# \xc3\xa9\xc3\xa9\xc3\xa9 \xe8\xa8\xad\xe5\xae\x9a\naccelerator:\n"
               "  dp_size: !!str 2\n",
               OM_ERR_PARSE, "dp_size", "\"2\"");
    TEXT_ERROR("\xef\xbb\xbf" "accelerator:\n  dp_size: !!str 2\n", OM_ERR_PARSE,
               "dp_size", "\"2\"");
    TEXT_ERROR("model: \xe6\xa8\xa1\xe5\x9e\x8b\naccelerator: {tp_size: !!str 4}\n",
               OM_ERR_PARSE, "tp_size", "\"4\"");
    /* And an untagged value is never taken for a tagged one, whatever
     * bytes precede it: here 30 two-byte characters and a run of '!' in a
     * comment sit where a character count would point. */
    char text[256];
    size_t o = (size_t)snprintf(text, sizeof text, "#");
    for (int i = 0; i < 30; i++)
        o += (size_t)snprintf(text + o, sizeof text - o, "\xc3\xa9");
    snprintf(text + o, sizeof text - o, "!!!!!!!!!!\naccelerator: {tp_size: 4}\n");
    expect_text(text, 8, (fields){2, 4, 1, 1, 1, false, false}, __LINE__);
    o = (size_t)snprintf(text, sizeof text, "\xef\xbb\xbf#");
    for (int i = 0; i < 30; i++)
        o += (size_t)snprintf(text + o, sizeof text - o, "\xc3\xa9");
    snprintf(text + o, sizeof text - o, "!!!!!!!!!!!!\naccelerator:\n  cp_size: 2\n");
    expect_text(text, 8, (fields){4, 1, 2, 1, 1, false, false}, __LINE__);
}

static void test_bad_size_values(void)
{
    TEXT_ERROR("accelerator:\n  tp_size: 0\n", OM_ERR_INVALID_ARGUMENT, "tp_size", "0");
    TEXT_ERROR("accelerator:\n  cp_size: -2\n", OM_ERR_INVALID_ARGUMENT, "cp_size", "-2");
    TEXT_ERROR("accelerator:\n  dp_size: -2147483649\n", OM_ERR_INVALID_ARGUMENT,
               "dp_size", "-2147483649");
    TEXT_ERROR("accelerator:\n  tp_size: 2147483648\n", OM_ERR_OUT_OF_RANGE,
               "tp_size", "2147483648");
    TEXT_ERROR("accelerator:\n  ep_size: 9223372036854775808\n", OM_ERR_OUT_OF_RANGE,
               "ep_size", "9223372036854775808");
    TEXT_ERROR("accelerator:\n  ep_size: 99999999999999999999999999\n",
               OM_ERR_OUT_OF_RANGE, "ep_size", NULL);
    TEXT_ERROR("accelerator:\n  pp_size: 0x80000000\n", OM_ERR_OUT_OF_RANGE, "pp_size",
               NULL);
    TEXT_ERROR("\naccelerator:\n  pp_size: 0\n", OM_ERR_INVALID_ARGUMENT, "line 3", NULL);
}

static void test_bad_flag_types(void)
{
    TEXT_ERROR("accelerator:\n  sequence_parallel: 1\n", OM_ERR_PARSE,
               "sequence_parallel must be a boolean", "1");
    TEXT_ERROR("accelerator:\n  loss_parallel: \"true\"\n", OM_ERR_PARSE,
               "loss_parallel", "\"true\"");
    TEXT_ERROR("accelerator:\n  loss_parallel: enabled\n", OM_ERR_PARSE,
               "loss_parallel", "enabled");
    TEXT_ERROR("accelerator:\n  loss_parallel: [true]\n", OM_ERR_PARSE,
               "loss_parallel", "list");
    TEXT_ERROR("accelerator:\n  loss_parallel: 0.0\n", OM_ERR_PARSE, "loss_parallel",
               NULL);
}

static void test_bad_structure(void)
{
    TEXT_ERROR("accelerator: [1, 2]\n", OM_ERR_PARSE, "accelerator must be a mapping",
               "line 1");
    TEXT_ERROR("accelerator: 3\n", OM_ERR_PARSE, "accelerator", NULL);
    TEXT_ERROR("accelerator: \"tp=2\"\n", OM_ERR_PARSE, "accelerator", NULL);
    TEXT_ERROR("- 1\n- 2\n", OM_ERR_PARSE, "top level", NULL);
    TEXT_ERROR("just a string\n", OM_ERR_PARSE, "top level", NULL);
    TEXT_ERROR("42\n", OM_ERR_PARSE, "top level", NULL);
}

static void test_malformed(void)
{
    TEXT_ERROR("accelerator: {tp_size: 2\n", OM_ERR_PARSE, "line", NULL);
    TEXT_ERROR("accelerator:\n  tp_size: 2\n cp_size: 3\n", OM_ERR_PARSE, "line 3",
               NULL);
    TEXT_ERROR("a: b: c\n", OM_ERR_PARSE, "line 1", NULL);
    TEXT_ERROR("accelerator:\n\ttp_size: 2\n", OM_ERR_PARSE, "line 2", NULL);
    TEXT_ERROR("accelerator: *nope\n", OM_ERR_PARSE, NULL, NULL);
    TEXT_ERROR("accelerator: [\n", OM_ERR_PARSE, NULL, NULL);
    TEXT_ERROR("\"unterminated\n", OM_ERR_PARSE, NULL, NULL);
    TEXT_ERROR("accelerator: {tp_size: 2}\n...\n...\nx\n", OM_ERR_PARSE, NULL, NULL);
    /* A NUL byte or invalid UTF-8 in the text. */
    static const char nul[] = "accelerator:\n  tp_size: 2\0\n";
    expect_text_error(nul, sizeof nul - 1, 2, OM_ERR_PARSE, NULL, NULL, __LINE__);
    TEXT_ERROR("accelerator:\n  tp_size: 2 # \xff\xfe\n", OM_ERR_PARSE, NULL, NULL);
    char path[1200];
    fixture_path("malformed.yaml", path, sizeof path);
    om_error err;
    om_error_clear(&err);
    om_dims *dims = NULL;
    OM_EXPECT_ERR(om_dims_load_yaml(path, 1, &dims, &err), &err, OM_ERR_PARSE,
                  path, "line 3");
    OM_EXPECT(dims == NULL);
}

static void test_multi_document(void)
{
    TEXT_ERROR("accelerator: {tp_size: 2}\n---\naccelerator: {tp_size: 4}\n",
               OM_ERR_PARSE, "single YAML document", "line 3");
    TEXT_ERROR("---\na: 1\n---\nb: 2\n", OM_ERR_PARSE, "document", NULL);
    char path[1200];
    fixture_path("multi_document.yaml", path, sizeof path);
    om_error err;
    om_error_clear(&err);
    om_dims *dims = NULL;
    OM_EXPECT_ERR(om_dims_load_yaml(path, 2, &dims, &err), &err, OM_ERR_PARSE,
                  "document");
    fixture_path("top_level_list.yaml", path, sizeof path);
    OM_EXPECT_ERR(om_dims_load_yaml(path, 2, &dims, &err), &err, OM_ERR_PARSE,
                  "top level", path);
    /* A single document with explicit markers is fine. */
    expect_text("---\naccelerator: {tp_size: 2}\n...\n", 2,
                (fields){1, 2, 1, 1, 1, false, false}, __LINE__);
}

/* The hostile inputs below are refused or answered; what they cost
 * (events read, nodes kept, peak bytes) is measured deterministically by
 * tests/test_yaml_cost.c, never by time. */

static void test_deep_nesting(void)
{
    /* Deep flow nesting must not overflow the stack: refused. */
    enum { DEPTH = 30000 };
    size_t prefix = strlen("accelerator: ");
    char *text = malloc(prefix + 2 * DEPTH + 2);
    memcpy(text, "accelerator: ", prefix);
    memset(text + prefix, '[', DEPTH);
    memset(text + prefix + DEPTH, ']', DEPTH);
    text[prefix + 2 * DEPTH] = '\n';
    text[prefix + 2 * DEPTH + 1] = '\0';
    expect_text_error(text, strlen(text), 1, OM_ERR_PARSE,
                      "line 1: YAML collections nest deeper than 256 levels", NULL,
                      __LINE__);
    text[prefix + DEPTH] = '\0'; /* unclosed */
    expect_text_error(text, strlen(text), 1, OM_ERR_PARSE,
                      "line 1: YAML collections nest deeper than 256 levels", NULL,
                      __LINE__);
    free(text);
}

static void test_billion_laughs(void)
{
    /* Aliases are never expanded: a valid config, tp=2. */
    char path[1200];
    fixture_path("billion_laughs.yaml", path, sizeof path);
    om_error err;
    om_error_clear(&err);
    om_dims *dims = NULL;
    OM_EXPECT_OK(om_dims_load_yaml(path, 2, &dims, &err), &err);
    check_fields(dims, (fields){1, 2, 1, 1, 1, false, false}, "billion laughs",
                 __LINE__);
    om_dims_free(dims);
}

static void test_many_anchors(void)
{
    /* Many anchors and aliases (half a megabyte of them): refused past
     * 10000. */
    enum { N = 20000 };
    size_t cap = (size_t)N * 40 + 128, o = 0;
    char *text = malloc(cap);
    for (int i = 0; i < N; i++)
        o += (size_t)snprintf(text + o, cap - o, "a%d: &a%d %d\n", i, i, i);
    o += (size_t)snprintf(text + o, cap - o, "all: [");
    for (int i = 0; i < N; i++)
        o += (size_t)snprintf(text + o, cap - o, "*a%d, ", i);
    o += (size_t)snprintf(text + o, cap - o, "0]\naccelerator: {tp_size: 2}\n");
    expect_text_error(text, o, 2, OM_ERR_PARSE,
                      "line 10001: more than 10000 YAML anchors and aliases", NULL,
                      __LINE__);
    free(text);
}

static void test_merge_bomb(void)
{
    char path[1200];
    fixture_path("merge_bomb.yaml", path, sizeof path);
    om_error err;
    om_error_clear(&err);
    om_dims *dims = NULL;
    OM_EXPECT_ERR(om_dims_load_yaml(path, 1, &dims, &err), &err, OM_ERR_PARSE,
                  "merge keys (<<) nest too deeply or repeat too often", path);
    OM_EXPECT(dims == NULL);
    /* A merge chain deeper than any real config is refused, not recursed. */
    size_t cap = 64 * 1024, o = 0;
    char *chain = malloc(cap);
    o += (size_t)snprintf(chain, cap, "m0: &m0 {x: 1}\n");
    for (int i = 1; i < 2000; i++)
        o += (size_t)snprintf(chain + o, cap - o, "m%d: &m%d {<<: *m%d}\n", i, i, i - 1);
    snprintf(chain + o, cap - o, "accelerator: {<<: *m1999}\n");
    expect_text_error(chain, strlen(chain), 1, OM_ERR_PARSE,
                      "merge keys (<<) nest too deeply", NULL, __LINE__);
    free(chain);
}

/* ---- world size in the projection (more in test_world_size) ---- */

static void test_dp_derivation(void)
{
    expect_text("accelerator: {tp_size: 2, cp_size: 2, pp_size: 2}\n", 16,
                (fields){2, 2, 2, 1, 2, false, false}, __LINE__);
    expect_text("accelerator: {dp_size: 3, tp_size: 2}\n", 6,
                (fields){3, 2, 1, 1, 1, false, false}, __LINE__);
    expect_text_error("accelerator: {tp_size: 4}\n", 26, 6, OM_ERR_INVALID_ARGUMENT,
                      "world size 6", "4", __LINE__);
}

/* ---- file loading ---- */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    OM_EXPECT(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_load_missing(void)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/does-not-exist.yaml", tmp_dir);
    om_error err;
    om_error_clear(&err);
    om_dims *dims = (om_dims *)(void *)&err;
    om_status st = om_dims_load_yaml(path, 1, &dims, &err);
    OM_EXPECT_ERR(st, &err, OM_ERR_IO, "No such file");
    OM_EXPECT(dims == NULL);
    /* The message starts with the path. */
    OM_EXPECT(strncmp(err.message, path, strlen(path)) == 0);
}

static void test_load_directory(void)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/dir", tmp_dir);
    OM_EXPECT(mkdir(path, 0700) == 0 || errno == EEXIST);
    om_error err;
    om_error_clear(&err);
    om_dims *dims = NULL;
    OM_EXPECT_ERR(om_dims_load_yaml(path, 1, &dims, &err), &err, OM_ERR_IO,
                  "directory");
    OM_EXPECT(strncmp(err.message, path, strlen(path)) == 0);
    OM_EXPECT(dims == NULL);
    /* A path through a regular file. */
    char plain[1200], through[1300];
    snprintf(plain, sizeof plain, "%s/plain", tmp_dir);
    write_file(plain, "accelerator: {}\n");
    snprintf(through, sizeof through, "%s/x.yaml", plain);
    OM_EXPECT_ERR(om_dims_load_yaml(through, 1, &dims, &err), &err, OM_ERR_IO,
                  "Not a directory");
    OM_EXPECT(strncmp(err.message, through, strlen(through)) == 0);
}

/* Whether loading the mode-0 file at path fails as unreadable, the message
 * starting with the path (plain checks: it also runs in a child process). */
static bool refused_as_unreadable(const char *path)
{
    om_error err;
    om_error_clear(&err);
    om_dims *dims = NULL;
    om_status st = om_dims_load_yaml(path, 2, &dims, &err);
    return st == OM_ERR_IO && err.status == OM_ERR_IO && dims == NULL &&
           strncmp(err.message, path, strlen(path)) == 0 &&
           strstr(err.message, "Permission denied") != NULL;
}

static void test_load_unreadable(void)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/unreadable.yaml", tmp_dir);
    write_file(path, "accelerator: {tp_size: 2}\n");
    OM_EXPECT(chmod(path, 0) == 0);
    if (geteuid() != 0) {
        OM_EXPECT(refused_as_unreadable(path));
    } else {
        /* root reads files whatever their mode: check as the user nobody,
         * who may enter the directory but not read the file. */
        OM_EXPECT(chmod(tmp_dir, 0711) == 0);
        pid_t pid = fork();
        if (pid == 0)
            _exit(setgid(65534) == 0 && setuid(65534) == 0 && refused_as_unreadable(path) ? 0 : 1);
        int status = -1;
        OM_EXPECT(pid > 0 && waitpid(pid, &status, 0) == pid);
        OM_EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        OM_EXPECT(chmod(tmp_dir, 0700) == 0);
    }
    chmod(path, 0600);
}

static void test_load_content_error_prefixed(void)
{
    char path[1200];
    fixture_path("bad_quoted_size.yaml", path, sizeof path);
    om_error err;
    om_error_clear(&err);
    om_dims *dims = NULL;
    OM_EXPECT_ERR(om_dims_load_yaml(path, 1, &dims, &err), &err, OM_ERR_PARSE,
                  "line 4", "tp_size");
    char prefix[1300];
    snprintf(prefix, sizeof prefix, "%s: line 4: ", path);
    om_test_record(strncmp(err.message, prefix, strlen(prefix)) == 0, __FILE__,
                   __LINE__, "message \"%s\" does not start with \"%s\"",
                   err.message, prefix);
    /* World-size errors are prefixed too. */
    snprintf(path, sizeof path, "%s/bad.yaml", tmp_dir);
    write_file(path, "accelerator: {tp_size: 4}\n");
    OM_EXPECT_ERR(om_dims_load_yaml(path, 6, &dims, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "6", "4");
    OM_EXPECT(strncmp(err.message, path, strlen(path)) == 0);
}

static void make_sized_file(const char *path, off_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    OM_EXPECT(fd >= 0);
    if (fd >= 0) {
        OM_EXPECT(ftruncate(fd, size) == 0); /* sparse: NUL bytes */
        close(fd);
    }
}

static void test_load_size_limit(void)
{
    const off_t limit = 64L * 1024 * 1024;
    char path[1200];
    snprintf(path, sizeof path, "%s/big.yaml", tmp_dir);
    make_sized_file(path, limit + 1);
    om_error err;
    om_error_clear(&err);
    om_dims *dims = NULL;
    OM_EXPECT_ERR(om_dims_load_yaml(path, 1, &dims, &err), &err, OM_ERR_IO,
                  "64 MiB");
    OM_EXPECT(strncmp(err.message, path, strlen(path)) == 0);
    unlink(path);
    /* Exactly 64 MiB is not "larger than 64 MiB": it is read and parsed
     * (and then refused as YAML, since it is all NUL bytes). */
    snprintf(path, sizeof path, "%s/exact.yaml", tmp_dir);
    make_sized_file(path, limit);
    om_error_clear(&err);
    om_status st = om_dims_load_yaml(path, 1, &dims, &err);
    om_test_record(st == OM_ERR_PARSE, __FILE__, __LINE__,
                   "a file of exactly 64 MiB gave %d (%s): %s", (int)st,
                   om_status_string(st), err.message);
    om_dims_free(dims);
    unlink(path);
}

static void test_null_arguments(void)
{
    om_error err;
    om_error_clear(&err);
    om_dims *dims = (om_dims *)(void *)&err;
    OM_EXPECT_ERR(om_dims_from_yaml(NULL, 3, 1, &dims, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT(dims == NULL);
    OM_EXPECT_ERR(om_dims_from_yaml("a: 1", 4, 1, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
    dims = (om_dims *)(void *)&err;
    OM_EXPECT_ERR(om_dims_load_yaml(NULL, 1, &dims, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "path");
    OM_EXPECT(dims == NULL);
    OM_EXPECT_ERR(om_dims_load_yaml("x.yaml", 1, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
}

static void test_length_honoured(void)
{
    /* Only `length` bytes are read; the rest is not part of the document. */
    const char *text = "accelerator: {tp_size: 2}\nGARBAGE: [";
    size_t len = strlen("accelerator: {tp_size: 2}\n");
    char *copy = malloc(len);
    memcpy(copy, text, len);
    om_error err;
    om_error_clear(&err);
    om_dims *dims = NULL;
    OM_EXPECT_OK(om_dims_from_yaml(copy, len, 2, &dims, &err), &err);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_TP), 2);
    om_dims_free(dims);
    free(copy);
    expect_text_error(text, strlen(text), 2, OM_ERR_PARSE, NULL, NULL, __LINE__);
    /* Length 0 is the empty document. */
    OM_EXPECT_OK(om_dims_from_yaml(text, 0, 3, &dims, &err), &err);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_DP), 3);
    om_dims_free(dims);
}


/* ---- 1.1: om_dims_read_yaml (pure) ---- */

static void test_read_yaml(void)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/basic.yaml", fixture_dir);
    setenv("WORLD_SIZE", "not read", 1);
    om_dims *dims = NULL;
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_OK(om_dims_read_yaml(path, &dims, &err), &err);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_TP), 4);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_DP), 1);
    int64_t world = -1;
    OM_EXPECT_OK(om_dims_world_size(dims, &world, NULL, &err), &err);
    OM_EXPECT_INT(world, 0);
    /* World size errors come after, without the path. */
    OM_EXPECT_ERR(om_dims_resolve_world_size(dims, 12, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "world size 12 is not divisible by tp*cp*pp = 16");
    OM_EXPECT(strstr(err.message, "basic.yaml") == NULL);
    OM_EXPECT_OK(om_dims_resolve_world_size(dims, 32, &err), &err);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_DP), 2);
    om_dims_free(dims);
    unsetenv("WORLD_SIZE");
    snprintf(path, sizeof path, "%s/bad_quoted_size.yaml", fixture_dir);
    OM_EXPECT_ERR(om_dims_read_yaml(path, &dims, &err), &err, OM_ERR_PARSE,
                  "bad_quoted_size.yaml: line");
    OM_EXPECT(dims == NULL);
    snprintf(path, sizeof path, "%s/no-such.yaml", fixture_dir);
    OM_EXPECT_ERR(om_dims_read_yaml(path, &dims, &err), &err, OM_ERR_IO,
                  "no-such.yaml: cannot open");
    OM_EXPECT_ERR(om_dims_read_yaml("/dev/zero", &dims, &err), &err, OM_ERR_IO,
                  "/dev/zero: is a character device");
    OM_EXPECT_ERR(om_dims_read_yaml(NULL, &dims, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "path is NULL");
    OM_EXPECT_ERR(om_dims_read_yaml(path, NULL, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "NULL");
}

static const om_test_case yaml_tests[] = {
    {"1.1 read_yaml: pure, path in messages", test_read_yaml},
    {"basic config", test_basic},
    {"flow style", test_flow_style},
    {"what PyYAML's loaders disagree on", test_loaders_disagree},
    {"anchors and aliases", test_anchors_aliases},
    {"merge keys", test_merge_keys},
    {"merge key errors", test_merge_errors},
    {"merge by the !!merge tag", test_merge_tag},
    {"CRLF", test_crlf},
    {"UTF-8 comments and BOM", test_utf8_bom},
    {"null or missing accelerator", test_null_or_missing_accelerator},
    {"null fields", test_null_fields},
    {"YAML 1.1 integer spellings", test_integer_spellings},
    {"YAML 1.1 boolean spellings", test_boolean_spellings},
    {"!!bool in any case", test_tagged_boolean_any_case},
    {"duplicate key: last wins", test_duplicate_key_last_wins},
    {"bad size types", test_bad_size_types},
    {"explicit !!str tag", test_explicit_str_tag},
    {"explicit tags after UTF-8 text", test_explicit_tag_after_utf8},
    {"bad size values", test_bad_size_values},
    {"bad flag types", test_bad_flag_types},
    {"bad structure", test_bad_structure},
    {"malformed YAML", test_malformed},
    {"multiple documents", test_multi_document},
    {"deep nesting", test_deep_nesting},
    {"billion laughs", test_billion_laughs},
    {"many anchors and aliases", test_many_anchors},
    {"nested merge bomb", test_merge_bomb},
    {"dp derivation", test_dp_derivation},
    {"load: missing file", test_load_missing},
    {"load: directory", test_load_directory},
    {"load: unreadable", test_load_unreadable},
    {"load: content errors prefixed by the path", test_load_content_error_prefixed},
    {"load: 64 MiB limit", test_load_size_limit},
    {"NULL arguments", test_null_arguments},
    {"length honoured", test_length_honoured},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"yaml", suite_init, suite_cleanup, yaml_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
