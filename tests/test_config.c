/* Strict configs (offline_mesh/config.h): every diagnostic with its exact
 * message, kind and line; strict mode; the list's accessors; the file
 * variant; the 64 MiB limit of the string API.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "om_test.h"

static char tmp_dir[1024];

static int suite_init(void)
{
    const char *base = getenv("OM_TEST_TMPDIR");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/om-config-XXXXXX", base ? base : "/tmp");
    return mkdtemp(tmp_dir) ? 0 : 1;
}

static int suite_cleanup(void)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/train.yaml", tmp_dir);
    unlink(path);
    return rmdir(tmp_dir) == 0 ? 0 : 1;
}

/* One expected diagnostic. */
typedef struct {
    int kind;
    long long line;
    const char *message;
} want;

/* Parses `text` leniently and checks the diagnostics one by one, then
 * that the dims equal om_dims_parse_yaml()'s. */
static void expect_diagnostics(const char *text, const want *wants, size_t n,
                               unsigned line)
{
    om_error err;
    om_error_clear(&err);
    om_diagnostics *list = NULL;
    OM_EXPECT_OK(om_diagnostics_new(&list, &err), &err);
    om_dims *dims = NULL, *plain = NULL;
    om_status st = om_dims_parse_yaml_checked(text, strlen(text), false, list,
                                              &dims, &err);
    om_test_record(st == OM_OK, __FILE__, line, "status %d: %s", (int)st,
                   err.message);
    om_test_record(om_diagnostics_count(list) == n, __FILE__, line,
                   "%zu diagnostics, expected %zu", om_diagnostics_count(list), n);
    for (size_t i = 0; i < n && i < om_diagnostics_count(list); i++) {
        char *message = NULL;
        OM_EXPECT_OK(om_diagnostics_message(list, i, &message, &err), &err);
        om_test_record(message && strcmp(message, wants[i].message) == 0, __FILE__,
                       line, "diagnostic %zu: got \"%s\", expected \"%s\"", i,
                       message ? message : "(null)", wants[i].message);
        om_test_record(om_diagnostics_kind(list, i) == wants[i].kind, __FILE__, line,
                       "diagnostic %zu: kind %d, expected %d", i,
                       om_diagnostics_kind(list, i), wants[i].kind);
        om_test_record(om_diagnostics_line(list, i) == wants[i].line, __FILE__, line,
                       "diagnostic %zu: line %lld, expected %lld", i,
                       (long long)om_diagnostics_line(list, i), wants[i].line);
        om_string_free(message);
    }
    OM_EXPECT_OK(om_dims_parse_yaml(text, strlen(text), &plain, &err), &err);
    om_test_record(om_dims_equal(dims, plain), __FILE__, line,
                   "lenient checked dims differ from om_dims_parse_yaml's");
    om_dims_free(dims);
    om_dims_free(plain);
    om_diagnostics_free(list);
}

#define EXPECT_DIAGNOSTICS(text, ...)                                       \
    expect_diagnostics((text), (const want[]){__VA_ARGS__},                 \
                       sizeof((const want[]){__VA_ARGS__}) / sizeof(want), \
                       __LINE__)
#define EXPECT_CLEAN(text) expect_diagnostics((text), NULL, 0, __LINE__)

#define KNOWN_KEYS                                                          \
    "(known keys: dp_size, tp_size, cp_size, ep_size, pp_size, "           \
    "sequence_parallel, loss_parallel)"

static void test_clean_configs(void)
{
    EXPECT_CLEAN("accelerator: {tp_size: 2}\n");
    /* Unknown top-level sections are what real training YAMLs hold. */
    EXPECT_CLEAN("model: {layers: 32}\noptimizer: {lr: 0.1}\n"
                 "accelerator:\n  tp_size: 2\n  sequence_parallel: true\n");
    /* Every known key, merged ones included. */
    EXPECT_CLEAN("base: &b {cp_size: 2, loss_parallel: on}\naccelerator:\n"
                 "  <<: *b\n  dp_size: 1\n  tp_size: 1\n  ep_size: 1\n"
                 "  pp_size: 1\n  sequence_parallel: off\n");
    /* A key given null is known, not empty. */
    EXPECT_CLEAN("accelerator: {dp_size: null}\n");
}

