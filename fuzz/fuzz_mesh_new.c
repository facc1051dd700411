/* Fuzz target: mesh construction from arbitrary names and sizes, and
 * everything a mesh then offers (topology, planner checks), compared with
 * simple reference computations written here.
 *
 * Byte 0 picks the mode (byte % 3, so the seeds can be text: '0', '1', '2'):
 *   0  om_mesh_new / om_mesh_new_checked from decoded names and sizes:
 *      a flags byte (bit 0: _checked; bit 1: different lengths; bit 2: a
 *      NULL array), ndim = byte % 41, then per axis a name length byte
 *      (255: a NULL name, else % 24) with that many name bytes, and a size
 *      byte (< 192: 1 + byte % 8, e.g. '1' = 2, '3' = 4; < 240: one of
 *      special_sizes; else 8 raw bytes). "00+2dp12tp1" is (dp=2, tp=2).
 *   1  om_mesh_from_spec on the rest of the input as text;
 *   2  parallel dims from 5 bytes (dp, tp, cp, ep, pp: dim_values[byte %
 *      16]), then om_build_offline_mesh, om_build_runtime_mesh and
 *      om_order_normalize with the rest as the axis order.
 * The bytes after those drive the checks (probe ranks, axis masks, ...).
 * Invariants: the status is OK exactly when the input breaks no rule, and
 * otherwise one that names a rule the input breaks; failures leave *out
 * NULL. Every mesh built is checked by fuzz_check_mesh() and, for meshes
 * up to 4096 ranks, every rank's coordinates, every group over a chosen
 * axis set, group indices, host locality and the planner checks against
 * reference implementations.
 * SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- input decoding ---- */

static const int64_t special_sizes[16] = {
    0, -1, 2147483647, INT64_C(2147483648), INT64_MAX, INT64_MIN, 65536, 65535,
    46341, 1024, 3, 5, 7, 31, 127, 4096,
};

static int64_t take_size(fuzz_input *in)
{
    uint8_t sel = fuzz_take(in);
    if (sel < 192)
        return 1 + sel % 8;
    if (sel < 240)
        return special_sizes[sel % 16];
    uint64_t raw = 0;
    for (int i = 0; i < 8; i++)
        raw = raw << 8 | fuzz_take(in);
    return (int64_t)raw;
}

/* ---- reference topology ---- */

#define SMALL_MESH 4096
#define MAX_AXES 64

typedef struct {
    size_t ndim;
    int64_t sizes[MAX_AXES];
    int64_t strides[MAX_AXES];
    int64_t size;
} ref_mesh;

static void ref_init(const om_mesh *mesh, ref_mesh *r)
{
    r->ndim = om_mesh_ndim(mesh);
    int64_t stride = 1;
    for (size_t i = r->ndim; i-- > 0;) {
        r->sizes[i] = om_mesh_dim_size(mesh, i);
        r->strides[i] = stride;
        stride *= r->sizes[i];
    }
    r->size = stride;
}

static bool in_mask(uint64_t mask, size_t i) { return i < 64 && (mask >> i & 1u); }

/* Group index of `rank`: row-major over the axes outside the mask. */
static int64_t ref_group_index(const ref_mesh *r, uint64_t mask, int64_t rank)
{
    int64_t g = 0;
    for (size_t i = 0; i < r->ndim; i++)
        if (!in_mask(mask, i))
            g = g * r->sizes[i] + rank / r->strides[i] % r->sizes[i];
    return g;
}

/* Member j of group g: outside coordinates from g, inside ones from j. */
static int64_t ref_member(const ref_mesh *r, uint64_t mask, int64_t g, int64_t j)
{
    int64_t rank = 0;
    for (size_t i = r->ndim; i-- > 0;) {
        if (in_mask(mask, i)) {
            rank += j % r->sizes[i] * r->strides[i];
            j /= r->sizes[i];
        } else {
            rank += g % r->sizes[i] * r->strides[i];
            g /= r->sizes[i];
        }
    }
    return rank;
}

