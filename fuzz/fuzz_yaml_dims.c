/* Fuzz target: om_dims_from_yaml() (the YAML projection from a string),
 * then the offline and runtime meshes built from the projected dims.
 *
 * Input: byte 0 picks the caller's world size from a table (0 = discover
 * it; the fuzzer clears the launcher variables, so that means 1), the rest
 * is the YAML text.
 * Invariants: a failure leaves *out NULL and fills err; a success gives
 * sizes in 1..2^31-1, dp*tp*cp*pp equal to the world size, a mesh whose
 * size equals dp*cp*tp*pp (or OM_ERR_MESH_TOO_LARGE exactly when that
 * product exceeds 2^31-1) with the axes dp, cp, tp (and pp when > 1), a
 * runtime mesh with the same axes, and the same dims from a second parse.
 * The strict reading (config.h) agrees: leniently it gives the dims the
 * pure parser gives, with well-formed diagnostics; strictly it succeeds
 * exactly when there are none.
 * SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int64_t world_sizes[16] = {
    0, 1, 2, 4, 6, 8, 12, 16, 24, 64, 96, 1024, 4096, 2147483647, -1,
    INT64_C(2147483648),
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    static const char *const vars[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE",
                                       "PMI_SIZE", "SLURM_NTASKS"};
    for (size_t i = 0; i < 4; i++)
        unsetenv(vars[i]);
    return 0;
}

static void check_meshes(const om_dims *dims)
{
    om_error err;
    int64_t dp = om_dims_get(dims, OM_DIM_DP), tp = om_dims_get(dims, OM_DIM_TP);
    int64_t cp = om_dims_get(dims, OM_DIM_CP), pp = om_dims_get(dims, OM_DIM_PP);
    /* Each factor is < 2^31, so the product of four fits in 128 bits; use
     * a checked product that saturates. */
    int64_t product = 1;
    bool too_large = false;
    const int64_t factors[4] = {dp, cp, tp, pp};
    for (int i = 0; i < 4; i++) {
        if (factors[i] > OM_MAX_RANKS / product)
            too_large = true;
        else
            product *= factors[i];
    }
    om_mesh *mesh = (om_mesh *)(uintptr_t)1;
    om_status st = om_build_offline_mesh(dims, &mesh, &err);
    if (too_large) {
        FUZZ_CHECK(st == OM_ERR_MESH_TOO_LARGE && mesh == NULL,
                   "dp*cp*tp*pp > 2^31-1 but build_offline_mesh gave %d", (int)st);
        fuzz_check_error("om_build_offline_mesh", st, &err,
                         FUZZ_BIT(OM_ERR_MESH_TOO_LARGE));
        return;
    }
    FUZZ_CHECK(st == OM_OK, "build_offline_mesh failed: %s", err.message);
    FUZZ_CHECK(om_mesh_size(mesh) == product, "mesh size %lld != dp*cp*tp*pp %lld",
               (long long)om_mesh_size(mesh), (long long)product);
    size_t want = pp > 1 ? 4 : 3;
    FUZZ_CHECK(om_mesh_ndim(mesh) == want, "ndim %zu, expected %zu",
               om_mesh_ndim(mesh), want);
    static const char *const axes[4] = {"dp", "cp", "tp", "pp"};
    for (size_t i = 0; i < want; i++) {
        FUZZ_CHECK(strcmp(om_mesh_name(mesh, i), axes[i]) == 0, "axis %zu is %s",
                   i, om_mesh_name(mesh, i));
        FUZZ_CHECK(om_mesh_dim_size(mesh, i) == factors[i], "axis %s size", axes[i]);
    }
    fuzz_check_mesh(mesh);

    /* The runtime layout has the same axes in another order. */
    om_mesh *runtime = NULL;
    st = om_build_runtime_mesh(dims, "tp-cp-dp-pp", &runtime, &err);
    FUZZ_CHECK(st == OM_OK, "runtime mesh failed: %s", err.message);
    FUZZ_CHECK(om_mesh_size(runtime) == product, "runtime mesh size differs");
    FUZZ_CHECK(om_mesh_ndim(runtime) == want, "runtime ndim differs");
    for (size_t i = 0; i < want; i++)
        FUZZ_CHECK(om_mesh_size_of(runtime, axes[i]) == factors[i],
                   "runtime axis %s", axes[i]);
    FUZZ_CHECK(pp <= 1 || strcmp(om_mesh_name(runtime, 0), "pp") == 0,
               "pp is not outermost in tp-cp-dp-pp");
    om_mesh_free(runtime);
    om_mesh_free(mesh);
}

