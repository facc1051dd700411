/* Terminal picture of a mesh: a grid of rank numbers per block, each cell
 * followed by its group's letters and, with color, on its group's
 * background (ANSI 256 colors). Host boundaries are '|' between columns
 * and '-' between rows. The layout is identical with and without color;
 * color only adds escape sequences around cells. */
#include <string.h>

#include "draw.h"

#define ESC "\x1b["
#define RESET ESC "0m"

typedef struct {
    const draw_picture *pic;
    FILE *out;
    bool color;
    omu_str line;
    om_error *err;
} text_ctx;

/* Appends `text` with control characters replaced, so axis names cannot
 * send escape sequences to the terminal. */
static void put_clean(omu_str *line, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        unsigned char c = *p;
        omu_str_printf(line, "%c", c < 0x20 || c == 0x7f ? '?' : (char)c);
    }
}

static void put_chars(omu_str *line, char c, int n)
{
    for (int i = 0; i < n; i++)
        omu_str_printf(line, "%c", c);
}

/* Writes the line without trailing spaces and starts a new one. */
static void emit(text_ctx *t)
{
    const char *data = omu_str_cstr(&t->line);
    size_t len = strlen(data);
    while (len > 0 && data[len - 1] == ' ')
        len--;
    fwrite(data, 1, len, t->out);
    fputc('\n', t->out);
    omu_str_clear(&t->line);
}

/* One cell: rank right-aligned, its group's letters, '!' when its group
 * crosses a host; padded to the cell width. */
static void put_cell(text_ctx *t, const draw_cell *cell)
{
    const draw_picture *pic = t->pic;
    char tag[24], text[64];
    snprintf(tag, sizeof tag, "%s%s", cell->tag, cell->crosses ? "!" : "");
    snprintf(text, sizeof text, "%*lld%-*s", pic->rank_width,
             (long long)cell->rank, pic->tag_width + (pic->marks ? 1 : 0), tag);
    if (t->color)
        omu_str_printf(&t->line, ESC "38;5;16;48;5;%dm",
                        draw_palette_color(cell->color));
    omu_str_printf(&t->line, "%*s", pic->cell_width, text);
    if (t->color)
        omu_str_printf(&t->line, RESET);
}

/* A legend swatch: the letters on the group's color. */
static void put_swatch(text_ctx *t, const draw_cell *cell)
{
    const draw_picture *pic = t->pic;
    if (t->color)
        omu_str_printf(&t->line, ESC "38;5;16;48;5;%dm",
                        draw_palette_color(cell->color));
    char tag[24];
    snprintf(tag, sizeof tag, "%s%s", cell->tag, cell->crosses ? "!" : "");
    omu_str_printf(&t->line, "%-*s", pic->tag_width + (pic->marks ? 1 : 0), tag);
    if (t->color)
        omu_str_printf(&t->line, RESET);
}

static void put_text(text_ctx *t, const omu_str *s)
{
    /* A scratch text that ran out of memory fails the picture: never a
     * picture with a piece silently missing. */
    if (s->failed)
        t->line.failed = true;
    put_clean(&t->line, omu_str_cstr(s));
}

/* The shown row/column slot pairs that are true neighbours. */
static bool adjacent(const int64_t *slots, size_t k)
{
    return slots[k] != DRAW_ELIDED && slots[k + 1] != DRAW_ELIDED &&
           slots[k + 1] == slots[k] + 1;
}

static om_status host_at(const text_ctx *t, int64_t block, int64_t row,
                         int64_t col, int64_t *host)
{
    int64_t rank;
    om_status st = draw_rank_at(t->pic, block, row, col, &rank, t->err);
    *host = draw_host(t->pic, rank);
    return st;
}

/* Is there a host boundary between column slots k and k+1 of `row`? */
static om_status vertical_bar(const text_ctx *t, int64_t block, int64_t row,
                              size_t k, bool *bar)
{
    const draw_picture *pic = t->pic;
    *bar = false;
    if (pic->ranks_per_host <= 0 || row == DRAW_ELIDED ||
        !adjacent(pic->col_slots, k))
        return OM_OK;
    int64_t a, b;
    om_status st = host_at(t, block, row, pic->col_slots[k], &a);
    if (st == OM_OK)
        st = host_at(t, block, row, pic->col_slots[k + 1], &b);
    *bar = st == OM_OK && a != b;
    return st;
}

