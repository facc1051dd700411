/* Commands about rank topology: groups, coord, dump and locality. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_internal.h"

/* Groups are streamed in slices of about this many ranks. */
#define CLI_SLICE_RANKS (1 << 16)

static int load(const cli_io *io, const char *command, int argc, char **argv,
                unsigned extra, cli_options *opt, om_mesh **mesh)
{
    int rc = cli_parse(io, command, argc, argv, 2,
                       OPT_CONFIG | OPT_WORLD_SIZE | OPT_ORDER | OPT_MESH |
                           CLI_VIEW_OPTIONS | extra,
                       opt);
    if (rc == CLI_OK)
        rc = cli_load_mesh(io, opt, mesh, NULL);
    return rc;
}

/* Groups per slice: about CLI_SLICE_RANKS ranks, at least one group. */
static int64_t slice_groups(int64_t size)
{
    return size >= CLI_SLICE_RANKS ? 1 : CLI_SLICE_RANKS / size;
}

/* A group over this many ranks or more is written in pieces computed from
 * the modes of the mesh or view instead of whole from the library: a group
 * of 2^31-1 ranks took 8 GiB and half a minute before its first byte. */
#define CLI_BIG_GROUP (1 << 24)

static bool big_groups(int64_t size)
{
    return size >= CLI_BIG_GROUP;
}

int64_t cli_group_buffer(const om_mesh *mesh, int64_t size)
{
    (void)mesh;
    return big_groups(size) ? CLI_SLICE_RANKS : slice_groups(size) * size;
}

/* The (size, stride) modes of a mesh or view split by an axis set: those of
 * the axes inside it, in view order (a group's members are row-major over
 * them), and the others with the instance modes (they number the groups).
 * Modes have size >= 2 and the view at most 2^31-1 ranks: at most 31. */
typedef struct {
    size_t ninside, noutside;
    int64_t inside[2 * 32], outside[2 * 32];
} split_modes;

static bool fail(om_error *e, om_status status, const char *message)
{
    e->status = status;
    snprintf(e->message, sizeof e->message, "%s", message);
    return false;
}

static bool push_modes(int64_t *list, size_t *n, const om_mesh *mesh, bool instances,
                       size_t axis, om_error *e)
{
    size_t count = instances ? om_view_instance_mode_count(mesh)
                             : om_view_mode_count(mesh, axis);
    if (*n + count > 32) /* cannot be: 2^32 > any number of ranks */
        return fail(e, OM_ERR_OUT_OF_RANGE, "more than 32 modes");
    if (count == 0)
        return true;
    om_status st = instances
        ? om_view_instance_modes(mesh, list + 2 * *n, 2 * count, NULL, e)
        : om_view_modes(mesh, axis, list + 2 * *n, 2 * count, NULL, e);
    *n += count;
    return st == OM_OK;
}

static bool split_by_set(const om_mesh *mesh, const cli_axis_set *axes,
                         split_modes *sm, om_error *e)
{
    sm->ninside = sm->noutside = 0;
    if (!push_modes(sm->outside, &sm->noutside, mesh, true, 0, e))
        return false;
    for (size_t i = 0; i < om_mesh_ndim(mesh); i++) {
        bool in = false;
        for (size_t k = 0; k < axes->count && !in; k++)
            in = strcmp(axes->names[k], om_mesh_name(mesh, i)) == 0;
        if (!push_modes(in ? sm->inside : sm->outside, in ? &sm->ninside : &sm->noutside,
                        mesh, false, i, e))
            return false;
    }
    return true;
}

static int compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Every group's first member, ascending (the library's group order):
 * the offset plus each combination of the outside modes. */
