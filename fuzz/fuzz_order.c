/* Fuzz target: the order strings (om_axis_order_normalize,
 * om_order_normalize, om_mesh_from_dims_in_order), the environment's world
 * size (om_world_size_from_env, om_world_size_resolve) and order advice
 * (om_order_advice, om_order_check).
 *
 * Byte 0 % 3 picks the mode, bytes 1..5 the sizes dp, tp, cp, ep, pp
 * (1 + byte % 4; byte 6 bit 0 says whether dp is given), byte 7 a
 * hierarchy; the rest is text.
 *   0: the text is an order. Invariants: both normalisers agree;
 *      normalising is idempotent and gives distinct names from
 *      {dp,cp,tp,pp,ep} joined by ','; the mesh of the order equals the
 *      mesh of its normal form; a mesh built implies a normal form.
 *   1: the text (up to a NUL) is WORLD_SIZE (other variables unset).
 *      Invariants: accepted exactly when it is ASCII blanks, an optional
 *      '+', decimal digits, blanks, and the value is 1..2^31-1 (accepted
 *      with that value); a value beyond 2^31-1 is OUT_OF_RANGE; the other
 *      characters Python's int() strips (0x1c-0x1f) may be refused but
 *      never read as another number; resolve agrees and names the source.
 *   2: the text is "REQUIRE\nPREFER\nPRIORITY". Invariants: advice is
 *      JSON with orders and rejected; without PREFER, om_order_check of
 *      each ranked order reports exactly the order's "broken" list, the
 *      counts never decrease down the ranking, and every rejected order
 *      breaks at least one rule.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fuzz_common.h"

static const unsigned order_errors =
    FUZZ_BIT(OM_ERR_INVALID_ARGUMENT) | FUZZ_BIT(OM_ERR_MESH_TOO_LARGE) |
    FUZZ_BIT(OM_ERR_PARSE) | FUZZ_BIT(OM_ERR_OUT_OF_RANGE) |
    FUZZ_BIT(OM_ERR_UNKNOWN_AXIS);

static char *take_text(fuzz_input *in)
{
    char *s = malloc(in->n + 1);
    FUZZ_CHECK(s != NULL, "out of memory");
    memcpy(s, in->p, in->n);
    s[in->n] = '\0';
    in->p += in->n;
    in->n = 0;
    return s;
}

static void check_normal_form(const char *order, const char *norm)
{
    static const char *const known[] = {"dp", "cp", "tp", "pp", "ep"};
    bool seen[5] = {false};
    const char *p = norm;
    FUZZ_CHECK(*p != '\0', "order \"%s\": empty normal form", order);
    for (;;) {
        size_t len = strcspn(p, ",");
        int k = -1;
        for (int i = 0; i < 5; i++)
            if (len == 2 && strncmp(p, known[i], 2) == 0)
                k = i;
        FUZZ_CHECK(k >= 0 && !seen[k], "order \"%s\": normal form \"%s\"",
                   order, norm);
        seen[k] = true;
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
}

static void mode_order(const om_dims *dims, const char *order)
{
    om_error err;
    char *a = NULL, *b = NULL;
    om_status sa = om_axis_order_normalize(order, &a, &err);
    if (sa != OM_OK) {
        FUZZ_CHECK(a == NULL, "failed normalize set *out");
        fuzz_check_error("om_axis_order_normalize", sa, &err, order_errors);
    }
    om_status sb = om_order_normalize(order, &b, &err);
    FUZZ_CHECK(sa == sb && (sa != OM_OK || strcmp(a, b) == 0),
               "order \"%s\": the two normalisers disagree (%d/%d)", order,
               (int)sa, (int)sb);
    om_string_free(b);
    om_mesh *m = NULL;
    om_status sm = om_mesh_from_dims_in_order(dims, order, &m, &err);
    if (sm != OM_OK) {
        FUZZ_CHECK(m == NULL, "failed from_dims_in_order set *out");
        fuzz_check_error("om_mesh_from_dims_in_order", sm, &err, order_errors);
    }
    if (sa != OM_OK) {
        FUZZ_CHECK(sm != OM_OK, "order \"%s\" has no normal form (%s) but "
                   "builds a mesh", order, err.message);
        return;
    }
    check_normal_form(order, a);
    char *again = NULL;
    FUZZ_CHECK(om_axis_order_normalize(a, &again, &err) == OM_OK &&
                   strcmp(a, again) == 0,
               "order \"%s\": normal form \"%s\" is not a fixpoint", order, a);
    om_string_free(again);
    om_mesh *m2 = NULL;
    om_status sm2 = om_mesh_from_dims_in_order(dims, a, &m2, &err);
    FUZZ_CHECK(sm == sm2, "order \"%s\" gives status %d, its normal form "
               "\"%s\" %d", order, (int)sm, a, (int)sm2);
    if (sm == OM_OK) {
        FUZZ_CHECK(om_mesh_equal(m, m2), "order \"%s\" and its normal form "
                   "\"%s\" give different meshes", order, a);
        fuzz_check_mesh(m);
    }
    om_mesh_free(m2);
    om_mesh_free(m);
    om_string_free(a);
}

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
           c == '\r';
}

/* 1 = accept with *value, 0 = refuse, 2 = beyond 2^31-1, -1 = either. */
static int reference_env(const char *s, int64_t *value)
{
    bool odd_blank = false;
    size_t len = strlen(s), i = 0;
    while (len > 0 && (blank(s[len - 1]) || (s[len - 1] >= 0x1c && s[len - 1] <= 0x1f))) {
        odd_blank = odd_blank || !blank(s[len - 1]);
        len--;
    }
    while (i < len && (blank(s[i]) || (s[i] >= 0x1c && s[i] <= 0x1f))) {
        odd_blank = odd_blank || !blank(s[i]);
        i++;
    }
    if (i < len && s[i] == '+')
        i++;
    if (i == len)
        return 0;
    int64_t v = 0;
    bool big = false;
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        if (!big)
            v = v * 10 + (s[i] - '0');
        big = big || v > OM_MAX_RANKS;
    }
    if (v == 0 && !big)
        return 0;
    *value = v;
    return odd_blank ? -1 : big ? 2 : 1;
}

