/* Canonical mesh JSON and its strict reader.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "om_test.h"

static char *to_json(const om_mesh *mesh)
{
    om_error err;
    om_error_clear(&err);
    char *text = NULL;
    OM_EXPECT_OK(om_mesh_to_json(mesh, &text, &err), &err);
    return text;
}

/* Parses `text` (strlen) and expects failure `want` whose message holds
 * `needle` (may be NULL). */
static void expect_reject_n(const char *text, size_t len, om_status want,
                            const char *needle, unsigned line)
{
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = (om_mesh *)(void *)&err;
    om_status st = om_mesh_from_json(text, len, &mesh, &err);
    om_test_record(st == want, __FILE__, line,
                   "from_json(%.80s) returned %d (%s), expected %d: %s", text,
                   (int)st, om_status_string(st), (int)want, err.message);
    om_test_record(st == OM_OK || err.status == st, __FILE__, line,
                   "err.status %d differs from the returned %d",
                   (int)err.status, (int)st);
    om_test_record(mesh == NULL || st == OM_OK, __FILE__, line,
                   "*out not reset to NULL on failure");
    if (needle)
        om_test_record(strstr(err.message, needle) != NULL, __FILE__, line,
                       "message \"%s\" lacks \"%s\"", err.message, needle);
    if (st == OM_OK)
        om_mesh_free(mesh);
}
#define REJECT(text, want, needle) \
    expect_reject_n((text), strlen(text), (want), (needle), __LINE__)

static om_mesh *parse(const char *text)
{
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = NULL;
    OM_EXPECT_OK(om_mesh_from_json(text, strlen(text), &mesh, &err), &err);
    return mesh;
}

/* ---- writing ---- */

