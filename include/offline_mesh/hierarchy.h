/* liboffline_mesh: the physical hierarchy of a cluster and per-level
 * locality of process groups.
 * SPDX-License-Identifier: MIT
 *
 * A hierarchy is an ordered list of levels, fastest first (the GPU itself
 * is implied): e.g. host (8 GPUs share NVLink inside a tray or node), nvl
 * (72 GPUs share an NVLink domain), rack. Each level splits the ranks into
 * domains.
 * - Uniform: "host=8,nvl=72,rack=576" gives the ranks per domain of each
 *   level; rank r is in domain r / k. Sizes strictly increase; a size need
 *   not divide the next one, and the last domain of a level may be partial.
 * - Explicit: each rank's domain at each level comes from a file: a
 *   hostfile with slots (om_hierarchy_from_hostfile()) or JSON with
 *   per-level ids per rank (om_hierarchy_from_json()). Its domains must
 *   nest: two ranks sharing a domain share it at every slower level.
 *
 * Locality of the groups over an axis set, per level: how many groups stay
 * inside one domain, how many cross, the most domains one group spans, and
 * the ranks one group has inside one domain (min and max over the domains
 * it touches, "ppn"), plus the worst group as an example.
 *
 * Ownership: handles through `**out` are the caller's (om_hierarchy_free(),
 * om_locality_free(); both accept NULL); strings through `char **out` are
 * freed with om_string_free(); a `const char *` returned directly is
 * borrowed from its handle.
 *
 * Thread safety: hierarchies and locality reports never change after
 * construction; any number of threads may read one concurrently.
 */
#ifndef OFFLINE_MESH_HIERARCHY_H
#define OFFLINE_MESH_HIERARCHY_H

#include <stddef.h>
#include <stdint.h>

#include "offline_mesh/attributes.h"
#include "offline_mesh/status.h"
#include "offline_mesh/mesh.h"
#include "offline_mesh/dims.h"

OM_BEGIN_DECLS

/* Opaque, immutable hierarchy handle. */
typedef struct om_hierarchy om_hierarchy;

/**
 * Parses a uniform hierarchy "name=ranks_per_domain,..." fastest level
 * first, e.g. "host=8,nvl=72,rack=576". Names are non-empty, distinct UTF-8
 * without '=', ',', ':', '+' or control characters; sizes are integers 1..2^31-1 that strictly
 * increase. Errors: OM_ERR_INVALID_ARGUMENT (NULL, sizes not increasing,
 * a repeated or empty name, an empty spec), OM_ERR_PARSE (an item that is
 * not name=size), OM_ERR_OUT_OF_RANGE (size < 1 or > 2^31-1),
 * OM_ERR_NO_MEMORY. Messages name the offending item.
 */
OM_API OM_NODISCARD om_status om_hierarchy_from_spec(const char *spec,
                                                     om_hierarchy **out,
                                                     om_error *err);

/**
 * Reads an explicit hierarchy from `length` bytes of JSON:
 *   {"levels":["host","nvl"],
 *    "ranks":[{"rank":0,"host":"n0","nvl":"a"},{"rank":1,...},...]}
 * Ids are strings or integers; every rank 0..n-1 (n = entries) appears
 * exactly once and names a domain at every level, nothing else.
 * Errors: OM_ERR_PARSE (malformed JSON, wrong types, an unknown key: a
 * level not in "levels"), OM_ERR_INVALID_ARGUMENT (a rank missing or
 * doubled, a level missing in an entry, an empty id, domains that do not
 * nest, no levels or no ranks, and since 1.3 an integer and a string id of
 * one text in a level, 1 and "1": one domain here, two values to the tool
 * that wrote them; it used to merge them without a word),
 * OM_ERR_NO_MEMORY. Messages name the entry.
 */
OM_API OM_NODISCARD om_status om_hierarchy_from_json(const char *text,
                                                     size_t length,
                                                     om_hierarchy **out,
                                                     om_error *err);

