/* Every case of tests/vectors/layout.json (computed by running torch's
 * DeviceMesh, see its README) and of tests/torch_layout/layout.json and
 * deep.json (random chains recorded from torch by generate.py and
 * generate_deep.py) through the C API: the ops
 * are applied with om_view_flatten/unflatten/slice and om_world_slice, and
 * the result's names, shape, layout, instances, groups of every axis and
 * coordinate of every rank are compared exactly. Error cases must fail, except where the
 * case's "library" field says the library accepts them (VIEWS.md 4).
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "om_test.h"

/* The JSON document at `path` (a failed expectation when unreadable). */
static json_t *load_json(const char *path)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    OM_EXPECT(root != NULL);
    if (!root)
        fprintf(stderr, "cannot read %s: %s\n", path, jerr.text);
    return root;
}

static size_t strings(json_t *array, const char **out, size_t cap)
{
    size_t n = json_array_size(array);
    for (size_t i = 0; i < n && i < cap; i++)
        out[i] = json_string_value(json_array_get(array, i));
    return n;
}

/* The state of one case: the current view and the root's flattened views
 * (for slice_root), kept as a world's parts. */
typedef struct {
    om_mesh *current;
    om_mesh *root;
    om_mesh *flat[8];
    const char *flat_names[8];
    size_t nflat;
} state;

static om_status apply(state *s, json_t *op, om_error *err)
{
    const char *kind = json_string_value(json_object_get(op, "kind"));
    const char *axes[16], *names[16];
    size_t naxes = strings(json_object_get(op, "axes"), axes, 16);
    om_mesh *next = NULL;
    om_status st;
    if (strcmp(kind, "flatten") == 0) {
        json_t *name = json_object_get(op, "name");
        st = om_view_flatten(s->current, axes, naxes,
                             json_is_string(name) ? json_string_value(name) : NULL,
                             &next, err);
        /* The root knows the flattened view by its name, unless the name
         * was flattened before (torch keeps the first) or is the one axis
         * flattened into its own name (torch returns mesh[axis] then). */
        bool known = st != OM_OK || om_mesh_index_of(s->current, om_mesh_name(next, 0)) >= 0;
        for (size_t i = 0; i < s->nflat && !known; i++)
            known = strcmp(s->flat_names[i], om_mesh_name(next, 0)) == 0;
        if (!known && s->nflat < 8) {
            om_mesh *copy = NULL;
            om_error e2;
            st = om_view_flatten(s->current, axes, naxes,
                                 json_is_string(name) ? json_string_value(name) : NULL,
                                 &copy, &e2);
            s->flat_names[s->nflat] = om_mesh_name(copy, 0);
            s->flat[s->nflat++] = copy;
        }
    } else if (strcmp(kind, "unflatten") == 0) {
        json_t *sizes_j = json_object_get(op, "sizes");
        int64_t sizes[16];
        size_t n = json_array_size(sizes_j);
        for (size_t i = 0; i < n && i < 16; i++)
            sizes[i] = json_integer_value(json_array_get(sizes_j, i));
        size_t nn = strings(json_object_get(op, "names"), names, 16);
        const char *axis = om_mesh_name(
            s->current, (size_t)json_integer_value(json_object_get(op, "axis")));
        st = om_view_unflatten(s->current, axis, sizes, n, names, nn, &next, err);
    } else if (strcmp(kind, "slice") == 0) {
        st = om_view_slice(s->current, axes, naxes, &next, err);
    } else {
        /* slice_root: the root and every flattened view, as one world. */
        const char *vnames[9] = {"root"};
        const om_mesh *views[9] = {s->root};
        for (size_t i = 0; i < s->nflat; i++) {
            vnames[i + 1] = s->flat_names[i];
            views[i + 1] = s->flat[i];
        }
        om_world *w = NULL;
        st = om_world_new(om_mesh_size(s->root), vnames, s->nflat + 1, views,
                          s->nflat + 1, &w, err);
        if (st == OM_OK)
            st = om_world_slice(w, axes, naxes, &next, err);
        om_world_free(w);
    }
    if (st == OM_OK) {
        om_mesh_free(s->current);
        s->current = next;
    }
    return st;
}

