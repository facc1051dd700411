/* Groups and coordinates of a described preset view: every mode outside
 * the chosen axes (instance modes included) picks a group, the chosen
 * axes' modes enumerate its members row-major. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preset_internal.h"

#define OMI_ENUM_MAX_MODES (OMI_PRESET_MAX_AXES * (OMI_PRESET_MAX_MODES + 1))

typedef struct {
    omi_mode modes[OMI_ENUM_MAX_MODES];
    size_t count;
    int64_t product;
} mode_list;

static void push_modes(mode_list *list, const omi_mode *modes, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        list->modes[list->count++] = modes[i];
        list->product *= modes[i].size;
    }
}

/* Offsets of every digit combination of `list`, row-major. */
static void offsets(const mode_list *list, int64_t *out)
{
    out[0] = 0;
    int64_t filled = 1;
    /* Fastest mode last: expand from the slowest so the result stays
     * row-major. */
    for (size_t m = 0; m < list->count; m++) {
        int64_t size = list->modes[m].size, stride = list->modes[m].stride;
        for (int64_t i = filled - 1; i >= 0; i--)
            for (int64_t d = size - 1; d >= 0; d--)
                out[i * size + d] = out[i] + d * stride;
        filled *= size;
    }
}

static int compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

om_status omi_pview_groups(const omi_pview *view, const char *const *axes,
                           size_t naxes, omi_group_list *out, om_error *err)
{
    memset(out, 0, sizeof *out);
    bool chosen[OMI_PRESET_MAX_AXES] = {false};
    for (size_t i = 0; i < naxes; i++) {
        int index = omi_pview_axis(view, axes[i]);
        if (index < 0)
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "view '%s' has no axis '%s'", view->name, axes[i]);
        chosen[index] = true;
    }
    mode_list inside = {.product = 1}, outside = {.product = 1};
    push_modes(&outside, view->inst, view->ninst);
    for (size_t a = 0; a < view->naxes; a++)
        push_modes(chosen[a] ? &inside : &outside, view->axes[a].modes,
                   view->axes[a].nmodes);
    int64_t *bases = omi_malloc((size_t)outside.product * sizeof *bases);
    int64_t *members = omi_malloc((size_t)inside.product * sizeof *members);
    int32_t *ranks = omi_malloc((size_t)(outside.product * inside.product) *
                                sizeof *ranks);
    if (!bases || !members || !ranks) {
        omi_free(bases);
        omi_free(members);
        omi_free(ranks);
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory listing groups");
    }
    offsets(&outside, bases);
    offsets(&inside, members);
    qsort(bases, (size_t)outside.product, sizeof *bases, compare_int64);
    for (int64_t g = 0; g < outside.product; g++)
        for (int64_t m = 0; m < inside.product; m++)
            ranks[g * inside.product + m] = (int32_t)(bases[g] + members[m]);
    omi_free(bases);
    omi_free(members);
    out->ranks = ranks;
    out->count = (size_t)outside.product;
    out->size = (size_t)inside.product;
    return OM_OK;
}

om_status omi_pview_coords(const omi_pview *view, int64_t world,
                           int64_t *coords, om_error *err)
{
    const char *names[OMI_PRESET_MAX_AXES];
    for (size_t a = 0; a < view->naxes; a++)
        names[a] = view->axes[a].name;
    omi_group_list instances;
    om_status st = omi_pview_groups(view, names, view->naxes, &instances, err);
    if (st != OM_OK)
        return st;
    for (int64_t i = 0; i < world * (int64_t)view->naxes; i++)
        coords[i] = -1;
    for (size_t g = 0; g < instances.count; g++) {
        for (size_t m = 0; m < instances.size; m++) {
            int64_t rank = instances.ranks[g * instances.size + m];
            if (rank < 0 || rank >= world)
                continue;
            size_t rest = m;
            for (size_t a = view->naxes; a-- > 0;) {
                size_t size = 1;
                for (size_t k = 0; k < view->axes[a].nmodes; k++)
                    size *= (size_t)view->axes[a].modes[k].size;
                coords[rank * (int64_t)view->naxes + (int64_t)a] =
                    (int64_t)(rest % size);
                rest /= size;
            }
        }
    }
    omi_group_list_free(&instances);
    return OM_OK;
}

