/* The library's allocation entry points, over the utility layer's (which
 * holds the test-only failure injection). */
#include "internal.h"

void *omi_malloc(size_t size) { return omu_malloc(size); }

void *omi_realloc(void *ptr, size_t size) { return omu_realloc(ptr, size); }

void omi_free(void *ptr) { omu_free(ptr); }

#ifdef OM_ALLOC_FAILURE_INJECTION
long omi_alloc_fail_after(long n) { return omu_alloc_fail_after(n); }
#endif