static int64_t *group_bases(const om_mesh *mesh, const split_modes *sm, int64_t count)
{
    int64_t *bases = malloc((size_t)(count ? count : 1) * sizeof *bases);
    if (!bases)
        return NULL;
    int64_t coord[32] = {0}, base = om_view_offset(mesh);
    for (int64_t g = 0; g < count; g++) {
        bases[g] = base;
        for (size_t k = sm->noutside; k-- > 0;) { /* odometer, last fastest */
            base += sm->outside[2 * k + 1];
            if (++coord[k] < sm->outside[2 * k])
                break;
            base -= sm->outside[2 * k] * sm->outside[2 * k + 1];
            coord[k] = 0;
        }
    }
    qsort(bases, (size_t)count, sizeof *bases, compare_int64);
    return bases;
}

/* The members of the group starting at `base`, row-major over the inside
 * modes, `piece` at a time through `buf`, comma-separated. */
static void write_big_group(omu_writer *w, const split_modes *sm, int64_t base,
                            int64_t piece, int32_t *buf)
{
    int64_t coord[32] = {0}, rank = base;
    bool first = true, done = false;
    while (!done && omu_writer_error(w) == 0) {
        size_t n = 0;
        while ((int64_t)n < piece && !done) {
            buf[n++] = (int32_t)rank;
            size_t k = sm->ninside;
            while (k-- > 0) { /* odometer, last mode fastest */
                rank += sm->inside[2 * k + 1];
                if (++coord[k] < sm->inside[2 * k])
                    break;
                rank -= sm->inside[2 * k] * sm->inside[2 * k + 1];
                coord[k] = 0;
            }
            done = k == SIZE_MAX;
        }
        omu_write_int_list(w, buf, n, first);
        first = false;
    }
}

bool cli_stream_groups_in_pieces(omu_writer *w, const om_mesh *mesh,
                                 const cli_axis_set *axes, int64_t piece,
                                 int32_t *buf, om_error *e)
{
    int64_t count, size;
    split_modes sm;
    if (om_mesh_group_shape_named(mesh, axes->names, axes->count, &count, &size,
                                  e) != OM_OK ||
        !split_by_set(mesh, axes, &sm, e))
        return false;
    int64_t *bases = group_bases(mesh, &sm, count);
    if (!bases)
        return fail(e, OM_ERR_NO_MEMORY, "out of memory for the groups' first ranks");
    for (int64_t g = 0; g < count && omu_writer_error(w) == 0; g++) {
        omu_write_str(w, g ? ",[" : "[");
        write_big_group(w, &sm, bases[g], piece, buf);
        omu_write_char(w, ']');
    }
    free(bases);
    return true;
}

bool cli_stream_groups(omu_writer *w, const om_mesh *mesh,
                       const cli_axis_set *axes, int32_t *buf, om_error *e)
{
    int64_t count, size;
    if (om_mesh_group_shape_named(mesh, axes->names, axes->count, &count, &size,
                                  e) != OM_OK)
        return false;
    if (big_groups(size))
        return cli_stream_groups_in_pieces(w, mesh, axes, CLI_SLICE_RANKS, buf, e);
    int64_t per_slice = slice_groups(size);
    for (int64_t g = 0; g < count && omu_writer_error(w) == 0; g += per_slice) {
        int64_t n = count - g < per_slice ? count - g : per_slice;
        if (om_mesh_groups_named(mesh, axes->names, axes->count, g, n, buf,
                                 (size_t)(n * size), NULL, e) != OM_OK)
            return false;
        for (int64_t k = 0; k < n; k++) {
            if (g + k)
                omu_write_char(w, ',');
            omu_write_int_array(w, buf + k * size, (size_t)size);
        }
    }
    return true;
}

