/* Launch plans: the parts each launcher's file writes. */
#ifndef OM_LAUNCH_INTERNAL_H
#define OM_LAUNCH_INTERNAL_H

#include "internal.h"

/* Appends ,"not_reproduced":{...}: the variables Open MPI's mpirun sets to
 * values only the run knows, each with its rule (offline_mesh/launch.h). */
void omi_launch_openmpi_not_reproduced(omi_buf *b);

#endif
