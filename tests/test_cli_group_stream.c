/* The CLI's own group streaming (cmd_topology.c): a group of 2^24 ranks or
 * more of a plain mesh is written in pieces computed from the strides, not
 * by the library. That path runs only on huge groups, so here it runs on
 * small ones, in pieces of 1 to 7 ranks, and must write exactly what the
 * library's groups give: every axis set of seeded random meshes with
 * size-1 and interleaved axes.
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_internal.h"
#include "om_test.h"

/* The groups over `axes` as cli_stream_groups (the library, for groups this
 * small) writes them, or in pieces of `piece` ranks (piece > 0). */
static char *streamed(const om_mesh *mesh, const cli_axis_set *axes, int64_t piece)
{
    char *text = NULL, storage[64];
    size_t len = 0;
    FILE *sink = open_memstream(&text, &len);
    int32_t buf[1 << 12];
    omu_writer w;
    om_error e;
    om_error_clear(&e);
    omu_writer_init(&w, sink, storage, sizeof storage);
    bool ok = piece > 0 ? cli_stream_groups_in_pieces(&w, mesh, axes, piece, buf, &e)
                        : cli_stream_groups(&w, mesh, axes, buf, &e);
    OM_EXPECT(ok);
    OM_EXPECT_INT(omu_writer_flush(&w), 0);
    fclose(sink);
    return text;
}

static void test_pieces_equal_library(void)
{
    static const char *const names[] = {"a", "b", "c", "d", "e"};
    unsigned seed = 12345;
    int compared = 0;
    for (int trial = 0; trial < 60; trial++) {
        size_t ndim = 1 + (size_t)(trial % 5);
        int64_t sizes[5];
        for (size_t i = 0; i < ndim; i++) {
            seed = seed * 1103515245u + 12345u;
            sizes[i] = 1 + (int64_t)((seed >> 16) % 5); /* 1..5: size-1 axes too */
        }
        om_mesh *mesh = NULL;
        om_error e;
        OM_EXPECT_OK(om_mesh_new_checked(names, ndim, sizes, ndim, &mesh, &e), &e);
        for (unsigned subset = 0; mesh && subset < 1u << ndim; subset++) {
            const char *chosen[5];
            cli_axis_set axes = {.label = "", .names = chosen, .count = 0};
            for (size_t i = 0; i < ndim; i++)
                if (subset >> i & 1)
                    chosen[axes.count++] = names[i];
            char *want = streamed(mesh, &axes, 0);
            for (int64_t piece = 1; piece <= 7; piece += 2) {
                char *got = streamed(mesh, &axes, piece);
                OM_EXPECT_STR(got, want);
                free(got);
                compared++;
            }
            free(want);
        }
        om_mesh_free(mesh);
    }
    OM_EXPECT(compared > 1000);
}

static const om_test_case stream_tests[] = {
    {"groups in pieces equal the library's", test_pieces_equal_library},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"cli group stream", NULL, NULL, stream_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
