/* What YAML composition costs, measured in work and bytes, never in time:
 * events read, nodes kept, bytes the composer holds at its peak (its own
 * count of every allocation it makes) and bytes of the text libyaml read
 * before a refusal. Linked against the static library, whose internal
 * omi_yaml_compose() and its stats are visible.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_test.h"
#include "yaml_tree.h"

/* What the composer holds whatever the text: its frames, the first arena
 * block, the first node and scratch arrays. */
#define FIXED_BYTES ((size_t)160 << 10)

static char fixture_dir[1024];

static int suite_init(void)
{
    const char *fixtures = getenv("OM_FIXTURES");
    if (!fixtures)
        return 1;
    snprintf(fixture_dir, sizeof fixture_dir, "%s/yaml", fixtures);
    return 0;
}

/* A growable text. */
typedef struct {
    char *data;
    size_t len, cap;
} text_buf;

static void put(text_buf *t, const char *s)
{
    size_t n = strlen(s);
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->data = realloc(t->data, t->cap);
    }
    memcpy(t->data + t->len, s, n + 1);
    t->len += n;
}

static void repeat(text_buf *t, const char *s, size_t times)
{
    for (size_t i = 0; i < times; i++)
        put(t, s);
}

/* Composes `t`, expecting success; returns the stats. */
static omi_yaml_stats compose_ok(const text_buf *t, unsigned line)
{
    omi_tree tree;
    om_error err;
    om_error_clear(&err);
    om_status st = omi_yaml_compose(t->data, t->len, &tree, &err);
    om_test_record(st == OM_OK, __FILE__, line, "status %d: %s", (int)st,
                   err.message);
    omi_yaml_stats stats = tree.stats;
    omi_tree_free(&tree);
    return stats;
}

static void expect_tp(const text_buf *t, int64_t tp, unsigned line)
{
    om_error err;
    om_dims *dims = NULL;
    om_status st = om_dims_parse_yaml(t->data, t->len, &dims, &err);
    om_test_record(st == OM_OK && om_dims_get(dims, OM_DIM_TP) == tp, __FILE__, line,
                   "status %d (%s), tp %lld", (int)st, st ? err.message : "",
                   (long long)om_dims_get(dims, OM_DIM_TP));
    om_dims_free(dims);
}

/* Item `i` of an ignored list, in one of three shapes: a block list, a
 * mapping of mappings, and keys that would matter in a section. */
static void ignored_item(char *buf, size_t size, size_t shape, size_t i)
{
    if (shape == 0)
        snprintf(buf, size, "    - %zu\n", i);
    else if (shape == 1)
        snprintf(buf, size, "    k%zu: {a: [1, 2], b: x}\n", i);
    else
        snprintf(buf, size, "    - {tp_size: %zu, <<: {x: 1}}\n", i + 1);
}

/* The bulk of a config that the projection never reads costs no node:
 * what is kept is the same for 1 and for 30000 ignored items. */
static void test_ignored_bulk_is_not_kept(void)
{
    for (size_t s = 0; s < 3; s++) {
        omi_yaml_stats small = {0}, big = {0};
        for (int round = 0; round < 2; round++) {
            size_t items = round ? 30000 : 1;
            text_buf t = {0};
            put(&t, "accelerator:\n  tp_size: 2\n  pp_size: 2\ndata:\n  samples:\n");
            for (size_t i = 0; i < items; i++) {
                char line[64];
                ignored_item(line, sizeof line, s, i);
                put(&t, line);
            }
            put(&t, "flow: [");
            repeat(&t, "1, ", items);
            put(&t, "2]\n");
            *(round ? &big : &small) = compose_ok(&t, __LINE__);
            expect_tp(&t, 2, __LINE__);
            free(t.data);
        }
        om_test_record(big.nodes == small.nodes, __FILE__, __LINE__,
                       "shape %zu: %zu nodes kept for 30000 items, %zu for 1", s,
                       big.nodes, small.nodes);
        om_test_record(big.nodes <= 12, __FILE__, __LINE__, "shape %zu: %zu nodes",
                       s, big.nodes);
        om_test_record(big.peak_bytes <= FIXED_BYTES, __FILE__, __LINE__,
                       "shape %zu: peak %zu bytes", s, big.peak_bytes);
        om_test_record(big.events > 60000, __FILE__, __LINE__,
                       "shape %zu: only %zu events read", s, big.events);
    }
}

