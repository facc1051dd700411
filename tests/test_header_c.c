/* The umbrella header, included first, in a strict C11 program that uses
 * a little of every module.
 * SPDX-License-Identifier: MIT */
#include "offline_mesh.h"
#include "offline_mesh.h"

#include <stdio.h>
#include <string.h>

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("FAILED: %s\n", what);
        failures++;
    }
}

int main(void)
{
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = NULL;
    check(om_mesh_from_spec("dp=2,cp=2,tp=2", &mesh, &err) == OM_OK, "from_spec");
    check(om_mesh_size(mesh) == 8, "size");
    uint64_t mask = 0;
    check(om_mesh_axes(mesh, "cp", &mask, &err) == OM_OK && mask == 2, "axes");
    int32_t members[2] = {0, 0};
    check(om_mesh_group_of(mesh, mask, 5, members, 2, &err) == OM_OK &&
              members[0] == 5 && members[1] == 7,
          "group_of");
    char *json = NULL;
    check(om_mesh_to_json(mesh, &json, &err) == OM_OK &&
              strcmp(json, "{\"mesh_dim_names\":[\"dp\",\"cp\",\"tp\"],"
                           "\"mesh_shape\":[2,2,2]}") == 0,
          "to_json");
    om_string_free(json);
    om_dims *dims = NULL;
    check(om_dims_new(&dims, &err) == OM_OK && om_dims_get(dims, OM_DIM_PP) == 1,
          "dims");
    check(om_validate_axes(mesh, 2, 2, 1, &err) == OM_OK, "validate_axes");
    check(om_version_number() == OM_VERSION_NUMBER, "version");
    check(strcmp(om_status_string(OM_ERR_PARSE), "parse error") == 0, "status");
    check(OM_MAX_RANKS == 2147483647, "OM_MAX_RANKS");
    check(sizeof(err.message) == OM_ERROR_MESSAGE_SIZE, "message size");
    om_dims_free(dims);
    om_mesh_free(mesh);
    printf("header_c: %d failures\n", failures);
    return failures ? 1 : 0;
}
