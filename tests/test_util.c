/* The utility layer (src/util/): string builder, JSON string escaper,
 * bounded file reader, UTF-8 helpers and error formatting. Linked to the
 * library's static copy, whose internal symbols are visible.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "om_test.h"
#include "util/util.h"

static char tmpdir[1024];

static int suite_init(void)
{
    const char *dir = getenv("OM_TEST_TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s", dir ? dir : "/tmp");
    return 0;
}

/* ---- string builder ---- */

static void test_str(void)
{
    omu_str s = {0};
    OM_EXPECT_STR(omu_str_cstr(&s), "");
    omu_str_puts(&s, "dp");
    omu_str_putc(&s, '=');
    omu_str_int(&s, -9223372036854775807LL - 1);
    omu_str_printf(&s, ",%s=%d", "tp", 4);
    omu_str_put(&s, "xyz", 0);
    OM_EXPECT_STR(omu_str_cstr(&s), "dp=-9223372036854775808,tp=4");
    OM_EXPECT_INT(s.len, strlen("dp=-9223372036854775808,tp=4"));
    OM_EXPECT(!s.failed);
    /* Growth far past the first block keeps every byte. */
    for (int i = 0; i < 10000; i++)
        omu_str_printf(&s, "%04d", i % 10000);
    OM_EXPECT_INT(s.len, 28 + 40000);
    OM_EXPECT(memcmp(s.data + 28, "00000001", 8) == 0);
    OM_EXPECT(memcmp(s.data + s.len - 4, "9999", 4) == 0);
    omu_str_clear(&s);
    OM_EXPECT_STR(omu_str_cstr(&s), "");
    omu_str_puts(&s, "ab");
    size_t len = 0;
    char *text = omu_str_detach(&s, &len);
    OM_EXPECT_STR(text, "ab");
    OM_EXPECT_INT(len, 2);
    OM_EXPECT(s.data == NULL && s.len == 0);
    omu_free(text);
    /* An empty builder still detaches a string. */
    text = omu_str_detach(&s, &len);
    OM_EXPECT(text != NULL && text[0] == '\0' && len == 0);
    omu_free(text);
    /* A failed builder ignores appends and detaches NULL. */
    omu_str_puts(&s, "x");
    s.failed = true;
    omu_str_puts(&s, "more");
    OM_EXPECT_INT(s.len, 1);
    OM_EXPECT(omu_str_detach(&s, &len) == NULL && len == 0);
    omu_str_free(&s);
    omu_str_free(&s); /* twice is fine */
}

/* ---- JSON strings ---- */

static void expect_json(const char *in, size_t len, const char *want, unsigned line)
{
    omu_str s = {0};
    omu_str_json_string(&s, in, len);
    om_test_record(strcmp(omu_str_cstr(&s), want) == 0, __FILE__, line,
                   "escaped as %s, expected %s", omu_str_cstr(&s), want);
    omu_str_free(&s);
}

static void test_json_escape(void)
{
    expect_json("tp", 2, "\"tp\"", __LINE__);
    expect_json("", 0, "\"\"", __LINE__);
    expect_json("a\"b\\c", 5, "\"a\\\"b\\\\c\"", __LINE__);
    expect_json("\n\r\t\b\f", 5, "\"\\n\\r\\t\\b\\f\"", __LINE__);
    expect_json("\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\"", __LINE__);
    expect_json("a\0b", 3, "\"a\\u0000b\"", __LINE__);
    /* Python's json.dumps(ensure_ascii=True) spelling. */
    expect_json("\xc3\xa9", 2, "\"\\u00e9\"", __LINE__);
    expect_json("\xe2\x82\xac", 3, "\"\\u20ac\"", __LINE__);
    expect_json("\xf0\x9f\x98\x80", 4, "\"\\ud83d\\ude00\"", __LINE__);
    /* Invalid UTF-8 never makes invalid JSON. */
    expect_json("\xff", 1, "\"\\ufffd\"", __LINE__);
    expect_json("\xe2\x82", 2, "\"\\ufffd\\ufffd\"", __LINE__);
}

