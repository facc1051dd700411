/* Presets: the registry of frameworks, the rule collector, building and
 * reading an om_preset, and the check verdict. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "preset_internal.h"

static const omi_preset_def *const presets[] = {
    &omi_preset_torchtitan, &omi_preset_megatron, &omi_preset_deepspeed,
    &omi_preset_hyper_parallel,
};
#define NPRESETS (sizeof presets / sizeof presets[0])

/* The largest parameter table of any preset (a fixed table per preset:
 * each key is read once, a repeat is refused). */
#define OMI_PRESET_MAX_PARAMS 16

static om_status find_preset(const char *name, const omi_preset_def **def,
                             om_error *err)
{
    for (size_t i = 0; i < NPRESETS; i++)
        if (strcmp(presets[i]->name, name) == 0) {
            *def = presets[i];
            return OM_OK;
        }
    char quoted[80];
    omi_quote(quoted, sizeof quoted, name, strlen(name));
    return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                    "unknown preset %s; presets: torchtitan, megatron, "
                    "deepspeed, hyper-parallel", quoted);
}

bool omi_rule(omi_rules *rules, bool holds, bool fatal, const char *fmt, ...)
{
    if (holds)
        return true;
    if (rules->count < OMI_PRESET_MAX_RULES) {
        va_list args;
        va_start(args, fmt);
        vsnprintf(rules->messages[rules->count], OM_ERROR_MESSAGE_SIZE, fmt, args);
        va_end(args);
        omi_utf8_repair(rules->messages[rules->count]);
    }
    rules->count++;
    return rules->collect && !fatal;
}

int64_t omi_preset_product(const int64_t *values, size_t n)
{
    int64_t p = 1;
    for (size_t i = 0; i < n; i++) {
        p *= values[i];
        if (p > OMI_MAX_INT32)
            return OMI_MAX_INT32 + 1;
    }
    return p;
}

omi_pview *omi_preset_add_view(om_preset *preset, const char *name,
                               const char *const *names, const int64_t *sizes,
                               const int64_t *strides, size_t naxes)
{
    omi_pview *view = &preset->views[preset->nviews++];
    memset(view, 0, sizeof *view);
    snprintf(view->name, sizeof view->name, "%s", name);
    view->naxes = naxes;
    int64_t stride = 1;
    for (size_t i = naxes; i-- > 0;) {
        omi_paxis *axis = &view->axes[i];
        snprintf(axis->name, sizeof axis->name, "%s", names[i]);
        snprintf(axis->world_name, sizeof axis->world_name, "%s", names[i]);
        axis->modes[0].size = sizes[i];
        axis->modes[0].stride = strides ? strides[i] : stride;
        axis->nmodes = 1;
        stride *= sizes[i];
    }
    return view;
}

om_status omi_preset_add_list(om_preset *preset, const char *name,
                              omi_group_list *list, om_error *err)
{
    if (preset->nlists == preset->lists_cap) {
        /* Megatron makes one list per hierarchical CP level, any number. */
        size_t cap = preset->lists_cap ? 2 * preset->lists_cap : 32;
        omi_group_list *grown = omi_realloc(preset->lists, cap * sizeof *grown);
        if (!grown) {
            omi_group_list_free(list);
            return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory adding group list %s",
                            name);
        }
        preset->lists = grown;
        preset->lists_cap = cap;
    }
    omi_group_list *slot = &preset->lists[preset->nlists++];
    *slot = *list;
    snprintf(slot->name, sizeof slot->name, "%s", name);
    list->bases = NULL;
    return OM_OK;
}

const omi_group_list *omi_preset_find_list(const om_preset *preset,
                                           const char *name)
{
    for (size_t i = 0; i < preset->nlists; i++)
        if (strcmp(preset->lists[i].name, name) == 0)
            return &preset->lists[i];
    return NULL;
}

int omi_pview_axis(const omi_pview *view, const char *name)
{
    for (size_t i = 0; i < view->naxes; i++)
        if (strcmp(view->axes[i].name, name) == 0)
            return (int)i;
    return -1;
}

void omi_preset_add_local_rank(om_preset *preset, const char *key,
                               const char *view, const char *axis)
{
    omi_local_rank *local = &preset->local[preset->nlocal++];
    snprintf(local->key, sizeof local->key, "%s", key);
    local->view = -1;
    local->axis = -1;
    for (size_t v = 0; view && v < preset->nviews; v++)
        if (strcmp(preset->views[v].name, view) == 0) {
            local->view = (int)v;
            local->axis = axis ? omi_pview_axis(&preset->views[v], axis) : -1;
        }
}

void omi_group_list_free(omi_group_list *list)
{
    if (!list)
        return;
    omi_free(list->bases);
    list->bases = NULL;
    list->count = list->size = 0;
}

void om_preset_free(om_preset *preset)
{
    if (!preset)
        return;
    for (size_t i = 0; i < preset->nlists; i++)
        omi_group_list_free(&preset->lists[i]);
    omi_free(preset->lists);
    omi_free(preset);
}

/* Reads the parameters and runs the preset's rules (and, when they hold,
 * its description) into a fresh preset. */
