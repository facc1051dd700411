// simdjson 3.0.1 (C++), DOM parser; duplicate keys and values printed by
// simdjson's own minifier.
#include <simdjson.h>
#include <cstdio>

#include "probe.h"

extern "C" int probe_parse(const char *text, size_t len, char *out, size_t size)
{
    try {
        simdjson::dom::parser parser;
        simdjson::dom::element root;
        auto error = parser.parse(text, len).get(root);
        probe_parsed();
        if (error) {
            snprintf(out, size, "%s", simdjson::error_message(error));
            return error == simdjson::MEMALLOC ? 2 : 1;
        }
        std::string s = simdjson::minify(root);
        snprintf(out, size, "%s", s.c_str());
        return 0;
    } catch (const std::bad_alloc &) {
        snprintf(out, size, "std::bad_alloc");
        return 2;
    }
}