/* Compares the view with a vector record, field by field. */
static void compare(const om_mesh *v, json_t *want, const char *label)
{
    om_error err;
    size_t n = om_mesh_ndim(v);
    json_t *names = json_object_get(want, "dim_names");
    json_t *shape = json_object_get(want, "shape");
    json_t *layout = json_object_get(want, "layout");
    OM_EXPECT_INT(n, json_array_size(names));
    for (size_t i = 0; i < n && i < json_array_size(names); i++) {
        OM_EXPECT_STR(om_mesh_name(v, i), json_string_value(json_array_get(names, i)));
        OM_EXPECT_INT(om_mesh_dim_size(v, i), json_integer_value(json_array_get(shape, i)));
        json_t *modes = json_array_get(layout, i);
        int64_t got[64];
        size_t needed = 0;
        OM_EXPECT_OK(om_view_modes(v, i, got, 64, &needed, &err), &err);
        OM_EXPECT_INT(needed, 2 * json_array_size(modes));
        for (size_t j = 0; j < json_array_size(modes) && 2 * j + 1 < needed; j++) {
            json_t *pair = json_array_get(modes, j);
            OM_EXPECT_INT(got[2 * j], json_integer_value(json_array_get(pair, 0)));
            OM_EXPECT_INT(got[2 * j + 1], json_integer_value(json_array_get(pair, 1)));
        }
    }
    /* Instances = the groups over every axis. */
    json_t *instances = json_object_get(want, "instances");
    OM_EXPECT_INT(om_view_instance_count(v), json_array_size(instances));
    uint64_t all = n >= 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
    int64_t count = 0, size = 0;
    OM_EXPECT_OK(om_mesh_group_shape(v, all, &count, &size, &err), &err);
    /* Every group list of a view holds all its ranks once (any size: the
     * generators record views of more than 4096 ranks). */
    size_t held = (size_t)om_view_rank_count(v);
    int32_t *ranks = calloc(held, sizeof *ranks), *of = calloc(held, sizeof *of);
    OM_EXPECT(ranks && of && (size_t)(count * size) == held);
    if (!ranks || !of || (size_t)(count * size) != held) {
        free(ranks);
        free(of);
        return;
    }
    OM_EXPECT_OK(om_mesh_groups(v, all, 0, count, ranks, held, &err), &err);
    for (int64_t g = 0; g < count && g < (int64_t)json_array_size(instances); g++)
        for (int64_t k = 0; k < size; k++)
            OM_EXPECT_INT(ranks[g * size + k],
                          json_integer_value(json_array_get(
                              json_array_get(instances, (size_t)g), (size_t)k)));
    /* Groups of every axis, exactly. */
    json_t *groups = json_object_get(want, "groups");
    const char *key;
    json_t *list;
    json_object_foreach(groups, key, list) {
        int index = om_mesh_index_of(v, key);
        OM_EXPECT(index >= 0);
        if (index < 0)
            continue;
        uint64_t mask = UINT64_C(1) << index;
        OM_EXPECT_OK(om_mesh_group_shape(v, mask, &count, &size, &err), &err);
        OM_EXPECT_INT(count, json_array_size(list));
        OM_EXPECT_INT(count * size, held);
        if ((size_t)(count * size) != held)
            continue;
        OM_EXPECT_OK(om_mesh_groups(v, mask, 0, count, ranks, held, &err), &err);
        for (int64_t g = 0; g < count && g < (int64_t)json_array_size(list); g++) {
            json_t *members = json_array_get(list, (size_t)g);
            OM_EXPECT_INT(size, json_array_size(members));
            for (int64_t k = 0; k < size; k++)
                OM_EXPECT_INT(ranks[g * size + k],
                              json_integer_value(json_array_get(members, (size_t)k)));
            /* The group of each member is this group, at the same index. */
            for (int64_t k = 0; k < size; k++) {
                int64_t index_of = -1;
                OM_EXPECT_OK(om_mesh_group_of(v, mask, ranks[g * size + k], of,
                                              held, &err), &err);
                OM_EXPECT(memcmp(of, ranks + g * size, (size_t)size * sizeof *of) == 0);
                OM_EXPECT_OK(om_mesh_group_index(v, mask, ranks[g * size + k],
                                                 &index_of, &err), &err);
                OM_EXPECT_INT(index_of, g);
            }
        }
    }
    /* Coordinates of every rank (null: not held). */
    json_t *coords = json_object_get(want, "coords");
    for (size_t r = 0; r < json_array_size(coords); r++) {
        json_t *c = json_array_get(coords, r);
        int64_t got[64];
        if (json_is_null(c)) {
            OM_EXPECT(!om_view_holds(v, (int64_t)r));
            continue;
        }
        OM_EXPECT_OK(om_mesh_coordinate(v, (int64_t)r, got, 64, &err), &err);
        for (size_t i = 0; i < n; i++)
            OM_EXPECT_INT(got[i], json_integer_value(json_array_get(c, i)));
    }
    free(ranks);
    free(of);
    (void)label;
}

