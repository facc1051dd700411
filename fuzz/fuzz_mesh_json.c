/* Fuzz target: om_mesh_from_json() on arbitrary bytes.
 *
 * Invariants: a failure leaves *out NULL and fills err (a parse or mesh
 * validation status, never "no memory"); a success is a consistent mesh
 * whose canonical JSON parses back to an equal mesh and re-serialises to
 * the same bytes (fuzz_common.c); parsing the input twice gives equal
 * meshes.
 * SPDX-License-Identifier: MIT */
#include <string.h>

#include <jansson.h>

#include "fuzz_common.h"

/* Independent reading of the same text with jansson: true when it is
 * exactly one valid mesh object; fills names/sizes (borrowed from root). */
static bool oracle(json_t *root, size_t *ndim, const char **names,
                   int64_t *sizes, size_t cap)
{
    if (!json_is_object(root) || json_object_size(root) != 2)
        return false;
    json_t *n = json_object_get(root, "mesh_dim_names");
    json_t *s = json_object_get(root, "mesh_shape");
    if (!json_is_array(n) || !json_is_array(s) ||
        json_array_size(n) != json_array_size(s) || json_array_size(n) > cap)
        return false;
    int64_t product = 1;
    *ndim = json_array_size(n);
    for (size_t i = 0; i < *ndim; i++) {
        json_t *name = json_array_get(n, i);
        json_t *size = json_array_get(s, i);
        if (!json_is_string(name) || !json_is_integer(size))
            return false;
        names[i] = json_string_value(name);
        sizes[i] = (int64_t)json_integer_value(size);
        if (json_string_length(name) == 0 || sizes[i] < 1 ||
            sizes[i] > OM_MAX_RANKS / product)
            return false;
        product *= sizes[i];
        for (size_t j = 0; j < i; j++)
            if (strcmp(names[j], names[i]) == 0)
                return false;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    om_error err;
    om_mesh *mesh = (om_mesh *)(uintptr_t)1; /* must be overwritten */
    om_error_clear(&err);
    om_status st = om_mesh_from_json(text, size, &mesh, &err);

    json_error_t jerr;
    json_t *root = json_loadb(text, size, JSON_REJECT_DUPLICATES, &jerr);
    enum { CAP = 64 };
    const char *names[CAP];
    int64_t sizes[CAP];
    size_t ndim = 0;
    bool valid = root && oracle(root, &ndim, names, sizes, CAP);
    if (root && !valid && json_is_object(root) && json_object_size(root) == 2 &&
        json_array_size(json_object_get(root, "mesh_dim_names")) > CAP) {
        json_decref(root); /* too many axes for the oracle: skip it */
        root = NULL;
    }
    if (root) {
        FUZZ_CHECK(valid == (st == OM_OK),
                   "library says %d (%s), the oracle says %s", (int)st,
                   st == OM_OK ? "ok" : err.message, valid ? "valid" : "invalid");
        for (size_t i = 0; valid && i < ndim; i++)
            FUZZ_CHECK(strcmp(om_mesh_name(mesh, i), names[i]) == 0 &&
                           om_mesh_dim_size(mesh, i) == sizes[i],
                       "axis %zu differs from the oracle", i);
        FUZZ_CHECK(!valid || om_mesh_ndim(mesh) == ndim, "ndim differs");
        json_decref(root);
    } else {
        FUZZ_CHECK(st != OM_OK || json_error_code(&jerr) == json_error_out_of_memory,
                   "library accepted what jansson rejects: %s", jerr.text);
    }
    if (st != OM_OK) {
        FUZZ_CHECK(mesh == NULL, "failed parse left *out set");
        fuzz_check_error("om_mesh_from_json", st, &err,
                         FUZZ_BIT(OM_ERR_PARSE) | FUZZ_BIT(OM_ERR_LENGTH_MISMATCH) |
                             FUZZ_BIT(OM_ERR_DUPLICATE_NAME) |
                             FUZZ_BIT(OM_ERR_EMPTY_NAME) |
                             FUZZ_BIT(OM_ERR_BAD_SIZE) |
                             FUZZ_BIT(OM_ERR_MESH_TOO_LARGE) |
                             FUZZ_BIT(OM_ERR_INVALID_NAME));
        return 0;
    }
    FUZZ_CHECK(mesh != NULL, "success without a mesh");
    fuzz_check_mesh(mesh);

    /* The same bytes parse to the same mesh. */
    om_mesh *twice = NULL;
    FUZZ_CHECK(om_mesh_from_json(text, size, &twice, &err) == OM_OK,
               "second parse failed: %s", err.message);
    FUZZ_CHECK(om_mesh_equal(mesh, twice), "second parse differs");
    om_mesh_free(twice);

    om_mesh_free(mesh);
    return 0;
}
