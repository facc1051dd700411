/* Fuzz target: om_world_from_json() and om_view_from_json() on arbitrary
 * bytes (what `offline-mesh views --world FILE` and the bindings read).
 *
 * Byte 0: even = the rest is a world document, odd = a view record.
 * Invariants: a failure leaves *out NULL and fills err with a reader's
 * status and a valid message. Every view read (up to 4096 ranks): the
 * groups over all axes list rank_count distinct ranks, each held
 * (om_view_holds) and mapped back from its coordinate (om_mesh_rank ∘
 * om_mesh_coordinate), each found by group_index; the groups over each
 * single axis partition the same ranks; the record's JSON reads back equal
 * and re-serialises to the same bytes. Every world read: each view inside
 * [0, W); an axis shared by two views gives every rank the same group in
 * both (the consistency rule om_world_new promises); the world JSON reads
 * back to an equal world with the same bytes.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fuzz_common.h"

enum { SMALL = 4096, MAX_AXES = 16 };

static const unsigned read_errors =
    FUZZ_BIT(OM_ERR_PARSE) | FUZZ_BIT(OM_ERR_INVALID_ARGUMENT) |
    FUZZ_BIT(OM_ERR_OUT_OF_RANGE) | FUZZ_BIT(OM_ERR_LENGTH_MISMATCH) |
    FUZZ_BIT(OM_ERR_DUPLICATE_NAME) | FUZZ_BIT(OM_ERR_EMPTY_NAME) |
    FUZZ_BIT(OM_ERR_BAD_SIZE) | FUZZ_BIT(OM_ERR_MESH_TOO_LARGE) |
    FUZZ_BIT(OM_ERR_INVALID_NAME) | FUZZ_BIT(OM_ERR_RANK_COLLISION) |
    FUZZ_BIT(OM_ERR_OUTSIDE_WORLD) | FUZZ_BIT(OM_ERR_VIEW_CONFLICT);

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The groups over `mask`: count * size ranks, sorted copy in `sorted`. */
static int32_t *groups_of(const om_mesh *v, uint64_t mask, int64_t *count,
                          int64_t *size)
{
    om_error err;
    FUZZ_CHECK(om_mesh_group_shape(v, mask, count, size, &err) == OM_OK,
               "group_shape(%llx): %s", (unsigned long long)mask, err.message);
    size_t n = (size_t)(*count * *size);
    int32_t *g = malloc((n ? n : 1) * sizeof *g);
    FUZZ_CHECK(g != NULL, "out of memory");
    FUZZ_CHECK(om_mesh_groups(v, mask, 0, *count, g, n, &err) == OM_OK,
               "groups(%llx): %s", (unsigned long long)mask, err.message);
    return g;
}

