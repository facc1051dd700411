/* Fuzz target: physical hierarchies from text (om_hierarchy_from_spec,
 * om_hierarchy_from_json, om_hierarchy_from_hostfile), their accessors,
 * and the per-level locality and placement rules of a small mesh's groups
 * in them, compared with a brute-force reading of the definitions here.
 *
 * Input: byte 0 picks the reader (b % 3: spec, JSON, hostfile); byte 1
 * gives a plain mesh (a, b, c) of 1 + b % 3 axes, one size byte each
 * (1 + b % 8); one byte selects the axis set (bit i: axis i); the rest is
 * the text (hostfiles with a slot count of 10^6 or more are skipped: their
 * per-rank tables are legitimately large). Seeds are in fuzz/corpus/hierarchy/.
 * Invariants: a failed read leaves *out NULL with a reader's status and a
 * valid message; a hierarchy read has >= 1 levels with distinct, valid
 * names that om_hierarchy_level_index finds; uniform levels strictly grow
 * and put rank r in domain r / k, labelled in decimal; explicit ones
 * number their domains in order of first appearance, nest (ranks sharing a
 * domain share it at every slower level) and refuse ranks beyond their
 * own; locality agrees field by field with the definition (groups inside
 * one domain or crossing, most domains, fewest and most members of a group
 * in one domain, the first worst and first crossing group and its first
 * rank outside its first member's domain), or is refused for an explicit
 * hierarchy of another size; a rule "AXES:LEVEL" is broken exactly when
 * some group crosses LEVEL's domains.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RANKS 512
#define MAX_TEXT 4096

static const unsigned read_errors = FUZZ_BIT(OM_ERR_INVALID_ARGUMENT) | FUZZ_BIT(OM_ERR_PARSE) |
                                    FUZZ_BIT(OM_ERR_OUT_OF_RANGE) | FUZZ_BIT(OM_ERR_INVALID_NAME);

static void check_levels(const om_hierarchy *h)
{
    om_error err;
    size_t levels = om_hierarchy_levels(h);
    FUZZ_CHECK(levels >= 1, "a hierarchy without levels");
    for (size_t i = 0; i < levels; i++) {
        const char *name = om_hierarchy_level_name(h, i);
        FUZZ_CHECK(name && name[0] && fuzz_utf8_valid(name, strlen(name)), "level %zu name", i);
        size_t index = levels;
        FUZZ_CHECK(om_hierarchy_level_index(h, name, &index, &err) == OM_OK && index == i,
                   "level_index(%s) = %zu, want %zu", name, index, i);
    }
    FUZZ_CHECK(om_hierarchy_level_name(h, levels) == NULL, "a name beyond the levels");
}

/* Domain of every rank < n at every level (explicit) or of a few (uniform). */
static void check_domains(const om_hierarchy *h)
{
    om_error err;
    size_t levels = om_hierarchy_levels(h);
    int64_t n = om_hierarchy_ranks(h), d = -1;
    char *label = NULL;
    if (n == 0) { /* uniform */
        int64_t last = 0;
        for (size_t i = 0; i < levels; i++) {
            int64_t k = om_hierarchy_ranks_per_domain(h, i);
            FUZZ_CHECK(k > last, "level %zu: %lld ranks per domain after %lld", i, (long long)k,
                       (long long)last);
            last = k;
            for (int64_t r = 0; r < 3 * k && r < 4096; r += 1 + k / 3) {
                FUZZ_CHECK(om_hierarchy_domain_of(h, i, r, &d, &err) == OM_OK && d == r / k,
                           "uniform domain_of(%zu, %lld) = %lld", i, (long long)r, (long long)d);
                char want[24];
                snprintf(want, sizeof want, "%lld", (long long)d);
                FUZZ_CHECK(om_hierarchy_domain_label(h, i, d, &label, &err) == OM_OK &&
                               strcmp(label, want) == 0,
                           "label of uniform domain %lld", (long long)d);
                om_string_free(label);
            }
        }
        return;
    }
    if (n > 4096)
        return;
    static int64_t domain[2][4096], up[4096];
    for (size_t i = 0; i < levels; i++) {
        int64_t *cur = domain[i % 2], *prev = domain[(i + 1) % 2], seen = 0;
        FUZZ_CHECK(om_hierarchy_ranks_per_domain(h, i) == 0, "explicit level with a size");
        for (int64_t r = 0; r < n; r++) {
            FUZZ_CHECK(om_hierarchy_domain_of(h, i, r, &cur[r], &err) == OM_OK,
                       "domain_of(%zu, %lld): %s", i, (long long)r, err.message);
            FUZZ_CHECK(cur[r] >= 0 && cur[r] <= seen, "domain %lld of rank %lld is not numbered "
                       "in order of first appearance", (long long)cur[r], (long long)r);
            seen += cur[r] == seen;
        }
        for (int64_t x = 0; x < seen; x++) {
            FUZZ_CHECK(om_hierarchy_domain_label(h, i, x, &label, &err) == OM_OK &&
                           label[0] && fuzz_utf8_valid(label, strlen(label)),
                       "label of domain %lld", (long long)x);
            om_string_free(label);
        }
        /* Nesting: the domain at the faster level decides this one. */
        if (i > 0) {
            for (int64_t x = 0; x < n; x++)
                up[x] = -1;
            for (int64_t r = 0; r < n; r++) {
                FUZZ_CHECK(up[prev[r]] < 0 || up[prev[r]] == cur[r],
                           "level %zu does not nest: rank %lld", i, (long long)r);
                up[prev[r]] = cur[r];
            }
        }
        om_status st = om_hierarchy_domain_of(h, i, n, &d, &err);
        FUZZ_CHECK(st == OM_ERR_OUT_OF_RANGE, "domain_of beyond the ranks gave %d", (int)st);
    }
}

