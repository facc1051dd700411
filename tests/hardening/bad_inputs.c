/* Runs the bad-input table (bad_inputs.json) through the C API.
 *
 * Every case names a public call, its arguments, the expected status, and a
 * fragment the error message must contain. Besides the status and the
 * message, each failing call must: fill `err` with the same status, write a
 * NUL-terminated, valid UTF-8 message, leave every out-handle NULL, and
 * stay within the case's memory limit, where given (measured in a forked
 * child). Time is never a pass criterion: the machines are noisy, and cost
 * is bounded by the counted limits tests/test_yaml_cost.c checks.
 * The table format is described in docs/hardening.md.
 *
 * Usage: bad_inputs TABLE.json [ID-SUBSTRING]
 * Exit status: 0 when every case passed, 1 otherwise.
 * SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "offline_mesh.h"

static const char *const world_size_vars[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE",
                                              "PMI_SIZE", "SLURM_NTASKS"};

/* ---- small utilities ---- */

static char scratch[64];

/* Why the current case failed (first reason wins). */
static char failure[1024];

static void fail(const char *fmt, ...)
{
    if (failure[0])
        return;
    va_list args;
    va_start(args, fmt);
    vsnprintf(failure, sizeof failure, fmt, args);
    va_end(args);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "bad_inputs: out of memory\n");
        exit(2);
    }
    return p;
}

/* Independent UTF-8 check (RFC 3629): no overlongs, surrogates or values
 * above U+10FFFF. */
static int utf8_ok(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        size_t n;
        unsigned min;
        unsigned cp;
        if (c < 0x80) {
            i++;
            continue;
        }
        if ((c & 0xE0) == 0xC0) { n = 1; min = 0x80; cp = c & 0x1F; }
        else if ((c & 0xF0) == 0xE0) { n = 2; min = 0x800; cp = c & 0x0F; }
        else if ((c & 0xF8) == 0xF0) { n = 3; min = 0x10000; cp = c & 0x07; }
        else return 0;
        if (len - i < n + 1)
            return 0;
        for (size_t k = 1; k <= n; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return 0;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += n + 1;
    }
    return 1;
}

/* ---- text values: "str", null, {"hex"}, {"repeat","count"}, {"concat"} ---- */

typedef struct {
    char *data; /* NUL-terminated (the terminator is not part of len) */
    size_t len;
    int null;
} text_t;

