/* Applying a world size to parallel dims: dp derivation and the
 * consistency check (DOMAIN.md, "Parallel dims"), the same for YAML and
 * for dims built through the API. */
#include <stdio.h>

#include "internal.h"

/* Checked product of positive factors; false on overflow of int64. */
static bool multiply(int64_t a, int64_t b, int64_t *out)
{
    if (a != 0 && b > INT64_MAX / a)
        return false;
    *out = a * b;
    return true;
}

/* A size as a factor of the rank count: 0 ("not declared") counts as 1. */
static int64_t factor(const om_dims *dims, om_dim dim)
{
    return dims->sizes[dim] > 0 ? dims->sizes[dim] : 1;
}

/* " (from WORLD_SIZE)" after the number; nothing for an explicit value,
 * which the caller just typed. */
static void annotate(om_world_size_source source, char *buf, size_t size)
{
    if (source == OM_WORLD_SIZE_EXPLICIT)
        buf[0] = '\0';
    else
        snprintf(buf, size, " (%s)", om_world_size_source_string(source));
}

om_status om_dims_apply_world_size(om_dims *dims, int64_t world_size,
                                   om_world_size_source source, om_error *err)
{
    if (!dims)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "dims is NULL");
    if (source <= OM_WORLD_SIZE_UNRESOLVED || source >= OM_WORLD_SIZE_SOURCE_COUNT)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "world size source %d is not a resolved source",
                        (int)source);
    if (world_size < 1)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "world size must be >= 1, got %lld", (long long)world_size);
    if (world_size > OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "world size %lld exceeds 2147483647", (long long)world_size);
    char note[200];
    annotate(source, note, sizeof note);
    int64_t tp = factor(dims, OM_DIM_TP), cp = factor(dims, OM_DIM_CP);
    int64_t pp = factor(dims, OM_DIM_PP);
    int64_t tcp, model;
    bool fits = multiply(tp, cp, &tcp) && multiply(tcp, pp, &model);
    if (!dims->dp_given) {
        if (!fits)
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "world size %lld%s is not divisible by tp*cp*pp = "
                            "%lld*%lld*%lld", (long long)world_size, note,
                            (long long)tp, (long long)cp, (long long)pp);
        if (world_size % model != 0)
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "world size %lld%s is not divisible by tp*cp*pp = %lld",
                            (long long)world_size, note, (long long)model);
        dims->sizes[OM_DIM_DP] = world_size / model;
    } else if (source != OM_WORLD_SIZE_DEFAULT) {
        /* An explicit dp must match a known world size. */
        int64_t total;
        if (!fits || !multiply(model, factor(dims, OM_DIM_DP), &total) ||
            total != world_size)
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "dp*tp*cp*pp = %lld*%lld*%lld*%lld does not equal the "
                            "world size %lld (%s)",
                            (long long)dims->sizes[OM_DIM_DP], (long long)tp,
                            (long long)cp, (long long)pp, (long long)world_size,
                            source == OM_WORLD_SIZE_EXPLICIT
                                ? "given"
                                : om_world_size_source_string(source));
    }
    dims->world_size = world_size;
    dims->world_source = source;
    return OM_OK;
}

om_status om_dims_resolve_world_size(om_dims *dims, int64_t explicit_size,
                                     om_error *err)
{
    if (!dims)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "dims is NULL");
    int64_t world_size;
    om_world_size_source source;
    om_status st = om_world_size_resolve(explicit_size, &world_size, &source, err);
    if (st == OM_OK)
        st = om_dims_apply_world_size(dims, world_size, source, err);
    return st;
}
