/* One JSON parser candidate behind a common face, for compare.sh.
 * probe_parse() reads text[0..len) and writes a one-line summary of the
 * document (or of the error) into out; returns 0 (parsed), 1 (rejected) or
 * 2 (the parser said it ran out of memory).
 * SPDX-License-Identifier: MIT */
#ifndef JSON_CANDIDATE_PROBE_H
#define JSON_CANDIDATE_PROBE_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
int probe_parse(const char *text, size_t len, char *out, size_t size);
/* Called by probe_parse right after the parse: later allocations (printing
 * the summary) are not failed. */
void probe_parsed(void);
#ifdef __cplusplus
}
#endif
#endif