static void test_canonical_output(void)
{
    struct {
        const char *spec;
        const char *json;
    } cases[] = {
        {"dp=2,cp=2,tp=2", "{\"mesh_dim_names\":[\"dp\",\"cp\",\"tp\"],\"mesh_shape\":[2,2,2]}"},
        {"dp=2,tp=4", "{\"mesh_dim_names\":[\"dp\",\"tp\"],\"mesh_shape\":[2,4]}"},
        {"tp=4,dp=2", "{\"mesh_dim_names\":[\"tp\",\"dp\"],\"mesh_shape\":[4,2]}"},
        {"", "{\"mesh_dim_names\":[],\"mesh_shape\":[]}"},
        {"x=2147483647", "{\"mesh_dim_names\":[\"x\"],\"mesh_shape\":[2147483647]}"},
        {"a\"b=1", "{\"mesh_dim_names\":[\"a\\\"b\"],\"mesh_shape\":[1]}"},
        {"a\\b=1", "{\"mesh_dim_names\":[\"a\\\\b\"],\"mesh_shape\":[1]}"},
        {"a/b=1", "{\"mesh_dim_names\":[\"a/b\"],\"mesh_shape\":[1]}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        om_mesh *mesh = om_test_mesh(cases[i].spec);
        char *text = to_json(mesh);
        OM_EXPECT_STR(text, cases[i].json);
        /* No trailing newline or spaces. */
        OM_EXPECT(text && strchr(text, ' ') == NULL && strchr(text, '\n') == NULL);
        om_string_free(text);
        om_mesh_free(mesh);
    }
}

static void test_canonical_control_characters(void)
{
    const char *names[] = {"a\nb", "t\tc", "\x01"};
    const int64_t sizes[] = {1, 2, 3};
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = NULL;
    OM_EXPECT_OK(om_mesh_new(names, sizes, 3, &mesh, &err), &err);
    char *text = to_json(mesh);
    OM_EXPECT_STR(text, "{\"mesh_dim_names\":[\"a\\nb\",\"t\\tc\",\"\\u0001\"],"
                        "\"mesh_shape\":[1,2,3]}");
    om_mesh *back = parse(text);
    OM_EXPECT(om_mesh_equal(mesh, back));
    om_mesh_free(back);
    om_string_free(text);
    om_mesh_free(mesh);
}

static void test_canonical_non_ascii(void)
{
    /* Canonical JSON is Python's json.dumps(sort_keys=True,
     * separators=(",", ":")), which escapes every byte outside printable
     * ASCII as lower-case \uXXXX (UTF-16 surrogate pairs beyond the BMP,
     * and DEL as \u007f), so the C library, the bindings and the Python
     * original write the same bytes. */
    const char *names[] = {"d\xc3\xa9", "\xf0\x9f\x98\x80", "x\x7f"};
    const int64_t sizes[] = {2, 1, 3};
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = NULL;
    OM_EXPECT_OK(om_mesh_new(names, sizes, 3, &mesh, &err), &err);
    char *text = to_json(mesh);
    OM_EXPECT_STR(text, "{\"mesh_dim_names\":[\"d\\u00e9\",\"\\ud83d\\ude00\","
                        "\"x\\u007f\"],\"mesh_shape\":[2,1,3]}");
    /* Whatever the spelling, it reads back to the same mesh. */
    om_mesh *back = text ? parse(text) : NULL;
    OM_EXPECT(om_mesh_equal(mesh, back));
    om_mesh_free(back);
    om_string_free(text);
    om_mesh_free(mesh);
}

static void test_to_json_null(void)
{
    om_error err;
    om_error_clear(&err);
    char *text = (char *)"sentinel";
    OM_EXPECT_ERR(om_mesh_to_json(NULL, &text, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "mesh");
    OM_EXPECT(text == NULL);
    om_mesh *mesh = om_test_mesh("dp=2");
    OM_EXPECT_ERR(om_mesh_to_json(mesh, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
    om_mesh_free(mesh);
}

/* ---- reading ---- */

static void test_parse_valid(void)
{
    om_mesh *mesh = parse("{\"mesh_dim_names\":[\"dp\",\"cp\",\"tp\"],\"mesh_shape\":[2,3,4]}");
    OM_EXPECT_INT(om_mesh_ndim(mesh), 3);
    OM_EXPECT_STR(om_mesh_name(mesh, 1), "cp");
    OM_EXPECT_INT(om_mesh_dim_size(mesh, 2), 4);
    OM_EXPECT_INT(om_mesh_size(mesh), 24);
    om_mesh_free(mesh);
    /* Key order and whitespace are free. */
    mesh = parse(" \n\t{ \"mesh_shape\" : [ 4 , 2 ] ,\r\n \"mesh_dim_names\" : "
                 "[ \"dp\" , \"tp\" ] } \n ");
    om_mesh *expected = om_test_mesh("dp=4,tp=2");
    OM_EXPECT(om_mesh_equal(mesh, expected));
    om_mesh_free(expected);
    om_mesh_free(mesh);
    /* Escapes decode. */
    mesh = parse("{\"mesh_dim_names\":[\"d\\u00e9\",\"\\ud83d\\ude00\"],\"mesh_shape\":[1,2]}");
    OM_EXPECT_STR(om_mesh_name(mesh, 0), "d\xc3\xa9");
    OM_EXPECT_STR(om_mesh_name(mesh, 1), "\xf0\x9f\x98\x80");
    om_mesh_free(mesh);
    mesh = parse("{\"mesh_dim_names\":[],\"mesh_shape\":[]}");
    OM_EXPECT_INT(om_mesh_ndim(mesh), 0);
    OM_EXPECT_INT(om_mesh_size(mesh), 1);
    om_mesh_free(mesh);
}

static void test_parse_not_nul_terminated(void)
{
    /* The reader honours `length` and never reads beyond it. */
    const char *full = "{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[8]}GARBAGE";
    size_t len = strlen(full) - strlen("GARBAGE");
    char *copy = malloc(len);
    memcpy(copy, full, len); /* no NUL at the end */
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = NULL;
    OM_EXPECT_OK(om_mesh_from_json(copy, len, &mesh, &err), &err);
    OM_EXPECT_INT(om_mesh_size(mesh), 8);
    om_mesh_free(mesh);
    free(copy);
    /* A length one short of the object is truncated JSON. */
    expect_reject_n(full, len - 1, OM_ERR_PARSE, NULL, __LINE__);
    /* Including the garbage is trailing garbage. */
    expect_reject_n(full, strlen(full), OM_ERR_PARSE, NULL, __LINE__);
}

static void test_parse_syntax_errors(void)
{
    REJECT("", OM_ERR_PARSE, NULL);
    REJECT("   ", OM_ERR_PARSE, NULL);
    REJECT("{", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2]", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2],}", OM_ERR_PARSE, NULL);
    REJECT("{'mesh_dim_names':['dp'],'mesh_shape':[2]}", OM_ERR_PARSE, NULL);
    REJECT("{mesh_dim_names:[\"dp\"],mesh_shape:[2]}", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"dp\",],\"mesh_shape\":[2]}", OM_ERR_PARSE, NULL);
    /* Trailing garbage of every kind. */
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2]}x", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2]}{}", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2]} 1", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2]}]", OM_ERR_PARSE, NULL);
    /* Messages say where. */
    REJECT("{\n\"mesh_dim_names\" [\"dp\"]}", OM_ERR_PARSE, "line 2");
}

