/* JSON writing for the CLI's outputs, spelled like the library's canonical
 * JSON (no spaces, non-ASCII escaped), through the buffered writer of
 * src/util so huge outputs stream at memory speed and a write error stops
 * the command at once. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli_internal.h"

void cli_writer_start(const cli_io *io, omu_writer *w, char *storage,
                      size_t size)
{
    /* Whatever earlier code left in the stream goes out first. */
    fflush(io->out);
    omu_writer_init(w, io->out, storage, size);
}

int cli_writer_finish(const cli_io *io, omu_writer *w, int rc)
{
    int error = omu_writer_flush(w);
    if (error != 0 && rc == CLI_OK)
        return cli_error(io, CLI_FAILED, "cannot write the output: %s",
                         strerror(error));
    return rc;
}

bool cli_output_failed(const cli_io *io)
{
    errno = 0;
    bool flushed = fflush(io->out) == 0;
    int error = errno;
    if (flushed && !ferror(io->out))
        return false;
    /* A write that failed earlier left only the stream's error flag. */
    if (!flushed && error != 0)
        cli_error(io, CLI_FAILED, "cannot write the output: %s", strerror(error));
    else
        cli_error(io, CLI_FAILED, "cannot write the output");
    return true;
}

void cli_json_string(FILE *out, const char *s)
{
    char storage[256];
    omu_writer w;
    omu_writer_init(&w, out, storage, sizeof storage);
    omu_write_json_string(&w, s);
    omu_writer_flush(&w);
}

void cli_json_int_array(FILE *out, const int32_t *values, int64_t count)
{
    char storage[4096];
    omu_writer w;
    omu_writer_init(&w, out, storage, sizeof storage);
    omu_write_int_array(&w, values, count > 0 ? (size_t)count : 0);
    omu_writer_flush(&w);
}

void cli_json_name_list(FILE *out, const char *csv)
{
    char storage[256];
    omu_writer w;
    omu_writer_init(&w, out, storage, sizeof storage);
    omu_write_char(&w, '[');
    const char *p = csv;
    bool first = true;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), p);
        if (!first)
            omu_write_char(&w, ',');
        omu_write_json_string(&w, name);
        first = false;
        p += len + (end ? 1 : 0);
    }
    omu_write_char(&w, ']');
    omu_writer_flush(&w);
}

typedef struct {
    const om_mesh *mesh;
    size_t index;
} named_axis;

static int by_name(const void *a, const void *b)
{
    const named_axis *x = a, *y = b;
    int c = strcmp(om_mesh_name(x->mesh, x->index), om_mesh_name(y->mesh, y->index));
    /* Names are unique in a mesh; the index keeps the order total. */
    return c != 0 ? c : (x->index > y->index) - (x->index < y->index);
}

int cli_sorted_axes(const om_mesh *mesh, size_t *order)
{
    size_t n = om_mesh_ndim(mesh);
    named_axis *axes = malloc((n ? n : 1) * sizeof *axes);
    if (!axes)
        return -1;
    for (size_t i = 0; i < n; i++)
        axes[i] = (named_axis){mesh, i};
    qsort(axes, n, sizeof *axes, by_name);
    for (size_t i = 0; i < n; i++)
        order[i] = axes[i].index;
    free(axes);
    return 0;
}
