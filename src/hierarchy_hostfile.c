/* Explicit hierarchies from a hostfile: "NAME slots=N [LEVEL=ID ...]" or
 * "NAME:N", one host per line; ranks fill the hosts in file order. */
#include <stdio.h>
#include <string.h>

#include "hierarchy_internal.h"

/* key=id fields of a hostfile line (rack=, pod=, ...): real hostfiles
 * name a few; more are refused naming the line and the limit. */
#define OMI_HOSTFILE_LEVELS 16

typedef struct {
    const char *text;
    size_t len;
} span;

typedef struct {
    span host;
    int64_t slots;
    span ids[OMI_HOSTFILE_LEVELS]; /* ids of the slower levels */
    size_t line;
} host_line;

typedef struct {
    size_t nextra;                       /* slower levels */
    span names[OMI_HOSTFILE_LEVELS];     /* their names, from the first line */
    host_line *hosts;
    size_t nhosts, cap;
    int64_t nranks;
} hostfile;

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* `what` names the count in messages ("slot count", "max_slots"). */
static om_status parse_slots(const char *s, size_t len, size_t line,
                             const char *what, int64_t *slots, om_error *err)
{
    char quoted[64];
    omi_quote(quoted, sizeof quoted, s, len);
    if (!omi_parse_decimal(s, len, slots))
        return omi_fail(err, OM_ERR_PARSE,
                        "hostfile line %zu: %s %s is not an integer", line,
                        what, quoted);
    if (*slots < 1 || *slots > OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "hostfile line %zu: %s %s must be 1..2147483647",
                        line, what, quoted);
    return OM_OK;
}

/* A key given twice on one line (`slots=2 slots=4`, `a:2 slots=4`, `rack=1
 * rack=2`) would silently keep one of the values: refuse it, naming both
 * fields. `keys[i]` is the key of `fields[i]`; fields[0] has one ("slots")
 * only in the MPICH form "NAME:N", else `from` is 1. A line has at most a
 * few dozen fields. */
static om_status check_repeated_key(const span *keys, const span *fields,
                                    size_t from, size_t n, size_t line,
                                    om_error *err)
{
    for (size_t j = from; j < n; j++) {
        if (keys[j].len != keys[n].len ||
            memcmp(keys[j].text, keys[n].text, keys[n].len) != 0)
            continue;
        char key[64], first[64], again[64];
        omi_quote(key, sizeof key, keys[n].text, keys[n].len);
        omi_quote(first, sizeof first, fields[j].text, fields[j].len);
        omi_quote(again, sizeof again, fields[n].text, fields[n].len);
        return omi_fail(err, OM_ERR_PARSE,
                        "hostfile line %zu: key %s is given twice (%s and %s)",
                        line, key, first, again);
    }
    return OM_OK;
}