static om_status grid_row(text_ctx *t, int64_t block, int64_t row)
{
    const draw_picture *pic = t->pic;
    omu_str_printf(&t->line, "  ");
    if (row == DRAW_ELIDED)
        omu_str_printf(&t->line, "%*s", pic->row_label_width, "..");
    else if (pic->row_axis >= 0)
        omu_str_printf(&t->line, "%*lld", pic->row_label_width, (long long)row);
    else
        put_chars(&t->line, ' ', pic->row_label_width);
    omu_str_printf(&t->line, " ");
    for (size_t k = 0; k < pic->ncol_slots; k++) {
        if (k > 0) {
            bool bar;
            om_status st = vertical_bar(t, block, row, k - 1, &bar);
            if (st != OM_OK)
                return st;
            omu_str_printf(&t->line, "%c", bar ? '|' : ' ');
        }
        int64_t col = pic->col_slots[k];
        if (row == DRAW_ELIDED || col == DRAW_ELIDED) {
            omu_str_printf(&t->line, "%*s", pic->cell_width, "..");
            continue;
        }
        int64_t rank;
        draw_cell cell;
        om_status st = draw_rank_at(pic, block, row, col, &rank, t->err);
        if (st == OM_OK)
            st = draw_cell_of(pic, rank, &cell, t->err);
        if (st != OM_OK)
            return st;
        put_cell(t, &cell);
    }
    if (pic->ranks_per_host > 0 && row != DRAW_ELIDED) {
        int64_t first, last;
        om_status st = host_at(t, block, row, 0, &first);
        if (st == OM_OK)
            st = host_at(t, block, row, pic->cols - 1, &last);
        if (st != OM_OK)
            return st;
        omu_str_printf(&t->line, "  ");
        if (first == last)
            omu_str_printf(&t->line, "host %lld", (long long)first);
        else
            omu_str_printf(&t->line, "hosts %lld-%lld", (long long)first,
                            (long long)last);
    }
    emit(t);
    return OM_OK;
}

/* The line under row slot k when some cell's host differs from the one
 * below: '-' under those cells, nothing when no host boundary. */
static om_status separator(text_ctx *t, int64_t block, size_t k)
{
    const draw_picture *pic = t->pic;
    if (pic->ranks_per_host <= 0 || !adjacent(pic->row_slots, k))
        return OM_OK;
    int64_t row = pic->row_slots[k];
    bool diff[DRAW_MAX_COLS], slow[DRAW_MAX_COLS], any = false;
    for (size_t c = 0; c < pic->ncol_slots; c++) {
        diff[c] = slow[c] = false;
        if (pic->col_slots[c] == DRAW_ELIDED)
            continue;
        int64_t a, b;
        om_status st = host_at(t, block, row, pic->col_slots[c], &a);
        if (st == OM_OK)
            st = host_at(t, block, row + 1, pic->col_slots[c], &b);
        if (st != OM_OK)
            return st;
        diff[c] = a != b;
        if (diff[c] && pic->nlevels > 1) {
            /* A boundary of a slower level (show --hierarchy) is '='. */
            int64_t ra, rb;
            st = draw_rank_at(pic, block, row, pic->col_slots[c], &ra, t->err);
            if (st == OM_OK)
                st = draw_rank_at(pic, block, row + 1, pic->col_slots[c], &rb,
                                  t->err);
            if (st != OM_OK)
                return st;
            slow[c] = draw_boundary_level(pic, ra, rb) > 0;
        }
        any = any || diff[c];
    }
    if (!any)
        return OM_OK;
    omu_str_printf(&t->line, "  ");
    put_chars(&t->line, ' ', pic->row_label_width + 1);
    for (size_t c = 0; c < pic->ncol_slots; c++) {
        if (c > 0) {
            bool above, below;
            om_status st = vertical_bar(t, block, row, c - 1, &above);
            if (st == OM_OK)
                st = vertical_bar(t, block, row + 1, c - 1, &below);
            if (st != OM_OK)
                return st;
            char gap = ' ';
            if (diff[c - 1] && diff[c])
                gap = slow[c - 1] && slow[c] ? '=' : '-';
            else if ((diff[c - 1] || diff[c]) && (above || below))
                gap = '+';
            else if (above && below)
                gap = '|';
            omu_str_printf(&t->line, "%c", gap);
        }
        put_chars(&t->line, slow[c] ? '=' : diff[c] ? '-' : ' ', pic->cell_width);
    }
    emit(t);
    return OM_OK;
}