/* How the repeat of a merge key ends. */
#define MERGE_TAIL ": both merge, this one winning shared keys (say <<: [*this, *earlier])"

static void test_unknown_keys(void)
{
    EXPECT_DIAGNOSTICS(
        "accelerator:\n  tpsize: 4\n  tp: 2\n  sequence_paralel: true\n"
        "  foo: 1\n  TP_SIZE: 2\n  tp-size: 2\n  tp_szie: 2\n",
        {0, 2, "line 2: unknown key \"tpsize\" in accelerator (did you mean \"tp_size\"?)"},
        {0, 3, "line 3: unknown key \"tp\" in accelerator (did you mean \"tp_size\"?)"},
        {0, 4, "line 4: unknown key \"sequence_paralel\" in accelerator (did you "
               "mean \"sequence_parallel\"?)"},
        {0, 5, "line 5: unknown key \"foo\" in accelerator " KNOWN_KEYS},
        {0, 6, "line 6: unknown key \"TP_SIZE\" in accelerator (did you mean \"tp_size\"?)"},
        {0, 7, "line 7: unknown key \"tp-size\" in accelerator (did you mean \"tp_size\"?)"},
        {0, 8, "line 8: unknown key \"tp_szie\" in accelerator (did you mean \"tp_size\"?)"});
    /* Long names allow more edits; a key far from all gets the list. */
    EXPECT_DIAGNOSTICS(
        "accelerator: {sequence_paralell: true, los_paralel: true, tensor_parallel: 2}\n",
        {0, 1, "line 1: unknown key \"sequence_paralell\" in accelerator (did you "
               "mean \"sequence_parallel\"?)"},
        {0, 1, "line 1: unknown key \"los_paralel\" in accelerator (did you mean "
               "\"loss_parallel\"?)"},
        {0, 1, "line 1: unknown key \"tensor_parallel\" in accelerator " KNOWN_KEYS});
    /* Keys are quoted and escaped, a non-scalar key is described. */
    EXPECT_DIAGNOSTICS("accelerator:\n  \"a\\tb\": 1\n  ? [x]\n  : 1\n",
                       {0, 2, "line 2: unknown key \"a\\x09b\" in accelerator " KNOWN_KEYS},
                       {0, 3, "line 3: unknown key (a list) in accelerator"});
    /* A mapping's keys come from its merges too, each mapping once (the
     * second merge key is a repeat: test_duplicate_merge_keys). */
    EXPECT_DIAGNOSTICS("base: &b\n  tp_size: 2\n  pp: 2\naccelerator:\n"
                       "  <<: [*b, *b]\n  cp_size: 1\n  <<: *b\n",
                       {0, 3, "line 3: unknown key \"pp\" in accelerator (did you "
                              "mean \"pp_size\"?)"},
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 7,
                        "line 7: merge key \"<<\" appears again in accelerator "
                        "(line 5 has one)" MERGE_TAIL});
    /* A mapping written inline after `<<:` is not examined (composition
     * keeps only its fields and merges: see yaml_tree.c). */
    EXPECT_CLEAN("accelerator: {tp_size: 2, <<: {foo: 1, cp_size: 2}}\n");
}