/* Shapes that must be kept (anchored bulk, repeated fields, merge lists)
 * cost at most a small constant per byte of text. */
static void test_kept_bulk_is_linear(void)
{
    static const struct {
        const char *head, *item, *tail;
    } shapes[] = {
        {"big: &big [", "{}, ", "{}]\naccelerator: {tp_size: 2}\n"},
        {"big: &big [", "{tp_size: 1}, ", "{}]\naccelerator: {tp_size: 2}\n"},
        {"big: &big {", "k: 1, ", "z: 1}\naccelerator: {tp_size: 2}\n"},
        {"accelerator:\n", "  tp_size: 1\n", "  tp_size: 2\n"},
        {"accelerator:\n", "  <<: {}\n", "  tp_size: 2\n"},
        {"accelerator:\n", "  <<: [{}, {cp_size: 1}]\n", "  tp_size: 2\n"},
        {"accelerator:\n", "  nope: 1\n", "  tp_size: 2\n"},
        {"x: &s ", "a", "\naccelerator: {tp_size: 2}\n"},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        text_buf t = {0};
        put(&t, shapes[s].head);
        repeat(&t, shapes[s].item, 30000);
        put(&t, shapes[s].tail);
        omi_yaml_stats stats = compose_ok(&t, __LINE__);
        expect_tp(&t, 2, __LINE__);
        om_test_record(stats.peak_bytes <= 8 * t.len + FIXED_BYTES, __FILE__, __LINE__,
                       "shape %zu: peak %zu bytes for %zu bytes of text (%.1fx)", s,
                       stats.peak_bytes, t.len, (double)stats.peak_bytes / (double)t.len);
        free(t.data);
    }
}

/* Refusals stop reading: the rest of the text is never looked at. */
static void expect_refused(const text_buf *t, const char *needle,
                           size_t max_events, size_t max_read, unsigned line)
{
    omi_tree tree;
    om_error err;
    om_error_clear(&err);
    om_status st = omi_yaml_compose(t->data, t->len, &tree, &err);
    om_test_record(st == OM_ERR_PARSE && strstr(err.message, needle), __FILE__, line,
                   "status %d: %s (expected \"%s\")", (int)st, err.message, needle);
    om_test_record(tree.stats.events <= max_events, __FILE__, line,
                   "%zu events read, at most %zu expected", tree.stats.events,
                   max_events);
    om_test_record(tree.stats.input_read <= max_read, __FILE__, line,
                   "%zu of %zu bytes read, at most %zu expected",
                   tree.stats.input_read, t->len, max_read);
    om_test_record(tree.count == 0 && tree.stats.bytes == 0, __FILE__, line,
                   "a refused tree keeps %zu nodes, %zu bytes", tree.count,
                   tree.stats.bytes);
    omi_tree_free(&tree);
}

static void test_deep_nesting_stops_early(void)
{
    /* 200 kB of '[': refused at level 257 after a few hundred events,
     * with a few kilobytes read (libyaml reads ahead in small blocks). */
    enum { DEPTH = 200000 };
    text_buf t = {0};
    put(&t, "accelerator: ");
    repeat(&t, "[", DEPTH);
    repeat(&t, "]", DEPTH);
    expect_refused(&t, "nest deeper than 256 levels", 300, 64 << 10, __LINE__);
    t.data[t.len - DEPTH] = '\0'; /* unclosed */
    t.len -= DEPTH;
    expect_refused(&t, "nest deeper than 256 levels", 300, 64 << 10, __LINE__);
    /* Block mappings as deep. */
    text_buf b = {0};
    for (int i = 0; i < 300; i++) {
        char line[700];
        snprintf(line, sizeof line, "%*sk:\n", i, "");
        put(&b, line);
    }
    expect_refused(&b, "nest deeper than 256 levels", 600, 200 << 10, __LINE__);
    free(t.data);
    free(b.data);
}

