/* Status names, the error report and the free functions' NULL contract.
 * SPDX-License-Identifier: MIT */
#include <string.h>

#include "om_test.h"

static void test_status_strings(void)
{
    OM_EXPECT_STR(om_status_string(OM_OK), "ok");
    OM_EXPECT_STR(om_status_string(OM_ERR_INVALID_ARGUMENT), "invalid argument");
    OM_EXPECT_STR(om_status_string(OM_ERR_OUT_OF_RANGE), "out of range");
    OM_EXPECT_STR(om_status_string(OM_ERR_PARSE), "parse error");
    OM_EXPECT_STR(om_status_string(OM_ERR_IO), "I/O error");
    OM_EXPECT_STR(om_status_string(OM_ERR_NO_MEMORY), "out of memory");
    OM_EXPECT_STR(om_status_string(OM_ERR_LENGTH_MISMATCH), "length mismatch");
    OM_EXPECT_STR(om_status_string(OM_ERR_DUPLICATE_NAME), "duplicate axis name");
    OM_EXPECT_STR(om_status_string(OM_ERR_EMPTY_NAME), "empty axis name");
    OM_EXPECT_STR(om_status_string(OM_ERR_BAD_SIZE), "bad axis size");
    OM_EXPECT_STR(om_status_string(OM_ERR_MESH_TOO_LARGE), "mesh too large");
    OM_EXPECT_STR(om_status_string(OM_ERR_INVALID_NAME), "invalid axis name");
    OM_EXPECT_STR(om_status_string(OM_ERR_BUFFER_TOO_SMALL), "buffer too small");
    OM_EXPECT_STR(om_status_string(OM_ERR_UNKNOWN_AXIS), "unknown axis");
}

static void test_status_identifiers(void)
{
    OM_EXPECT_STR(om_status_name(OM_OK), "OM_OK");
    OM_EXPECT_STR(om_status_name(OM_ERR_INVALID_ARGUMENT), "OM_ERR_INVALID_ARGUMENT");
    OM_EXPECT_STR(om_status_name(OM_ERR_BUFFER_TOO_SMALL), "OM_ERR_BUFFER_TOO_SMALL");
    OM_EXPECT_STR(om_status_name(OM_ERR_UNKNOWN_AXIS), "OM_ERR_UNKNOWN_AXIS");
    OM_EXPECT(om_status_name((om_status)OM_STATUS_COUNT) == NULL);
    OM_EXPECT(om_status_name((om_status)-1) == NULL);
    /* Every code has an identifier "OM_..." and they are distinct. */
    for (int a = 0; a < OM_STATUS_COUNT; a++) {
        const char *na = om_status_name((om_status)a);
        OM_EXPECT(na != NULL && strncmp(na, "OM_", 3) == 0);
        for (int b = a + 1; na && b < OM_STATUS_COUNT; b++)
            OM_EXPECT(strcmp(na, om_status_name((om_status)b)) != 0);
    }
}

static void test_status_unknown(void)
{
    OM_EXPECT_STR(om_status_string((om_status)OM_STATUS_COUNT), "unknown status");
    OM_EXPECT_STR(om_status_string((om_status)-1), "unknown status");
    OM_EXPECT_STR(om_status_string((om_status)1000000), "unknown status");
}

static void test_status_names_distinct(void)
{
    /* Every known status has its own, non-empty name. */
    for (int a = OM_OK; a < OM_STATUS_COUNT; a++) {
        const char *na = om_status_string((om_status)a);
        OM_EXPECT(na != NULL && na[0] != '\0');
        OM_EXPECT(strcmp(na, "unknown status") != 0);
        for (int b = a + 1; b < OM_STATUS_COUNT; b++)
            OM_EXPECT(strcmp(na, om_status_string((om_status)b)) != 0);
    }
}

