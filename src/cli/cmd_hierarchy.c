/* locality --hierarchy: per-level locality of each axis set, and the
 * --require placement rules (exit 1 when one is broken, report still
 * printed). */
#include <stdlib.h>
#include <string.h>

#include "cli_internal.h"
#include "util.h"

/* hierarchy --examples lists ranks in memory: beyond 2^24 it is refused
 * naming the count (without --examples any size is answered). */
#define CLI_MAX_EXAMPLE_RANKS (1 << 24)

/* The whole regular file (omu_file_read: bounded, never blocks on a FIFO);
 * NULL on failure (reported; out of memory said as such). */
static char *read_file(const cli_io *io, const char *option, const char *path,
                        size_t *len)
{
    char *text = NULL;
    om_error e;
    om_status st = omu_file_read(path, OMU_FILE_LIMIT, &text, len, &e);
    if (st == OM_OK)
        return text;
    cli_quoted q;
    if (st == OM_ERR_NO_MEMORY || strcmp(option, "--hierarchy") != 0)
        cli_error(io, CLI_FAILED, "%s %s: %s", option, cli_quote(&q, path),
                  e.message);
    else
        cli_error(io, CLI_FAILED, "--hierarchy %s: not a level=size list (e.g. "
                  "host=8,rack=64) and not a readable file (%s)",
                  cli_quote(&q, path), e.message);
    return NULL;
}

int cli_load_hierarchy(const cli_io *io, const char *option, const char *value,
                       om_hierarchy **out)
{
    om_error e;
    *out = NULL;
    /* Only --hierarchy takes a spec; --hosts names a hostfile. */
    if (strcmp(option, "--hierarchy") == 0 && strchr(value, '=') &&
        !strchr(value, '/') && !strchr(value, '\n')) {
        if (om_hierarchy_from_spec(value, out, &e) != OM_OK)
            return cli_error(io, CLI_FAILED, "--hierarchy: %s", e.message);
        return CLI_OK;
    }
    if (cli_refuse_stdin(io, option, value) != CLI_OK)
        return CLI_FAILED;
    size_t len = 0;
    char *text = read_file(io, option, value, &len);
    if (!text)
        return CLI_FAILED;
    size_t skip = 0;
    while (skip < len && strchr(" \t\r\n", text[skip]))
        skip++;
    om_status st = skip < len && text[skip] == '{'
                       ? om_hierarchy_from_json(text, len, out, &e)
                       : om_hierarchy_from_hostfile(text, len, out, &e);
    free(text);
    cli_quoted q;
    if (st != OM_OK)
        return cli_error(io, CLI_FAILED, "%s %s: %s", option, cli_quote(&q, value),
                         e.message);
    return CLI_OK;
}

/* The axis sets of the report: each --dims (split at ','), or each axis. */
typedef struct {
    char *text;             /* owned copy of one --dims value */
    const char *names[64];
    size_t count;
} axis_list;

static int split_dims(const cli_io *io, const char *dims, axis_list *list)
{
    list->count = 0;
    list->text = strdup(dims);
    if (!list->text)
        return cli_error(io, CLI_FAILED, "out of memory");
    char *p = list->text;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '\0')
        return CLI_OK;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        while (*p == ' ' || *p == '\t')
            p++;
        size_t n = strlen(p);
        while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            p[--n] = '\0';
        cli_quoted q;
        if (n == 0)
            return cli_error(io, CLI_FAILED, "axis list %s has an empty item (names "
                             "are separated by single commas, e.g. dp,tp)",
                             cli_quote(&q, dims));
        if (list->count == 64)
            return cli_error(io, CLI_FAILED, "axis list %s names more than 64 axes, "
                             "the most one --dims of locality --hierarchy takes",
                             cli_quote(&q, dims));
        list->names[list->count++] = p;
        if (!comma)
            return CLI_OK;
        p = comma + 1;
    }
}