/* Writes all groups over `axes` as a JSON array of arrays. */
static int write_groups(const cli_io *io, const om_mesh *mesh,
                        const cli_axis_set *axes)
{
    om_error e;
    int64_t count, size;
    if (om_mesh_group_shape_named(mesh, axes->names, axes->count, &count, &size,
                                  &e) != OM_OK)
        return cli_lib_error(io, &e);
    int32_t *buf = malloc((size_t)cli_group_buffer(mesh, size) * sizeof *buf);
    if (!buf)
        return cli_error(io, CLI_FAILED, "out of memory for groups of %lld ranks",
                         (long long)size);
    char storage[OMU_WRITER_BLOCK];
    omu_writer w;
    cli_writer_start(io, &w, storage, sizeof storage);
    omu_write_char(&w, '[');
    int rc = CLI_OK;
    if (!cli_stream_groups(&w, mesh, axes, buf, &e))
        rc = cli_lib_error(io, &e);
    omu_write_str(&w, "]\n");
    free(buf);
    return cli_writer_finish(io, &w, rc);
}

int cli_cmd_groups(const cli_io *io, int argc, char **argv)
{
    cli_options opt;
    om_mesh *mesh;
    int rc = load(io, "groups", argc, argv, OPT_DIMS, &opt, &mesh);
    if (rc != CLI_OK)
        return rc;
    cli_axis_set axes;
    if (opt.ndims == 0)
        rc = cli_error(io, CLI_USAGE, "'groups' needs --dims AXES");
    else if ((rc = cli_axis_set_parse(io, "dims", opt.dims[0], &axes)) == CLI_OK) {
        rc = write_groups(io, mesh, &axes);
        cli_axis_set_free(&axes);
    }
    om_mesh_free(mesh);
    return rc;
}

/* {"cp":0,"dp":1,"tp":1}: keys sorted, as canonical JSON. */
static void write_coord(omu_writer *w, const om_mesh *mesh, const size_t *sorted,
                        const int64_t *coord)
{
    size_t n = om_mesh_ndim(mesh);
    omu_write_char(w, '{');
    for (size_t k = 0; k < n; k++) {
        if (k)
            omu_write_char(w, ',');
        omu_write_json_string(w, om_mesh_name(mesh, sorted[k]));
        omu_write_char(w, ':');
        omu_write_int(w, coord[sorted[k]]);
    }
    omu_write_char(w, '}');
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
    else if (!coord || !sorted || cli_sorted_axes(mesh, sorted) != 0)
        rc = cli_error(io, CLI_FAILED, "out of memory");
    else if (om_mesh_coordinate_of(mesh, opt.rank, coord, n, NULL, &e) != OM_OK)
        rc = cli_lib_error(io, &e);
    else {
        char storage[OMU_WRITER_BLOCK];
        omu_writer w;
        cli_writer_start(io, &w, storage, sizeof storage);
        write_coord(&w, mesh, sorted, coord);
        omu_write_char(&w, '\n');
        rc = cli_writer_finish(io, &w, rc);
    }
    free(coord);
    free(sorted);
    om_mesh_free(mesh);
    return rc;
}

/* The axis sets of dump and locality: each --dims, or each single axis
 * (every one of them: there is no limit on the number of axes). */
typedef struct {
    size_t count;
    cli_axis_set *items;
    const char **labels; /* items[s].label */
} axis_sets;

static void free_sets(axis_sets *sets)
{
    for (size_t s = 0; s < sets->count; s++)
        cli_axis_set_free(&sets->items[s]);
    free(sets->items);
    free(sets->labels);
    sets->items = NULL;
    sets->labels = NULL;
    sets->count = 0;
}

static int collect_sets(const cli_io *io, const om_mesh *mesh,
                        const cli_options *opt, axis_sets *sets)
{
    size_t want = opt->ndims > 0 ? opt->ndims : om_mesh_ndim(mesh);
    sets->count = 0;
    sets->items = calloc(want ? want : 1, sizeof *sets->items);
    sets->labels = calloc(want ? want : 1, sizeof *sets->labels);
    if (!sets->items || !sets->labels) {
        free_sets(sets);
        return cli_error(io, CLI_FAILED, "out of memory");
    }
    om_error e;
    int64_t count, size;
    for (size_t i = 0; i < want; i++) {
        cli_axis_set *set = &sets->items[i];
        if (opt->ndims == 0) {
            cli_axis_set_single(om_mesh_name(mesh, i), set);
        } else {
            int rc = cli_axis_set_parse(io, "dims", opt->dims[i], set);
            if (rc != CLI_OK) {
                free_sets(sets);
                return rc;
            }
        }
        sets->labels[i] = set->label;
        sets->count++;
        /* Every name is checked before any output. */
        if (om_mesh_group_shape_named(mesh, set->names, set->count, &count, &size,
                                      &e) != OM_OK) {
            free_sets(sets);
            return cli_lib_error(io, &e);
        }
    }
    return CLI_OK;
}

