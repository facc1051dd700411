/* The picture model of 'offline-mesh show': which rows, columns and blocks
 * are shown, and each cell's group, color and host, all from the library's
 * topology calls. See draw.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"

/* Background colors (xterm-256), neighbours far apart in hue so that
 * consecutive groups never look alike; black text stays readable on all. */
static const int palette[DRAW_PALETTE_SIZE] = {
    75, 214, 114, 205, 185, 141, 80, 209, 150, 177, 110, 222,
};

int draw_palette_color(int slot)
{
    return palette[((slot % DRAW_PALETTE_SIZE) + DRAW_PALETTE_SIZE) %
                   DRAW_PALETTE_SIZE];
}

void draw_xterm_rgb(int color, unsigned char rgb[3])
{
    static const unsigned char level[6] = {0, 95, 135, 175, 215, 255};
    if (color >= 16 && color < 232) {
        int c = color - 16;
        rgb[0] = level[c / 36];
        rgb[1] = level[(c / 6) % 6];
        rgb[2] = level[c % 6];
    } else if (color >= 232 && color < 256) {
        unsigned char g = (unsigned char)(8 + 10 * (color - 232));
        rgb[0] = rgb[1] = rgb[2] = g;
    } else {
        rgb[0] = rgb[1] = rgb[2] = 0;
    }
}

/* ---- small helpers ------------------------------------------------- */

static int digits(int64_t v)
{
    int n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

int draw_text_width(const char *text)
{
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        n += (*p & 0xC0) != 0x80; /* count every byte but continuations */
    return n;
}

void draw_tag(int64_t group, char *buf, size_t len)
{
    /* Bijective base 26: a..z, aa..zz, aaa.. */
    char rev[16];
    size_t n = 0;
    int64_t v = group + 1;
    while (v > 0 && n < sizeof rev) {
        v--;
        rev[n++] = (char)('a' + v % 26);
        v /= 26;
    }
    size_t k = 0;
    for (; k < n && k + 1 < len; k++)
        buf[k] = rev[n - 1 - k];
    if (len)
        buf[k] = '\0';
}

int64_t draw_host(const draw_picture *pic, int64_t rank)
{
    return pic->ranks_per_host > 0 ? rank / pic->ranks_per_host : -1;
}

static const char *plural(int64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* The axis set's display name: "tp", "dp,cp", or "rank" for the empty
 * set (every rank is its own group). */
static const char *set_label(const draw_picture *pic)
{
    return pic->color_by[0] ? pic->color_by : "rank";
}

/* ---- picture ------------------------------------------------------- */

static void corner(const om_mesh *mesh, int row_axis, int col_axis,
                   omu_str *s)
{
    if (row_axis >= 0)
        omu_str_printf(s, "%s\\", om_mesh_name(mesh, (size_t)row_axis));
    if (col_axis >= 0)
        omu_str_printf(s, "%s", om_mesh_name(mesh, (size_t)col_axis));
}

void draw_corner_label(const draw_picture *pic, omu_str *s)
{
    corner(pic->mesh, pic->row_axis, pic->col_axis, s);
}

/* Slots 0..n-1, or the first `head`, an elided slot and the last. */
static size_t make_slots(int64_t *slots, int64_t n, size_t max, size_t head)
{
    if (n <= (int64_t)max) {
        for (int64_t i = 0; i < n; i++)
            slots[i] = i;
        return (size_t)n;
    }
    for (size_t i = 0; i < head; i++)
        slots[i] = (int64_t)i;
    slots[head] = DRAW_ELIDED;
    slots[head + 1] = n - 1;
    return head + 2;
}

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c)
        memcpy(c, s, n);
    return c;
}

static om_status fail(om_error *err, om_status status, const char *message)
{
    if (err) {
        err->status = status;
        snprintf(err->message, sizeof err->message, "%s", message);
    }
    return status;
}

