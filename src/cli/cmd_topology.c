/* Commands about rank topology: groups, coord, dump and locality. */
#include <stdlib.h>
#include <string.h>

#include "cli_internal.h"

/* Groups are streamed in slices of about this many ranks. */
#define CLI_SLICE_RANKS (1 << 16)

static int load(const cli_io *io, const char *command, int argc, char **argv,
                unsigned extra, cli_options *opt, om_mesh **mesh)
{
    int rc = cli_parse(io, command, argc, argv, 2,
                       OPT_CONFIG | OPT_WORLD_SIZE | OPT_ORDER | OPT_MESH | extra,
                       opt);
    if (rc == CLI_OK)
        rc = cli_load_mesh(io, opt, mesh, NULL);
    return rc;
}

/* Writes all groups over `axes` as a JSON array of arrays. */
static int write_groups(const cli_io *io, const om_mesh *mesh, uint64_t axes)
{
    om_error e;
    int64_t count, size;
    if (om_mesh_group_shape(mesh, axes, &count, &size, &e) != OM_OK)
        return cli_lib_error(io, &e);
    int64_t per_slice = size >= CLI_SLICE_RANKS ? 1 : CLI_SLICE_RANKS / size;
    int32_t *buf = malloc((size_t)(per_slice * size) * sizeof *buf);
    if (!buf)
        return cli_error(io, CLI_FAILED, "out of memory for groups of %lld ranks",
                         (long long)size);
    fputc('[', io->out);
    for (int64_t g = 0; g < count; g += per_slice) {
        int64_t n = count - g < per_slice ? count - g : per_slice;
        if (om_mesh_groups(mesh, axes, g, n, buf, (size_t)(n * size), &e) != OM_OK) {
            free(buf);
            return cli_lib_error(io, &e);
        }
        for (int64_t k = 0; k < n; k++) {
            if (g + k)
                fputc(',', io->out);
            cli_json_int_array(io->out, buf + k * size, size);
        }
    }
    fputs("]\n", io->out);
    free(buf);
    return CLI_OK;
}

int cli_cmd_groups(const cli_io *io, int argc, char **argv)
{
    cli_options opt;
    om_mesh *mesh;
    int rc = load(io, "groups", argc, argv, OPT_DIMS, &opt, &mesh);
    if (rc != CLI_OK)
        return rc;
    om_error e;
    uint64_t axes;
    if (opt.ndims == 0)
        rc = cli_error(io, CLI_USAGE, "'groups' needs --dims AXES");
    else if (om_mesh_axes(mesh, opt.dims[0], &axes, &e) != OM_OK)
        rc = cli_lib_error(io, &e);
    else
        rc = write_groups(io, mesh, axes);
    om_mesh_free(mesh);
    return rc;
}

/* {"cp":0,"dp":1,"tp":1}: keys sorted, as canonical JSON. */
static void write_coord(FILE *out, const om_mesh *mesh, const size_t *sorted,
                        const int64_t *coord)
{
    size_t n = om_mesh_ndim(mesh);
    fputc('{', out);
    for (size_t k = 0; k < n; k++) {
        if (k)
            fputc(',', out);
        cli_json_string(out, om_mesh_name(mesh, sorted[k]));
        fprintf(out, ":%lld", (long long)coord[sorted[k]]);
    }
    fputc('}', out);
}

