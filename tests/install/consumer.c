/* A downstream program built against an *installed* liboffline_mesh
 * (tests/install/run-tests.sh builds it with pkg-config and with CMake).
 * It projects a training YAML onto parallel dims for 8 ranks, builds the
 * offline mesh and prints it with its tp groups, so libyaml, jansson and the
 * topology code all run through the installed shared library.
 * SPDX-License-Identifier: MIT */
#include <offline_mesh.h>

#include <stdio.h>
#include <string.h>

static int fail(const char *what, const om_error *err)
{
    fprintf(stderr, "consumer: %s: %s: %s\n", what,
            om_status_string(err->status), err->message);
    return 1;
}

int main(void)
{
    static const char yaml[] =
        "model: {name: demo}\n"
        "accelerator:\n"
        "  tp_size: 2\n"
        "  cp_size: 2\n";
    om_error err;
    om_error_clear(&err);

    /* The header the program was compiled with and the library it runs
     * with must agree (both come from the same install). */
    if (om_version_number() != OM_VERSION_NUMBER ||
        strcmp(om_version_string(), OM_VERSION_STRING) != 0) {
        fprintf(stderr, "consumer: header %s but library %s\n",
                OM_VERSION_STRING, om_version_string());
        return 1;
    }
    printf("offline_mesh %s\n", om_version_string());

    om_dims *dims = NULL;
    if (om_dims_from_yaml(yaml, sizeof yaml - 1, 8, &dims, &err) != OM_OK)
        return fail("om_dims_from_yaml", &err);
    om_mesh *mesh = NULL;
    om_status st = om_build_offline_mesh(dims, &mesh, &err);
    om_dims_free(dims);
    if (st != OM_OK)
        return fail("om_build_offline_mesh", &err);

    char *json = NULL;
    char *spec = NULL;
    if (om_mesh_to_json(mesh, &json, &err) != OM_OK ||
        om_mesh_to_spec(mesh, &spec, &err) != OM_OK) {
        om_string_free(json);
        om_mesh_free(mesh);
        return fail("printing the mesh", &err);
    }
    printf("mesh %s\nspec %s\nsize %lld\n", json, spec,
           (long long)om_mesh_size(mesh));
    om_string_free(json);
    om_string_free(spec);

    uint64_t tp = 0;
    int64_t count = 0, size = 0;
    int32_t ranks[64];
    if (om_mesh_axes(mesh, "tp", &tp, &err) != OM_OK ||
        om_mesh_group_shape(mesh, tp, &count, &size, &err) != OM_OK ||
        om_mesh_groups(mesh, tp, 0, count, ranks,
                       sizeof ranks / sizeof ranks[0], &err) != OM_OK) {
        om_mesh_free(mesh);
        return fail("tp groups", &err);
    }
    printf("tp groups:");
    for (int64_t g = 0; g < count; g++) {
        printf(" {");
        for (int64_t i = 0; i < size; i++)
            printf(i ? ",%d" : "%d", (int)ranks[g * size + i]);
        printf("}");
    }
    printf("\n");
    om_mesh_free(mesh);
    return 0;
}
