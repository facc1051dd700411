/* The immutable mesh handle: construction, validation and accessors. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* FNV-1a: stable across platforms and runs, cheap for tiny inputs. */
static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

static uint64_t mesh_hash(const om_mesh *m)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < m->ndim; i++) {
        /* The NUL separates names, so ("ab","c") and ("a","bc") differ. */
        h = fnv1a(h, m->names[i], m->name_lens[i] + 1);
        uint64_t size = (uint64_t)m->sizes[i];
        unsigned char bytes[8];
        for (int b = 0; b < 8; b++)
            bytes[b] = (unsigned char)(size >> (8 * b));
        h = fnv1a(h, bytes, sizeof bytes);
    }
    return h;
}

static om_status duplicate_error(const char *name, size_t len, size_t first,
                                 size_t second, om_error *err)
{
    char quoted[96];
    omi_quote(quoted, sizeof quoted, name, len);
    return omi_fail(err, OM_ERR_DUPLICATE_NAME,
                    "duplicate axis name %s (axes %zu and %zu)", quoted, first,
                    second);
}

/* The first repeated name (name_index.c: pairwise for a handful of axes,
 * sorted for many, so 10^6 size-1 axes cost O(n log n)). */
static om_status find_duplicates(const char *const *names,
                                 const size_t *name_lens, size_t ndim,
                                 om_error *err)
{
    size_t first = 0, repeat = ndim;
    om_status st = omi_names_first_repeat(names, name_lens, ndim, &first,
                                          &repeat, err);
    if (st == OM_OK && repeat < ndim)
        st = duplicate_error(names[repeat], name_lens[repeat], first, repeat, err);
    return st;
}

om_status omi_mesh_validate(const char *const *names, const size_t *name_lens,
                          const int64_t *sizes, size_t ndim, om_error *err)
{
    char quoted[96];
    int64_t product = 1;
    for (size_t i = 0; i < ndim; i++) {
        if (!names[i])
            return omi_fail(err, OM_ERR_INVALID_NAME, "axis %zu name is NULL", i);
        if (name_lens[i] == 0)
            return omi_fail(err, OM_ERR_EMPTY_NAME, "axis %zu has an empty name", i);
        if (!omi_utf8_valid(names[i], name_lens[i])) {
            omi_quote(quoted, sizeof quoted, names[i], name_lens[i]);
            return omi_fail(err, OM_ERR_INVALID_NAME,
                            "axis %zu name %s is not valid UTF-8", i, quoted);
        }
    }
    om_status st = find_duplicates(names, name_lens, ndim, err);
    if (st != OM_OK)
        return st;
    for (size_t i = 0; i < ndim; i++) {
        if (sizes[i] < 1) {
            omi_quote(quoted, sizeof quoted, names[i], name_lens[i]);
            return omi_fail(err, OM_ERR_BAD_SIZE,
                            "axis %s has size %lld; sizes must be >= 1", quoted,
                            (long long)sizes[i]);
        }
    }
    for (size_t i = 0; i < ndim; i++) {
        if (sizes[i] > OMI_MAX_INT32 / product) {
            return omi_fail(err, OM_ERR_MESH_TOO_LARGE,
                            "mesh size exceeds 2^31-1 ranks at axis %zu "
                            "(size %lld)", i, (long long)sizes[i]);
        }
        product *= sizes[i];
    }
    return OM_OK;
}

/* Sorts the digits by stride, largest first, keeping axis order among
 * equals (insertion sort: a view has at most ~62 modes of size > 1). */
static void sort_digits(omi_digit *d, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        omi_digit x = d[i];
        size_t j = i;
        while (j > 0 && d[j - 1].stride < x.stride) {
            d[j] = d[j - 1];
            j--;
        }
        d[j] = x;
    }
}

