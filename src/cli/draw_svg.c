/* SVG picture of a mesh: the same grid, blocks, host boundaries and legend
 * as the terminal picture, standalone (no external fonts, scripts or
 * stylesheets). Every rank cell is a <g class="rank" data-rank="R"> whose
 * <title> gives its coordinates and groups (browsers show it on hover). */
#include <string.h>

#include "draw.h"

#define MARGIN 12
#define CHAR_W 8     /* generous width of one monospace character at 12px */
#define LINE_H 18
#define CELL_H 20
#define GAP 4        /* between cells; host boundaries are drawn in it */

typedef struct {
    const draw_picture *pic;
    omu_str body;
    om_error *err;
    int y;           /* top of the next line */
    int cell_w, label_w;
    int max_chars;   /* longest text line, for the picture width */
    int max_x;       /* rightmost grid extent */
} svg_ctx;

/* Text content or attribute value: XML-escaped; characters XML 1.0 cannot
 * carry become '?'; newlines stay when `keep_newlines`. */
static void put_escaped(omu_str *s, const char *text, bool keep_newlines)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        switch (*p) {
        case '&': omu_str_printf(s, "&amp;"); break;
        case '<': omu_str_printf(s, "&lt;"); break;
        case '>': omu_str_printf(s, "&gt;"); break;
        case '"': omu_str_printf(s, "&quot;"); break;
        default:
            if ((*p == '\n' && keep_newlines) || (*p >= 0x20 && *p != 0x7f))
                omu_str_printf(s, "%c", (char)*p);
            else
                omu_str_printf(s, "?");
        }
    }
}

/* A line of text at the left margin (plus `indent` pixels). */
/* The text of a scratch string; one that ran out of memory fails the
 * picture (never a picture with a piece silently missing). */
static const char *text_of(svg_ctx *c, const omu_str *s)
{
    if (s->failed)
        c->body.failed = true;
    return omu_str_cstr(s);
}

static void text_line(svg_ctx *c, const char *cls, int indent, const char *text)
{
    omu_str_printf(&c->body, "<text class=\"%s\" x=\"%d\" y=\"%d\">", cls,
                    MARGIN + indent, c->y + 13);
    put_escaped(&c->body, text, false);
    omu_str_printf(&c->body, "</text>\n");
    int chars = draw_text_width(text) + (indent + CHAR_W - 1) / CHAR_W;
    if (chars > c->max_chars)
        c->max_chars = chars;
    c->y += LINE_H;
}

