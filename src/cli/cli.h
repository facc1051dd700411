/* offline-mesh: the command-line tool, as a library function so that tests
 * and fuzzers can drive it in-process. */
#ifndef OFFLINE_MESH_CLI_H
#define OFFLINE_MESH_CLI_H

#include <stdio.h>

/* Runs the tool with argv[0..argc). Writes results only to `out` and
 * diagnostics only to `err`; returns the exit status: 0 success, 1 invalid
 * input, 2 usage error. Never exits, keeps no global state. */
int omcli_main(int argc, char **argv, FILE *out, FILE *err);

#endif