static void test_many_unknown_keys(void)
{
    char text[4096];
    size_t o = (size_t)snprintf(text, sizeof text, "accelerator:\n");
    for (int i = 0; i < OM_DIAGNOSTICS_MAX_UNKNOWN_KEYS + 4; i++)
        o += (size_t)snprintf(text + o, sizeof text - o, "  zz%02d: 1\n", i);
    om_error err;
    om_diagnostics *list = NULL;
    om_dims *dims = NULL;
    OM_EXPECT_OK(om_diagnostics_new(&list, &err), &err);
    OM_EXPECT_OK(om_dims_parse_yaml_checked(text, o, false, list, &dims, &err), &err);
    OM_EXPECT_INT(om_diagnostics_count(list), OM_DIAGNOSTICS_MAX_UNKNOWN_KEYS + 1);
    char *message = NULL;
    OM_EXPECT_OK(om_diagnostics_message(list, 15, &message, &err), &err);
    OM_EXPECT_STR(message, "line 17: unknown key \"zz15\" in accelerator " KNOWN_KEYS);
    om_string_free(message);
    OM_EXPECT_OK(om_diagnostics_message(list, 16, &message, &err), &err);
    OM_EXPECT_STR(message, "line 18: 4 more unknown keys in accelerator");
    om_string_free(message);
    OM_EXPECT_INT(om_diagnostics_kind(list, 16), OM_DIAGNOSTIC_UNKNOWN_KEY);
    OM_EXPECT_INT(om_diagnostics_line(list, 16), 18);
    om_dims_free(dims);
    om_diagnostics_free(list);
}

static void test_missing_section(void)
{
    EXPECT_DIAGNOSTICS("model: {a: 1}\n",
                       {1, 0, "no accelerator section: every size takes its default"});
    EXPECT_DIAGNOSTICS("model: {a: 1}\nacclerator:\n  tp_size: 4\n",
                       {1, 2, "line 2: unknown section \"acclerator\" (did you mean "
                              "\"accelerator\"?): there is no accelerator section, so "
                              "every size takes its default"});
    EXPECT_DIAGNOSTICS("Accelerators: {tp_size: 4}\n",
                       {1, 1, "line 1: unknown section \"Accelerators\" (did you mean "
                              "\"accelerator\"?): there is no accelerator section, so "
                              "every size takes its default"});
    /* A section merged into the top level is there. */
    EXPECT_CLEAN("base: &b {accelerator: {tp_size: 2}}\n<<: *b\n");
}

