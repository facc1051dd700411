/* The group kernel: writes a slice of the row-major enumeration of a
 * strided layout block by block from a small precomputed pattern, so bulk
 * group output runs near memory speed. Compiled at -O3 (om_hot). */
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
