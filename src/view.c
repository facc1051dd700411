/* Views (view.h): construction from modes, normal form, validity and the
 * accessors of the layout. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* *out = a * b when the product fits in int64_t (CERT INT32-C's test). */
static bool mul_exact(int64_t a, int64_t b, int64_t *out)
{
    bool over = a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
                      : (b > 0 ? a < INT64_MIN / b : a != 0 && b < INT64_MAX / a);
    if (!over)
        *out = a * b;
    return !over;
}

/* Normal form of one axis's modes, in place: drops size-1 modes and merges
 * (s1,d1),(s2,d2) with d1 == s2*d2 into (s1*s2, d2). Returns the count.
 * It runs before the modes are validated, so products that do not fit are
 * not merged (the validation refuses such sizes and strides). */
static size_t normalise(omi_mode *m, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (m[i].size == 1)
            continue;
        int64_t span, size;
        if (k > 0 && mul_exact(m[i].size, m[i].stride, &span) &&
            m[k - 1].stride == span && mul_exact(m[k - 1].size, m[i].size, &size)) {
            m[k - 1].size = size;
            m[k - 1].stride = m[i].stride;
            continue;
        }
        m[k++] = m[i];
    }
    return k;
}

/* Instance modes: sorted by stride, largest first, then normalised. */
static size_t normalise_instances(omi_mode *m, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        omi_mode x = m[i];
        size_t j = i;
        while (j > 0 && m[j - 1].stride < x.stride) {
            m[j] = m[j - 1];
            j--;
        }
        m[j] = x;
    }
    return normalise(m, n);
}

void omi_squote(char *buf, size_t size, const char *s, size_t len)
{
    omi_quote(buf, size, s, len);
    char *last = strrchr(buf, '"');
    if (buf[0] == '"' && last && last != buf) {
        buf[0] = '\'';
        *last = '\'';
    }
}

/* Views name a repeated axis as VIEWS.md does: "duplicate axis name 'tp'". */
static om_status check_unique(const char *const *names, const size_t *lens,
                              size_t ndim, om_error *err)
{
    if (ndim > 64)
        return OM_OK; /* the 1.0 check (sorted, O(n log n)) reports it */
    for (size_t i = 0; i < ndim; i++)
        for (size_t j = 0; j < i; j++)
            if (names[i] && names[j] && lens[i] == lens[j] &&
                memcmp(names[i], names[j], lens[i]) == 0) {
                char quoted[96];
                omi_squote(quoted, sizeof quoted, names[i], lens[i]);
                return omi_fail(err, OM_ERR_DUPLICATE_NAME,
                                "duplicate axis name %s", quoted);
            }
    return OM_OK;
}

void omi_format_coord(char *buf, size_t size, const int64_t *coord, size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i <= n && o + 1 < size; i++) {
        int w = i == n ? snprintf(buf + o, size - o, ")")
                       : snprintf(buf + o, size - o, "%s%lld", i ? "," : "(",
                                  (long long)coord[i]);
        if (w < 0)
            break;
        o += (size_t)w;
    }
    if (n == 0)
        snprintf(buf, size, "()");
}

static om_status collision(const om_mesh *m, int64_t rank, const int64_t *d1,
                           const int64_t *d2, om_error *err)
{
    int64_t c1[64], c2[64], i1, i2;
    size_t shown = m->ndim < 64 ? m->ndim : 64;
    char a[96], b[96];
    if (m->ndim <= 64) {
        omi_view_digits_coord(m, d1, c1, &i1);
        omi_view_digits_coord(m, d2, c2, &i2);
    } else {
        i1 = i2 = 0;
        shown = 0;
    }
    omi_format_coord(a, sizeof a, c1, shown);
    omi_format_coord(b, sizeof b, c2, shown);
    if (m->ninst > 0 && i1 != i2)
        return omi_fail(err, OM_ERR_RANK_COLLISION,
                        "rank %lld appears twice: coords %s in instance %lld "
                        "and %s in instance %lld", (long long)rank, a,
                        (long long)i1, b, (long long)i2);
    return omi_fail(err, OM_ERR_RANK_COLLISION,
                    "rank %lld appears twice: coords %s and %s",
                    (long long)rank, a, b);
}

/* All ranks distinct: free when the digits nest, else a bitmap over the
 * extent (only for layouts torch would refuse anyway). */
