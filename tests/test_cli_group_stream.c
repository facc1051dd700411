/* The CLI's own group streaming (cmd_topology.c): a group of 2^24 ranks or
 * more of a mesh or view is written in pieces computed from the modes, not
 * by the library. That path runs only on huge groups, so here it runs on
 * small ones, in pieces of 1 to 7 ranks, and must write exactly what the
 * library's groups give: every axis set of seeded random meshes with
 * size-1 and interleaved axes, and of views (placed out of order, at an
 * offset, flattened, sliced into families). tests/cli/test_hostile.py
 * runs the real thing under a memory limit.
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

/* Every axis set of `view`, in pieces, against the library. */
static int compare_all_sets(const om_mesh *view)
{
    size_t ndim = om_mesh_ndim(view);
    int compared = 0;
    for (unsigned subset = 0; subset < 1u << ndim; subset++) {
        const char *chosen[8];
        cli_axis_set axes = {.label = "", .names = chosen, .count = 0};
        for (size_t i = 0; i < ndim; i++)
            if (subset >> i & 1)
                chosen[axes.count++] = om_mesh_name(view, i);
        char *want = streamed(view, &axes, 0);
        for (int64_t piece = 1; piece <= 7; piece += 3) {
            char *got = streamed(view, &axes, piece);
            OM_EXPECT_STR(got, want);
            free(got);
            compared++;
        }
        free(want);
    }
    return compared;
}

/* The same for views (groups ascending by first member, members over
 * several modes): axes placed in a random order at an offset, a flattened
 * pair of them (an axis of two modes, interleaved when the pair was out of
 * order), and slices (families: the instance modes number groups too). */
static void test_view_pieces_equal_library(void)
{
    static const char *const names[] = {"a", "b", "c", "d"};
    unsigned seed = 777;
    int compared = 0, families = 0;
    for (int trial = 0; trial < 40; trial++) {
        int64_t sizes[4], strides[4];
        int order[4] = {0, 1, 2, 3};
        for (int i = 3; i > 0; i--) { /* a random placement order */
            seed = seed * 1103515245u + 12345u;
            int j = (int)((seed >> 16) % (unsigned)(i + 1)), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int i = 0; i < 4; i++) {
            seed = seed * 1103515245u + 12345u;
            sizes[i] = 1 + (int64_t)((seed >> 16) % 4);
        }
        int64_t stride = 1;
        for (int k = 0; k < 4; k++) {
            strides[order[k]] = stride;
            stride *= sizes[order[k]];
        }
        om_error e;
        om_mesh *view = NULL, *flat = NULL, *cut = NULL;
        OM_EXPECT_OK(om_view_new(names, 4, sizes, 4, strides, 4, trial % 3 * 5, &view, &e),
                     &e);
        if (!view)
            continue;
        compared += compare_all_sets(view);
        const char *pair[2] = {names[trial % 4], names[(trial + 1 + trial / 4) % 4]};
        if (pair[0] != pair[1] &&
            om_view_flatten(view, pair, 2, "f", &flat, &e) == OM_OK) {
            compared += compare_all_sets(flat);
            om_mesh_free(flat);
        }
        if (om_view_slice(view, pair, pair[0] != pair[1] ? 2 : 1, &cut, &e) == OM_OK) {
            families += om_view_instance_count(cut) > 1;
            compared += compare_all_sets(cut);
            om_mesh_free(cut);
        }
        om_mesh_free(view);
    }
    OM_EXPECT(compared > 1000);
    OM_EXPECT(families > 10);
}

static const om_test_case stream_tests[] = {
    {"groups in pieces equal the library's", test_pieces_equal_library},
    {"views: groups in pieces equal the library's", test_view_pieces_equal_library},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"cli group stream", NULL, NULL, stream_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
