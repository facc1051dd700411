/* The buffered writer of src/util (writer.h): integer formatting at every
 * length and sign, arrays across buffer blocks and in pieces, canonical JSON string
 * escapes, the fixed-buffer mode, and write errors (a failing sink stops
 * every later write and reports its errno).
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_test.h"
#include "writer.h"

/* Runs `fill` on a writer with a tiny buffer (so blocks split often) into
 * a memory stream; returns the text (caller frees). */
static char *written(void (*fill)(omu_writer *), size_t buffer)
{
    char *text = NULL;
    size_t len = 0;
    FILE *sink = open_memstream(&text, &len);
    char *storage = malloc(buffer);
    omu_writer w;
    omu_writer_init(&w, sink, storage, buffer);
    fill(&w);
    OM_EXPECT_INT(omu_writer_flush(&w), 0);
    fclose(sink);
    free(storage);
    return text;
}

static const int64_t int_values[] = {
    0, 7, -7, 9, 10, 99, 100, 999, 1000, 9999, 10000, 12345, 99999, 100000,
    1000000, 9999999, 10000000, 99999999, 100000000, 123456789, 999999999,
    1000000000, -1000000000, 2147483647,
    -2147483648LL, 4294967295LL, 4294967296LL, INT64_MAX, INT64_MIN};
#define NINTS (sizeof int_values / sizeof int_values[0])

static void ints(omu_writer *w)
{
    for (size_t i = 0; i < NINTS; i++) {
        omu_write_int(w, int_values[i]);
        omu_write_char(w, ' ');
    }
}

static void test_ints(void)
{
    char want[512] = "";
    size_t o = 0;
    for (size_t i = 0; i < NINTS; i++)
        o += (size_t)snprintf(want + o, sizeof want - o, "%" PRId64 " ", int_values[i]);
    for (size_t buffer = 32; buffer <= 4096; buffer *= 4) {
        char *got = written(ints, buffer);
        OM_EXPECT_STR(got, want);
        free(got);
    }
}

#define NVALUES 20000
static int32_t array_values[NVALUES];

static void array(omu_writer *w)
{
    omu_write_int_array(w, array_values, NVALUES);
    omu_write_int_array(w, array_values, 0);
    omu_write_int_array(w, array_values + 5, 1);
}

static void test_int_arrays(void)
{
    uint64_t rng = 7;
    for (size_t i = 0; i < NVALUES; i++) {
        /* Every length from 1 to 10 digits, some negative. */
        int64_t v = om_test_rand_range(&rng, 0, INT32_MAX);
        for (int d = (int)om_test_rand_range(&rng, 0, 9); d > 0; d--)
            v /= 10;
        array_values[i] = (int32_t)(i % 7 == 3 ? -v : v);
    }
    array_values[1] = INT32_MIN;
    array_values[2] = INT32_MAX;
    size_t cap = (size_t)NVALUES * 12 + 64;
    char *want = malloc(cap);
    size_t o = 0;
    want[o++] = '[';
    for (size_t i = 0; i < NVALUES; i++)
        o += (size_t)snprintf(want + o, cap - o, "%s%" PRId32, i ? "," : "",
                              array_values[i]);
    o += (size_t)snprintf(want + o, cap - o, "][][%" PRId32 "]", array_values[5]);
    for (size_t buffer = 32; buffer <= 65536; buffer *= 8) {
        char *got = written(array, buffer);
        om_test_record(strcmp(got, want) == 0, __FILE__, __LINE__,
                       "int array through a %zu-byte buffer differs", buffer);
        free(got);
    }
    free(want);
}

/* The same array in pieces of 1, 2, 3, ... values (the CLI writes a
 * huge group so), then an empty piece, inside one pair of brackets. */
static void array_in_pieces(omu_writer *w)
{
    omu_write_char(w, '[');
    size_t i = 0;
    for (size_t piece = 1; i < NVALUES; piece++) {
        size_t n = NVALUES - i < piece ? NVALUES - i : piece;
        omu_write_int_list(w, array_values + i, n, i == 0);
        i += n;
    }
    omu_write_int_list(w, array_values, 0, false);
    omu_write_char(w, ']');
}

static void test_int_list_pieces(void)
{
    /* array_values as test_int_arrays left them. */
    char *whole = written(array, 4096);
    size_t want = strcspn(whole, "]") + 1; /* its first array */
    for (size_t buffer = 32; buffer <= 65536; buffer *= 8) {
        char *got = written(array_in_pieces, buffer);
        om_test_record(want > 2 && strlen(got) == want && memcmp(got, whole, want) == 0,
                       __FILE__, __LINE__,
                       "int list in pieces through a %zu-byte buffer differs",
                       buffer);
        free(got);
    }
    free(whole);
}

static void strings(omu_writer *w)
{
    omu_write_json_string(w, "plain");
    omu_write_json_string(w, "q\"b\\n\nt\tr\rb\bf\f\x01\x1f\x7f");
    omu_write_json_string(w, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    omu_write_json_string(w, "");
}

static void test_json_strings(void)
{
    char *got = written(strings, 32);
    OM_EXPECT_STR(got, "\"plain\""
                       "\"q\\\"b\\\\n\\nt\\tr\\rb\\bf\\f\\u0001\\u001f\\u007f\""
                       "\"\\u00e9\\u20ac\\ud83d\\ude00\""
                       "\"\"");
    free(got);
}

static void test_fixed_buffer(void)
{
    char storage[40];
    omu_writer w;
    omu_writer_init(&w, NULL, storage, sizeof storage);
    omu_write_str(&w, "{\"a\":");
    omu_write_int(&w, 12);
    OM_EXPECT_INT(omu_writer_error(&w), 0);
    OM_EXPECT_INT(w.len, 7);
    OM_EXPECT(memcmp(storage, "{\"a\":12", 7) == 0);
    omu_write_str(&w, "0123456789012345678901234567890123456789");
    OM_EXPECT_INT(omu_writer_error(&w), ENOBUFS);
    size_t len = w.len;
    omu_write_char(&w, 'x');
    OM_EXPECT_INT(w.len, len);
}

static void test_write_error_stops(void)
{
    FILE *full = fopen("/dev/full", "w");
    if (!full) {
        om_test_record(false, __FILE__, __LINE__, "cannot open /dev/full");
        return;
    }
    char storage[64];
    omu_writer w;
    omu_writer_init(&w, full, storage, sizeof storage);
    for (int i = 0; i < 10 && omu_writer_error(&w) == 0; i++)
        omu_write_str(&w, "0123456789012345678901234567890123456789");
    /* The first block that went out failed: at most two blocks written. */
    OM_EXPECT_INT(omu_writer_error(&w), ENOSPC);
    size_t len = w.len;
    omu_write_int_array(&w, array_values, 100);
    omu_write_json_string(&w, "x");
    omu_write_int(&w, 5);
    OM_EXPECT_INT(w.len, len);
    OM_EXPECT_INT(omu_writer_flush(&w), ENOSPC);
    fclose(full);
}

static const om_test_case writer_tests[] = {
    {"integers of every length and sign", test_ints},
    {"int arrays across buffer blocks", test_int_arrays},
    {"an int array written in pieces", test_int_list_pieces},
    {"canonical JSON string escapes", test_json_strings},
    {"fixed buffer (NULL sink)", test_fixed_buffer},
    {"a failed write stops every later write", test_write_error_stops},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"writer", NULL, NULL, writer_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
