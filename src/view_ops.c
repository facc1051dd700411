/* Operations that make views from views (VIEWS.md 1): flatten, unflatten
 * and slicing. Each gathers the new axes' modes and instance modes and
 * hands them to omi_view_create(), which normalises and validates. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The parts of a view under construction. */
typedef struct {
    size_t naxes;
    const char **names;
    size_t *lens;
    size_t *counts;
    omi_mode *modes;
    size_t nmodes;
    omi_mode *inst;
    size_t ninst;
} parts;

/* Room for `naxes` axes and the modes of a view made from `v`: its axis
 * modes plus `extra` (an unflatten's split pieces) as axis modes, and as
 * instance modes its axis modes (axes left out) plus its own instance
 * modes (parts_finish). */
static om_status parts_init(parts *p, size_t naxes, const om_mesh *v,
                            size_t extra, om_error *err)
{
    size_t nmodes = v->mode_first[v->ndim] + extra;
    memset(p, 0, sizeof *p);
    p->names = omi_malloc((naxes + 1) * sizeof *p->names);
    p->lens = omi_malloc((naxes + 1) * sizeof *p->lens);
    p->counts = omi_malloc((naxes + 1) * sizeof *p->counts);
    p->modes = omi_malloc((nmodes + 1) * sizeof *p->modes);
    p->inst = omi_malloc((nmodes + v->ninst + 1) * sizeof *p->inst);
    if (!p->names || !p->lens || !p->counts || !p->modes || !p->inst)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory making a view");
    return OM_OK;
}

static void parts_free(parts *p)
{
    omi_free((void *)p->names);
    omi_free(p->lens);
    omi_free(p->counts);
    omi_free(p->modes);
    omi_free(p->inst);
}

static void add_axis(parts *p, const char *name, size_t len)
{
    p->names[p->naxes] = name;
    p->lens[p->naxes] = len;
    p->counts[p->naxes++] = 0;
}

static void add_axis_modes(parts *p, const om_mesh *v, size_t axis)
{
    for (size_t j = v->mode_first[axis]; j < v->mode_first[axis + 1]; j++)
        p->modes[p->nmodes++] = v->modes[j];
    p->counts[p->naxes - 1] += v->mode_first[axis + 1] - v->mode_first[axis];
}

static void add_instances_of_axis(parts *p, const om_mesh *v, size_t axis)
{
    for (size_t j = v->mode_first[axis]; j < v->mode_first[axis + 1]; j++)
        p->inst[p->ninst++] = v->modes[j];
}

static om_status parts_finish(parts *p, const om_mesh *v, om_mesh **out,
                              om_error *err)
{
    for (size_t j = 0; j < v->ninst; j++)
        p->inst[p->ninst++] = v->inst[j];
    return omi_view_create(p->names, p->lens, p->naxes, p->counts, p->modes,
                           p->inst, p->ninst, v->offset, out, err);
}

/* Writes "dp, cp, tp" (shortened) for messages. */
static void view_names(const om_mesh *v, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < v->ndim && o + 8 < size; i++) {
        int n = snprintf(buf + o, size - o, "%s%.40s", i ? ", " : "", v->names[i]);
        if (n < 0)
            break;
        o += (size_t)n;
    }
    if (o >= size)
        memcpy(buf + size - 4, "...", 4);
}

/* Resolves `n` axis names to indices, marking each in `used` (v->ndim
 * flags, zeroed by the caller, so 10^5 names cost no O(n^2); NULL for
 * one name, which cannot repeat): UNKNOWN_AXIS for an absent one, INVALID_ARGUMENT for a repeat. */
static om_status resolve(const om_mesh *v, const char *const *axes, size_t n,
                         size_t *index, bool *used, om_error *err)
{
    for (size_t k = 0; k < n; k++) {
        char quoted[96], names[160];
        if (!axes[k])
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "axis name %zu is NULL", k);
        int found = omi_mesh_find(v, axes[k], strlen(axes[k]));
        bool repeat = found >= 0 && used && used[found];
        if (found < 0 || repeat)
            omi_squote(quoted, sizeof quoted, axes[k], strlen(axes[k]));
        if (found < 0) {
            view_names(v, names, sizeof names);
            return omi_fail(err, OM_ERR_UNKNOWN_AXIS,
                            "axis %s is not in the view (%s)", quoted, names);
        }
        if (repeat)
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "axis %s is named twice", quoted);
        if (used)
            used[found] = true;
        index[k] = (size_t)found;
    }
    return OM_OK;
}