/* Fills the derived fields: decoding digits, nesting, extent, plainness. */
static void derive_layout(om_mesh *m)
{
    size_t n = 0;
    for (size_t i = 0; i < m->ndim; i++) {
        int64_t weight = 1;
        for (size_t j = m->mode_first[i + 1]; j-- > m->mode_first[i];) {
            m->digits[n + (j - m->mode_first[i])] =
                (omi_digit){m->modes[j].size, m->modes[j].stride, i, weight};
            weight *= m->modes[j].size;
        }
        n += m->mode_first[i + 1] - m->mode_first[i];
    }
    int64_t weight = 1;
    m->instances = 1;
    for (size_t j = m->ninst; j-- > 0;) {
        m->digits[n + j] = (omi_digit){m->inst[j].size, m->inst[j].stride,
                                       m->ndim, weight};
        weight *= m->inst[j].size;
        m->instances *= m->inst[j].size;
    }
    m->ndigits = n + m->ninst;
    sort_digits(m->digits, m->ndigits);
    int64_t reach = 0;
    m->nested = true;
    for (size_t j = m->ndigits; j-- > 0;) {
        if (m->digits[j].stride <= reach)
            m->nested = false;
        reach += (m->digits[j].size - 1) * m->digits[j].stride;
    }
    m->extent = m->offset + reach + 1;
    m->plain = m->offset == 0 && m->ninst == 0;
    for (size_t i = 0; i < m->ndim && m->plain; i++) {
        size_t count = m->mode_first[i + 1] - m->mode_first[i];
        if (m->sizes[i] == 1)
            m->plain = count == 0;
        else
            m->plain = count == 1 &&
                       m->modes[m->mode_first[i]].stride == m->strides[i];
    }
}

om_status omi_mesh_assemble(const char *const *names, const size_t *name_lens,
                            size_t ndim, const int64_t *sizes,
                            const size_t *mode_counts, const omi_mode *modes,
                            const omi_mode *inst, size_t ninst, int64_t offset,
                            om_mesh **out, om_error *err)
{
    size_t nmodes = 0;
    for (size_t i = 0; i < ndim; i++)
        nmodes += mode_counts[i];
    /* One block: header, 8-byte arrays, pointer arrays, then the bytes. */
    size_t text = 0;
    for (size_t i = 0; i < ndim; i++)
        text += name_lens[i] + 1;
    size_t indexed = ndim > OMI_NAME_INDEX_MIN ? ndim : 0;
    size_t total = sizeof(om_mesh) +
                   ndim * (2 * sizeof(int64_t) + sizeof(char *) +
                           2 * sizeof(size_t)) + sizeof(size_t) +
                   indexed * sizeof(size_t) +
                   (nmodes + ninst) * (sizeof(omi_mode) + sizeof(omi_digit)) +
                   text;
    unsigned char *block = omi_malloc(total);
    if (!block)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating a mesh");

    om_mesh *m = (om_mesh *)(void *)block;
    unsigned char *cursor = block + sizeof(om_mesh);
    m->ndim = ndim;
    m->sizes = (int64_t *)(void *)cursor;
    cursor += ndim * sizeof(int64_t);
    m->strides = (int64_t *)(void *)cursor;
    cursor += ndim * sizeof(int64_t);
    m->modes = (omi_mode *)(void *)cursor;
    cursor += nmodes * sizeof(omi_mode);
    m->inst = (omi_mode *)(void *)cursor;
    cursor += ninst * sizeof(omi_mode);
    m->digits = (omi_digit *)(void *)cursor;
    cursor += (nmodes + ninst) * sizeof(omi_digit);
    m->names = (char **)(void *)cursor;
    cursor += ndim * sizeof(char *);
    m->name_lens = (size_t *)(void *)cursor;
    cursor += ndim * sizeof(size_t);
    m->mode_first = (size_t *)(void *)cursor;
    cursor += (ndim + 1) * sizeof(size_t);
    m->by_name = indexed ? (size_t *)(void *)cursor : NULL;
    cursor += indexed * sizeof(size_t);
    size_t first = 0;
    for (size_t i = 0; i < ndim; i++) {
        m->names[i] = (char *)cursor;
        memcpy(cursor, names[i], name_lens[i]);
        cursor[name_lens[i]] = '\0';
        cursor += name_lens[i] + 1;
        m->name_lens[i] = name_lens[i];
        m->sizes[i] = sizes[i];
        m->mode_first[i] = first;
        first += mode_counts[i];
    }
    m->mode_first[ndim] = first;
    if (nmodes)
        memcpy(m->modes, modes, nmodes * sizeof *modes);
    if (ninst)
        memcpy(m->inst, inst, ninst * sizeof *inst);
    m->ninst = ninst;
    m->offset = offset;
    int64_t stride = 1;
    for (size_t i = ndim; i-- > 0;) {
        m->strides[i] = stride;
        stride *= sizes[i];
    }
    m->size = stride;
    m->hash = mesh_hash(m);
    derive_layout(m);
    if (indexed && !omi_names_sort((const char *const *)m->names, m->name_lens,
                                   ndim, m->by_name)) {
        omi_free(block);
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating a mesh");
    }
    *out = m;
    return OM_OK;
}

