/* The group kernel: writes a slice of the row-major enumeration of a
 * strided layout run by run from a small precomputed pattern, so bulk
 * group output runs near memory speed for every shape. Compiled at -O3
 * (om_hot). */
#include "internal.h"
#include "topology_layout.h"

/* Pattern capacity: it lives on the stack (16 KiB, so it stays in L1 while
 * it is copied). Runs of 1024 values left the per-run overhead at about a
 * fifth of an in-cache pass; 4096 makes it negligible. */
#define OMI_PATTERN 4096

/* The inner loop runs at memory speed only with wide vector stores:
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
static void add_pattern(int32_t *restrict dst, const int32_t *restrict pattern,
                        int64_t start, int64_t end, int32_t base)
{
    for (int64_t j = start; j < end; j++)
        *dst++ = pattern[j] + base;
}

/* Outputs at least this large (in values: 64 MiB) go to memory with
 * non-temporal stores on x86-64: they exceed the last-level cache of
 * common machines, so an ordinary store would first read each line from
 * DRAM (twice the traffic of the write); memset and memcpy do the same. */
#define OMI_STREAM_VALUES (INT64_C(16) << 20)

#if defined(__x86_64__) && defined(__SSE2__)
#  include <emmintrin.h>
#  define OMI_HAVE_STREAM 1
/* add_pattern() with 16-byte non-temporal stores (SSE2 is part of
 * x86-64, so no clone is needed; the stores are the bottleneck). */
static void add_pattern_stream(int32_t *dst, const int32_t *pattern,
                               int64_t start, int64_t end, int32_t base)
{
    int64_t j = start;
    for (; j < end && ((uintptr_t)dst & 15u) != 0; j++)
        *dst++ = pattern[j] + base;
    __m128i add = _mm_set1_epi32(base);
    for (; j + 4 <= end; j += 4, dst += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(pattern + j));
        _mm_stream_si128((__m128i *)(void *)dst, _mm_add_epi32(v, add));
    }
    for (; j < end; j++)
        *dst++ = pattern[j] + base;
}
#endif

/* dst[i * block + j] = dst[j] + i * stride for 0 < i < count, j < block,
 * by doubling the filled part: a short block repeated many times (a
 * stride-1 axis of thousands of ranks) costs log2(count) vectorised
 * copies, not a call per block. */
static void repeat_block(int32_t *dst, int64_t block, int64_t count, int64_t stride)
{
    for (int64_t done = 1; done < count;) {
        int64_t copy = done < count - done ? done : count - done;
        add_pattern(dst + done * block, dst, 0, copy * block, (int32_t)(done * stride));
        done += copy;
    }
}

/* Writes the prod(len) values of a small layout, row-major, from `base`:
 * the innermost axis as a plain loop, then each axis outward as copies of
 * the block below it plus its stride (repeat_block). */
static void fill_block(const omi_axis *ax, size_t n, int64_t base, int32_t *dst)
{
    if (n == 0) {
        dst[0] = (int32_t)base;
        return;
    }
    const omi_axis *inner = &ax[n - 1];
    for (int64_t i = 0; i < inner->len; i++)
        dst[i] = (int32_t)(base + i * inner->stride);
    int64_t block = inner->len;
    for (size_t a = n - 1; a-- > 0; block *= ax[a].len)
        repeat_block(dst, block, ax[a].len, ax[a].stride);
}

/* The enumeration is cut into rows (one per coordinate of the outer axes,
 * walked by an odometer) and each row into runs copied from one pattern
 * plus an offset. The pattern holds `step` consecutive coordinates of the
 * split axis times the whole block of inner axes below it; the split axis
 * is cut into runs of nearly equal length, the last one shorter when
 * `step` does not divide its length. Every run but the last of a row holds
 * more than a quarter of the pattern whatever the divisors of the axis
 * lengths, so a prime or odd length costs no more than a power of two. */
void omi_emit(const omi_layout *layout, int64_t base, int64_t e0, int64_t e1,
              int32_t *out)
{
    if (e0 >= e1)
        return;
    const omi_axis *ax = layout->ax;
    size_t n = layout->n;
    /* A short slice needs no longer pattern than itself. */
    int64_t capacity = e1 - e0 < OMI_PATTERN ? e1 - e0 : OMI_PATTERN;
    /* Inner axes k..n-1: as many as fit in the pattern whole. */
    int64_t block = 1;
    size_t k = n;
    while (k > 0 && block * ax[k - 1].len <= capacity)
        block *= ax[--k].len;
    /* The split axis ax[k-1] (none when every axis fits) and the outer
     * axes ax[0..outer) above it. */
    size_t outer = k > 0 ? k - 1 : 0;
    int64_t len = 1, stride = 0, step = 1;
    if (k > 0) {
        len = ax[outer].len;
        stride = ax[outer].stride;
        int64_t cap = capacity / block;
        int64_t runs = (len + cap - 1) / cap;
        step = (len + runs - 1) / runs;
    }
    if (k == 0 && e0 == 0 && e1 == block) {
        fill_block(ax, n, base, out); /* the whole table: no pattern copy */
        return;
    }
    int32_t pattern[OMI_PATTERN];
    fill_block(ax + k, n - k, 0, pattern);
    repeat_block(pattern, block, step, stride);

    int64_t row_len = len * block, run_len = step * block;
    /* Position the odometer over the outer axes at the row of e0. */
    int64_t row = e0 / row_len, within = e0 % row_len;
    int64_t coord[OMI_MAX_LAYOUT];
    int64_t row_base = base;
    for (size_t i = outer; i-- > 0;) {
        coord[i] = row % ax[i].len;
        row /= ax[i].len;
        row_base += coord[i] * ax[i].stride;
    }
    int64_t run = within / run_len, start = within % run_len, left = e1 - e0;
#ifdef OMI_HAVE_STREAM
    bool stream = left >= OMI_STREAM_VALUES;
#endif
    while (left > 0) {
        int64_t end = row_len - run * run_len;
        if (end > run_len)
            end = run_len;
        if (end - start > left)
            end = start + left;
        int32_t run_base = (int32_t)(row_base + run * step * stride);
#ifdef OMI_HAVE_STREAM
        if (stream)
            add_pattern_stream(out, pattern, start, end, run_base);
        else
#endif
            add_pattern(out, pattern, start, end, run_base);
        out += end - start;
        left -= end - start;
        start = 0;
        if (++run * run_len >= row_len) {
            run = 0;
            omi_odometer_step(ax, outer, coord, &row_base);
        }
    }
#ifdef OMI_HAVE_STREAM
    if (stream)
        _mm_sfence(); /* the streamed stores are visible before we return */
#endif
}