static void mode_env(const char *text)
{
    static const char *const others[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                         "SLURM_NTASKS"};
    for (size_t i = 0; i < 3; i++)
        unsetenv(others[i]);
    setenv("WORLD_SIZE", text, 1);
    om_error err;
    int64_t ws = -7, want = 0;
    bool found = false;
    om_status st = om_world_size_from_env(&ws, &found, &err);
    int ref = reference_env(text, &want);
    if (st == OM_OK) {
        FUZZ_CHECK(found, "WORLD_SIZE set but not found");
        FUZZ_CHECK(ref == 1 || (ref == -1 && want <= OM_MAX_RANKS),
                   "WORLD_SIZE=\"%s\" accepted as %lld", text, (long long)ws);
        FUZZ_CHECK(ws == want, "WORLD_SIZE=\"%s\" read as %lld, not %lld",
                   text, (long long)ws, (long long)want);
    } else {
        fuzz_check_error("om_world_size_from_env", st, &err,
                         FUZZ_BIT(OM_ERR_INVALID_ARGUMENT) |
                             FUZZ_BIT(OM_ERR_OUT_OF_RANGE));
        FUZZ_CHECK(ref != 1, "WORLD_SIZE=\"%s\" refused: %s", text,
                   err.message);
        FUZZ_CHECK(ref != 2 || st == OM_ERR_OUT_OF_RANGE,
                   "WORLD_SIZE=\"%s\" beyond 2^31-1, status %d", text, (int)st);
        FUZZ_CHECK(strstr(err.message, "WORLD_SIZE") != NULL,
                   "message does not name the variable: %s", err.message);
    }
    int64_t ws2 = -7;
    om_world_size_source src = OM_WORLD_SIZE_UNRESOLVED;
    om_status st2 = om_world_size_resolve(0, &ws2, &src, &err);
    FUZZ_CHECK(st2 == st && (st != OM_OK || (ws2 == ws &&
                             src == OM_WORLD_SIZE_FROM_WORLD_SIZE)),
               "resolve disagrees with from_env on \"%s\"", text);
    unsetenv("WORLD_SIZE");
}

static char *next_line(char **p)
{
    if (*p == NULL)
        return NULL;
    char *s = *p, *nl = strchr(s, '\n');
    if (nl) {
        *nl = '\0';
        *p = nl + 1;
    } else {
        *p = NULL;
    }
    return s;
}

