/* JSON writing for the CLI's outputs, spelled like the library's canonical
 * JSON (no spaces, non-ASCII escaped), streamed so huge meshes need no
 * whole-result buffer. */
#include <string.h>

#include "cli_internal.h"

static void write_escape(FILE *out, unsigned code)
{
    fprintf(out, "\\u%04x", code);
}

void cli_json_string(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', out);
    while (*p) {
        unsigned c = *p;
        if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc((int)c, out);
            p++;
        } else if (c == '\n') {
            fputs("\\n", out);
            p++;
        } else if (c == '\t') {
            fputs("\\t", out);
            p++;
        } else if (c == '\r') {
            fputs("\\r", out);
            p++;
        } else if (c == '\b') {
            fputs("\\b", out);
            p++;
        } else if (c == '\f') {
            fputs("\\f", out);
            p++;
        } else if (c < 0x20 || c == 0x7F) {
            write_escape(out, c);
            p++;
        } else if (c < 0x80) {
            fputc((int)c, out);
            p++;
        } else {
            /* Names are valid UTF-8 (the library checks): decode one. */
            unsigned extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
            unsigned code = c & (0x3F >> extra);
            for (unsigned k = 1; k <= extra && p[k]; k++)
                code = (code << 6) | (p[k] & 0x3F);
            p += extra + 1;
            if (code >= 0x10000) {
                code -= 0x10000;
                write_escape(out, 0xD800 + (code >> 10));
                write_escape(out, 0xDC00 + (code & 0x3FF));
            } else {
                write_escape(out, code);
            }
        }
    }
    fputc('"', out);
}

void cli_json_int_array(FILE *out, const int32_t *values, int64_t count)
{
    char buf[8192];
    size_t o = 0;
    buf[o++] = '[';
    for (int64_t i = 0; i < count; i++) {
        if (o > sizeof buf - 16) {
            fwrite(buf, 1, o, out);
            o = 0;
        }
        if (i)
            buf[o++] = ',';
        char digits[12];
        int n = 0;
        uint32_t v = (uint32_t)values[i];
        do {
            digits[n++] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        while (n)
            buf[o++] = digits[--n];
    }
    buf[o++] = ']';
    fwrite(buf, 1, o, out);
}

void cli_json_name_list(FILE *out, const char *csv)
{
    fputc('[', out);
    const char *p = csv;
    bool first = true;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), p);
        if (!first)
            fputc(',', out);
        cli_json_string(out, name);
        first = false;
        p += len + (end ? 1 : 0);
    }
    fputc(']', out);
}

void cli_sorted_axes(const om_mesh *mesh, size_t *order)
{
    size_t n = om_mesh_ndim(mesh);
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        while (j > 0 && strcmp(om_mesh_name(mesh, order[j - 1]),
                               om_mesh_name(mesh, i)) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
}
