/* The presets' group lists as strided layouts (src/preset_groups.c)
 * against their naive definitions on random row-major views: axis groups,
 * groups in an explicit axis order, regrouping, Megatron's hierarchical
 * split and embedding ends, and the exactness of list equality (equal
 * layouts <=> equal enumerations). Links the static library for the
 * internal functions.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_test.h"
#include "preset_internal.h"

#define MAXW 4096

static unsigned next_random(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (*state >> 8) & 0xffffff;
}

/* A random row-major view of up to 5 axes "a0".."a4" over at most MAXW
 * ranks, sizes 1..5 (primes and 1 included). */
static omi_pview *random_view(om_preset *preset, unsigned *seed, int64_t *world)
{
    static const char *const names[] = {"a0", "a1", "a2", "a3", "a4"};
    int64_t sizes[5];
    size_t n = 1 + next_random(seed) % 5;
    *world = 1;
    for (size_t i = 0; i < n; i++) {
        sizes[i] = 1 + next_random(seed) % 5;
        *world *= sizes[i];
    }
    memset(preset, 0, sizeof *preset);
    preset->world = *world;
    return omi_preset_add_view(preset, "v", names, sizes, NULL, n);
}

static int32_t *materialise(const omi_group_list *list)
{
    size_t total = list->count * list->size;
    int32_t *out = malloc((total + 1) * sizeof *out);
    omi_group_list_write(list, 0, (int64_t)total, out);
    return out;
}

/* Digit of axis i of `rank` in a row-major view. */
static int64_t digit(const omi_pview *v, int64_t rank, size_t i)
{
    int64_t stride = v->axes[i].nmodes ? v->axes[i].modes[0].stride : 1;
    int64_t size = v->axes[i].nmodes ? v->axes[i].modes[0].size : 1;
    return (rank / stride) % size;
}

static int64_t size_of(const omi_pview *v, size_t i)
{
    return v->axes[i].nmodes ? v->axes[i].modes[0].size : 1;
}

/* Naive groups: for every combination of the `outer` axes (first slowest)
 * the ranks with those digits, in the order of the `inner` axes (first
 * slowest). */
static int32_t *naive_list(const omi_pview *v, int64_t world, const size_t *outer,
                           size_t nouter, const size_t *inner, size_t ninner,
                           size_t *count, size_t *size)
{
    int32_t *out = malloc((size_t)(world + 1) * sizeof *out);
    size_t k = 0;
    int64_t groups = 1, members = 1;
    for (size_t i = 0; i < nouter; i++)
        groups *= size_of(v, outer[i]);
    for (size_t i = 0; i < ninner; i++)
        members *= size_of(v, inner[i]);
    for (int64_t g = 0; g < groups; g++)
        for (int64_t m = 0; m < members; m++)
            for (int64_t r = 0; r < world; r++) {
                int64_t gg = 0, mm = 0;
                for (size_t i = 0; i < nouter; i++)
                    gg = gg * size_of(v, outer[i]) + digit(v, r, outer[i]);
                for (size_t i = 0; i < ninner; i++)
                    mm = mm * size_of(v, inner[i]) + digit(v, r, inner[i]);
                if (gg == g && mm == m)
                    out[k++] = (int32_t)r;
            }
    *count = (size_t)groups;
    *size = (size_t)members;
    return out;
}

static void shuffle(size_t *a, size_t n, unsigned *seed)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = next_random(seed) % i, t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

