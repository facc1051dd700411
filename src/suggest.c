/* "Did you mean": the known name nearest a misspelled one. */
#include <string.h>

#include "suggest.h"

/* Longest name compared; longer ones are no misspelling of a known key. */
#define MAX_NAME 64

/* Case and '-' vs '_' are spelling variants, not edits. */
static char fold(char c)
{
    if (c >= 'A' && c <= 'Z')
        return (char)(c - 'A' + 'a');
    return c == '-' ? '_' : c;
}

/* Optimal string alignment distance (Levenshtein plus adjacent
 * transpositions: "tp_szie" is one edit from "tp_size"). */
static size_t distance(const char *a, size_t alen, const char *b, size_t blen)
{
    size_t rows[3][MAX_NAME + 1];
    size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= blen; j++)
        prev[j] = j;
    for (size_t i = 1; i <= alen; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= blen; j++) {
            size_t cost = fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1;
            size_t best = prev[j - 1] + cost;
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) &&
                fold(a[i - 2]) == fold(b[j - 1]) && prev2[j - 2] + 1 < best)
                best = prev2[j - 2] + 1;
            cur[j] = best;
        }
        size_t *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[blen];
}

/* Edits still read as a misspelling: one for short names, up to three for
 * long ones. */
static size_t allowed_edits(size_t len)
{
    size_t edits = len / 4;
    return edits < 1 ? 1 : edits > 3 ? 3 : edits;
}

/* "tp" for "tp_size": the axis name where its size belongs. */
static bool is_axis_of(const char *name, size_t len, const char *known)
{
    size_t klen = strlen(known);
    return len + 5 == klen && memcmp(known + len, "_size", 5) == 0 &&
           distance(name, len, known, len) == 0;
}

int omi_suggest(const char *name, size_t len, const char *const *known,
                size_t nknown)
{
    if (len == 0 || len > MAX_NAME)
        return -1;
    int best = -1;
    size_t best_distance = 0;
    for (size_t k = 0; k < nknown; k++) {
        size_t klen = strlen(known[k]);
        if (klen > MAX_NAME)
            continue;
        if (is_axis_of(name, len, known[k]))
            return (int)k;
        size_t d = distance(name, len, known[k], klen);
        if (d <= allowed_edits(klen) && (best < 0 || d < best_distance)) {
            best = (int)k;
            best_distance = d;
        }
    }
    return best;
}