static void buf_append(text_t *t, size_t *cap, const char *s, size_t n)
{
    if (t->len + n + 1 > *cap) {
        size_t want = (*cap ? *cap : 64);
        while (t->len + n + 1 > want)
            want *= 2;
        char *bigger = realloc(t->data, want);
        if (!bigger) {
            fprintf(stderr, "bad_inputs: out of memory\n");
            exit(2);
        }
        t->data = bigger;
        *cap = want;
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = '\0';
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int decode_into(json_t *v, text_t *t, size_t *cap)
{
    if (json_is_string(v)) {
        buf_append(t, cap, json_string_value(v), json_string_length(v));
        return 1;
    }
    if (!json_is_object(v))
        return 0;
    json_t *hex = json_object_get(v, "hex");
    json_t *repeat = json_object_get(v, "repeat");
    json_t *concat = json_object_get(v, "concat");
    if (json_is_string(hex)) {
        const char *h = json_string_value(hex);
        while (*h) {
            if (*h == ' ') {
                h++;
                continue;
            }
            int hi = hex_digit(h[0]), lo = h[1] ? hex_digit(h[1]) : -1;
            if (hi < 0 || lo < 0)
                return 0;
            char byte = (char)(hi * 16 + lo);
            buf_append(t, cap, &byte, 1);
            h += 2;
        }
        return 1;
    }
    if (repeat) {
        json_int_t count = json_integer_value(json_object_get(v, "count"));
        text_t unit = {NULL, 0, 0};
        size_t ucap = 0;
        if (count < 0 || !decode_into(repeat, &unit, &ucap))
            return 0;
        for (json_int_t i = 0; i < count; i++)
            buf_append(t, cap, unit.data ? unit.data : "", unit.len);
        free(unit.data);
        return 1;
    }
    if (json_is_array(concat)) {
        size_t i;
        json_t *part;
        json_array_foreach(concat, i, part) {
            if (!decode_into(part, t, cap))
                return 0;
        }
        return 1;
    }
    return 0;
}

/* Decodes a text value; a missing key or JSON null is the NULL pointer. */
static int decode_text(json_t *v, text_t *t)
{
    size_t cap = 0;
    t->data = NULL;
    t->len = 0;
    t->null = v == NULL || json_is_null(v);
    if (t->null)
        return 1;
    buf_append(t, &cap, "", 0);
    return decode_into(v, t, &cap);
}

static int64_t get_int(json_t *args, const char *key, int64_t fallback)
{
    json_t *v = json_object_get(args, key);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : fallback;
}

/* ---- path fixtures ---- */

#define MAX_CLEANUP 64
static char *cleanup[MAX_CLEANUP];
static size_t ncleanup;

static char *scratch_path(const char *name)
{
    size_t n = strlen(scratch) + strlen(name) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", scratch, name);
    return p;
}

static void remember(const char *path)
{
    if (ncleanup < MAX_CLEANUP)
        cleanup[ncleanup++] = strdup(path);
}

static int write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    size_t n = fwrite(data, 1, len, f);
    return fclose(f) == 0 && n == len;
}

/* Turns a path argument into a path; fixtures are made in the scratch dir. */
static int make_path(json_t *v, const char *id, text_t *path)
{
    json_t *fixture = json_is_object(v) ? json_object_get(v, "fixture") : NULL;
    if (!fixture)
        return decode_text(v, path);
    const char *kind = json_string_value(fixture);
    path->null = 0;
    if (!kind)
        return 0;
    if (strcmp(kind, "missing") == 0) {
        path->data = scratch_path("missing.yaml");
    } else if (strcmp(kind, "directory") == 0) {
        path->data = scratch_path("a-directory.yaml");
        if (mkdir(path->data, 0700) != 0 && errno != EEXIST)
            return 0;
        remember(path->data);
    } else if (strcmp(kind, "not_a_dir") == 0) {
        char *file = scratch_path("plain-file");
        if (!write_file(file, "accelerator: {}\n", 16))
            return 0;
        remember(file);
        free(file);
        path->data = scratch_path("plain-file/config.yaml");
    } else if (strcmp(kind, "long_name") == 0) {
        char name[301];
        memset(name, 'n', 300);
        name[300] = '\0';
        path->data = scratch_path(name);
    } else if (strcmp(kind, "huge_sparse") == 0) {
        path->data = scratch_path("huge.yaml");
        int fd = open(path->data, O_CREAT | O_WRONLY | O_TRUNC, 0600);
        if (fd < 0)
            return 0;
        int ok = ftruncate(fd, (off_t)64 * 1024 * 1024 + 1) == 0;
        close(fd);
        remember(path->data);
        if (!ok)
            return 0;
    } else if (strcmp(kind, "file") == 0) {
        text_t content;
        char name[200];
        snprintf(name, sizeof name, "%s.yaml", id);
        path->data = scratch_path(name);
        if (!decode_text(json_object_get(v, "content"), &content) || content.null)
            return 0;
        int ok = write_file(path->data, content.data, content.len);
        free(content.data);
        remember(path->data);
        if (!ok)
            return 0;
    } else {
        return 0;
    }
    path->len = strlen(path->data);
    return 1;
}

/* ---- argument builders ---- */

static om_mesh *mesh_arg(json_t *args)
{
    json_t *v = json_object_get(args, "mesh");
    if (!v || json_is_null(v))
        return NULL;
    om_mesh *mesh = NULL;
    om_error e;
    if (json_is_string(v)) {
        if (om_mesh_from_spec(json_string_value(v), &mesh, &e) != OM_OK)
            fail("fixture mesh %s: %s", json_string_value(v), e.message);
    } else if (json_is_object(v) &&
               (json_object_get(v, "json") || json_object_get(v, "view"))) {
        /* {"json": TEXT} is a mesh document, {"view": TEXT} a view record. */
        int is_view = json_object_get(v, "view") != NULL;
        const char *kind = is_view ? "view" : "json";
        om_status (*parse)(const char *, size_t, om_mesh **, om_error *) =
            is_view ? om_view_from_json : om_mesh_from_json;
        text_t t;
        if (!decode_text(json_object_get(v, kind), &t) || t.null)
            fail("bad fixture mesh %s", kind);
        else if (parse(t.data, t.len, &mesh, &e) != OM_OK)
            fail("fixture mesh %s: %s", kind, e.message);
        free(t.data);
    } else {
        fail("bad \"mesh\" argument");
    }
    return mesh;
}

static int dim_of(json_t *v, om_dim *dim)
{
    static const char *const names[] = {"dp", "tp", "cp", "ep", "pp"};
    static const om_dim dims[] = {OM_DIM_DP, OM_DIM_TP, OM_DIM_CP, OM_DIM_EP, OM_DIM_PP};
    if (json_is_integer(v)) {
        *dim = (om_dim)json_integer_value(v);
        return 1;
    }
    for (size_t i = 0; json_is_string(v) && i < 5; i++)
        if (strcmp(json_string_value(v), names[i]) == 0) {
            *dim = dims[i];
            return 1;
        }
    return 0;
}

static om_dims *dims_arg(json_t *args)
{
    json_t *v = json_object_get(args, "dims");
    if (!v || json_is_null(v))
        return NULL;
    om_dims *dims = NULL;
    om_error e;
    if (om_dims_new(&dims, &e) != OM_OK) {
        fail("om_dims_new: %s", e.message);
        return NULL;
    }
    const char *key;
    json_t *value;
    json_object_foreach(v, key, value) {
        om_dim dim;
        json_t *k = json_string(key);
        int known = dim_of(k, &dim);
        json_decref(k);
        if (!known || om_dims_set(dims, dim, json_integer_value(value), &e) != OM_OK)
            fail("fixture dims %s: cannot set", key);
    }
    return dims;
}

/* Names array: strings / hex values / null elements. */
typedef struct {
    size_t n;
    char **names;
    int null;
    text_t *texts;
} names_t;

static int names_arg(json_t *v, names_t *out)
{
    out->n = 0;
    out->names = NULL;
    out->texts = NULL;
    out->null = v == NULL || json_is_null(v);
    if (out->null)
        return 1;
    if (!json_is_array(v))
        return 0;
    out->n = json_array_size(v);
    out->names = xmalloc(out->n * sizeof(char *));
    out->texts = xmalloc(out->n * sizeof(text_t));
    for (size_t i = 0; i < out->n; i++) {
        if (!decode_text(json_array_get(v, i), &out->texts[i]))
            return 0;
        out->names[i] = out->texts[i].null ? NULL : out->texts[i].data;
    }
    return 1;
}

static void names_free(names_t *n)
{
    for (size_t i = 0; n->texts && i < n->n; i++)
        free(n->texts[i].data);
    free(n->texts);
    free(n->names);
}

typedef struct {
    size_t n;
    int64_t *values;
    int null;
} ints_t;

static int ints_arg(json_t *v, ints_t *out)
{
    out->n = 0;
    out->values = NULL;
    out->null = v == NULL || json_is_null(v);
    if (out->null)
        return 1;
    if (!json_is_array(v))
        return 0;
    out->n = json_array_size(v);
    out->values = xmalloc(out->n * sizeof(int64_t));
    for (size_t i = 0; i < out->n; i++) {
        json_t *x = json_array_get(v, i);
        if (!json_is_integer(x))
            return 0;
        out->values[i] = (int64_t)json_integer_value(x);
    }
    return 1;
}

/* ---- running one call ---- */

/* What a call left behind, for the post-conditions. */
typedef struct {
    om_mesh *mesh;   /* out mesh (must be NULL after a failure) */
    om_dims *dims;   /* out dims */
    char *string;    /* out string */
    om_world *world;         /* out world (1.1) */
    om_hierarchy *hierarchy; /* out hierarchy (1.1) */
    om_preset *preset;       /* out preset (1.1) */
    int has_mesh, has_dims, has_string, has_world, has_hierarchy, has_preset;
} outputs;

static int out_null_requested(json_t *args)
{
    return json_is_true(json_object_get(args, "out_null"));
}

static om_status run_call(const char *id, const char *call, json_t *args,
                          outputs *o, om_error *err)
{
    text_t t = {NULL, 0, 1};
    names_t names = {0, NULL, 1, NULL};
    ints_t ints = {0, NULL, 1};
    om_mesh *mesh = NULL;
    om_dims *dims = NULL;
    om_status st = OM_OK;
    int out_null = out_null_requested(args);
    om_mesh **mesh_out = out_null ? NULL : &o->mesh;
    char **string_out = out_null ? NULL : &o->string;
    om_dims **dims_out = out_null ? NULL : &o->dims;
    om_world **world_out = out_null ? NULL : &o->world;
    om_hierarchy **hierarchy_out = out_null ? NULL : &o->hierarchy;
    om_preset **preset_out = out_null ? NULL : &o->preset;
    names_t list = {0, NULL, 1, NULL}; /* axes or preset parameters */
    /* Sentinels: a failing call must reset them to NULL. */
    o->mesh = (om_mesh *)(void *)&o->has_mesh;
    o->dims = (om_dims *)(void *)&o->has_dims;
    o->string = (char *)&o->has_string;
    o->world = (om_world *)(void *)&o->has_world;
    o->hierarchy = (om_hierarchy *)(void *)&o->has_hierarchy;
    o->preset = (om_preset *)(void *)&o->has_preset;

    if (strcmp(call, "mesh_new") == 0 || strcmp(call, "mesh_new_checked") == 0) {
        if (!names_arg(json_object_get(args, "names"), &names) ||
            !ints_arg(json_object_get(args, "sizes"), &ints)) {
            fail("bad names/sizes");
            goto done;
        }
        o->has_mesh = 1;
        if (strcmp(call, "mesh_new") == 0) {
            size_t ndim = (size_t)get_int(args, "ndim",
                                          (int64_t)(names.null ? ints.n : names.n));
            st = om_mesh_new((const char *const *)names.names, ints.values, ndim,
                             mesh_out, err);
        } else {
            st = om_mesh_new_checked((const char *const *)names.names,
                                     (size_t)get_int(args, "names_len", (int64_t)names.n),
                                     ints.values,
                                     (size_t)get_int(args, "sizes_len", (int64_t)ints.n),
                                     mesh_out, err);
        }
    } else if (strcmp(call, "mesh_from_json") == 0) {
        if (!decode_text(json_object_get(args, "text"), &t)) {
            fail("bad text");
            goto done;
        }
        o->has_mesh = 1;
        st = om_mesh_from_json(t.null ? NULL : t.data,
                               (size_t)get_int(args, "length", (int64_t)t.len),
                               mesh_out, err);
    } else if (strcmp(call, "mesh_from_spec") == 0) {
        if (!decode_text(json_object_get(args, "spec"), &t)) {
            fail("bad spec");
            goto done;
        }
        o->has_mesh = 1;
        st = om_mesh_from_spec(t.null ? NULL : t.data, mesh_out, err);
    } else if (strcmp(call, "mesh_to_spec") == 0) {
        mesh = mesh_arg(args);
        o->has_string = 1;
        st = om_mesh_to_spec(mesh, string_out, err);
    } else if (strcmp(call, "mesh_to_json") == 0) {
        mesh = mesh_arg(args);
        o->has_string = 1;
        st = om_mesh_to_json(mesh, string_out, err);
    } else if (strcmp(call, "mesh_get") == 0) {
        mesh = mesh_arg(args);
        if (!decode_text(json_object_get(args, "name"), &t)) {
            fail("bad name");
            goto done;
        }
        o->has_mesh = 1;
        st = om_mesh_get(mesh, t.null ? NULL : t.data, mesh_out, err);
    } else if (strcmp(call, "dims_new") == 0) {
        o->has_dims = 1;
        st = om_dims_new(dims_out, err);
    } else if (strcmp(call, "dims_copy") == 0) {
        dims = dims_arg(args);
        o->has_dims = 1;
        st = om_dims_copy(dims, dims_out, err);
    } else if (strcmp(call, "dims_to_json") == 0) {
        dims = dims_arg(args);
        o->has_string = 1;
        st = om_dims_to_json(dims, string_out, err);
    } else if (strcmp(call, "dims_set") == 0) {
        om_dim dim;
        dims = dims_arg(args);
        if (!dim_of(json_object_get(args, "dim"), &dim)) {
            fail("bad dim");
            goto done;
        }
        int64_t before = om_dims_get(dims, dim);
        st = om_dims_set(dims, dim, get_int(args, "value", 0), err);
        if (st != OM_OK && dims && om_dims_get(dims, dim) != before)
            fail("a failed om_dims_set changed the field");
    } else if (strcmp(call, "dims_set_flag") == 0) {
        dims = dims_arg(args);
        st = om_dims_set_flag(dims, (om_flag)get_int(args, "flag", 0),
                              json_is_true(json_object_get(args, "value")), err);
    } else if (strcmp(call, "build_offline_mesh") == 0) {
        dims = dims_arg(args);
        o->has_mesh = 1;
        st = om_build_offline_mesh(dims, mesh_out, err);
    } else if (strcmp(call, "build_runtime_mesh") == 0) {
        dims = dims_arg(args);
        if (!decode_text(json_object_get(args, "order"), &t)) {
            fail("bad order");
            goto done;
        }
        o->has_mesh = 1;
        st = om_build_runtime_mesh(dims, t.null ? NULL : t.data, mesh_out, err);
    } else if (strcmp(call, "order_normalize") == 0) {
        if (!decode_text(json_object_get(args, "order"), &t)) {
            fail("bad order");
            goto done;
        }
        o->has_string = 1;
        st = om_order_normalize(t.null ? NULL : t.data, string_out, err);
    } else if (strcmp(call, "world_size_from_env") == 0) {
        int64_t ws = -5;
        bool found = true;
        st = om_world_size_from_env(out_null ? NULL : &ws, &found, err);
    } else if (strcmp(call, "dims_from_yaml") == 0) {
        if (!decode_text(json_object_get(args, "text"), &t)) {
            fail("bad text");
            goto done;
        }
        o->has_dims = 1;
        st = om_dims_from_yaml(t.null ? NULL : t.data,
                               (size_t)get_int(args, "length", (int64_t)t.len),
                               get_int(args, "world_size", 0), dims_out, err);
    } else if (strcmp(call, "dims_load_yaml") == 0) {
        if (!make_path(json_object_get(args, "path"), id, &t)) {
            fail("cannot make the path fixture: %s", strerror(errno));
            goto done;
        }
        o->has_dims = 1;
        st = om_dims_load_yaml(t.null ? NULL : t.data, get_int(args, "world_size", 0),
                               dims_out, err);
    } else if (strcmp(call, "mesh_axes") == 0) {
        mesh = mesh_arg(args);
        if (!decode_text(json_object_get(args, "names"), &t)) {
            fail("bad names");
            goto done;
        }
        uint64_t mask = 0;
        st = om_mesh_axes(mesh, t.null ? NULL : t.data, out_null ? NULL : &mask, err);
    } else if (strcmp(call, "mesh_coordinate") == 0) {
        mesh = mesh_arg(args);
        int64_t coord[70];
        size_t len = (size_t)get_int(args, "coord_len", (int64_t)om_mesh_ndim(mesh));
        st = om_mesh_coordinate(mesh, get_int(args, "rank", 0),
                                out_null ? NULL : coord, len > 70 ? 70 : len, err);
    } else if (strcmp(call, "mesh_rank") == 0) {
        mesh = mesh_arg(args);
        if (!ints_arg(json_object_get(args, "coord"), &ints)) {
            fail("bad coord");
            goto done;
        }
        int64_t rank = 0;
        st = om_mesh_rank(mesh, ints.values, ints.n, out_null ? NULL : &rank, err);
    } else if (strcmp(call, "mesh_group_shape") == 0) {
        mesh = mesh_arg(args);
        int64_t count = 0, size = 0;
        st = om_mesh_group_shape(mesh, (uint64_t)get_int(args, "axes", 0),
                                 out_null ? NULL : &count, &size, err);
    } else if (strcmp(call, "mesh_groups") == 0) {
        mesh = mesh_arg(args);
        int32_t buffer[4096];
        size_t len = (size_t)get_int(args, "out_len", 4096);
        st = om_mesh_groups(mesh, (uint64_t)get_int(args, "axes", 0),
                            get_int(args, "first_group", 0),
                            get_int(args, "group_count", 1),
                            out_null ? NULL : buffer, len > 4096 ? 4096 : len, err);
    } else if (strcmp(call, "mesh_group_index") == 0) {
        mesh = mesh_arg(args);
        int64_t index = 0;
        st = om_mesh_group_index(mesh, (uint64_t)get_int(args, "axes", 0),
                                 get_int(args, "rank", 0), out_null ? NULL : &index,
                                 err);
    } else if (strcmp(call, "mesh_group_of") == 0) {
        mesh = mesh_arg(args);
        int32_t buffer[4096];
        size_t len = (size_t)get_int(args, "out_len", 4096);
        st = om_mesh_group_of(mesh, (uint64_t)get_int(args, "axes", 0),
                              get_int(args, "rank", 0), out_null ? NULL : buffer,
                              len > 4096 ? 4096 : len, err);
    } else if (strcmp(call, "mesh_locality") == 0) {
        mesh = mesh_arg(args);
        int64_t a = 0, b = 0, c = 0;
        st = om_mesh_locality(mesh, (uint64_t)get_int(args, "axes", 0),
                              get_int(args, "ranks_per_host", 1),
                              out_null ? NULL : &a, &b, &c, err);
    } else if (strcmp(call, "validate_axes") == 0) {
        mesh = mesh_arg(args);
        st = om_validate_axes(mesh, get_int(args, "tp", 1), get_int(args, "cp", 1),
                              get_int(args, "ep", 1), err);
    } else if (strcmp(call, "plan_dim_names") == 0) {
        mesh = mesh_arg(args);
        o->has_string = 1;
        st = om_plan_dim_names(mesh, get_int(args, "tp", 1), get_int(args, "cp", 1),
                               get_int(args, "ep", 1), string_out, err);
    } else if (strcmp(call, "expert_mesh") == 0) {
        mesh = mesh_arg(args);
        o->has_mesh = 1;
        st = om_expert_mesh(mesh, get_int(args, "ep", 1),
                            get_int(args, "num_experts", 0), mesh_out, err);
    } else if (strcmp(call, "view_from_json") == 0 || strcmp(call, "world_from_json") == 0) {
        if (!decode_text(json_object_get(args, "text"), &t)) {
            fail("bad text");
            goto done;
        }
        size_t len = (size_t)get_int(args, "length", (int64_t)t.len);
        const char *text = t.null ? NULL : t.data;
        if (strcmp(call, "view_from_json") == 0) {
            o->has_mesh = 1;
            st = om_view_from_json(text, len, mesh_out, err);
        } else {
            o->has_world = 1;
            st = om_world_from_json(text, len, world_out, err);
        }
    } else if (strcmp(call, "view_slice") == 0 || strcmp(call, "view_flatten") == 0) {
        mesh = mesh_arg(args);
        if (!names_arg(json_object_get(args, "axes"), &list) ||
            !decode_text(json_object_get(args, "name"), &t)) {
            fail("bad axes/name");
            goto done;
        }
        o->has_mesh = 1;
        const char *const *axes = (const char *const *)list.names;
        size_t n = (size_t)get_int(args, "naxes", (int64_t)list.n);
        if (strcmp(call, "view_slice") == 0)
            st = om_view_slice(mesh, axes, n, mesh_out, err);
        else
            st = om_view_flatten(mesh, axes, n, t.null ? NULL : t.data, mesh_out, err);
    } else if (strcmp(call, "mesh_groups_named") == 0) {
        mesh = mesh_arg(args);
        if (!names_arg(json_object_get(args, "axes"), &list)) {
            fail("bad axes");
            goto done;
        }
        int32_t buffer[4096];
        size_t len = (size_t)get_int(args, "out_len", 4096);
        size_t needed = 0;
        st = om_mesh_groups_named(mesh, (const char *const *)list.names,
                                  (size_t)get_int(args, "naxes", (int64_t)list.n),
                                  get_int(args, "first_group", 0),
                                  get_int(args, "group_count", 1),
                                  out_null ? NULL : buffer, len > 4096 ? 4096 : len,
                                  &needed, err);
        json_t *want = json_object_get(args, "needed");
        if (json_is_integer(want) && (json_int_t)needed != json_integer_value(want))
            fail("needed is %zu, expected %lld", needed,
                 (long long)json_integer_value(want));
    } else if (strcmp(call, "hierarchy_from_spec") == 0) {
        if (!decode_text(json_object_get(args, "spec"), &t)) {
            fail("bad spec");
            goto done;
        }
        o->has_hierarchy = 1;
        st = om_hierarchy_from_spec(t.null ? NULL : t.data, hierarchy_out, err);
    } else if (strcmp(call, "world_size_resolve") == 0) {
        int64_t size = 0;
        om_world_size_source source = OM_WORLD_SIZE_UNRESOLVED;
        st = om_world_size_resolve(get_int(args, "explicit_size", 0),
                                   out_null ? NULL : &size, &source, err);
    } else if (strcmp(call, "preset_new") == 0) {
        if (!decode_text(json_object_get(args, "name"), &t) ||
            !names_arg(json_object_get(args, "params"), &list)) {
            fail("bad name/params");
            goto done;
        }
        o->has_preset = 1;
        st = om_preset_new(t.null ? NULL : t.data, (const char *const *)list.names,
                           (size_t)get_int(args, "nparams", (int64_t)list.n),
                           get_int(args, "world_size", 0), preset_out, err);
    } else {
        fail("unknown call \"%s\"", call);
    }
done:
    if (out_null) {
        /* Nothing was written through the (NULL) out pointer. */
        o->has_mesh = o->has_dims = o->has_string = 0;
        o->has_world = o->has_hierarchy = o->has_preset = 0;
    }
    free(t.data);
    names_free(&names);
    names_free(&list);
    free(ints.values);
    om_mesh_free(mesh);
    om_dims_free(dims);
    return st;
}

static void release_outputs(outputs *o, om_status st)
{
    if (st != OM_OK)
        return;
    if (o->has_mesh)
        om_mesh_free(o->mesh);
    if (o->has_dims)
        om_dims_free(o->dims);
    if (o->has_string)
        om_string_free(o->string);
    if (o->has_world)
        om_world_free(o->world);
    if (o->has_hierarchy)
        om_hierarchy_free(o->hierarchy);
    if (o->has_preset)
        om_preset_free(o->preset);
}

static void set_env(json_t *env)
{
    for (size_t i = 0; i < 4; i++)
        unsetenv(world_size_vars[i]);
    const char *key;
    json_t *value;
    json_object_foreach(env, key, value) {
        text_t t;
        if (decode_text(value, &t) && !t.null) {
            setenv(key, t.data, 1);
            free(t.data);
        }
    }
}

static void clear_env(json_t *env)
{
    const char *key;
    json_t *value;
    json_object_foreach(env, key, value)
        unsetenv(key);
}

/* Checks everything about one finished call; returns through fail(). */
static void check_result(json_t *c, om_status expected, const char *fragment,
                         om_status st, const om_error *err, const outputs *o)
{
    if (st != expected) {
        fail("status %d (%s), expected %d (%s); message: %s", (int)st,
             om_status_string(st), (int)expected, om_status_string(expected),
             st != OM_OK ? err->message : "(none)");
        return;
    }
    if (st == OM_OK)
        return;
    (void)c;
    if (err->status != st)
        fail("err->status %d differs from the returned %d", (int)err->status, (int)st);
    if (!memchr(err->message, '\0', sizeof err->message))
        fail("message is not NUL-terminated");
    else if (err->message[0] == '\0')
        fail("message is empty");
    else if (!utf8_ok((const unsigned char *)err->message, strlen(err->message)))
        fail("message is not valid UTF-8: %s", err->message);
    else if (!strstr(err->message, fragment))
        fail("message \"%s\" lacks \"%s\"", err->message, fragment);
    if (o->has_mesh && o->mesh != NULL)
        fail("the out mesh is not NULL after a failure");
    if (o->has_dims && o->dims != NULL)
        fail("the out dims is not NULL after a failure");
    if (o->has_string && o->string != NULL)
        fail("the out string is not NULL after a failure");
    if ((o->has_world && o->world != NULL) || (o->has_hierarchy && o->hierarchy != NULL) ||
        (o->has_preset && o->preset != NULL))
        fail("the out handle is not NULL after a failure");
}

/* Runs a case in a child process and measures its peak memory. */
static void run_bounded(const char *id, json_t *c, om_status expected,
                        const char *fragment, double max_rss_mib)
{
    int pipefd[2];
    fflush(NULL);
    if (pipe(pipefd) != 0) {
        fail("pipe: %s", strerror(errno));
        return;
    }
    pid_t pid = fork();
    if (pid < 0) {
        fail("fork: %s", strerror(errno));
        close(pipefd[0]);
        close(pipefd[1]);
        return;
    }
    if (pid == 0) {
        close(pipefd[0]);
        om_error err;
        outputs o = {0};
        om_error_clear(&err);
        om_status st = run_call(id, json_string_value(json_object_get(c, "call")),
                                json_object_get(c, "args"), &o, &err);
        check_result(c, expected, fragment, st, &err, &o);
        release_outputs(&o, st);
        if (failure[0] && write(pipefd[1], failure, strlen(failure)) < 0)
            _exit(3);
        _exit(failure[0] ? 1 : 0);
    }
    close(pipefd[1]);
    char reason[sizeof failure];
    size_t got = 0;
    ssize_t n;
    while (got < sizeof reason - 1 &&
           (n = read(pipefd[0], reason + got, sizeof reason - 1 - got)) > 0)
        got += (size_t)n;
    reason[got] = '\0';
    close(pipefd[0]);
    int status = 0;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) {
        fail("wait4: %s", strerror(errno));
        return;
    }
    if (reason[0]) {
        fail("%s", reason);
        return;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fail("the child running the case died (wait status 0x%x)", status);
        return;
    }
    double rss = (double)usage.ru_maxrss / 1024.0;
    if (rss > max_rss_mib)
        fail("peak memory %.1f MiB exceeds %.1f MiB", rss, max_rss_mib);
}