static void test_parse_nul(void)
{
    static const char with_nul_after[] =
        "{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2]}\0";
    expect_reject_n(with_nul_after, sizeof with_nul_after - 1, OM_ERR_PARSE,
                    NULL, __LINE__);
    static const char with_nul_inside[] =
        "{\"mesh_dim_names\":[\"d\0p\"],\"mesh_shape\":[2]}";
    expect_reject_n(with_nul_inside, sizeof with_nul_inside - 1, OM_ERR_PARSE,
                    NULL, __LINE__);
    REJECT("{\"mesh_dim_names\":[\"d\\u0000p\"],\"mesh_shape\":[2]}", OM_ERR_PARSE,
           NULL);
    REJECT("{\"mesh_dim_names\":[\"\\u0000\"],\"mesh_shape\":[2]}", OM_ERR_PARSE,
           NULL);
}

static void test_parse_invalid_text(void)
{
    /* Invalid UTF-8 bytes and lone surrogates cannot form a name. */
    REJECT("{\"mesh_dim_names\":[\"\xff\"],\"mesh_shape\":[2]}", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"\xc3\"],\"mesh_shape\":[2]}", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"\\ud800\"],\"mesh_shape\":[2]}", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"\\ude00\"],\"mesh_shape\":[2]}", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"a\nb\"],\"mesh_shape\":[2]}", OM_ERR_PARSE, NULL);
}

static void test_parse_wrong_types(void)
{
    REJECT("[]", OM_ERR_PARSE, "object");
    REJECT("[\"dp\"]", OM_ERR_PARSE, "object");
    REJECT("\"dp\"", OM_ERR_PARSE, NULL);
    REJECT("null", OM_ERR_PARSE, NULL);
    REJECT("2", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":\"dp\",\"mesh_shape\":[2]}", OM_ERR_PARSE,
           "mesh_dim_names");
    REJECT("{\"mesh_dim_names\":{\"dp\":2},\"mesh_shape\":[2]}", OM_ERR_PARSE,
           "mesh_dim_names");
    REJECT("{\"mesh_dim_names\":null,\"mesh_shape\":[2]}", OM_ERR_PARSE,
           "mesh_dim_names");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":2}", OM_ERR_PARSE,
           "mesh_shape");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":null}", OM_ERR_PARSE,
           "mesh_shape");
    /* Element types. */
    REJECT("{\"mesh_dim_names\":[2],\"mesh_shape\":[2]}", OM_ERR_PARSE,
           "mesh_dim_names[0]");
    REJECT("{\"mesh_dim_names\":[\"dp\",null],\"mesh_shape\":[2,2]}", OM_ERR_PARSE,
           "mesh_dim_names[1]");
    REJECT("{\"mesh_dim_names\":[[\"dp\"]],\"mesh_shape\":[2]}", OM_ERR_PARSE,
           "mesh_dim_names[0]");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[\"2\"]}", OM_ERR_PARSE,
           "mesh_shape[0] must be an integer, got \"2\"");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[true]}", OM_ERR_PARSE,
           "mesh_shape[0] must be an integer, got true");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[null]}", OM_ERR_PARSE,
           "mesh_shape[0] must be an integer, got null");
    REJECT("{\"mesh_dim_names\":[\"dp\",\"tp\"],\"mesh_shape\":[2,[2]]}", OM_ERR_PARSE,
           "mesh_shape[1] must be an integer, got an array");
}