static om_status check_distinct(const om_mesh *m, om_error *err)
{
    if (m->nested)
        return OM_OK;
    size_t words = (size_t)((m->extent + 63) / 64);
    uint64_t *seen = omi_malloc(words * sizeof *seen);
    int64_t *d = omi_malloc((m->ndigits + 1) * sizeof *d);
    int64_t *d1 = omi_malloc((m->ndigits + 1) * sizeof *d1);
    if (!seen || !d || !d1) {
        omi_free(seen);
        omi_free(d);
        omi_free(d1);
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory checking a view");
    }
    memset(seen, 0, words * sizeof *seen);
    memset(d, 0, (m->ndigits + 1) * sizeof *d);
    om_status st = OM_OK;
    int64_t rank = m->offset;
    do {
        uint64_t bit = UINT64_C(1) << (rank % 64);
        if (seen[rank / 64] & bit) {
            /* Find the first combination that reached this rank. */
            int64_t r1 = m->offset;
            memset(d1, 0, (m->ndigits + 1) * sizeof *d1);
            while (r1 != rank)
                omi_view_digits_step(m, d1, &r1);
            st = collision(m, rank, d1, d, err);
            break;
        }
        seen[rank / 64] |= bit;
    } while (omi_view_digits_step(m, d, &rank));
    omi_free(seen);
    omi_free(d);
    omi_free(d1);
    return st;
}

/* Strides >= 1 and every rank inside [0, 2^31-1]. */
static om_status check_ranks(const char *const *names, const size_t *lens,
                             size_t ndim,
                             const size_t *counts, const omi_mode *modes,
                             const omi_mode *inst, size_t ninst,
                             int64_t offset, om_error *err)
{
    if (offset < 0 || offset > OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "view offset %lld is outside 0..2^31-1",
                        (long long)offset);
    int64_t reach = offset;
    size_t k = 0;
    for (size_t i = 0; i <= ndim; i++) {
        size_t n = i < ndim ? counts[i] : ninst;
        const omi_mode *list = i < ndim ? modes + k : inst;
        for (size_t j = 0; j < n; j++) {
            char who[96];
            if (i < ndim)
                omi_squote(who, sizeof who, names[i], lens[i]);
            if (list[j].stride < 1 || list[j].stride > OMI_MAX_INT32)
                return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                                "%s%s has stride %lld; strides must be 1..2^31-1",
                                i < ndim ? "axis " : "an instance mode",
                                i < ndim ? who : "", (long long)list[j].stride);
            reach += (list[j].size - 1) * list[j].stride;
            if (reach > OMI_MAX_INT32)
                return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                                "%s%s reaches rank %lld, beyond 2^31-1",
                                i < ndim ? "axis " : "an instance mode",
                                i < ndim ? who : "", (long long)reach);
        }
        if (i < ndim)
            k += n;
    }
    return OM_OK;
}