om_status draw_picture_init(draw_picture *pic, const om_mesh *mesh,
                            const char *color_by, draw_axes color,
                            int64_t ranks_per_host, om_error *err)
{
    memset(pic, 0, sizeof *pic);
    pic->mesh = mesh;
    pic->ndim = om_mesh_ndim(mesh);
    pic->size = om_mesh_size(mesh);
    size_t n = pic->ndim;
    pic->col_axis = n >= 1 ? (int)(n - 1) : -1;
    pic->row_axis = n >= 2 ? (int)(n - 2) : -1;
    pic->outer_axes = n >= 2 ? n - 2 : 0;
    pic->cols = n >= 1 ? om_mesh_dim_size(mesh, n - 1) : 1;
    pic->rows = n >= 2 ? om_mesh_dim_size(mesh, n - 2) : 1;
    pic->blocks = 1;
    for (size_t i = 0; i < pic->outer_axes; i++)
        pic->blocks *= om_mesh_dim_size(mesh, i);

    pic->coord = malloc((n ? n : 1) * sizeof *pic->coord);
    pic->indices = malloc((n ? n : 1) * sizeof *pic->indices);
    pic->color = color;
    pic->color_by = copy_string(color_by);
    if (!pic->coord || !pic->indices || !pic->color_by) {
        draw_picture_free(pic);
        return fail(err, OM_ERR_NO_MEMORY, "out of memory");
    }
    om_status st = om_mesh_group_shape_named(mesh, color.names, color.count,
                                             &pic->group_count, &pic->group_size,
                                             err);
    if (st == OM_OK && ranks_per_host > 0) {
        pic->ranks_per_host = ranks_per_host;
        /* Views: hosts up to the largest rank the view reaches. */
        pic->hosts = (om_view_extent(mesh) + ranks_per_host - 1) / ranks_per_host;
        int64_t groups;
        st = om_mesh_locality_named(mesh, color.names, color.count,
                                    ranks_per_host, &groups, &pic->local_groups,
                                    &pic->max_hosts, err);
        pic->marks = pic->local_groups < pic->group_count;
    }
    if (st != OM_OK) {
        draw_picture_free(pic);
        return st;
    }

    char tag[16];
    draw_tag(pic->group_count - 1, tag, sizeof tag);
    pic->rank_width = digits(om_view_extent(mesh) - 1);
    pic->tag_width = (int)strlen(tag);
    pic->cell_width = pic->rank_width + pic->tag_width + (pic->marks ? 1 : 0);
    if (pic->cell_width < digits(pic->cols - 1))
        pic->cell_width = digits(pic->cols - 1);
    if (pic->cell_width < 2)
        pic->cell_width = 2;

    omu_str c = {0};
    corner(mesh, pic->row_axis, pic->col_axis, &c);
    if (c.failed) {
        draw_picture_free(pic);
        return fail(err, OM_ERR_NO_MEMORY, "out of memory");
    }
    pic->row_label_width = draw_text_width(omu_str_cstr(&c));
    omu_str_free(&c);
    if (pic->row_label_width < digits(pic->rows - 1))
        pic->row_label_width = digits(pic->rows - 1);
    if (pic->row_label_width < 2)
        pic->row_label_width = 2;
    if (pic->ranks_per_host > 0)
        pic->host_width = 7 + 2 * digits(pic->hosts - 1); /* "hosts a-b" */

    /* Columns within the line width; the row label and host label take
     * their share first. */
    int avail = DRAW_LINE_WIDTH - 2 - pic->row_label_width - 1 -
                (pic->host_width ? 2 + pic->host_width : 0);
    int max_cols = avail / (pic->cell_width + 1);
    if (max_cols < DRAW_MIN_COLS)
        max_cols = DRAW_MIN_COLS;
    if (max_cols > DRAW_MAX_COLS)
        max_cols = DRAW_MAX_COLS;
    pic->ncol_slots = make_slots(pic->col_slots, pic->cols, (size_t)max_cols,
                                 (size_t)max_cols - 2);
    pic->nrow_slots = make_slots(pic->row_slots, pic->rows, DRAW_MAX_ROWS,
                                 DRAW_HEAD_ROWS);
    /* A block takes its header, the column header, its rows, the host
     * boundaries between them (at most one per gap) and a blank line. */
    int64_t lines = 3 + (int64_t)pic->nrow_slots;
    if (pic->ranks_per_host > 0)
        lines += (int64_t)pic->nrow_slots - 1;
    size_t max_blocks = (size_t)(DRAW_LINE_BUDGET / lines);
    if (max_blocks > DRAW_MAX_BLOCK_SLOTS)
        max_blocks = DRAW_MAX_BLOCK_SLOTS;
    if (max_blocks < DRAW_HEAD_BLOCKS + 1)
        max_blocks = DRAW_HEAD_BLOCKS + 1;
    pic->nblock_slots = make_slots(pic->block_slots, pic->blocks, max_blocks,
                                   DRAW_HEAD_BLOCKS);
    return OM_OK;
}