static om_status run_preset(const char *name, const char *const *params,
                            size_t nparams,
                            int64_t world, omi_rules *rules, om_preset **out,
                            om_error *err)
{
    if (!name)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "preset name is NULL");
    if (nparams > 0 && !params)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "params is NULL but nparams is %zu", nparams);
    if (world < 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "world size must be >= 1, got %lld", (long long)world);
    /* As for a "world_size" parameter: no view could hold more ranks (the
     * rules and products of the frameworks assume it). */
    if (world > OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE, "world size %lld is beyond 2^31-1",
                        (long long)world);
    const omi_preset_def *def = NULL;
    om_status st = find_preset(name, &def, err);
    if (st != OM_OK)
        return st;
    omi_param_value values_read[OMI_PRESET_MAX_PARAMS];
    st = omi_preset_read_params(def, params, nparams, &world, values_read, err);
    om_preset *preset = NULL;
    if (st == OM_OK && !(preset = omi_malloc(sizeof *preset)))
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory building a preset");
    if (st == OM_OK) {
        memset(preset, 0, sizeof *preset);
        snprintf(preset->name, sizeof preset->name, "%s", def->name);
        preset->world = world;
        st = def->run(values_read, world, rules, preset, err);
    }
    omi_preset_free_params(values_read, def->nparams);
    if (st != OM_OK) {
        om_preset_free(preset);
        return st;
    }
    *out = preset;
    return OM_OK;
}

om_status om_preset_new(const char *name, const char *const *params,
                        size_t nparams,
                        int64_t world_size, om_preset **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    omi_rules rules = {.collect = false};
    om_preset *preset = NULL;
    om_status st = run_preset(name, params, nparams, world_size, &rules,
                              &preset, err);
    if (st != OM_OK)
        return st;
    if (rules.count > 0) {
        om_preset_free(preset);
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "%s", rules.messages[0]);
    }
    *out = preset;
    return OM_OK;
}

om_status om_preset_check(const char *name, const char *const *params,
                          size_t nparams, int64_t world_size, char **out,
                          om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    omi_rules rules = {.collect = true};
    om_preset *preset = NULL;
    om_status st = run_preset(name, params, nparams, world_size, &rules,
                              &preset, err);
    if (st == OM_OK && rules.count == 0)
        st = omi_preset_check_consistency(preset, &rules, err);
    if (st != OM_OK) {
        om_preset_free(preset);
        return st;
    }
    omi_buf buf = {0};
    omi_buf_puts(&buf, rules.count ? "{\"ok\":false,\"preset\":" : "{\"ok\":true,\"preset\":");
    omi_buf_json_string(&buf, preset->name, strlen(preset->name));
    omi_buf_puts(&buf, ",\"violations\":[");
    size_t shown = rules.count < OMI_PRESET_MAX_RULES ? rules.count : OMI_PRESET_MAX_RULES;
    for (size_t i = 0; i < shown; i++) {
        if (i)
            omi_buf_puts(&buf, ",");
        omi_buf_json_string(&buf, rules.messages[i], strlen(rules.messages[i]));
    }
    if (rules.count > shown) {
        /* Never silently fewer: the last entry counts the rest. */
        char more[80];
        snprintf(more, sizeof more, "%zu more violations not listed",
                 rules.count - shown);
        omi_buf_puts(&buf, ",");
        omi_buf_json_string(&buf, more, strlen(more));
    }
    omi_buf_puts(&buf, "]}");
    om_preset_free(preset);
    return omi_buf_finish(&buf, out, err);
}

const char *om_preset_name(const om_preset *preset)
{
    return preset ? preset->name : NULL;
}

int64_t om_preset_world_size(const om_preset *preset)
{
    return preset ? preset->world : 0;
}

size_t om_preset_view_count(const om_preset *preset)
{
    return preset ? preset->nviews : 0;
}

const char *om_preset_view_name(const om_preset *preset, size_t index)
{
    return preset && index < preset->nviews ? preset->views[index].name : NULL;
}

size_t om_preset_group_list_count(const om_preset *preset)
{
    return preset ? preset->nlists : 0;
}

const char *om_preset_group_list_name(const om_preset *preset, size_t index)
{
    return preset && index < preset->nlists ? preset->lists[index].name : NULL;
}

om_status om_preset_group_list(const om_preset *preset, const char *name,
                               int32_t *out, size_t out_len, size_t *needed,
                               size_t *group_size, om_error *err)
{
    if (!preset || !name)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "preset or name is NULL");
    /* Only a size query (out_len 0) may pass no buffer: the ranks would be
     * written through NULL. */
    if (!out && out_len > 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "rank buffer is NULL but out_len is %zu", out_len);
    const omi_group_list *list = omi_preset_find_list(preset, name);
    if (!list) {
        char quoted[80];
        omi_quote(quoted, sizeof quoted, name, strlen(name));
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "preset %s has no group list %s", preset->name, quoted);
    }
    size_t total = list->count * list->size;
    if (needed)
        *needed = total;
    if (group_size)
        *group_size = list->size;
    if (out_len < total)
        return omi_fail(err, OM_ERR_BUFFER_TOO_SMALL,
                        "group list %s needs %zu ranks, the buffer holds %zu",
                        list->name, total, out_len);
    omi_group_list_write(list, 0, (int64_t)total, out);
    return OM_OK;
}
