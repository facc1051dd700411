/* Benchmark of the CLI's large outputs, from one run:
 *   1. `offline-mesh groups` at 2^24 ranks (and an awkward shape of about
 *      the same size) over each axis, writing to a file, against the
 *      cheapest honest baseline: the library call that computes the same
 *      groups plus writing the very same JSON bytes (read back from the
 *      CLI's output) from a prepared buffer to the same file. Target:
 *      CLI <= 3x the baseline.
 *   2. `offline-mesh dump` of 2^24 ranks with the default axis sets, read
 *      through a pipe: total bytes, bytes per rank per axis set (target:
 *      at most about 200) and throughput.
 * Prints ratios; never a pass/fail (machines are noisy).
 *
 *   build/bench/bench-cli [--quick] [CLI]   (--quick: skip the dump; CLI
 *   defaults to the offline-mesh built with this bench) */
#define _DEFAULT_SOURCE /* wait4 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "offline_mesh.h"

#ifndef OM_BENCH_CLI
#define OM_BENCH_CLI "offline-mesh"
#endif

#define REPS 3

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double rusage_seconds(const struct rusage *ru)
{
    return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec * 1e-6 +
           (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec * 1e-6;
}

/* CPU seconds (user + system) of the last child waited for. */
static double child_cpu;

/* Runs `argv` with stdout on `out_fd`; returns its exit status or -1. */
static int run_cli(char *const argv[], int out_fd)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (dup2(out_fd, STDOUT_FILENO) < 0)
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status))
        return -1;
    child_cpu = rusage_seconds(&ru);
    return WEXITSTATUS(status);
}

static int run_to_file(char *const argv[], const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return -1;
    int rc = run_cli(argv, fd);
    close(fd);
    return rc;
}

static char *read_file(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (buf && got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    *len = got;
    return buf;
}

static int write_all(const char *path, const char *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return -1;
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n <= 0) {
            close(fd);
            return -1;
        }
        data += n;
        len -= (size_t)n;
    }
    return close(fd);
}

static double worst_groups = 0, worst_cpu = 0;

static int bench_groups(const char *cli, const char *spec, const char *path)
{
    om_error e;
    om_mesh *mesh;
    if (om_mesh_from_spec(spec, &mesh, &e) != OM_OK) {
        fprintf(stderr, "bench: %s\n", e.message);
        return -1;
    }
    size_t n = (size_t)om_mesh_size(mesh);
    int32_t *out = malloc(n * sizeof *out);
    if (!out)
        return -1;
    memset(out, 0, n * sizeof *out);
    printf("groups --mesh %s (%zu ranks), output to a file:\n", spec, n);
    for (size_t axis = 0; axis < om_mesh_ndim(mesh); axis++) {
        const char *name = om_mesh_name(mesh, axis);
        char cli_arg[4096], spec_arg[256], name_arg[256];
        snprintf(cli_arg, sizeof cli_arg, "%s", cli);
        snprintf(spec_arg, sizeof spec_arg, "%s", spec);
        snprintf(name_arg, sizeof name_arg, "%s", name);
        char groups[] = "groups", mesh_opt[] = "--mesh", dims_opt[] = "--dims";
        char *argv[] = {cli_arg, groups, mesh_opt, spec_arg, dims_opt, name_arg, NULL};
        double t_cli = 1e30, t_lib = 1e30, t_write = 1e30;
        double cpu_cli = 1e30, cpu_base = 1e30;
        size_t len = 0;
        char *json = NULL;
        for (int rep = 0; rep < REPS; rep++) {
            double t0 = now();
            if (run_to_file(argv, path) != 0) {
                fprintf(stderr, "bench: %s groups failed\n", cli);
                return -1;
            }
            double t1 = now();
            t_cli = t1 - t0 < t_cli ? t1 - t0 : t_cli;
            cpu_cli = child_cpu < cpu_cli ? child_cpu : cpu_cli;
            if (!json && !(json = read_file(path, &len)))
                return -1;
            /* The baseline: compute the same groups, then write the same
             * bytes from memory to the same file. */
            int64_t count, size;
            volatile int32_t sink;
            double c2 = cpu_now();
            double t2 = now();
            if (om_mesh_group_shape(mesh, UINT64_C(1) << axis, &count, &size, &e) != OM_OK ||
                om_mesh_groups(mesh, UINT64_C(1) << axis, 0, count, out, n, &e) != OM_OK)
                return -1;
            sink = out[(size_t)rep % n];
            (void)sink;
            double t3 = now();
            if (write_all(path, json, len) != 0)
                return -1;
            double t4 = now();
            double c4 = cpu_now();
            cpu_base = c4 - c2 < cpu_base ? c4 - c2 : cpu_base;
            t_lib = t3 - t2 < t_lib ? t3 - t2 : t_lib;
            t_write = t4 - t3 < t_write ? t4 - t3 : t_write;
        }
        double ratio = t_cli / (t_lib + t_write);
        worst_groups = ratio > worst_groups ? ratio : worst_groups;
        worst_cpu = cpu_cli / cpu_base > worst_cpu ? cpu_cli / cpu_base : worst_cpu;
        printf("  over %-3s: %5.1f MB  cli %6.1f ms  library %5.1f ms + write %5.1f ms"
               "  ratio %.2f  (cpu: cli %5.1f ms, baseline %5.1f ms, ratio %.2f)\n",
               name, (double)len / 1e6, t_cli * 1e3, t_lib * 1e3, t_write * 1e3,
               ratio, cpu_cli * 1e3, cpu_base * 1e3, cpu_cli / cpu_base);
        free(json);
    }
    free(out);
    om_mesh_free(mesh);
    return 0;
}