static void check_strict(const char *text, size_t len)
{
    om_error err;
    om_dims *pure = NULL, *checked = NULL;
    om_diagnostics *list = NULL;
    if (om_diagnostics_new(&list, &err) != OM_OK)
        return;
    om_status st = om_dims_parse_yaml(text, len, &pure, &err);
    om_status lenient = om_dims_parse_yaml_checked(text, len, false, list, &checked, &err);
    FUZZ_CHECK(lenient == st, "checked parse %d, pure parse %d", (int)lenient, (int)st);
    FUZZ_CHECK(st != OM_OK || om_dims_equal(pure, checked), "checked dims differ");
    size_t count = om_diagnostics_count(list);
    FUZZ_CHECK(st == OM_OK || count == 0, "diagnostics after an error");
    /* config.h's bounds, per kind: 16 unknown keys and one counting the
     * rest, 8 repeated keys and one counting the rest, one of the others. */
    size_t per_kind[OM_DIAGNOSTIC_KIND_COUNT] = {0};
    for (size_t i = 0; i < count; i++) {
        int kind = om_diagnostics_kind(list, i);
        if (kind >= 0 && kind < OM_DIAGNOSTIC_KIND_COUNT)
            per_kind[kind]++;
    }
    FUZZ_CHECK(per_kind[OM_DIAGNOSTIC_UNKNOWN_KEY] <= OM_DIAGNOSTICS_MAX_UNKNOWN_KEYS + 1 &&
                   per_kind[OM_DIAGNOSTIC_DUPLICATE_KEY] <= 8 + 1 &&
                   count - per_kind[OM_DIAGNOSTIC_UNKNOWN_KEY] - per_kind[OM_DIAGNOSTIC_DUPLICATE_KEY] <= 1,
               "%zu diagnostics: %zu unknown keys, %zu repeated keys", count,
               per_kind[OM_DIAGNOSTIC_UNKNOWN_KEY], per_kind[OM_DIAGNOSTIC_DUPLICATE_KEY]);
    for (size_t i = 0; i < count; i++) {
        char *message = NULL;
        FUZZ_CHECK(om_diagnostics_message(list, i, &message, &err) == OM_OK &&
                       message[0] != '\0',
                   "diagnostic %zu has no message", i);
        FUZZ_CHECK(om_diagnostics_kind(list, i) >= 0 &&
                       om_diagnostics_kind(list, i) < OM_DIAGNOSTIC_KIND_COUNT &&
                       om_diagnostics_line(list, i) >= 0,
                   "diagnostic %zu: kind %d", i, om_diagnostics_kind(list, i));
        om_string_free(message);
    }
    om_dims_free(checked);
    checked = (om_dims *)(uintptr_t)1;
    om_status strict = om_dims_parse_yaml_checked(text, len, true, list, &checked, &err);
    FUZZ_CHECK(st != OM_OK || (strict == OM_OK) == (count == 0),
               "strict %d with %zu diagnostics", (int)strict, count);
    FUZZ_CHECK(strict == OM_OK || checked == NULL, "failed strict read left *out set");
    om_dims_free(strict == OM_OK ? checked : NULL);
    om_dims_free(pure);
    om_diagnostics_free(list);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int64_t world_size = world_sizes[data[0] & 15];
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    om_error err;
    om_dims *dims = (om_dims *)(uintptr_t)1;
    om_error_clear(&err);
    check_strict(text, len);
    om_status st = om_dims_from_yaml(text, len, world_size, &dims, &err);
    if (st != OM_OK) {
        FUZZ_CHECK(dims == NULL, "failed projection left *out set");
        fuzz_check_error("om_dims_from_yaml", st, &err,
                         FUZZ_BIT(OM_ERR_PARSE) | FUZZ_BIT(OM_ERR_INVALID_ARGUMENT) |
                             FUZZ_BIT(OM_ERR_OUT_OF_RANGE));
        return 0;
    }
    FUZZ_CHECK(dims != NULL, "success without dims");
    FUZZ_CHECK(world_size <= OM_MAX_RANKS, "world size %lld accepted",
               (long long)world_size);
    static const om_dim all[5] = {OM_DIM_DP, OM_DIM_TP, OM_DIM_CP, OM_DIM_EP,
                                  OM_DIM_PP};
    int64_t model = 1;
    for (size_t i = 0; i < 5; i++) {
        int64_t v = om_dims_get(dims, all[i]);
        FUZZ_CHECK(v >= 1 && v <= OM_MAX_RANKS, "%s = %lld",
                   om_dim_field_name(all[i]), (long long)v);
    }
    /* dp*tp*cp*pp equals the world size (1 when not given). */
    int64_t ws = world_size > 0 ? world_size : 1;
    int64_t dp = om_dims_get(dims, OM_DIM_DP);
    const om_dim model_dims[3] = {OM_DIM_TP, OM_DIM_CP, OM_DIM_PP};
    bool over = false;
    for (size_t i = 0; i < 3; i++) {
        int64_t v = om_dims_get(dims, model_dims[i]);
        if (v > ws / model)
            over = true;
        else
            model *= v;
    }
    /* (Without a given world size, and none in the environment, an
     * explicit dp_size is taken as it is: nothing to compare.) */
    if (world_size > 0)
        FUZZ_CHECK(!over && model * dp == ws,
                   "dp*tp*cp*pp != world size %lld", (long long)ws);

    char *json = NULL;
    FUZZ_CHECK(om_dims_to_json(dims, &json, &err) == OM_OK, "dims_to_json failed");
    FUZZ_CHECK(json[0] == '{' && strstr(json, "\"dp_size\":") != NULL,
               "dims JSON: %s", json);
    om_string_free(json);

    om_dims *again = NULL;
    FUZZ_CHECK(om_dims_from_yaml(text, len, world_size, &again, &err) == OM_OK &&
                   om_dims_equal(dims, again),
               "second projection differs");
    om_dims_free(again);

    check_meshes(dims);
    om_dims_free(dims);
    return 0;
}