/* {"groups_crossing":C,...} of one level, keys sorted. */
static int write_level(const cli_io *io, const om_mesh *mesh,
                       const om_locality *loc, const axis_list *axes,
                       size_t level, bool examples)
{
    om_error e;
    int64_t v[8];
    for (int f = 0; f < 8; f++)
        if (om_locality_get(loc, level, (om_locality_field)f, &v[f], &e) != OM_OK)
            return cli_lib_error(io, &e);
    fprintf(io->out,
            "{\"groups_crossing\":%lld,\"groups_inside\":%lld,\"max_domains\":%lld,"
            "\"ppn_max\":%lld,\"ppn_min\":%lld",
            (long long)v[OM_LOCALITY_GROUPS_CROSSING],
            (long long)v[OM_LOCALITY_GROUPS_INSIDE],
            (long long)v[OM_LOCALITY_MAX_DOMAINS], (long long)v[OM_LOCALITY_PPN_MAX],
            (long long)v[OM_LOCALITY_PPN_MIN]);
    if (examples) {
        /* The worst group's members, through the public topology calls. */
        int64_t count, size;
        if (om_mesh_group_shape_named(mesh, axes->names, axes->count, &count, &size,
                                      &e) != OM_OK)
            return cli_lib_error(io, &e);
        int32_t *members = malloc((size_t)size * sizeof *members);
        if (!members)
            return cli_error(io, CLI_FAILED, "out of memory");
        if (om_mesh_groups_named(mesh, axes->names, axes->count,
                                 v[OM_LOCALITY_WORST_GROUP], 1, members,
                                 (size_t)size, NULL, &e) != OM_OK) {
            free(members);
            return cli_lib_error(io, &e);
        }
        fprintf(io->out, ",\"worst_group\":%lld,\"worst_ranks\":",
                (long long)v[OM_LOCALITY_WORST_GROUP]);
        cli_json_int_array(io->out, members, size);
        free(members);
    }
    fputc('}', io->out);
    return CLI_OK;
}

