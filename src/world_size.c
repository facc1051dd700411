/* World size discovery from the launcher's environment. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* First to last: torchrun, Open MPI, MPICH / Intel MPI, Slurm. */
static const char *const sources[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE",
                                      "PMI_SIZE", "SLURM_NTASKS"};

om_status om_world_size_from_env(int64_t *world_size, bool *found,
                                 om_error *err)
{
    if (!world_size || !found)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *world_size = 1;
    *found = false;
    for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++) {
        const char *value = getenv(sources[i]);
        if (!value)
            continue;
        size_t len = strlen(value);
        const char *start = value;
        /* Tolerate surrounding whitespace, as int() in Python does. */
        while (len > 0 && strchr(" \t\n\v\f\r", *start)) {
            start++;
            len--;
        }
        while (len > 0 && strchr(" \t\n\v\f\r", start[len - 1]))
            len--;
        int64_t parsed;
        char quoted[80];
        omi_quote(quoted, sizeof quoted, value, strlen(value));
        if (!omi_parse_decimal(start, len, &parsed) || parsed < 1)
            return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                            "environment variable %s=%s is not a positive "
                            "integer", sources[i], quoted);
        if (parsed > OMI_MAX_INT32)
            return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                            "environment variable %s=%s exceeds 2147483647",
                            sources[i], quoted);
        *world_size = parsed;
        *found = true;
        return OM_OK;
    }
    return OM_OK;
}
