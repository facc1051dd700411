/* The one rule of every bulk output (T *out, size_t out_len, size_t
 * *needed): the needed length is always reported; a NULL buffer of length
 * 0 with `needed` given is a size query; a shorter buffer is refused,
 * naming both lengths. */
#include "internal.h"

om_status omi_check_output(const void *out, size_t out_len, size_t count,
                           size_t *needed, bool *fill, om_error *err)
{
    *fill = false;
    if (needed)
        *needed = count;
    if (count > out_len) {
        if (!out && out_len == 0 && needed)
            return OM_OK;
        return omi_fail(err, OM_ERR_BUFFER_TOO_SMALL,
                        "the result needs %zu elements but the buffer holds %zu",
                        count, out_len);
    }
    if (!out && count > 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "output buffer is NULL");
    *fill = count > 0;
    return OM_OK;
}
