/* jansson 2.14, as the library called it before src/json_read.c. */
#include <jansson.h>
#include <stdio.h>

#include "probe.h"

int probe_parse(const char *text, size_t len, char *out, size_t size)
{
    json_error_t e;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &e);
    probe_parsed();
    if (!root) {
        snprintf(out, size, "%s", e.text);
        /* As the library read it: some failed allocations leave no text. */
        return json_error_code(&e) == json_error_out_of_memory || !e.text[0] ? 2 : 1;
    }
    char *s = json_dumps(root, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    snprintf(out, size, "%s", s ? s : "(dump failed)");
    free(s);
    json_decref(root);
    return 0;
}
