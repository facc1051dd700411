/* Admission checks of a launch: every violation at once, one line each. */
#include <stdio.h>
#include <string.h>

#include "hierarchy_internal.h"
#include "launch_internal.h"
#include "offline_mesh/launch.h"

/* `text` may hold a name cut at a byte limit ("%.60s"), possibly inside a
 * UTF-8 sequence: repaired so that every line stays valid UTF-8. */
static void violation(omi_buf *out, size_t *count, char *text)
{
    omi_utf8_repair(text);
    omi_buf_puts(out, text);
    omi_buf_puts(out, "\n");
    (*count)++;
}

/* The checks of an explicit level (its domains come from a file), made
 * when the hierarchy describes exactly the job's ranks: node K holds ranks
 * K*P .. K*P+P-1, so a node whose ranks are in two domains straddles them,
 * and a host domain must be exactly one node. One line per level: the
 * first offending node. */
static void check_explicit(const om_hierarchy *h, const omi_level *lv,
                           bool host, int64_t nproc, omi_buf *out,
                           size_t *count)
{
    char line[400], a[48], b[48];
    for (int64_t start = 0; start < h->nranks; start += nproc) {
        int32_t d = lv->domain[start];
        omi_quote(a, sizeof a, lv->labels[d], strlen(lv->labels[d]));
        for (int64_t r = start + 1; r < start + nproc; r++) {
            if (lv->domain[r] == d)
                continue;
            const char *other = lv->labels[lv->domain[r]];
            omi_quote(b, sizeof b, other, strlen(other));
            snprintf(line, sizeof line,
                     "level %.60s: node %lld (ranks %lld..%lld) straddles %.60s "
                     "domains %s and %s",
                     lv->name, (long long)(start / nproc), (long long)start,
                     (long long)(start + nproc - 1), lv->name, a, b);
            violation(out, count, line);
            return;
        }
        /* A host domain reaching into the next node is larger than P. */
        if (host && start + nproc < h->nranks && lv->domain[start + nproc] == d) {
            snprintf(line, sizeof line,
                     "level host: domain %s holds ranks of nodes %lld and %lld, "
                     "but a host is one node of nproc_per_node %lld ranks",
                     a, (long long)(start / nproc),
                     (long long)(start / nproc + 1), (long long)nproc);
            violation(out, count, line);
            return;
        }
    }
}

/* The level checks: host size and nodes straddling slower domains. */
static void check_levels(const om_hierarchy *h, int64_t nnodes, int64_t nproc,
                         omi_buf *out, size_t *count)
{
    char line[256];
    bool after_host = false;
    /* Explicit levels can be checked only against the job's own ranks
     * (another number of ranks is a violation of its own). */
    bool explicit_ok = h->nranks > 0 && h->nranks / nproc == nnodes &&
                       h->nranks % nproc == 0;
    for (size_t l = 0; l < h->nlevels; l++) {
        const omi_level *lv = &h->levels[l];
        int64_t k = lv->ranks_per_domain;
        bool host = strcmp(lv->name, "host") == 0;
        if (k == 0 && explicit_ok && (host || after_host))
            check_explicit(h, lv, host, nproc, out, count);
        if (host) {
            after_host = true;
            if (k > 0 && k != nproc) {
                snprintf(line, sizeof line,
                         "level host has %lld ranks per domain but "
                         "nproc_per_node is %lld", (long long)k, (long long)nproc);
                violation(out, count, line);
            }
            continue;
        }
        if (after_host && k > 0 && k % nproc != 0) {
            snprintf(line, sizeof line,
                     "level %.60s has %lld ranks per domain, not a multiple of "
                     "nproc_per_node %lld: node %lld straddles two %.60s domains",
                     lv->name, (long long)k, (long long)nproc,
                     (long long)(k / nproc), lv->name);
            violation(out, count, line);
        }
    }
}

om_status om_launch_check(const om_mesh *mesh, const om_hierarchy *hierarchy,
                          int64_t nnodes, int64_t nproc, const char *rules,
                          char **violations, size_t *count, om_error *err)
{
    if (!violations || !count)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *violations = NULL;
    *count = 0;
    if (!mesh)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "mesh is NULL");
    if (omi_launch_whole_job(mesh, err) != OM_OK)
        return OM_ERR_INVALID_ARGUMENT;
    if (nnodes < 1 || nproc < 1 || nproc > OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                        "%s must be 1..2147483647, got %lld",
                        nnodes < 1 ? "nnodes" : "nproc_per_node",
                        (long long)(nnodes < 1 ? nnodes : nproc));
    om_hierarchy *own = NULL;
    const om_hierarchy *h = hierarchy;
    om_status st = OM_OK;
    if (!h) {
        char spec[40];
        snprintf(spec, sizeof spec, "host=%lld", (long long)nproc);
        st = om_hierarchy_from_spec(spec, &own, err);
        h = own;
    }
    omi_buf out = {0};
    omi_buf_puts(&out, "");
    size_t n = 0;
    char line[256];
    int64_t size = om_mesh_size(mesh);
    if (st == OM_OK && (nnodes > size || nnodes * nproc != size)) {
        /* nnodes has no upper bound here (too many is a violation): a
         * product past int64 is named, not computed (signed overflow). */
        int w = snprintf(line, sizeof line,
                         "world size %lld (the mesh) is not nnodes*nproc_per_node"
                         " = %lld*%lld", (long long)size, (long long)nnodes,
                         (long long)nproc);
        if (nnodes > INT64_MAX / nproc)
            snprintf(line + w, sizeof line - (size_t)w, ", over 2^63-1");
        else
            snprintf(line + w, sizeof line - (size_t)w, " = %lld",
                     (long long)(nnodes * nproc));
        violation(&out, &n, line);
    }
    if (st == OM_OK)
        check_levels(h, nnodes, nproc, &out, &n);
    if (st == OM_OK && h->nranks > 0 && h->nranks != size) {
        snprintf(line, sizeof line,
                 "the hierarchy describes %lld ranks but the mesh has %lld",
                 (long long)h->nranks, (long long)size);
        violation(&out, &n, line);
    } else if (st == OM_OK && rules) {
        char *broken = NULL;
        size_t nbroken = 0;
        st = om_hierarchy_check(mesh, h, rules, &broken, &nbroken, err);
        if (st == OM_OK) {
            omi_buf_puts(&out, broken);
            n += nbroken;
        }
        om_string_free(broken);
    }
    om_hierarchy_free(own);
    if (st == OM_OK)
        st = omi_buf_finish(&out, violations, err);
    else
        omi_free(out.data);
    if (st == OM_OK)
        *count = n;
    return st;
}
