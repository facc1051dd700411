/* Every case of tests/yaml_reference/cases.json (random configs loaded
 * with PyYAML by its generate.py, projected by DOMAIN.md's rules) through
 * the C API: om_dims_parse_yaml_checked() then om_dims_apply_world_size()
 * with the case's world size (as `offline-mesh dims --world-size N`).
 * Dims must match field by field; a refusal must have the expected status
 * and name the expected key (and numbers); the duplicate keys reported
 * (OM_DIAGNOSTIC_DUPLICATE_KEY) must be the recorded ones, line by line.
 * SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "om_test.h"

/* The case being run, named by every failure. */
static long long current_case;

static om_status status_named(const char *name)
{
    if (strcmp(name, "parse") == 0)
        return OM_ERR_PARSE;
    if (strcmp(name, "invalid_argument") == 0)
        return OM_ERR_INVALID_ARGUMENT;
    if (strcmp(name, "out_of_range") == 0)
        return OM_ERR_OUT_OF_RANGE;
    return OM_OK; /* unknown in the JSON: no status matches it */
}

/* The case's id and text, once, before its first failure. */
static void show_case(json_t *c, bool *shown, const char *why)
{
    if (!*shown)
        fprintf(stderr, "case %lld (%s):\n%s\n",
                (long long)json_integer_value(json_object_get(c, "id")), why,
                json_string_value(json_object_get(c, "text")));
    *shown = true;
}

/* The DUPLICATE_KEY diagnostics as the JSON lists them: sorted by line,
 * then key; the key is the one the message quotes first. */
static bool same_duplicates(const om_diagnostics *list, json_t *want)
{
    size_t n = 0;
    for (size_t i = 0; i < om_diagnostics_count(list); i++) {
        if (om_diagnostics_kind(list, i) != OM_DIAGNOSTIC_DUPLICATE_KEY)
            continue;
        json_t *d = json_array_get(want, n++);
        char *message = NULL;
        om_error err;
        if (!d || om_diagnostics_message(list, i, &message, &err) != OM_OK)
            return false;
        char quoted[80];
        snprintf(quoted, sizeof quoted, " \"%s\" appears again",
                 json_string_value(json_object_get(d, "key")));
        bool same = om_diagnostics_line(list, i) ==
                        json_integer_value(json_object_get(d, "line")) &&
                    strstr(message, quoted) != NULL;
        om_string_free(message);
        if (!same)
            return false;
    }
    return n == json_array_size(want);
}

static void check_dims(json_t *c, const om_dims *dims, json_t *want,
                       const om_diagnostics *list, bool *shown)
{
    for (int d = 0; d < OM_DIM_COUNT; d++) {
        json_t *v = json_object_get(want, om_dim_field_name((om_dim)d));
        bool ok = om_dims_get(dims, (om_dim)d) == json_integer_value(v);
        if (!ok)
            show_case(c, shown, "different dims");
        om_test_record(ok, __FILE__, __LINE__, "case %lld: %s: %lld, PyYAML gives %lld",
                       current_case, om_dim_field_name((om_dim)d),
                       (long long)om_dims_get(dims, (om_dim)d),
                       (long long)json_integer_value(v));
    }
    for (int f = 0; f < OM_FLAG_COUNT; f++) {
        json_t *v = json_object_get(want, om_flag_field_name((om_flag)f));
        bool ok = om_dims_get_flag(dims, (om_flag)f) == json_is_true(v);
        if (!ok)
            show_case(c, shown, "different flags");
        om_test_record(ok, __FILE__, __LINE__, "case %lld: %s differs",
                       current_case, om_flag_field_name((om_flag)f));
    }
    bool ok = same_duplicates(list, json_object_get(c, "duplicates"));
    if (!ok)
        show_case(c, shown, "different duplicate keys");
    om_test_record(ok, __FILE__, __LINE__,
                   "case %lld: duplicate key diagnostics differ", current_case);
}

static void check_refusal(json_t *c, om_status st, const om_error *err,
                          json_t *want, bool *shown)
{
    om_status status = status_named(json_string_value(json_object_get(want, "status")));
    bool ok = st == status;
    if (!ok)
        show_case(c, shown, "different status");
    om_test_record(ok, __FILE__, __LINE__, "case %lld: status %d, want %d (%s)",
                   current_case, (int)st, (int)status,
                   st == OM_OK ? "accepted" : err->message);
    json_t *key = json_object_get(want, "key");
    if (json_is_string(key) && st != OM_OK) {
        ok = strstr(err->message, json_string_value(key)) != NULL;
        if (!ok)
            show_case(c, shown, "message names another key");
        om_test_record(ok, __FILE__, __LINE__, "case %lld: \"%s\" does not name %s",
                       current_case, err->message, json_string_value(key));
    }
    size_t i;
    json_t *name;
    json_array_foreach(json_object_get(want, "names"), i, name) {
        ok = st != OM_OK && strstr(err->message, json_string_value(name)) != NULL;
        if (!ok)
            show_case(c, shown, "message lacks a number");
        om_test_record(ok, __FILE__, __LINE__, "case %lld: \"%s\" does not name %s",
                       current_case, st != OM_OK ? err->message : "",
                       json_string_value(name));
    }
}

static void run_case(json_t *c)
{
    json_t *text = json_object_get(c, "text");
    json_t *expect = json_object_get(c, "expect");
    json_t *want_dims = json_object_get(expect, "dims");
    om_diagnostics *list = NULL;
    om_dims *dims = NULL;
    om_error err;
    bool shown = false;
    current_case = (long long)json_integer_value(json_object_get(c, "id"));
    OM_EXPECT_OK(om_diagnostics_new(&list, &err), &err);
    om_status st = om_dims_parse_yaml_checked(json_string_value(text),
                                              json_string_length(text), false,
                                              list, &dims, &err);
    if (st == OM_OK)
        st = om_dims_apply_world_size(
            dims, json_integer_value(json_object_get(c, "world_size")),
            OM_WORLD_SIZE_EXPLICIT, &err);
    if (want_dims && st != OM_OK) {
        show_case(c, &shown, "refused");
        om_test_record(false, __FILE__, __LINE__, "case %lld: refused: %s",
                       current_case, err.message);
    } else if (want_dims) {
        check_dims(c, dims, want_dims, list, &shown);
    } else {
        check_refusal(c, st, &err, json_object_get(expect, "error"), &shown);
    }
    om_dims_free(dims);
    om_diagnostics_free(list);
}

static void test_every_case(void)
{
    const char *path = getenv("OM_YAML_REFERENCE");
    json_error_t jerr;
    json_t *root = json_load_file(path ? path : "tests/yaml_reference/cases.json", 0,
                                  &jerr);
    OM_EXPECT(root != NULL);
    if (!root) {
        fprintf(stderr, "cannot read the cases: %s\n", jerr.text);
        return;
    }
    json_t *cases = json_object_get(root, "cases");
    /* The file is the generator's, whole: a truncated one fails here. */
    OM_EXPECT(json_array_size(cases) >= 500);
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c)
        run_case(c);
    json_decref(root);
}

static const om_test_case reference_tests[] = {
    {"every random config as PyYAML reads it", test_every_case},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"yaml reference", NULL, NULL, reference_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
