/* Internal: the hierarchy handle, shared by the hierarchy*.c files. */
#ifndef OFFLINE_MESH_HIERARCHY_INTERNAL_H
#define OFFLINE_MESH_HIERARCHY_INTERNAL_H

#include "internal.h"
#include "offline_mesh/hierarchy.h"

/* One level. Uniform: ranks_per_domain > 0 and no tables. Explicit:
 * ranks_per_domain == 0, domain[r] is rank r's domain index (in order of
 * first appearance) and labels[d] the id the file gave it. */
typedef struct {
    char *name;
    int64_t ranks_per_domain;
    int32_t *domain;
    int64_t ndomains;
    char **labels;
} omi_level;

struct om_hierarchy {
    size_t nlevels;
    omi_level *levels;
    int64_t nranks; /* explicit: ranks described; uniform: 0 */
};

/* The om_locality_field values: a fixed enumeration, not input. */
#define OMI_LOCALITY_FIELDS 8
/* Levels order advice compares. Deeper hierarchies (a JSON one may have
 * any number of levels, a spec 64) are refused naming both counts: real
 * ones have a handful (GPU, NUMA, host, switch, pod). */
#define OMI_MAX_LEVELS_ADVICE 16

/* values[level][field], fields as om_locality_field. */
struct om_locality {
    int64_t groups;
    size_t nlevels;
    int64_t (*values)[OMI_LOCALITY_FIELDS];
};

/* An empty hierarchy of `nlevels` levels, names copied, no tables yet. */
om_status omi_hierarchy_alloc(size_t nlevels, const char *const *names,
                              const size_t *name_lens, int64_t nranks,
                              om_hierarchy **out, om_error *err);

/* Sets level `level` of an explicit hierarchy from one label per rank
 * (labels[r], lens[r]), numbering domains by first appearance. */
om_status omi_hierarchy_set_labels(om_hierarchy *h, size_t level,
                                   const char *const *labels,
                                   const size_t *lens, om_error *err);

/* Checks that explicit domains nest (same domain at level l means same
 * domain at l+1); the message names the two ranks that disagree. */
om_status omi_hierarchy_check_nesting(const om_hierarchy *h, om_error *err);

/* Validates a level name (non-empty, UTF-8, no '=', ',', ':', '+'). */
om_status omi_level_name_check(const char *name, size_t len, om_error *err);

/* Writes up to `max` first members of group `group` over the named axes
 * (group index already checked against the group count). */
om_status omi_group_preview(const om_mesh *mesh, const char *const *axes,
                            size_t naxes, int64_t group, int32_t *out,
                            size_t max, size_t *written, om_error *err);

#endif