/* The `used` flags of resolve(): one per axis of `v`, zeroed (NULL when
 * out of memory). */
static bool *used_flags(const om_mesh *v)
{
    bool *used = omi_malloc((v->ndim + 1) * sizeof *used);
    if (used)
        memset(used, 0, (v->ndim + 1) * sizeof *used);
    return used;
}

static om_status check_args(const om_mesh *v, const char *const *axes,
                            size_t n, om_mesh **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!v || (!axes && n > 0))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        v ? "axis list" : "view");
    if (n == 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "no axes given");
    return OM_OK;
}

/* True when the `n` chosen axes may be flattened in the order named: the
 * axes with modes in view order; axes without modes (size 1) may stand
 * anywhere. That is torch's rule for mesh[axes]._flatten(): it checks that
 * the strides of the mesh's own dimensions do not increase, and those
 * strides fall in view order for every mesh, whatever ranks its tensor
 * holds (size-1 dimensions coalesce away). Falling rank strides are not
 * enough: DeviceMesh("cpu", arange(8).reshape(2, 4).T, ("tp", "dp")) is
 * the view tp=(4:1), dp=(2:4), and torch refuses ("dp", "tp") on it. Else
 * OM_ERR_AXIS_ORDER names the first two axes with modes out of view order. */
static om_status check_flatten_order(const om_mesh *v, const char *const *axes,
                                     const size_t *index, size_t n,
                                     om_error *err)
{
    size_t late = 0, prev = n; /* prev: the last axis with modes so far */
    for (size_t k = 0; k < n && !late; k++) {
        if (v->mode_first[index[k] + 1] == v->mode_first[index[k]])
            continue;
        if (prev < n && index[k] < index[prev])
            late = k;
        else
            prev = k;
    }
    if (!late)
        return OM_OK;
    char a[96], b[96], names[160];
    omi_squote(a, sizeof a, axes[prev], strlen(axes[prev]));
    omi_squote(b, sizeof b, axes[late], strlen(axes[late]));
    view_names(v, names, sizeof names);
    return omi_fail(err, OM_ERR_AXIS_ORDER,
                    "axes %s and %s are not in view order (%s)", a, b, names);
}

/* The default name of a flattened axis: the names joined by '_' (NULL when
 * out of memory; the caller frees it). */
static char *joined_names(const om_mesh *v, const size_t *index, size_t n)
{
    size_t len = 0;
    for (size_t k = 0; k < n; k++)
        len += v->name_lens[index[k]] + 1;
    char *joined = omi_malloc(len);
    for (size_t k = 0, o = 0; joined && k < n; k++) {
        memcpy(joined + o, v->names[index[k]], v->name_lens[index[k]]);
        o += v->name_lens[index[k]];
        joined[o++] = k + 1 < n ? '_' : '\0';
    }
    return joined;
}

om_status om_view_flatten(const om_mesh *view, const char *const *axes,
                          size_t naxes, const char *name, om_mesh **out,
                          om_error *err)
{
    om_status st = check_args(view, axes, naxes, out, err);
    if (st != OM_OK)
        return st;
    size_t index_small[16];
    size_t *index = naxes <= 16 ? index_small
                                : omi_malloc(naxes * sizeof *index);
    bool *used = used_flags(view);
    char *joined = NULL;
    parts p;
    memset(&p, 0, sizeof p);
    if (!index || !used)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory flattening");
    if (st == OM_OK)
        st = resolve(view, axes, naxes, index, used, err);
    if (st == OM_OK)
        st = check_flatten_order(view, axes, index, naxes, err);
    if (st == OM_OK && (!name || !*name)) {
        name = joined = joined_names(view, index, naxes);
        if (!joined)
            st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory flattening");
    }
    if (st == OM_OK) {
        int clash = omi_mesh_find(view, name, strlen(name));
        if (naxes == 1 && clash == (int)index[0]) {
            /* One axis flattened into its own name is that axis's sub-view
             * family, as torch's mesh["x"]._flatten() returns mesh["x"]. */
            st = om_view_slice(view, axes, 1, out, err);
            goto done;
        }
        if (clash >= 0) {
            char quoted[96], names[160];
            omi_squote(quoted, sizeof quoted, name, strlen(name));
            view_names(view, names, sizeof names);
            st = omi_fail(err, OM_ERR_DUPLICATE_NAME,
                          "%s already exists in the view (%s); choose another "
                          "name for the flattened axis", quoted, names);
        }
    }
    if (st == OM_OK)
        st = parts_init(&p, 1, view, 0, err);
    if (st == OM_OK) {
        add_axis(&p, name, strlen(name));
        for (size_t k = 0; k < naxes; k++)
            add_axis_modes(&p, view, index[k]);
        for (size_t i = 0; i < view->ndim; i++)
            if (!used[i])
                add_instances_of_axis(&p, view, i);
        st = parts_finish(&p, view, out, err);
    }
done:
    parts_free(&p);
    omi_free(joined);
    omi_free(used);
    if (index != index_small)
        omi_free(index);
    return st;
}

