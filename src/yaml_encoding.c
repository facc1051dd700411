/* Configs are read as UTF-8 (or UTF-16 with a byte-order mark, which
 * libyaml decodes). A UTF-32 file, or UTF-16 without its mark, would reach
 * libyaml's reader as "control characters" at byte 0: name the encoding
 * instead, and what to do about it. */
#include <string.h>

#include "internal.h"
#include "yaml_tree.h"

static om_status wrong_encoding(om_error *err, const char *encoding)
{
    return omi_fail(err, OM_ERR_PARSE,
                    "the text is %s, not UTF-8: save it as UTF-8 (e.g. iconv "
                    "-f %s -t UTF-8)", encoding,
                    strncmp(encoding, "UTF-32", 6) == 0 ? "UTF-32" : "UTF-16");
}

om_status omi_yaml_check_encoding(const char *text, size_t length, om_error *err)
{
    const unsigned char *b = (const unsigned char *)text;
    /* The byte patterns of YAML 1.2's encoding detection (5.2): a
     * byte-order mark, or the zero bytes around an ASCII first character. */
    if (length >= 4 && b[0] == 0 && b[1] == 0 &&
        ((b[2] == 0xFE && b[3] == 0xFF) || b[2] == 0))
        return wrong_encoding(err, "UTF-32 (big-endian)");
    if (length >= 4 && b[1] == 0 && b[2] == 0 && b[3] == 0 &&
        (b[0] != 0 || length == 4))
        return wrong_encoding(err, "UTF-32 (little-endian)");
    if (length >= 4 && b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0)
        return wrong_encoding(err, "UTF-32 (little-endian)");
    bool bom16 = length >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) ||
                                 (b[0] == 0xFE && b[1] == 0xFF));
    if (!bom16 && length >= 2 && b[0] == 0 && b[1] != 0)
        return wrong_encoding(err, "UTF-16 (big-endian) without a byte-order mark");
    if (!bom16 && length >= 2 && b[0] != 0 && b[1] == 0)
        return wrong_encoding(err, "UTF-16 (little-endian) without a byte-order mark");
    return OM_OK;
}