/* The locality fields of one level, by the definition. */
static void reference_level(const om_hierarchy *h, size_t level, const int32_t *groups,
                            int64_t count, int64_t gsize, int64_t want[8])
{
    om_error err;
    static int64_t dom[MAX_RANKS];
    int64_t inside = 0, crossing = 0, most = 0, ppn_min = INT64_MAX, ppn_max = 0;
    int64_t worst = 0, first_crossing = -1, crossing_rank = -1;
    for (int64_t g = 0; g < count; g++) {
        const int32_t *m = groups + g * gsize;
        for (int64_t j = 0; j < gsize; j++)
            FUZZ_CHECK(om_hierarchy_domain_of(h, level, m[j], &dom[j], &err) == OM_OK,
                       "domain_of(%d)", m[j]);
        int64_t domains = 0, outside = -1;
        for (int64_t j = 0; j < gsize; j++) {
            int64_t members = 0;
            bool first = true;
            for (int64_t q = 0; q < gsize; q++) {
                members += dom[q] == dom[j];
                first = first && !(q < j && dom[q] == dom[j]);
            }
            if (!first)
                continue;
            domains++;
            ppn_min = members < ppn_min ? members : ppn_min;
            ppn_max = members > ppn_max ? members : ppn_max;
            if (outside < 0 && dom[j] != dom[0])
                outside = m[j];
        }
        if (domains == 1) {
            inside++;
        } else {
            crossing++;
            if (first_crossing < 0)
                first_crossing = g, crossing_rank = outside;
        }
        if (domains > most)
            most = domains, worst = g;
    }
    int64_t values[8] = {inside, crossing, most, ppn_min, ppn_max, worst, first_crossing,
                         crossing_rank};
    memcpy(want, values, sizeof values);
}

