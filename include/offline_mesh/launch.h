/* liboffline_mesh: per-node launch plans and admission checks.
 * SPDX-License-Identifier: MIT
 *
 * A job of `nnodes` nodes with `nproc_per_node` processes each runs ranks
 * K*P .. K*P+P-1 on node K (P = nproc_per_node), as torchrun's static
 * rendezvous, srun with --distribution=block and mpirun --map-by slot
 * assign them. A plan lists, per node, its node rank, host (when hosts are
 * given: node K is hosts[K], never sorted by name), its global ranks and,
 * for each local process, the environment the launcher sets.
 *
 * torchrun (`python -m torch.distributed.run --rdzv-backend=static
 * --nnodes N --node-rank K --nproc-per-node P [--master-addr A]
 * [--master-port Q]`, every other option at its default, started from an
 * environment without OMP_NUM_THREADS, TORCH_NCCL_ASYNC_ERROR_HANDLING and
 * CUDA_VISIBLE_DEVICES; checked for every process against torch 2.15.0 by
 * tests/torchrun/): RANK, LOCAL_RANK, GROUP_RANK, GROUP_WORLD_SIZE,
 * LOCAL_WORLD_SIZE, WORLD_SIZE, ROLE_NAME ("default"), ROLE_RANK,
 * ROLE_WORLD_SIZE, MASTER_ADDR ("127.0.0.1"; an address in brackets,
 * "[::1]", without them, as torchrun parses it), MASTER_PORT ("29500"),
 * TORCHELASTIC_RESTART_COUNT ("0"), TORCHELASTIC_MAX_RESTARTS ("0"),
 * TORCHELASTIC_RUN_ID ("none"), TORCHELASTIC_USE_AGENT_STORE ("True"),
 * TORCH_NCCL_ASYNC_ERROR_HANDLING ("1"), TORCHELASTIC_SIGNALS_TO_HANDLE
 * ("SIGTERM,SIGINT,SIGHUP,SIGQUIT") and, when P > 1, OMP_NUM_THREADS ("1").
 * Variables torchrun sets to values chosen at run time are not in "env";
 * the plan's "not_reproduced" object names each with torchrun's rule, in
 * which {tmpdir} is Python's tempfile.gettempdir() in the launcher
 * ($TMPDIR, $TEMP or $TMP, else /tmp), {random} 8
 * characters of a-z, 0-9 and _ (tempfile.mkdtemp), {local_rank} the
 * process's local rank, {uuid4} a random UUID and {free_port} a port the
 * OS picks:
 *   TORCHELASTIC_ERROR_FILE
 *     "{tmpdir}/torchelastic_{random}/none_{random}/attempt_0/{local_rank}/error.json"
 *     (torchrun's --log-dir D replaces "{tmpdir}/torchelastic_{random}" by
 *     D; --log-dir /dev/null makes it "").
 * With N = 1 and master_port 0, torchrun (given no --master-port) runs a
 * c10d rendezvous instead of the static one: "not_reproduced" then also
 * gives MASTER_ADDR "localhost", MASTER_PORT "{free_port}",
 * TORCHELASTIC_RUN_ID "{uuid4}", and {uuid4} replaces "none" in the error
 * file, while "env" keeps the static values above (pass a port to both to
 * match them).
 * Slurm: SLURM_PROCID, SLURM_LOCALID, SLURM_NODEID, SLURM_NTASKS,
 * SLURM_NNODES (+ SLURMD_NODENAME with hosts) and, with hosts, the
 * SLURM_HOSTFILE text for `srun --distribution=arbitrary` (one line per
 * rank); checked against Slurm 22.05's srun by tests/slurm/. SLURM_NODEID
 * is srun's number of the node: without hosts the node rank; with hosts
 * the node's place among the hosts in natural name order ("sn2" before
 * "sn10", "n01" before "n1"), the order slurmctld keeps its nodes in
 * whatever the hostfile's or slurm.conf's order (before 1.3 it was the node
 * rank, which srun gives only for hosts in that order; bug fix). A cluster
 * whose topology plugin ranks its nodes numbers them otherwise.
 * Open MPI (`mpirun --rankfile FILE -np N*P PROGRAM`, no --mca options;
 * checked for every process against Open MPI 4.1.4 by tests/openmpi/): a
 * rankfile ("rank R=HOST slot=L"; without hosts "rank R=+nK slot=L", which
 * needs a resource manager's allocation: plain mpirun refuses "+nK") and
 * OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK, _LOCAL_SIZE, _NODE_RANK (the
 * local rank: one app context), OMPI_UNIVERSE_SIZE (N*P, with mpirun on
 * one of the job's nodes; from a login node, its cores are added),
 * OMPI_APP_CTX_NUM_PROCS (N*P), OMPI_NUM_APP_CTX ("1"), OMPI_FIRST_RANKS
 * ("0"), PMIX_RANK, OMPI_MCA_ess_base_vpid (the rank),
 * OMPI_MCA_orte_ess_node_rank (the local rank), OMPI_MCA_orte_ess_num_procs
 * (N*P), OMPI_MCA_orte_app_num ("0"), OMPI_MCA_orte_bound_at_launch ("1"),
 * OMPI_MCA_mpi_oversubscribe ("0") and the constants HFI_NO_BACKTRACE and
 * IPATH_NO_BACKTRACE ("1"), OMPI_MCA_ess ("^singleton"),
 * OMPI_MCA_orte_launch ("1"), OMPI_MCA_pmix ("^s1,s2,cray,isolated"),
 * OMPI_MCA_shmem_RUNTIME_QUERY_hint ("mmap"), PMIX_BFROP_BUFFER_TYPE
 * ("PMIX_BFROP_BUFFER_NON_DESC"), PMIX_GDS_MODULE ("ds21,ds12,hash"),
 * PMIX_MCA_mca_base_component_show_load_errors ("1") and
 * PMIX_SECURITY_MODE ("native"). Its "not_reproduced" names the variables
 * only the run knows, with rules in which {jobid} and {int} are decimal
 * numbers, {uri} an Open MPI contact ("JOB.VPID;tcp://ADDR:PORT..."),
 * {hex16} 16 hex digits, {tmpdir} $TMPDIR else /tmp, {hostname} the
 * node's host name (gethostname(), domain dropped), {uid} the user's id,
 * {session_dir} "{tmpdir}/ompi.{hostname}.{uid}/pid.N" on mpirun's node
 * and ".../jf.N" elsewhere, {rank} the process's rank, {cwd} mpirun's
 * working directory, {rankfile} the path given to --rankfile, {program}
 * and {args} the program and its arguments, {node_regex} Open MPI's
 * compressed list of the job's node names and {pmix_version} the PMIx
 * library's version. Each --mca NAME VALUE given to mpirun adds
 * OMPI_MCA_NAME to every process; five variables (OMPI_MCA_plm,
 * OMPI_MCA_routed, OMPI_MCA_ess_base_num_procs, OMPI_MCA_orte_node_regex,
 * OMPI_MCA_orte_parent_uri) reach only the nodes whose daemon mpirun
 * started over ssh.
 *
 * Ownership: strings through `char **out` are freed with om_string_free().
 * Thread safety: pure functions of their arguments.
 */