/* dump through a pipe, counting bytes. */
static int bench_dump(const char *cli, const char *spec)
{
    om_error e;
    om_mesh *mesh;
    if (om_mesh_from_spec(spec, &mesh, &e) != OM_OK)
        return -1;
    int64_t ranks = om_mesh_size(mesh);
    size_t sets = om_mesh_ndim(mesh);
    om_mesh_free(mesh);
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fds[0]);
        char cli_arg[4096], spec_arg[256], dump[] = "dump", mesh_opt[] = "--mesh";
        snprintf(cli_arg, sizeof cli_arg, "%s", cli);
        snprintf(spec_arg, sizeof spec_arg, "%s", spec);
        char *argv[] = {cli_arg, dump, mesh_opt, spec_arg, NULL};
        if (dup2(fds[1], STDOUT_FILENO) < 0)
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    static char buf[1 << 20];
    uint64_t total = 0, lines = 0;
    for (;;) {
        ssize_t got = read(fds[0], buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        for (ssize_t i = 0; i < got; i++)
            lines += buf[i] == '\n';
        total += (uint64_t)got;
    }
    close(fds[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0)
        return -1;
    double t = now() - t0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench: dump failed\n");
        return -1;
    }
    printf("dump --mesh %s (%lld ranks, %zu default axis sets), through a pipe:\n",
           spec, (long long)ranks, sets);
    printf("  %llu lines, %.2f GB in %.1f s wall, %.1f s cpu (%.0f MB/s of cpu); "
           "%.1f bytes per rank, %.1f per rank per axis set (target <= 200)\n",
           (unsigned long long)lines, (double)total / 1e9, t, rusage_seconds(&ru),
           (double)total / rusage_seconds(&ru) / 1e6, (double)total / (double)ranks,
           (double)total / (double)ranks / (double)sets);
    return 0;
}

int main(int argc, char **argv)
{
    bool quick = false;
    const char *cli = OM_BENCH_CLI;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = true;
        else
            cli = argv[i];
    }
    char path[] = "/tmp/bench-cli-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("bench: mkstemp");
        return 1;
    }
    close(fd);
    int rc = bench_groups(cli, "pp=8,dp=256,cp=8,tp=1024", path);
    if (rc == 0)
        rc = bench_groups(cli, "dp=2,tp=8388593", path);
    unlink(path);
    if (rc == 0)
        printf("worst ratio cli/(library + write): %.2f wall (target <= 3.0), "
               "%.2f cpu\n", worst_groups, worst_cpu);
    if (rc == 0 && !quick)
        rc = bench_dump(cli, "pp=8,dp=256,cp=8,tp=1024");
    return rc == 0 ? 0 : 1;
}