static void test_empty_section(void)
{
    static const char *const texts[] = {"accelerator:\n", "accelerator: null\n",
                                        "accelerator: ~\n", "accelerator: {}\n"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        EXPECT_DIAGNOSTICS(texts[i],
                           {2, 1, "line 1: the accelerator section is empty: every "
                                  "size takes its default"});
    EXPECT_DIAGNOSTICS("model: 1\naccelerator:\n\nother: 2\n",
                       {2, 2, "line 2: the accelerator section is empty: every "
                              "size takes its default"});
}

static void test_empty_config(void)
{
    static const char *const texts[] = {"", "# only a comment\n", "~\n", "null\n",
                                        "---\n...\n", "\n\n"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        EXPECT_DIAGNOSTICS(texts[i],
                           {3, 0, "the config is empty: every size takes its default"});
}

static void test_mesh_json(void)
{
    EXPECT_DIAGNOSTICS("{\"mesh_dim_names\":[\"dp\",\"tp\"],\"mesh_shape\":[2,2]}",
                       {4, 1, "line 1: this is a mesh JSON (it has \"mesh_dim_names\"), "
                              "not a training config: read it as a mesh (CLI: --mesh "
                              "FILE)"});
    EXPECT_DIAGNOSTICS("{\n  \"mesh_shape\": [2]\n}\n",
                       {4, 2, "line 2: this is a mesh JSON (it has \"mesh_shape\"), "
                              "not a training config: read it as a mesh (CLI: --mesh "
                              "FILE)"});
    /* A config that also names a mesh is a config. */
    EXPECT_CLEAN("mesh_shape: [2]\naccelerator: {tp_size: 2}\n");
}

static void test_strict(void)
{
    om_error err;
    om_diagnostics *list = NULL;
    om_dims *dims = NULL;
    OM_EXPECT_OK(om_diagnostics_new(&list, &err), &err);
    const char *text = "accelerator: {tpsize: 4, cp_size: 2}\n";
    OM_EXPECT_ERR(om_dims_parse_yaml_checked(text, strlen(text), true, list, &dims,
                                             &err),
                  &err, OM_ERR_PARSE,
                  "line 1: unknown key \"tpsize\" in accelerator (did you mean "
                  "\"tp_size\"?)");
    OM_EXPECT(dims == NULL);
    OM_EXPECT_INT(om_diagnostics_count(list), 1);
    OM_EXPECT(strstr(err.message, "more") == NULL);
    /* Several: the first and how many more; the list keeps them all. */
    text = "accelerator: {tpsize: 4, ccp_size: 2, foo: 1}\n";
    OM_EXPECT_ERR(om_dims_parse_yaml_checked(text, strlen(text), true, list, &dims,
                                             &err),
                  &err, OM_ERR_PARSE, "\"tpsize\"", "(did you mean \"tp_size\"?) (and 2 more)");
    OM_EXPECT_INT(om_diagnostics_count(list), 3);
    /* Without a list strict mode still fails. */
    OM_EXPECT_ERR(om_dims_parse_yaml_checked("", 0, true, NULL, &dims, &err), &err,
                  OM_ERR_PARSE, "the config is empty: every size takes its default");
    OM_EXPECT(dims == NULL);
    /* A clean config passes and empties the list. */
    text = "accelerator: {tp_size: 4}\n";
    OM_EXPECT_OK(om_dims_parse_yaml_checked(text, strlen(text), true, list, &dims,
                                            &err), &err);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_TP), 4);
    OM_EXPECT_INT(om_diagnostics_count(list), 0);
    om_dims_free(dims);
    /* Any other error empties the list too, strict or not. */
    OM_EXPECT_OK(om_dims_parse_yaml_checked("", 0, false, list, &dims, &err), &err);
    OM_EXPECT_INT(om_diagnostics_count(list), 1);
    om_dims_free(dims);
    text = "accelerator: {tpsize: 1, tp_size: \"2\"}\n";
    OM_EXPECT_ERR(om_dims_parse_yaml_checked(text, strlen(text), false, list, &dims,
                                             &err),
                  &err, OM_ERR_PARSE, "tp_size must be an integer, got string \"2\"");
    OM_EXPECT_INT(om_diagnostics_count(list), 0);
    OM_EXPECT(dims == NULL);
    om_diagnostics_free(list);
}

/* The dims of a lenient read of `text` (the last of repeated keys). */
static int64_t lenient_size(const char *text, om_dim dim)
{
    om_error err;
    om_dims *dims = NULL;
    OM_EXPECT_OK(om_dims_parse_yaml_checked(text, strlen(text), false, NULL, &dims,
                                            &err), &err);
    int64_t size = om_dims_get(dims, dim);
    om_dims_free(dims);
    return size;
}

