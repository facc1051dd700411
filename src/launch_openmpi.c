/* Open MPI launch plans: the variables mpirun sets that no offline plan
 * can know, each with the rule Open MPI 4.1 follows (checked for every
 * process against mpirun itself by tests/openmpi/). */
#include "launch_internal.h"

/* Sorted by name, as the plan's keys are; placeholders as documented in
 * offline_mesh/launch.h. OMPI_MCA_ess_base_num_procs, _orte_node_regex,
 * _orte_parent_uri, _plm and _routed reach only the processes of nodes
 * whose orted mpirun started over ssh/rsh (copied from orted's command
 * line), not those of mpirun's own node. */
static const char *const rules[][2] = {
    {"OMPI_ARGV", "{args}"},
    {"OMPI_COMMAND", "{program}"},
    {"OMPI_FILE_LOCATION", "{session_dir}/0/{int}"},
    {"OMPI_MCA_ess_base_jobid", "{jobid}"},
    {"OMPI_MCA_ess_base_num_procs", "{int}"},
    {"OMPI_MCA_initial_wdir", "{cwd}"},
    {"OMPI_MCA_orte_hnp_uri", "{uri}"},
    {"OMPI_MCA_orte_jobfam_session_dir", "{session_dir}"},
    {"OMPI_MCA_orte_local_daemon_uri", "{uri}"},
    {"OMPI_MCA_orte_node_regex", "{node_regex}"},
    /* nnodes on mpirun's node, other counts elsewhere (2 * nnodes on the
     * remote nodes of 4.1.4): Open MPI's own bookkeeping. */
    {"OMPI_MCA_orte_num_nodes", "{int}"},
    {"OMPI_MCA_orte_parent_uri", "{uri}"},
    {"OMPI_MCA_orte_precondition_transports", "{hex16}-{hex16}"},
    {"OMPI_MCA_orte_rankfile", "{rankfile}"},
    {"OMPI_MCA_orte_tmpdir_base", "{tmpdir}"},
    {"OMPI_MCA_orte_top_session_dir", "{tmpdir}/ompi.{hostname}.{uid}"},
    {"OMPI_MCA_plm", "rsh"},
    {"OMPI_MCA_routed", "radix"},
    {"PMIX_DSTORE_21_BASE_PATH", "{session_dir}/pmix_dstor_ds21_{int}"},
    {"PMIX_DSTORE_ESH_BASE_PATH", "{session_dir}/pmix_dstor_ds12_{int}"},
    {"PMIX_HOSTNAME", "{hostname}"},
    {"PMIX_ID", "{jobid}.{rank}"},
    {"PMIX_NAMESPACE", "{jobid}"},
    {"PMIX_SERVER_TMPDIR", "{session_dir}"},
    {"PMIX_SERVER_URI2", "{uri}"},
    {"PMIX_SERVER_URI21", "{uri}"},
    {"PMIX_SERVER_URI3", "{uri}"},
    {"PMIX_SERVER_URI4", "{uri}"},
    {"PMIX_SERVER_URI41", "{uri}"},
    {"PMIX_SYSTEM_TMPDIR", "{tmpdir}"},
    {"PMIX_VERSION", "{pmix_version}"},
    {"PWD", "{cwd}"},
};

void omi_launch_openmpi_not_reproduced(omi_buf *b)
{
    omi_buf_puts(b, ",\"not_reproduced\":{");
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        omi_buf_puts(b, i ? ",\"" : "\"");
        omi_buf_puts(b, rules[i][0]);
        omi_buf_puts(b, "\":\"");
        omi_buf_puts(b, rules[i][1]);
        omi_buf_puts(b, "\"");
    }
    omi_buf_puts(b, "}");
}
