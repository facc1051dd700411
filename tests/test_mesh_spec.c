/* The text form of a mesh: "dp=2,cp=2,tp=8".
 * SPDX-License-Identifier: MIT */
#include <string.h>

#include "om_test.h"

static void expect_spec(const char *spec, const char *const *names,
                        const int64_t *sizes, size_t n, unsigned line)
{
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = NULL;
    om_status st = om_mesh_from_spec(spec, &mesh, &err);
    om_test_record(st == OM_OK, __FILE__, line, "from_spec(\"%s\"): %s", spec,
                   err.message);
    om_mesh *want = NULL;
    om_status built = om_mesh_new(names, sizes, n, &want, &err);
    om_test_record(built == OM_OK && om_mesh_equal(mesh, want), __FILE__, line,
                   "from_spec(\"%s\") gave a different mesh", spec);
    om_mesh_free(want);
    om_mesh_free(mesh);
}

static void expect_fail(const char *spec, om_status want, const char *needle,
                        unsigned line)
{
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = (om_mesh *)(void *)&err;
    om_status st = om_mesh_from_spec(spec, &mesh, &err);
    om_test_record(st == want && err.status == want, __FILE__, line,
                   "from_spec(\"%s\") returned %d (%s), expected %d: %s", spec,
                   (int)st, om_status_string(st), (int)want, err.message);
    om_test_record(mesh == NULL, __FILE__, line, "*out not reset to NULL");
    if (needle)
        om_test_record(strstr(err.message, needle) != NULL, __FILE__, line,
                       "message \"%s\" lacks \"%s\"", err.message, needle);
    if (st == OM_OK)
        om_mesh_free(mesh);
}

static void test_parse(void)
{
    const char *n3[] = {"dp", "cp", "tp"};
    const int64_t s3[] = {2, 2, 8};
    expect_spec("dp=2,cp=2,tp=8", n3, s3, 3, __LINE__);
    expect_spec(" dp = 2 , cp=2 ,\ttp=8\t", n3, s3, 3, __LINE__);
    expect_spec("dp=+2,cp=02,tp=0008", n3, s3, 3, __LINE__);
    const char *n1[] = {"x"};
    const int64_t s1[] = {2147483647};
    expect_spec("x=2147483647", n1, s1, 1, __LINE__);
    const char *nspace[] = {"my axis"};
    const int64_t sspace[] = {3};
    expect_spec("my axis=3", nspace, sspace, 1, __LINE__);
    const char *nutf[] = {"d\xc3\xa9"};
    expect_spec("d\xc3\xa9=3", nutf, sspace, 1, __LINE__);
}

static void test_parse_empty(void)
{
    expect_spec("", NULL, NULL, 0, __LINE__);
    expect_spec("   ", NULL, NULL, 0, __LINE__);
    expect_spec("\t", NULL, NULL, 0, __LINE__);
}

static void test_parse_errors(void)
{
    expect_fail("dp", OM_ERR_PARSE, "\"dp\"", __LINE__);
    expect_fail("dp=2,tp", OM_ERR_PARSE, "\"tp\"", __LINE__);
    expect_fail("dp=", OM_ERR_PARSE, "\"dp=\"", __LINE__);
    expect_fail("dp=x", OM_ERR_PARSE, "\"dp=x\"", __LINE__);
    expect_fail("dp=2.0", OM_ERR_PARSE, "\"dp=2.0\"", __LINE__);
    expect_fail("dp=2 3", OM_ERR_PARSE, "\"dp=2 3\"", __LINE__);
    expect_fail("dp=0x2", OM_ERR_PARSE, "\"dp=0x2\"", __LINE__);
    expect_fail("dp=2=3", OM_ERR_PARSE, NULL, __LINE__);
    expect_fail("dp=2,", OM_ERR_PARSE, NULL, __LINE__);
    expect_fail(",dp=2", OM_ERR_PARSE, NULL, __LINE__);
    expect_fail("dp=2,,tp=2", OM_ERR_PARSE, NULL, __LINE__);
    expect_fail("dp=2;tp=2", OM_ERR_PARSE, NULL, __LINE__);
}

