/* The world size as its own step: resolving it (explicit, the launcher's
 * environment, else 1) and telling where it came from. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The table of om_world_size_source. Environment sources are listed in
 * the order they are read: torchrun, Open MPI, MPICH / Intel MPI, Slurm. */
typedef struct {
    const char *variable; /* NULL unless read from the environment */
    const char *text;     /* how messages name the source */
} source_entry;

static const source_entry sources[] = {
    [OM_WORLD_SIZE_UNRESOLVED] = {NULL, "not resolved"},
    [OM_WORLD_SIZE_EXPLICIT] = {NULL, "given explicitly"},
    [OM_WORLD_SIZE_FROM_WORLD_SIZE] = {"WORLD_SIZE", "from WORLD_SIZE"},
    [OM_WORLD_SIZE_FROM_OMPI_COMM_WORLD_SIZE] = {"OMPI_COMM_WORLD_SIZE",
                                                 "from OMPI_COMM_WORLD_SIZE"},
    [OM_WORLD_SIZE_FROM_PMI_SIZE] = {"PMI_SIZE", "from PMI_SIZE"},
    [OM_WORLD_SIZE_FROM_SLURM_NTASKS] = {"SLURM_NTASKS", "from SLURM_NTASKS"},
    [OM_WORLD_SIZE_DEFAULT] = {NULL, "the default: no --world-size and none of "
                                     "WORLD_SIZE, OMPI_COMM_WORLD_SIZE, "
                                     "PMI_SIZE, SLURM_NTASKS is set"},
};
_Static_assert(sizeof sources / sizeof sources[0] == OM_WORLD_SIZE_SOURCE_COUNT,
               "every world-size source has an entry");

static const source_entry *entry_of(om_world_size_source source)
{
    unsigned code = (unsigned)source;
    return code < OM_WORLD_SIZE_SOURCE_COUNT ? &sources[code] : NULL;
}

const char *om_world_size_source_string(om_world_size_source source)
{
    const source_entry *entry = entry_of(source);
    return entry ? entry->text : NULL;
}

const char *om_world_size_source_variable(om_world_size_source source)
{
    const source_entry *entry = entry_of(source);
    return entry ? entry->variable : NULL;
}

/* Reads one variable: *set false when it is unset. */
static om_status read_variable(const char *name, int64_t *value, bool *set,
                               om_error *err)
{
    const char *text = getenv(name);
    *set = text != NULL;
    if (!text)
        return OM_OK;
    size_t len = strlen(text);
    const char *start = text;
    /* Tolerate surrounding whitespace, as int() in Python does. */
    while (len > 0 && strchr(" \t\n\v\f\r", *start)) {
        start++;
        len--;
    }
    while (len > 0 && strchr(" \t\n\v\f\r", start[len - 1]))
        len--;
    int64_t parsed;
    char quoted[80];
    omi_quote(quoted, sizeof quoted, text, strlen(text));
    if (!omi_parse_decimal(start, len, &parsed) || parsed < 1)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "environment variable %s=%s is not a positive "
                        "integer", name, quoted);
    if (parsed > OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "environment variable %s=%s exceeds 2147483647", name,
                        quoted);
    *value = parsed;
    return OM_OK;
}

om_status om_world_size_resolve(int64_t explicit_size, int64_t *world_size,
                                om_world_size_source *source, om_error *err)
{
    if (!world_size)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    if (explicit_size < 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "world size must be >= 1 (or 0 to discover it), got %lld",
                        (long long)explicit_size);
    if (explicit_size > OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "world size %lld exceeds 2147483647",
                        (long long)explicit_size);
    om_world_size_source found = OM_WORLD_SIZE_EXPLICIT;
    int64_t value = explicit_size;
    if (explicit_size == 0) {
        found = OM_WORLD_SIZE_DEFAULT;
        value = 1;
        for (int s = 0; s < OM_WORLD_SIZE_SOURCE_COUNT; s++) {
            if (!sources[s].variable)
                continue;
            bool set;
            int64_t v = 0;
            om_status st = read_variable(sources[s].variable, &v, &set, err);
            if (st != OM_OK)
                return st;
            if (set) {
                found = (om_world_size_source)s;
                value = v;
                break;
            }
        }
    }
    *world_size = value;
    if (source)
        *source = found;
    return OM_OK;
}

om_status om_world_size_from_env(int64_t *world_size, bool *found,
                                 om_error *err)
{
    if (!world_size || !found)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *world_size = 1;
    *found = false;
    om_world_size_source source;
    int64_t value;
    om_status st = om_world_size_resolve(0, &value, &source, err);
    if (st == OM_OK) {
        *world_size = value;
        *found = source != OM_WORLD_SIZE_DEFAULT;
    }
    return st;
}