void draw_picture_free(draw_picture *pic)
{
    free(pic->coord);
    free(pic->indices);
    free(pic->color_by);
    pic->coord = NULL;
    pic->indices = NULL;
    pic->color_by = NULL;
}

/* Coordinates of the outer axes of `block` (row-major over them). */
static void block_coord(const draw_picture *pic, int64_t block, int64_t *coord)
{
    for (size_t i = pic->outer_axes; i-- > 0;) {
        int64_t len = om_mesh_dim_size(pic->mesh, i);
        coord[i] = block % len;
        block /= len;
    }
}

om_status draw_rank_at(const draw_picture *pic, int64_t block, int64_t row,
                       int64_t col, int64_t *rank, om_error *err)
{
    block_coord(pic, block, pic->coord);
    if (pic->row_axis >= 0)
        pic->coord[pic->row_axis] = row;
    if (pic->col_axis >= 0)
        pic->coord[pic->col_axis] = col;
    return om_mesh_rank(pic->mesh, pic->coord, pic->ndim, rank, err);
}

/* Lowest and highest member of the group over `axes` holding `rank`:
 * members agree outside the set, so they are the set's axes at 0 and at
 * their last index. */
static om_status group_ends(const draw_picture *pic, draw_axes axes,
                            int64_t rank, int64_t *first, int64_t *last,
                            om_error *err)
{
    size_t got = 0;
    om_status st = om_mesh_axis_indices(pic->mesh, axes.names, axes.count,
                                        pic->indices, pic->ndim, &got, err);
    if (st == OM_OK)
        st = om_mesh_coordinate_of(pic->mesh, rank, pic->coord, pic->ndim, NULL,
                                   err);
    if (st != OM_OK)
        return st;
    for (size_t k = 0; k < got; k++)
        pic->coord[pic->indices[k]] = 0;
    st = om_mesh_rank(pic->mesh, pic->coord, pic->ndim, first, err);
    if (st != OM_OK)
        return st;
    for (size_t k = 0; k < got; k++)
        pic->coord[pic->indices[k]] =
            om_mesh_dim_size(pic->mesh, (size_t)pic->indices[k]) - 1;
    return om_mesh_rank(pic->mesh, pic->coord, pic->ndim, last, err);
}

om_status draw_cell_of(const draw_picture *pic, int64_t rank, draw_cell *cell,
                       om_error *err)
{
    memset(cell, 0, sizeof *cell);
    cell->rank = rank;
    om_status st = om_mesh_group_index_named(pic->mesh, pic->color.names,
                                             pic->color.count, rank, &cell->group,
                                             err);
    if (st == OM_OK)
        st = group_ends(pic, pic->color, rank, &cell->first, &cell->last, err);
    if (st != OM_OK)
        return st;
    cell->color = (int)(cell->group % DRAW_PALETTE_SIZE);
    draw_tag(cell->group, cell->tag, sizeof cell->tag);
    cell->host = draw_host(pic, rank);
    cell->first_host = draw_host(pic, cell->first);
    cell->last_host = draw_host(pic, cell->last);
    /* Members increase, so the group stays on one host exactly when its
     * lowest and highest member do. */
    cell->crosses = cell->first_host != cell->last_host;
    return OM_OK;
}