/* Every case of a layout document (at least `min_cases` of them). */
static void run_layout(const char *path, size_t min_cases)
{
    json_t *root = load_json(path);
    if (!root)
        return;
    json_t *cases = json_object_get(root, "cases");
    OM_EXPECT(json_array_size(cases) >= min_cases);
    for (size_t c = 0; c < json_array_size(cases); c++) {
        json_t *tc = json_array_get(cases, c);
        json_t *base = json_object_get(tc, "base");
        const char *names[16];
        int64_t sizes[16];
        size_t n = strings(json_object_get(base, "dim_names"), names, 16);
        json_t *shape = json_object_get(base, "shape");
        for (size_t i = 0; i < n; i++)
            sizes[i] = json_integer_value(json_array_get(shape, i));
        om_error err;
        state s = {0};
        OM_EXPECT_OK(om_mesh_new(names, sizes, n, &s.root, &err), &err);
        OM_EXPECT_OK(om_mesh_new(names, sizes, n, &s.current, &err), &err);
        OM_EXPECT_INT(om_mesh_size(s.root),
                      json_integer_value(json_object_get(tc, "world_size")));
        json_t *ops = json_object_get(tc, "ops");
        om_status st = OM_OK;
        for (size_t k = 0; k < json_array_size(ops) && st == OM_OK; k++)
            st = apply(&s, json_array_get(ops, k), &err);
        json_t *error = json_object_get(tc, "error");
        json_t *library = json_object_get(tc, "library");
        if (error && !(library && strncmp(json_string_value(library),
                                          "accepted", 8) == 0)) {
            if (st == OM_OK)
                fprintf(stderr, "case %zu: expected an error like \"%s\"\n", c,
                        json_string_value(json_object_get(error, "message")));
            OM_EXPECT(st != OM_OK);
        } else {
            if (st != OM_OK)
                fprintf(stderr, "case %zu: %s\n", c, err.message);
            OM_EXPECT_INT(st, OM_OK);
            if (st == OM_OK && !error) {
                char label[32];
                snprintf(label, sizeof label, "case %zu", c);
                compare(s.current, json_object_get(tc, "result"), label);
            }
        }
        om_mesh_free(s.current);
        om_mesh_free(s.root);
        for (size_t i = 0; i < s.nflat; i++)
            om_mesh_free(s.flat[i]);
    }
    json_decref(root);
}

static void test_layout_vectors(void)
{
    char path[1024];
    const char *dir = getenv("OM_VECTORS");
    snprintf(path, sizeof path, "%s/layout.json", dir ? dir : "tests/vectors");
    run_layout(path, 14);
}

/* tests/torch_layout/layout.json: random chains recorded from torch's
 * DeviceMesh by tests/torch_layout/generate.py. */
static void test_torch_layout(void)
{
    const char *path = getenv("OM_TORCH_LAYOUT");
    run_layout(path ? path : "tests/torch_layout/layout.json", 500);
}

/* tests/torch_layout/deep.json: chains of 5-8 operations on meshes of up to
 * 8 axes and 4096 ranks, recorded by tests/torch_layout/generate_deep.py. */
static void test_torch_deep(void)
{
    const char *path = getenv("OM_TORCH_DEEP");
    run_layout(path ? path : "tests/torch_layout/deep.json", 100);
}

/* "key=value" of a vector parameter (strings bare, the rest as JSON). */
static char *param_text(const char *key, json_t *value)
{
    char *text = json_is_string(value) ? strdup(json_string_value(value))
                                       : json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
    size_t size = strlen(key) + strlen(text) + 2;
    char *param = malloc(size);
    snprintf(param, size, "%s=%s", key, text);
    free(text);
    return param;
}

/* Group lists as sets: sorted group by group (members keep their order). */
static int cmp_group(const void *a, const void *b)
{
    const int32_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Every preset vector case through om_preset_world: the world is
 * consistent, and each view's axis groups and coordinates equal the
 * vector's (as sets where the framework's list order is not ascending). */