static void mode_advice(const om_dims *dims, const om_hierarchy *h, char *text)
{
    om_error err;
    char *rest = text;
    const char *require = next_line(&rest);
    const char *prefer = next_line(&rest);
    const char *priority = next_line(&rest);
    char *out = NULL;
    om_status st = om_order_advice(dims, h, require, prefer, priority, &out, &err);
    if (st != OM_OK) {
        FUZZ_CHECK(out == NULL, "failed advice set *out");
        fuzz_check_error("om_order_advice", st, &err, order_errors);
        return;
    }
    json_error_t jerr;
    json_t *root = json_loads(out, 0, &jerr);
    FUZZ_CHECK(root != NULL, "advice is not JSON: %s", out);
    json_t *orders = json_object_get(root, "orders");
    json_t *rejected = json_object_get(root, "rejected");
    FUZZ_CHECK(json_is_array(orders) && json_array_size(orders) >= 1 &&
                   json_is_array(rejected),
               "advice lacks orders: %s", out);
    bool no_prefer = prefer == NULL || *prefer == '\0';
    size_t last = 0;
    for (size_t i = 0; i < json_array_size(orders); i++) {
        json_t *o = json_array_get(orders, i);
        const char *mg = json_string_value(json_object_get(o, "megatron"));
        json_t *broken = json_object_get(o, "broken");
        FUZZ_CHECK(mg && json_is_array(broken), "order %zu malformed", i);
        char *lines = NULL;
        size_t count = 99;
        om_status sc = om_order_check(dims, h, mg, require, &lines, &count, &err);
        FUZZ_CHECK(sc == OM_OK, "check of ranked order %s: %s", mg, err.message);
        if (no_prefer)
            FUZZ_CHECK(count == json_array_size(broken),
                       "order %s: check counts %zu, advice lists %zu broken",
                       mg, count, json_array_size(broken));
        FUZZ_CHECK(count >= last, "order %s ranked after one breaking fewer "
                   "must rules (%zu < %zu)", mg, count, last);
        last = count;
        om_string_free(lines);
    }
    for (size_t i = 0; i < json_array_size(rejected); i++) {
        json_t *o = json_array_get(rejected, i);
        const char *mg = json_string_value(json_object_get(o, "megatron"));
        FUZZ_CHECK(mg != NULL, "rejected %zu malformed", i);
        char *lines = NULL;
        size_t count = 0;
        om_status sc = om_order_check(dims, h, mg, require, &lines, &count, &err);
        FUZZ_CHECK(sc == OM_OK && count >= 1,
                   "rejected order %s: check status %d, %zu broken", mg,
                   (int)sc, count);
        om_string_free(lines);
    }
    json_decref(root);
    om_string_free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const hierarchies[] = {"host=2", "host=4,rack=8",
                                              "host=3", "nvl=2,host=4,rack=16"};
    fuzz_input in = {data, size};
    om_error err;
    unsigned mode = fuzz_take(&in) % 3;
    static const om_dim order[] = {OM_DIM_DP, OM_DIM_TP, OM_DIM_CP,
                                   OM_DIM_EP, OM_DIM_PP};
    int64_t sizes[5];
    int64_t product = 1;
    for (size_t i = 0; i < 5; i++) {
        sizes[i] = 1 + fuzz_take(&in) % 4;
        if (order[i] != OM_DIM_EP)
            product *= sizes[i];
    }
    bool dp_given = fuzz_take(&in) & 1;
    unsigned hi = fuzz_take(&in) % 4;
    char *text = take_text(&in);

    om_dims *dims = NULL;
    FUZZ_CHECK(om_dims_new(&dims, &err) == OM_OK, "dims_new");
    for (size_t i = 1; i < 5; i++)
        FUZZ_CHECK(om_dims_set(dims, order[i], sizes[i], &err) == OM_OK,
                   "dims_set: %s", err.message);
    if (dp_given)
        FUZZ_CHECK(om_dims_set(dims, OM_DIM_DP, sizes[0], &err) == OM_OK,
                   "dims_set dp: %s", err.message);
    FUZZ_CHECK(om_dims_apply_world_size(dims, product, OM_WORLD_SIZE_EXPLICIT,
                                        &err) == OM_OK,
               "apply_world_size: %s", err.message);

    if (mode == 0) {
        mode_order(dims, text);
    } else if (mode == 1) {
        mode_env(text);
    } else {
        om_hierarchy *h = NULL;
        FUZZ_CHECK(om_hierarchy_from_spec(hierarchies[hi], &h, &err) == OM_OK,
                   "hierarchy: %s", err.message);
        mode_advice(dims, h, text);
        om_hierarchy_free(h);
    }
    om_dims_free(dims);
    free(text);
    return 0;
}
