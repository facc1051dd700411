/* Every case of tests/vectors/layout.json (computed by running torch's
 * DeviceMesh, see its README) through the C API: the ops are applied with
 * om_view_flatten/unflatten/slice and om_world_slice, and the result's
 * names, shape, layout, instances, groups of every axis and coordinate of
 * every rank are compared exactly. Error cases must fail, except where the
 * case's "library" field says the library accepts them (VIEWS.md 4).
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "om_test.h"

static json_t *load_vectors(void)
{
    char path[1024];
    const char *dir = getenv("OM_VECTORS");
    snprintf(path, sizeof path, "%s/layout.json", dir ? dir : "tests/vectors");
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
        if (st == OM_OK && s->nflat < 8) {
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
    int32_t ranks[4096];
    OM_EXPECT_OK(om_mesh_groups(v, all, 0, count, ranks, 4096, &err), &err);
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
        OM_EXPECT_OK(om_mesh_groups(v, mask, 0, count, ranks, 4096, &err), &err);
        for (int64_t g = 0; g < count && g < (int64_t)json_array_size(list); g++) {
            json_t *members = json_array_get(list, (size_t)g);
            OM_EXPECT_INT(size, json_array_size(members));
            for (int64_t k = 0; k < size; k++)
                OM_EXPECT_INT(ranks[g * size + k],
                              json_integer_value(json_array_get(members, (size_t)k)));
            /* The group of each member is this group, at the same index. */
            for (int64_t k = 0; k < size; k++) {
                int32_t of[4096];
                int64_t index_of = -1;
                OM_EXPECT_OK(om_mesh_group_of(v, mask, ranks[g * size + k], of,
                                              4096, &err), &err);
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
    (void)label;
}

static void test_layout_vectors(void)
{
    json_t *root = load_vectors();
    if (!root)
        return;
    json_t *cases = json_object_get(root, "cases");
    OM_EXPECT(json_array_size(cases) >= 14);
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

static const om_test_case vector_tests[] = {
    {"every case of layout.json", test_layout_vectors},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"layout vectors", NULL, NULL, vector_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
