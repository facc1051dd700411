/* Rank topology: coordinates, ranks and process groups, computed without
 * any allocation. Groups are produced by one strided enumerator: the ranks
 * of a group slice are the row-major enumeration of an (outside axes,
 * selected axes) transpose of arange(size), written block by block from a
 * small precomputed pattern, so bulk output runs near memory speed. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "topology_layout.h"

/* Inner block size: the pattern lives on the stack (4 KiB). */
#define OMI_PATTERN 1024

/* The two inner loops run at memory speed only with wide vector stores:
 * on x86-64 GCC builds an AVX2 copy beside the baseline one and picks at
 * load time (an ifunc; both copies are local to the library). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    defined(__has_attribute)
#  if __has_attribute(target_clones)
#    define OMI_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#  endif
#endif
#ifndef OMI_VECTOR_CLONES
#  define OMI_VECTOR_CLONES
#endif

/* dst[j - start] = pattern[j] + base for j in start..end-1. */
OMI_VECTOR_CLONES
static void add_pattern(int32_t *dst, const int32_t *pattern, int64_t start,
                        int64_t end, int32_t base)
{
    for (int64_t j = start; j < end; j++)
        *dst++ = pattern[j] + base;
}

/* dst[j - start] = base + j * stride for j in start..end-1. */
OMI_VECTOR_CLONES
static void arithmetic_run(int32_t *dst, int64_t start, int64_t end,
                           int64_t base, int64_t stride)
{
    for (int64_t j = start; j < end; j++)
        *dst++ = (int32_t)(base + j * stride);
}

/* Writes the prod(len) values of a small layout, row-major, from `base`. */
static void fill_block(const omi_axis *ax, size_t n, int64_t base, int32_t *dst)
{
    if (n == 0) {
        dst[0] = (int32_t)base;
        return;
    }
    if (n == 1) {
        for (int64_t i = 0; i < ax[0].len; i++)
            dst[i] = (int32_t)(base + i * ax[0].stride);
        return;
    }
    int64_t inner = 1;
    for (size_t i = 1; i < n; i++)
        inner *= ax[i].len;
    for (int64_t i = 0; i < ax[0].len; i++)
        fill_block(ax + 1, n - 1, base + i * ax[0].stride, dst + i * inner);
}

void omi_emit(const omi_layout *source, int64_t base, int64_t e0, int64_t e1,
              int32_t *out)
{
    if (e0 >= e1)
        return;
    if (source->n == 0) {
        /* Every axis has size 1: the one element is the base itself. */
        out[0] = (int32_t)base;
        return;
    }
    omi_layout l = *source;
    /* Inner axes k..n-1: as many as fit in the pattern. */
    int64_t block = 1;
    size_t k = l.n;
    while (k > 0 && block * l.ax[k - 1].len <= OMI_PATTERN)
        block *= l.ax[--k].len;
    if (k > 0) {
        /* Split the next axis so the pattern grows towards its capacity:
         * (len, s) -> (len/m, m*s), (m, s) with m the largest divisor that
         * fits. Short inner blocks would make the loop overhead dominate. */
        int64_t len = l.ax[k - 1].len, cap = OMI_PATTERN / block, m = 1;
        for (int64_t d = cap < len ? cap : len - 1; d >= 2; d--)
            if (len % d == 0) {
                m = d;
                break;
            }
        if (m > 1) {
            memmove(&l.ax[k + 1], &l.ax[k], (l.n - k) * sizeof l.ax[0]);
            l.ax[k].len = m;
            l.ax[k].stride = l.ax[k - 1].stride;
            l.ax[k - 1].len = len / m;
            l.ax[k - 1].stride *= m;
            l.n++;
            block *= m;
        }
    }
    bool linear = false;
    if (k == l.n) {
        /* The innermost axis alone is too long and cannot be split (a
         * large prime): write it as an arithmetic run instead. */
        k = l.n - 1;
        block = l.ax[k].len;
        linear = true;
    }
    int32_t pattern[OMI_PATTERN];
    if (!linear)
        fill_block(l.ax + k, l.n - k, 0, pattern);

    /* Position the odometer over the outer axes at block e0 / block. */
    int64_t q = e0 / block;
    int64_t coord[OMI_MAX_LAYOUT];
    int64_t block_base = base;
    int64_t rest = q;
    for (size_t i = k; i-- > 0;) {
        coord[i] = rest % l.ax[i].len;
        rest /= l.ax[i].len;
        block_base += coord[i] * l.ax[i].stride;
    }
    int32_t *dst = out;
    int64_t e = e0;
    while (e < e1) {
        int64_t start = e - q * block;
        int64_t end = e1 - q * block < block ? e1 - q * block : block;
        if (linear)
            arithmetic_run(dst, start, end, block_base, l.ax[k].stride);
        else
            add_pattern(dst, pattern, start, end, (int32_t)block_base);
        dst += end - start;
        e = q * block + end;
        q++;
        omi_odometer_step(l.ax, k, coord, &block_base);
    }
}

om_status omi_check_axes(const om_mesh *mesh, uint64_t axes, om_error *err)
{
    if (mesh->ndim < 64 && (axes >> mesh->ndim) != 0) {
        int bit = 63;
        while (!((axes >> bit) & 1u))
            bit--;
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "axis mask 0x%llx selects axis %d but the mesh has %zu "
                        "axes", (unsigned long long)axes, bit, mesh->ndim);
    }
    return OM_OK;
}