/* ---- descriptions -------------------------------------------------- */

static void mesh_spec(const om_mesh *mesh, omu_str *s)
{
    size_t n = om_mesh_ndim(mesh);
    if (n == 0)
        omu_str_printf(s, "(no axes)");
    for (size_t i = 0; i < n; i++)
        omu_str_printf(s, "%s%s=%lld", i ? "," : "", om_mesh_name(mesh, i),
                        (long long)om_mesh_dim_size(mesh, i));
}

void draw_describe_mesh(const draw_picture *pic, omu_str *s)
{
    const om_mesh *mesh = pic->mesh;
    omu_str_printf(s, "mesh ");
    mesh_spec(mesh, s);
    omu_str_printf(s, ": %lld %s", (long long)pic->size,
                    plural(pic->size, "rank", "ranks"));
    if (pic->ndim == 0)
        return;
    omu_str_printf(s, " in ");
    if (pic->outer_axes > 0) {
        omu_str_printf(s, "%lld %s (", (long long)pic->blocks,
                        plural(pic->blocks, "block", "blocks"));
        for (size_t i = 0; i < pic->outer_axes; i++)
            omu_str_printf(s, "%s%s", i ? "," : "", om_mesh_name(mesh, i));
        omu_str_printf(s, ") of ");
    }
    omu_str_printf(s, "%lld %s", (long long)pic->rows,
                    plural(pic->rows, "row", "rows"));
    if (pic->row_axis >= 0)
        omu_str_printf(s, " (%s)", om_mesh_name(mesh, (size_t)pic->row_axis));
    omu_str_printf(s, " x %lld %s (%s)", (long long)pic->cols,
                    plural(pic->cols, "column", "columns"),
                    om_mesh_name(mesh, (size_t)pic->col_axis));
}

void draw_describe_colors(const draw_picture *pic, omu_str *s)
{
    omu_str_printf(s, "colors: %lld %s %s of %lld %s", (long long)pic->group_count,
                    set_label(pic), plural(pic->group_count, "group", "groups"),
                    (long long)pic->group_size,
                    plural(pic->group_size, "rank", "ranks"));
    omu_str_printf(s, "; the letters after a rank name its group");
}

void draw_describe_hosts(const draw_picture *pic, omu_str *s)
{
    if (pic->ranks_per_host <= 0)
        return;
    omu_str_printf(s, "hosts: %lld %s per host, %lld %s; ",
                    (long long)pic->ranks_per_host,
                    plural(pic->ranks_per_host, "rank", "ranks"),
                    (long long)pic->hosts, plural(pic->hosts, "host", "hosts"));
    int64_t crossing = pic->group_count - pic->local_groups;
    if (crossing == 0)
        omu_str_printf(s, "no %s group crosses a host boundary",
                        set_label(pic));
    else
        omu_str_printf(s,
                        "%lld of %lld %s groups CROSS a host boundary (up to "
                        "%lld hosts each); their ranks are marked !",
                        (long long)crossing, (long long)pic->group_count,
                        set_label(pic), (long long)pic->max_hosts);
}

static void hosts_range(omu_str *s, int64_t first, int64_t last)
{
    if (first == last)
        omu_str_printf(s, "host %lld", (long long)first);
    else
        omu_str_printf(s, "hosts %lld-%lld", (long long)first, (long long)last);
}

static void block_name(const draw_picture *pic, int64_t block, omu_str *s)
{
    block_coord(pic, block, pic->coord);
    for (size_t i = 0; i < pic->outer_axes; i++)
        omu_str_printf(s, "%s%s=%lld", i ? " " : "",
                        om_mesh_name(pic->mesh, i), (long long)pic->coord[i]);
}