/* Reads the fields of one non-empty line into `h`. */
static om_status parse_line(hostfile *f, span *fields, size_t nfields,
                            size_t line, om_error *err)
{
    host_line h = {.line = line, .slots = 0};
    int64_t max_slots = 0; /* 0: not given */
    for (size_t i = 0; i < nfields; i++) {
        if (!omi_utf8_valid(fields[i].text, fields[i].len))
            return omi_fail(err, OM_ERR_PARSE,
                            "hostfile line %zu is not valid UTF-8", line);
        /* A NUL would cut the host or id short where it is used as a
         * string; in a text file it is probably a mistake (a binary file). */
        if (memchr(fields[i].text, '\0', fields[i].len))
            return omi_fail(err, OM_ERR_PARSE,
                            "hostfile line %zu contains a NUL byte (is it a text "
                            "file?)", line);
    }
    span first = fields[0];
    const char *colon = memchr(first.text, ':', first.len);
    om_status st;
    span keys[OMI_HOSTFILE_LEVELS + 4]; /* keys[i]: the key of fields[i] */
    if (colon) {
        keys[0] = (span){"slots", 5};
        h.host = (span){first.text, (size_t)(colon - first.text)};
        st = parse_slots(colon + 1, first.len - h.host.len - 1, line, "slot count",
                         &h.slots, err);
        if (st != OM_OK)
            return st;
    } else {
        h.host = first;
    }
    char quoted[64];
    if (h.host.len == 0)
        return omi_fail(err, OM_ERR_PARSE, "hostfile line %zu: empty host name",
                        line);
    size_t nextra = 0;
    for (size_t i = 1; i < nfields; i++) {
        span fld = fields[i];
        const char *eq = memchr(fld.text, '=', fld.len);
        omi_quote(quoted, sizeof quoted, fld.text, fld.len);
        if (!eq)
            return omi_fail(err, OM_ERR_PARSE,
                            "hostfile line %zu: field %s is not key=value", line,
                            quoted);
        span key = {fld.text, (size_t)(eq - fld.text)};
        span value = {eq + 1, fld.len - key.len - 1};
        keys[i] = key;
        st = check_repeated_key(keys, fields, colon ? 0 : 1, i, line, err);
        if (st != OM_OK)
            return st;
        if (key.len == 5 && memcmp(key.text, "slots", 5) == 0) {
            st = parse_slots(value.text, value.len, line, "slot count", &h.slots,
                         err);
            if (st != OM_OK)
                return st;
            continue;
        }
        if (key.len == 9 && memcmp(key.text, "max_slots", 9) == 0) {
            /* Open MPI's oversubscription cap: not a placement, but
             * mpirun 4.1 refuses one that is no count or below slots. */
            st = parse_slots(value.text, value.len, line, "max_slots", &max_slots,
                             err);
            if (st != OM_OK)
                return st;
            continue;
        }
        if (key.len == 0)
            return omi_fail(err, OM_ERR_PARSE, "hostfile line %zu: field %s has "
                            "an empty key", line, quoted);
        if (value.len == 0)
            return omi_fail(err, OM_ERR_PARSE, "hostfile line %zu: field %s has "
                            "an empty id", line, quoted);
        if (nextra == OMI_HOSTFILE_LEVELS)
            return omi_fail(err, OM_ERR_PARSE, "hostfile line %zu: more than %d "
                            "levels", line, OMI_HOSTFILE_LEVELS);
        if (f->nhosts == 0) {
            f->names[nextra] = key;
        } else if (nextra >= f->nextra || f->names[nextra].len != key.len ||
                   memcmp(f->names[nextra].text, key.text, key.len) != 0) {
            omi_quote(quoted, sizeof quoted, key.text, key.len);
            return omi_fail(err, OM_ERR_PARSE,
                            "hostfile line %zu: level %s differs from the levels "
                            "of line %zu (every line names the same levels in "
                            "the same order)", line, quoted, f->hosts[0].line);
        }
        h.ids[nextra++] = value;
    }
    if (f->nhosts == 0)
        f->nextra = nextra;
    else if (nextra != f->nextra)
        return omi_fail(err, OM_ERR_PARSE,
                        "hostfile line %zu names %zu levels, line %zu names %zu",
                        line, nextra, f->hosts[0].line, f->nextra);
    omi_quote(quoted, sizeof quoted, h.host.text, h.host.len);
    if (h.slots == 0)
        return omi_fail(err, OM_ERR_PARSE, "hostfile line %zu: host %s has no "
                        "slot count (slots=N or NAME:N)", line, quoted);
    if (max_slots && max_slots < h.slots)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE, "hostfile line %zu: host %s has "
                        "max_slots=%lld below its %lld slots", line, quoted,
                        (long long)max_slots, (long long)h.slots);
    if (f->nranks + h.slots > OMI_MAX_INT32)
        return omi_fail(err, OM_ERR_OUT_OF_RANGE,
                        "hostfile has more than 2147483647 slots (line %zu)", line);
    if (f->nhosts == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 16;
        host_line *bigger = omi_realloc(f->hosts, cap * sizeof *bigger);
        if (!bigger)
            return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading a hostfile");
        f->hosts = bigger;
        f->cap = cap;
    }
    f->hosts[f->nhosts++] = h;
    f->nranks += h.slots;
    return OM_OK;
}

static om_status parse(const char *text, size_t length, hostfile *f, om_error *err)
{
    size_t line = 0;
    const char *p = text, *end = text + length;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *stop = eol ? eol : end;
        line++;
        const char *hash = memchr(p, '#', (size_t)(stop - p));
        const char *content_end = hash ? hash : stop;
        span fields[OMI_HOSTFILE_LEVELS + 4];
        size_t nfields = 0;
        const char *q = p;
        while (q < content_end) {
            while (q < content_end && blank(*q))
                q++;
            if (q == content_end)
                break;
            const char *w = q;
            while (q < content_end && !blank(*q))
                q++;
            if (nfields == sizeof fields / sizeof fields[0])
                return omi_fail(err, OM_ERR_PARSE, "hostfile line %zu has too "
                                "many fields", line);
            fields[nfields++] = (span){w, (size_t)(q - w)};
        }
        if (nfields > 0) {
            om_status st = parse_line(f, fields, nfields, line, err);
            if (st != OM_OK)
                return st;
        }
        p = eol ? eol + 1 : end;
    }
    if (f->nhosts == 0)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "hostfile lists no hosts");
    return OM_OK;
}

