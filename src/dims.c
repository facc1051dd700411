/* The parallel-dims handle: seven fields behind enum-keyed accessors. */
#include "internal.h"

#define OMI_DIM_COUNT 5
#define OMI_FLAG_COUNT 2

struct om_dims {
    int64_t sizes[OMI_DIM_COUNT];
    bool flags[OMI_FLAG_COUNT];
};

static const char *const field_names[OMI_DIM_COUNT] = {
    "dp_size", "tp_size", "cp_size", "ep_size", "pp_size"};
static const char *const axis_names[OMI_DIM_COUNT] = {"dp", "tp", "cp", "ep", "pp"};
static const char *const flag_names[OMI_FLAG_COUNT] = {"sequence_parallel",
                                                       "loss_parallel"};

static bool dim_valid(om_dim dim) { return (unsigned)dim < OMI_DIM_COUNT; }
static bool flag_valid(om_flag flag) { return (unsigned)flag < OMI_FLAG_COUNT; }

const char *om_dim_field_name(om_dim dim)
{
    return dim_valid(dim) ? field_names[dim] : NULL;
}

const char *om_dim_axis_name(om_dim dim)
{
    return dim_valid(dim) ? axis_names[dim] : NULL;
}

const char *om_flag_field_name(om_flag flag)
{
    return flag_valid(flag) ? flag_names[flag] : NULL;
}

om_status om_dims_new(om_dims **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    om_dims *dims = omi_malloc(sizeof *dims);
    *out = dims;
    if (!dims)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating dims");
    for (int i = 0; i < OMI_DIM_COUNT; i++)
        dims->sizes[i] = 1;
    for (int i = 0; i < OMI_FLAG_COUNT; i++)
        dims->flags[i] = false;
    return OM_OK;
}

om_status om_dims_copy(const om_dims *dims, om_dims **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!dims)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "dims is NULL");
    om_status st = om_dims_new(out, err);
    if (st == OM_OK)
        **out = *dims;
    return st;
}

void om_dims_free(om_dims *dims) { omi_free(dims); }

int64_t om_dims_get(const om_dims *dims, om_dim dim)
{
    return (dims && dim_valid(dim)) ? dims->sizes[dim] : -1;
}

om_status om_dims_set(om_dims *dims, om_dim dim, int64_t value, om_error *err)
{
    if (!dims)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "dims is NULL");
    if (!dim_valid(dim))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "unknown dim %d", (int)dim);
    if (value < 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "%s must be >= 0, got %lld", field_names[dim],
                        (long long)value);
    if (value > OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "%s must be at most 2147483647, got %lld",
                        field_names[dim], (long long)value);
    dims->sizes[dim] = value;
    return OM_OK;
}

bool om_dims_get_flag(const om_dims *dims, om_flag flag)
{
    return dims && flag_valid(flag) && dims->flags[flag];
}

om_status om_dims_set_flag(om_dims *dims, om_flag flag, bool value,
                           om_error *err)
{
    if (!dims)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "dims is NULL");
    if (!flag_valid(flag))
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "unknown flag %d", (int)flag);
    dims->flags[flag] = value;
    return OM_OK;
}

bool om_dims_equal(const om_dims *a, const om_dims *b)
{
    if (a == b)
        return true;
    if (!a || !b)
        return false;
    for (int i = 0; i < OMI_DIM_COUNT; i++)
        if (a->sizes[i] != b->sizes[i])
            return false;
    for (int i = 0; i < OMI_FLAG_COUNT; i++)
        if (a->flags[i] != b->flags[i])
            return false;
    return true;
}

om_status om_dims_to_json(const om_dims *dims, char **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!dims)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "dims is NULL");
    /* Keys in sorted order, as canonical JSON wants them. */
    omi_buf buf = {0};
    omi_buf_puts(&buf, "{\"cp_size\":");
    omi_buf_int(&buf, dims->sizes[OM_DIM_CP]);
    omi_buf_puts(&buf, ",\"dp_size\":");
    omi_buf_int(&buf, dims->sizes[OM_DIM_DP]);
    omi_buf_puts(&buf, ",\"ep_size\":");
    omi_buf_int(&buf, dims->sizes[OM_DIM_EP]);
    omi_buf_puts(&buf, ",\"loss_parallel\":");
    omi_buf_puts(&buf, dims->flags[OM_FLAG_LOSS_PARALLEL] ? "true" : "false");
    omi_buf_puts(&buf, ",\"pp_size\":");
    omi_buf_int(&buf, dims->sizes[OM_DIM_PP]);
    omi_buf_puts(&buf, ",\"sequence_parallel\":");
    omi_buf_puts(&buf, dims->flags[OM_FLAG_SEQUENCE_PARALLEL] ? "true" : "false");
    omi_buf_puts(&buf, ",\"tp_size\":");
    omi_buf_int(&buf, dims->sizes[OM_DIM_TP]);
    omi_buf_puts(&buf, "}");
    return omi_buf_finish(&buf, out, err);
}