om_status omi_mesh_create(const char *const *names, const size_t *name_lens,
                          const int64_t *sizes, size_t ndim, om_mesh **out,
                          om_error *err)
{
    om_status st = omi_mesh_validate(names, name_lens, sizes, ndim, err);
    if (st != OM_OK)
        return st;
    /* The row-major layout: one mode per axis of size > 1. */
    size_t counts_small[16] = {0};
    omi_mode modes_small[16] = {{0, 0}};
    size_t *counts = counts_small;
    omi_mode *modes = modes_small;
    if (ndim > 16) {
        counts = omi_malloc(ndim * sizeof *counts);
        modes = omi_malloc(ndim * sizeof *modes);
        if (!counts || !modes) {
            omi_free(counts);
            omi_free(modes);
            return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating a mesh");
        }
    }
    size_t n = 0;
    int64_t stride = 1;
    for (size_t i = ndim; i-- > 0;) {
        counts[i] = sizes[i] > 1;
        stride *= sizes[i];
    }
    for (size_t i = 0; i < ndim; i++) {
        stride /= sizes[i];
        if (counts[i])
            modes[n++] = (omi_mode){sizes[i], stride};
    }
    st = omi_mesh_assemble(names, name_lens, ndim, sizes, counts, modes, NULL,
                           0, 0, out, err);
    if (counts != counts_small) {
        omi_free(counts);
        omi_free(modes);
    }
    return st;
}

om_status omi_mesh_copy(const om_mesh *m, om_mesh **out, om_error *err)
{
    size_t counts_small[16] = {0};
    size_t *counts = counts_small;
    if (m->ndim > 16) {
        counts = omi_malloc(m->ndim * sizeof *counts);
        if (!counts)
            return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory copying a mesh");
    }
    for (size_t i = 0; i < m->ndim; i++)
        counts[i] = m->mode_first[i + 1] - m->mode_first[i];
    om_status st = omi_mesh_assemble((const char *const *)m->names,
                                     m->name_lens, m->ndim, m->sizes, counts,
                                     m->modes, m->inst, m->ninst, m->offset,
                                     out, err);
    if (counts != counts_small)
        omi_free(counts);
    return st;
}

/* Names arrive NUL-terminated through the public API; measure them once. */
static om_status create_from_cstrings(const char *const *names,
                                      const int64_t *sizes, size_t ndim,
                                      om_mesh **out, om_error *err)
{
    size_t lens_small[16] = {0};
    size_t *lens = lens_small;
    if (ndim > 16) {
        if (ndim > SIZE_MAX / sizeof(size_t))
            return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating a mesh");
        lens = omi_malloc(ndim * sizeof(size_t));
        if (!lens)
            return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating a mesh");
    }
    for (size_t i = 0; i < ndim; i++)
        lens[i] = names[i] ? strlen(names[i]) : 0;
    om_status st = omi_mesh_create(names, lens, sizes, ndim, out, err);
    if (lens != lens_small)
        omi_free(lens);
    return st;
}

