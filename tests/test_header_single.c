/* Compiled once per public header (tests/meson.build passes the header as
 * OM_TEST_HEADER) in strict C11: the header must compile on its own, as the
 * first include, and a second inclusion must be harmless.
 * SPDX-License-Identifier: MIT */
#include OM_TEST_HEADER
#include OM_TEST_HEADER

/* ISO C forbids an empty translation unit. */
int om_header_probe(void);
int om_header_probe(void) { return 0; }