/* The escaped object keys of dump lines ("\"cp\":"), prepared once: the
 * axes in name order, then the axis sets in label order. Key k is
 * text[end[k-1] .. end[k]) with end[-1] = 0. */
typedef struct {
    char *text;
    size_t *end;
} dump_keys;

static int prepare_keys(const om_mesh *mesh, const size_t *sorted,
                        const axis_sets *sets, const size_t *set_order,
                        dump_keys *keys)
{
    size_t n = om_mesh_ndim(mesh), cap = 1;
    for (size_t i = 0; i < n; i++)
        cap += 6 * strlen(om_mesh_name(mesh, i)) + 3;
    for (size_t s = 0; s < sets->count; s++)
        cap += 6 * strlen(sets->labels[s]) + 3;
    keys->text = malloc(cap);
    keys->end = malloc((n + sets->count + 1) * sizeof *keys->end);
    if (!keys->text || !keys->end)
        return -1;
    omu_writer w;
    omu_writer_init(&w, NULL, keys->text, cap);
    for (size_t k = 0; k < n + sets->count; k++) {
        omu_write_json_string(&w, k < n ? om_mesh_name(mesh, sorted[k])
                                        : sets->labels[set_order[k - n]]);
        omu_write_char(&w, ':');
        keys->end[k] = w.len;
    }
    return omu_writer_error(&w) == 0 ? 0 : -1;
}

static void write_key(omu_writer *w, const dump_keys *keys, size_t k)
{
    size_t start = k ? keys->end[k - 1] : 0;
    omu_write(w, keys->text + start, keys->end[k] - start);
}

/* {"groups":{"cp":[[0,2],[1,3]],...}}: every group of every set, once. */
static bool write_group_lists(omu_writer *w, const om_mesh *mesh,
                              const axis_sets *sets, const size_t *set_order,
                              const dump_keys *keys, int32_t *buf, om_error *e)
{
    size_t n = om_mesh_ndim(mesh);
    omu_write_str(w, "{\"groups\":{");
    for (size_t k = 0; k < sets->count; k++) {
        int64_t count, size;
        const cli_axis_set *set = &sets->items[set_order[k]];
        if (om_mesh_group_shape_named(mesh, set->names, set->count, &count, &size,
                                      e) != OM_OK)
            return false;
        if (k)
            omu_write_char(w, ',');
        write_key(w, keys, n + k);
        omu_write_char(w, '[');
        if (!cli_stream_groups(w, mesh, set, buf, e))
            return false;
        omu_write_char(w, ']');
    }
    omu_write_str(w, "}}\n");
    return true;
}

/* Group index and position of a rank over one set, from its coordinates:
 * the group is numbered row-major over the axes outside the set, the
 * position row-major over those inside it (as om_mesh_groups orders
 * them). Only axes longer than 1 count, so the cost does not grow with
 * axes of size 1. */
static void place(const size_t *long_axes, const int64_t *long_sizes,
                  size_t nlong, const unsigned char *inside, const int64_t *coord,
                  int64_t *group, int64_t *position)
{
    int64_t g = 0, p = 0;
    for (size_t k = 0; k < nlong; k++) {
        size_t i = long_axes[k];
        int64_t len = long_sizes[k];
        if (inside[k])
            p = p * len + coord[i];
        else
            g = g * len + coord[i];
    }
    *group = g;
    *position = p;
}

