/* offline-mesh advise: runtime axis orders ranked in a hierarchy, or the
 * rules one order breaks (exit 1 when it breaks any). */
#include <string.h>

#include "cli_internal.h"

static void write_lines(FILE *out, const char *lines)
{
    fputc('[', out);
    bool first = true;
    for (const char *p = lines; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < 1023 ? len : 1023), p);
        if (!first)
            fputc(',', out);
        cli_json_string(out, line);
        first = false;
        p += len + (eol ? 1 : 0);
    }
    fputc(']', out);
}

int cli_cmd_advise(const cli_io *io, int argc, char **argv)
{
    cli_options opt;
    int rc = cli_parse(io, "advise", argc, argv, 2,
                       OPT_CONFIG | OPT_WORLD_SIZE | OPT_ORDER | OPT_HIERARCHY |
                           OPT_REQUIRE | OPT_PREFER | OPT_PRIORITY,
                       &opt);
    if (rc != CLI_OK)
        return rc;
    if (!opt.hierarchy)
        return cli_error(io, CLI_USAGE, "'advise' needs --hierarchy LEVELS");
    om_dims *dims;
    rc = cli_load_dims(io, &opt, &dims);
    if (rc != CLI_OK)
        return rc;
    om_hierarchy *h;
    rc = cli_load_hierarchy(io, "--hierarchy", opt.hierarchy, &h);
    om_error e;
    char *text = NULL;
    if (rc == CLI_OK && opt.order) {
        size_t count = 0;
        if (om_order_check(dims, h, opt.order, opt.require, &text, &count, &e) !=
            OM_OK) {
            rc = cli_lib_error(io, &e);
        } else {
            char *normal = NULL;
            if (om_order_normalize(opt.order, &normal, &e) != OM_OK) {
                rc = cli_lib_error(io, &e);
            } else {
                fputs("{\"broken\":", io->out);
                write_lines(io->out, text);
                fputs(",\"order\":", io->out);
                cli_json_string(io->out, normal);
                fputs("}\n", io->out);
                rc = count > 0 ? CLI_FAILED : CLI_OK;
                cli_quoted q;
                if (count > 0 && !cli_output_failed(io))
                    cli_error(io, CLI_FAILED, "order %s breaks %zu rule%s",
                              cli_quote(&q, opt.order), count, count == 1 ? "" : "s");
            }
            om_string_free(normal);
        }
    } else if (rc == CLI_OK) {
        if (om_order_advice(dims, h, opt.require, opt.prefer, opt.priority, &text,
                            &e) != OM_OK)
            rc = cli_lib_error(io, &e);
        else
            fprintf(io->out, "%s\n", text);
    }
    om_string_free(text);
    om_hierarchy_free(h);
    om_dims_free(dims);
    return rc;
}
