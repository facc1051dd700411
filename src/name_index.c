/* Names sorted for binary search and repeat detection, so meshes and
 * worlds of 10^5 axes or views cost O(n log n), not O(n^2). A name is
 * (names[i], lens[i]); a NULL lens means NUL-terminated names. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct {
    const char *name;
    size_t len;
    size_t index;
} named;

/* Length first, then bytes, then position: a total order, so equal names
 * stay in position order. */
static int compare_named(const void *a, const void *b)
{
    const named *x = a, *y = b;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    int c = memcmp(x->name, y->name, x->len);
    if (c != 0)
        return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

static size_t len_of(const char *const *names, const size_t *lens, size_t i)
{
    return lens ? lens[i] : strlen(names[i]);
}

bool omi_names_sort(const char *const *names, const size_t *lens, size_t n,
                    size_t *order)
{
    named *sorted = omi_malloc((n + 1) * sizeof *sorted);
    if (!sorted)
        return false;
    for (size_t i = 0; i < n; i++)
        sorted[i] = (named){names[i], len_of(names, lens, i), i};
    qsort(sorted, n, sizeof *sorted, compare_named);
    for (size_t i = 0; i < n; i++)
        order[i] = sorted[i].index;
    omi_free(sorted);
    return true;
}

/* The first place in `order` whose name is not before (name, len). */
static size_t lower_bound(const char *const *names, const size_t *lens,
                          const size_t *order, size_t n, const char *name,
                          size_t len)
{
    named key = {name, len, 0};
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2, i = order[mid];
        named at = {names[i], len_of(names, lens, i), 0};
        if (compare_named(&at, &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool omi_names_equal_at(const char *const *names, const size_t *lens,
                        const size_t *order, size_t n, size_t p,
                        const char *name, size_t len)
{
    return p < n && len_of(names, lens, order[p]) == len &&
           memcmp(names[order[p]], name, len) == 0;
}

size_t omi_names_find(const char *const *names, const size_t *lens,
                       const size_t *order, size_t n, const char *name, size_t len)
{
    size_t p = lower_bound(names, lens, order, n, name, len);
    return omi_names_equal_at(names, lens, order, n, p, name, len) ? p : n;
}

om_status omi_names_first_repeat(const char *const *names, const size_t *lens,
                                 size_t n, size_t *first, size_t *repeat,
                                 om_error *err)
{
    *repeat = n;
    if (n <= OMI_NAME_INDEX_MIN) {
        for (size_t i = 0; i < n && *repeat == n; i++)
            for (size_t j = 0; j < i; j++)
                if (len_of(names, lens, j) == len_of(names, lens, i) &&
                    memcmp(names[j], names[i], len_of(names, lens, i)) == 0) {
                    *first = j;
                    *repeat = i;
                    break;
                }
        return OM_OK;
    }
    size_t *order = omi_malloc(n * sizeof *order);
    if (!order || !omi_names_sort(names, lens, n, order)) {
        omi_free(order);
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory comparing %zu names", n);
    }
    /* In a run of equal names the second is that name's first repeat. */
    for (size_t p = 1; p < n; p++) {
        size_t a = order[p - 1], b = order[p];
        if (b < *repeat && len_of(names, lens, a) == len_of(names, lens, b) &&
            memcmp(names[a], names[b], len_of(names, lens, b)) == 0 &&
            (p < 2 || !omi_names_equal_at(names, lens, order, n, p - 2,
                                          names[a], len_of(names, lens, a)))) {
            *first = a;
            *repeat = b;
        }
    }
    omi_free(order);
    return OM_OK;
}
