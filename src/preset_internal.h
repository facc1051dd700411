/* liboffline_mesh: what the framework presets share (not public).
 * SPDX-License-Identifier: MIT
 *
 * A preset module validates its framework's parameters with the
 * framework's rules (omi_rules) and describes the views it builds
 * (omi_pview: axes as (size, stride) modes, plus the modes that enumerate
 * its instances) and, where the framework's own list order is the
 * contract, explicit named group lists (omi_group_list). */
#ifndef OFFLINE_MESH_PRESET_INTERNAL_H
#define OFFLINE_MESH_PRESET_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "offline_mesh/preset.h"
#include "topology_layout.h"

/* Fixed sizes, none reachable by a parameter (the scale audit, session 9):
 * names, views, their axes and modes are the preset modules' own, not
 * the caller's: view and axis names are literals, list names at most
 * "hcp[<20 digits>]" (25 bytes); the most views is torchtitan's 6, the
 * most axes 5 (Megatron's generators), the most modes of an axis 2
 * (torchtitan's loss). A run evaluates at most about 15 rules (plus one
 * per view pair that disagrees, none for the presets' own views); past
 * OMI_PRESET_MAX_RULES the count still counts, messages are dropped.
 * The parameter lists and the group lists grow (omi_param_value,
 * om_preset): Megatron takes any number of hierarchical CP levels. */
#define OMI_PRESET_NAME_LEN 32
#define OMI_PRESET_MAX_AXES 8
#define OMI_PRESET_MAX_MODES 4
#define OMI_PRESET_MAX_VIEWS 8
#define OMI_PRESET_MAX_RULES 64

/* ---- parameters ---- */
typedef enum {
    OMI_PARAM_INT,           /* integer (any sign: the rules judge it) */
    OMI_PARAM_INT_OR_NULL,   /* integer or null (null = default) */
    OMI_PARAM_BOOL,
    OMI_PARAM_STRING,
    OMI_PARAM_INT_LIST_OR_NULL
} omi_param_type;

typedef struct {
    const char *key;
    omi_param_type type;
    int64_t default_int;        /* OMI_PARAM_INT, OMI_PARAM_BOOL (0/1) */
    const char *default_string; /* OMI_PARAM_STRING */
    const char *alias;          /* the usual short name ("tp"), suggested */
} omi_param_spec;

typedef struct {
    bool given;
    bool is_null;
    int64_t integer; /* INT, BOOL (0/1) */
    char string[64];
    /* OMI_PARAM_INT_LIST_OR_NULL: as many items as given (Megatron takes
     * any number of hierarchical_context_parallel_sizes: levels of size 1
     * cost nothing there). Owned: omi_preset_free_params(). */
    int64_t *list;
    size_t list_len, list_cap;
} omi_param_value;

/* ---- rules ---- */
/* Collects the rule violations of one preset run. In build mode the first
 * violation stops the run; in check mode every rule that can still be
 * evaluated runs. */
typedef struct {
    bool collect;
    size_t count;
    char messages[OMI_PRESET_MAX_RULES][OM_ERROR_MESSAGE_SIZE];
} omi_rules;

/* Records a violation unless `holds`. Returns true when the preset may go
 * on evaluating rules: always when the rule holds; after a violation only
 * in check mode and only when later rules do not depend on this one
 * (`fatal` false). */
bool omi_rule(omi_rules *rules, bool holds, bool fatal, const char *fmt, ...)
    OMI_PRINTF(4, 5);

/* ---- the description of a view (omi_mode: internal.h) ---- */

typedef struct {
    char name[OMI_PRESET_NAME_LEN];
    /* The axis's name among the world's views ("" = left out of the world:
     * a size-1 placeholder). Megatron reuses tp/dp/cp/ep in its two
     * generators with other meanings; the world names tell them apart. */
    char world_name[OMI_PRESET_NAME_LEN];
    omi_mode modes[OMI_PRESET_MAX_MODES];
    size_t nmodes;
} omi_paxis;

enum {
    OMI_VIEW_RAW_LAYOUT = 1, /* layout printed as built (size-1 modes kept),
                                as Megatron's and DeepSpeed's generators */
    OMI_VIEW_INSTANCES = 2,  /* the JSON lists "instances" (torch views) */
    OMI_VIEW_NO_GROUPS = 4   /* the JSON has no "groups" (DeepSpeed: its
                                lists are the top-level named groups) */
};