static void test_axis_groups(void)
{
    unsigned seed = 7;
    om_preset *preset = malloc(sizeof *preset);
    for (int iter = 0; iter < 300; iter++) {
        int64_t world;
        omi_pview *v = random_view(preset, &seed, &world);
        /* A random subset, named in a random order. */
        size_t order[5], inner[5], outer[5], ni = 0, no = 0;
        for (size_t i = 0; i < v->naxes; i++)
            order[i] = i;
        shuffle(order, v->naxes, &seed);
        size_t take = next_random(&seed) % (v->naxes + 1);
        const char *names[5];
        for (size_t i = 0; i < take; i++)
            names[i] = v->axes[order[i]].name;
        for (size_t i = 0; i < v->naxes; i++) {
            bool chosen = false;
            for (size_t j = 0; j < take; j++)
                chosen |= order[j] == i;
            if (chosen)
                inner[ni++] = i;
            else
                outer[no++] = i;
        }
        omi_group_list list;
        om_error err;
        OM_EXPECT_OK(omi_pview_groups(v, names, take, &list, &err), &err);
        size_t count, size;
        int32_t *want = naive_list(v, world, outer, no, inner, ni, &count, &size);
        int32_t *got = materialise(&list);
        OM_EXPECT_INT(list.count, count);
        OM_EXPECT_INT(list.size, size);
        OM_EXPECT(memcmp(got, want, (size_t)world * sizeof *got) == 0);
        free(got);
        free(want);
        omi_group_list_free(&list);

        /* An explicit order: outer and inner axes each shuffled. */
        shuffle(outer, no, &seed);
        shuffle(inner, ni, &seed);
        const char *on[5], *in[5];
        for (size_t i = 0; i < no; i++)
            on[i] = v->axes[outer[i]].name;
        for (size_t i = 0; i < ni; i++)
            in[i] = v->axes[inner[i]].name;
        omi_pview_list(v, on, no, in, ni, &list);
        want = naive_list(v, world, outer, no, inner, ni, &count, &size);
        got = materialise(&list);
        OM_EXPECT_INT(list.count, count);
        OM_EXPECT_INT(list.size, size);
        OM_EXPECT(memcmp(got, want, (size_t)world * sizeof *got) == 0);

        /* Slices of the enumeration equal the whole one's. */
        int64_t e0 = next_random(&seed) % (world + 1);
        int64_t e1 = e0 + next_random(&seed) % (world - e0 + 1);
        int32_t *part = malloc((size_t)(e1 - e0 + 1) * sizeof *part);
        omi_group_list_write(&list, e0, e1, part);
        OM_EXPECT(memcmp(part, got + e0, (size_t)(e1 - e0) * sizeof *part) == 0);
        free(part);
        free(got);
        free(want);
    }
    free(preset);
}

/* Regrouping, Megatron's hierarchical split and the embedding ends of the
 * groups over one random axis, against the same operations on the
 * materialised list. */