/**
 * Reads an explicit hierarchy from a hostfile of `length` bytes: one host
 * per line, "NAME slots=N" (Open MPI) or "NAME:N" (MPICH), optionally
 * followed by "LEVEL=ID" fields that place the host in slower levels (the
 * same levels on every line). '#' starts a comment. Ranks fill the hosts in
 * file order, N per host, so level 0 is "host".
 * "max_slots=N" (Open MPI's cap, 1..2^31-1 and at least the slots) is
 * checked and otherwise ignored.
 * Errors: OM_ERR_PARSE (a line without a slot count, a bad field, levels
 * differing between lines, a key given twice on a line, a NUL byte or
 * invalid UTF-8), OM_ERR_INVALID_ARGUMENT (a host listed twice, in either
 * form, no hosts, domains that do not nest), OM_ERR_OUT_OF_RANGE (slots or
 * max_slots < 1, max_slots below slots, more than 2^31-1 ranks in all),
 * OM_ERR_NO_MEMORY. Messages give the line. 1.3 bug fix: a key given twice
 * on a line ("a slots=2 slots=4", "a:2 slots=4", "rack=1 rack=2"), and a
 * max_slots that is no count or below slots, used to be accepted (the
 * last value winning); Open MPI 4.1's mpirun refuses them too.
 */
OM_API OM_NODISCARD om_status om_hierarchy_from_hostfile(const char *text,
                                                         size_t length,
                                                         om_hierarchy **out,
                                                         om_error *err);

/** Releases a hierarchy; NULL is a no-op. */
OM_API void om_hierarchy_free(om_hierarchy *hierarchy);

/** Number of levels (>= 1 for every hierarchy built above; 0 for NULL). */
OM_API OM_PURE size_t om_hierarchy_levels(const om_hierarchy *hierarchy);

/** Name of level `level` (borrowed), or NULL when out of range. */
OM_API OM_PURE const char *om_hierarchy_level_name(
    const om_hierarchy *hierarchy, size_t level);

/** Ranks per domain of a uniform level; 0 for explicit hierarchies, NULL
 * or a level out of range. */
OM_API OM_PURE int64_t om_hierarchy_ranks_per_domain(
    const om_hierarchy *hierarchy, size_t level);

/** Ranks an explicit hierarchy describes; 0 for uniform ones (they fit any
 * number of ranks) and NULL. */
OM_API OM_PURE int64_t om_hierarchy_ranks(const om_hierarchy *hierarchy);

/**
 * Index of the level called `name`. Errors: OM_ERR_INVALID_ARGUMENT (NULL,
 * or no such level: "unknown level 'rack' (levels: host, nvl)").
 */
OM_API OM_NODISCARD om_status om_hierarchy_level_index(
    const om_hierarchy *hierarchy, const char *name, size_t *index,
    om_error *err);

/**
 * Domain of `rank` at `level`: r / k for uniform levels, the domain's index
 * in order of first appearance for explicit ones. Errors:
 * OM_ERR_INVALID_ARGUMENT (NULL), OM_ERR_OUT_OF_RANGE (level, or a rank < 0,
 * over 2^31-1 or beyond the ranks of an explicit hierarchy).
 */
OM_API OM_NODISCARD om_status om_hierarchy_domain_of(
    const om_hierarchy *hierarchy, size_t level, int64_t rank,
    int64_t *domain, om_error *err);

/**
 * Label of a domain: the id from the file for explicit hierarchies, its
 * decimal index for uniform ones. Caller frees `*out`. Errors: as
 * om_hierarchy_domain_of() (a domain < 0 or beyond those of the level's
 * 2^31-1 ranks, or of an explicit hierarchy, is OM_ERR_OUT_OF_RANGE), and
 * OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_hierarchy_domain_label(
    const om_hierarchy *hierarchy, size_t level, int64_t domain, char **out,
    om_error *err);

/**
 * The levels as JSON, e.g. [{"name":"host","ranks_per_domain":8},...]
 * (uniform) or [{"domains":4,"name":"host"},...] (explicit). Caller frees.
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL), OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_hierarchy_to_json(
    const om_hierarchy *hierarchy, char **out, om_error *err);

/* ---- locality ---- */