om_status om_view_slice(const om_mesh *view, const char *const *axes,
                        size_t naxes, om_mesh **out, om_error *err)
{
    om_status st = check_args(view, axes, naxes, out, err);
    if (st != OM_OK)
        return st;
    if (naxes == 1 && axes[0] &&
        omi_mesh_find(view, axes[0], strlen(axes[0])) < 0)
        /* DOMAIN.md: one absent name gives the empty mesh, not an error. */
        return omi_mesh_create(NULL, NULL, NULL, 0, out, err);
    size_t *index = omi_malloc(naxes * sizeof *index);
    bool *used = used_flags(view);
    parts p;
    memset(&p, 0, sizeof p);
    if (!index || !used)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory slicing");
    if (st == OM_OK)
        st = resolve(view, axes, naxes, index, used, err);
    if (st == OM_OK)
        st = parts_init(&p, naxes, view, 0, err);
    if (st == OM_OK) {
        for (size_t k = 0; k < naxes; k++) {
            add_axis(&p, view->names[index[k]], view->name_lens[index[k]]);
            add_axis_modes(&p, view, index[k]);
        }
        for (size_t i = 0; i < view->ndim; i++)
            if (!used[i])
                add_instances_of_axis(&p, view, i);
        st = parts_finish(&p, view, out, err);
    }
    parts_free(&p);
    omi_free(index);
    omi_free(used);
    return st;
}

/* Writes "(3, 2)" for messages. */
static void format_sizes(char *buf, size_t size, const int64_t *v, size_t n,
                         const char *sep)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i <= n && o + 1 < size; i++) {
        int w = i == n ? snprintf(buf + o, size - o, ")")
                       : snprintf(buf + o, size - o, "%s%lld", i ? sep : "(",
                                  (long long)v[i]);
        if (w < 0)
            break;
        o += (size_t)w;
    }
    if (n == 0)
        snprintf(buf, size, "()");
}

/* Splits the modes of one axis (`m`, n of them, slowest first) among new
 * axes of `sizes`, fastest first: a mode is taken whole when it divides
 * what the new axis still needs, or cut when what is needed divides it.
 * `counts` receives the modes per new axis, `split` the modes (new axes in
 * order, each slowest first). False when a cut does not divide a mode. */
static bool split_modes(const omi_mode *m, size_t n, const int64_t *sizes,
                        size_t nsizes, size_t *counts, omi_mode *split)
{
    omi_mode rest[OMI_MAX_DIGITS];
    memcpy(rest, m, n * sizeof *m);
    size_t left = n;
    omi_mode tmp[2 * OMI_MAX_DIGITS + 2];
    /* Fill new axes from the last (fastest); collect modes fastest first. */
    size_t write = 0;
    for (size_t a = nsizes; a-- > 0;) {
        int64_t need = sizes[a];
        size_t first = write;
        while (need > 1) {
            if (left == 0)
                return false;
            omi_mode *md = &rest[left - 1];
            if (need % md->size == 0) {
                tmp[write++] = *md;
                need /= md->size;
                left--;
            } else if (md->size % need == 0) {
                tmp[write++] = (omi_mode){need, md->stride};
                md->size /= need;
                md->stride *= need;
                need = 1;
            } else {
                return false;
            }
        }
        counts[a] = write - first;
        /* Reverse this axis's modes to slowest first. */
        for (size_t i = first, j = write; i + 1 < j; i++, j--) {
            omi_mode t = tmp[i];
            tmp[i] = tmp[j - 1];
            tmp[j - 1] = t;
        }
    }
    /* tmp holds the axes last to first; lay them out first to last. */
    size_t o = 0;
    for (size_t a = 0; a < nsizes; a++) {
        size_t before = 0;
        for (size_t b = a + 1; b < nsizes; b++)
            before += counts[b];
        for (size_t j = 0; j < counts[a]; j++)
            split[o++] = tmp[before + j];
    }
    return true;
}

