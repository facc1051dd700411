/* The allocation-failure switch under the library's name (internal.h maps
 * omi_malloc and friends to the utility layer's directly). */
#include "internal.h"

#ifdef OM_ALLOC_FAILURE_INJECTION
long omi_alloc_fail_after(long n) { return omu_alloc_fail_after(n); }
#endif
