/* Axis sets: from 1.0 bit masks, from 1.1 name arrays and from the 1.0
 * comma-separated text of om_mesh_axes(); and the canonical (mesh-order)
 * indices of a named set. */
#include <stdio.h>
#include <string.h>

#include "axis_set.h"

/* Writes "dp, cp, tp" (shortened) for messages. */
static void describe_names(const om_mesh *mesh, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < mesh->ndim && o + 8 < size; i++) {
        char quoted[48];
        /* Names reach messages escaped, like every other value. */
        omi_quote(quoted, sizeof quoted, mesh->names[i], mesh->name_lens[i]);
        size_t qlen = strlen(quoted);
        int n = snprintf(buf + o, size - o, "%s%.*s", i ? ", " : "",
                         (int)(qlen - 2), quoted + 1);
        if (n < 0)
            break;
        o += (size_t)n;
    }
    if (o >= size)
        memcpy(buf + size - 4, "...", 4);
}

static om_status unknown_axis(const om_mesh *mesh, om_status status,
                              const char *name, size_t len, om_error *err)
{
    char quoted[96], names[128];
    omi_quote(quoted, sizeof quoted, name, len);
    describe_names(mesh, names, sizeof names);
    return omi_fail(err, status, "axis %s is not in the mesh (%s)", quoted, names);
}

static void set_start(omi_axis_set *set, size_t len)
{
    set->len = len;
    set->count = 0;
    set->heap = NULL;
    memset(set->small, 0, len < OMI_AXIS_SET_INLINE ? len : OMI_AXIS_SET_INLINE);
}

om_status omi_axis_set_from_mask(const om_mesh *mesh, uint64_t mask,
                                 omi_axis_set *set, om_error *err)
{
    set_start(set, 0);
    if (mesh->ndim < 64 && (mask >> mesh->ndim) != 0) {
        int bit = 63;
        while (!((mask >> bit) & 1u))
            bit--;
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "axis mask 0x%llx selects axis %d but the mesh has %zu "
                        "axes", (unsigned long long)mask, bit, mesh->ndim);
    }
    set_start(set, mesh->ndim < 64 ? mesh->ndim : 64);
    for (size_t i = 0; i < set->len; i++)
        if ((mask >> i) & 1u) {
            set->small[i] = 1;
            set->count++;
        }
    return OM_OK;
}

om_status omi_axis_set_from_names(const om_mesh *mesh,
                                  const char *const *axes, size_t naxes,
                                  omi_axis_set *set, om_error *err)
{
    set_start(set, 0);
    if (!axes && naxes > 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "axis name array is NULL but naxes is %zu", naxes);
    /* First pass: every name exists; the last index sizes the flags. */
    size_t len = 0;
    for (size_t k = 0; k < naxes; k++) {
        if (!axes[k])
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "axis name %zu is NULL", k);
        size_t name_len = strlen(axes[k]);
        int index = omi_mesh_find(mesh, axes[k], name_len);
        if (index < 0)
            return unknown_axis(mesh, OM_ERR_UNKNOWN_AXIS, axes[k], name_len, err);
        if ((size_t)index + 1 > len)
            len = (size_t)index + 1;
    }
    unsigned char *flags = set->small;
    if (len > OMI_AXIS_SET_INLINE) {
        flags = omi_malloc(len);
        if (!flags)
            return omi_fail(err, OM_ERR_NO_MEMORY,
                            "out of memory selecting %zu axes", naxes);
        memset(flags, 0, len);
    }
    set_start(set, len);
    set->heap = flags == set->small ? NULL : flags;
    for (size_t k = 0; k < naxes; k++) {
        size_t name_len = strlen(axes[k]);
        int index = omi_mesh_find(mesh, axes[k], name_len);
        if (flags[index]) {
            char quoted[96];
            omi_quote(quoted, sizeof quoted, axes[k], name_len);
            omi_axis_set_release(set);
            return omi_fail(err, OM_ERR_DUPLICATE_NAME,
                            "axis %s is named twice", quoted);
        }
        flags[index] = 1;
        set->count++;
    }
    return OM_OK;
}

void omi_axis_set_release(omi_axis_set *set)
{
    omi_free(set->heap);
    set_start(set, 0);
}

/* ---- 1.0: comma-separated names to a bit mask ---- */

typedef struct {
    const om_mesh *mesh;
    uint64_t mask;
    const char *text;
} axes_ctx;

static om_status read_axis(const char *item, size_t len, size_t index,
                           void *vctx, om_error *err)
{
    axes_ctx *ctx = vctx;
    char quoted[96];
    (void)index;
    omi_quote(quoted, sizeof quoted, item, len);
    if (len == 0) {
        char whole[96];
        omi_quote(whole, sizeof whole, ctx->text, strlen(ctx->text));
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "axis list %s has an empty item", whole);
    }
    int found = omi_mesh_find(ctx->mesh, item, len);
    if (found < 0)
        return unknown_axis(ctx->mesh, OM_ERR_INVALID_ARGUMENT, item, len, err);
    if (found >= 64)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "axis %s is at index %d; only the first 64 axes can be "
                        "selected", quoted, found);
    if ((ctx->mask >> found) & 1u)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "axis %s is named twice", quoted);
    ctx->mask |= UINT64_C(1) << found;
    return OM_OK;
}

om_status om_mesh_axes(const om_mesh *mesh, const char *names, uint64_t *mask,
                       om_error *err)
{
    if (!mesh || !names || !mask)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        !mesh ? "mesh" : !names ? "axis list" : "mask pointer");
    *mask = 0;
    const char *p = names;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '\0')
        return OM_OK;
    axes_ctx ctx = {mesh, 0, names};
    om_status st = omi_split(names, ',', read_axis, &ctx, err);
    if (st == OM_OK)
        *mask = ctx.mask;
    return st;
}

/* ---- 1.1: the canonical form of a named set ---- */

om_status om_mesh_axis_indices(const om_mesh *mesh, const char *const *axes,
                               size_t naxes, int64_t *out, size_t out_len,
                               size_t *needed, om_error *err)
{
    if (needed)
        *needed = 0;
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    omi_axis_set set;
    om_status st = omi_axis_set_from_names(mesh, axes, naxes, &set, err);
    if (st != OM_OK)
        return st;
    bool fill;
    st = omi_check_output(out, out_len, set.count, needed, &fill, err);
    if (st == OM_OK && fill) {
        size_t o = 0;
        for (size_t i = 0; i < set.len; i++)
            if (omi_axis_set_has(&set, i))
                out[o++] = (int64_t)i;
    }
    omi_axis_set_release(&set);
    return st;
}