om_status draw_describe_block(const draw_picture *pic, int64_t block,
                              omu_str *s, om_error *err)
{
    /* Blocks are contiguous rank ranges (the outer axes vary slowest). */
    int64_t first, last;
    om_status st = draw_rank_at(pic, block, 0, 0, &first, err);
    if (st == OM_OK)
        st = draw_rank_at(pic, block, pic->rows - 1, pic->cols - 1, &last, err);
    if (st != OM_OK)
        return st;
    block_name(pic, block, s);
    omu_str_printf(s, "%s", pic->outer_axes ? "  " : "");
    if (first == last)
        omu_str_printf(s, "rank %lld", (long long)first);
    else
        omu_str_printf(s, "ranks %lld-%lld", (long long)first, (long long)last);
    if (pic->ranks_per_host > 0) {
        omu_str_printf(s, "  ");
        hosts_range(s, draw_host(pic, first), draw_host(pic, last));
    }
    for (size_t l = 1; l < pic->nlevels; l++) {
        int64_t k = om_hierarchy_ranks_per_domain(pic->hierarchy, l);
        const char *name = om_hierarchy_level_name(pic->hierarchy, l);
        if (first / k == last / k)
            omu_str_printf(s, "  %s %lld", name, (long long)(first / k));
        else
            omu_str_printf(s, "  %s %lld-%lld", name, (long long)(first / k),
                            (long long)(last / k));
    }
    return OM_OK;
}

void draw_describe_hidden_blocks(const draw_picture *pic, omu_str *s)
{
    int64_t first = DRAW_HEAD_BLOCKS, last = pic->blocks - 2;
    omu_str_printf(s, "... %lld %s not shown (", (long long)(last - first + 1),
                    plural(last - first + 1, "block", "blocks"));
    block_name(pic, first, s);
    if (last > first) {
        omu_str_printf(s, " to ");
        block_name(pic, last, s);
    }
    omu_str_printf(s, ") ...");
}

om_status draw_describe_group(const draw_picture *pic, draw_axes axes,
                              const char *label, int64_t rank, omu_str *s,
                              om_error *err)
{
    int64_t index, count, size;
    om_status st = om_mesh_group_index_named(pic->mesh, axes.names, axes.count,
                                             rank, &index, err);
    if (st == OM_OK)
        st = om_mesh_group_shape_named(pic->mesh, axes.names, axes.count, &count,
                                       &size, err);
    if (st != OM_OK)
        return st;
    omu_str_printf(s, "%s group %lld: ", label, (long long)index);
    if (size > DRAW_MEMBER_BUFFER) {
        int64_t first, last;
        st = group_ends(pic, axes, rank, &first, &last, err);
        if (st == OM_OK)
            omu_str_printf(s, "%lld ranks from %lld to %lld", (long long)size,
                            (long long)first, (long long)last);
        return st;
    }
    int32_t *members = malloc((size_t)size * sizeof *members);
    if (!members)
        return fail(err, OM_ERR_NO_MEMORY, "out of memory");
    st = om_mesh_group_of_named(pic->mesh, axes.names, axes.count, rank, members,
                                (size_t)size, NULL, err);
    if (st == OM_OK) {
        omu_str_printf(s, "%s ", plural(size, "rank", "ranks"));
        if (size <= DRAW_MAX_MEMBERS) {
            for (int64_t k = 0; k < size; k++)
                omu_str_printf(s, "%s%ld", k ? "," : "", (long)members[k]);
        } else {
            for (int64_t k = 0; k < DRAW_MAX_MEMBERS - 2; k++)
                omu_str_printf(s, "%ld,", (long)members[k]);
            omu_str_printf(s, "...,%ld (%lld ranks)", (long)members[size - 1],
                            (long long)size);
        }
    }
    free(members);
    return st;
}

/* `name`, cut after DRAW_TITLE_NAME_BYTES bytes on a character boundary. */
static void short_name(char *buf, size_t size, const char *name)
{
    size_t cut = strlen(name);
    if (cut <= DRAW_TITLE_NAME_BYTES) {
        snprintf(buf, size, "%s", name);
        return;
    }
    cut = DRAW_TITLE_NAME_BYTES;
    while (cut > 0 && ((unsigned char)name[cut] & 0xC0) == 0x80)
        cut--;
    snprintf(buf, size, "%.*s...", (int)cut, name);
}