/* ---- files ---- */

static void write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    OM_EXPECT(f != NULL);
    if (f) {
        OM_EXPECT(fwrite(data, 1, len, f) == len);
        fclose(f);
    }
}

static void test_file_read(void)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/util-file.txt", tmpdir);
    write_file(path, "hello\0world", 11);
    char *text = NULL;
    size_t len = 0;
    om_error err;
    om_test_poison(&err);
    OM_EXPECT_OK(omu_file_read(path, OMU_FILE_LIMIT, &text, &len, &err), &err);
    OM_EXPECT(len == 11 && memcmp(text, "hello\0world", 12) == 0);
    OM_EXPECT(om_test_is_poisoned(&err));
    omu_free(text);
    /* Exactly at the limit is fine; one byte more is an error, not a stop. */
    OM_EXPECT_OK(omu_file_read(path, 11, &text, &len, &err), &err);
    omu_free(text);
    om_error_clear(&err);
    text = (char *)"x";
    OM_EXPECT_ERR(omu_file_read(path, 10, &text, &len, &err), &err, OM_ERR_IO,
                  "file is larger than 10 bytes");
    OM_EXPECT(text == NULL && len == 0);
    /* Empty file. */
    write_file(path, "", 0);
    OM_EXPECT_OK(omu_file_read(path, OMU_FILE_LIMIT, &text, &len, &err), &err);
    OM_EXPECT(len == 0 && text && text[0] == '\0');
    omu_free(text);
    /* Larger than the first block; the limit in MiB. */
    size_t big = ((size_t)1 << 20) + 1;
    char *data = malloc(big);
    memset(data, 'a', big);
    write_file(path, data, big);
    OM_EXPECT_ERR(omu_file_read(path, (size_t)1 << 20, &text, &len, &err), &err,
                  OM_ERR_IO, "file is larger than 1 MiB");
    OM_EXPECT_OK(omu_file_read(path, big, &text, &len, &err), &err);
    OM_EXPECT(len == big && text[big - 1] == 'a' && text[big] == '\0');
    omu_free(text);
    free(data);
    unlink(path);
}

static void test_file_refusals(void)
{
    char path[1100];
    char *text = (char *)"x";
    size_t len = 7;
    om_error err;
    om_error_clear(&err);
    snprintf(path, sizeof path, "%s/util-missing-file", tmpdir);
    OM_EXPECT_ERR(omu_file_read(path, OMU_FILE_LIMIT, &text, &len, &err), &err,
                  OM_ERR_IO, "cannot open", "No such file");
    OM_EXPECT(text == NULL && len == 0);
    OM_EXPECT_ERR(omu_file_read(tmpdir, OMU_FILE_LIMIT, &text, &len, &err), &err,
                  OM_ERR_IO, "is a directory");
    OM_EXPECT_ERR(omu_file_read("/dev/null", OMU_FILE_LIMIT, &text, &len, &err), &err,
                  OM_ERR_IO, "is a character device, not a regular file");
    /* A FIFO without a writer: refused at once, never a blocked read. */
    snprintf(path, sizeof path, "%s/util-fifo", tmpdir);
    unlink(path);
    OM_EXPECT(mkfifo(path, 0600) == 0);
    OM_EXPECT_ERR(omu_file_read(path, OMU_FILE_LIMIT, &text, &len, &err), &err,
                  OM_ERR_IO, "is a FIFO, not a regular file");
    unlink(path);
}

/* omu_file_parse: the parser sees the text; a failure of the read or the
 * parse is prefixed with the path (escaped), out of memory is not. */
typedef struct {
    om_status answer;
    size_t seen;
} parse_probe;

