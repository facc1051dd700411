/* Resolution of YAML 1.1 scalars (the rules PyYAML's safe loader uses). */
#ifndef OFFLINE_MESH_YAML_SCALAR_H
#define OFFLINE_MESH_YAML_SCALAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    OMI_YAML_NULL,
    OMI_YAML_BOOL,
    OMI_YAML_INT,
    OMI_YAML_FLOAT,
    OMI_YAML_STRING
} omi_yaml_kind;

typedef struct {
    omi_yaml_kind kind;
    bool boolean;    /* OMI_YAML_BOOL */
    int64_t integer; /* OMI_YAML_INT, saturated at INT64_MIN/INT64_MAX */
} omi_yaml_value;

/* Resolves a scalar. `tag` is its explicit tag in full form
 * ("tag:yaml.org,2002:int") or NULL when it had none; `plain` tells whether
 * it was written without quotes or block style (only untagged plain
 * scalars resolve by spelling). An explicit !!int / !!bool / !!null tag
 * whose text does not fit gives OMI_YAML_STRING, as does !!str. */
omi_yaml_value omi_yaml_resolve(const char *text, size_t len, const char *tag,
                                bool plain);

#endif
