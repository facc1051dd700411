/* Groups of any view over any axis set (VIEWS.md 1): layouts of the modes
 * outside and inside the set, group order ascending by first member, and
 * the group of a rank. The bulk writer itself is omi_emit(). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "topology_layout.h"

void omi_layout_push(omi_layout *layout, int64_t len, int64_t stride)
{
    if (len == 1)
        return;
    if (layout->n > 0 && layout->ax[layout->n - 1].stride == len * stride) {
        layout->ax[layout->n - 1].len *= len;
        layout->ax[layout->n - 1].stride = stride;
        return;
    }
    layout->ax[layout->n].len = len;
    layout->ax[layout->n].stride = stride;
    layout->n++;
}

static bool digit_selected(const om_mesh *mesh, const omi_axis_set *sel,
                           const omi_digit *d)
{
    return d->axis < mesh->ndim && omi_axis_set_has(sel, d->axis);
}

void omi_layout_build(const om_mesh *mesh, const omi_axis_set *sel,
                      bool outside, bool inside, omi_layout *layout)
{
    layout->n = 0;
    if (outside)
        for (size_t j = 0; j < mesh->ndigits; j++)
            if (!digit_selected(mesh, sel, &mesh->digits[j]))
                omi_layout_push(layout, mesh->digits[j].size, mesh->digits[j].stride);
    if (inside)
        for (size_t i = 0; i < mesh->ndim; i++)
            if (omi_axis_set_has(sel, i))
                for (size_t j = mesh->mode_first[i]; j < mesh->mode_first[i + 1]; j++)
                    omi_layout_push(layout, mesh->modes[j].size, mesh->modes[j].stride);
}

void omi_layout_build_sorted(const om_mesh *mesh, const omi_axis_set *sel,
                             omi_layout *layout)
{
    layout->n = 0;
    for (size_t j = 0; j < mesh->ndigits; j++)
            if (digit_selected(mesh, sel, &mesh->digits[j]))
                omi_layout_push(layout, mesh->digits[j].size, mesh->digits[j].stride);
}

bool omi_layout_equal(const omi_layout *a, const omi_layout *b)
{
    return a->n == b->n && (a->n == 0 || memcmp(a->ax, b->ax, a->n * sizeof a->ax[0]) == 0);
}

bool omi_layout_ascending(const omi_layout *layout)
{
    int64_t reach = 0;
    for (size_t i = layout->n; i-- > 0;) {
        if (layout->ax[i].stride <= reach)
            return false;
        reach += (layout->ax[i].len - 1) * layout->ax[i].stride;
    }
    return true;
}

void omi_group_shape(const om_mesh *mesh, const omi_axis_set *sel, int64_t *count,
                     int64_t *size)
{
    int64_t inside = 1;
    for (size_t i = 0; i < mesh->ndim; i++)
        if (omi_axis_set_has(sel, i))
            inside *= mesh->sizes[i];
    *size = inside;
    *count = mesh->instances * (mesh->size / inside);
}

static int compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int64_t *omi_group_bases(const om_mesh *mesh, const omi_layout *outside,
                             int64_t count)
{
    int64_t *bases = omi_malloc((size_t)count * sizeof *bases);
    if (!bases)
        return NULL;
    int64_t coord[OMI_MAX_LAYOUT] = {0};
    int64_t base = mesh->offset;
    for (int64_t g = 0; g < count; g++) {
        bases[g] = base;
        omi_odometer_step(outside->ax, outside->n, coord, &base);
    }
    qsort(bases, (size_t)count, sizeof *bases, compare_int64);
    return bases;
}

om_status omi_groups_write(const om_mesh *mesh, const omi_axis_set *sel,
                           int64_t first, int64_t count, int32_t *out,
                           om_error *err)
{
    int64_t total, size;
    omi_group_shape(mesh, sel, &total, &size);
    omi_layout outside, all;
    omi_layout_build(mesh, sel, true, false, &outside);
    if (mesh->plain || omi_layout_ascending(&outside)) {
        /* Row-major over the outside modes is ascending by first member. */
        omi_layout_build(mesh, sel, true, true, &all);
        omi_emit(&all, mesh->offset, first * size, (first + count) * size, out);
        return OM_OK;
    }
    int64_t *bases = omi_group_bases(mesh, &outside, total);
    if (!bases)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory ordering groups");
    omi_layout inside;
    omi_layout_build(mesh, sel, false, true, &inside);
    for (int64_t g = 0; g < count; g++)
        omi_emit(&inside, bases[first + g], 0, size, out + g * size);
    omi_free(bases);
    return OM_OK;
}