static om_status probe_parse(const char *text, size_t length, void *ctx, om_error *err)
{
    parse_probe *p = ctx;
    p->seen = length;
    if (p->answer == OM_OK)
        return strcmp(text, "abc") == 0 ? OM_OK
                                        : omu_fail(err, OM_ERR_PARSE, "wrong text");
    return omu_fail(err, p->answer, "line 1: bad");
}

static void test_file_parse(void)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/util-parse.txt", tmpdir);
    write_file(path, "abc", 3);
    om_error err;
    parse_probe probe = {OM_OK, 0};
    OM_EXPECT_OK(omu_file_parse(path, probe_parse, &probe, &err), &err);
    OM_EXPECT_INT(probe.seen, 3);
    probe.answer = OM_ERR_PARSE;
    OM_EXPECT_ERR(omu_file_parse(path, probe_parse, &probe, &err), &err, OM_ERR_PARSE,
                  "util-parse.txt: line 1: bad");
    probe.answer = OM_ERR_NO_MEMORY;
    OM_EXPECT_ERR(omu_file_parse(path, probe_parse, &probe, &err), &err,
                  OM_ERR_NO_MEMORY, "line 1: bad");
    OM_EXPECT(strncmp(err.message, "line 1: bad", 11) == 0);
    unlink(path);
    /* A read failure names the path too, its control characters escaped. */
    snprintf(path, sizeof path, "%s/util-\x1b]0;t\x07-missing", tmpdir);
    probe.seen = 99;
    OM_EXPECT_ERR(omu_file_parse(path, probe_parse, &probe, &err), &err, OM_ERR_IO,
                  "util-\\x1B]0;t\\x07-missing: cannot open: No such file");
    OM_EXPECT(probe.seen == 99 && !strchr(err.message, '\x1b'));
}

/* ---- UTF-8 and error reports ---- */

static void test_utf8_and_errors(void)
{
    OM_EXPECT(omu_utf8_valid("\xe2\x82\xac", 3));
    OM_EXPECT(!omu_utf8_valid("\xc0\xaf", 2));      /* overlong */
    OM_EXPECT(!omu_utf8_valid("\xed\xa0\x80", 3));  /* surrogate */
    OM_EXPECT_INT(omu_utf8_sequence("\xf0\x9f\x98\x80", 4), 4);
    OM_EXPECT_INT(omu_utf8_sequence("\xf0\x9f\x98", 3), 0);
    char cut[] = "ab\xe2\x82";
    omu_utf8_repair(cut);
    OM_EXPECT_STR(cut, "ab");
    char bad[] = "a\xff" "b";
    omu_utf8_repair(bad);
    OM_EXPECT_STR(bad, "a?b");
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_INT(omu_fail(&err, OM_ERR_IO, "x %d \xff!", 3), OM_ERR_IO);
    OM_EXPECT_INT(err.status, OM_ERR_IO);
    OM_EXPECT_STR(err.message, "x 3 \\xFF!");
    OM_EXPECT_INT(omu_fail(NULL, OM_ERR_PARSE, "no report"), OM_ERR_PARSE);
    /* Raw text in a message (a third-party parser quoting its input) is
     * one line with nothing a terminal acts on; quoted values and
     * backslashes are left as they are. */
    omu_fail(&err, OM_ERR_PARSE, "%s \"a\\x1B\"", "bad\x1b]0;t\x07\nnext");
    OM_EXPECT_STR(err.message, "bad\\x1B]0;t\\x07\\x0Anext \"a\\x1B\"");
    /* A message cut by its size never ends inside a character. */
    char long_text[400];
    memset(long_text, 'a', sizeof long_text);
    for (size_t i = 200; i + 2 < sizeof long_text; i += 2)
        memcpy(long_text + i, "\xc3\xa9", 2);
    long_text[sizeof long_text - 1] = '\0';
    for (int shift = 0; shift < 2; shift++) {
        omu_fail(&err, OM_ERR_PARSE, "%.*s%s", shift, "x", long_text);
        OM_EXPECT(strlen(err.message) < sizeof err.message);
        OM_EXPECT(omu_utf8_valid(err.message, strlen(err.message)));
        OM_EXPECT(strlen(err.message) > 240);
    }
}