static void fill_color(char *buf, size_t len, int slot)
{
    unsigned char rgb[3];
    draw_xterm_rgb(draw_palette_color(slot), rgb);
    snprintf(buf, len, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

static int col_x(const svg_ctx *c, size_t k)
{
    return MARGIN + c->label_w + (int)k * (c->cell_w + GAP);
}

static om_status host_at(const svg_ctx *c, int64_t block, int64_t row,
                         int64_t col, int64_t *host)
{
    int64_t rank;
    om_status st = draw_rank_at(c->pic, block, row, col, &rank, c->err);
    *host = draw_host(c->pic, rank);
    return st;
}

static bool adjacent(const int64_t *slots, size_t k)
{
    return slots[k] != DRAW_ELIDED && slots[k + 1] != DRAW_ELIDED &&
           slots[k + 1] == slots[k] + 1;
}

static om_status rank_cell(svg_ctx *c, int64_t rank, int x, int y)
{
    const draw_picture *pic = c->pic;
    draw_cell cell;
    om_status st = draw_cell_of(pic, rank, &cell, c->err);
    if (st != OM_OK)
        return st;
    omu_str title = {0};
    st = draw_describe_rank(pic, rank, &title, c->err);
    if (st != OM_OK) {
        omu_str_free(&title);
        return st;
    }
    char fill[8];
    fill_color(fill, sizeof fill, cell.color);
    omu_str_printf(&c->body, "<g class=\"rank%s\" data-rank=\"%lld\"><title>",
                    cell.crosses ? " crosses" : "", (long long)rank);
    put_escaped(&c->body, text_of(c, &title), true);
    omu_str_free(&title);
    omu_str_printf(&c->body,
                    "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                    "rx=\"3\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%lld%s%s</text></g>\n",
                    x, y, c->cell_w, CELL_H, fill, x + c->cell_w / 2, y + 14,
                    (long long)rank, cell.tag, cell.crosses ? "!" : "");
    return OM_OK;
}

static void elided_cell(svg_ctx *c, int x, int y)
{
    omu_str_printf(&c->body,
                    "<text class=\"elided\" x=\"%d\" y=\"%d\">..</text>\n",
                    x + c->cell_w / 2, y + 14);
}

static void boundary(svg_ctx *c, int x1, int y1, int x2, int y2)
{
    omu_str_printf(&c->body,
                    "<line class=\"host\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
                    x1, y1, x2, y2);
}

static om_status row_host_label(svg_ctx *c, int64_t block, int64_t row, int y)
{
    const draw_picture *pic = c->pic;
    int64_t first, last;
    om_status st = host_at(c, block, row, 0, &first);
    if (st == OM_OK)
        st = host_at(c, block, row, pic->cols - 1, &last);
    if (st != OM_OK)
        return st;
    int x = col_x(c, pic->ncol_slots) + 6;
    if (first == last)
        omu_str_printf(&c->body,
                        "<text class=\"hostlabel\" x=\"%d\" y=\"%d\">host %lld</text>\n",
                        x, y + 14, (long long)first);
    else
        omu_str_printf(&c->body,
                        "<text class=\"hostlabel\" x=\"%d\" y=\"%d\">hosts %lld-%lld</text>\n",
                        x, y + 14, (long long)first, (long long)last);
    int right = x + CHAR_W * pic->host_width;
    if (right > c->max_x)
        c->max_x = right;
    return OM_OK;
}

/* Host boundaries around row slot k: between its columns, and under it. */
static om_status row_boundaries(svg_ctx *c, int64_t block, size_t k, int y)
{
    const draw_picture *pic = c->pic;
    int64_t row = pic->row_slots[k];
    for (size_t j = 0; j + 1 < pic->ncol_slots; j++) {
        if (!adjacent(pic->col_slots, j))
            continue;
        int64_t a, b;
        om_status st = host_at(c, block, row, pic->col_slots[j], &a);
        if (st == OM_OK)
            st = host_at(c, block, row, pic->col_slots[j + 1], &b);
        if (st != OM_OK)
            return st;
        if (a != b) {
            int x = col_x(c, j + 1) - GAP / 2;
            boundary(c, x, y - GAP / 2, x, y + CELL_H + GAP / 2);
        }
    }
    if (k + 1 >= pic->nrow_slots || !adjacent(pic->row_slots, k))
        return OM_OK;
    for (size_t j = 0; j < pic->ncol_slots; j++) {
        if (pic->col_slots[j] == DRAW_ELIDED)
            continue;
        int64_t a, b;
        om_status st = host_at(c, block, row, pic->col_slots[j], &a);
        if (st == OM_OK)
            st = host_at(c, block, row + 1, pic->col_slots[j], &b);
        if (st != OM_OK)
            return st;
        if (a != b) {
            int x = col_x(c, j);
            int yy = y + CELL_H + GAP / 2;
            boundary(c, x - GAP / 2, yy, x + c->cell_w + GAP / 2, yy);
        }
    }
    return OM_OK;
}

static om_status block(svg_ctx *c, int64_t b)
{
    const draw_picture *pic = c->pic;
    omu_str s = {0};
    om_status st = draw_describe_block(pic, b, &s, c->err);
    if (st != OM_OK) {
        omu_str_free(&s);
        return st;
    }
    c->y += 6;
    text_line(c, "block", 0, text_of(c, &s));
    omu_str_free(&s);

    /* Column header, with the corner naming the row and column axes. */
    draw_corner_label(pic, &s);
    omu_str_printf(&c->body, "<text class=\"corner\" x=\"%d\" y=\"%d\">",
                    MARGIN + c->label_w - 6, c->y + 13);
    put_escaped(&c->body, text_of(c, &s), false);
    omu_str_printf(&c->body, "</text>\n");
    omu_str_free(&s);
    for (size_t k = 0; k < pic->ncol_slots; k++) {
        int x = col_x(c, k) + c->cell_w / 2;
        if (pic->col_slots[k] == DRAW_ELIDED)
            omu_str_printf(&c->body,
                            "<text class=\"elided\" x=\"%d\" y=\"%d\">..</text>\n",
                            x, c->y + 13);
        else if (pic->col_axis >= 0)
            omu_str_printf(&c->body,
                            "<text class=\"colhead\" x=\"%d\" y=\"%d\">%lld</text>\n",
                            x, c->y + 13, (long long)pic->col_slots[k]);
    }
    c->y += LINE_H;

    for (size_t k = 0; k < pic->nrow_slots; k++) {
        int64_t row = pic->row_slots[k];
        int y = c->y;
        if (row == DRAW_ELIDED)
            omu_str_printf(&c->body,
                            "<text class=\"rowhead\" x=\"%d\" y=\"%d\">..</text>\n",
                            MARGIN + c->label_w - 6, y + 14);
        else if (pic->row_axis >= 0)
            omu_str_printf(&c->body,
                            "<text class=\"rowhead\" x=\"%d\" y=\"%d\">%lld</text>\n",
                            MARGIN + c->label_w - 6, y + 14, (long long)row);
        for (size_t j = 0; j < pic->ncol_slots; j++) {
            int64_t col = pic->col_slots[j];
            if (row == DRAW_ELIDED || col == DRAW_ELIDED) {
                elided_cell(c, col_x(c, j), y);
                continue;
            }
            int64_t rank;
            st = draw_rank_at(pic, b, row, col, &rank, c->err);
            if (st == OM_OK)
                st = rank_cell(c, rank, col_x(c, j), y);
            if (st != OM_OK)
                return st;
        }
        if (pic->ranks_per_host > 0 && row != DRAW_ELIDED) {
            st = row_host_label(c, b, row, y);
            if (st == OM_OK)
                st = row_boundaries(c, b, k, y);
            if (st != OM_OK)
                return st;
        }
        c->y += CELL_H + GAP;
    }
    return OM_OK;
}

static om_status legend(svg_ctx *c)
{
    const draw_picture *pic = c->pic;
    int64_t ranks[DRAW_MAX_LEGEND], distinct;
    size_t count;
    om_status st = draw_legend(pic, ranks, &count, &distinct, c->err);
    if (st != OM_OK)
        return st;
    const char *label = pic->color_by[0] ? pic->color_by : "rank";
    omu_str s = {0};
    omu_str_printf(&s, "legend: %lld %s group%s shown", (long long)distinct,
                    label, distinct == 1 ? "" : "s");
    if ((int64_t)count < distinct)
        omu_str_printf(&s, ", the first %zu listed", count);
    c->y += 6;
    text_line(c, "legend", 0, text_of(c, &s));
    int swatch_w = CHAR_W * (pic->tag_width + 1) + 8;
    for (size_t k = 0; k < count && st == OM_OK; k++) {
        draw_cell cell;
        st = draw_cell_of(pic, ranks[k], &cell, c->err);
        if (st != OM_OK)
            break;
        char fill[8];
        fill_color(fill, sizeof fill, cell.color);
        omu_str_printf(&c->body,
                        "<g class=\"swatch\"><rect x=\"%d\" y=\"%d\" width=\"%d\" "
                        "height=\"%d\" rx=\"3\" fill=\"%s\"/><text x=\"%d\" "
                        "y=\"%d\">%s%s</text></g>\n",
                        MARGIN + 8, c->y + 1, swatch_w, LINE_H - 2, fill,
                        MARGIN + 8 + swatch_w / 2, c->y + 13, cell.tag,
                        cell.crosses ? "!" : "");
        omu_str_clear(&s);
        st = draw_describe_group(pic, pic->color, label, ranks[k], &s,
                                 c->err);
        if (st != OM_OK)
            break;
        if (pic->ranks_per_host > 0 && !cell.crosses)
            omu_str_printf(&s, "  host %lld", (long long)cell.first_host);
        if (pic->ranks_per_host > 0 && cell.crosses)
            omu_str_printf(&s, "  hosts %lld-%lld, CROSSES HOSTS",
                            (long long)cell.first_host, (long long)cell.last_host);
        text_line(c, cell.crosses ? "entry warn" : "entry", 16 + swatch_w,
                  text_of(c, &s));
    }
    if (st == OM_OK && (int64_t)count < distinct) {
        omu_str_clear(&s);
        omu_str_printf(&s, "... %lld more; colors repeat every %d groups",
                        (long long)(distinct - (int64_t)count), DRAW_PALETTE_SIZE);
        text_line(c, "entry", 8, text_of(c, &s));
    }
    omu_str_free(&s);
    return st;
}

om_status draw_svg(const draw_picture *pic, FILE *out, om_error *err)
{
    svg_ctx c = {pic, {0}, err, MARGIN, 0, 0, 0, 0};
    c.cell_w = CHAR_W * pic->cell_width + 10;
    c.label_w = CHAR_W * pic->row_label_width + 12;
    c.max_x = col_x(&c, pic->ncol_slots);

    omu_str s = {0};
    draw_describe_mesh(pic, &s);
    text_line(&c, "title", 0, text_of(&c, &s));
    omu_str_clear(&s);
    draw_describe_colors(pic, &s);
    text_line(&c, "note", 0, text_of(&c, &s));
    om_status st = OM_OK;
    for (size_t k = 0; k < pic->nblock_slots && st == OM_OK; k++) {
        if (pic->block_slots[k] == DRAW_ELIDED) {
            omu_str_clear(&s);
            draw_describe_hidden_blocks(pic, &s);
            c.y += 6;
            text_line(&c, "elided-blocks", 0, text_of(&c, &s));
            continue;
        }
        st = block(&c, pic->block_slots[k]);
    }
    if (st == OM_OK)
        st = legend(&c);
    if (st == OM_OK && pic->ranks_per_host > 0) {
        omu_str_clear(&s);
        draw_describe_hosts(pic, &s);
        c.y += 6;
        text_line(&c, pic->local_groups < pic->group_count ? "hosts warn" : "hosts",
                  0, text_of(&c, &s));
        for (size_t l = 1; l < pic->nlevels; l++) {
            omu_str_clear(&s);
            draw_describe_level(pic, l, &s);
            text_line(&c, pic->level_crossing[l] ? "hosts warn" : "hosts", 0,
                      text_of(&c, &s));
        }
    }
    omu_str title = {0};
    omu_str_clear(&s);
    draw_describe_mesh(pic, &s);
    put_escaped(&title, text_of(&c, &s), false);
    bool failed = s.failed || c.body.failed || title.failed;
    if (st == OM_OK && failed) {
        st = OM_ERR_NO_MEMORY;
        if (err) {
            err->status = st;
            snprintf(err->message, sizeof err->message, "out of memory");
        }
    }
    if (st == OM_OK) {
        int width = c.max_x + MARGIN;
        int text_w = 2 * MARGIN + (15 * c.max_chars + 1) / 2; /* 7.5 px */
        if (text_w > width)
            width = text_w;
        int height = c.y + MARGIN;
        fprintf(out,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
                "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
                width, height, width, height);
        fputs("<title>offline-mesh show: ", out);
        fputs(omu_str_cstr(&title), out);
        fputs("</title>\n"
              "<style>\n"
              "text{font-family:monospace;font-size:12px;fill:#000}\n"
              ".rank text,.swatch text,.colhead,.elided{text-anchor:middle}\n"
              ".corner,.rowhead{text-anchor:end;fill:#555}\n"
              ".colhead,.hostlabel{fill:#555}\n"
              ".title,.block{font-weight:bold}\n"
              ".warn{fill:#b00000;font-weight:bold}\n"
              ".rank.crosses rect{stroke:#b00000;stroke-width:2}\n"
              "line.host{stroke:#000;stroke-width:3;stroke-linecap:square}\n"
              "</style>\n", out);
        fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width,
                height);
        fputs(omu_str_cstr(&c.body), out);
        fputs("</svg>\n", out);
    }
    omu_str_free(&s);
    omu_str_free(&title);
    omu_str_free(&c.body);
    return st;
}
