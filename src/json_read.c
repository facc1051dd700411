/* Every JSON text the library reads goes through here: jansson parses it,
 * strictly (duplicate keys refused, one value and nothing after it), and
 * never sees a failed allocation.
 *
 * Why: jansson 2.14's lexer ignores some of its own failed allocations
 * (akheron/jansson#362) and then reports a wrong parse error or writes
 * through a NULL pointer. So jansson allocates from a per-call pool: the
 * library installs (once, chaining whatever functions were installed
 * before) allocation functions that, while this thread is inside
 * omi_json_read, take every block from omi_malloc and link it into the
 * call's pool. A block that cannot be had unwinds the parse (longjmp back
 * to omi_json_read: jansson holds no lock and no global state while
 * parsing) and the pool frees what the parse had made; outside a read the
 * functions forward to the previous ones, so other jansson users in the
 * process see no change. */
#include <pthread.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "internal.h"

/* Each pooled block starts with its links: two pointers, so what follows
 * keeps malloc's alignment on 64-bit targets (16 bytes) and 8 on 32-bit,
 * enough for everything jansson stores (pointers, size_t, double, long
 * long). */
typedef struct block {
    struct {
        struct block *prev, *next;
    } link;
} block;
_Static_assert(sizeof(block) % _Alignof(double) == 0 &&
                   sizeof(block) % _Alignof(long long) == 0,
               "pooled blocks keep jansson's alignment");

typedef struct {
    jmp_buf unwind;
    block ring;   /* circular list of live blocks; ring itself is no block */
    bool parsing; /* inside json_loadb: a failed allocation unwinds */
} pool;

/* The pool of the read running on this thread; NULL outside a read. */
static _Thread_local pool *current_pool;
static json_malloc_t outer_malloc;
static json_free_t outer_free;
static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;

static void *pooled_malloc(size_t size)
{
    pool *p = current_pool;
    if (!p)
        return outer_malloc(size);
    block *b = size <= SIZE_MAX - sizeof *b ? omi_malloc(sizeof *b + size) : NULL;
    if (!b) {
        if (p->parsing)
            longjmp(p->unwind, 1);
        return NULL; /* after the parse jansson's getters allocate nothing */
    }
    b->link.prev = &p->ring;
    b->link.next = p->ring.link.next;
    p->ring.link.next->link.prev = b;
    p->ring.link.next = b;
    return b + 1;
}

static void pooled_free(void *ptr)
{
    if (!ptr)
        return;
    if (!current_pool) {
        outer_free(ptr);
        return;
    }
    /* Inside a read jansson only frees what that read allocated. */
    block *b = (block *)ptr - 1;
    b->link.prev->link.next = b->link.next;
    b->link.next->link.prev = b->link.prev;
    omi_free(b);
}

static void install_hooks(void)
{
    json_get_alloc_funcs(&outer_malloc, &outer_free);
    json_set_alloc_funcs(pooled_malloc, pooled_free);
}

/* True when jansson still allocates through pooled_malloc (an application
 * may have installed its own functions after the library did). */
static bool hooks_in_place(void)
{
    json_malloc_t m;
    json_free_t f;
    json_get_alloc_funcs(&m, &f);
    return m == pooled_malloc && f == pooled_free;
}

/* json_loadb, or NULL with *unwound set when an allocation failed. The pool
 * lives in the caller's frame, so nothing here is changed between setjmp
 * and longjmp. */
static json_t *guarded_load(pool *p, const char *text, size_t length,
                            json_error_t *jerr, bool *unwound)
{
    if (setjmp(p->unwind) != 0) {
        p->parsing = false;
        *unwound = true;
        return NULL;
    }
    p->parsing = true;
    json_t *root = json_loadb(text, length, JSON_REJECT_DUPLICATES, jerr);
    p->parsing = false;
    return root;
}

static void pool_release(pool *p)
{
    while (p->ring.link.next != &p->ring) {
        block *b = p->ring.link.next;
        p->ring.link.next = b->link.next;
        omi_free(b);
    }
    p->ring.link.prev = &p->ring;
}

om_status omi_json_read(const char *text, size_t length, const char *what,
                        omi_json_consumer consume, void *ctx, om_error *err)
{
    if (!text)
        return omi_fail(err, OM_ERR_INVALID_ARGUMENT, "JSON text is NULL");
    pthread_once(&hooks_once, install_hooks);
    pool p;
    p.ring.link.prev = p.ring.link.next = &p.ring;
    p.parsing = false;
    bool pooled = hooks_in_place();
    pool *outer = current_pool;
    if (pooled)
        current_pool = &p;
    json_error_t jerr;
    bool unwound = false;
    json_t *root = guarded_load(&p, text, length, &jerr, &unwound);
    om_status st;
    if (root) {
        st = consume(root, ctx, err);
        json_decref(root);
    } else if (unwound || json_error_code(&jerr) == json_error_out_of_memory) {
        st = omi_fail(err, OM_ERR_NO_MEMORY, "out of memory reading %s JSON", what);
    } else {
        st = omi_fail(err, OM_ERR_PARSE, "%s JSON line %d column %d: %s", what,
                      jerr.line, jerr.column, jerr.text);
    }
    pool_release(&p);
    current_pool = outer;
    return st;
}

void omi_json_shown(const json_t *value, char *buf, size_t size)
{
    if (!value) {
        snprintf(buf, size, "nothing");
    } else if (json_is_integer(value)) {
        snprintf(buf, size, "%lld", (long long)json_integer_value(value));
    } else if (json_is_real(value)) {
        /* 2.0 and 2e0 parse alike: show a whole number with its ".0",
         * so it does not read as the integer it is not. */
        double x = json_real_value(value);
        if (x > -1e15 && x < 1e15 && x == (double)(long long)x)
            snprintf(buf, size, "%.1f", x);
        else
            snprintf(buf, size, "%.17g", x);
    } else if (json_is_string(value)) {
        omi_quote(buf, size, json_string_value(value), json_string_length(value));
    } else {
        snprintf(buf, size, "%s", json_is_true(value)    ? "true"
                                  : json_is_false(value) ? "false"
                                  : json_is_null(value)  ? "null"
                                  : json_is_array(value) ? "an array"
                                                         : "an object");
    }
}
