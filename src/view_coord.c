/* Coordinates of views: ranks split into mode digits (mixed radix when the
 * modes nest, a search otherwise) and back. */
#include "internal.h"

void omi_view_digits_coord(const om_mesh *m, const int64_t *d, int64_t *coord,
                           int64_t *instance)
{
    if (coord)
        for (size_t i = 0; i < m->ndim; i++)
            coord[i] = 0;
    int64_t inst = 0;
    for (size_t j = 0; j < m->ndigits; j++) {
        if (m->digits[j].axis == m->ndim)
            inst += d[j] * m->digits[j].weight;
        else if (coord)
            coord[m->digits[j].axis] += d[j] * m->digits[j].weight;
    }
    if (instance)
        *instance = inst;
}

bool omi_view_digits_step(const om_mesh *m, int64_t *d, int64_t *rank)
{
    for (size_t j = m->ndigits; j-- > 0;) {
        *rank += m->digits[j].stride;
        if (++d[j] < m->digits[j].size)
            return true;
        *rank -= m->digits[j].size * m->digits[j].stride;
        d[j] = 0;
    }
    return false;
}

bool omi_view_decode(const om_mesh *m, int64_t rank, int64_t *d)
{
    /* Compare before subtracting: rank - offset overflows for a rank near
     * INT64_MIN. */
    if (rank < m->offset || rank >= m->extent)
        return false;
    int64_t rest = rank - m->offset;
    if (m->nested) {
        /* Each stride exceeds everything the smaller digits reach, so the
         * greedy split is the only one. Ranks and strides are below 2^31:
         * 32-bit division is several times faster than 64-bit. */
        uint32_t r32 = (uint32_t)rest;
        for (size_t j = 0; j < m->ndigits; j++) {
            uint32_t stride = (uint32_t)m->digits[j].stride;
            uint32_t k = r32 / stride;
            if (k >= (uint64_t)m->digits[j].size)
                return false;
            d[j] = k;
            r32 -= k * stride;
        }
        return r32 == 0;
    }
    /* Interleaved modes (distinct ranks, but no mixed radix): search. */
    for (size_t j = 0; j < m->ndigits; j++)
        d[j] = 0;
    int64_t r = m->offset;
    do {
        if (r == rank)
            return true;
    } while (omi_view_digits_step(m, d, &r));
    return false;
}

bool omi_view_coordinate(const om_mesh *m, int64_t rank, int64_t *coord,
                         int64_t *instance)
{
    int64_t d[OMI_MAX_DIGITS];
    if (!omi_view_decode(m, rank, d))
        return false;
    omi_view_digits_coord(m, d, coord, instance);
    return true;
}

int64_t omi_view_rank(const om_mesh *m, const int64_t *coord)
{
    int64_t rank = m->offset;
    for (size_t i = 0; i < m->ndim; i++) {
        int64_t c = coord[i];
        for (size_t j = m->mode_first[i + 1]; j-- > m->mode_first[i];) {
            rank += (c % m->modes[j].size) * m->modes[j].stride;
            c /= m->modes[j].size;
        }
    }
    return rank;
}
