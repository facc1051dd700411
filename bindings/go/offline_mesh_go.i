/* liboffline_mesh: the Go representation of the shared conventions.
 * SPDX-License-Identifier: MIT
 *
 * ../offline_mesh.i maps every parameter of the C API onto named patterns;
 * this file says how Go represents each one, for the internal package
 * omswig (internal/omswig), a low-level mirror of the C API that only the
 * idiomatic package offlinemesh uses. Regenerate with ./regen.sh.
 *
 * SWIG's Go functions return one value, so out-parameters stay visible as
 * Go pointers and slices (the idiomatic layer returns them), and each
 * typemap keeps a C function one cgo call within cgo's pointer rules:
 *   OM_ERROR   *omswig.Error, a Go struct with the exact layout of om_error
 *              (types.go): status and message come from the failing call
 *   OM_NEW     *uintptr receiving the new handle (omswig.SwigcptrMesh(p))
 *   OM_STRING  *string: copied to Go, freed with om_string_free in the call
 *   OM_BUFFER  []int, one longer: its last element gets the needed length
 *   OM_STRINGS []string, packed into one NUL-separated Go string (a
 *              []string holds Go pointers, which cgo may not pass)
 *   OM_INTS    []int; OM_TEXT []byte; OM_OUTPUT *int, *uint64, *bool
 * int64_t and size_t are Go's int: SWIG runs with -intgosize 64 and
 * types.go refuses to compile where int is not 64 bits.
 */
%module omswig
#define OM_CONVENTIONS
/* Hierarchies and launch plans (bindings/go/offlinemesh/hierarchy.go). */
#define OM_BIND_HIERARCHY

%include <stdint.i>

%{
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "offline_mesh.h"

/* omswig.Error (types.go) must have exactly this layout. */
_Static_assert(sizeof(om_status) == 4, "om_status is not 4 bytes");
_Static_assert(offsetof(om_error, message) == 4, "om_error.message offset");
_Static_assert(sizeof(om_error) == 4 + OM_ERROR_MESSAGE_SIZE,
               "om_error has padding");

/* Target of empty Go slices (their data pointer may be NULL). */
static int64_t omgo_empty_i64[1];

/* Widens n int32s at the start of buf to int64s in place, from the last one
 * down, so no value is overwritten before it is read (memcpy: the two views
 * alias). */
static void omgo_widen(void *buf, size_t n) {
  while (n-- > 0) {
    int32_t narrow;
    int64_t wide;
    memcpy(&narrow, (char *)buf + 4 * n, 4);
    wide = narrow;
    memcpy((char *)buf + 8 * n, &wide, 8);
  }
}
%}

%typemap(gotype) int64_t, size_t "int"
%typemap(gotype) om_status "int"
%typemap(in) om_status %{ $1 = (om_status)$input; %}
%typemap(out) om_status %{ $result = (intgo)$1; %}

%typemap(gotype) om_error *OM_ERROR "*Error"
%typemap(in) om_error *OM_ERROR %{ $1 = (om_error *)$input; %}

%typemap(gotype) SWIGTYPE **OM_NEW "*uintptr"
%typemap(in) SWIGTYPE **OM_NEW %{ $1 = ($1_ltype)$input; %}

%typemap(gotype) int64_t *OM_OUTPUT, size_t *OM_OUTPUT "*int"
%typemap(gotype) uint64_t *OM_OUTPUT "*uint64"
%typemap(gotype) bool *OM_OUTPUT "*bool"
%typemap(in) int64_t *OM_OUTPUT, size_t *OM_OUTPUT, uint64_t *OM_OUTPUT,
             bool *OM_OUTPUT %{ $1 = ($1_ltype)$input; %}