static void test_duplicate_keys(void)
{
    const char *twice = "accelerator:\n  tp_size: 2\n  tp_size: 4\n";
    EXPECT_DIAGNOSTICS(twice,
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 3,
                        "line 3: key \"tp_size\" appears again in accelerator (line "
                        "2's value 2 is replaced by 4)"});
    /* The last one counts, as in PyYAML. */
    OM_EXPECT_INT(lenient_size(twice, OM_DIM_TP), 4);
    /* Flow style, quoted values, three times, a flag; with an unknown key,
     * which comes first. */
    EXPECT_DIAGNOSTICS("accelerator: {tp_size: 2, tpsize: 1, tp_size: \"x\", tp_size: 8,\n"
                       "  sequence_parallel: on, sequence_parallel: off}\n",
                       {OM_DIAGNOSTIC_UNKNOWN_KEY, 1,
                        "line 1: unknown key \"tpsize\" in accelerator (did you mean "
                        "\"tp_size\"?)"},
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 1,
                        "line 1: key \"tp_size\" appears again in accelerator (line "
                        "1's value 2 is replaced by \"x\")"},
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 1,
                        "line 1: key \"tp_size\" appears again in accelerator (line "
                        "1's value \"x\" is replaced by 8)"},
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 2,
                        "line 2: key \"sequence_parallel\" appears again in accelerator "
                        "(line 2's value on is replaced by off)"});
    /* Null, empty and collection values are named as such. */
    EXPECT_DIAGNOSTICS("accelerator:\n  pp_size:\n  pp_size: [1]\n  pp_size: 2\n",
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 3,
                        "line 3: key \"pp_size\" appears again in accelerator (line "
                        "2's value null (empty) is replaced by a list)"},
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 4,
                        "line 4: key \"pp_size\" appears again in accelerator (line "
                        "3's value a list is replaced by 2)"});
    /* An explicit key beside a merge overrides it: not a duplicate. */
    EXPECT_CLEAN("base: &b {tp_size: 2, cp_size: 2}\n"
                 "accelerator:\n  <<: *b\n  tp_size: 4\n");
    EXPECT_CLEAN("a: &a {tp_size: 2}\nb: &b {tp_size: 4}\n"
                 "accelerator: {<<: [*a, *b], tp_size: 8}\n");
    /* A key repeated inside a merged mapping is one, nested merges too,
     * reported once however often the mapping is merged. */
    EXPECT_DIAGNOSTICS("base: &b {cp_size: 2, cp_size: 4}\n"
                       "mid: &m {<<: *b}\n"
                       "accelerator:\n  <<: [*m, *b]\n  tp_size: 4\n",
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 1,
                        "line 1: key \"cp_size\" appears again in a mapping accelerator "
                        "merges (line 1's value 2 is replaced by 4)"});
    /* Keys other than fields, and mappings the projection never reads,
     * are not examined. */
    EXPECT_CLEAN("model: {layers: 1, layers: 2}\n"
                 "unused: &u {tp_size: 1, tp_size: 2}\n"
                 "accelerator: {tp_size: 2}\n");
    /* The section given twice: the last one counts, even when empty. */
    const char *sections = "accelerator: {tp_size: 2}\nmodel: {}\naccelerator: {pp_size: 2}\n";
    EXPECT_DIAGNOSTICS(sections,
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 3,
                        "line 3: section \"accelerator\" appears again at the top "
                        "level: it replaces the one at line 1"});
    OM_EXPECT_INT(lenient_size(sections, OM_DIM_TP), 1);
    OM_EXPECT_INT(lenient_size(sections, OM_DIM_PP), 2);
    EXPECT_DIAGNOSTICS("accelerator: {tp_size: 2}\naccelerator:\n",
                       {OM_DIAGNOSTIC_EMPTY_ACCELERATOR, 2,
                        "line 2: the accelerator section is empty: every size takes "
                        "its default"},
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 2,
                        "line 2: section \"accelerator\" appears again at the top "
                        "level: it replaces the one at line 1"});
    EXPECT_DIAGNOSTICS("r: &r {accelerator: {tp_size: 2}, accelerator: {tp_size: 4}}\n"
                       "<<: *r\n",
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 1,
                        "line 1: section \"accelerator\" appears again in a mapping the "
                        "top level merges: it replaces the one at line 1"});
    /* Strict mode fails on it. */
    om_error err;
    om_dims *dims = NULL;
    OM_EXPECT_ERR(om_dims_parse_yaml_checked(twice, strlen(twice), true, NULL, &dims,
                                             &err),
                  &err, OM_ERR_PARSE, "line 3: key \"tp_size\" appears again");
    OM_EXPECT(dims == NULL);
}

/* Two merge keys in one mapping used to be applied without a word (1.3
 * bug fix): reported as a repeat, the values kept as PyYAML gives them. */