/* "[1, 3]" for the group at `members` (shortened to fit). */
static void format_group(char *buf, size_t size, const int32_t *members,
                         size_t count)
{
    size_t used = (size_t)snprintf(buf, size, "[");
    for (size_t i = 0; i < count && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%d", i ? ", " : "",
                                 members[i]);
    if (used < size)
        snprintf(buf + used, size - used, "]");
}

/* Index of the group holding each rank (-1: none). */
static void owners(const omi_group_list *groups, int64_t world, int64_t *owner)
{
    for (int64_t r = 0; r < world; r++)
        owner[r] = -1;
    for (size_t g = 0; g < groups->count; g++)
        for (size_t m = 0; m < groups->size; m++)
            owner[groups->ranks[g * groups->size + m]] = (int64_t)g;
}

static om_status compare_axis(const omi_pview *a, const omi_paxis *axis_a,
                              const omi_pview *b, const omi_paxis *axis_b,
                              int64_t world, omi_rules *rules, om_error *err)
{
    const char *name_a = axis_a->name, *name_b = axis_b->name;
    omi_group_list ga, gb;
    om_status st = omi_pview_groups(a, &name_a, 1, &ga, err);
    if (st != OM_OK)
        return st;
    st = omi_pview_groups(b, &name_b, 1, &gb, err);
    int64_t *owner_a = omi_malloc((size_t)world * 2 * sizeof *owner_a);
    if (st == OM_OK && !owner_a)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory comparing views");
    if (st == OM_OK) {
        int64_t *owner_b = owner_a + world;
        owners(&ga, world, owner_a);
        owners(&gb, world, owner_b);
        for (int64_t r = 0; r < world; r++) {
            if (owner_a[r] < 0 || owner_b[r] < 0)
                continue;
            const int32_t *ma = ga.ranks + owner_a[r] * (int64_t)ga.size;
            const int32_t *mb = gb.ranks + owner_b[r] * (int64_t)gb.size;
            if (ga.size == gb.size && memcmp(ma, mb, ga.size * sizeof *ma) == 0)
                continue;
            char text_a[96], text_b[96];
            format_group(text_a, sizeof text_a, ma, ga.size);
            format_group(text_b, sizeof text_b, mb, gb.size);
            omi_rule(rules, false, false,
                     "views '%s' and '%s' disagree on axis '%s': rank %lld is "
                     "in %s in '%s' and in %s in '%s'",
                     a->name, b->name, axis_a->world_name, (long long)r, text_a,
                     a->name, text_b, b->name);
            break;
        }
    }
    omi_free(owner_a);
    omi_group_list_free(&ga);
    omi_group_list_free(&gb);
    return st;
}

om_status omi_preset_check_consistency(const om_preset *preset,
                                       omi_rules *rules, om_error *err)
{
    for (size_t i = 0; i < preset->nviews; i++)
        for (size_t j = i + 1; j < preset->nviews; j++)
            for (size_t x = 0; x < preset->views[i].naxes; x++) {
                const omi_paxis *axis = &preset->views[i].axes[x];
                if (!axis->world_name[0])
                    continue;
                for (size_t y = 0; y < preset->views[j].naxes; y++) {
                    const omi_paxis *other = &preset->views[j].axes[y];
                    if (strcmp(axis->world_name, other->world_name) != 0)
                        continue;
                    om_status st = compare_axis(&preset->views[i], axis,
                                                &preset->views[j], other,
                                                preset->world, rules, err);
                    if (st != OM_OK)
                        return st;
                }
            }
    return OM_OK;
}
