// The umbrella header from C++ (C++11, pedantic, no old-style casts): the
// declarations get C linkage and the types are usable as they are.
// SPDX-License-Identifier: MIT
#include "offline_mesh.h"
#include "offline_mesh.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace {

int failures = 0;

void check(bool ok, const char *what)
{
    if (!ok) {
        std::printf("FAILED: %s\n", what);
        ++failures;
    }
}

// RAII holder, as a C++ user would write one.
struct Mesh {
    om_mesh *handle = nullptr;
    ~Mesh() { om_mesh_free(handle); }
};

} // namespace

int main()
{
    om_error err;
    om_error_clear(&err);
    Mesh mesh;
    check(om_mesh_from_spec("dp=4,tp=2", &mesh.handle, &err) == OM_OK, "from_spec");
    check(om_mesh_size(mesh.handle) == 8, "size");
    check(std::string(om_mesh_name(mesh.handle, 1)) == "tp", "name");

    Mesh experts;
    check(om_expert_mesh(mesh.handle, 4, 0, &experts.handle, &err) == OM_OK,
          "expert_mesh");
    std::uint64_t ep = 0;
    check(om_mesh_axes(experts.handle, "ep", &ep, &err) == OM_OK, "axes");
    std::int32_t groups[8] = {};
    check(om_mesh_groups(experts.handle, ep, 0, 2, groups, 8, &err) == OM_OK &&
              groups[4] == 4 && groups[7] == 7,
          "groups");

    // A failing call fills the caller's report.
    Mesh bad;
    om_status st = om_mesh_from_spec("dp=0", &bad.handle, &err);
    check(st == OM_ERR_BAD_SIZE && err.status == OM_ERR_BAD_SIZE &&
              bad.handle == nullptr && std::strstr(err.message, "dp") != nullptr,
          "error report");

    om_dims *dims = nullptr;
    check(om_dims_new(&dims, &err) == OM_OK, "dims_new");
    check(om_dims_set(dims, OM_DIM_TP, 4, &err) == OM_OK &&
              om_dims_get(dims, OM_DIM_TP) == 4,
          "dims_set");
    check(!om_dims_get_flag(dims, OM_FLAG_LOSS_PARALLEL), "flag");
    om_dims_free(dims);

    check(std::string(om_version_string()) == OM_VERSION_STRING, "version");
    check(std::string(om_status_string(OM_OK)) == "ok", "status");
    std::printf("header_cpp: %d failures\n", failures);
    return failures ? 1 : 0;
}
