/* Drawing a mesh for 'offline-mesh show': the picture model shared by the
 * terminal renderer (draw_text.c) and the SVG renderer (draw_svg.c).
 * Internal to the CLI.
 *
 * The picture lays ranks out as the mesh does: the innermost axis gives the
 * columns, the one before it the rows, and each combination of the outer
 * axes is one block (all in mesh order). Every cell is computed from the
 * library's topology calls (om_mesh_rank, om_mesh_coordinate,
 * om_mesh_group_index, om_mesh_group_of, om_mesh_locality), never from
 * copied layout arithmetic.
 *
 * Large meshes are summarised: at most DRAW_MAX_ROWS rows and a width
 * budget of columns per block (first ones, an elided slot, the last one),
 * and when the blocks would take more than DRAW_LINE_BUDGET lines, the
 * first DRAW_HEAD_BLOCKS blocks, an elided slot and the last block. So the
 * picture has a bounded number of cells whatever the mesh size. */
#ifndef OFFLINE_MESH_DRAW_H
#define OFFLINE_MESH_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "offline_mesh.h"
#include "util.h"

/* A slot that stands for hidden rows, columns or blocks. */
#define DRAW_ELIDED (-1)

#define DRAW_PALETTE_SIZE 12 /* colors, repeating by group index */
#define DRAW_MAX_ROWS 8      /* more rows: the first 5, "..", the last */
#define DRAW_HEAD_ROWS 5
#define DRAW_MAX_COLS 32     /* hard cap on shown columns */
#define DRAW_MIN_COLS 4
#define DRAW_LINE_WIDTH 100  /* column budget of one grid line */
#define DRAW_LINE_BUDGET 60  /* more lines of blocks: summarise them */
#define DRAW_HEAD_BLOCKS 2
/* A block takes at least 4 lines, so at most this many are ever shown. */
#define DRAW_MAX_BLOCK_SLOTS (DRAW_LINE_BUDGET / 4 + DRAW_HEAD_BLOCKS + 2)
#define DRAW_MAX_LEGEND 8    /* legend entries */
#define DRAW_MAX_MEMBERS 8   /* members listed in full up to this many */
#define DRAW_MEMBER_BUFFER 4096 /* larger groups: described by their ends */
/* A rank's description (the SVG title) lists axes of size 1 only on meshes
 * of at most this many axes, and cuts axis names after this many bytes:
 * with at most 30 axes longer than 1 it stays under about 10 KB. */
#define DRAW_TITLE_ALL_AXES 16
#define DRAW_TITLE_NAME_BYTES 48

/* An axis set by name; the names are borrowed. */
typedef struct {
    const char *const *names;
    size_t count;
} draw_axes;

#define DRAW_MAX_LEVELS 16

typedef struct {
    const om_mesh *mesh;
    size_t ndim;
    int64_t size;

    /* Grid: row_axis / col_axis are axis indices, -1 when the mesh has too
     * few axes (then rows / cols is 1). Blocks run over axes
     * 0 .. outer_axes-1. */
    int row_axis, col_axis;
    size_t outer_axes;
    int64_t rows, cols, blocks;
    int64_t row_slots[DRAW_MAX_ROWS];
    size_t nrow_slots;
    int64_t col_slots[DRAW_MAX_COLS];
    size_t ncol_slots;
    int64_t block_slots[DRAW_MAX_BLOCK_SLOTS];
    size_t nblock_slots;

    /* Colors: groups over the axes `color` (named color_by, "" for the
     * empty set). */
    draw_axes color;
    char *color_by;
    int64_t group_count, group_size;

    /* Hosts: ranks_per_host 0 when not given. */
    int64_t ranks_per_host, hosts, local_groups, max_hosts;
    /* Slower levels (show --hierarchy): level 0 is the host above;
     * level_crossing[l] groups cross a domain of level l, up to
     * level_max[l] domains each. NULL / 0 levels without it. */
    const om_hierarchy *hierarchy;
    size_t nlevels;
    int64_t level_crossing[DRAW_MAX_LEVELS], level_max[DRAW_MAX_LEVELS];

    /* Widths in characters of the text form (the SVG scales them). */
    int rank_width, tag_width, cell_width, row_label_width, host_width;
    bool marks; /* some group crosses a host: cells carry a '!' slot */

    int64_t *coord;   /* scratch, ndim values */
    int64_t *indices; /* scratch, ndim axis indices */
} draw_picture;

