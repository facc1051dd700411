/* Canonical JSON writing: the builder and the string spelling live in the
 * utility layer (src/util/str.c, json.c), written by hand because
 * jansson's dumper silently drops pieces when an allocation fails; reading
 * JSON stays with jansson. */
#include "internal.h"

om_status omi_buf_finish(omi_buf *buf, char **out, om_error *err)
{
    char *text = omu_str_detach(buf, NULL);
    if (!text)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory writing JSON");
    *out = text;
    return OM_OK;
}