static void test_parse_floats(void)
{
    /* The value is named (1.3): 2.0 and 2e0 read alike, as a real. */
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2.0]}", OM_ERR_PARSE,
           "mesh_shape[0] must be an integer, got 2.0");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2.5]}", OM_ERR_PARSE,
           "mesh_shape[0] must be an integer, got 2.5");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2e0]}", OM_ERR_PARSE,
           "mesh_shape[0] must be an integer, got 2.0");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[1E2]}", OM_ERR_PARSE,
           "mesh_shape[0] must be an integer, got 100.0");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[-0.0]}", OM_ERR_PARSE,
           "mesh_shape[0] must be an integer, got -0.0");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[1e300]}", OM_ERR_PARSE,
           "mesh_shape[0] must be an integer, got 1.0000000000000001e+300");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[NaN]}", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[Infinity]}", OM_ERR_PARSE,
           NULL);
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[02]}", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[+2]}", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[0x2]}", OM_ERR_PARSE, NULL);
}

static void test_parse_huge_ints(void)
{
    /* Beyond int64: a parse error, never a wrapped value. */
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[99999999999999999999]}",
           OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[18446744073709551618]}",
           OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[-99999999999999999999]}",
           OM_ERR_PARSE, NULL);
    /* Within int64 but beyond a rank: the mesh rule decides. */
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[9223372036854775807]}",
           OM_ERR_MESH_TOO_LARGE, "9223372036854775807");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2147483648]}",
           OM_ERR_MESH_TOO_LARGE, "2147483648");
    REJECT("{\"mesh_dim_names\":[\"dp\",\"tp\"],\"mesh_shape\":[65536,32768]}",
           OM_ERR_MESH_TOO_LARGE, "32768");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[4294967298]}",
           OM_ERR_MESH_TOO_LARGE, "4294967298");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[-9223372036854775808]}",
           OM_ERR_BAD_SIZE, "-9223372036854775808");
    om_mesh *mesh = parse("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2147483647]}");
    OM_EXPECT_INT(om_mesh_size(mesh), 2147483647);
    om_mesh_free(mesh);
}

static void test_parse_keys(void)
{
    REJECT("{\"mesh_shape\":[2]}", OM_ERR_PARSE, "mesh_dim_names");
    REJECT("{\"mesh_dim_names\":[\"dp\"]}", OM_ERR_PARSE, "mesh_shape");
    REJECT("{}", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2],\"extra\":1}", OM_ERR_PARSE,
           "\"extra\"");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2],\"ep_size\":null}",
           OM_ERR_PARSE, "\"ep_size\"");
    REJECT("{\"Mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2]}", OM_ERR_PARSE, NULL);
    REJECT("{\"mesh_dim_names \":[\"dp\"],\"mesh_shape\":[2]}", OM_ERR_PARSE, NULL);
    /* Duplicate keys, with equal or different values. */
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2],\"mesh_shape\":[2]}",
           OM_ERR_PARSE, "mesh_shape");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_dim_names\":[\"tp\"],\"mesh_shape\":[2]}",
           OM_ERR_PARSE, "mesh_dim_names");
    /* A duplicate spelled with an escape is still a duplicate. */
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2],\"mesh\\u005fshape\":[2]}",
           OM_ERR_PARSE, "duplicate");
}

static void test_parse_mesh_rules(void)
{
    REJECT("{\"mesh_dim_names\":[\"dp\",\"tp\"],\"mesh_shape\":[2]}",
           OM_ERR_LENGTH_MISMATCH, "2");
    REJECT("{\"mesh_dim_names\":[],\"mesh_shape\":[2]}", OM_ERR_LENGTH_MISMATCH, "1");
    REJECT("{\"mesh_dim_names\":[\"dp\",\"dp\"],\"mesh_shape\":[2,2]}",
           OM_ERR_DUPLICATE_NAME, "\"dp\"");
    REJECT("{\"mesh_dim_names\":[\"d\\u00e9\",\"d\\u00e9\"],\"mesh_shape\":[2,2]}",
           OM_ERR_DUPLICATE_NAME, NULL);
    REJECT("{\"mesh_dim_names\":[\"\"],\"mesh_shape\":[2]}", OM_ERR_EMPTY_NAME, NULL);
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[0]}", OM_ERR_BAD_SIZE,
           "\"dp\"");
    REJECT("{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[-3]}", OM_ERR_BAD_SIZE, "-3");
}