static void check_topology(const om_mesh *mesh, fuzz_input *in)
{
    ref_mesh r;
    om_error err;
    if (om_mesh_ndim(mesh) > MAX_AXES)
        return;
    ref_init(mesh, &r);
    FUZZ_CHECK(r.size == om_mesh_size(mesh), "reference size differs");

    /* Coordinates and ranks are inverse (all ranks of small meshes, a few
     * of large ones). */
    int64_t probes[3] = {0, r.size - 1, 0};
    for (int b = 0; b < 4; b++)
        probes[2] = probes[2] << 8 | fuzz_take(in);
    probes[2] %= r.size;
    int64_t nprobe = r.size <= SMALL_MESH ? r.size : 3;
    int64_t coord[MAX_AXES];
    for (int64_t k = 0; k < nprobe; k++) {
        int64_t rank = r.size <= SMALL_MESH ? k : probes[k];
        FUZZ_CHECK(om_mesh_coordinate(mesh, rank, coord, MAX_AXES, &err) == OM_OK,
                   "coordinate(%lld): %s", (long long)rank, err.message);
        for (size_t i = 0; i < r.ndim; i++)
            FUZZ_CHECK(coord[i] == rank / r.strides[i] % r.sizes[i],
                       "coordinate(%lld)[%zu]", (long long)rank, i);
        int64_t back = -1;
        FUZZ_CHECK(om_mesh_rank(mesh, coord, r.ndim, &back, &err) == OM_OK &&
                       back == rank,
                   "rank(coordinate(%lld)) = %lld", (long long)rank, (long long)back);
    }
    om_status st = om_mesh_coordinate(mesh, r.size, coord, MAX_AXES, &err);
    FUZZ_CHECK(st == OM_ERR_OUT_OF_RANGE, "coordinate(size) gave %d", (int)st);

    /* An axis set: random bits over the axes. */
    uint64_t mask = 0;
    for (int b = 0; b < 8; b++)
        mask = mask << 8 | fuzz_take(in);
    if (r.ndim < 64)
        mask &= (UINT64_C(1) << r.ndim) - 1;
    int64_t count = -1, gsize = -1, expect_size = 1;
    FUZZ_CHECK(om_mesh_group_shape(mesh, mask, &count, &gsize, &err) == OM_OK,
               "group_shape: %s", err.message);
    for (size_t i = 0; i < r.ndim; i++)
        if (in_mask(mask, i))
            expect_size *= r.sizes[i];
    FUZZ_CHECK(gsize == expect_size && count * gsize == r.size,
               "group shape %lld x %lld", (long long)count, (long long)gsize);
    if (r.ndim < 64) {
        st = om_mesh_group_shape(mesh, mask | UINT64_C(1) << r.ndim, &count,
                                 &gsize, &err);
        FUZZ_CHECK(st == OM_ERR_OUT_OF_RANGE, "mask beyond ndim gave %d", (int)st);
        count = r.size / expect_size;
        gsize = expect_size;
    }

    /* om_mesh_axes names the same set (when the names can be listed). */
    char list[4096];
    size_t o = 0;
    bool listable = true;
    for (size_t i = 0; i < r.ndim && listable; i++) {
        if (!in_mask(mask, i))
            continue;
        const char *name = om_mesh_name(mesh, i);
        size_t len = strlen(name);
        listable = !strchr(name, ',') && name[0] != ' ' && name[0] != '\t' &&
                   name[len - 1] != ' ' && name[len - 1] != '\t' &&
                   o + len + 2 < sizeof list;
        if (listable) {
            if (o)
                list[o++] = ',';
            memcpy(list + o, name, len);
            o += len;
        }
    }
    list[o] = '\0';
    if (listable) {
        uint64_t got = 0;
        st = om_mesh_axes(mesh, list, &got, &err);
        if (st == OM_OK)
            FUZZ_CHECK(got == mask, "om_mesh_axes(%s) = %" PRIx64 ", want %" PRIx64,
                       list, got, mask);
        else /* only the first 64 axes can be selected */
            FUZZ_CHECK(st == OM_ERR_OUT_OF_RANGE && r.ndim > 64,
                       "om_mesh_axes(%s): %s", list, err.message);
    }

    /* Groups: all of them for small meshes, one slice otherwise. */
    static int32_t got[SMALL_MESH];
    int64_t first = 0, ngroups = count;
    if (r.size > SMALL_MESH) {
        if (gsize > SMALL_MESH)
            return;
        first = (int64_t)fuzz_take(in) * 65537 % count;
        ngroups = SMALL_MESH / gsize;
        if (ngroups > count - first)
            ngroups = count - first;
    }
    st = om_mesh_groups(mesh, mask, first, ngroups, got, SMALL_MESH, &err);
    FUZZ_CHECK(st == OM_OK, "groups(%lld, %lld): %s", (long long)first,
               (long long)ngroups, err.message);
    for (int64_t g = 0; g < ngroups; g++)
        for (int64_t j = 0; j < gsize; j++)
            FUZZ_CHECK(got[g * gsize + j] == ref_member(&r, mask, first + g, j),
                       "group %lld member %lld is %d, expected %lld",
                       (long long)(first + g), (long long)j, got[g * gsize + j],
                       (long long)ref_member(&r, mask, first + g, j));
    if (ngroups > 0) {
        st = om_mesh_groups(mesh, mask, first, ngroups, got,
                            (size_t)(ngroups * gsize - 1), &err);
        FUZZ_CHECK(st == OM_ERR_BUFFER_TOO_SMALL, "short buffer gave %d", (int)st);
    }

    /* Group index and the group of a rank. */
    int64_t nranks = r.size <= SMALL_MESH ? r.size : 3;
    static int32_t members[SMALL_MESH];
    for (int64_t k = 0; k < nranks; k++) {
        int64_t rank = r.size <= SMALL_MESH ? k : probes[k];
        int64_t index = -1;
        FUZZ_CHECK(om_mesh_group_index(mesh, mask, rank, &index, &err) == OM_OK &&
                       index == ref_group_index(&r, mask, rank),
                   "group_index(%lld)", (long long)rank);
        FUZZ_CHECK(om_mesh_group_of(mesh, mask, rank, members, SMALL_MESH, &err) ==
                       OM_OK,
                   "group_of(%lld): %s", (long long)rank, err.message);
        for (int64_t j = 0; j < gsize; j++)
            FUZZ_CHECK(members[j] == ref_member(&r, mask, index, j),
                       "group_of(%lld)[%lld]", (long long)rank, (long long)j);
    }

    /* Host locality (time O(size): small meshes only). */
    if (r.size > SMALL_MESH)
        return;
    int64_t k = 1 + fuzz_take(in) % 16;
    int64_t lcount = -1, local = -1, most = -1, want_local = 0, want_most = 0;
    FUZZ_CHECK(om_mesh_locality(mesh, mask, k, &lcount, &local, &most, &err) == OM_OK,
               "locality: %s", err.message);
    for (int64_t g = 0; g < count; g++) {
        int64_t hosts = 0, last = -1;
        for (int64_t j = 0; j < gsize; j++) {
            int64_t host = ref_member(&r, mask, g, j) / k;
            if (host != last)
                hosts++;
            last = host;
        }
        want_local += hosts == 1;
        want_most = hosts > want_most ? hosts : want_most;
    }
    FUZZ_CHECK(lcount == count && local == want_local && most == want_most,
               "locality k=%lld: %lld/%lld/%lld, expected %lld/%lld/%lld",
               (long long)k, (long long)lcount, (long long)local, (long long)most,
               (long long)count, (long long)want_local, (long long)want_most);
}

