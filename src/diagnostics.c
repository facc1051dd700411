/* The list of diagnostics a strict config read returns (config.h). It is
 * a fixed array: a config gives at most OMI_DIAGNOSTICS_CAP of them, so
 * filling it never allocates and never fails. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diagnostics.h"

om_status om_diagnostics_new(om_diagnostics **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = omi_malloc(sizeof **out);
    if (!*out)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory creating diagnostics");
    (*out)->count = 0;
    return OM_OK;
}

void om_diagnostics_free(om_diagnostics *diagnostics) { omi_free(diagnostics); }

size_t om_diagnostics_count(const om_diagnostics *diagnostics)
{
    return diagnostics ? diagnostics->count : 0;
}

static const omi_diagnostic *item_at(const om_diagnostics *list, size_t index)
{
    return list && index < list->count ? &list->items[index] : NULL;
}

om_status om_diagnostics_message(const om_diagnostics *diagnostics, size_t index,
                                 char **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!diagnostics)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "diagnostics is NULL");
    const omi_diagnostic *item = item_at(diagnostics, index);
    if (!item)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "diagnostic %zu does not exist: the list holds %zu", index,
                        diagnostics->count);
    omi_buf buf = {0};
    omi_buf_puts(&buf, item->text.message);
    return omi_buf_finish(&buf, out, err);
}

int om_diagnostics_kind(const om_diagnostics *diagnostics, size_t index)
{
    const omi_diagnostic *item = item_at(diagnostics, index);
    return item ? (int)item->kind : -1;
}

int64_t om_diagnostics_line(const om_diagnostics *diagnostics, size_t index)
{
    const omi_diagnostic *item = item_at(diagnostics, index);
    return item ? item->line : -1;
}

void omi_diagnostics_add(om_diagnostics *list, om_diagnostic_kind kind,
                         int64_t line, const char *fmt, ...)
{
    if (!list || list->count == OMI_DIAGNOSTICS_CAP)
        return;
    omi_diagnostic *item = &list->items[list->count++];
    item->kind = kind;
    item->line = line;
    va_list args;
    va_start(args, fmt);
    omu_vfail(&item->text, OM_ERR_PARSE, fmt, args);
    va_end(args);
}

void omi_diagnostics_prefix_path(om_diagnostics *list, const char *path)
{
    for (size_t i = 0; list && i < list->count; i++)
        omi_prefix_path(&list->items[i].text, OM_ERR_PARSE, path);
}