/* Opaque, immutable per-level locality report of one axis set. */
typedef struct om_locality om_locality;

/* Values of a report, per level. Pinned for the 1.x ABI; appended only. */
typedef enum om_locality_field {
    OM_LOCALITY_GROUPS_INSIDE = 0,   /* groups inside one domain */
    OM_LOCALITY_GROUPS_CROSSING = 1, /* groups spanning 2+ domains */
    OM_LOCALITY_MAX_DOMAINS = 2,     /* most domains one group spans */
    OM_LOCALITY_PPN_MIN = 3,         /* fewest ranks of a group in a domain */
    OM_LOCALITY_PPN_MAX = 4,         /* most ranks of a group in a domain */
    OM_LOCALITY_WORST_GROUP = 5,     /* first group spanning max_domains */
    OM_LOCALITY_FIRST_CROSSING = 6,  /* first crossing group, or -1 */
    OM_LOCALITY_CROSSING_RANK = 7    /* in that group, the first rank outside
                                        its first member's domain, or -1 */
} om_locality_field;

/**
 * Per-level locality of the groups over the axis set `axes` (`naxes`
 * names, any order; none selects single-rank groups) of `mesh` in
 * `hierarchy`. Groups are numbered and their members ordered as
 * om_mesh_groups_named() lists them, for any view. An explicit hierarchy
 * must describe exactly the ranks of a plain mesh; any other view (a
 * world's view, a flatten's instances, a slice, strides, an offset) must
 * hold no rank beyond it. (Before 1.3 such views were compared by the
 * ranks of one instance, and their offsets and interleaved strides were
 * ignored: refusals of valid views and wrong counts, fixed.)
 * Time: for uniform levels about one step per group whose base differs
 * modulo the domain size, each walked run by run (never more than the
 * group enumeration); memory O(ndim + levels). Explicit hierarchies walk
 * every member and use O(domains) scratch memory. Views whose strides
 * interleave (groups or members not increasing) visit every member and
 * use O(group size) memory (and O(groups) when the groups interleave).
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL, an explicit hierarchy of another
 * number of ranks than a plain mesh, or short of a view's ranks),
 * OM_ERR_UNKNOWN_AXIS (an axis not in the mesh), OM_ERR_DUPLICATE_NAME (an
 * axis named twice), OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_hierarchy_locality(
    const om_mesh *mesh, const om_hierarchy *hierarchy,
    const char *const *axes, size_t naxes, om_locality **out, om_error *err);

/** Releases a report; NULL is a no-op. */
OM_API void om_locality_free(om_locality *locality);

/** Number of groups of the report's axis set (0 for NULL). */
OM_API OM_PURE int64_t om_locality_groups(const om_locality *locality);

/** Number of levels of the report (that of its hierarchy; 0 for NULL). */
OM_API OM_PURE size_t om_locality_levels(const om_locality *locality);

/**
 * One value of the report at `level`. Errors: OM_ERR_INVALID_ARGUMENT
 * (NULL, unknown field), OM_ERR_OUT_OF_RANGE (level).
 */
OM_API OM_NODISCARD om_status om_locality_get(const om_locality *locality,
                                              size_t level,
                                              om_locality_field field,
                                              int64_t *value, om_error *err);