static void run_preset(const char *stem, const char *preset, bool exact_order)
{
    char path[1024];
    const char *dir = getenv("OM_VECTORS");
    snprintf(path, sizeof path, "%s/%s.json", dir ? dir : "tests/vectors", stem);
    json_error_t jerr;
    json_t *doc = json_load_file(path, 0, &jerr);
    OM_EXPECT(doc != NULL);
    if (!doc)
        return;
    size_t index, compared = 0;
    json_t *c;
    json_array_foreach(json_object_get(doc, "cases"), index, c) {
        if (!json_object_get(c, "views"))
            continue;
        char *params[64];
        size_t n = 0;
        const char *key;
        json_t *value;
        json_object_foreach(json_object_get(c, "params"), key, value)
            params[n++] = param_text(key, value);
        om_error err;
        om_preset *p = NULL;
        om_world *w = NULL;
        int64_t world = json_integer_value(json_object_get(c, "world_size"));
        OM_EXPECT_OK(om_preset_new(preset, (const char *const *)params, n, world, &p, &err),
                     &err);
        OM_EXPECT_OK(om_preset_world(p, &w, &err), &err);
        if (w)
            OM_EXPECT_INT(om_world_size(w), world);
        json_t *vrec;
        json_object_foreach(json_object_get(c, "views"), key, vrec) {
            om_mesh *v = NULL;
            if (!w || om_world_view(w, key, &v, &err) != OM_OK) {
                OM_EXPECT(false);
                continue;
            }
            const char *axis;
            json_t *list;
            json_object_foreach(json_object_get(vrec, "groups"), axis, list) {
                int i = om_mesh_index_of(v, axis);
                if (i < 0)
                    continue; /* renamed in the world (Megatron's expert tokens) */
                int64_t count = 0, size = 0;
                uint64_t mask = UINT64_C(1) << i;
                OM_EXPECT_OK(om_mesh_group_shape(v, mask, &count, &size, &err), &err);
                OM_EXPECT_INT(count, json_array_size(list));
                int32_t *got = malloc((size_t)(count * size) * sizeof *got);
                int32_t *want = malloc((size_t)(count * size) * sizeof *want);
                OM_EXPECT_OK(om_mesh_groups(v, mask, 0, count, got, (size_t)(count * size),
                                            &err), &err);
                for (size_t g = 0; g < json_array_size(list); g++)
                    for (size_t k = 0; k < (size_t)size; k++)
                        want[g * (size_t)size + k] = (int32_t)json_integer_value(
                            json_array_get(json_array_get(list, g), k));
                if (!exact_order) {
                    qsort(got, (size_t)count, (size_t)size * sizeof *got, cmp_group);
                    qsort(want, (size_t)count, (size_t)size * sizeof *want, cmp_group);
                }
                bool same = memcmp(got, want, (size_t)(count * size) * sizeof *got) == 0;
                if (!same)
                    fprintf(stderr, "%s case %zu view %s axis %s: groups differ\n", stem,
                            index, key, axis);
                OM_EXPECT(same);
                compared++;
                free(got);
                free(want);
            }
            /* Coordinates, where the world keeps every axis of the record. */
            json_t *coords = json_object_get(vrec, "coords");
            if (om_mesh_ndim(v) == json_array_size(json_object_get(vrec, "dim_names")))
                for (size_t r = 0; r < json_array_size(coords); r++) {
                    json_t *cr = json_array_get(coords, r);
                    int64_t cc[16];
                    if (json_is_null(cr)) {
                        OM_EXPECT(!om_view_holds(v, (int64_t)r));
                        continue;
                    }
                    OM_EXPECT_OK(om_mesh_coordinate(v, (int64_t)r, cc, 16, &err), &err);
                    for (size_t a = 0; a < om_mesh_ndim(v); a++)
                        OM_EXPECT_INT(cc[a], json_integer_value(json_array_get(cr, a)));
                }
            om_mesh_free(v);
        }
        om_world_free(w);
        om_preset_free(p);
        for (size_t i = 0; i < n; i++)
            free(params[i]);
    }
    OM_EXPECT(compared > 0 || !exact_order);
    json_decref(doc);
}

static void test_preset_worlds(void)
{
    run_preset("torchtitan", "torchtitan", true);
    run_preset("hyper_parallel", "hyper-parallel", true);
    run_preset("megatron", "megatron", true);
    run_preset("deepspeed", "deepspeed", false);
    om_error err;
    om_world *w = (om_world *)1;
    OM_EXPECT_ERR(om_preset_world(NULL, &w, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "preset");
    OM_EXPECT(w == NULL);
}

static const om_test_case vector_tests[] = {
    {"every case of layout.json", test_layout_vectors},
    {"every random case recorded from torch", test_torch_layout},
    {"every deeper, larger case recorded from torch", test_torch_deep},
    {"every preset case as a world", test_preset_worlds},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"layout vectors", NULL, NULL, vector_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
