/* Shared checks of the libFuzzer targets: a failed invariant prints what
 * broke and aborts, which libFuzzer reports as a crash with the input.
 * SPDX-License-Identifier: MIT */
#ifndef OM_FUZZ_COMMON_H
#define OM_FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offline_mesh.h"

#if defined(__GNUC__) || defined(__clang__)
#  define FUZZ_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#  define FUZZ_PRINTF(f, a)
#endif

/* The unread rest of a fuzz input. */
typedef struct {
    const uint8_t *p;
    size_t n;
} fuzz_input;

/* The next byte of the input, 0 once it is used up. */
uint8_t fuzz_take(fuzz_input *in);

/* Prints "invariant broken: <message>" and aborts. */
_Noreturn void fuzz_fail(const char *fmt, ...) FUZZ_PRINTF(1, 2);

#define FUZZ_CHECK(cond, ...)                                                 \
    do {                                                                      \
        if (!(cond))                                                          \
            fuzz_fail(__VA_ARGS__);                                           \
    } while (0)

/* True when s[0..len) is well-formed UTF-8 (RFC 3629). */
bool fuzz_utf8_valid(const char *s, size_t len);

/* Checks the error report of a failed call: err->status == st, st is one
 * of the `allowed` statuses (a bit per status: 1u << st), and the message
 * is NUL-terminated, non-empty and valid UTF-8 (unless the environment sets
 * OM_FUZZ_ALLOW_NON_UTF8_MESSAGES, see docs/hardening.md). */
void fuzz_check_error(const char *call, om_status st, const om_error *err,
                      unsigned allowed);

#define FUZZ_BIT(status) (1u << (unsigned)(status))

/* Checks that a mesh is internally consistent (names non-empty, distinct,
 * valid UTF-8; sizes >= 1; size = product <= 2^31-1; lookups agree) and
 * that it round-trips through canonical JSON, and through the text form
 * when the names allow it. */
void fuzz_check_mesh(const om_mesh *mesh);

#endif