static void test_parse_deep_nesting(void)
{
    /* Deep nesting is refused (or fails the type rules) without crashing. */
    enum { DEPTH = 100000 };
    size_t prefix = strlen("{\"mesh_dim_names\":");
    size_t len = prefix + 2 * DEPTH + strlen(",\"mesh_shape\":[1]}");
    char *text = malloc(len + 1);
    OM_EXPECT(text != NULL);
    if (!text)
        return;
    memcpy(text, "{\"mesh_dim_names\":", prefix);
    memset(text + prefix, '[', DEPTH);
    memset(text + prefix + DEPTH, ']', DEPTH);
    strcpy(text + prefix + 2 * DEPTH, ",\"mesh_shape\":[1]}");
    expect_reject_n(text, len, OM_ERR_PARSE, NULL, __LINE__);
    /* Unbalanced: only opening brackets. */
    memset(text, '[', len);
    expect_reject_n(text, len, OM_ERR_PARSE, NULL, __LINE__);
    memset(text, '{', len);
    expect_reject_n(text, len, OM_ERR_PARSE, NULL, __LINE__);
    free(text);
}

static void test_parse_null_arguments(void)
{
    const char *text = "{\"mesh_dim_names\":[],\"mesh_shape\":[]}";
    om_error err;
    om_error_clear(&err);
    om_mesh *mesh = (om_mesh *)(void *)&err;
    OM_EXPECT_ERR(om_mesh_from_json(NULL, 4, &mesh, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT(mesh == NULL);
    OM_EXPECT_ERR(om_mesh_from_json(text, strlen(text), NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "out");
}

static void test_round_trips(void)
{
    static const char *const specs[] = {
        "", "dp=1", "dp=2,cp=2,tp=2", "tp=8,dp=1,pp=4", "x=2147483647",
        "a=1,b=1,c=1,d=1,e=1,f=1,g=1,h=1,i=1,j=1,k=1,l=1,m=1,n=1,o=1,p=1,q=1,r=2",
        "d\xc3\xa9=3,\xe2\x82\xac=5",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        om_mesh *mesh = om_test_mesh(specs[i]);
        char *text = to_json(mesh);
        om_mesh *back = text ? parse(text) : NULL;
        OM_EXPECT(om_mesh_equal(mesh, back));
        OM_EXPECT(om_mesh_hash(mesh) == om_mesh_hash(back));
        /* Writing the parsed mesh gives the same bytes. */
        char *again = back ? to_json(back) : NULL;
        OM_EXPECT_STR(again, text);
        om_string_free(again);
        om_string_free(text);
        om_mesh_free(back);
        om_mesh_free(mesh);
    }
}


/* ---- 1.1: om_mesh_load_json ---- */

static void write_text(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    OM_EXPECT(f != NULL);
    if (f) {
        OM_EXPECT(fwrite(text, 1, len, f) == len);
        fclose(f);
    }
}

static void test_load_json(void)
{
    const char *dir = getenv("OM_TEST_TMPDIR");
    char path[1100];
    snprintf(path, sizeof path, "%s/load-mesh.json", dir ? dir : "/tmp");
    const char *text = "{\"mesh_dim_names\":[\"dp\",\"tp\"],\"mesh_shape\":[2,4]}\n";
    write_text(path, text, strlen(text));
    om_mesh *mesh = NULL;
    om_error err;
    om_test_poison(&err);
    OM_EXPECT_OK(om_mesh_load_json(path, &mesh, &err), &err);
    OM_EXPECT(om_test_is_poisoned(&err));
    OM_EXPECT_INT(om_mesh_size(mesh), 8);
    OM_EXPECT_STR(om_mesh_name(mesh, 1), "tp");
    om_mesh_free(mesh);
    /* Parse errors keep the parser's words behind the file name. */
    write_text(path, "{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2]} x", 45);
    mesh = (om_mesh *)(void *)&err;
    OM_EXPECT_ERR(om_mesh_load_json(path, &mesh, &err), &err, OM_ERR_PARSE,
                  "load-mesh.json: mesh JSON line 1");
    OM_EXPECT(mesh == NULL);
    write_text(path, "{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[0]}", 42);
    OM_EXPECT_ERR(om_mesh_load_json(path, &mesh, &err), &err, OM_ERR_BAD_SIZE,
                  "load-mesh.json: axis \"dp\" has size 0");
    unlink(path);
    OM_EXPECT_ERR(om_mesh_load_json(path, &mesh, &err), &err, OM_ERR_IO,
                  "load-mesh.json: cannot open");
    OM_EXPECT_ERR(om_mesh_load_json(dir ? dir : "/tmp", &mesh, &err), &err, OM_ERR_IO,
                  "is a directory");
    /* A FIFO is refused at once (it used to block the CLI forever). */
    OM_EXPECT(mkfifo(path, 0600) == 0);
    OM_EXPECT_ERR(om_mesh_load_json(path, &mesh, &err), &err, OM_ERR_IO,
                  "is a FIFO, not a regular file");
    unlink(path);
    OM_EXPECT_ERR(om_mesh_load_json(NULL, &mesh, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "path is NULL");
    OM_EXPECT_ERR(om_mesh_load_json(path, NULL, &err), &err, OM_ERR_INVALID_ARGUMENT,
                  "NULL");
}

static void test_load_json_limit(void)
{
    /* A valid mesh padded past 64 MiB: an error naming the limit, never a
     * silent stop that accepts the first 64 MiB. */
    const char *dir = getenv("OM_TEST_TMPDIR");
    char path[1100];
    snprintf(path, sizeof path, "%s/load-mesh-big.json", dir ? dir : "/tmp");
    FILE *f = fopen(path, "wb");
    OM_EXPECT(f != NULL);
    if (!f)
        return;
    const char *text = "{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2]}";
    fputs(text, f);
    static char spaces[1 << 16];
    memset(spaces, ' ', sizeof spaces);
    size_t total = strlen(text);
    while (total < ((size_t)64 << 20)) {
        size_t n = sizeof spaces;
        if (total + n > ((size_t)64 << 20))
            n = ((size_t)64 << 20) - total;
        fwrite(spaces, 1, n, f);
        total += n;
    }
    fclose(f);
    om_mesh *mesh = NULL;
    om_error err;
    om_error_clear(&err);
    /* Exactly 64 MiB of mesh and whitespace is accepted ... */
    OM_EXPECT_OK(om_mesh_load_json(path, &mesh, &err), &err);
    om_mesh_free(mesh);
    /* ... one byte more is not. */
    f = fopen(path, "ab");
    fputs("G", f);
    fclose(f);
    OM_EXPECT_ERR(om_mesh_load_json(path, &mesh, &err), &err, OM_ERR_IO,
                  "larger than 64 MiB");
    unlink(path);
}

static const om_test_case json_tests[] = {
    {"1.1 load_json: files and their errors", test_load_json},
    {"1.1 load_json: the 64 MiB limit is an error", test_load_json_limit},
    {"canonical output", test_canonical_output},
    {"canonical control characters", test_canonical_control_characters},
    {"canonical non-ASCII (Python spelling)", test_canonical_non_ascii},
    {"to_json NULL arguments", test_to_json_null},
    {"parse valid", test_parse_valid},
    {"parse honours length", test_parse_not_nul_terminated},
    {"syntax errors and trailing garbage", test_parse_syntax_errors},
    {"NUL characters", test_parse_nul},
    {"invalid text", test_parse_invalid_text},
    {"wrong types", test_parse_wrong_types},
    {"floats", test_parse_floats},
    {"huge integers", test_parse_huge_ints},
    {"missing, unknown and duplicate keys", test_parse_keys},
    {"mesh rules through JSON", test_parse_mesh_rules},
    {"deep nesting", test_parse_deep_nesting},
    {"from_json NULL arguments", test_parse_null_arguments},
    {"round trips", test_round_trips},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"mesh_json", NULL, NULL, json_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