/* ---- planner checks against their definitions ---- */

static void check_planner(const om_mesh *mesh, fuzz_input *in)
{
    om_error err;
    int64_t tp = fuzz_take(in) % 9, cp = fuzz_take(in) % 9, ep = fuzz_take(in) % 9;
    int64_t experts = fuzz_take(in) % 33;
    int tpi = om_mesh_index_of(mesh, "tp"), cpi = om_mesh_index_of(mesh, "cp");
    int epi = om_mesh_index_of(mesh, "ep"), ppi = om_mesh_index_of(mesh, "pp");

    bool valid = tp >= 1 && cp >= 1 && ep >= 1;
    if (valid && tp > 1)
        valid = tpi >= 0 && om_mesh_dim_size(mesh, (size_t)tpi) == tp;
    if (valid && cp > 1)
        valid = cpi >= 0 && om_mesh_dim_size(mesh, (size_t)cpi) == cp;
    if (valid && epi >= 0)
        valid = om_mesh_dim_size(mesh, (size_t)epi) == ep;
    om_status st = om_validate_axes(mesh, tp, cp, ep, &err);
    FUZZ_CHECK((st == OM_OK) == valid, "validate_axes(%lld,%lld,%lld) gave %d",
               (long long)tp, (long long)cp, (long long)ep, (int)st);
    if (st != OM_OK)
        fuzz_check_error("om_validate_axes", st, &err,
                         FUZZ_BIT(OM_ERR_INVALID_ARGUMENT));

    char *names = NULL;
    st = om_plan_dim_names(mesh, tp, cp, ep, &names, &err);
    FUZZ_CHECK((st == OM_OK) == (tp >= 1 && cp >= 1 && ep >= 1),
               "plan_dim_names status %d", (int)st);
    if (st == OM_OK) {
        char want[16] = "";
        for (size_t i = 0; i < om_mesh_ndim(mesh); i++) {
            const char *n = om_mesh_name(mesh, i);
            int64_t plan = strcmp(n, "tp") == 0   ? tp
                           : strcmp(n, "cp") == 0 ? cp
                           : strcmp(n, "ep") == 0 ? ep
                                                  : 0;
            if (plan > 1) {
                if (want[0])
                    strcat(want, ",");
                strcat(want, n);
            }
        }
        FUZZ_CHECK(strcmp(names, want) == 0, "plan names \"%s\", expected \"%s\"",
                   names, want);
        om_string_free(names);
    } else {
        FUZZ_CHECK(names == NULL, "plan_dim_names failure left *out set");
    }

    /* Extended expert parallelism. */
    int64_t pp = ppi >= 0 ? om_mesh_dim_size(mesh, (size_t)ppi) : 1;
    int64_t dense = om_mesh_size(mesh) / pp;
    bool ok = ep >= 1 && pp == 1 && dense % ep == 0 &&
              (experts == 0 || experts % ep == 0);
    om_mesh *experts_mesh = (om_mesh *)(uintptr_t)1;
    st = om_expert_mesh(mesh, ep, experts, &experts_mesh, &err);
    FUZZ_CHECK((st == OM_OK) == ok, "expert_mesh(ep %lld, experts %lld) gave %d",
               (long long)ep, (long long)experts, (int)st);
    if (st != OM_OK) {
        FUZZ_CHECK(experts_mesh == NULL, "expert_mesh failure left *out set");
        fuzz_check_error("om_expert_mesh", st, &err, FUZZ_BIT(OM_ERR_INVALID_ARGUMENT));
        return;
    }
    FUZZ_CHECK(om_mesh_ndim(experts_mesh) == 2 &&
                   strcmp(om_mesh_name(experts_mesh, 0), "edp") == 0 &&
                   strcmp(om_mesh_name(experts_mesh, 1), "ep") == 0 &&
                   om_mesh_dim_size(experts_mesh, 0) == dense / ep &&
                   om_mesh_dim_size(experts_mesh, 1) == ep,
               "expert mesh shape");
    om_mesh_free(experts_mesh);
}