static void test_many_anchors_stop_early(void)
{
    /* 20000 anchors and aliases: refused at the 10001st, having read about
     * half of the text. */
    enum { N = 20000 };
    text_buf t = {0};
    char line[64];
    for (int i = 0; i < N; i++) {
        snprintf(line, sizeof line, "a%d: &a%d %d\n", i, i, i);
        put(&t, line);
    }
    put(&t, "all: [");
    for (int i = 0; i < N; i++) {
        snprintf(line, sizeof line, "*a%d, ", i);
        put(&t, line);
    }
    put(&t, "0]\naccelerator: {tp_size: 2}\n");
    expect_refused(&t, "line 10001: more than 10000 YAML anchors and aliases",
                   2 * 10001 + 8, t.len / 2, __LINE__);
    free(t.data);
}

/* Appends the text of fixture `name` (tests/fixtures/yaml/) to `t`; false,
 * recorded as a failure, when it cannot be opened. */
static bool read_fixture(const char *name, text_buf *t)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", fixture_dir, name);
    FILE *f = fopen(path, "rb");
    om_test_record(f != NULL, __FILE__, __LINE__, "cannot open %s", path);
    if (!f)
        return false;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk - 1, f)) > 0) {
        chunk[n] = '\0';
        put(t, chunk);
    }
    fclose(f);
    return true;
}

static void test_billion_laughs_costs_nothing(void)
{
    /* Aliases are references: the 10^9 leaves are never built. */
    text_buf t = {0};
    if (!read_fixture("billion_laughs.yaml", &t))
        return;
    omi_yaml_stats stats = compose_ok(&t, __LINE__);
    expect_tp(&t, 2, __LINE__);
    om_test_record(stats.nodes <= 150, __FILE__, __LINE__, "%zu nodes kept",
                   stats.nodes);
    om_test_record(stats.peak_bytes <= FIXED_BYTES, __FILE__, __LINE__,
                   "peak %zu bytes", stats.peak_bytes);
    free(t.data);
}

static void test_merge_bomb_work_is_bounded(void)
{
    /* 10 levels of 10-way merges: a lookup gives up once its work budget
     * is spent, after at most the budget plus one mapping's pairs. */
    text_buf t = {0};
    if (!read_fixture("merge_bomb.yaml", &t))
        return;
    omi_tree tree;
    om_error err;
    OM_EXPECT_OK(omi_yaml_compose(t.data, t.len, &tree, &err), &err);
    omi_lookup ctx = {&tree, OMI_MERGE_BUDGET, &err, OM_OK};
    const omi_node *root = omi_tree_node(&tree, tree.root);
    const omi_node *accel = omi_yaml_lookup(&ctx, root, "accelerator", 0);
    OM_EXPECT_OK(ctx.status, &err);
    ctx.budget = OMI_MERGE_BUDGET;
    OM_EXPECT(accel && omi_yaml_lookup(&ctx, accel, "tp_size", 0) == NULL);
    OM_EXPECT_ERR(ctx.status, &err, OM_ERR_PARSE, "merge keys (<<) nest too deeply");
    om_test_record(ctx.budget < 0 && ctx.budget > -64, __FILE__, __LINE__,
                   "budget left %ld", ctx.budget);
    /* Finding the section checks its merges (as PyYAML builds them all):
     * the bomb is refused there, with the same bound. */
    omi_lookup find = {&tree, OMI_MERGE_BUDGET, &err, OM_OK};
    OM_EXPECT_ERR(omi_yaml_find_section(&find, "accelerator", &accel), &err,
                  OM_ERR_PARSE, "merge keys (<<) nest too deeply");
    OM_EXPECT(accel == NULL);
    om_test_record(find.budget < 0 && find.budget > -64, __FILE__, __LINE__,
                   "budget left %ld", find.budget);
    omi_tree_free(&tree);
    free(t.data);
}

static const om_test_case cost_tests[] = {
    {"ignored bulk: no node kept for it", test_ignored_bulk_is_not_kept},
    {"kept bulk: linear in the text", test_kept_bulk_is_linear},
    {"deep nesting: refused after a few hundred events", test_deep_nesting_stops_early},
    {"many anchors: refused at the 10001st", test_many_anchors_stop_early},
    {"billion laughs: a few nodes", test_billion_laughs_costs_nothing},
    {"merge bomb: lookup work bounded", test_merge_bomb_work_is_bounded},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"yaml_cost", suite_init, NULL, cost_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