/* On a mesh of more than DRAW_TITLE_ALL_AXES axes, the axes of size 1
 * (coordinate 0, a group of one rank) are counted instead of listed, so
 * the text does not grow with the number of axes. */
om_status draw_describe_rank(const draw_picture *pic, int64_t rank,
                             omu_str *s, om_error *err)
{
    om_status st = om_mesh_coordinate(pic->mesh, rank, pic->coord, pic->ndim,
                                      err);
    if (st != OM_OK)
        return st;
    bool all = pic->ndim <= DRAW_TITLE_ALL_AXES;
    size_t skipped = 0, listed = 0;
    char name[DRAW_TITLE_NAME_BYTES + 4];
    omu_str_printf(s, "rank %lld\n", (long long)rank);
    if (pic->ndim == 0)
        omu_str_printf(s, "(no axes)");
    for (size_t i = 0; i < pic->ndim; i++) {
        if (!all && om_mesh_dim_size(pic->mesh, i) == 1) {
            skipped++;
            continue;
        }
        short_name(name, sizeof name, om_mesh_name(pic->mesh, i));
        omu_str_printf(s, "%s%s=%lld", listed++ ? " " : "", name,
                        (long long)pic->coord[i]);
    }
    if (skipped > 0)
        omu_str_printf(s, "%s(%zu axes of size 1 not listed)", listed ? " " : "",
                        skipped);
    omu_str_printf(s, "\n");
    st = draw_describe_group(pic, pic->color, set_label(pic), rank, s, err);
    if (st != OM_OK)
        return st;
    /* Then the group over each single axis the color does not already
     * show. */
    for (size_t i = 0; i < pic->ndim; i++) {
        const char *axis = om_mesh_name(pic->mesh, i);
        draw_axes one = {&axis, 1};
        bool is_color = pic->color.count == 1 && strcmp(pic->color.names[0], axis) == 0;
        if (is_color || (!all && om_mesh_dim_size(pic->mesh, i) == 1))
            continue;
        omu_str_printf(s, "\n");
        short_name(name, sizeof name, om_mesh_name(pic->mesh, i));
        st = draw_describe_group(pic, one, name, rank, s, err);
        if (st != OM_OK)
            return st;
    }
    if (pic->ranks_per_host > 0) {
        draw_cell cell;
        st = draw_cell_of(pic, rank, &cell, err);
        if (st != OM_OK)
            return st;
        omu_str_printf(s, "\nhost %lld", (long long)cell.host);
        if (cell.crosses) {
            omu_str_printf(s, "; its %s group crosses ", set_label(pic));
            hosts_range(s, cell.first_host, cell.last_host);
        }
    }
    return OM_OK;
}

static int compare_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

om_status draw_legend(const draw_picture *pic, int64_t *ranks, size_t *count,
                      int64_t *distinct, om_error *err)
{
    size_t cap = pic->nblock_slots * pic->nrow_slots * pic->ncol_slots;
    int64_t *groups = malloc((cap ? cap : 1) * sizeof *groups);
    int64_t seen[DRAW_MAX_LEGEND];
    size_t n = 0, found = 0;
    if (!groups)
        return fail(err, OM_ERR_NO_MEMORY, "out of memory");
    om_status st = OM_OK;
    for (size_t b = 0; b < pic->nblock_slots && st == OM_OK; b++) {
        if (pic->block_slots[b] == DRAW_ELIDED)
            continue;
        for (size_t r = 0; r < pic->nrow_slots && st == OM_OK; r++) {
            if (pic->row_slots[r] == DRAW_ELIDED)
                continue;
            for (size_t c = 0; c < pic->ncol_slots && st == OM_OK; c++) {
                if (pic->col_slots[c] == DRAW_ELIDED)
                    continue;
                int64_t rank, group;
                st = draw_rank_at(pic, pic->block_slots[b], pic->row_slots[r],
                                  pic->col_slots[c], &rank, err);
                if (st == OM_OK)
                    st = om_mesh_group_index_named(pic->mesh, pic->color.names,
                                                   pic->color.count, rank, &group,
                                                   err);
                if (st != OM_OK)
                    break;
                groups[n++] = group;
                bool known = false;
                for (size_t k = 0; k < found; k++)
                    known = known || seen[k] == group;
                if (!known && found < DRAW_MAX_LEGEND) {
                    seen[found] = group;
                    ranks[found++] = rank;
                }
            }
        }
    }
    if (st == OM_OK) {
        qsort(groups, n, sizeof *groups, compare_i64);
        int64_t d = 0;
        for (size_t k = 0; k < n; k++)
            d += k == 0 || groups[k] != groups[k - 1];
        *distinct = d;
        *count = found;
    }
    free(groups);
    return st;
}