static void test_duplicate_merge_keys(void)
{
    const char *two = "a: &a {tp_size: 2, pp_size: 2}\nb: &b {tp_size: 4}\n"
                      "accelerator: {<<: *a, <<: *b, cp_size: 1}\n";
    EXPECT_DIAGNOSTICS(two,
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 3,
                        "line 3: merge key \"<<\" appears again in accelerator "
                        "(line 3 has one)" MERGE_TAIL});
    /* PyYAML: the later merge wins tp_size, the earlier still gives pp. */
    OM_EXPECT_INT(lenient_size(two, OM_DIM_TP), 4);
    OM_EXPECT_INT(lenient_size(two, OM_DIM_PP), 2);
    om_error err;
    om_dims *dims = NULL;
    OM_EXPECT_ERR(om_dims_parse_yaml_checked(two, strlen(two), true, NULL, &dims, &err),
                  &err, OM_ERR_PARSE, "line 3: merge key \"<<\" appears again");
    OM_EXPECT(dims == NULL);
    /* Three (two repeats), a !!merge-tagged key is one too, at the top
     * level and in a merged mapping. */
    EXPECT_DIAGNOSTICS("a: &a {tp_size: 2}\naccelerator:\n  <<: *a\n  <<: *a\n"
                       "  !!merge x: *a\n",
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 4,
                        "line 4: merge key \"<<\" appears again in accelerator "
                        "(line 3 has one)" MERGE_TAIL},
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 5,
                        "line 5: merge key \"<<\" appears again in accelerator "
                        "(line 4 has one)" MERGE_TAIL});
    EXPECT_DIAGNOSTICS("r: &r {accelerator: {tp_size: 2}}\n<<: *r\n<<: *r\n",
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 3,
                        "line 3: merge key \"<<\" appears again at the top level "
                        "(line 2 has one)" MERGE_TAIL});
    EXPECT_DIAGNOSTICS("a: &a {tp_size: 2}\nm: &m {<<: *a, <<: *a}\n"
                       "accelerator: {<<: *m}\n",
                       {OM_DIAGNOSTIC_DUPLICATE_KEY, 2,
                        "line 2: merge key \"<<\" appears again in a mapping "
                        "accelerator merges (line 2 has one)" MERGE_TAIL});
    /* One merge list is YAML's way to merge several (the earlier mapping
     * wins a shared key): no repeat; nor is a merge in another section. */
    const char *list = "a: &a {tp_size: 2}\nb: &b {tp_size: 4}\n"
                       "accelerator: {<<: [*a, *b]}\nmodel: {<<: *a, <<: *b}\n";
    EXPECT_CLEAN(list);
    OM_EXPECT_INT(lenient_size(list, OM_DIM_TP), 2);
}