/* Writes "dp, cp, tp" (shortened) for messages. */
static void describe_names(const om_mesh *mesh, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < mesh->ndim && o + 8 < size; i++) {
        int n = snprintf(buf + o, size - o, "%s%.40s", i ? ", " : "", mesh->names[i]);
        if (n < 0)
            break;
        o += (size_t)n;
    }
    if (o >= size)
        memcpy(buf + size - 4, "...", 4);
}

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
    if (found < 0) {
        char names[128];
        describe_names(ctx->mesh, names, sizeof names);
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "axis %s is not in the mesh (%s)", quoted, names);
    }
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

om_status om_mesh_coordinate(const om_mesh *mesh, int64_t rank, int64_t *coord,
                             size_t coord_len, om_error *err)
{
    if (!mesh || (!coord && mesh->ndim > 0))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        mesh ? "coordinate buffer" : "mesh");
    om_status st = omi_check_rank(mesh, rank, err);
    if (st != OM_OK)
        return st;
    if (coord_len < mesh->ndim)
        return omi_fail(err, OM_ERR_BUFFER_TOO_SMALL,
                        "coordinate buffer holds %zu values; the mesh has %zu "
                        "axes", coord_len, mesh->ndim);
    if (!mesh->plain) {
        omi_view_coordinate(mesh, rank, coord, NULL);
        return OM_OK;
    }
    for (size_t i = 0; i < mesh->ndim; i++)
        coord[i] = (rank / mesh->strides[i]) % mesh->sizes[i];
    return OM_OK;
}

om_status om_mesh_rank(const om_mesh *mesh, const int64_t *coord,
                       size_t coord_len, int64_t *rank, om_error *err)
{
    if (!mesh || !rank || (!coord && coord_len > 0))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        !mesh ? "mesh" : !rank ? "rank pointer" : "coordinate");
    if (coord_len != mesh->ndim)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "coordinate has %zu values; the mesh has %zu axes",
                        coord_len, mesh->ndim);
    int64_t r = 0;
    for (size_t i = 0; i < mesh->ndim; i++) {
        if (coord[i] < 0 || coord[i] >= mesh->sizes[i])
            return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                            "coordinate %lld is outside axis %.60s of size %lld",
                            (long long)coord[i], mesh->names[i],
                            (long long)mesh->sizes[i]);
        r += coord[i] * mesh->strides[i];
    }
    *rank = mesh->plain ? r : omi_view_rank(mesh, coord);
    return OM_OK;
}

om_status om_mesh_group_shape(const om_mesh *mesh, uint64_t axes,
                              int64_t *group_count, int64_t *group_size,
                              om_error *err)
{
    if (!mesh || !group_count || !group_size)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        mesh ? "out pointer" : "mesh");
    om_status st = omi_check_axes(mesh, axes, err);
    omi_sel sel = {axes, NULL};
    if (st == OM_OK)
        omi_group_shape(mesh, &sel, group_count, group_size);
    return st;
}

static om_status check_buffer(int32_t *out, size_t out_len, int64_t needed,
                              om_error *err)
{
    if ((uint64_t)needed > (uint64_t)out_len)
        return omi_fail(err, OM_ERR_BUFFER_TOO_SMALL,
                        "the result needs %lld elements but the buffer holds %zu",
                        (long long)needed, out_len);
    if (!out && needed > 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "output buffer is NULL");
    return OM_OK;
}

om_status om_mesh_groups(const om_mesh *mesh, uint64_t axes,
                         int64_t first_group, int64_t group_count,
                         int32_t *out, size_t out_len, om_error *err)
{
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    om_status st = omi_check_axes(mesh, axes, err);
    if (st != OM_OK)
        return st;
    int64_t count, size;
    omi_sel sel = {axes, NULL};
    omi_group_shape(mesh, &sel, &count, &size);
    if (first_group < 0 || group_count < 0 || first_group > count ||
        group_count > count - first_group)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "%lld groups from group %lld are outside the %lld "
                        "groups", (long long)group_count,
                        (long long)first_group, (long long)count);
    st = check_buffer(out, out_len, group_count * size, err);
    if (st != OM_OK)
        return st;
    return omi_groups_write(mesh, &sel, first_group, group_count, out, err);
}

om_status om_mesh_group_index(const om_mesh *mesh, uint64_t axes, int64_t rank,
                              int64_t *index, om_error *err)
{
    if (!mesh || !index)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        mesh ? "index pointer" : "mesh");
    om_status st = omi_check_axes(mesh, axes, err);
    if (st == OM_OK)
        st = omi_check_rank(mesh, rank, err);
    if (st != OM_OK)
        return st;
    omi_sel sel = {axes, NULL};
    *index = omi_group_index(mesh, &sel, rank);
    return OM_OK;
}

om_status om_mesh_group_of(const om_mesh *mesh, uint64_t axes, int64_t rank,
                           int32_t *out, size_t out_len, om_error *err)
{
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    om_status st = omi_check_axes(mesh, axes, err);
    if (st == OM_OK)
        st = omi_check_rank(mesh, rank, err);
    if (st != OM_OK)
        return st;
    int64_t count, size;
    omi_sel sel = {axes, NULL};
    omi_group_shape(mesh, &sel, &count, &size);
    st = check_buffer(out, out_len, size, err);
    if (st != OM_OK)
        return st;
    omi_group_members(mesh, &sel, rank, out);
    return OM_OK;
}