%typemap(gotype) char **OM_STRING "*string"
%typemap(in) char **OM_STRING (char *str = NULL) %{ $1 = &str; %}
%typemap(argout, fragment="AllocateString") char **OM_STRING
%{
  if (str$argnum != NULL) {
    size_t len = strlen(str$argnum);
    if (len > 0)
      *$input = Swig_AllocateString(str$argnum, len);
    om_string_free(str$argnum);
  }
%}
%typemap(goargout, fragment="CopyString") char **OM_STRING
%{
	if len(*$input) > 0 {
		*$input = swigCopyString(*$input)
	}
%}

/* Integer lists: Go []int (int64_t memory), not copied. */
%typemap(gotype) (const int64_t *OM_INTS, size_t OM_INTS_LEN) "[]int"
%typemap(in) (const int64_t *OM_INTS, size_t OM_INTS_LEN)
%{
  $1 = $input.array != NULL ? (int64_t *)$input.array : omgo_empty_i64;
  $2 = (size_t)$input.len;
%}

/* Bulk outputs: a Go []int ONE LONGER than the buffer, whose last element
 * receives the needed length (one cgo call, no Go pointer kept in C). Rank
 * buffers: the library writes int32s into the first half of the memory,
 * widened in place (omgo_widen): no second buffer. */
%define OMGO_BUFFER(CTYPE, WIDEN)
%typemap(gotype) (CTYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) "[]int"
%typemap(in) (CTYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED)
     (size_t needed = 0, size_t buflen = 0)
%{
  buflen = $input.len > 0 ? (size_t)$input.len - 1 : 0;
  $1 = $input.array != NULL ? ($1_ltype)$input.array : ($1_ltype)omgo_empty_i64;
  $2 = buflen;
  $3 = &needed;
%}
%typemap(argout) (CTYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED)
%{
  if (WIDEN && result == OM_OK)
    omgo_widen($1, needed$argnum < buflen$argnum ? needed$argnum : buflen$argnum);
  if ($input.len > 0)
    ((int64_t *)$input.array)[buflen$argnum] = (int64_t)needed$argnum;
%}
%enddef
OMGO_BUFFER(int32_t, 1)
OMGO_BUFFER(int64_t, 0)

%typemap(gotype) (const char *OM_TEXT, size_t OM_TEXT_LEN) "[]byte"
%typemap(in) (const char *OM_TEXT, size_t OM_TEXT_LEN)
%{
  $1 = ($1_ltype)($input.array != NULL ? (const char *)$input.array : "");
  $2 = (size_t)$input.len;
%}

/* String lists: packed by packNames() (types.go) as "dp\0cp\0tp\0"; the C
 * side points into the packed Go string during the call (the library
 * copies what it keeps). Up to 64 on the stack; if more cannot be
 * allocated, the library reports the NULL array. */
%typemap(gotype) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "[]string"
%typemap(imtype) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "string"
%typemap(goin) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN)
%{
	$result = packNames($input)
%}
%typemap(in) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN)
     (const char *stack[64], const char **heap = NULL)
%{
  {
    size_t count = 0, i, k = 0;
    const char *start = $input.p;
    const char **dst = stack;
    for (i = 0; i < (size_t)$input.n; i++)
      count += $input.p[i] == '\0';
    if (count > 64)
      dst = heap = (const char **)malloc(count * sizeof *heap);
    for (i = 0; dst != NULL && i < (size_t)$input.n; i++) {
      if ($input.p[i] == '\0') {
        dst[k++] = start;
        start = $input.p + i + 1;
      }
    }
    $1 = ($1_ltype)dst;
    $2 = count;
  }
%}
%typemap(freearg) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN)
%{ free(heap$argnum); %}

/* The 1.0 mask calls are not bound (axis sets are names: the 1.1 calls),
 * so this language has no OM_INTO typemaps; warning 453 is the shared
 * file's %apply of that unused pattern. */
%ignore om_mesh_axes;
%ignore om_mesh_coordinate;
%ignore om_mesh_group_shape;
%ignore om_mesh_groups;
%ignore om_mesh_group_index;
%ignore om_mesh_group_of;
%ignore om_mesh_locality;
#pragma SWIG nowarn=453

%include "offline_mesh.i"
