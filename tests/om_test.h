/* Shared helpers of the C test suites (CUnit 2.1-3).
 * SPDX-License-Identifier: MIT
 *
 * CUnit's run functions report success even when assertions fail, so
 * om_test_main() computes the exit status itself: the number of failure
 * records (capped at 255), plus one when a suite's init function failed.
 *
 * The OM_EXPECT_* macros are CUnit assertions (they count in CUnit's
 * summary) whose failure text shows the actual values, not just the
 * expression. */
#ifndef OM_TEST_H
#define OM_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include <CUnit/CUnit.h>

#include "offline_mesh.h"

typedef struct {
    const char *name;
    void (*fn)(void);
} om_test_case;

typedef struct {
    const char *name;
    int (*init)(void);
    int (*cleanup)(void);
    const om_test_case *tests; /* terminated by {NULL, NULL} */
} om_test_suite;

/* Registers `suites` (terminated by a zeroed entry), runs them with the
 * basic verbose interface and returns the exit status described above.
 * An optional argv[1] runs only the suite of that name. */
int om_test_main(int argc, char **argv, const om_test_suite *suites);

/* Records one assertion; `fmt` describes the failure (printf-style). */
void om_test_record(bool ok, const char *file, unsigned line,
                    const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

void om_test_expect_ok(om_status got, const om_error *err, const char *expr,
                       const char *file, unsigned line);
/* Checks the status, that `err` carries the same status, and that its
 * message contains every string of the NULL-terminated `needles`. */
void om_test_expect_err(om_status got, const om_error *err, om_status want,
                        const char *const *needles, const char *expr,
                        const char *file, unsigned line);
void om_test_expect_int(long long got, long long want, const char *expr,
                        const char *file, unsigned line);
void om_test_expect_str(const char *got, const char *want, const char *expr,
                        const char *file, unsigned line);

#define OM_EXPECT_OK(call, errp) \
    om_test_expect_ok((call), (errp), #call, __FILE__, __LINE__)
#define OM_EXPECT_ERR(call, errp, want, ...)                          \
    om_test_expect_err((call), (errp), (want),                        \
                       (const char *const[]){__VA_ARGS__, NULL}, #call, \
                       __FILE__, __LINE__)
#define OM_EXPECT_INT(got, want) \
    om_test_expect_int((long long)(got), (long long)(want), #got, __FILE__, __LINE__)
#define OM_EXPECT_STR(got, want) \
    om_test_expect_str((got), (want), #got, __FILE__, __LINE__)
#define OM_EXPECT(cond) \
    om_test_record((cond) ? true : false, __FILE__, __LINE__, "%s", #cond)

/* A fresh error report with a recognisable, non-OK content, to detect that
 * a successful call left it untouched. */
void om_test_poison(om_error *err);
bool om_test_is_poisoned(const om_error *err);

/* Small deterministic PRNG (xorshift64*), for the cross-checks. */
uint64_t om_test_rand(uint64_t *state);
/* Uniform-ish value in [lo, hi]. */
int64_t om_test_rand_range(uint64_t *state, int64_t lo, int64_t hi);

/* Helpers for building meshes in tests; assert on failure. */
om_mesh *om_test_mesh(const char *spec);
/* A hierarchy from a uniform spec ("host=8,nvl=72"); asserts on failure. */
om_hierarchy *om_test_hierarchy(const char *spec);
/* Records that reading `input` into a hierarchy failed with `want`, left
 * the out pointer NULL and gave a message containing `needle`. */
void om_test_expect_hierarchy_err(om_status got, const om_hierarchy *h,
                                  const om_error *err, const char *input,
                                  om_status want, const char *needle,
                                  const char *file, unsigned line);

#endif /* OM_TEST_H */
