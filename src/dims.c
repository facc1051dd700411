/* The parallel-dims handle: seven fields behind enum-keyed accessors. */
#include <string.h>

#include "internal.h"

/* One table per enumeration: names, JSON keys and YAML keys all come from
 * here. */
typedef struct {
    const char *field; /* YAML and JSON key */
    const char *axis;  /* mesh axis name */
} dim_entry;

static const dim_entry dim_table[] = {
    [OM_DIM_DP] = {"dp_size", "dp"},
    [OM_DIM_TP] = {"tp_size", "tp"},
    [OM_DIM_CP] = {"cp_size", "cp"},
    [OM_DIM_EP] = {"ep_size", "ep"},
    [OM_DIM_PP] = {"pp_size", "pp"},
};
_Static_assert(sizeof dim_table / sizeof dim_table[0] == OM_DIM_COUNT,
               "every om_dim has an entry");

static const char *const flag_table[] = {
    [OM_FLAG_SEQUENCE_PARALLEL] = "sequence_parallel",
    [OM_FLAG_LOSS_PARALLEL] = "loss_parallel",
};
_Static_assert(sizeof flag_table / sizeof flag_table[0] == OM_FLAG_COUNT,
               "every om_flag has an entry");

/* One key of the JSON form. */
typedef struct {
    const char *key;
    int64_t size; /* when not a flag */
    int flag;     /* -1 for sizes, else 0/1 */
} json_field;

static bool dim_valid(om_dim dim) { return (unsigned)dim < OM_DIM_COUNT; }
static bool flag_valid(om_flag flag) { return (unsigned)flag < OM_FLAG_COUNT; }

const char *om_dim_field_name(om_dim dim)
{
    return dim_valid(dim) ? dim_table[dim].field : NULL;
}

const char *om_dim_axis_name(om_dim dim)
{
    return dim_valid(dim) ? dim_table[dim].axis : NULL;
}

const char *om_flag_field_name(om_flag flag)
{
    return flag_valid(flag) ? flag_table[flag] : NULL;
}

om_status om_dims_new(om_dims **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    om_dims *dims = omi_malloc(sizeof *dims);
    *out = dims;
    if (!dims)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating dims");
    for (int i = 0; i < OM_DIM_COUNT; i++)
        dims->sizes[i] = 1;
    for (int i = 0; i < OM_FLAG_COUNT; i++)
        dims->flags[i] = false;
    dims->dp_given = false;
    dims->world_size = 0;
    dims->world_source = OM_WORLD_SIZE_UNRESOLVED;
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
                        "%s must be >= 0, got %lld", dim_table[dim].field,
                        (long long)value);
    if (value > OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "%s must be at most 2147483647, got %lld",
                        dim_table[dim].field, (long long)value);
    dims->sizes[dim] = value;
    if (dim == OM_DIM_DP)
        dims->dp_given = true;
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
    for (int i = 0; i < OM_DIM_COUNT; i++)
        if (a->sizes[i] != b->sizes[i])
            return false;
    for (int i = 0; i < OM_FLAG_COUNT; i++)
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
    /* Every field of both tables, keys sorted as canonical JSON wants. */
    json_field fields[OM_DIM_COUNT + OM_FLAG_COUNT];
    size_t n = 0;
    for (int i = 0; i < OM_DIM_COUNT; i++) {
        fields[n].key = dim_table[i].field;
        fields[n].size = dims->sizes[i];
        fields[n++].flag = -1;
    }
    for (int i = 0; i < OM_FLAG_COUNT; i++) {
        fields[n].key = flag_table[i];
        fields[n].size = 0;
        fields[n++].flag = dims->flags[i];
    }
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(fields[j - 1].key, fields[j].key) > 0; j--) {
            json_field t = fields[j];
            fields[j] = fields[j - 1];
            fields[j - 1] = t;
        }
    omi_buf buf = {0};
    for (size_t i = 0; i < n; i++) {
        omi_buf_puts(&buf, i ? ",\"" : "{\"");
        omi_buf_puts(&buf, fields[i].key);
        omi_buf_puts(&buf, "\":");
        if (fields[i].flag < 0)
            omi_buf_int(&buf, fields[i].size);
        else
            omi_buf_puts(&buf, fields[i].flag ? "true" : "false");
    }
    omi_buf_puts(&buf, "}");
    return omi_buf_finish(&buf, out, err);
}

om_status om_dims_dp_given(const om_dims *dims, bool *given, om_error *err)
{
    if (!dims || !given)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        dims ? "out pointer" : "dims");
    *given = dims->dp_given;
    return OM_OK;
}

om_status om_dims_world_size(const om_dims *dims, int64_t *world_size,
                             om_world_size_source *source, om_error *err)
{
    if (!dims || !world_size)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s is NULL",
                        dims ? "out pointer" : "dims");
    *world_size = dims->world_size;
    if (source)
        *source = dims->world_source;
    return OM_OK;
}