/* ---- hierarchy levels (show --hierarchy) ---------------------------- */

om_status draw_picture_set_hierarchy(draw_picture *pic, const om_hierarchy *h,
                                     om_error *err)
{
    size_t n = om_hierarchy_levels(h);
    if (n > DRAW_MAX_LEVELS)
        return fail(err, OM_ERR_INVALID_ARGUMENT,
                    "show draws at most 16 levels");
    for (size_t l = 0; l < n; l++)
        if (om_hierarchy_ranks_per_domain(h, l) <= 0)
            return fail(err, OM_ERR_INVALID_ARGUMENT,
                        "show --hierarchy draws uniform levels (name=size,...)");
    om_locality *loc;
    om_status st = om_hierarchy_locality(pic->mesh, h, pic->color.names,
                                         pic->color.count, &loc, err);
    if (st != OM_OK)
        return st;
    for (size_t l = 0; l < n; l++) {
        if (om_locality_get(loc, l, OM_LOCALITY_GROUPS_CROSSING,
                            &pic->level_crossing[l], err) != OM_OK ||
            om_locality_get(loc, l, OM_LOCALITY_MAX_DOMAINS, &pic->level_max[l],
                            err) != OM_OK) {
            om_locality_free(loc);
            return OM_ERR_INVALID_ARGUMENT;
        }
    }
    om_locality_free(loc);
    int64_t k = om_hierarchy_ranks_per_domain(h, 0);
    pic->hierarchy = h;
    pic->nlevels = n;
    pic->ranks_per_host = k;
    /* Views: hosts up to the largest rank the view reaches, as above. */
    pic->hosts = (om_view_extent(pic->mesh) + k - 1) / k;
    pic->local_groups = pic->group_count - pic->level_crossing[0];
    pic->max_hosts = pic->level_max[0];
    pic->marks = pic->local_groups < pic->group_count;
    return OM_OK;
}

int draw_boundary_level(const draw_picture *pic, int64_t a, int64_t b)
{
    if (pic->ranks_per_host <= 0)
        return -1;
    for (size_t l = pic->nlevels; l-- > 1;) {
        int64_t k = om_hierarchy_ranks_per_domain(pic->hierarchy, l);
        if (a / k != b / k)
            return (int)l;
    }
    return a / pic->ranks_per_host != b / pic->ranks_per_host ? 0 : -1;
}

void draw_describe_level(const draw_picture *pic, size_t level, omu_str *s)
{
    const char *name = om_hierarchy_level_name(pic->hierarchy, level);
    int64_t k = om_hierarchy_ranks_per_domain(pic->hierarchy, level);
    int64_t domains = (om_view_extent(pic->mesh) + k - 1) / k;
    omu_str_printf(s, "%s: %lld %s per domain, %lld %s (boundaries drawn =); ",
                    name, (long long)k, plural(k, "rank", "ranks"),
                    (long long)domains, plural(domains, "domain", "domains"));
    if (pic->level_crossing[level] == 0)
        omu_str_printf(s, "no %s group crosses a %s boundary", set_label(pic),
                        name);
    else
        omu_str_printf(s, "%lld of %lld %s groups CROSS a %s boundary (up to "
                        "%lld domains each)",
                        (long long)pic->level_crossing[level],
                        (long long)pic->group_count, set_label(pic), name,
                        (long long)pic->level_max[level]);
}