int cli_cmd_coord(const cli_io *io, int argc, char **argv)
{
    cli_options opt;
    om_mesh *mesh;
    int rc = load(io, "coord", argc, argv, OPT_RANK, &opt, &mesh);
    if (rc != CLI_OK)
        return rc;
    size_t n = om_mesh_ndim(mesh);
    int64_t *coord = malloc((n ? n : 1) * sizeof *coord);
    size_t *sorted = malloc((n ? n : 1) * sizeof *sorted);
    om_error e;
    if (!opt.has_rank)
        rc = cli_error(io, CLI_USAGE, "'coord' needs --rank R");
    else if (!coord || !sorted)
        rc = cli_error(io, CLI_FAILED, "out of memory");
    else if (om_mesh_coordinate(mesh, opt.rank, coord, n, &e) != OM_OK)
        rc = cli_lib_error(io, &e);
    else {
        cli_sorted_axes(mesh, sorted);
        write_coord(io->out, mesh, sorted, coord);
        fputc('\n', io->out);
    }
    free(coord);
    free(sorted);
    om_mesh_free(mesh);
    return rc;
}

/* The axis sets of dump and locality: each --dims, or each single axis. */
typedef struct {
    size_t count;
    uint64_t masks[CLI_MAX_DIMS + 64];
    const char *labels[CLI_MAX_DIMS + 64];
} axis_sets;

static int collect_sets(const cli_io *io, const om_mesh *mesh,
                        const cli_options *opt, axis_sets *sets)
{
    om_error e;
    sets->count = 0;
    if (opt->ndims > 0) {
        for (size_t i = 0; i < opt->ndims; i++) {
            if (om_mesh_axes(mesh, opt->dims[i], &sets->masks[i], &e) != OM_OK)
                return cli_lib_error(io, &e);
            sets->labels[i] = opt->dims[i];
        }
        sets->count = opt->ndims;
        return CLI_OK;
    }
    size_t n = om_mesh_ndim(mesh);
    for (size_t i = 0; i < n && i < 64; i++) {
        sets->masks[sets->count] = UINT64_C(1) << i;
        sets->labels[sets->count++] = om_mesh_name(mesh, i);
    }
    return CLI_OK;
}

int cli_cmd_dump(const cli_io *io, int argc, char **argv)
{
    cli_options opt;
    om_mesh *mesh;
    int rc = load(io, "dump", argc, argv, OPT_DIMS | OPT_DIMS_MANY, &opt, &mesh);
    if (rc != CLI_OK)
        return rc;
    axis_sets sets;
    rc = collect_sets(io, mesh, &opt, &sets);
    size_t n = om_mesh_ndim(mesh);
    int64_t largest = 1;
    int64_t sizes[CLI_MAX_DIMS + 64];
    om_error e;
    for (size_t s = 0; rc == CLI_OK && s < sets.count; s++) {
        int64_t count;
        if (om_mesh_group_shape(mesh, sets.masks[s], &count, &sizes[s], &e) != OM_OK)
            rc = cli_lib_error(io, &e);
        else
            largest = sizes[s] > largest ? sizes[s] : largest;
    }
    /* Keys of "groups" sorted like every canonical object. */
    size_t set_order[CLI_MAX_DIMS + 64];
    for (size_t i = 0; i < sets.count; i++) {
        size_t j = i;
        while (j > 0 && strcmp(sets.labels[set_order[j - 1]], sets.labels[i]) > 0) {
            set_order[j] = set_order[j - 1];
            j--;
        }
        set_order[j] = i;
    }
    int64_t *coord = malloc((n ? n : 1) * sizeof *coord);
    size_t *sorted = malloc((n ? n : 1) * sizeof *sorted);
    int32_t *members = malloc((size_t)largest * sizeof *members);
    if (rc == CLI_OK && (!coord || !sorted || !members))
        rc = cli_error(io, CLI_FAILED, "out of memory");
    if (rc == CLI_OK)
        cli_sorted_axes(mesh, sorted);
    int64_t total = om_mesh_size(mesh);
    for (int64_t r = 0; rc == CLI_OK && r < total; r++) {
        if (om_mesh_coordinate(mesh, r, coord, n, &e) != OM_OK) {
            rc = cli_lib_error(io, &e);
            break;
        }
        fputs("{\"coord\":", io->out);
        write_coord(io->out, mesh, sorted, coord);
        fputs(",\"groups\":{", io->out);
        for (size_t k = 0; k < sets.count; k++) {
            size_t s = set_order[k];
            if (om_mesh_group_of(mesh, sets.masks[s], r, members, (size_t)largest,
                                 &e) != OM_OK) {
                rc = cli_lib_error(io, &e);
                break;
            }
            if (k)
                fputc(',', io->out);
            cli_json_string(io->out, sets.labels[s]);
            fputc(':', io->out);
            cli_json_int_array(io->out, members, sizes[s]);
        }
        fprintf(io->out, "},\"rank\":%lld}\n", (long long)r);
    }
    free(coord);
    free(sorted);
    free(members);
    om_mesh_free(mesh);
    return rc;
}