static void check_built_mesh(const om_mesh *mesh, fuzz_input *in)
{
    fuzz_check_mesh(mesh);
    check_topology(mesh, in);
    check_planner(mesh, in);
    /* Sub-meshes: every axis, and an absent one. */
    om_error err;
    for (size_t i = 0; i < om_mesh_ndim(mesh) && i < 8; i++) {
        om_mesh *sub = NULL;
        FUZZ_CHECK(om_mesh_get(mesh, om_mesh_name(mesh, i), &sub, &err) == OM_OK,
                   "get: %s", err.message);
        FUZZ_CHECK(om_mesh_ndim(sub) == 1 &&
                       strcmp(om_mesh_name(sub, 0), om_mesh_name(mesh, i)) == 0 &&
                       om_mesh_size(sub) == om_mesh_dim_size(mesh, i),
                   "sub-mesh of axis %zu", i);
        om_mesh_free(sub);
    }
    om_mesh *empty = NULL;
    if (om_mesh_index_of(mesh, "\001absent") < 0) {
        FUZZ_CHECK(om_mesh_get(mesh, "\001absent", &empty, &err) == OM_OK &&
                       om_mesh_ndim(empty) == 0 && om_mesh_size(empty) == 1,
                   "absent axis is not the empty mesh");
        om_mesh_free(empty);
    }
}