/* {"coord":{...},"group":{"cp":1,...},"position":{"cp":0,...},"rank":r};
 * false on a library error (in `e`). */
static bool write_rank_line(omu_writer *w, const om_mesh *mesh,
                            const axis_sets *sets, const size_t *set_order,
                            const dump_keys *keys, const size_t *sorted,
                            const size_t *long_axes, const int64_t *long_sizes,
                            size_t nlong, const unsigned char *inside,
                            const int64_t *coord, int64_t rank,
                            int64_t *positions, om_error *e)
{
    size_t n = om_mesh_ndim(mesh);
    omu_write_str(w, "{\"coord\":{");
    for (size_t k = 0; k < n; k++) {
        if (k)
            omu_write_char(w, ',');
        write_key(w, keys, k);
        omu_write_int(w, coord[sorted[k]]);
    }
    omu_write_str(w, "},\"group\":{");
    for (size_t k = 0; k < sets->count; k++) {
        int64_t group;
        place(long_axes, long_sizes, nlong, inside + set_order[k] * nlong, coord,
              &group, &positions[k]);
        /* A view's groups are numbered by the library (instances and
         * interleaved layouts do not follow the coordinates); the
         * position inside a group still does. */
        if (!om_view_is_plain(mesh) &&
            om_mesh_group_index_named(mesh, sets->items[set_order[k]].names,
                                      sets->items[set_order[k]].count, rank,
                                      &group, e) != OM_OK)
            return false;
        if (k)
            omu_write_char(w, ',');
        write_key(w, keys, n + k);
        omu_write_int(w, group);
    }
    omu_write_str(w, "},\"position\":{");
    for (size_t k = 0; k < sets->count; k++) {
        if (k)
            omu_write_char(w, ',');
        write_key(w, keys, n + k);
        omu_write_int(w, positions[k]);
    }
    omu_write_str(w, "},\"rank\":");
    omu_write_int(w, rank);
    omu_write_str(w, "}\n");
    return true;
}

static int compare_labels(const void *a, const void *b, const axis_sets *sets)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(sets->labels[x], sets->labels[y]);
    return c != 0 ? c : (x > y) - (x < y);
}

/* Which long axes (mesh axes of size > 1, in mesh order) each set holds:
 * inside[s * nlong + k], from the library's canonical form of the set. */
static int mark_inside(const om_mesh *mesh, const axis_sets *sets,
                       const size_t *long_axes, size_t nlong,
                       unsigned char *inside, om_error *e)
{
    size_t n = om_mesh_ndim(mesh);
    int64_t *indices = malloc((n ? n : 1) * sizeof *indices);
    if (!indices)
        return -1;
    int rc = 0;
    for (size_t s = 0; rc == 0 && s < sets->count; s++) {
        const cli_axis_set *set = &sets->items[s];
        size_t got = 0;
        if (om_mesh_axis_indices(mesh, set->names, set->count, indices, n, &got, e) !=
            OM_OK) {
            rc = 1;
            break;
        }
        /* Both lists are in mesh order: one merge pass. */
        size_t j = 0;
        for (size_t k = 0; k < nlong; k++) {
            while (j < got && (size_t)indices[j] < long_axes[k])
                j++;
            inside[s * nlong + k] = j < got && (size_t)indices[j] == long_axes[k];
        }
    }
    free(indices);
    return rc;
}

/* One line with every group of every set, then one line per rank with its
 * coordinates and, per set, its group index and its position in it: the
 * output grows linearly with the mesh. Everything that can fail but a
 * write is done before the first byte goes out. */
