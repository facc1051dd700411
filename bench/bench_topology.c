/* Benchmark: all groups along each axis of a 2^20-rank 4-axis mesh, timed
 * against a memcpy of the same number of bytes in the same run, and the
 * per-call cost of build_offline_mesh + canonical JSON. Prints ratios;
 * never a pass/fail (machines are noisy). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "offline_mesh.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Best of `reps` runs: the least disturbed by other work on the machine. */
#define BEST_OF(reps, seconds, body)                                          \
    do {                                                                      \
        seconds = 1e30;                                                       \
        for (int rep_ = 0; rep_ < (reps); rep_++) {                           \
            double t0_ = now();                                               \
            body;                                                             \
            double dt_ = now() - t0_;                                         \
            if (dt_ < seconds)                                                \
                seconds = dt_;                                                \
        }                                                                     \
    } while (0)

int main(void)
{
    const char *names[] = {"pp", "dp", "cp", "tp"};
    const int64_t sizes[] = {4, 8192, 4, 8}; /* 2^20 ranks */
    om_error e;
    om_mesh *mesh;
    if (om_mesh_new(names, sizes, 4, &mesh, &e) != OM_OK) {
        fprintf(stderr, "bench: %s\n", e.message);
        return 1;
    }
    size_t n = (size_t)om_mesh_size(mesh);
    int32_t *out = malloc(n * sizeof *out);
    int32_t *src = malloc(n * sizeof *src);
    int32_t *dst = malloc(n * sizeof *dst);
    if (!out || !src || !dst)
        return 1;
    for (size_t i = 0; i < n; i++)
        src[i] = (int32_t)i;
    memset(out, 0, n * sizeof *out);
    memset(dst, 0, n * sizeof *dst);

    double t_copy;
    BEST_OF(50, t_copy, memcpy(dst, src, n * sizeof *src));
    printf("mesh pp=4,dp=8192,cp=4,tp=8 (%zu ranks, %zu bytes per pass)\n", n,
           n * sizeof(int32_t));
    printf("memcpy of the same bytes: %.3f ms\n", t_copy * 1e3);
    double worst = 0;
    for (int axis = 0; axis < 4; axis++) {
        uint64_t mask = UINT64_C(1) << axis;
        int64_t count, size;
        if (om_mesh_group_shape(mesh, mask, &count, &size, &e) != OM_OK)
            return 1;
        double t;
        om_status st = OM_OK;
        BEST_OF(50, t, st = om_mesh_groups(mesh, mask, 0, count, out, n, &e));
        if (st != OM_OK) {
            fprintf(stderr, "bench: %s\n", e.message);
            return 1;
        }
        double ratio = t / t_copy;
        worst = ratio > worst ? ratio : worst;
        printf("groups over %-2s (%7lld x %5lld): %.3f ms  ratio to memcpy %.2f\n",
               names[axis], (long long)count, (long long)size, t * 1e3, ratio);
    }
    printf("worst ratio groups/memcpy: %.2f (target <= 2.0)\n", worst);

    /* build_offline_mesh + canonical JSON, per call. */
    om_dims *dims;
    if (om_dims_new(&dims, &e) != OM_OK ||
        om_dims_set(dims, OM_DIM_DP, 8, &e) != OM_OK ||
        om_dims_set(dims, OM_DIM_TP, 8, &e) != OM_OK ||
        om_dims_set(dims, OM_DIM_PP, 4, &e) != OM_OK)
        return 1;
    const int calls = 200000;
    double t_build;
    size_t total_len = 0;
    BEST_OF(5, t_build, {
        for (int i = 0; i < calls; i++) {
            om_mesh *m;
            char *json;
            if (om_build_offline_mesh(dims, &m, &e) != OM_OK ||
                om_mesh_to_json(m, &json, &e) != OM_OK)
                return 1;
            total_len += strlen(json);
            om_string_free(json);
            om_mesh_free(m);
        }
    });
    printf("build_offline_mesh + to_json: %.0f ns per call (%zu bytes written)\n",
           t_build / calls * 1e9, total_len);
    double t_only;
    BEST_OF(5, t_only, {
        for (int i = 0; i < calls; i++) {
            om_mesh *m;
            if (om_build_offline_mesh(dims, &m, &e) != OM_OK)
                return 1;
            om_mesh_free(m);
        }
    });
    printf("build_offline_mesh alone:     %.0f ns per call\n", t_only / calls * 1e9);
    om_dims_free(dims);
    om_mesh_free(mesh);
    free(out);
    free(src);
    free(dst);
    return 0;
}
