/* Runtime version of the loaded library. */
#include "internal.h"

const char *om_version_string(void) { return OM_VERSION_STRING; }

int om_version_number(void) { return OM_VERSION_NUMBER; }
