/* json-c 0.16, strict mode with UTF-8 validation; trailing bytes checked
 * by the caller, as the library would have to. */
#include <json-c/json.h>
#include <stdio.h>

#include "probe.h"

int probe_parse(const char *text, size_t len, char *out, size_t size)
{
    struct json_tokener *tok = json_tokener_new_ex(2048);
    if (!tok) {
        snprintf(out, size, "json_tokener_new_ex failed");
        return 2;
    }
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    json_object *root = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error e = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    probe_parsed();
    int rc = 0;
    if (!root) {
        /* json-c 0.16 has no out-of-memory error code; NULL with "success"
         * is the only sign of one. */
        snprintf(out, size, "%s", json_tokener_error_desc(e));
        rc = e == json_tokener_success ? 2 : 1;
    } else if (end < len) {
        snprintf(out, size, "trailing bytes at %zu", end);
        rc = 1;
    } else {
        const char *s = json_object_to_json_string_ext(
            root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
        snprintf(out, size, "%s", s ? s : "(dump failed)");
    }
    json_object_put(root);
    json_tokener_free(tok);
    return rc;
}