static void test_derived_lists(void)
{
    unsigned seed = 11;
    om_preset *preset = malloc(sizeof *preset);
    for (int iter = 0; iter < 300; iter++) {
        int64_t world;
        omi_pview *v = random_view(preset, &seed, &world);
        const char *axis = v->axes[next_random(&seed) % v->naxes].name;
        omi_group_list source, derived;
        om_error err;
        OM_EXPECT_OK(omi_pview_groups(v, &axis, 1, &source, &err), &err);
        int32_t *ranks = materialise(&source);
        size_t g_size = source.size;

        /* Regroup into a divisor or a multiple of the group size. */
        size_t d = 1 + next_random(&seed) % g_size;
        while (g_size % d)
            d--;
        size_t new_size = next_random(&seed) % 2 ? d : g_size * source.count;
        omi_group_list_regroup(&source, new_size, &derived);
        int32_t *got = materialise(&derived);
        OM_EXPECT_INT(derived.size, new_size);
        OM_EXPECT_INT(derived.count * derived.size, world);
        OM_EXPECT(memcmp(got, ranks, (size_t)world * sizeof *got) == 0);
        free(got);

        /* create_hierarchical_groups level: processed * split divides the
         * group size. */
        size_t processed = 1 + next_random(&seed) % g_size;
        while (g_size % processed)
            processed--;
        size_t split = 1 + next_random(&seed) % (g_size / processed);
        while ((g_size / processed) % split)
            split--;
        omi_group_list_split(&source, processed, split, &derived);
        got = materialise(&derived);
        size_t k = 0;
        bool same = derived.size == split;
        size_t accumulated = processed * split;
        for (size_t g = 0; g < source.count; g++)
            for (size_t run = 0; run < g_size / accumulated; run++)
                for (size_t j = 0; j < processed; j++)
                    for (size_t i = 0; i < split; i++)
                        same &= got[k++] ==
                                ranks[g * g_size + j + i * processed + run * accumulated];
        OM_EXPECT(same && k == (size_t)world);
        free(got);

        /* Embedding ends. */
        omi_group_list_ends(&source, true, &derived);
        got = materialise(&derived);
        size_t width = g_size > 1 ? 2 : 1;
        same = derived.size == width && derived.count == source.count;
        for (size_t g = 0; g < source.count; g++) {
            same &= got[g * width] == ranks[g * g_size];
            if (width == 2)
                same &= got[g * width + 1] == ranks[g * g_size + g_size - 1];
        }
        OM_EXPECT(same);
        free(got);
        omi_group_list_ends(&source, false, &derived);
        got = materialise(&derived);
        same = derived.size == 1;
        for (size_t g = 0; g < source.count; g++)
            same &= got[g] == ranks[g * g_size];
        OM_EXPECT(same);
        free(got);
        free(ranks);
        omi_group_list_free(&source);
    }
    free(preset);
}

/* Equality is exact: two random lists (small strides, so that different
 * mode lists often give the same enumeration) compare equal exactly when
 * their rank sequences do. */
static void test_equality_is_exact(void)
{
    unsigned seed = 5;
    int equal_seen = 0;
    for (int iter = 0; iter < 20000; iter++) {
        omi_group_list l[2];
        for (int k = 0; k < 2; k++) {
            memset(&l[k], 0, sizeof l[k]);
            size_t n = next_random(&seed) % 4, total = 1;
            for (size_t i = 0; i < n; i++) {
                int64_t len = 1 + next_random(&seed) % 3;
                omi_layout_push(&l[k].outer, len, 1 + next_random(&seed) % 6);
                total *= (size_t)len;
            }
            l[k].count = total;
            l[k].size = 1;
        }
        int32_t *a = materialise(&l[0]), *b = materialise(&l[1]);
        bool seq_equal = l[0].count == l[1].count &&
                         memcmp(a, b, l[0].count * sizeof *a) == 0;
        OM_EXPECT_INT(omi_group_list_equal(&l[0], &l[1]), seq_equal);
        equal_seen += seq_equal;
        free(a);
        free(b);
    }
    OM_EXPECT(equal_seen > 100);
}

/* The message text of a list: Python's spelling, shortened. */
static void test_format(void)
{
    om_preset *preset = malloc(sizeof *preset);
    memset(preset, 0, sizeof *preset);
    preset->world = 8;
    omi_pview *v = omi_preset_add_view(preset, "v", (const char *[]){"a", "b"},
                                       (int64_t[]){4, 2}, NULL, 2);
    omi_group_list list;
    om_error err;
    const char *a = "a";
    OM_EXPECT_OK(omi_pview_groups(v, &a, 1, &list, &err), &err);
    char text[100];
    omi_group_list_format(text, sizeof text, &list);
    OM_EXPECT_STR(text, "[[0, 2, 4, 6], [1, 3, 5, 7]]");
    omi_group_list_format(text, 30, &list);
    OM_EXPECT_STR(text, "[[0, 2, 4, 6], [1, 3 ...");
    /* Past 48 ranks the text says so. */
    omi_preset_add_view(preset, "w", (const char *[]){"c"}, (int64_t[]){60}, NULL, 1);
    omi_group_list long_list;
    const char *c = "c";
    OM_EXPECT_OK(omi_pview_groups(&preset->views[1], &c, 1, &long_list, &err), &err);
    char wide[400];
    omi_group_list_format(wide, sizeof wide, &long_list);
    OM_EXPECT(strncmp(wide, "[[0, 1, 2, ", 11) == 0);
    OM_EXPECT(strstr(wide, ", 47, ...]]") != NULL);
    free(preset);
}