/* The table names statuses as om_status_name() does, for every code the
 * library has (OM_STATUS_COUNT grows when a release appends one). */
static om_status status_by_name(const char *name, int *ok)
{
    for (int code = 0; name && code < OM_STATUS_COUNT; code++)
        if (strcmp(om_status_name((om_status)code), name) == 0) {
            *ok = 1;
            return (om_status)code;
        }
    *ok = 0;
    return OM_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TABLE.json [ID-SUBSTRING]\n", argv[0]);
        return 2;
    }
    const char *filter = argc > 2 ? argv[2] : NULL;
    int verbose = getenv("OM_BAD_INPUTS_VERBOSE") != NULL;
    /* Under valgrind or a sanitizer everything is slower. */
    json_error_t jerr;
    json_t *table = json_load_file(argv[1], JSON_REJECT_DUPLICATES, &jerr);
    if (!table) {
        fprintf(stderr, "%s:%d: %s\n", argv[1], jerr.line, jerr.text);
        return 2;
    }
    snprintf(scratch, sizeof scratch, "/tmp/om-bad-inputs-XXXXXX");
    if (!mkdtemp(scratch)) {
        perror("mkdtemp");
        return 2;
    }
    json_t *cases = json_object_get(table, "cases");
    size_t i;
    json_t *c;
    int passed = 0, failed = 0, skipped = 0;
    json_t *seen = json_object();
    json_array_foreach(cases, i, c) {
        const char *id = json_string_value(json_object_get(c, "id"));
        const char *call = json_string_value(json_object_get(c, "call"));
        const char *status_name = json_string_value(json_object_get(c, "status"));
        const char *fragment = json_string_value(json_object_get(c, "message"));
        json_t *code = json_object_get(c, "code");
        failure[0] = '\0';
        if (!id || !call || !fragment || !json_is_integer(code) ||
            !json_is_object(json_object_get(c, "args"))) {
            printf("not ok %zu - case %zu is malformed\n", i + 1, i + 1);
            failed++;
            continue;
        }
        if (filter && !strstr(id, filter)) {
            skipped++;
            continue;
        }
        if (json_object_get(seen, id))
            fail("duplicate case id");
        json_object_set_new(seen, id, json_true());
        int known;
        om_status expected = status_by_name(status_name, &known);
        if (!known || (json_int_t)expected != json_integer_value(code))
            fail("status name %s and code %lld do not agree", status_name,
                 (long long)json_integer_value(code));
        if (expected == OM_OK || fragment[0] == '\0')
            fail("a bad-input case must expect a failure with a message");
        json_t *env = json_object_get(c, "env");
        set_env(env);
        json_t *rss = json_object_get(c, "max_rss_mib");
        if (!failure[0] && json_is_number(rss) && !getenv("OM_BAD_INPUTS_NO_FORK")) {
            run_bounded(id, c, expected, fragment, json_number_value(rss));
        } else if (!failure[0]) {
            om_error err;
            outputs o = {0};
            om_error_clear(&err);
            om_status st = run_call(id, call, json_object_get(c, "args"), &o, &err);
            check_result(c, expected, fragment, st, &err, &o);
            release_outputs(&o, st);
            if (verbose)
                fprintf(stderr, "# %s: %s: %s\n", id, om_status_string(st), err.message);
        }
        clear_env(env);
        if (failure[0]) {
            printf("not ok %zu - %s: %s\n", i + 1, id, failure);
            failed++;
        } else {
            if (verbose)
                printf("ok %zu - %s\n", i + 1, id);
            passed++;
        }
    }
    for (size_t k = ncleanup; k-- > 0;) {
        if (remove(cleanup[k]) != 0)
            fprintf(stderr, "cannot remove %s: %s\n", cleanup[k], strerror(errno));
        free(cleanup[k]);
    }
    rmdir(scratch);
    json_decref(seen);
    json_decref(table);
    printf("bad inputs: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : (passed == 0 ? 1 : 0);
}