om_status omi_view_create(const char *const *names, const size_t *name_lens,
                          size_t ndim, const size_t *mode_counts,
                          const omi_mode *modes_in, const omi_mode *inst_in,
                          size_t ninst, int64_t offset, om_mesh **out,
                          om_error *err)
{
    *out = NULL;
    size_t nmodes = 0;
    for (size_t i = 0; i < ndim; i++)
        nmodes += mode_counts[i];
    omi_mode *modes = omi_malloc((nmodes + ninst + 1) * sizeof *modes);
    size_t *counts = omi_malloc((ndim + 1) * sizeof *counts);
    int64_t *sizes = omi_malloc((ndim + 1) * sizeof *sizes);
    if (!modes || !counts || !sizes) {
        omi_free(modes);
        omi_free(counts);
        omi_free(sizes);
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating a view");
    }
    om_status st = OM_OK;
    /* Axis sizes: mode sizes must be >= 1 and multiply within 2^31-1. */
    size_t k = 0, kept = 0;
    for (size_t i = 0; i < ndim && st == OM_OK; i++) {
        int64_t size = 1;
        for (size_t j = 0; j < mode_counts[i] && st == OM_OK; j++) {
            omi_mode md = modes_in[k + j];
            if (md.size < 1 || md.size > OMI_MAX_INT32 / size) {
                char quoted[96];
                omi_squote(quoted, sizeof quoted, names[i] ? names[i] : "",
                          names[i] ? name_lens[i] : 0);
                st = omi_fail(err, md.size < 1 ? OM_ERR_BAD_SIZE
                                               : OM_ERR_MESH_TOO_LARGE,
                              md.size < 1 ? "axis %s has a mode of size %lld; "
                                            "sizes must be >= 1"
                                          : "axis %s has a mode of size %lld; "
                                            "its size exceeds 2^31-1",
                              quoted, (long long)md.size);
            } else {
                size *= md.size;
            }
        }
        sizes[i] = size;
        memcpy(modes + kept, modes_in + k, mode_counts[i] * sizeof *modes);
        counts[i] = normalise(modes + kept, mode_counts[i]);
        kept += counts[i];
        k += mode_counts[i];
    }
    if (st == OM_OK)
        st = omi_mesh_validate(names, name_lens, sizes, ndim, err);
    if (st == OM_ERR_DUPLICATE_NAME)
        st = check_unique(names, name_lens, ndim, err);
    omi_mode *inst = modes + kept;
    size_t ni = 0;
    for (size_t j = 0; j < ninst && st == OM_OK; j++) {
        if (inst_in[j].size < 1)
            st = omi_fail(err, OM_ERR_BAD_SIZE,
                          "an instance mode has size %lld; sizes must be >= 1",
                          (long long)inst_in[j].size);
        else if (inst_in[j].size > OMI_MAX_INT32)
            st = omi_fail(err, OM_ERR_OUT_OF_RANGE,
                          "an instance mode has size %lld, beyond 2^31-1",
                          (long long)inst_in[j].size);
        inst[ni++] = inst_in[j];
    }
    if (st == OM_OK) {
        ni = normalise_instances(inst, ni);
        int64_t total = 1;
        for (size_t i = 0; i < ndim; i++)
            total *= sizes[i];
        for (size_t j = 0; j < ni && st == OM_OK; j++) {
            if (inst[j].size > OMI_MAX_INT32 / total)
                st = omi_fail(err, OM_ERR_MESH_TOO_LARGE,
                              "the view's instances hold more than 2^31-1 "
                              "ranks (%lld ranks times an instance mode of "
                              "size %lld)", (long long)total,
                              (long long)inst[j].size);
            else
                total *= inst[j].size;
        }
    }
    if (st == OM_OK) {
        st = check_ranks(names, name_lens, ndim, counts, modes, inst, ni, offset, err);
    }
    om_mesh *m = NULL;
    if (st == OM_OK)
        st = omi_mesh_assemble(names, name_lens, ndim, sizes, counts, modes,
                               inst, ni, offset, &m, err);
    if (st == OM_OK && (st = check_distinct(m, err)) != OM_OK) {
        om_mesh_free(m);
        m = NULL;
    }
    omi_free(modes);
    omi_free(counts);
    omi_free(sizes);
    *out = m;
    return st;
}

/* Measures NUL-terminated names; NULL entries stay NULL (0 length) so the
 * validation names them. */
static size_t *measure(const char *const *names, size_t n, om_error *err)
{
    size_t *lens = omi_malloc((n + 1) * sizeof *lens);
    if (!lens) {
        omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating a view");
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        lens[i] = names[i] ? strlen(names[i]) : 0;
    return lens;
}

om_status om_view_new_modes(const char *const *names, size_t naxes,
                            const int64_t *mode_counts, size_t counts_len,
                            const int64_t *modes, size_t modes_len,
                            const int64_t *instance_modes, size_t instance_len,
                            int64_t offset, om_mesh **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if ((naxes > 0 && (!names || !mode_counts)) || (modes_len > 0 && !modes) ||
        (instance_len > 0 && !instance_modes))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s array is NULL",
                        naxes > 0 && !names ? "names"
                        : naxes > 0 && !mode_counts ? "mode_counts"
                        : modes_len > 0 && !modes ? "modes" : "instance_modes");
    if (counts_len != naxes)
        return omi_fail(err, OM_ERR_LENGTH_MISMATCH,
                        "%zu axis names but %zu mode counts", naxes, counts_len);
    size_t total = 0;
    for (size_t i = 0; i < naxes; i++) {
        if (mode_counts[i] < 0 || (uint64_t)mode_counts[i] > modes_len / 2)
            return omi_fail(err, OM_ERR_LENGTH_MISMATCH,
                            "axis %zu has %lld modes but the modes array holds "
                            "%zu values", i, (long long)mode_counts[i], modes_len);
        total += (size_t)mode_counts[i];
    }
    if (modes_len != 2 * total)
        return omi_fail(err, OM_ERR_LENGTH_MISMATCH,
                        "the mode counts need %zu (size, stride) values but "
                        "the modes array holds %zu", 2 * total, modes_len);
    if (instance_len % 2 != 0)
        return omi_fail(err, OM_ERR_LENGTH_MISMATCH,
                        "instance modes hold %zu values; (size, stride) pairs "
                        "need an even number", instance_len);
    size_t ninst = instance_len / 2;
    size_t *lens = measure(names, naxes, err);
    size_t *counts = omi_malloc((naxes + 1) * sizeof *counts);
    omi_mode *m = omi_malloc((total + ninst + 1) * sizeof *m);
    om_status st = OM_OK;
    if (!lens || !counts || !m)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating a view");
    if (st == OM_OK) {
        for (size_t i = 0; i < naxes; i++)
            counts[i] = (size_t)mode_counts[i];
        for (size_t j = 0; j < total + ninst; j++) {
            const int64_t *p = j < total ? modes + 2 * j
                                         : instance_modes + 2 * (j - total);
            m[j] = (omi_mode){p[0], p[1]};
        }
        st = omi_view_create(names, lens, naxes, counts, m, m + total, ninst,
                             offset, out, err);
    }
    omi_free(lens);
    omi_free(counts);
    omi_free(m);
    return st;
}

