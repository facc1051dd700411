/* Named group lists as strided layouts (preset_internal.h): every list a
 * preset names is the row-major enumeration of a few (size, stride) modes,
 * so building one costs a handful of multiplications whatever the world
 * size, and listing it runs at memory speed through the group kernel. */
#include <stdio.h>
#include <string.h>

#include "preset_internal.h"

static void push_modes(omi_layout *layout, const omi_paxis *axis)
{
    for (size_t m = 0; m < axis->nmodes; m++)
        omi_layout_push(layout, axis->modes[m].size, axis->modes[m].stride);
}

static size_t axis_size(const omi_paxis *axis)
{
    size_t size = 1;
    for (size_t m = 0; m < axis->nmodes; m++)
        size *= (size_t)axis->modes[m].size;
    return size;
}

void omi_pview_list(const omi_pview *view, const char *const *outer,
                    size_t nouter, const char *const *inner, size_t ninner,
                    omi_group_list *out)
{
    memset(out, 0, sizeof *out);
    out->count = out->size = 1;
    for (size_t i = 0; i < nouter; i++) {
        const omi_paxis *axis = &view->axes[omi_pview_axis(view, outer[i])];
        push_modes(&out->outer, axis);
        out->count *= axis_size(axis);
    }
    for (size_t i = 0; i < ninner; i++) {
        const omi_paxis *axis = &view->axes[omi_pview_axis(view, inner[i])];
        push_modes(&out->inner, axis);
        out->size *= axis_size(axis);
    }
}

/* outer then inner as one layout: the whole list's enumeration. */
static void flat_layout(const omi_group_list *list, omi_layout *flat)
{
    flat->n = 0;
    for (size_t i = 0; i < list->outer.n; i++)
        omi_layout_push(flat, list->outer.ax[i].len, list->outer.ax[i].stride);
    for (size_t i = 0; i < list->inner.n; i++)
        omi_layout_push(flat, list->inner.ax[i].len, list->inner.ax[i].stride);
}

void omi_group_list_regroup(const omi_group_list *source, size_t size,
                            omi_group_list *out)
{
    memset(out, 0, sizeof *out);
    flat_layout(source, &out->outer);
    out->base = source->base;
    out->count = source->count * source->size / size;
    out->size = size;
}

/* The one mode of a group's members: (size, stride); stride 0 for a
 * one-member group. */
static omi_axis member_mode(const omi_group_list *source)
{
    if (source->inner.n == 0)
        return (omi_axis){1, 0};
    return source->inner.ax[0];
}

void omi_group_list_split(const omi_group_list *source, size_t processed,
                          size_t split, omi_group_list *out)
{
    memset(out, 0, sizeof *out);
    omi_axis m = member_mode(source);
    int64_t p = (int64_t)processed, s = (int64_t)split;
    int64_t runs = m.len / (p * s);
    /* Member k*p*s + j + i*p of each group: runs k, then j, make the
     * groups; i walks a group. */
    out->outer = source->outer;
    omi_layout_push(&out->outer, runs, p * s * m.stride);
    omi_layout_push(&out->outer, p, m.stride);
    omi_layout_push(&out->inner, s, p * m.stride);
    out->base = source->base;
    out->count = source->count * (size_t)(runs * p);
    out->size = split;
}

void omi_group_list_ends(const omi_group_list *source, bool with_last,
                         omi_group_list *out)
{
    memset(out, 0, sizeof *out);
    omi_axis m = member_mode(source);
    out->outer = source->outer;
    out->base = source->base;
    out->count = source->count;
    out->size = 1;
    if (with_last && m.len > 1) {
        omi_layout_push(&out->inner, 2, (m.len - 1) * m.stride);
        out->size = 2;
    }
}

void omi_group_list_write(const omi_group_list *list, int64_t e0, int64_t e1,
                          int32_t *out)
{
    if (!list->bases) {
        omi_layout flat;
        flat_layout(list, &flat);
        omi_emit(&flat, list->base, e0, e1, out);
        return;
    }
    int64_t size = (int64_t)list->size;
    while (e0 < e1) {
        int64_t g = e0 / size, end = (g + 1) * size < e1 ? (g + 1) * size : e1;
        omi_emit(&list->inner, list->bases[g], e0 - g * size, end - g * size, out);
        out += end - e0;
        e0 = end;
    }
}

static bool same_layout(const omi_layout *a, const omi_layout *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (a->ax[i].len != b->ax[i].len || a->ax[i].stride != b->ax[i].stride)
            return false;
    return true;
}

bool omi_group_list_equal(const omi_group_list *a, const omi_group_list *b)
{
    if (a->count != b->count || a->size != b->size)
        return false;
    if (a->bases || b->bases) {
        if (!a->bases || !b->bases || !same_layout(&a->inner, &b->inner))
            return false;
        return memcmp(a->bases, b->bases, a->count * sizeof *a->bases) == 0;
    }
    /* Normal forms (omi_layout_push) are unique for their enumeration. */
    omi_layout fa, fb;
    flat_layout(a, &fa);
    flat_layout(b, &fb);
    return a->base == b->base && same_layout(&fa, &fb);
}

/* Ranks shown at most in a message. */
#define SHOWN 48

void omi_group_list_format(char *buf, size_t size, const omi_group_list *list)
{
    int32_t ranks[SHOWN];
    int64_t total = (int64_t)(list->count * list->size);
    int64_t n = total < SHOWN ? total : SHOWN, width = (int64_t)list->size;
    omi_group_list_write(list, 0, n, ranks);
    size_t used = 0;
    buf[0] = '\0';
    for (int64_t e = 0; e <= n; e++) {
        char piece[32];
        if (e < n)
            snprintf(piece, sizeof piece, "%s%d",
                     e == 0 ? "[[" : e % width == 0 ? "], [" : ", ", ranks[e]);
        else
            snprintf(piece, sizeof piece, "%s",
                     total == 0 ? "[]" : n == total ? "]]"
                     : n % width == 0 ? "], ...]" : ", ...]]");
        size_t len = strlen(piece);
        if (used + len + 8 >= size) {
            snprintf(buf + used, size - used, " ...");
            return;
        }
        memcpy(buf + used, piece, len + 1);
        used += len;
    }
}
