/* Launch plans: the parts each launcher's file writes. */
#ifndef OM_LAUNCH_INTERNAL_H
#define OM_LAUNCH_INTERNAL_H

#include "internal.h"

/* Appends ,"not_reproduced":{...}: the variables Open MPI's mpirun sets to
 * values only the run knows, each with its rule (offline_mesh/launch.h). */
void omi_launch_openmpi_not_reproduced(omi_buf *b);

/* OM_OK when `mesh` is a whole job (ranks 0..size-1, one instance: any
 * plain mesh, or a permuted view of one); a view of part of a job (a
 * world's view, a flatten's instances, a slice, an offset, gaps) is
 * refused, naming its ranks: a plan of it would launch the wrong job. */
om_status omi_launch_whole_job(const om_mesh *mesh, om_error *err);

#endif
