/* liboffline_mesh: umbrella header. Include this one.
 * SPDX-License-Identifier: MIT
 *
 * Conventions for the whole API:
 * - Every fallible function returns om_status (OM_OK = 0) and takes an
 *   optional `om_error *err` last, filled on failure (status.h).
 * - Handles are opaque. What a caller receives through an out-parameter
 *   (`om_mesh **out`, `char **out`) is the caller's to free with the
 *   matching om_*_free(); every free function accepts NULL. A pointer
 *   returned directly is borrowed from its parent handle.
 * - The library never aborts, never prints and keeps no global state. */
#ifndef OFFLINE_MESH_H
#define OFFLINE_MESH_H

#include "offline_mesh/attributes.h"
#include "offline_mesh/version.h"
#include "offline_mesh/status.h"
#include "offline_mesh/mesh.h"
#include "offline_mesh/dims.h"
#include "offline_mesh/topology.h"
#include "offline_mesh/preflight.h"
#include "offline_mesh/hierarchy.h"
#include "offline_mesh/launch.h"
#include "offline_mesh/preset.h"
#include "offline_mesh/view.h"
#include "offline_mesh/world.h"
#include "offline_mesh/config.h"

#endif /* OFFLINE_MESH_H */
