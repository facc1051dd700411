/* Version macros, the runtime query and the meson project version.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "om_test.h"

#ifndef OM_TEST_PROJECT_VERSION
#error "tests/meson.build passes the meson project version"
#endif

static void test_macros_match_project(void)
{
    char text[64];
    snprintf(text, sizeof text, "%d.%d.%d", OM_VERSION_MAJOR, OM_VERSION_MINOR,
             OM_VERSION_PATCH);
    OM_EXPECT_STR(text, OM_TEST_PROJECT_VERSION);
    OM_EXPECT_STR(OM_VERSION_STRING, OM_TEST_PROJECT_VERSION);
    OM_EXPECT_INT(OM_VERSION_NUMBER,
                  OM_VERSION_MAJOR * 10000 + OM_VERSION_MINOR * 100 +
                      OM_VERSION_PATCH);
}

static void test_runtime_matches_macros(void)
{
    OM_EXPECT_STR(om_version_string(), OM_VERSION_STRING);
    OM_EXPECT_INT(om_version_number(), OM_VERSION_NUMBER);
    /* The runtime number agrees with parsing the runtime string. */
    int major = -1, minor = -1, patch = -1;
    OM_EXPECT_INT(sscanf(om_version_string(), "%d.%d.%d", &major, &minor, &patch),
                  3);
    OM_EXPECT_INT(om_version_number(), major * 10000 + minor * 100 + patch);
}

static void test_version_is_static(void)
{
    /* Static storage: two calls give the same pointer. */
    OM_EXPECT(om_version_string() == om_version_string());
    OM_EXPECT_INT(OM_VERSION_MAJOR, 1);
    /* The components fit the packed number without overlap. */
    OM_EXPECT(OM_VERSION_MINOR >= 0 && OM_VERSION_MINOR < 100);
    OM_EXPECT(OM_VERSION_PATCH >= 0 && OM_VERSION_PATCH < 100);
}

static const om_test_case version_tests[] = {
    {"macros match the meson project version", test_macros_match_project},
    {"runtime matches the macros", test_runtime_matches_macros},
    {"static string, packable components", test_version_is_static},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"version", NULL, NULL, version_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
