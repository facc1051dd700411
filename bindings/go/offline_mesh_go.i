/* liboffline_mesh: the Go side of the SWIG interface.
 * SPDX-License-Identifier: MIT
 *
 * Generates the internal package omswig (internal/omswig): a low-level,
 * cgo-based mirror of the C API that only the hand-written package
 * offlinemesh uses. Regenerate with ./regen.sh (pinned SWIG version, run
 * from this folder with relative paths so the output is byte-identical).
 *
 * The typemaps below keep every call within the cgo pointer rules and make
 * each function usable in a single cgo call:
 *   - handles (om_mesh *, om_dims *) travel as typed uintptr values
 *     (omswig.Mesh, omswig.Dims, types.go); `om_x **out` is a *Mesh / *Dims;
 *   - `om_error *err` is a *omswig.Error, a Go struct with the exact layout of
 *     om_error, so the status and message come back from the call that
 *     failed (no thread-local state, no second call);
 *   - `char **out` is a *string: the C string is copied to Go and released
 *     with om_string_free() inside the same call;
 *   - arrays with their length are Go slices ([]int64, []int32, []byte),
 *     passed without copying;
 *   - axis names for om_mesh_new_checked() are a []string that the Go side
 *     packs into one NUL-separated string (a []string holds Go pointers and
 *     may not be passed to C); the C side splits it without copying.
 * Then the shared, language-neutral bindings/offline_mesh.i is included.
 *
 * regen.sh runs SWIG with -intgosize 64 -DSWIGWORDSIZE64 (int64_t is `long`,
 * as on 64-bit Linux); types.go refuses to compile where Go's int is not 64
 * bits.
 */
%module omswig

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
static int32_t omgo_empty_i32[1];
%}

/* The three-array constructor has no safe Go form; Go uses
 * om_mesh_new_checked(), which also reports differing lengths. */
%ignore om_mesh_new;
/* Go has its own mirror of om_error (omswig.Error). */
%ignore om_error;
/* Only the `char **out` typemap below frees library strings; a Go string
 * argument would be a temporary copy, freed twice. */
%ignore om_string_free;

/* ---- status: a plain Go int ------------------------------------------- */
%typemap(gotype) om_status "int"
%typemap(in) om_status %{ $1 = (om_status)$input; %}
%typemap(out) om_status %{ $result = (intgo)$1; %}

/* ---- error report ------------------------------------------------------ */
%typemap(gotype) om_error * "*Error"
%typemap(in) om_error * %{ $1 = (om_error *)$input; %}

/* ---- handles ----------------------------------------------------------- */
%typemap(gotype) om_mesh *, const om_mesh * "Mesh"
%typemap(in) om_mesh *, const om_mesh * %{ $1 = ($1_ltype)$input; %}
%typemap(gotype) om_mesh ** "*Mesh"
%typemap(in) om_mesh ** %{ $1 = (om_mesh **)$input; %}

%typemap(gotype) om_dims *, const om_dims * "Dims"
%typemap(in) om_dims *, const om_dims * %{ $1 = ($1_ltype)$input; %}
%typemap(gotype) om_dims ** "*Dims"
%typemap(in) om_dims ** %{ $1 = (om_dims **)$input; %}

/* ---- int64_t and size_t are Go's int (64 bits, checked in types.go) ----- */
%typemap(gotype) int64_t, size_t "int"

/* ---- scalar out-parameters: Go pointers to plain values ---------------- */
%typemap(gotype) int64_t * "*int"
%typemap(in) int64_t * %{ $1 = (int64_t *)$input; %}
%typemap(gotype) uint64_t * "*uint64"
%typemap(in) uint64_t * %{ $1 = (uint64_t *)$input; %}
%typemap(gotype) bool * "*bool"
%typemap(in) bool * %{ $1 = (bool *)$input; %}

/* ---- strings allocated by the library ---------------------------------- */
%typemap(gotype) char **out "*string"
%typemap(in) char **out (char *str = NULL) %{ $1 = &str; %}
%typemap(argout, fragment="AllocateString") char **out
%{
  if (str$argnum != NULL) {
    size_t len = strlen(str$argnum);
    if (len > 0) {
      *$input = Swig_AllocateString(str$argnum, len);
    }
    om_string_free(str$argnum);
  }
%}
%typemap(goargout, fragment="CopyString") char **out
%{
	if len(*$input) > 0 {
		*$input = swigCopyString(*$input)
	}
%}

/* ---- arrays with their length ------------------------------------------ */
%typemap(gotype) (const int64_t *sizes, size_t sizes_len),
                 (const int64_t *coord, size_t coord_len),
                 (int64_t *coord, size_t coord_len) "[]int"
%typemap(in) (const int64_t *sizes, size_t sizes_len),
             (const int64_t *coord, size_t coord_len),
             (int64_t *coord, size_t coord_len)
%{
  $1 = $input.array != NULL ? (int64_t *)$input.array : omgo_empty_i64;
  $2 = (size_t)$input.len;
%}

/* Rank buffers: a Go []int. The library writes int32s into the first half
 * of its memory; they are widened in place, from the last one down, so no
 * value is overwritten before it is read and no second buffer is needed. */
%typemap(gotype) (int32_t *out, size_t out_len) "[]int"
%typemap(in) (int32_t *out, size_t out_len)
%{
  $1 = $input.array != NULL ? (int32_t *)$input.array : omgo_empty_i32;
  $2 = (size_t)$input.len;
%}
%typemap(argout) (int32_t *out, size_t out_len)
%{
  if (result == OM_OK) {
    size_t i = $2;
    while (i-- > 0) { /* memcpy: the two views alias */
      int32_t narrow;
      int64_t wide;
      memcpy(&narrow, (char *)$1 + 4 * i, 4);
      wide = narrow;
      memcpy((char *)$1 + 8 * i, &wide, 8);
    }
  }
%}

/* JSON / YAML text: a []byte, not NUL-terminated, not copied. */
%typemap(gotype) (const char *text, size_t length) "[]byte"
%typemap(in) (const char *text, size_t length)
%{
  $1 = ($1_ltype)($input.array != NULL ? (const char *)$input.array : "");
  $2 = (size_t)$input.len;
%}

/* Axis names: packed by packNames() (types.go) as "dp\0cp\0tp\0", one NUL
 * after each name; pointers into the packed Go string are used during the
 * call only (the library copies the names). Up to 64 names sit on the stack;
 * if more cannot be allocated the C call reports the NULL array. */
%typemap(gotype) (const char *const *names, size_t names_len) "[]string"
%typemap(imtype) (const char *const *names, size_t names_len) "string"
%typemap(goin) (const char *const *names, size_t names_len)
%{
	$result = packNames($input)
%}
%typemap(in) (const char *const *names, size_t names_len)
     (const char *names_stack[64], const char **names_heap = NULL)
%{
  {
    size_t count = 0, i, k = 0;
    const char *start = $input.p;
    const char **dst = names_stack;
    for (i = 0; i < (size_t)$input.n; i++) {
      if ($input.p[i] == '\0') {
        count++;
      }
    }
    if (count > 64) {
      names_heap = (const char **)malloc(count * sizeof *names_heap);
      dst = names_heap;
    }
    if (dst != NULL) {
      for (i = 0; i < (size_t)$input.n; i++) {
        if ($input.p[i] == '\0') {
          dst[k++] = start;
          start = $input.p + i + 1;
        }
      }
    }
    $1 = ($1_ltype)dst;
    $2 = count;
  }
%}
%typemap(freearg) (const char *const *names, size_t names_len)
%{ free(names_heap$argnum); %}

%include "offline_mesh.i"