om_status om_view_unflatten(const om_mesh *view, const char *axis,
                            const int64_t *sizes, size_t nsizes,
                            const char *const *names, size_t nnames,
                            om_mesh **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!view || !axis || !sizes || !names)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        !view ? "view" : !axis ? "axis name"
                        : !sizes ? "sizes" : "names");
    if (nsizes == 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "no sizes given");
    if (nnames != nsizes)
        return omi_fail(err, OM_ERR_LENGTH_MISMATCH,
                        "%zu sizes but %zu names", nsizes, nnames);
    size_t index;
    om_status st = resolve(view, &axis, 1, &index, NULL, err);
    if (st != OM_OK)
        return st;
    char quoted[96], shown[96];
    omi_squote(quoted, sizeof quoted, axis, strlen(axis));
    int64_t product = 1; /* saturates at 2^31: past every axis size */
    for (size_t i = 0; i < nsizes; i++) {
        if (sizes[i] < 1) /* every size is checked, also after saturation */
            return omi_fail(err, OM_ERR_BAD_SIZE,
                            "unflatten size %lld of %s must be >= 1",
                            (long long)sizes[i], quoted);
        product = sizes[i] > OMI_MAX_INT32 / product ? OMI_MAX_INT32 + 1
                                                     : product * sizes[i];
    }
    if (product != view->sizes[index]) {
        char value[24] = "over 2^31-1"; /* not the saturated 2^31 */
        if (product <= OMI_MAX_INT32)
            snprintf(value, sizeof value, "%lld", (long long)product);
        format_sizes(shown, sizeof shown, sizes, nsizes, ", ");
        return omi_fail(err, OM_ERR_SIZE_MISMATCH,
                        "the product of sizes %s is %s, but axis %s has size "
                        "%lld", shown, value, quoted,
                        (long long)view->sizes[index]);
    }
    if (nsizes > OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE, "too many sizes");
    /* Each new axis of size > 1 takes at least one mode piece. */
    size_t big = 0;
    for (size_t i = 0; i < nsizes; i++)
        big += sizes[i] > 1;
    size_t first = view->mode_first[index], n = view->mode_first[index + 1] - first;
    size_t *counts = omi_malloc((nsizes + 1) * sizeof *counts);
    omi_mode *split = omi_malloc((2 * OMI_MAX_DIGITS + 2) * sizeof *split);
    parts p;
    memset(&p, 0, sizeof p);
    if (!counts || !split)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory unflattening");
    if (st == OM_OK && (big > OMI_MAX_DIGITS ||
                        !split_modes(view->modes + first, n, sizes, nsizes,
                                     counts, split))) {
        format_sizes(shown, sizeof shown, sizes, nsizes, ",");
        st = omi_fail(err, OM_ERR_UNALIGNED,
                      "unflatten of %s into %s does not align with its modes",
                      quoted, shown);
    }
    if (st == OM_OK)
        st = parts_init(&p, view->ndim + nsizes, view, 2 * OMI_MAX_DIGITS + 2, err);
    for (size_t i = 0; st == OM_OK && i < nsizes; i++)
        if (!names[i])
            st = omi_fail(err, OM_ERR_INVALID_NAME, "new axis %zu name is NULL", i);
    if (st == OM_OK) {
        for (size_t i = 0; i < view->ndim; i++) {
            if (i != index) {
                add_axis(&p, view->names[i], view->name_lens[i]);
                add_axis_modes(&p, view, i);
                continue;
            }
            size_t o = 0;
            for (size_t a = 0; a < nsizes; a++) {
                add_axis(&p, names[a], strlen(names[a]));
                for (size_t j = 0; j < counts[a]; j++)
                    p.modes[p.nmodes++] = split[o++];
                p.counts[p.naxes - 1] = counts[a];
            }
        }
        st = parts_finish(&p, view, out, err);
    }
    parts_free(&p);
    omi_free(counts);
    omi_free(split);
    return st;
}