int cli_cmd_dump(const cli_io *io, int argc, char **argv)
{
    cli_options opt;
    om_mesh *mesh;
    int rc = load(io, "dump", argc, argv, OPT_DIMS | OPT_DIMS_MANY, &opt, &mesh);
    if (rc != CLI_OK)
        return rc;
    axis_sets sets = {0, NULL, NULL};
    rc = collect_sets(io, mesh, &opt, &sets);
    /* Labels are the keys of every line: a repeated one would repeat a key. */
    for (size_t s = 0; rc == CLI_OK && s < sets.count; s++)
        for (size_t t = 0; rc == CLI_OK && t < s; t++)
            if (strcmp(sets.labels[s], sets.labels[t]) == 0) {
                cli_quoted q;
                rc = cli_error(io, CLI_USAGE,
                               "--dims %s given twice (dump's keys are the "
                               "--dims values)",
                               cli_quote(&q, sets.labels[s]));
            }
    size_t n = om_mesh_ndim(mesh);
    int64_t buf_len = 1;
    om_error e;
    for (size_t s = 0; rc == CLI_OK && s < sets.count; s++) {
        int64_t count, size;
        const cli_axis_set *set = &sets.items[s];
        if (om_mesh_group_shape_named(mesh, set->names, set->count, &count, &size,
                                      &e) != OM_OK)
            rc = cli_lib_error(io, &e);
        else if (cli_group_buffer(mesh, size) > buf_len)
            buf_len = cli_group_buffer(mesh, size);
    }
    size_t nsets = sets.count ? sets.count : 1;
    size_t *set_order = malloc(nsets * sizeof *set_order);
    int64_t *positions = malloc(nsets * sizeof *positions);
    int64_t *coord = malloc((n ? n : 1) * sizeof *coord);
    size_t *sorted = malloc((n ? n : 1) * sizeof *sorted);
    size_t *long_axes = malloc((n ? n : 1) * sizeof *long_axes);
    int64_t *long_sizes = malloc((n ? n : 1) * sizeof *long_sizes);
    int32_t *buf = malloc((size_t)buf_len * sizeof *buf);
    unsigned char *inside = NULL;
    dump_keys keys = {NULL, NULL};
    size_t nlong = 0;
    for (size_t i = 0; long_axes && long_sizes && i < n; i++)
        if (om_mesh_dim_size(mesh, i) > 1) {
            long_sizes[nlong] = om_mesh_dim_size(mesh, i);
            long_axes[nlong++] = i;
        }
    /* Keys of "group" and "position" sorted like every canonical object. */
    for (size_t i = 0; set_order && i < sets.count; i++) {
        size_t j = i;
        while (j > 0 && compare_labels(&set_order[j - 1], &i, &sets) > 0) {
            set_order[j] = set_order[j - 1];
            j--;
        }
        set_order[j] = i;
    }
    inside = malloc(nsets * (nlong ? nlong : 1));
    if (rc == CLI_OK && (!set_order || !positions || !coord || !sorted ||
                         !long_axes || !long_sizes || !buf || !inside ||
                         cli_sorted_axes(mesh, sorted) != 0 ||
                         prepare_keys(mesh, sorted, &sets, set_order, &keys) != 0))
        rc = cli_error(io, CLI_FAILED, "out of memory");
    if (rc == CLI_OK) {
        int marked = mark_inside(mesh, &sets, long_axes, nlong, inside, &e);
        if (marked < 0)
            rc = cli_error(io, CLI_FAILED, "out of memory");
        else if (marked > 0)
            rc = cli_lib_error(io, &e);
    }
    if (rc == CLI_OK) {
        char storage[OMU_WRITER_BLOCK];
        omu_writer w;
        cli_writer_start(io, &w, storage, sizeof storage);
        if (!write_group_lists(&w, mesh, &sets, set_order, &keys, buf, &e))
            rc = cli_lib_error(io, &e);
        /* A view may hold only some ranks below its extent. */
        int64_t total = om_view_extent(mesh);
        for (int64_t r = 0; rc == CLI_OK && r < total && omu_writer_error(&w) == 0;
             r++) {
            if (!om_view_is_plain(mesh) && !om_view_holds(mesh, r))
                continue;
            if (om_mesh_coordinate_of(mesh, r, coord, n, NULL, &e) != OM_OK) {
                rc = cli_lib_error(io, &e);
                break;
            }
            if (!write_rank_line(&w, mesh, &sets, set_order, &keys, sorted,
                                 long_axes, long_sizes, nlong, inside, coord, r,
                                 positions, &e))
                rc = cli_lib_error(io, &e);
        }
        rc = cli_writer_finish(io, &w, rc);
    }
    free(keys.text);
    free(keys.end);
    free(set_order);
    free(positions);
    free(inside);
    free(coord);
    free(sorted);
    free(long_axes);
    free(long_sizes);
    free(buf);
    free_sets(&sets);
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
        if (!opt.hierarchy)
            rc = cli_error(io, CLI_USAGE, "--require and --examples need "
                           "--hierarchy LEVELS");
        else if (opt.has_ranks_per_host)
            rc = cli_error(io, CLI_USAGE, "--ranks-per-host cannot be combined "
                           "with --hierarchy (give host=K as its first level)");
        else
            rc = cli_hierarchy_locality(io, &opt, mesh);
        om_mesh_free(mesh);
        return rc;
    }
    axis_sets sets = {0, NULL, NULL};
    if (!opt.has_ranks_per_host)
        rc = cli_error(io, CLI_USAGE, "'locality' needs --ranks-per-host K or "
                       "--hierarchy LEVELS");
    else
        rc = collect_sets(io, mesh, &opt, &sets);
    size_t nsets = sets.count ? sets.count : 1, n = om_mesh_ndim(mesh);
    int64_t *report = malloc(3 * nsets * sizeof *report);
    int64_t *indices = malloc((n ? n : 1) * sizeof *indices);
    if (rc == CLI_OK && (!report || !indices))
        rc = cli_error(io, CLI_FAILED, "out of memory");
    om_error e;
    for (size_t s = 0; rc == CLI_OK && s < sets.count; s++) {
        const cli_axis_set *set = &sets.items[s];
        if (om_mesh_locality_named(mesh, set->names, set->count, opt.ranks_per_host,
                                   &report[3 * s], &report[3 * s + 1],
                                   &report[3 * s + 2], &e) != OM_OK)
            rc = cli_lib_error(io, &e);
    }
    if (rc == CLI_OK) {
        int64_t size = om_view_extent(mesh); /* = the size of a plain mesh */
        int64_t hosts = (size + opt.ranks_per_host - 1) / opt.ranks_per_host;
        fprintf(io->out, "{\"hosts\":%lld,\"ranks_per_host\":%lld,\"report\":[",
                (long long)hosts, (long long)opt.ranks_per_host);
        for (size_t s = 0; s < sets.count; s++) {
            const cli_axis_set *set = &sets.items[s];
            int64_t groups = report[3 * s], local = report[3 * s + 1];
            fputs(s ? ",{\"axes\":" : "{\"axes\":", io->out);
            /* The set in mesh order, as the library groups it. */
            size_t got = 0;
            if (om_mesh_axis_indices(mesh, set->names, set->count, indices, n, &got,
                                     &e) != OM_OK)
                got = 0; /* checked above: cannot fail here */
            fputc('[', io->out);
            for (size_t k = 0; k < got; k++) {
                if (k)
                    fputc(',', io->out);
                cli_json_string(io->out, om_mesh_name(mesh, (size_t)indices[k]));
            }
            fputc(']', io->out);
            fprintf(io->out,
                    ",\"cross_host_groups\":%lld,\"groups\":%lld,"
                    "\"local_groups\":%lld,\"max_hosts\":%lld}",
                    (long long)(groups - local), (long long)groups,
                    (long long)local, (long long)report[3 * s + 2]);
        }
        fputs("]}\n", io->out);
    }
    free(report);
    free(indices);
    free_sets(&sets);
    om_mesh_free(mesh);
    return rc;
}