static void test_parse_mesh_rules(void)
{
    expect_fail("=2", OM_ERR_EMPTY_NAME, NULL, __LINE__);
    expect_fail("dp=2, =2", OM_ERR_EMPTY_NAME, NULL, __LINE__);
    expect_fail("dp=2,dp=4", OM_ERR_DUPLICATE_NAME, "\"dp\"", __LINE__);
    expect_fail("dp=0", OM_ERR_BAD_SIZE, "0", __LINE__);
    expect_fail("dp=2,tp=-4", OM_ERR_BAD_SIZE, "-4", __LINE__);
    expect_fail("dp=65536,tp=65536", OM_ERR_MESH_TOO_LARGE, "65536", __LINE__);
    expect_fail("dp=2147483648", OM_ERR_MESH_TOO_LARGE, "2147483648", __LINE__);
    /* Beyond int64: still too large (saturated), never wrapped, and the
     * item named as written (it used to show 9223372036854775807). */
    expect_fail("dp=99999999999999999999999", OM_ERR_MESH_TOO_LARGE,
                "\"dp=99999999999999999999999\"", __LINE__);
    expect_fail("tp=2,dp=18446744073709551617", OM_ERR_MESH_TOO_LARGE,
                "mesh spec item \"dp=18446744073709551617\": size exceeds 2^31-1",
                __LINE__);
    expect_fail("dp=-99999999999999999999999", OM_ERR_BAD_SIZE,
                "mesh spec item \"dp=-99999999999999999999999\": sizes must be >= 1",
                __LINE__);
    expect_fail("\xff=2", OM_ERR_INVALID_NAME, "UTF-8", __LINE__);
}

static void test_parse_null(void)
{
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = (om_mesh *)(void *)&err;
    OM_EXPECT_ERR(om_mesh_from_spec(NULL, &mesh, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT(mesh == NULL);
    OM_EXPECT_ERR(om_mesh_from_spec("dp=2", NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
}

static void test_print(void)
{
    struct {
        const char *in, *out;
    } cases[] = {
        {"dp=2,cp=2,tp=8", "dp=2,cp=2,tp=8"},
        {" dp = 2 , tp=+08 ", "dp=2,tp=8"},
        {"", ""},
        {"x=2147483647", "x=2147483647"},
        {"my axis=3", "my axis=3"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        om_mesh *mesh = om_test_mesh(cases[i].in);
        om_error err;
        om_test_poison(&err);
        char *text = NULL;
        OM_EXPECT_OK(om_mesh_to_spec(mesh, &text, &err), &err);
        OM_EXPECT(om_test_is_poisoned(&err));
        OM_EXPECT_STR(text, cases[i].out);
        om_string_free(text);
        om_mesh_free(mesh);
    }
}

static void test_print_unrepresentable(void)
{
    static const char *const bad[] = {"a,b", "a=b", " a", "a ", "\ta", "a\t", ",", "="};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *names[] = {"dp", bad[i]};
        const int64_t sizes[] = {2, 2};
        om_error err;
        om_error_clear(&err);
        om_mesh *mesh = NULL;
        OM_EXPECT_OK(om_mesh_new(names, sizes, 2, &mesh, &err), &err);
        char *text = (char *)"sentinel";
        om_status st = om_mesh_to_spec(mesh, &text, &err);
        OM_EXPECT_ERR(st, &err, OM_ERR_INVALID_ARGUMENT, "text form");
        OM_EXPECT(text == NULL);
        om_mesh_free(mesh);
    }
}

static void test_print_null(void)
{
    om_error err;
    om_error_clear(&err);
    char *text = (char *)"sentinel";
    OM_EXPECT_ERR(om_mesh_to_spec(NULL, &text, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh");
    OM_EXPECT(text == NULL);
    om_mesh *mesh = om_test_mesh("dp=2");
    OM_EXPECT_ERR(om_mesh_to_spec(mesh, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
    om_mesh_free(mesh);
}

static void test_round_trip(void)
{
    /* Printing then reading gives an equal mesh, for names with inner
     * spaces, UTF-8, control characters and many axes. */
    const char *names[] = {"dp", "my axis", "d\xc3\xa9", "a\nb", "x:y", "1"};
    const int64_t sizes[] = {2, 3, 1, 5, 7, 1};
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = NULL;
    OM_EXPECT_OK(om_mesh_new(names, sizes, 6, &mesh, &err), &err);
    char *text = NULL;
    OM_EXPECT_OK(om_mesh_to_spec(mesh, &text, &err), &err);
    OM_EXPECT_STR(text, "dp=2,my axis=3,d\xc3\xa9=1,a\nb=5,x:y=7,1=1");
    om_mesh *back = NULL;
    OM_EXPECT_OK(om_mesh_from_spec(text ? text : "", &back, &err), &err);
    OM_EXPECT(om_mesh_equal(mesh, back));
    om_mesh_free(back);
    om_string_free(text);
    om_mesh_free(mesh);
}

static const om_test_case spec_tests[] = {
    {"parse", test_parse},
    {"parse: empty string is the empty mesh", test_parse_empty},
    {"parse: syntax errors", test_parse_errors},
    {"parse: mesh rules", test_parse_mesh_rules},
    {"parse: NULL arguments", test_parse_null},
    {"print", test_print},
    {"print: names the text form cannot carry", test_print_unrepresentable},
    {"print: NULL arguments", test_print_null},
    {"round trip", test_round_trip},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"mesh_spec", NULL, NULL, spec_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