/* ---- mode 0: names and sizes ---- */

#define MAX_NEW 40

static void mode_new(fuzz_input *in)
{
    char storage[MAX_NEW][32];
    const char *names[MAX_NEW];
    int64_t sizes[MAX_NEW];
    uint8_t flags = fuzz_take(in);
    size_t ndim = fuzz_take(in) % (MAX_NEW + 1);
    for (size_t i = 0; i < ndim; i++) {
        uint8_t len = fuzz_take(in);
        if (len == 255) {
            names[i] = NULL;
        } else {
            len %= 24;
            for (uint8_t k = 0; k < len; k++)
                storage[i][k] = (char)fuzz_take(in);
            storage[i][len] = '\0';
            names[i] = storage[i];
        }
        sizes[i] = take_size(in);
    }

    /* The rules, evaluated here independently. */
    bool null_name = false, empty = false, bad_utf8 = false, dup = false;
    bool bad_size = false, too_large = false;
    int64_t product = 1;
    for (size_t i = 0; i < ndim; i++) {
        if (!names[i]) {
            null_name = true;
        } else {
            size_t len = strlen(names[i]);
            empty = empty || len == 0;
            bad_utf8 = bad_utf8 || !fuzz_utf8_valid(names[i], len);
            for (size_t j = 0; j < i; j++)
                dup = dup || (names[j] && strcmp(names[j], names[i]) == 0);
        }
        if (sizes[i] < 1)
            bad_size = true;
        else if (sizes[i] > OM_MAX_RANKS / product)
            too_large = true;
        else
            product *= sizes[i];
    }
    unsigned allowed = 0;
    if (null_name || bad_utf8)
        allowed |= FUZZ_BIT(OM_ERR_INVALID_NAME);
    if (empty)
        allowed |= FUZZ_BIT(OM_ERR_EMPTY_NAME);
    if (dup)
        allowed |= FUZZ_BIT(OM_ERR_DUPLICATE_NAME);
    if (bad_size)
        allowed |= FUZZ_BIT(OM_ERR_BAD_SIZE);
    if (too_large)
        allowed |= FUZZ_BIT(OM_ERR_MESH_TOO_LARGE);

    om_error err;
    om_mesh *mesh = (om_mesh *)(uintptr_t)1;
    om_status st;
    const char *const *name_arg = (const char *const *)names;
    const int64_t *size_arg = sizes;
    if (flags & 1) {
        /* Separate lengths: sometimes different, sometimes a NULL array. */
        size_t names_len = ndim, sizes_len = ndim;
        if (flags & 2)
            sizes_len = (ndim + (flags >> 4)) % (MAX_NEW + 1);
        if (names_len != sizes_len)
            allowed = FUZZ_BIT(OM_ERR_LENGTH_MISMATCH);
        if (flags & 4 && names_len == sizes_len && ndim > 0) {
            name_arg = NULL;
            allowed = FUZZ_BIT(OM_ERR_INVALID_ARGUMENT);
        }
        st = om_mesh_new_checked(name_arg, names_len, size_arg, sizes_len, &mesh, &err);
    } else {
        if (flags & 4 && ndim > 0) {
            size_arg = NULL;
            allowed = FUZZ_BIT(OM_ERR_INVALID_ARGUMENT);
        }
        st = om_mesh_new(name_arg, size_arg, ndim, &mesh, &err);
    }
    if (st != OM_OK) {
        FUZZ_CHECK(mesh == NULL, "failed om_mesh_new left *out set");
        FUZZ_CHECK(allowed != 0, "valid input refused: %s", err.message);
        fuzz_check_error("om_mesh_new", st, &err, allowed);
        if (st == OM_ERR_BAD_SIZE)
            FUZZ_CHECK(strstr(err.message, "has size ") != NULL,
                       "bad-size message: %s", err.message);
        if (st == OM_ERR_MESH_TOO_LARGE)
            FUZZ_CHECK(strstr(err.message, "2^31-1") != NULL,
                       "too-large message: %s", err.message);
        return;
    }
    FUZZ_CHECK(allowed == 0, "invalid input accepted (rules broken: 0x%x)", allowed);
    FUZZ_CHECK(om_mesh_ndim(mesh) == ndim, "ndim");
    for (size_t i = 0; i < ndim; i++)
        FUZZ_CHECK(strcmp(om_mesh_name(mesh, i), names[i]) == 0 &&
                       om_mesh_dim_size(mesh, i) == sizes[i],
                   "axis %zu not kept", i);
    /* Equal inputs give equal meshes and hashes. */
    om_mesh *twin = NULL;
    FUZZ_CHECK(om_mesh_new((const char *const *)names, sizes, ndim, &twin, &err) == OM_OK &&
                   om_mesh_equal(mesh, twin) && om_mesh_hash(mesh) == om_mesh_hash(twin),
               "second construction differs");
    om_mesh_free(twin);
    check_built_mesh(mesh, in);
    om_mesh_free(mesh);
}