typedef struct {
    char name[OMI_PRESET_NAME_LEN];
    omi_paxis axes[OMI_PRESET_MAX_AXES];
    size_t naxes;
    /* The coordinates outside the view: one instance per combination. */
    omi_mode inst[OMI_PRESET_MAX_AXES];
    size_t ninst;
    unsigned flags;
    char order[64]; /* Megatron: the order string after completion */
} omi_pview;

/* A group list as a strided layout, never as ranks: the row-major
 * enumeration of `outer` then `inner` from `base` is the list, group after
 * group (`outer` walks the groups' first members, `inner` a group's
 * members from its first). Views whose groups are not in that order by
 * themselves (interleaved strides) keep every group's first member in
 * `bases` instead (then `outer` is empty). Building and listing cost no
 * per-rank work; the group kernel (omi_emit) writes the ranks. */
typedef struct {
    char name[OMI_PRESET_NAME_LEN];
    omi_layout outer;
    omi_layout inner;
    int64_t base;
    int64_t *bases; /* NULL, or `count` first members (owned) */
    size_t count;
    size_t size;
} omi_group_list;

/* A torchtitan single-axis mesh (get_mesh / get_optional_mesh keys). */
typedef struct {
    char name[OMI_PRESET_NAME_LEN];     /* torchtitan's key ("loss") */
    char mesh_dim[OMI_PRESET_NAME_LEN]; /* torch's axis name ("loss_mesh") */
    char view[OMI_PRESET_NAME_LEN];     /* the view it comes from */
    int64_t size;
    bool fake_backed;   /* its process group has the "fake" backend */
    bool optional_none; /* get_optional_mesh returns None (not _mesh_exist) */
} omi_single_axis;

/* torchtitan's get_mesh keys: a fixed set, at most 10 (not caller input). */
#define OMI_PRESET_MAX_SINGLE 12

/* A per-rank local rank the framework computes from its views
 * (hyper-parallel's dp_rank, ...): the rank's coordinate on axis `axis`
 * of view `view`, with `axis` < 0 the index of the view's instance that
 * holds the rank (the PP stage); `view` < 0 (the view is not built): 0. */
typedef struct {
    char key[OMI_PRESET_NAME_LEN]; /* "dp_rank" */
    int view;
    int axis;
} omi_local_rank;

/* Local-rank keys: a fixed set per preset (hyper-parallel's 5 at most). */
#define OMI_PRESET_MAX_LOCAL 8

struct om_preset {
    char name[OMI_PRESET_NAME_LEN];
    int64_t world;
    omi_single_axis single[OMI_PRESET_MAX_SINGLE];
    size_t nsingle;
    omi_pview views[OMI_PRESET_MAX_VIEWS];
    size_t nviews;
    omi_group_list *lists; /* grown by omi_preset_add_list */
    size_t nlists, lists_cap;
    omi_local_rank local[OMI_PRESET_MAX_LOCAL]; /* sorted by key */
    size_t nlocal;
};

/* One framework: its parameters and its run (rules, then the views). */
typedef struct {
    const char *name;
    const omi_param_spec *params;
    size_t nparams;
    /* Evaluates the rules into `rules`; when none failed, describes the
     * views and lists into `preset`. Returns a status only for failures
     * that are not rules (memory). */
    om_status (*run)(const omi_param_value *values, int64_t world,
                     omi_rules *rules, om_preset *preset, om_error *err);
} omi_preset_def;

extern const omi_preset_def omi_preset_torchtitan;
extern const omi_preset_def omi_preset_megatron;
extern const omi_preset_def omi_preset_deepspeed;
extern const omi_preset_def omi_preset_hyper_parallel;

/* Reads the "KEY=VALUE" parameters against `def->params` (out[i] for
 * def->params[i], defaults for absent keys) and the world size: `*world`
 * > 0 is the caller's, 0 takes the "world_size" parameter. */
om_status omi_preset_read_params(const omi_preset_def *def,
                                 const char *const *params, size_t nparams,
                                 int64_t *world, omi_param_value *out,
                                 om_error *err);
/* Releases the lists of values read by omi_preset_read_params (also after
 * it failed). */