static void test_many_duplicate_keys(void)
{
    /* 8 reported one by one, then one counts the rest. */
    char text[1024];
    size_t o = (size_t)snprintf(text, sizeof text, "accelerator:\n");
    for (int i = 0; i < 12; i++)
        o += (size_t)snprintf(text + o, sizeof text - o, "  ep_size: %d\n", i + 1);
    om_error err;
    om_diagnostics *list = NULL;
    om_dims *dims = NULL;
    OM_EXPECT_OK(om_diagnostics_new(&list, &err), &err);
    OM_EXPECT_OK(om_dims_parse_yaml_checked(text, o, false, list, &dims, &err), &err);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_EP), 12);
    OM_EXPECT_INT(om_diagnostics_count(list), 9);
    char *message = NULL;
    OM_EXPECT_OK(om_diagnostics_message(list, 7, &message, &err), &err);
    OM_EXPECT_STR(message, "line 10: key \"ep_size\" appears again in accelerator (line "
                           "9's value 8 is replaced by 9)");
    om_string_free(message);
    OM_EXPECT_OK(om_diagnostics_message(list, 8, &message, &err), &err);
    OM_EXPECT_STR(message, "line 11: 3 more keys appear again");
    om_string_free(message);
    OM_EXPECT_INT(om_diagnostics_kind(list, 8), OM_DIAGNOSTIC_DUPLICATE_KEY);
    OM_EXPECT_INT(om_diagnostics_line(list, 8), 11);
    /* With the most unknown keys too, every diagnostic fits the list. */
    o = (size_t)snprintf(text, sizeof text, "accelerator:\n");
    for (int i = 0; i < OM_DIAGNOSTICS_MAX_UNKNOWN_KEYS + 2; i++)
        o += (size_t)snprintf(text + o, sizeof text - o, "  zz%02d: 1\n  dp_size: 1\n", i);
    om_dims_free(dims);
    OM_EXPECT_OK(om_dims_parse_yaml_checked(text, o, false, list, &dims, &err), &err);
    OM_EXPECT_INT(om_diagnostics_count(list), OM_DIAGNOSTICS_MAX_UNKNOWN_KEYS + 1 + 9);
    OM_EXPECT_INT(om_diagnostics_kind(list, om_diagnostics_count(list) - 1),
                  OM_DIAGNOSTIC_DUPLICATE_KEY);
    om_dims_free(dims);
    om_diagnostics_free(list);
}

