/* Reading a whole file, bounded: regular files only (a FIFO would block
 * and a device never end), a size limit reported as an error. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static om_status fail_errno(om_error *err, int code, const char *what)
{
    char reason[128];
    if (code == ENOMEM)
        return omu_fail(err, OM_ERR_NO_MEMORY, "out of memory %s the file", what);
    if (strerror_r(code, reason, sizeof reason) != 0)
        snprintf(reason, sizeof reason, "error %d", code);
    return omu_fail(err, OM_ERR_IO, "cannot %s: %s", what, reason);
}

static const char *kind_of(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "not a regular file";
}

static void describe_limit(size_t limit, char *buf, size_t size)
{
    if (limit >= ((size_t)1 << 20) && limit % ((size_t)1 << 20) == 0)
        snprintf(buf, size, "%zu MiB", limit >> 20);
    else
        snprintf(buf, size, "%zu bytes", limit);
}

/* Reads until end of file or until more than `limit` bytes arrived. */
static om_status read_all(int fd, size_t limit, size_t hint, char **text,
                          size_t *length, om_error *err)
{
    size_t cap = (hint < limit ? hint : limit) + 2; /* +1 probe, +1 NUL */
    if (cap < 4096)
        cap = 4096;
    char *buf = omu_malloc(cap);
    if (!buf)
        return omu_fail(err, OM_ERR_NO_MEMORY, "out of memory reading the file");
    size_t len = 0;
    for (;;) {
        if (cap - len < 2) {
            size_t bigger_cap = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
            if (bigger_cap > limit + 2)
                bigger_cap = limit + 2;
            char *bigger = omu_realloc(buf, bigger_cap);
            if (!bigger) {
                omu_free(buf);
                return omu_fail(err, OM_ERR_NO_MEMORY,
                                "out of memory reading the file");
            }
            buf = bigger;
            cap = bigger_cap;
        }
        ssize_t n = read(fd, buf + len, cap - 1 - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int code = errno;
            omu_free(buf);
            return fail_errno(err, code, "read");
        }
        if (n == 0)
            break;
        len += (size_t)n;
        if (len > limit) {
            char shown[32];
            describe_limit(limit, shown, sizeof shown);
            omu_free(buf);
            return omu_fail(err, OM_ERR_IO, "file is larger than %s", shown);
        }
    }
    buf[len] = '\0';
    *text = buf;
    *length = len;
    return OM_OK;
}

om_status omu_file_read(const char *path, size_t limit, char **text,
                        size_t *length, om_error *err)
{
    *text = NULL;
    *length = 0;
    /* O_NONBLOCK: opening a FIFO without a writer would wait forever. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return fail_errno(err, errno, "open");
    struct stat info;
    if (fstat(fd, &info) != 0) {
        int code = errno;
        close(fd);
        return fail_errno(err, code, "open");
    }
    if (!S_ISREG(info.st_mode)) {
        close(fd);
        if (S_ISDIR(info.st_mode))
            return omu_fail(err, OM_ERR_IO, "is a directory, not a file");
        return omu_fail(err, OM_ERR_IO, "is %s, not a regular file",
                        kind_of(info.st_mode));
    }
    size_t hint = info.st_size > 0 ? (size_t)info.st_size : 0;
    om_status st = read_all(fd, limit, hint, text, length, err);
    close(fd);
    return st;
}

om_status omu_file_parse(const char *path, omu_parse_fn parse, void *ctx,
                         om_error *err)
{
    char *text = NULL;
    size_t length = 0;
    om_status st = omu_file_read(path, OMU_FILE_LIMIT, &text, &length, err);
    if (st == OM_OK)
        st = parse(text, length, ctx, err);
    omu_free(text);
    if (st != OM_OK)
        omu_prefix_path(err, st, path);
    return st;
}