static void collect(void *ctx, const char *message)
{
    char (*found)[OM_ERROR_MESSAGE_SIZE] = ctx;
    size_t i = 0;
    while (i < 4 && found[i][0])
        i++;
    if (i < 4)
        snprintf(found[i], OM_ERROR_MESSAGE_SIZE, "%s", message);
}

/* Every broken rule of a world is reported, not only the first (check
 * --preset lists them all): a view outside the world and two axes on
 * which two views disagree. */
static void test_every_conflict(void)
{
    om_mesh *a = NULL, *b = NULL, *c = NULL;
    om_error err;
    const char *names[] = {"dp", "tp"};
    OM_EXPECT_OK(om_view_new(names, 2, (int64_t[]){2, 4}, 2, (int64_t[]){4, 1}, 2, 0,
                             &a, &err), &err);
    OM_EXPECT_OK(om_view_new(names, 2, (int64_t[]){2, 4}, 2, (int64_t[]){1, 2}, 2, 0,
                             &b, &err), &err);
    OM_EXPECT_OK(om_view_new((const char *[]){"x"}, 1, (int64_t[]){8}, 1,
                             (int64_t[]){1}, 1, 8, &c, &err), &err);
    char found[4][OM_ERROR_MESSAGE_SIZE] = {{0}};
    OM_EXPECT_OK(omi_world_conflicts(8, (const char *[]){"a", "b", "c"},
                                     (const om_mesh *[]){a, b, c}, 3, collect, found,
                                     &err), &err);
    OM_EXPECT_STR(found[0], "view 'c' reaches rank 15, world size is 8");
    OM_EXPECT_STR(found[1], "views 'a' and 'b' disagree on axis 'dp': rank 0 is in "
                            "[0, 4] in 'a' and in [0, 1] in 'b'");
    OM_EXPECT_STR(found[2], "views 'a' and 'b' disagree on axis 'tp': rank 0 is in "
                            "[0, 1, 2, 3] in 'a' and in [0, 2, 4, 6] in 'b'");
    OM_EXPECT_STR(found[3], "");
    /* om_world_new stops at the first. */
    om_world *w = NULL;
    OM_EXPECT_ERR(om_world_new(8, (const char *[]){"a", "b"}, 2,
                               (const om_mesh *[]){a, b}, 2, &w, &err),
                  &err, OM_ERR_VIEW_CONFLICT, "on axis 'dp'");
    om_mesh_free(a);
    om_mesh_free(b);
    om_mesh_free(c);
}

/* ---- a world of many views: the indexed check finds what pairs find ---- */

#define MANY 48 /* over OMI_NAME_INDEX_MIN (32) views: the indexed path */
#define SHARED 3

typedef struct {
    char text[MANY * MANY][OM_ERROR_MESSAGE_SIZE];
    size_t n;
} found_list;

static void collect_all(void *ctx, const char *message)
{
    found_list *found = ctx;
    if (found->n < MANY * MANY)
        snprintf(found->text[found->n++], OM_ERROR_MESSAGE_SIZE, "%s", message);
}

/* True when axis `axis` gives every rank of an 8-rank world the same group
 * (members in order, or none) in views a and b: the rule by definition. */
static bool same_groups(const om_mesh *a, const om_mesh *b, const char *axis)
{
    for (int64_t r = 0; r < 8; r++) {
        int32_t ga[8] = {0}, gb[8] = {0};
        om_status sa = om_mesh_group_of_named(a, &axis, 1, r, ga, 8, NULL, NULL);
        om_status sb = om_mesh_group_of_named(b, &axis, 1, r, gb, 8, NULL, NULL);
        if (sa != sb || om_mesh_size_of(a, axis) != om_mesh_size_of(b, axis) ||
            (sa == OM_OK && memcmp(ga, gb, sizeof ga) != 0))
            return false;
    }
    return true;
}

