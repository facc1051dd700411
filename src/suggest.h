/* Internal: "did you mean" suggestions (suggest.c). */
#ifndef OFFLINE_MESH_SUGGEST_H
#define OFFLINE_MESH_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

/* Index in known[0..nknown) of the name `name[0..len)` was probably meant
 * to be, or -1: the nearest by edit distance (adjacent transpositions
 * count as one edit; case and '-' for '_' as none) when within 1 edit per
 * 4 characters of the known name (at least 1, at most 3); an axis name
 * ("tp") suggests its size ("tp_size"). Ties go to the earlier name.
 * Names over 64 bytes get no suggestion. */
int omi_suggest(const char *name, size_t len, const char *const *known,
                size_t nknown);

#endif
