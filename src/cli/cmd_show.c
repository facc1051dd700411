/* offline-mesh show: a picture of the mesh, in the terminal or as SVG.
 *
 * Color (text format only) follows, first to last: OFFLINE_MESH_COLOR
 * (always / never / auto), NO_COLOR (set and non-empty: no color), then
 * whether stdout is a terminal. The picture is drawn into memory first, so
 * a failure leaves stdout empty. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_internal.h"
#include "draw.h"

enum { FORMAT_TEXT, FORMAT_SVG };

static int parse_format(const cli_io *io, const char *text, int *format)
{
    if (!text || strcmp(text, "text") == 0)
        *format = FORMAT_TEXT;
    else if (strcmp(text, "svg") == 0)
        *format = FORMAT_SVG;
    else {
        cli_quoted q;
        return cli_error(io, CLI_USAGE, "--format must be text or svg, got %s",
                         cli_quote(&q, text));
    }
    return CLI_OK;
}

static int want_color(const cli_io *io, bool *color)
{
    const char *force = getenv("OFFLINE_MESH_COLOR");
    if (force && *force && strcmp(force, "auto") != 0) {
        if (strcmp(force, "always") == 0)
            *color = true;
        else if (strcmp(force, "never") == 0)
            *color = false;
        else {
            cli_quoted q;
            return cli_error(io, CLI_USAGE,
                             "OFFLINE_MESH_COLOR must be always, never or "
                             "auto, got %s", cli_quote(&q, force));
        }
        return CLI_OK;
    }
    const char *no_color = getenv("NO_COLOR");
    if (no_color && *no_color) {
        *color = false;
        return CLI_OK;
    }
    int fd = fileno(io->out);
    *color = fd >= 0 && isatty(fd);
    return CLI_OK;
}

static int render(const cli_io *io, const om_mesh *mesh,
                  const cli_options *opt, int format, bool color)
{
    draw_picture pic;
    om_error e;
    /* Colors by --color-by, else by the innermost axis. */
    size_t n = om_mesh_ndim(mesh);
    const char *label = opt->color_by ? opt->color_by
                        : n >= 1      ? om_mesh_name(mesh, n - 1)
                                      : "";
    cli_axis_set color_set;
    int rc = CLI_OK;
    if (opt->color_by)
        rc = cli_axis_set_parse(io, "color-by", label, &color_set);
    else if (n >= 1)
        cli_axis_set_single(label, &color_set);
    else
        rc = cli_axis_set_parse(io, "color-by", "", &color_set);
    if (rc != CLI_OK)
        return rc;
    size_t got;
    if (om_mesh_axis_indices(mesh, color_set.names, color_set.count, NULL, 0, &got,
                             &e) != OM_OK) {
        cli_axis_set_free(&color_set);
        return cli_error(io, CLI_FAILED, "--color-by: %s", e.message);
    }
    draw_axes axes = {color_set.names, color_set.count};
    if (draw_picture_init(&pic, mesh, label, axes,
                          opt->has_ranks_per_host ? opt->ranks_per_host : 0,
                          &e) != OM_OK) {
        cli_axis_set_free(&color_set);
        return cli_lib_error(io, &e);
    }
    om_hierarchy *h = NULL;
    if (opt->hierarchy) {
        int hrc = cli_load_hierarchy(io, "--hierarchy", opt->hierarchy, &h);
        if (hrc == CLI_OK && draw_picture_set_hierarchy(&pic, h, &e) != OM_OK)
            hrc = cli_lib_error(io, &e);
        if (hrc != CLI_OK) {
            om_hierarchy_free(h);
            draw_picture_free(&pic);
            cli_axis_set_free(&color_set);
            return hrc;
        }
    }
    char *text = NULL;
    size_t len = 0;
    FILE *buf = open_memstream(&text, &len);
    rc = CLI_OK;
    if (!buf) {
        rc = cli_error(io, CLI_FAILED, "out of memory");
    } else {
        om_status st = format == FORMAT_SVG ? draw_svg(&pic, buf, &e)
                                            : draw_text(&pic, buf, color, &e);
        bool failed = fclose(buf) != 0;
        if (st != OM_OK)
            rc = cli_lib_error(io, &e);
        else if (failed || !text)
            rc = cli_error(io, CLI_FAILED, "out of memory");
        else
            fwrite(text, 1, len, io->out);
    }
    free(text);
    draw_picture_free(&pic);
    cli_axis_set_free(&color_set);
    om_hierarchy_free(h);
    return rc;
}

int cli_cmd_show(const cli_io *io, int argc, char **argv)
{
    cli_options opt;
    int rc = cli_parse(io, "show", argc, argv, 2,
                       OPT_CONFIG | OPT_WORLD_SIZE | OPT_ORDER | OPT_MESH |
                           OPT_COLOR_BY | OPT_FORMAT | OPT_RANKS_PER_HOST |
                           OPT_HIERARCHY | CLI_VIEW_OPTIONS,
                       &opt);
    if (rc == CLI_OK && opt.hierarchy && opt.has_ranks_per_host)
        rc = cli_error(io, CLI_USAGE, "--ranks-per-host cannot be combined with "
                       "--hierarchy (give host=K as its first level)");
    int format = FORMAT_TEXT;
    bool color = false;
    if (rc == CLI_OK)
        rc = parse_format(io, opt.format, &format);
    if (rc == CLI_OK && format == FORMAT_TEXT)
        rc = want_color(io, &color);
    if (rc != CLI_OK)
        return rc;
    om_mesh *mesh;
    rc = cli_load_mesh(io, &opt, &mesh, NULL);
    if (rc != CLI_OK)
        return rc;
    rc = render(io, mesh, &opt, format, color);
    om_mesh_free(mesh);
    return rc;
}