typedef struct {
    int64_t rank;
    int64_t group;          /* index of its group over the color axes */
    int color;              /* palette slot, group % DRAW_PALETTE_SIZE */
    char tag[16];           /* group as letters: a..z, aa.. */
    int64_t first, last;    /* lowest and highest rank of its group */
    int64_t host;           /* -1 without ranks_per_host */
    int64_t first_host, last_host;
    bool crosses;           /* its group spans more than one host */
} draw_cell;

/* Text is built with the utility layer's omu_str (src/util/util.h). */

/* Builds the picture of `mesh` (borrowed; must outlive the picture) colored
 * by the groups over `color` (borrowed too), labelled `color_by`, with
 * hosts of `ranks_per_host` ranks (0: none). */
om_status draw_picture_init(draw_picture *pic, const om_mesh *mesh,
                            const char *color_by, draw_axes color,
                            int64_t ranks_per_host, om_error *err);
void draw_picture_free(draw_picture *pic);

/* The cell of `rank`, and the rank at (block, row, col). */
om_status draw_cell_of(const draw_picture *pic, int64_t rank, draw_cell *cell,
                       om_error *err);
om_status draw_rank_at(const draw_picture *pic, int64_t block, int64_t row,
                       int64_t col, int64_t *rank, om_error *err);

/* Width of UTF-8 text in characters (code points). */
int draw_text_width(const char *text);

/* Host of a rank (-1 without ranks_per_host). */
int64_t draw_host(const draw_picture *pic, int64_t rank);
/* Draws the domains of a uniform hierarchy (borrowed; must outlive the
 * picture): level 0 as hosts, the slower ones as '=' boundaries and one
 * summary line each. */
om_status draw_picture_set_hierarchy(draw_picture *pic, const om_hierarchy *h,
                                     om_error *err);
/* Slowest level whose domains differ between two ranks (0 = host), -1
 * when they share a host. */
int draw_boundary_level(const draw_picture *pic, int64_t a, int64_t b);
/* "nvl: 72 ranks per domain, ..." for level `level` >= 1. */
void draw_describe_level(const draw_picture *pic, size_t level, omu_str *s);

/* Group `group` as letters (0 -> "a", 25 -> "z", 26 -> "aa"). */
void draw_tag(int64_t group, char *buf, size_t len);

/* xterm-256 color of palette slot `slot`, and its RGB value. */
int draw_palette_color(int slot);
void draw_xterm_rgb(int color, unsigned char rgb[3]);

/* Text pieces shared by both renderers (plain UTF-8, unescaped). */
void draw_describe_mesh(const draw_picture *pic, omu_str *s);
void draw_describe_colors(const draw_picture *pic, omu_str *s);
void draw_describe_hosts(const draw_picture *pic, omu_str *s);
om_status draw_describe_block(const draw_picture *pic, int64_t block,
                              omu_str *s, om_error *err);
void draw_describe_hidden_blocks(const draw_picture *pic, omu_str *s);
void draw_corner_label(const draw_picture *pic, omu_str *s);
/* "group 3: ranks 6,7" over `axes` (the group containing `rank`). */
om_status draw_describe_group(const draw_picture *pic, draw_axes axes,
                              const char *label, int64_t rank, omu_str *s,
                              om_error *err);
/* Tooltip of a rank: coordinates, groups over color_by and each axis,
 * host. Lines separated by '\n'. */
om_status draw_describe_rank(const draw_picture *pic, int64_t rank,
                             omu_str *s, om_error *err);

/* Legend: the distinct color groups of the shown cells, in drawing order.
 * Writes up to DRAW_MAX_LEGEND representative ranks (one per group) and
 * the total number of distinct groups shown. */
om_status draw_legend(const draw_picture *pic, int64_t *ranks, size_t *count,
                      int64_t *distinct, om_error *err);


/* Renderers: write the whole picture to `out`. */
om_status draw_text(const draw_picture *pic, FILE *out, bool color,
                    om_error *err);
om_status draw_svg(const draw_picture *pic, FILE *out, om_error *err);

#endif