/* ---- mode 1: the text form ---- */

static void mode_spec(fuzz_input *in)
{
    char text[2048];
    size_t len = in->n < sizeof text - 1 ? in->n : sizeof text - 1;
    memcpy(text, in->p, len);
    text[len] = '\0';
    in->p += len;
    in->n -= len;
    len = strlen(text);
    om_error err;
    om_mesh *mesh = (om_mesh *)(uintptr_t)1;
    om_status st = om_mesh_from_spec(text, &mesh, &err);
    if (st != OM_OK) {
        FUZZ_CHECK(mesh == NULL, "failed from_spec left *out set");
        fuzz_check_error("om_mesh_from_spec", st, &err,
                         FUZZ_BIT(OM_ERR_PARSE) | FUZZ_BIT(OM_ERR_INVALID_NAME) |
                             FUZZ_BIT(OM_ERR_EMPTY_NAME) |
                             FUZZ_BIT(OM_ERR_DUPLICATE_NAME) |
                             FUZZ_BIT(OM_ERR_BAD_SIZE) |
                             FUZZ_BIT(OM_ERR_MESH_TOO_LARGE));
        return;
    }
    /* One axis per comma-separated item (none for a blank text). */
    size_t items = strspn(text, " \t") == len ? 0 : 1;
    for (size_t i = 0; i < len; i++)
        items += text[i] == ',';
    FUZZ_CHECK(om_mesh_ndim(mesh) == items, "spec \"%s\": %zu axes, %zu items",
               text, om_mesh_ndim(mesh), items);
    check_built_mesh(mesh, in);
    om_mesh_free(mesh);
}

/* ---- mode 2: dims and axis orders ---- */

static const int64_t dim_values[16] = {
    0, 1, 2, 3, 4, 8, 1, 2, 2147483647, 65536, 46341, 16, 1, 2, 5, 6,
};