static uint64_t hash_span(span s)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < s.len; i++)
        h = (h ^ (unsigned char)s.text[i]) * UINT64_C(1099511628211);
    return h;
}

/* A host listed twice is probably a mistake (Open MPI would add the slots
 * up): refuse it, naming both lines. One hash probe per host. */
static om_status check_duplicates(const hostfile *f, om_error *err)
{
    size_t slots = 16;
    while (slots < f->nhosts * 2)
        slots *= 2;
    size_t *table = omi_malloc(slots * sizeof *table);
    if (!table)
        return omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading a hostfile");
    for (size_t i = 0; i < slots; i++)
        table[i] = SIZE_MAX;
    om_status st = OM_OK;
    for (size_t k = 0; k < f->nhosts && st == OM_OK; k++) {
        span name = f->hosts[k].host;
        size_t i = (size_t)hash_span(name) & (slots - 1);
        while (table[i] != SIZE_MAX) {
            span other = f->hosts[table[i]].host;
            if (other.len == name.len && memcmp(other.text, name.text, name.len) == 0) {
                char quoted[64];
                omi_quote(quoted, sizeof quoted, name.text, name.len);
                st = omi_fail(err, OM_ERR_INVALID_ARGUMENT,
                              "hostfile lists host %s twice (lines %zu and %zu)",
                              quoted, f->hosts[table[i]].line, f->hosts[k].line);
                break;
            }
            i = (i + 1) & (slots - 1);
        }
        table[i] = k;
    }
    omi_free(table);
    return st;
}

static om_status build(const hostfile *f, om_hierarchy **out, om_error *err)
{
    om_status dup = check_duplicates(f, err);
    if (dup != OM_OK)
        return dup;
    size_t nlevels = 1 + f->nextra;
    const char *names[OMI_HOSTFILE_LEVELS + 1] = {"host"};
    size_t lens[OMI_HOSTFILE_LEVELS + 1] = {4};
    for (size_t l = 0; l < f->nextra; l++) {
        names[l + 1] = f->names[l].text;
        lens[l + 1] = f->names[l].len;
        if (lens[l + 1] == 4 && memcmp(names[l + 1], "host", 4) == 0)
            return omi_fail(err, OM_ERR_PARSE, "hostfile line %zu: \"host\" is the "
                            "first level already", f->hosts[0].line);
    }
    om_hierarchy *h;
    om_status st = omi_hierarchy_alloc(nlevels, names, lens, f->nranks, &h, err);
    if (st != OM_OK)
        return st;
    size_t n = (size_t)f->nranks;
    const char **labels = omi_malloc(n * sizeof *labels);
    size_t *label_lens = omi_malloc(n * sizeof *label_lens);
    if (!labels || !label_lens)
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading a hostfile");
    for (size_t l = 0; st == OM_OK && l < nlevels; l++) {
        size_t r = 0;
        for (size_t k = 0; k < f->nhosts; k++) {
            span id = l == 0 ? f->hosts[k].host : f->hosts[k].ids[l - 1];
            for (int64_t s = 0; s < f->hosts[k].slots; s++, r++) {
                labels[r] = id.text;
                label_lens[r] = id.len;
            }
        }
        st = omi_hierarchy_set_labels(h, l, labels, label_lens, err);
    }
    if (st == OM_OK)
        st = omi_hierarchy_check_nesting(h, err);
    omi_free(labels);
    omi_free(label_lens);
    if (st != OM_OK) {
        om_hierarchy_free(h);
        return st;
    }
    *out = h;
    return OM_OK;
}

om_status om_hierarchy_from_hostfile(const char *text, size_t length,
                                     om_hierarchy **out, om_error *err)
{
    if (!out)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "out pointer is NULL");
    *out = NULL;
    if (!text)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "hostfile text is NULL");
    hostfile f = {0};
    om_status st = parse(text, length, &f, err);
    if (st == OM_OK)
        st = build(&f, out, err);
    omi_free(f.hosts);
    return st;
}