static void test_status_pinned_values(void)
{
    /* The numeric values are ABI. */
    OM_EXPECT_INT(OM_OK, 0);
    OM_EXPECT_INT(OM_ERR_INVALID_ARGUMENT, 1);
    OM_EXPECT_INT(OM_ERR_OUT_OF_RANGE, 2);
    OM_EXPECT_INT(OM_ERR_PARSE, 3);
    OM_EXPECT_INT(OM_ERR_IO, 4);
    OM_EXPECT_INT(OM_ERR_NO_MEMORY, 5);
    OM_EXPECT_INT(OM_ERR_LENGTH_MISMATCH, 6);
    OM_EXPECT_INT(OM_ERR_DUPLICATE_NAME, 7);
    OM_EXPECT_INT(OM_ERR_EMPTY_NAME, 8);
    OM_EXPECT_INT(OM_ERR_BAD_SIZE, 9);
    OM_EXPECT_INT(OM_ERR_MESH_TOO_LARGE, 10);
    OM_EXPECT_INT(OM_ERR_INVALID_NAME, 11);
    OM_EXPECT_INT(OM_ERR_BUFFER_TOO_SMALL, 12);
    OM_EXPECT_INT(OM_ERR_UNKNOWN_AXIS, 13);
    OM_EXPECT_INT(OM_ERR_RANK_COLLISION, 14);
    OM_EXPECT_INT(OM_ERR_OUTSIDE_WORLD, 15);
    OM_EXPECT_INT(OM_ERR_AXIS_ORDER, 16);
    OM_EXPECT_INT(OM_ERR_SIZE_MISMATCH, 17);
    OM_EXPECT_INT(OM_ERR_UNALIGNED, 18);
    OM_EXPECT_INT(OM_ERR_VIEW_CONFLICT, 19);
    OM_EXPECT_INT(OM_ERR_UNKNOWN_VIEW, 20);
    OM_EXPECT_INT(OM_STATUS_COUNT, 21);
    OM_EXPECT_INT(OM_ERROR_MESSAGE_SIZE, 256);
    OM_EXPECT_INT(sizeof(((om_error *)0)->message), OM_ERROR_MESSAGE_SIZE);
}

static void test_error_clear(void)
{
    om_error err;
    memset(&err, 'x', sizeof err);
    err.status = OM_ERR_PARSE;
    om_error_clear(&err);
    OM_EXPECT_INT(err.status, OM_OK);
    OM_EXPECT_STR(err.message, "");
    om_error_clear(NULL); /* no-op, must not crash */
    OM_EXPECT(1);
}

static void test_error_filled_by_failing_call(void)
{
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = NULL;
    om_status st = om_mesh_from_spec("dp=0", &mesh, &err);
    OM_EXPECT_ERR(st, &err, OM_ERR_BAD_SIZE, "dp", "0");
    OM_EXPECT(mesh == NULL);
    /* A later successful call leaves the report untouched. */
    om_status ok = om_mesh_from_spec("dp=2", &mesh, &err);
    OM_EXPECT_INT(ok, OM_OK);
    OM_EXPECT_INT(err.status, OM_ERR_BAD_SIZE);
    OM_EXPECT(strstr(err.message, "dp") != NULL);
    om_mesh_free(mesh);
}

static void test_error_null_report(void)
{
    /* Every fallible call accepts err == NULL. */
    om_mesh *mesh = NULL;
    OM_EXPECT_INT(om_mesh_from_spec("dp=-1", &mesh, NULL), OM_ERR_BAD_SIZE);
    OM_EXPECT(mesh == NULL);
    OM_EXPECT_INT(om_mesh_from_spec(NULL, &mesh, NULL), OM_ERR_INVALID_ARGUMENT);
    om_dims *dims = NULL;
    OM_EXPECT_INT(om_dims_new(NULL, NULL), OM_ERR_INVALID_ARGUMENT);
    OM_EXPECT_INT(om_dims_from_yaml("[", 1, 1, &dims, NULL), OM_ERR_PARSE);
    OM_EXPECT(dims == NULL);
}

static void test_error_message_bounded(void)
{
    /* A very long offending value is shortened; the message stays
     * NUL-terminated inside the fixed buffer. */
    char spec[4096];
    memset(spec, 'a', sizeof spec - 1);
    spec[sizeof spec - 1] = '\0';
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = NULL;
    om_status st = om_mesh_from_spec(spec, &mesh, &err);
    OM_EXPECT_ERR(st, &err, OM_ERR_PARSE, "aaaa", "...");
    OM_EXPECT(strlen(err.message) < OM_ERROR_MESSAGE_SIZE);
}

static void test_free_null(void)
{
    om_mesh_free(NULL);
    om_dims_free(NULL);
    om_string_free(NULL);
    OM_EXPECT(1); /* reaching here is the test */
}

static const om_test_case status_tests[] = {
    {"status strings", test_status_strings},
    {"unknown status", test_status_unknown},
    {"status identifiers (om_status_name)", test_status_identifiers},
    {"status names distinct", test_status_names_distinct},
    {"pinned values", test_status_pinned_values},
    {"om_error_clear", test_error_clear},
    {"error filled by the failing call only", test_error_filled_by_failing_call},
    {"NULL error report", test_error_null_report},
    {"message bounded", test_error_message_bounded},
    {"free(NULL) is a no-op", test_free_null},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"status", NULL, NULL, status_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