/* Level indices sorted by name, for canonical object keys. */
static void sorted_levels(const om_hierarchy *h, size_t *order)
{
    size_t n = om_hierarchy_levels(h);
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        while (j > 0 && strcmp(om_hierarchy_level_name(h, order[j - 1]),
                               om_hierarchy_level_name(h, i)) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
}

static int write_entry(const cli_io *io, const om_mesh *mesh,
                       const om_hierarchy *h, const axis_list *axes,
                       bool examples)
{
    om_error e;
    om_locality *loc;
    if (om_hierarchy_locality(mesh, h, axes->names, axes->count, &loc, &e) != OM_OK)
        return cli_lib_error(io, &e);
    /* The set in mesh order, as the library groups it. */
    fputs("{\"axes\":[", io->out);
    bool first = true;
    for (size_t i = 0; i < om_mesh_ndim(mesh); i++)
        for (size_t k = 0; k < axes->count; k++)
            if (strcmp(om_mesh_name(mesh, i), axes->names[k]) == 0) {
                if (!first)
                    fputc(',', io->out);
                cli_json_string(io->out, axes->names[k]);
                first = false;
            }
    fprintf(io->out, "],\"groups\":%lld,\"levels\":{",
            (long long)om_locality_groups(loc));
    size_t order[64];
    sorted_levels(h, order);
    int rc = CLI_OK;
    for (size_t k = 0; rc == CLI_OK && k < om_hierarchy_levels(h); k++) {
        if (k)
            fputc(',', io->out);
        cli_json_string(io->out, om_hierarchy_level_name(h, order[k]));
        fputc(':', io->out);
        rc = write_level(io, mesh, loc, axes, order[k], examples);
    }
    fputs("}}", io->out);
    om_locality_free(loc);
    return rc;
}

/* Prints each broken rule on stderr, one line each. */
static void print_violations(const cli_io *io, const char *lines)
{
    for (const char *p = lines; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        cli_error(io, CLI_FAILED, "%.*s", (int)len, p);
        p += len + (eol ? 1 : 0);
    }
}

int cli_hierarchy_locality(const cli_io *io, const cli_options *opt,
                           const om_mesh *mesh)
{
    om_hierarchy *h;
    int rc = cli_load_hierarchy(io, "--hierarchy", opt->hierarchy, &h);
    if (rc != CLI_OK)
        return rc;
    /* Validate everything before the first byte of output. */
    size_t nsets = opt->ndims ? opt->ndims : om_mesh_ndim(mesh);
    axis_list *sets = calloc(nsets ? nsets : 1, sizeof *sets);
    if (!sets) {
        om_hierarchy_free(h);
        return cli_error(io, CLI_FAILED, "out of memory");
    }
    for (size_t s = 0; rc == CLI_OK && s < nsets; s++)
        rc = split_dims(io, opt->ndims ? opt->dims[s] : om_mesh_name(mesh, s),
                        &sets[s]);
    om_error e;
    int64_t listed = 0; /* ranks --examples lists: each level's worst group */
    for (size_t s = 0; rc == CLI_OK && s < nsets; s++) {
        om_locality *loc;
        int64_t count, size;
        if (om_hierarchy_locality(mesh, h, sets[s].names, sets[s].count, &loc, &e) !=
                OM_OK ||
            om_mesh_group_shape_named(mesh, sets[s].names, sets[s].count, &count,
                                      &size, &e) != OM_OK)
            rc = cli_lib_error(io, &e);
        else
            listed += size * (int64_t)om_hierarchy_levels(h);
        om_locality_free(loc);
    }
    /* The report is made in memory (below): a group of 2^31-1 ranks would
     * take tens of GB before anything is written. */
    if (rc == CLI_OK && opt->examples && listed > CLI_MAX_EXAMPLE_RANKS)
        rc = cli_error(io, CLI_FAILED,
                       "--examples would list %lld ranks (the worst group of each "
                       "level, for each axis set), over the %d one report holds",
                       (long long)listed, CLI_MAX_EXAMPLE_RANKS);
    char *violations = NULL;
    size_t broken = 0;
    if (rc == CLI_OK && opt->require &&
        om_hierarchy_check(mesh, h, opt->require, &violations, &broken, &e) != OM_OK)
        rc = cli_lib_error(io, &e);
    char *levels = NULL;
    if (rc == CLI_OK && om_hierarchy_to_json(h, &levels, &e) != OM_OK)
        rc = cli_lib_error(io, &e);
    if (rc == CLI_OK) {
        /* The report is made whole in memory first: an allocation failing
         * half-way leaves stdout empty. */
        char *doc = NULL;
        size_t doc_len = 0;
        FILE *mem = open_memstream(&doc, &doc_len);
        if (!mem) {
            rc = cli_error(io, CLI_FAILED, "out of memory");
        } else {
            cli_io mem_io = {mem, io->err};
            fprintf(mem, "{\"levels\":%s,\"report\":[", levels);
            for (size_t s = 0; rc == CLI_OK && s < nsets; s++) {
                if (s)
                    fputc(',', mem);
                rc = write_entry(&mem_io, mesh, h, &sets[s], opt->examples);
            }
            fputs("]}\n", mem);
            bool failed = fclose(mem) != 0 || !doc;
            if (rc == CLI_OK && failed)
                rc = cli_error(io, CLI_FAILED, "out of memory");
            if (rc == CLI_OK)
                fwrite(doc, 1, doc_len, io->out);
        }
        free(doc);
    }
    om_string_free(levels);
    if (rc == CLI_OK && broken > 0) {
        cli_output_failed(io); /* a report that was lost is said first */
        print_violations(io, violations);
        rc = CLI_FAILED;
    }
    om_string_free(violations);
    for (size_t s = 0; s < nsets; s++)
        free(sets[s].text);
    free(sets);
    om_hierarchy_free(h);
    return rc;
}