/* The one spelling of user values in messages. */
static void test_quote(void)
{
    char buf[64];
    OM_EXPECT_INT(omu_quote(buf, sizeof buf, "tp", 2, '"'), 4);
    OM_EXPECT_STR(buf, "\"tp\"");
    omu_quote(buf, sizeof buf, "n\x1b]0;pwned\x07l", 12, '"');
    OM_EXPECT_STR(buf, "\"n\\x1B]0;pwned\\x07l\"");
    omu_quote(buf, sizeof buf, "a\"b\\c", 5, '"');
    OM_EXPECT_STR(buf, "\"a\\\"b\\\\c\"");
    omu_quote(buf, sizeof buf, "it's", 4, '\'');
    OM_EXPECT_STR(buf, "'it\\'s'");
    omu_quote(buf, sizeof buf, "\xff\xc3", 2, '"'); /* not UTF-8 */
    OM_EXPECT_STR(buf, "\"\\xFF\\xC3\"");
    omu_quote(buf, sizeof buf, "\x7f\n", 2, '"');
    OM_EXPECT_STR(buf, "\"\\x7F\\x0A\"");
    /* C1 CSI, a right-to-left override, a line separator. */
    omu_quote(buf, sizeof buf, "\xc2\x9b" "x\xe2\x80\xae" "y\xe2\x80\xa8", 10, '"');
    OM_EXPECT_STR(buf, "\"\\u009Bx\\u202Ey\\u2028\"");
    omu_quote(buf, sizeof buf, "caf\xc3\xa9 \xe2\x82\xac", 9, '"');
    OM_EXPECT_STR(buf, "\"caf\xc3\xa9 \xe2\x82\xac\"");
    /* No quotes: a whole message. */
    omu_quote(buf, sizeof buf, "a\"\\\tb", 5, 0);
    OM_EXPECT_STR(buf, "a\"\\\\x09b");
    /* Too long: "..." after a whole character, within the size. */
    char e_acute[40];
    for (int i = 0; i < 20; i++)
        memcpy(e_acute + 2 * i, "\xc3\xa9", 2);
    for (size_t size = 7; size < 30; size++) {
        char small[30];
        size_t n = omu_quote(small, size, e_acute, sizeof e_acute, '"');
        OM_EXPECT_INT(n, strlen(small));
        OM_EXPECT(n < size);
        OM_EXPECT(omu_utf8_valid(small, n));
        OM_EXPECT(n >= 5 && memcmp(small + n - 4, "...\"", 4) == 0);
    }
    /* A value that fits exactly is never shortened. */
    char exact[8];
    OM_EXPECT_INT(omu_quote(exact, sizeof exact, "abcde", 5, '"'), 7);
    OM_EXPECT_STR(exact, "\"abcde\"");
    OM_EXPECT_INT(omu_quote(exact, sizeof exact, "abcdef", 6, '"'), 7);
    OM_EXPECT_STR(exact, "\"ab...\"");
    OM_EXPECT_INT(omu_quote(exact, 6, "abcdef", 6, '"'), 0);
    OM_EXPECT_STR(exact, "");
    OM_EXPECT_INT(omu_quote(buf, sizeof buf, NULL, 3, '"'), 0);
    OM_EXPECT_STR(buf, "");
    OM_EXPECT_INT(omu_quote(buf, 0, "x", 1, '"'), 0);
}

static const om_test_case util_tests[] = {
    {"string builder", test_str},
    {"JSON string escaper", test_json_escape},
    {"file reader", test_file_read},
    {"file reader refuses what it cannot bound", test_file_refusals},
    {"file parse: the path in front of every failure", test_file_parse},
    {"UTF-8 helpers and error reports", test_utf8_and_errors},
    {"quoting values for messages", test_quote},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"util", suite_init, NULL, util_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