/* Checks a small view; returns its held ranks, sorted (caller frees). */
static int32_t *check_view(const om_mesh *v, int64_t *nheld)
{
    om_error err;
    size_t ndim = om_mesh_ndim(v);
    FUZZ_CHECK(ndim < 64, "ndim %zu", ndim);
    int64_t total = om_view_rank_count(v);
    FUZZ_CHECK(total == om_view_instance_count(v) * om_mesh_size(v),
               "rank_count %lld != instances %lld x size %lld",
               (long long)total, (long long)om_view_instance_count(v),
               (long long)om_mesh_size(v));
    uint64_t all = ndim ? (ndim == 64 ? ~0ull : (1ull << ndim) - 1) : 0;
    int64_t count, size;
    int32_t *g = groups_of(v, all, &count, &size);
    FUZZ_CHECK(count * size == total, "groups over all axes hold %lld ranks, "
               "rank_count %lld", (long long)(count * size), (long long)total);
    int64_t coord[64];
    for (int64_t k = 0; k < total; k++) {
        int64_t r = g[k], back = -1, index = -1;
        FUZZ_CHECK(r >= 0 && r < om_view_extent(v) && om_view_holds(v, r),
                   "rank %lld listed but not held", (long long)r);
        FUZZ_CHECK(om_mesh_coordinate(v, r, coord, 64, &err) == OM_OK,
                   "coordinate(%lld): %s", (long long)r, err.message);
        FUZZ_CHECK(om_mesh_group_index(v, all, r, &index, &err) == OM_OK &&
                       index == k / (size ? size : 1),
                   "group_index(%lld) = %lld, listed in group %lld",
                   (long long)r, (long long)index,
                   (long long)(k / (size ? size : 1)));
        /* Inside its instance the coordinate gives the rank back; the
         * group over all axes is the instance, row-major. */
        FUZZ_CHECK(om_mesh_rank(v, coord, ndim, &back, &err) == OM_OK,
                   "rank(coord of %lld): %s", (long long)r, err.message);
        if (count == 1)
            FUZZ_CHECK(back == r, "rank(coordinate(%lld)) = %lld",
                       (long long)r, (long long)back);
    }
    int32_t *held = malloc((size_t)(total ? total : 1) * sizeof *held);
    FUZZ_CHECK(held != NULL, "out of memory");
    memcpy(held, g, (size_t)total * sizeof *held);
    qsort(held, (size_t)total, sizeof *held, cmp_i32);
    for (int64_t k = 1; k < total; k++)
        FUZZ_CHECK(held[k - 1] != held[k], "rank %d listed twice", held[k]);
    free(g);

    /* Groups over each single axis partition the same ranks. */
    for (size_t i = 0; i < ndim && i < MAX_AXES; i++) {
        int32_t *a = groups_of(v, 1ull << i, &count, &size);
        FUZZ_CHECK(count * size == total, "axis %zu groups hold %lld ranks",
                   i, (long long)(count * size));
        FUZZ_CHECK(size == om_mesh_dim_size(v, i), "axis %zu group size", i);
        qsort(a, (size_t)total, sizeof *a, cmp_i32);
        FUZZ_CHECK(memcmp(a, held, (size_t)total * sizeof *a) == 0,
                   "groups over axis %zu are not a partition of the ranks", i);
        free(a);
    }
    *nheld = total;
    return held;
}

static int cmp_first(const void *a, const void *b)
{
    json_int_t x = json_integer_value(json_array_get(*(json_t *const *)a, 0));
    json_int_t y = json_integer_value(json_array_get(*(json_t *const *)b, 0));
    return (x > y) - (x < y);
}

/* The record's own "instances", when it lists them, are the view's
 * instances: sorted by first member they equal the groups over all axes
 * (each an instance, row-major). A reader that accepts a list and builds
 * other instances accepts the record wrongly. */
static void check_instances(const json_t *record, const om_mesh *v)
{
    json_t *inst = json_object_get(record, "instances");
    if (!json_is_array(inst) || om_view_rank_count(v) > SMALL)
        return;
    size_t n = json_array_size(inst);
    json_t **rows = malloc((n ? n : 1) * sizeof *rows);
    FUZZ_CHECK(rows != NULL, "out of memory");
    for (size_t i = 0; i < n; i++)
        rows[i] = json_array_get(inst, i);
    qsort(rows, n, sizeof *rows, cmp_first);
    size_t ndim = om_mesh_ndim(v);
    uint64_t all = ndim ? (1ull << ndim) - 1 : 0;
    int64_t count, size;
    int32_t *g = groups_of(v, all, &count, &size);
    FUZZ_CHECK((int64_t)n == count, "record lists %zu instances, the view "
               "has %lld", n, (long long)count);
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK(json_is_array(rows[i]) &&
                       (int64_t)json_array_size(rows[i]) == size,
                   "instance %zu: %zu ranks, the view's have %lld", i,
                   json_array_size(rows[i]), (long long)size);
        for (int64_t k = 0; k < size; k++)
            FUZZ_CHECK(json_integer_value(json_array_get(rows[i], (size_t)k)) ==
                           g[(int64_t)i * size + k],
                       "instance %zu rank %lld: record %lld, view %d", i,
                       (long long)k,
                       (long long)json_integer_value(
                           json_array_get(rows[i], (size_t)k)),
                       g[(int64_t)i * size + k]);
    }
    free(g);
    free(rows);
}