static om_status block(text_ctx *t, int64_t b)
{
    const draw_picture *pic = t->pic;
    omu_str s = {0};
    om_status st = draw_describe_block(pic, b, &s, t->err);
    if (st != OM_OK) {
        omu_str_free(&s);
        return st;
    }
    put_text(t, &s);
    omu_str_free(&s);
    emit(t);

    /* Column header: the corner names the row and column axes. */
    if (pic->col_axis >= 0) {
        draw_corner_label(pic, &s);
        omu_str_printf(&t->line, "  ");
        put_chars(&t->line, ' ', pic->row_label_width -
                                           draw_text_width(omu_str_cstr(&s)));
        put_text(t, &s);
        omu_str_free(&s);
        omu_str_printf(&t->line, " ");
        for (size_t k = 0; k < pic->ncol_slots; k++) {
            if (k > 0)
                omu_str_printf(&t->line, " ");
            if (pic->col_slots[k] == DRAW_ELIDED)
                omu_str_printf(&t->line, "%*s", pic->cell_width, "..");
            else
                omu_str_printf(&t->line, "%*lld", pic->cell_width,
                                (long long)pic->col_slots[k]);
        }
        emit(t);
    }

    for (size_t k = 0; k < pic->nrow_slots; k++) {
        st = grid_row(t, b, pic->row_slots[k]);
        if (st == OM_OK && k + 1 < pic->nrow_slots)
            st = separator(t, b, k);
        if (st != OM_OK)
            return st;
    }
    return OM_OK;
}

static om_status legend(text_ctx *t)
{
    const draw_picture *pic = t->pic;
    int64_t ranks[DRAW_MAX_LEGEND], distinct;
    size_t count;
    om_status st = draw_legend(pic, ranks, &count, &distinct, t->err);
    if (st != OM_OK)
        return st;
    omu_str s = {0};
    omu_str_printf(&s, "legend: %lld %s group%s shown", (long long)distinct,
                    pic->color_by[0] ? pic->color_by : "rank",
                    distinct == 1 ? "" : "s");
    if ((int64_t)count < distinct)
        omu_str_printf(&s, ", the first %zu listed", count);
    put_text(t, &s);
    emit(t);
    for (size_t k = 0; k < count && st == OM_OK; k++) {
        draw_cell cell;
        st = draw_cell_of(pic, ranks[k], &cell, t->err);
        if (st != OM_OK)
            break;
        omu_str_printf(&t->line, "  ");
        put_swatch(t, &cell);
        omu_str_printf(&t->line, " ");
        omu_str_clear(&s);
        st = draw_describe_group(pic, pic->color,
                                 pic->color_by[0] ? pic->color_by : "rank",
                                 ranks[k], &s, t->err);
        put_text(t, &s);
        if (pic->ranks_per_host > 0) {
            if (cell.crosses)
                omu_str_printf(&t->line, "  %shosts %lld-%lld, CROSSES HOSTS%s",
                                t->color ? ESC "1;38;5;160m" : "",
                                (long long)cell.first_host,
                                (long long)cell.last_host, t->color ? RESET : "");
            else
                omu_str_printf(&t->line, "  host %lld",
                                (long long)cell.first_host);
        }
        emit(t);
    }
    if (st == OM_OK && (int64_t)count < distinct) {
        omu_str_printf(&t->line, "  ... %lld more; colors repeat every %d groups",
                        (long long)(distinct - (int64_t)count),
                        DRAW_PALETTE_SIZE);
        emit(t);
    }
    omu_str_free(&s);
    return st;
}

om_status draw_text(const draw_picture *pic, FILE *out, bool color,
                    om_error *err)
{
    text_ctx t = {pic, out, color, {0}, err};
    omu_str s = {0};
    draw_describe_mesh(pic, &s);
    put_text(&t, &s);
    emit(&t);
    omu_str_clear(&s);
    draw_describe_colors(pic, &s);
    put_text(&t, &s);
    emit(&t);
    om_status st = OM_OK;
    for (size_t k = 0; k < pic->nblock_slots && st == OM_OK; k++) {
        emit(&t);
        if (pic->block_slots[k] == DRAW_ELIDED) {
            omu_str_clear(&s);
            draw_describe_hidden_blocks(pic, &s);
            put_text(&t, &s);
            emit(&t);
            continue;
        }
        st = block(&t, pic->block_slots[k]);
    }
    if (st == OM_OK) {
        emit(&t);
        st = legend(&t);
    }
    if (st == OM_OK && pic->ranks_per_host > 0) {
        omu_str_clear(&s);
        draw_describe_hosts(pic, &s);
        put_text(&t, &s);
        emit(&t);
        for (size_t l = 1; l < pic->nlevels; l++) {
            omu_str_clear(&s);
            draw_describe_level(pic, l, &s);
            put_text(&t, &s);
            emit(&t);
        }
    }
    bool failed = s.failed || t.line.failed;
    omu_str_free(&s);
    omu_str_free(&t.line);
    if (st == OM_OK && failed) {
        if (err) {
            err->status = OM_ERR_NO_MEMORY;
            snprintf(err->message, sizeof err->message, "out of memory");
        }
        return OM_ERR_NO_MEMORY;
    }
    return st;
}