/* Random worlds of 48 views over 8 ranks whose axes come from 3 shared
 * names (of random stride: some views agree, some not) and names of their
 * own: every conflict, in the pairwise order (view, its axis, later view),
 * against the definition; om_world_new stops at the first. */
static void test_many_views_conflicts(void)
{
    static found_list found;
    static char want[MANY * MANY][OM_ERROR_MESSAGE_SIZE];
    static const char *shared[SHARED] = {"a", "b", "c"};
    static const int64_t pairs[6][2] = {{1, 2}, {2, 1}, {1, 4}, {4, 1}, {2, 4}, {4, 2}};
    char own[MANY][8], names[MANY][8];
    const char *view_names[MANY];
    om_mesh *views[MANY];
    srand(20261202);
    for (int round = 0; round < 20; round++) {
        for (int v = 0; v < MANY; v++) {
            snprintf(own[v], sizeof own[v], "u%d", v);
            snprintf(names[v], sizeof names[v], "v%d", v);
            view_names[v] = names[v];
            /* Two axes of size 2 on distinct strides of {1, 2, 4}. */
            const int64_t *strides = pairs[rand() % 6];
            const char *axes[2] = {shared[rand() % SHARED],
                                   rand() % 3 ? shared[rand() % SHARED] : own[v]};
            if (strcmp(axes[0], axes[1]) == 0)
                axes[1] = own[v];
            views[v] = NULL;
            OM_EXPECT_OK(om_view_new(axes, 2, (int64_t[]){2, 2}, 2, strides, 2, 0, &views[v],
                                     NULL), NULL);
        }
        size_t nwant = 0;
        for (int x = 0; x < MANY; x++)
            for (size_t ia = 0; ia < 2; ia++)
                for (int y = x + 1; y < MANY; y++) {
                    const char *axis = om_mesh_name(views[x], ia);
                    if (om_mesh_index_of(views[y], axis) >= 0 &&
                        !same_groups(views[x], views[y], axis))
                        snprintf(want[nwant++], OM_ERROR_MESSAGE_SIZE,
                                 "views 'v%d' and 'v%d' disagree on axis '%s'", x, y, axis);
                }
        found.n = 0;
        om_error err;
        OM_EXPECT_OK(omi_world_conflicts(8, view_names, (const om_mesh *const *)views, MANY,
                                         collect_all, &found, &err), &err);
        OM_EXPECT_INT(found.n, nwant);
        OM_EXPECT(nwant > 0);
        for (size_t i = 0; i < nwant && i < found.n; i++)
            if (strncmp(found.text[i], want[i], strlen(want[i])) != 0)
                OM_EXPECT_STR(found.text[i], want[i]);
        om_world *w = (om_world *)1;
        om_status st = om_world_new(8, view_names, MANY, (const om_mesh *const *)views, MANY,
                                    &w, &err);
        OM_EXPECT_INT(st, OM_ERR_VIEW_CONFLICT);
        OM_EXPECT(strncmp(err.message, want[0], strlen(want[0])) == 0);
        for (int v = 0; v < MANY; v++)
            om_mesh_free(views[v]);
    }
}

static const om_test_case list_tests[] = {
    {"every broken rule of a world", test_every_conflict},
    {"axis groups and explicit orders vs the definition", test_axis_groups},
    {"regroup, hierarchical split, ends vs the definition", test_derived_lists},
    {"equal layouts <=> equal enumerations", test_equality_is_exact},
    {"message text", test_format},
    {"many views: every conflict vs the definition", test_many_views_conflicts},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"preset_lists", NULL, NULL, list_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