static void check_view_json(const om_mesh *v)
{
    om_error err;
    char *json = NULL, *json2 = NULL;
    om_mesh *back = NULL;
    FUZZ_CHECK(om_view_to_json(v, &json, &err) == OM_OK, "view to_json: %s",
               err.message);
    FUZZ_CHECK(om_view_from_json(json, strlen(json), &back, &err) == OM_OK,
               "view JSON %s does not read back: %s", json, err.message);
    FUZZ_CHECK(om_mesh_equal(v, back), "view JSON %s reads back different",
               json);
    FUZZ_CHECK(om_view_to_json(back, &json2, &err) == OM_OK &&
                   strcmp(json, json2) == 0,
               "view JSON not a fixpoint: %s vs %s", json, json2 ? json2 : "");
    om_string_free(json2);
    om_mesh_free(back);
    om_string_free(json);
}

static bool small(const om_mesh *v)
{
    return om_view_rank_count(v) <= SMALL;
}

static void check_world(const om_world *w)
{
    om_error err;
    int64_t ws = om_world_size(w);
    size_t n = om_world_view_count(w);
    FUZZ_CHECK(ws >= 1 && ws <= OM_MAX_RANKS, "world size %lld", (long long)ws);
    om_mesh **views = calloc(n ? n : 1, sizeof *views);
    FUZZ_CHECK(views != NULL, "out of memory");
    bool all_small = true;
    for (size_t i = 0; i < n; i++) {
        const char *name = om_world_view_name(w, i);
        FUZZ_CHECK(name && *name && fuzz_utf8_valid(name, strlen(name)),
                   "view %zu name", i);
        FUZZ_CHECK(om_world_view_index(w, name) == (int)i, "view_index(%s)",
                   name);
        FUZZ_CHECK(om_world_view(w, name, &views[i], &err) == OM_OK,
                   "world_view(%s): %s", name, err.message);
        FUZZ_CHECK(om_view_extent(views[i]) <= ws,
                   "view '%s' reaches %lld, world size %lld", name,
                   (long long)om_view_extent(views[i]), (long long)ws);
        all_small = all_small && small(views[i]);
    }
    /* The consistency rule, on small views: a shared axis name gives each
     * rank the same group (same members, same order) in both views. */
    for (size_t i = 0; i < n && all_small; i++) {
        for (size_t a = 0; a < om_mesh_ndim(views[i]) && a < MAX_AXES; a++) {
            const char *axis = om_mesh_name(views[i], a);
            const char *first = om_world_axis_view(w, axis);
            FUZZ_CHECK(first != NULL, "axis_view(%s) NULL", axis);
            int fi = om_world_view_index(w, first);
            FUZZ_CHECK(fi >= 0 && (size_t)fi <= i, "axis_view(%s) = %s", axis,
                       first);
            if ((size_t)fi == i)
                continue;
            int b = om_mesh_index_of(views[fi], axis);
            FUZZ_CHECK(b >= 0, "axis '%s' not in its first view", axis);
            int64_t count, size, count2, size2;
            int32_t *g = groups_of(views[i], 1ull << a, &count, &size);
            int32_t *g2 = groups_of(views[fi], 1ull << b, &count2, &size2);
            FUZZ_CHECK(size == size2, "axis '%s': group size %lld in '%s', "
                       "%lld in '%s'", axis, (long long)size,
                       om_world_view_name(w, i), (long long)size2, first);
            int32_t *mine = malloc((size_t)(size ? size : 1) * sizeof *mine);
            FUZZ_CHECK(mine != NULL, "out of memory");
            for (int64_t k = 0; k < count * size; k += size) {
                FUZZ_CHECK(om_mesh_group_of(views[fi], 1ull << b, g[k], mine,
                                            (size_t)size, &err) == OM_OK,
                           "views '%s' and '%s' disagree on axis '%s': rank "
                           "%d is not in '%s' (%s)", om_world_view_name(w, i),
                           first, axis, g[k], first, err.message);
                FUZZ_CHECK(memcmp(mine, g + k, (size_t)size * sizeof *mine) == 0,
                           "views '%s' and '%s' disagree on axis '%s' at rank %d",
                           om_world_view_name(w, i), first, axis, g[k]);
            }
            free(mine);
            free(g2);
            free(g);
        }
    }
    if (all_small) {
        char *json = NULL, *json2 = NULL;
        om_world *back = NULL;
        FUZZ_CHECK(om_world_to_json(w, &json, &err) == OM_OK,
                   "world to_json: %s", err.message);
        FUZZ_CHECK(om_world_from_json(json, strlen(json), &back, &err) == OM_OK,
                   "world JSON %s does not read back: %s", json, err.message);
        FUZZ_CHECK(om_world_size(back) == ws && om_world_view_count(back) == n,
                   "world JSON %s reads back another size or count", json);
        for (size_t i = 0; i < n; i++) {
            om_mesh *v = NULL;
            FUZZ_CHECK(strcmp(om_world_view_name(back, i),
                              om_world_view_name(w, i)) == 0,
                       "view %zu renamed in %s", i, json);
            FUZZ_CHECK(om_world_view(back, om_world_view_name(w, i), &v,
                                     &err) == OM_OK &&
                           om_mesh_equal(v, views[i]),
                       "view %zu differs after %s", i, json);
            om_mesh_free(v);
        }
        FUZZ_CHECK(om_world_to_json(back, &json2, &err) == OM_OK &&
                       strcmp(json, json2) == 0,
                   "world JSON not a fixpoint: %s vs %s", json,
                   json2 ? json2 : "");
        om_string_free(json2);
        om_world_free(back);
        om_string_free(json);
    }
    for (size_t i = 0; i < n; i++)
        om_mesh_free(views[i]);
    free(views);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    om_error err;
    om_error_clear(&err);
    if (data[0] & 1) {
        om_mesh *v = (om_mesh *)(uintptr_t)1;
        om_status st = om_view_from_json(text, len, &v, &err);
        if (st != OM_OK) {
            FUZZ_CHECK(v == NULL, "view_from_json failed, *out not NULL");
            fuzz_check_error("om_view_from_json", st, &err, read_errors);
            return 0;
        }
        if (small(v)) {
            int64_t n;
            free(check_view(v, &n));
            check_view_json(v);
            json_t *rec = json_loadb(text, len, 0, NULL);
            check_instances(rec, v);
            json_decref(rec);
        }
        om_mesh_free(v);
        return 0;
    }
    om_world *w = (om_world *)(uintptr_t)1;
    om_status st = om_world_from_json(text, len, &w, &err);
    if (st != OM_OK) {
        FUZZ_CHECK(w == NULL, "world_from_json failed, *out not NULL");
        fuzz_check_error("om_world_from_json", st, &err, read_errors);
        return 0;
    }
    json_t *doc = json_loadb(text, len, 0, NULL);
    json_t *records = json_object_get(doc, "views");
    for (size_t i = 0; i < om_world_view_count(w); i++) {
        om_mesh *v = NULL;
        FUZZ_CHECK(om_world_view(w, om_world_view_name(w, i), &v, &err) == OM_OK,
                   "world_view: %s", err.message);
        if (small(v)) {
            int64_t n;
            free(check_view(v, &n));
            check_instances(json_object_get(records, om_world_view_name(w, i)), v);
        }
        om_mesh_free(v);
    }
    json_decref(doc);
    check_world(w);
    om_world_free(w);
    return 0;
}