void omi_preset_free_params(omi_param_value *values, size_t n);

/* ---- building descriptions (preset.c) ---- */
/* Product of sizes, saturated at 2^31 (beyond any world size, so it then
 * divides none). */
int64_t omi_preset_product(const int64_t *values, size_t n);
/* Appends a view of `naxes` row-major axes over `sizes` placed at
 * `strides` (NULL: the suffix products, a plain mesh of the world). */
omi_pview *omi_preset_add_view(om_preset *preset, const char *name,
                               const char *const *names, const int64_t *sizes,
                               const int64_t *strides, size_t naxes);
/* Appends a named group list taking ownership of `list->bases`. */
om_status omi_preset_add_list(om_preset *preset, const char *name,
                              omi_group_list *list, om_error *err);
/* The list called `name`, or NULL. */
const omi_group_list *omi_preset_find_list(const om_preset *preset,
                                           const char *name);
/* Index of the view axis called `name`, or -1. */
int omi_pview_axis(const omi_pview *view, const char *name);
/* Appends local rank `key` (keys in ascending order): the coordinate on
 * `axis` of view `view` (NULL: always 0), `axis` NULL for the index of
 * the view's instance holding the rank. */
void omi_preset_add_local_rank(om_preset *preset, const char *key,
                               const char *view, const char *axis);

/* ---- the described views made real (preset_views.c) ---- */
/* The view as an om_mesh view (view.h): under its axes' own names, or
 * (`world_names`) under their names in the world, placeholders left out. */
om_status omi_pview_mesh(const omi_pview *view, bool world_names, om_mesh **out,
                         om_error *err);
/* The groups over the named axes (any order; canonicalised to view
 * order), over every instance, ascending by first member; members
 * row-major over the axes in view order. Names not in the view are an
 * error. `out->name` is left empty; release it with omi_group_list_free(). */
om_status omi_pview_groups(const omi_pview *view, const char *const *axes,
                           size_t naxes, omi_group_list *out, om_error *err);
/* ---- group lists as layouts (preset_groups.c) ---- */
/* The groups of a view of one-mode axes (Megatron's and DeepSpeed's
 * generators) in an explicit order: groups enumerated row-major over the
 * `outer` axes as named (first slowest), members row-major over the
 * `inner` axes as named. Every axis of the view of size > 1 must be named
 * once; names are the view's own. */
void omi_pview_list(const omi_pview *view, const char *const *outer,
                    size_t nouter, const char *const *inner, size_t ninner,
                    omi_group_list *out);
/* The same ranks in the same order cut into groups of `size` (chunks of
 * each group, or runs of consecutive groups joined). */
void omi_group_list_regroup(const omi_group_list *source, size_t size,
                            omi_group_list *out);
/* Megatron's create_hierarchical_groups level: every group of `source`
 * (members one strided mode, as an axis group of a generator) cut into
 * runs of `processed * split` members, and in each run every
 * `processed`-th member from each of the first `processed` ones: groups
 * of `split` ranks. */
void omi_group_list_split(const omi_group_list *source, size_t processed,
                          size_t split, omi_group_list *out);
/* For each group its first member, and its last one when `with_last` and
 * the group has more than one (Megatron's embedding groups). */
void omi_group_list_ends(const omi_group_list *source, bool with_last,
                         omi_group_list *out);
/* Writes ranks e0 .. e1-1 of the list's enumeration (group g's member m is
 * rank g * size + m) to `out`. */
void omi_group_list_write(const omi_group_list *list, int64_t e0, int64_t e1,
                          int32_t *out);
/* True when both lists hold the same groups in the same order (exact: the
 * normal form of a layout is unique for its enumeration). */
bool omi_group_list_equal(const omi_group_list *a, const omi_group_list *b);
/* "[[0, 8], [1, 9], ...]" as Python prints a list of lists, shortened to
 * fit `size`. */
void omi_group_list_format(char *buf, size_t size, const omi_group_list *list);

/* The consistency rule of a world: views sharing an axis (world) name
 * must give the same group to every rank. Each disagreement found (the
 * first rank per pair of views) goes into `rules`. */
om_status omi_preset_check_consistency(const om_preset *preset,
                                       omi_rules *rules, om_error *err);

void omi_group_list_free(omi_group_list *list);

#endif