om_status om_view_new(const char *const *names, size_t naxes,
                      const int64_t *sizes, size_t sizes_len,
                      const int64_t *strides, size_t strides_len,
                      int64_t offset, om_mesh **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (naxes > 0 && (!names || !sizes || !strides))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s array is NULL",
                        !names ? "names" : !sizes ? "sizes" : "strides");
    if (sizes_len != naxes || strides_len != naxes)
        return omi_fail(err, OM_ERR_LENGTH_MISMATCH,
                        "%zu axis names, %zu sizes and %zu strides", naxes,
                        sizes_len, strides_len);
    size_t *lens = measure(names, naxes, err);
    size_t *counts = omi_malloc((naxes + 1) * sizeof *counts);
    omi_mode *m = omi_malloc((naxes + 1) * sizeof *m);
    om_status st = OM_OK;
    if (!lens || !counts || !m)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating a view");
    if (st == OM_OK) {
        for (size_t i = 0; i < naxes; i++) {
            counts[i] = 1;
            m[i] = (omi_mode){sizes[i], strides[i]};
        }
        st = omi_view_create(names, lens, naxes, counts, m, NULL, 0, offset,
                             out, err);
    }
    omi_free(lens);
    omi_free(counts);
    omi_free(m);
    return st;
}

bool om_view_is_plain(const om_mesh *view) { return view && view->plain; }

int64_t om_view_offset(const om_mesh *view) { return view ? view->offset : 0; }

size_t om_view_mode_count(const om_mesh *view, size_t index)
{
    if (!view || index >= view->ndim)
        return 0;
    return view->mode_first[index + 1] - view->mode_first[index];
}

static om_status write_pairs(const omi_mode *m, size_t n, int64_t *out,
                             size_t out_len, size_t *needed, om_error *err)
{
    if (needed)
        *needed = 2 * n;
    if (out_len < 2 * n)
        return omi_fail(err, OM_ERR_BUFFER_TOO_SMALL,
                        "the result needs %zu elements but the buffer holds %zu",
                        2 * n, out_len);
    if (!out && n > 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "output buffer is NULL");
    for (size_t j = 0; j < n; j++) {
        out[2 * j] = m[j].size;
        out[2 * j + 1] = m[j].stride;
    }
    return OM_OK;
}

om_status om_view_modes(const om_mesh *view, size_t index, int64_t *out,
                        size_t out_len, size_t *needed, om_error *err)
{
    if (!view)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "view is NULL");
    if (index >= view->ndim)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "axis index %zu is outside the view of %zu axes", index,
                        view->ndim);
    size_t first = view->mode_first[index];
    return write_pairs(view->modes + first, view->mode_first[index + 1] - first,
                       out, out_len, needed, err);
}

int64_t om_view_instance_count(const om_mesh *view)
{
    return view ? view->instances : 0;
}

size_t om_view_instance_mode_count(const om_mesh *view)
{
    return view ? view->ninst : 0;
}

om_status om_view_instance_modes(const om_mesh *view, int64_t *out,
                                 size_t out_len, size_t *needed, om_error *err)
{
    if (!view)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "view is NULL");
    return write_pairs(view->inst, view->ninst, out, out_len, needed, err);
}

int64_t om_view_rank_count(const om_mesh *view)
{
    return view ? view->instances * view->size : 0;
}

int64_t om_view_extent(const om_mesh *view) { return view ? view->extent : 0; }

bool om_view_holds(const om_mesh *view, int64_t rank)
{
    int64_t digits[OMI_MAX_DIGITS];
    return view && omi_view_decode(view, rank, digits);
}