/* Digits of a held rank and the first member of its group. */
static int64_t group_base(const om_mesh *mesh, const omi_axis_set *sel,
                          int64_t rank, int64_t *digits)
{
    omi_view_decode(mesh, rank, digits);
    int64_t base = rank;
    for (size_t j = 0; j < mesh->ndigits; j++)
        if (digit_selected(mesh, sel, &mesh->digits[j]))
            base -= digits[j] * mesh->digits[j].stride;
    return base;
}

int64_t omi_group_index(const om_mesh *mesh, const omi_axis_set *sel, int64_t rank)
{
    int64_t digits[OMI_MAX_DIGITS];
    if (mesh->plain) {
        /* 1.0: row-major over the outside axes. */
        int64_t g = 0;
        for (size_t i = 0; i < mesh->ndim; i++)
            if (!omi_axis_set_has(sel, i))
                g = g * mesh->sizes[i] + (rank / mesh->strides[i]) % mesh->sizes[i];
        return g;
    }
    int64_t base = group_base(mesh, sel, rank, digits);
    omi_layout outside;
    omi_layout_build(mesh, sel, true, false, &outside);
    if (omi_layout_ascending(&outside)) {
        int64_t g = 0;
        for (size_t j = 0; j < mesh->ndigits; j++)
            if (!digit_selected(mesh, sel, &mesh->digits[j]))
                g = g * mesh->digits[j].size + digits[j];
        return g;
    }
    /* Interleaved: count the groups that start below this one. */
    int64_t total, size, below = 0;
    omi_group_shape(mesh, sel, &total, &size);
    int64_t coord[OMI_MAX_LAYOUT] = {0};
    int64_t b = mesh->offset;
    for (int64_t g = 0; g < total; g++) {
        below += b < base;
        omi_odometer_step(outside.ax, outside.n, coord, &b);
    }
    return below;
}

void omi_group_members(const om_mesh *mesh, const omi_axis_set *sel, int64_t rank,
                       int32_t *out)
{
    int64_t digits[OMI_MAX_DIGITS];
    int64_t total, size;
    omi_group_shape(mesh, sel, &total, &size);
    int64_t base = group_base(mesh, sel, rank, digits);
    omi_layout inside;
    omi_layout_build(mesh, sel, false, true, &inside);
    omi_emit(&inside, base, 0, size, out);
}

om_status omi_check_rank(const om_mesh *mesh, int64_t rank, om_error *err)
{
    if (mesh->plain) {
        if (rank < 0 || rank >= mesh->size)
            return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                            "rank %lld is outside the mesh of %lld ranks",
                            (long long)rank, (long long)mesh->size);
        return OM_OK;
    }
    int64_t digits[OMI_MAX_DIGITS];
    if (!omi_view_decode(mesh, rank, digits))
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "rank %lld is not in the view (%lld ranks from %lld "
                        "to %lld)", (long long)rank,
                        (long long)(mesh->instances * mesh->size),
                        (long long)mesh->offset, (long long)(mesh->extent - 1));
    return OM_OK;
}

om_status omi_axis_set_range(const om_mesh *mesh, size_t first, size_t n,
                             omi_axis_set *set, om_error *err)
{
    return omi_axis_set_from_names(mesh, (const char *const *)mesh->names + first,
                                   n, set, err);
}