om_status om_mesh_new(const char *const *names, const int64_t *sizes,
                      size_t ndim, om_mesh **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (ndim > 0 && (!names || !sizes))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "%s array is NULL but ndim is %zu",
                        names ? "sizes" : "names", ndim);
    return create_from_cstrings(names, sizes, ndim, out, err);
}

om_status om_mesh_new_checked(const char *const *names, size_t names_len,
                              const int64_t *sizes, size_t sizes_len,
                              om_mesh **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (names_len != sizes_len)
        return omi_fail(err, OM_ERR_LENGTH_MISMATCH,
                        "mesh_dim_names has %zu entries but mesh_shape has %zu",
                        names_len, sizes_len);
    return om_mesh_new(names, sizes, names_len, out, err);
}

void om_mesh_free(om_mesh *mesh) { omi_free(mesh); }

size_t om_mesh_ndim(const om_mesh *mesh) { return mesh ? mesh->ndim : 0; }

const char *om_mesh_name(const om_mesh *mesh, size_t index)
{
    return (mesh && index < mesh->ndim) ? mesh->names[index] : NULL;
}

int64_t om_mesh_dim_size(const om_mesh *mesh, size_t index)
{
    return (mesh && index < mesh->ndim) ? mesh->sizes[index] : 0;
}

int64_t om_mesh_size(const om_mesh *mesh) { return mesh ? mesh->size : 0; }

int omi_mesh_find(const om_mesh *mesh, const char *name, size_t len)
{
    if (mesh->by_name) {
        size_t p = omi_names_find((const char *const *)mesh->names, mesh->name_lens,
                                  mesh->by_name, mesh->ndim, name, len);
        return p < mesh->ndim ? (int)mesh->by_name[p] : -1;
    }
    for (size_t i = 0; i < mesh->ndim; i++) {
        if (mesh->name_lens[i] == len && memcmp(mesh->names[i], name, len) == 0)
            return (int)i;
    }
    return -1;
}

int om_mesh_index_of(const om_mesh *mesh, const char *name)
{
    if (!mesh || !name)
        return -1;
    return omi_mesh_find(mesh, name, strlen(name));
}

int64_t om_mesh_size_of(const om_mesh *mesh, const char *name)
{
    int index = om_mesh_index_of(mesh, name);
    return index < 0 ? 1 : mesh->sizes[index];
}

om_status om_mesh_get(const om_mesh *mesh, const char *name, om_mesh **out,
                      om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!mesh || !name)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        mesh ? "axis name" : "mesh");
    int index = om_mesh_index_of(mesh, name);
    if (index < 0)
        return omi_mesh_create(NULL, NULL, NULL, 0, out, err);
    const char *names[1] = {mesh->names[index]};
    return omi_mesh_create(names, &mesh->name_lens[index], &mesh->sizes[index],
                           1, out, err);
}

bool om_mesh_equal(const om_mesh *a, const om_mesh *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->ndim != b->ndim || a->hash != b->hash)
        return false;
    for (size_t i = 0; i < a->ndim; i++) {
        if (a->sizes[i] != b->sizes[i] || a->name_lens[i] != b->name_lens[i] ||
            memcmp(a->names[i], b->names[i], a->name_lens[i]) != 0 ||
            a->mode_first[i + 1] != b->mode_first[i + 1])
            return false;
    }
    /* Views: the same modes (normal form), instances and offset. */
    if (a->plain && b->plain)
        return true;
    size_t nmodes = a->mode_first[a->ndim];
    return a->offset == b->offset && a->ninst == b->ninst &&
           (nmodes == 0 ||
            memcmp(a->modes, b->modes, nmodes * sizeof *a->modes) == 0) &&
           (a->ninst == 0 ||
            memcmp(a->inst, b->inst, a->ninst * sizeof *a->inst) == 0);
}

uint64_t om_mesh_hash(const om_mesh *mesh) { return mesh ? mesh->hash : 0; }

void om_string_free(char *string) { omi_free(string); }
