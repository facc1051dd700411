/* Meshes built from parallel dims: the offline axis rules and runtime axis
 * orders (slowest-first "pp,dp,cp,tp" or Megatron "tp-cp-ep-dp-pp"). */
#include <string.h>

#include "internal.h"

/* Every dims field can be a mesh axis at most once. */
#define OMI_MAX_AXES OM_DIM_COUNT

/* The axes of the offline mesh, in order: dp, cp, tp when declared (>= 1),
 * pp when > 1. */
typedef struct {
    size_t count;
    const char *names[OMI_MAX_AXES];
    int64_t sizes[OMI_MAX_AXES];
} axis_list;

static void offline_axes(const om_dims *dims, axis_list *axes)
{
    static const om_dim in_order[] = {OM_DIM_DP, OM_DIM_CP, OM_DIM_TP};
    axes->count = 0;
    for (size_t i = 0; i < sizeof in_order / sizeof in_order[0]; i++) {
        int64_t size = om_dims_get(dims, in_order[i]);
        if (size >= 1) {
            axes->names[axes->count] = om_dim_axis_name(in_order[i]);
            axes->sizes[axes->count++] = size;
        }
    }
    if (om_dims_get(dims, OM_DIM_PP) > 1) {
        axes->names[axes->count] = "pp";
        axes->sizes[axes->count++] = om_dims_get(dims, OM_DIM_PP);
    }
}

static om_status create(const axis_list *axes, om_mesh **out, om_error *err)
{
    size_t lens[OMI_MAX_AXES];
    for (size_t i = 0; i < axes->count; i++)
        lens[i] = strlen(axes->names[i]);
    return omi_mesh_create(axes->names, lens, axes->sizes, axes->count, out, err);
}

om_status om_mesh_from_dims(const om_dims *dims, om_mesh **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!dims)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "dims is NULL");
    axis_list axes;
    offline_axes(dims, &axes);
    return create(&axes, out, err);
}

/* A parsed order, slowest-varying first. */
typedef struct {
    const char *order; /* the caller's text, for messages */
    size_t count;
    const char *names[OMI_MAX_AXES];
} order_list;

static om_status read_order_item(const char *item, size_t len, size_t index,
                                 void *ctx, om_error *err)
{
    static const char *const known[] = {"dp", "cp", "tp", "pp", "ep"};
    order_list *order = ctx;
    char quoted[96];
    char quoted_order[96];
    (void)index;
    omi_quote(quoted, sizeof quoted, item, len);
    omi_quote(quoted_order, sizeof quoted_order, order->order, strlen(order->order));
    if (len == 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "axis order %s has an empty item", quoted_order);
    const char *name = NULL;
    for (size_t k = 0; k < OMI_MAX_AXES; k++)
        if (strlen(known[k]) == len && memcmp(known[k], item, len) == 0)
            name = known[k];
    if (!name)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "unknown axis %s in axis order %s (known: dp, cp, tp, "
                        "pp, ep)", quoted, quoted_order);
    for (size_t k = 0; k < order->count; k++)
        if (order->names[k] == name)
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "axis %s appears twice in axis order %s", quoted,
                            quoted_order);
    order->names[order->count++] = name;
    return OM_OK;
}

static om_status parse_order(const char *text, order_list *order, om_error *err)
{
    if (!text)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "axis order is NULL");
    bool comma = strchr(text, ',') != NULL;
    bool dash = strchr(text, '-') != NULL;
    char quoted[96];
    omi_quote(quoted, sizeof quoted, text, strlen(text));
    if (comma && dash)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "axis order %s mixes ',' and '-' separators", quoted);
    order->order = text;
    order->count = 0;
    om_status st = omi_split(text, dash ? '-' : ',', read_order_item, order, err);
    if (st != OM_OK)
        return st;
    if (dash) {
        /* Megatron lists the fastest-varying axis first. */
        for (size_t i = 0; i < order->count / 2; i++) {
            const char *t = order->names[i];
            order->names[i] = order->names[order->count - 1 - i];
            order->names[order->count - 1 - i] = t;
        }
    }
    return OM_OK;
}

om_status om_mesh_from_dims_in_order(const om_dims *dims, const char *order,
                                     om_mesh **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!dims)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "dims is NULL");
    order_list parsed;
    om_status st = parse_order(order, &parsed, err);
    if (st != OM_OK)
        return st;

    axis_list offline, runtime = {0};
    offline_axes(dims, &offline);
    bool named[OMI_MAX_AXES] = {false};
    for (size_t i = 0; i < offline.count; i++) {
        for (size_t k = 0; k < parsed.count; k++)
            if (strcmp(parsed.names[k], offline.names[i]) == 0)
                named[i] = true;
    }
    /* Unnamed axes must be trivial; they stay outermost in offline order. */
    for (size_t i = 0; i < offline.count; i++) {
        if (named[i])
            continue;
        if (offline.sizes[i] > 1) {
            char quoted[96];
            omi_quote(quoted, sizeof quoted, order, strlen(order));
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "axis order %s does not place axis %s of size %lld",
                            quoted, offline.names[i], (long long)offline.sizes[i]);
        }
        runtime.names[runtime.count] = offline.names[i];
        runtime.sizes[runtime.count++] = offline.sizes[i];
    }
    for (size_t k = 0; k < parsed.count; k++) {
        for (size_t i = 0; i < offline.count; i++) {
            if (named[i] && strcmp(parsed.names[k], offline.names[i]) == 0) {
                runtime.names[runtime.count] = offline.names[i];
                runtime.sizes[runtime.count++] = offline.sizes[i];
            }
        }
    }
    return create(&runtime, out, err);
}

om_status om_axis_order_normalize(const char *order, char **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    order_list parsed;
    om_status st = parse_order(order, &parsed, err);
    if (st != OM_OK)
        return st;
    char *text = omi_malloc(parsed.count * 3 + 1);
    if (!text)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory writing an axis order");
    size_t o = 0;
    for (size_t k = 0; k < parsed.count; k++) {
        if (k)
            text[o++] = ',';
        memcpy(text + o, parsed.names[k], 2);
        o += 2;
    }
    text[o] = '\0';
    *out = text;
    return OM_OK;
}

/* ---- the 1.0 names ---- */

om_status om_build_offline_mesh(const om_dims *dims, om_mesh **out,
                                om_error *err)
{
    return om_mesh_from_dims(dims, out, err);
}

om_status om_build_runtime_mesh(const om_dims *dims, const char *order,
                                om_mesh **out, om_error *err)
{
    return om_mesh_from_dims_in_order(dims, order, out, err);
}

om_status om_order_normalize(const char *order, char **out, om_error *err)
{
    return om_axis_order_normalize(order, out, err);
}