static void test_accessors(void)
{
    om_error err;
    OM_EXPECT_ERR(om_diagnostics_new(NULL, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "out pointer is NULL");
    om_diagnostics_free(NULL);
    OM_EXPECT_INT(om_diagnostics_count(NULL), 0);
    OM_EXPECT_INT(om_diagnostics_kind(NULL, 0), -1);
    OM_EXPECT_INT(om_diagnostics_line(NULL, 0), -1);
    char *message = (char *)"untouched";
    OM_EXPECT_ERR(om_diagnostics_message(NULL, 0, &message, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "diagnostics is NULL");
    OM_EXPECT(message == NULL);
    om_diagnostics *list = NULL;
    om_dims *dims = NULL;
    OM_EXPECT_OK(om_diagnostics_new(&list, &err), &err);
    OM_EXPECT_INT(om_diagnostics_count(list), 0);
    OM_EXPECT_ERR(om_diagnostics_message(list, 0, &message, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "diagnostic 0 does not exist: the list holds 0");
    OM_EXPECT_OK(om_dims_parse_yaml_checked("x: 1\n", 5, false, list, &dims, &err),
                 &err);
    om_dims_free(dims);
    OM_EXPECT_INT(om_diagnostics_count(list), 1);
    OM_EXPECT_INT(om_diagnostics_kind(list, 0), OM_DIAGNOSTIC_NO_ACCELERATOR);
    OM_EXPECT_INT(om_diagnostics_kind(list, 1), -1);
    OM_EXPECT_INT(om_diagnostics_line(list, 1), -1);
    OM_EXPECT_ERR(om_diagnostics_message(list, 5, &message, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "diagnostic 5 does not exist: the list holds 1");
    OM_EXPECT_ERR(om_diagnostics_message(list, 0, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    OM_EXPECT_ERR(om_dims_parse_yaml_checked("", 0, false, list, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    OM_EXPECT_ERR(om_dims_parse_yaml_checked(NULL, 0, false, list, &dims, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "YAML text is NULL");
    OM_EXPECT_INT(om_diagnostics_count(list), 0);
    om_diagnostics_free(list);
}

static void write_config(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    OM_EXPECT(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_file(void)
{
    char path[1200], want_text[1400];
    snprintf(path, sizeof path, "%s/train.yaml", tmp_dir);
    write_config(path, "accelerator:\n  tp_size: 2\n  tpsize: 4\n");
    om_error err;
    om_diagnostics *list = NULL;
    om_dims *dims = NULL;
    OM_EXPECT_OK(om_diagnostics_new(&list, &err), &err);
    OM_EXPECT_OK(om_dims_read_yaml_checked(path, false, list, &dims, &err), &err);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_TP), 2);
    om_dims_free(dims);
    OM_EXPECT_INT(om_diagnostics_count(list), 1);
    char *message = NULL;
    OM_EXPECT_OK(om_diagnostics_message(list, 0, &message, &err), &err);
    snprintf(want_text, sizeof want_text,
             "%s: line 3: unknown key \"tpsize\" in accelerator (did you mean "
             "\"tp_size\"?)", path);
    OM_EXPECT_STR(message, want_text);
    om_string_free(message);
    OM_EXPECT_ERR(om_dims_read_yaml_checked(path, true, list, &dims, &err), &err,
                  OM_ERR_PARSE, want_text);
    OM_EXPECT(dims == NULL);
    write_config(path, "accelerator: {tp_size: 2.5}\n");
    OM_EXPECT_ERR(om_dims_read_yaml_checked(path, true, list, &dims, &err), &err,
                  OM_ERR_PARSE, path, "line 1: tp_size must be an integer, got float 2.5");
    OM_EXPECT_INT(om_diagnostics_count(list), 0);
    snprintf(path, sizeof path, "%s/no-such.yaml", tmp_dir);
    OM_EXPECT_ERR(om_dims_read_yaml_checked(path, false, list, &dims, &err), &err,
                  OM_ERR_IO, "no-such.yaml: cannot open");
    OM_EXPECT_ERR(om_dims_read_yaml_checked(NULL, false, list, &dims, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "path is NULL");
    OM_EXPECT_ERR(om_dims_read_yaml_checked(path, false, list, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    om_diagnostics_free(list);
}

/* The string API takes what a file may hold, 64 MiB, and no more. */
static void test_string_limit(void)
{
    size_t limit = (size_t)64 << 20;
    char *text = malloc(limit + 1);
    OM_EXPECT(text != NULL);
    if (!text)
        return;
    const char *head = "accelerator: {tp_size: 2}\n#";
    memset(text, 'x', limit + 1);
    memcpy(text, head, strlen(head));
    text[limit - 1] = '\n';
    om_error err;
    om_dims *dims = NULL;
    const char *message = "YAML text of 67108865 bytes is larger than the 64 MiB limit";
    OM_EXPECT_ERR(om_dims_parse_yaml(text, limit + 1, &dims, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, message);
    OM_EXPECT_ERR(om_dims_from_yaml(text, limit + 1, 2, &dims, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, message);
    OM_EXPECT_ERR(om_dims_parse_yaml_checked(text, limit + 1, false, NULL, &dims, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, message);
    OM_EXPECT(dims == NULL);
    /* 64 MiB exactly is parsed: a syntax error on line 1 (found at once,
     * whatever follows) shows the text got past the limit. */
    memcpy(text, "]\n", 2);
    OM_EXPECT_ERR(om_dims_parse_yaml(text, limit, &dims, &err), &err, OM_ERR_PARSE,
                  "line 1 column 1");
    OM_EXPECT(dims == NULL);
    free(text);
}

static const om_test_case config_tests[] = {
    {"clean configs: no diagnostics", test_clean_configs},
    {"unknown accelerator keys, did you mean", test_unknown_keys},
    {"many unknown keys: counted past the limit", test_many_unknown_keys},
    {"missing accelerator section", test_missing_section},
    {"empty accelerator section", test_empty_section},
    {"empty config", test_empty_config},
    {"mesh JSON given as a config", test_mesh_json},
    {"strict mode", test_strict},
    {"duplicate keys: the last counts, reported", test_duplicate_keys},
    {"two merge keys in a mapping: reported", test_duplicate_merge_keys},
    {"many duplicate keys: counted past the limit", test_many_duplicate_keys},
    {"diagnostics accessors and NULL arguments", test_accessors},
    {"file variant: path in every message", test_file},
    {"string API: 64 MiB limit", test_string_limit},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"config", suite_init, suite_cleanup, config_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