/**
 * Checks placement rules "AXES:LEVEL,..." against `mesh` in `hierarchy`:
 * each rule requires every group over AXES ('+'-joined axis names, e.g.
 * "cp+tp:nvl") to stay inside one domain of LEVEL ("" or blanks: no
 * rules). Writes one line
 * (ending in '\n') per broken rule, in rule order, to `*violations` (caller
 * frees; "" when all hold) and their number to `*count`: a broken rule is
 * a result, not an error. Each line names the first offending group and
 * the first of its ranks outside its first member's domain, e.g.
 * "tp:host broken: tp group 1 (ranks 6, 7, 8, 9) crosses host domains:
 * rank 8 is in host 1, rank 6 in host 0 (groups span up to 2 domains)".
 * Errors: OM_ERR_INVALID_ARGUMENT (NULL, an unknown level, an empty
 * rule), OM_ERR_PARSE (a rule that is not AXES:LEVEL), and those of
 * om_hierarchy_locality().
 */
OM_API OM_NODISCARD om_status om_hierarchy_check(const om_mesh *mesh,
                                                 const om_hierarchy *hierarchy,
                                                 const char *rules,
                                                 char **violations,
                                                 size_t *count, om_error *err);

/* ---- order advice ---- */

/**
 * Every runtime order of the parallel axes of `dims` (those of size > 1:
 * tp, cp, ep, dp, pp), judged in `hierarchy` with Megatron's layout: the
 * dense generator over tp, cp, dp, pp and the expert generator over tp,
 * ep, expert dp (= world / (tp*ep*pp)), pp; a rule naming ep is judged on
 * the expert one. `require` (must) and `prefer` (should) are rule lists
 * "AXES:LEVEL,..." (NULL or "" for none); `priority` ("tp>ep>cp>pp>dp",
 * NULL or "" for Megatron's default tp>cp>ep>dp>pp; axes it omits follow
 * in the default order) orders the axes whose
 * crossings matter most. Orders are ranked by broken must rules, broken
 * should rules, then, axis by axis in priority order, by the groups that
 * cross each level (slowest level first). Writes JSON
 *   {"orders":[{"broken":[...],"crossings":{"tp":{"host":0,...},...},
 *    "megatron":"tp-cp-dp-pp","torch":"pp,dp,cp,tp"},...],
 *    "rejected":[{"megatron":...,"torch":...,"reason":...},...]}
 * (orders name the axes of size > 1; with none, one order: Megatron's
 * default tp-cp-ep-dp-pp, since 1.3, where it was ""), where rejected
 * orders break one of Megatron's own two rules: pp must be
 * last when the expert data-parallel size differs from dp (ep != cp,
 * pp > 1), and the dense and expert layouts must give the same pp groups
 * (with ep == cp and pp not last, e.g. tp-cp-pp-ep; since 1.3, a bug fix:
 * such orders were ranked, and Megatron refuses them); their keys come
 * in that order (not sorted), as since 1.1.
 * Caller frees `*out`. Errors: OM_ERR_INVALID_ARGUMENT (NULL, a bad
 * priority, a world size tp*ep*pp does not divide, a rule mixing cp and
 * ep), OM_ERR_MESH_TOO_LARGE (tp*cp*dp*pp over 2^31-1, as
 * om_mesh_from_dims(); checked first since 1.3: a product beyond int64
 * used to overflow), those of om_hierarchy_check() for bad rules,
 * OM_ERR_NO_MEMORY.
 */
OM_API OM_NODISCARD om_status om_order_advice(const om_dims *dims,
                                              const om_hierarchy *hierarchy,
                                              const char *require,
                                              const char *prefer,
                                              const char *priority,
                                              char **out, om_error *err);

/**
 * The rules one runtime `order` (either style of om_build_runtime_mesh())
 * breaks, one line each in `*broken` ("" when none; caller frees), their
 * number in `*count`: Megatron's pp-last or pp-group rule, then each broken rule of
 * `require`, judged as om_order_advice() does.
 * Errors: as om_order_advice(), and an order that is malformed or omits
 * an axis of size > 1.
 */
OM_API OM_NODISCARD om_status om_order_check(const om_dims *dims,
                                             const om_hierarchy *hierarchy,
                                             const char *order,
                                             const char *require,
                                             char **broken, size_t *count,
                                             om_error *err);

OM_END_DECLS

#endif /* OFFLINE_MESH_HIERARCHY_H */
