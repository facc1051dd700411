/* cJSON 1.7.15; trailing bytes checked through return_parse_end. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "probe.h"

int probe_parse(const char *text, size_t len, char *out, size_t size)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    probe_parsed();
    if (!root) {
        snprintf(out, size, "error at byte %td", end ? end - text : -1);
        return 1;
    }
    int rc = 0;
    if ((size_t)(end - text) < len) {
        snprintf(out, size, "trailing bytes at %td", end - text);
        rc = 1;
    } else {
        char *s = cJSON_PrintUnformatted(root);
        snprintf(out, size, "%s", s ? s : "(print failed)");
        free(s);
    }
    cJSON_Delete(root);
    return rc;
}