int cli_cmd_locality(const cli_io *io, int argc, char **argv)
{
    cli_options opt;
    om_mesh *mesh;
    int rc = load(io, "locality", argc, argv,
                  OPT_DIMS | OPT_DIMS_MANY | OPT_RANKS_PER_HOST | OPT_HIERARCHY |
                      OPT_REQUIRE | OPT_EXAMPLES,
                  &opt, &mesh);
    if (rc != CLI_OK)
        return rc;
    if (opt.hierarchy || opt.require || opt.examples) {
        /* The per-level report (cmd_hierarchy.c). */
        if (opt.has_ranks_per_host)
            rc = cli_error(io, CLI_USAGE, "--ranks-per-host cannot be combined "
                           "with --hierarchy (give host=K as its first level)");
        else if (!opt.hierarchy)
            rc = cli_error(io, CLI_USAGE, "--require and --examples need "
                           "--hierarchy LEVELS");
        else
            rc = cli_hierarchy_locality(io, &opt, mesh);
        om_mesh_free(mesh);
        return rc;
    }
    axis_sets sets;
    if (!opt.has_ranks_per_host)
        rc = cli_error(io, CLI_USAGE, "'locality' needs --ranks-per-host K or "
                       "--hierarchy LEVELS");
    else
        rc = collect_sets(io, mesh, &opt, &sets);
    int64_t groups[CLI_MAX_DIMS + 64], local[CLI_MAX_DIMS + 64],
        most[CLI_MAX_DIMS + 64];
    om_error e;
    for (size_t s = 0; rc == CLI_OK && s < sets.count; s++)
        if (om_mesh_locality(mesh, sets.masks[s], opt.ranks_per_host, &groups[s],
                             &local[s], &most[s], &e) != OM_OK)
            rc = cli_lib_error(io, &e);
    if (rc == CLI_OK) {
        int64_t size = om_mesh_size(mesh);
        int64_t hosts = (size + opt.ranks_per_host - 1) / opt.ranks_per_host;
        fprintf(io->out, "{\"hosts\":%lld,\"ranks_per_host\":%lld,\"report\":[",
                (long long)hosts, (long long)opt.ranks_per_host);
        for (size_t s = 0; s < sets.count; s++) {
            fputs(s ? ",{\"axes\":" : "{\"axes\":", io->out);
            /* Print the set in mesh order, as the library groups it. */
            size_t n = om_mesh_ndim(mesh);
            fputc('[', io->out);
            bool first = true;
            for (size_t i = 0; i < n && i < 64; i++) {
                if (!((sets.masks[s] >> i) & 1u))
                    continue;
                if (!first)
                    fputc(',', io->out);
                cli_json_string(io->out, om_mesh_name(mesh, i));
                first = false;
            }
            fputc(']', io->out);
            fprintf(io->out,
                    ",\"cross_host_groups\":%lld,\"groups\":%lld,"
                    "\"local_groups\":%lld,\"max_hosts\":%lld}",
                    (long long)(groups[s] - local[s]), (long long)groups[s],
                    (long long)local[s], (long long)most[s]);
        }
        fputs("]}\n", io->out);
    }
    om_mesh_free(mesh);
    return rc;
}
