/* Shared helpers of the C test suites. See om_test.h.
 * SPDX-License-Identifier: MIT */
#include "om_test.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

int om_test_main(int argc, char **argv, const om_test_suite *suites)
{
    if (CU_initialize_registry() != CUE_SUCCESS) {
        fprintf(stderr, "CUnit: cannot initialise the registry: %s\n",
                CU_get_error_msg());
        return 1;
    }
    const char *only = argc > 1 ? argv[1] : NULL;
    size_t registered = 0;
    for (const om_test_suite *s = suites; s->name; s++) {
        if (only && strcmp(only, s->name) != 0)
            continue;
        CU_pSuite suite = CU_add_suite(s->name, s->init, s->cleanup);
        if (!suite) {
            fprintf(stderr, "CUnit: cannot add suite %s: %s\n", s->name,
                    CU_get_error_msg());
            CU_cleanup_registry();
            return 1;
        }
        for (const om_test_case *t = s->tests; t->name; t++) {
            if (!CU_add_test(suite, t->name, t->fn)) {
                fprintf(stderr, "CUnit: cannot add test %s/%s: %s\n", s->name,
                        t->name, CU_get_error_msg());
                CU_cleanup_registry();
                return 1;
            }
            registered++;
        }
    }
    if (registered == 0) {
        fprintf(stderr, "no test selected%s%s\n", only ? " by " : "",
                only ? only : "");
        CU_cleanup_registry();
        return 1;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_ErrorCode run = CU_basic_run_tests();
    unsigned failures = CU_get_number_of_failure_records();
    unsigned suites_failed = CU_get_number_of_suites_failed();
    unsigned tests_run = CU_get_number_of_tests_run();
    unsigned asserts = CU_get_number_of_asserts();
    printf("\nsummary: %u tests run, %u assertions, %u failure records, "
           "%u suites failed to initialise\n",
           tests_run, asserts, failures, suites_failed);
    CU_cleanup_registry();
    unsigned status = failures + suites_failed;
    if (run != CUE_SUCCESS && status == 0)
        status = 1;
    return status > 255 ? 255 : (int)status;
}

void om_test_record(bool ok, const char *file, unsigned line, const char *fmt,
                    ...)
{
    char text[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    /* CUnit copies the condition text into its failure record. */
    CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line, text, file, "",
                            CU_FALSE);
}

void om_test_expect_ok(om_status got, const om_error *err, const char *expr,
                       const char *file, unsigned line)
{
    om_test_record(got == OM_OK, file, line, "%s returned %d (%s): %s", expr,
                   (int)got, om_status_string(got),
                   err && got != OM_OK ? err->message : "");
}

void om_test_expect_err(om_status got, const om_error *err, om_status want,
                        const char *const *needles, const char *expr,
                        const char *file, unsigned line)
{
    om_test_record(got == want, file, line,
                   "%s returned %d (%s), expected %d (%s); message: %s", expr,
                   (int)got, om_status_string(got), (int)want,
                   om_status_string(want), err ? err->message : "(no err)");
    if (!err)
        return;
    om_test_record(err->status == want, file, line,
                   "%s: err->status %d, expected %d", expr, (int)err->status,
                   (int)want);
    om_test_record(memchr(err->message, '\0', sizeof err->message) != NULL,
                   file, line, "%s: message not NUL-terminated", expr);
    for (; *needles; needles++)
        om_test_record(strstr(err->message, *needles) != NULL, file, line,
                       "%s: message \"%s\" lacks \"%s\"", expr, err->message,
                       *needles);
}

void om_test_expect_int(long long got, long long want, const char *expr,
                        const char *file, unsigned line)
{
    om_test_record(got == want, file, line, "%s is %lld, expected %lld", expr,
                   got, want);
}

void om_test_expect_str(const char *got, const char *want, const char *expr,
                        const char *file, unsigned line)
{
    bool ok = (got == NULL && want == NULL) ||
              (got && want && strcmp(got, want) == 0);
    om_test_record(ok, file, line, "%s is %s%s%s, expected %s%s%s", expr,
                   got ? "\"" : "", got ? got : "NULL", got ? "\"" : "",
                   want ? "\"" : "", want ? want : "NULL", want ? "\"" : "");
}

void om_test_poison(om_error *err)
{
    err->status = (om_status)77;
    memset(err->message, 0, sizeof err->message);
    strcpy(err->message, "untouched");
}

bool om_test_is_poisoned(const om_error *err)
{
    return (int)err->status == 77 && strcmp(err->message, "untouched") == 0;
}

uint64_t om_test_rand(uint64_t *state)
{
    uint64_t x = *state ? *state : UINT64_C(0x9E3779B97F4A7C15);
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * UINT64_C(2685821657736338717);
}

int64_t om_test_rand_range(uint64_t *state, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1;
    return lo + (int64_t)(om_test_rand(state) % span);
}

om_mesh *om_test_mesh(const char *spec)
{
    om_mesh *mesh = NULL;
    om_error err;
    om_error_clear(&err);
    om_status st = om_mesh_from_spec(spec, &mesh, &err);
    om_test_record(st == OM_OK && mesh != NULL, __FILE__, __LINE__,
                   "building test mesh \"%s\": %s", spec, err.message);
    return mesh;
}

om_hierarchy *om_test_hierarchy(const char *spec)
{
    om_hierarchy *h = NULL;
    om_error err;
    om_error_clear(&err);
    om_status st = om_hierarchy_from_spec(spec, &h, &err);
    om_test_record(st == OM_OK && h != NULL, __FILE__, __LINE__,
                   "building test hierarchy \"%s\": %s", spec, err.message);
    return h;
}

void om_test_expect_hierarchy_err(om_status got, const om_hierarchy *h,
                                  const om_error *err, const char *input,
                                  om_status want, const char *needle,
                                  const char *file, unsigned line)
{
    om_test_record(got == want && h == NULL && strstr(err->message, needle),
                   file, line, "%s: got status %d, \"%s\"; want %d, \"%s\"",
                   input, got, got ? err->message : "", want, needle);
}