static void check_locality(const om_hierarchy *h, const om_mesh *mesh, const char *const *axes,
                           size_t naxes)
{
    om_error err;
    om_locality *report = NULL;
    int64_t n = om_hierarchy_ranks(h);
    om_status st = om_hierarchy_locality(mesh, h, axes, naxes, &report, &err);
    if (n != 0 && n != om_mesh_size(mesh)) {
        FUZZ_CHECK(st == OM_ERR_INVALID_ARGUMENT && report == NULL,
                   "explicit hierarchy of %lld ranks, mesh of %lld: status %d", (long long)n,
                   (long long)om_mesh_size(mesh), (int)st);
        return;
    }
    FUZZ_CHECK(st == OM_OK, "locality: %s", err.message);
    static int32_t groups[MAX_RANKS];
    int64_t count = 0, gsize = 0;
    size_t needed = 0;
    FUZZ_CHECK(om_mesh_group_shape_named(mesh, axes, naxes, &count, &gsize, &err) == OM_OK &&
                   om_mesh_groups_named(mesh, axes, naxes, 0, count, groups, MAX_RANKS, &needed,
                                        &err) == OM_OK,
               "groups: %s", err.message);
    FUZZ_CHECK(om_locality_groups(report) == count &&
                   om_locality_levels(report) == om_hierarchy_levels(h),
               "report shape");
    for (size_t level = 0; level < om_hierarchy_levels(h); level++) {
        int64_t want[8], got = -2;
        reference_level(h, level, groups, count, gsize, want);
        for (int f = 0; f < 8; f++) {
            FUZZ_CHECK(om_locality_get(report, level, (om_locality_field)f, &got, &err) == OM_OK &&
                           got == want[f],
                       "level %zu field %d is %lld, the definition gives %lld", level, f,
                       (long long)got, (long long)want[f]);
        }
        /* The rule "AXES:LEVEL" is broken exactly when a group crosses. */
        const char *name = om_hierarchy_level_name(h, level);
        if (naxes == 0 || strpbrk(name, ",:+ \t\n\r\f\v") || strlen(name) > 64)
            continue;
        char rule[128];
        size_t o = 0;
        for (size_t k = 0; k < naxes; k++)
            o += (size_t)snprintf(rule + o, sizeof rule - o, "%s%s", k ? "+" : "", axes[k]);
        snprintf(rule + o, sizeof rule - o, ":%s", name);
        char *violations = NULL;
        size_t broken = 9;
        FUZZ_CHECK(om_hierarchy_check(mesh, h, rule, &violations, &broken, &err) == OM_OK,
                   "check(%s): %s", rule, err.message);
        FUZZ_CHECK(broken == (want[1] > 0) && (violations[0] != '\0') == (broken > 0),
                   "rule %s: %zu broken, %lld groups cross", rule, broken, (long long)want[1]);
        om_string_free(violations);
    }
    om_locality_free(report);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    static const char *const names[3] = {"a", "b", "c"};
    uint8_t reader = data[0] % 3;
    size_t ndim = 1 + data[1] % 3, at = 2;
    int64_t sizes[3];
    for (size_t i = 0; i < ndim; i++)
        sizes[i] = at < size ? 1 + data[at++] % 8 : 1;
    uint8_t bits = at < size ? data[at++] : 0;
    const char *axes[3];
    size_t naxes = 0;
    for (size_t i = 0; i < ndim; i++)
        if (bits >> i & 1)
            axes[naxes++] = names[i];
    static char text[MAX_TEXT + 1];
    size_t len = size - at < MAX_TEXT ? size - at : MAX_TEXT;
    memcpy(text, data + at, len);
    text[len] = '\0';

    /* An explicit hierarchy takes memory per rank, so a slot count of
     * millions is a legitimate gigabyte: keep hostfiles under 10^6 slots
     * per host (no run of 7 digits), within libFuzzer's memory limit. */
    for (size_t i = 0, run = 0; reader == 2 && i < len; i++)
        if ((run = text[i] >= '0' && text[i] <= '9' ? run + 1 : 0) >= 7)
            return 0;
    om_error err;
    om_hierarchy *h = (om_hierarchy *)(uintptr_t)1;
    om_status st = reader == 0   ? om_hierarchy_from_spec(text, &h, &err)
                   : reader == 1 ? om_hierarchy_from_json(text, len, &h, &err)
                                 : om_hierarchy_from_hostfile(text, len, &h, &err);
    if (st != OM_OK) {
        FUZZ_CHECK(h == NULL, "a failed read left *out set");
        fuzz_check_error("hierarchy reader", st, &err, read_errors);
        return 0;
    }
    check_levels(h);
    check_domains(h);
    om_mesh *mesh = NULL;
    FUZZ_CHECK(om_mesh_new(names, sizes, ndim, &mesh, &err) == OM_OK, "mesh");
    check_locality(h, mesh, axes, naxes);
    char *json = NULL;
    FUZZ_CHECK(om_hierarchy_to_json(h, &json, &err) == OM_OK && json[0] == '[',
               "to_json: %s", err.message);
    om_string_free(json);
    om_mesh_free(mesh);
    om_hierarchy_free(h);
    return 0;
}