static void mode_order(fuzz_input *in)
{
    om_error err;
    om_dims *dims = NULL;
    FUZZ_CHECK(om_dims_new(&dims, &err) == OM_OK, "dims_new");
    static const om_dim all[5] = {OM_DIM_DP, OM_DIM_TP, OM_DIM_CP, OM_DIM_EP,
                                  OM_DIM_PP};
    for (size_t i = 0; i < 5; i++)
        FUZZ_CHECK(om_dims_set(dims, all[i], dim_values[fuzz_take(in) % 16], &err) == OM_OK,
                   "dims_set");
    char order[256];
    size_t len = in->n < sizeof order - 1 ? in->n : sizeof order - 1;
    memcpy(order, in->p, len);
    order[len] = '\0';
    in->p += len;
    in->n -= len;

    om_mesh *offline = NULL;
    om_status off_st = om_build_offline_mesh(dims, &offline, &err);
    if (off_st != OM_OK)
        fuzz_check_error("om_build_offline_mesh", off_st, &err,
                         FUZZ_BIT(OM_ERR_MESH_TOO_LARGE));

    char *normal = (char *)(uintptr_t)1;
    om_error nerr;
    om_status nst = om_order_normalize(order, &normal, &nerr);
    om_mesh *runtime = (om_mesh *)(uintptr_t)1;
    om_error rerr;
    om_status rst = om_build_runtime_mesh(dims, order, &runtime, &rerr);
    if (nst != OM_OK) {
        FUZZ_CHECK(normal == NULL, "failed normalize left *out set");
        fuzz_check_error("om_order_normalize", nst, &nerr,
                         FUZZ_BIT(OM_ERR_INVALID_ARGUMENT));
        /* The order itself is wrong: the runtime mesh fails the same way. */
        FUZZ_CHECK(rst == nst && strcmp(rerr.message, nerr.message) == 0,
                   "order \"%s\": normalize says \"%s\", runtime says \"%s\"",
                   order, nerr.message, rst == OM_OK ? "ok" : rerr.message);
        FUZZ_CHECK(runtime == NULL, "failed runtime mesh left *out set");
        goto done;
    }
    /* Normalising is idempotent, and both spellings build the same mesh. */
    char *twice = NULL;
    FUZZ_CHECK(om_order_normalize(normal, &twice, &err) == OM_OK &&
                   strcmp(twice, normal) == 0,
               "normalize(\"%s\") = \"%s\" is not a fixpoint", normal, twice);
    om_string_free(twice);
    om_mesh *via_normal = NULL;
    om_status vst = om_build_runtime_mesh(dims, normal, &via_normal, &err);
    FUZZ_CHECK(vst == rst, "order \"%s\" and its normal form \"%s\" disagree", order,
               normal);
    FUZZ_CHECK(rst != OM_OK || om_mesh_equal(runtime, via_normal),
               "order \"%s\" and \"%s\" build different meshes", order, normal);
    om_mesh_free(via_normal);
    if (rst != OM_OK) {
        FUZZ_CHECK(runtime == NULL, "failed runtime mesh left *out set");
        fuzz_check_error("om_build_runtime_mesh", rst, &rerr,
                         FUZZ_BIT(OM_ERR_INVALID_ARGUMENT) |
                             FUZZ_BIT(OM_ERR_MESH_TOO_LARGE));
        if (rst == OM_ERR_MESH_TOO_LARGE)
            FUZZ_CHECK(off_st == OM_ERR_MESH_TOO_LARGE, "runtime too large alone");
        else
            FUZZ_CHECK(strstr(rerr.message, "does not place axis") != NULL,
                       "runtime mesh refused a valid order: %s", rerr.message);
        goto done;
    }
    /* Same axes, same sizes, other order. */
    FUZZ_CHECK(off_st == OM_OK, "runtime mesh built where offline one is too large");
    FUZZ_CHECK(om_mesh_ndim(runtime) == om_mesh_ndim(offline) &&
                   om_mesh_size(runtime) == om_mesh_size(offline),
               "runtime mesh shape differs");
    for (size_t i = 0; i < om_mesh_ndim(offline); i++) {
        const char *name = om_mesh_name(offline, i);
        FUZZ_CHECK(om_mesh_size_of(runtime, name) == om_mesh_dim_size(offline, i) &&
                       om_mesh_index_of(runtime, name) >= 0,
                   "runtime mesh lacks axis %s", name);
    }
    check_built_mesh(runtime, in);
done:
    if (nst == OM_OK)
        om_string_free(normal);
    if (rst == OM_OK)
        om_mesh_free(runtime);
    if (off_st == OM_OK) {
        check_built_mesh(offline, in);
        om_mesh_free(offline);
    }
    om_dims_free(dims);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size};
    switch (fuzz_take(&in) % 3) {
    case 0: mode_new(&in); break;
    case 1: mode_spec(&in); break;
    default: mode_order(&in); break;
    }
    return 0;
}