#ifndef OFFLINE_MESH_LAUNCH_H
#define OFFLINE_MESH_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "offline_mesh/attributes.h"
#include "offline_mesh/status.h"
#include "offline_mesh/mesh.h"
#include "offline_mesh/hierarchy.h"

OM_BEGIN_DECLS

/* Launchers whose environment a plan reproduces. Pinned; appended only. */
typedef enum om_launch_format {
    OM_LAUNCH_TORCHRUN = 0,
    OM_LAUNCH_SLURM = 1,
    OM_LAUNCH_OPENMPI = 2
} om_launch_format;

/**
 * The format called `name` ("torchrun", "slurm", "openmpi"). Errors:
 * OM_ERR_INVALID_ARGUMENT (NULL, or an unknown name, listing the known).
 */
OM_API OM_NODISCARD om_status om_launch_format_from_name(
    const char *name, om_launch_format *format, om_error *err);

/**
 * The launch plan of `mesh` as JSON:
 *   {"nodes":[{"node_rank":K,"ranks":[...],"processes":[{"env":{...},
 *   "local_rank":L,"rank":R},...]},...]}
 * (keys sorted; every environment value is a string), plus "host" per node
 * when `hosts` are given, "hostfile" (Slurm, with hosts), "rankfile"
 * (Open MPI) and "not_reproduced" (torchrun and Open MPI, see above) at the top. `master_addr` NULL or "" means "127.0.0.1",
 * `master_port` 0 means 29500 (torchrun's defaults; used by torchrun
 * only). `nhosts` is 0 (no hosts; `hosts` ignored), or exactly `nnodes` distinct
 * names in node-rank order. Validate the job first with om_launch_check():
 * this call only refuses what it cannot write.
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL, a view of part of a job rather
 * than ranks 0..N-1 of one instance (a world's view, a flatten's
 * instances, a slice, an offset; a permuted view of a whole job is fine;
 * since 1.3, a bug fix: such a view gave the plan of a job of one
 * instance's size), nnodes or nproc_per_node < 1, the
 * mesh size differing from nnodes * nproc_per_node, a bad master address
 * or port, for torchrun's static rendezvous (nnodes > 1 or a port given) a
 * master address it refuses: an ASCII byte other than letters, digits,
 * '_', '.', ':' and '-' once one pair of enclosing brackets is dropped
 * ("fe80::1%eth0", "[]"; bytes past ASCII are not checked; since 1.3, a
 * bug fix: the job would not start), hosts that are not nnodes distinct non-empty names without
 * spaces, an unknown format), OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_launch_plan(
    const om_mesh *mesh, int64_t nnodes, int64_t nproc_per_node,
    om_launch_format format, const char *master_addr, int64_t master_port,
    const char *const *hosts, size_t nhosts, char **out, om_error *err);

/**
 * Admission check of a job: every violation at once, one line each (ending
 * in '\n') in `*violations` (caller frees; "" when admissible), their
 * number in `*count`. Violations: the mesh size is not nnodes *
 * nproc_per_node; a level of `hierarchy` named "host" whose domain size
 * differs from nproc_per_node; a uniform level after the host level whose
 * domain size is not a multiple of nproc_per_node (a node would straddle
 * two domains); for an explicit hierarchy of nnodes * nproc_per_node ranks
 * (since 1.3; before, its levels were not checked), the first node whose
 * ranks are in two domains of its host level or of a slower level, and the
 * first host domain holding ranks of two nodes; and each broken rule of
 * `rules` (om_hierarchy_check(), NULL for none). `hierarchy` NULL means
 * "host=P" (P = nproc_per_node). Rules are checked only when the sizes
 * agree. Lines are valid UTF-8 (a long level name is cut, never inside a
 * character).
 * Errors (not violations): OM_ERR_INVALID_ARGUMENT (NULL, a view of part
 * of a job as for om_launch_plan(), nnodes < 1, nproc_per_node outside
 * 1..2^31-1; too many nodes is a violation) and
 * those of om_hierarchy_check() for bad rules.
 */
OM_API OM_NODISCARD om_status om_launch_check(
    const om_mesh *mesh, const om_hierarchy *hierarchy, int64_t nnodes,
    int64_t nproc_per_node, const char *rules, char **violations,
    size_t *count, om_error *err);

OM_END_DECLS

#endif /* OFFLINE_MESH_LAUNCH_H */
