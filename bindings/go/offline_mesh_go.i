/* liboffline_mesh: the Go representation of the shared conventions.
 * SPDX-License-Identifier: MIT
 *
 * ../offline_mesh.i maps every parameter of the C API onto named patterns;
 * this file says how Go represents each one, for the internal package
 * omswig (internal/omswig), a low-level mirror of the C API that only the
 * idiomatic package offlinemesh uses. Regenerate with ./regen.sh.
 *
 * SWIG's Go functions return one value: there it is the error, so every
 * fallible call reads `err := omswig.Om_x(args, &out)`:
 *   om_status  returned as a Go error: nil, or an *Error carrying the status
 *              and message of the very call that failed (OM_ERROR is a C
 *              local of the wrapper; the status text crosses as one string)
 *   handles    every `om_x *` is a *Handle (types.go) that owns the C object
 *              (a cleanup frees it; Close frees it once no call uses it)
 *              and is in use for the call; OM_NEW is a *Handle the call fills
 *   OM_STRING  *string: copied to Go, freed with om_string_free in the call
 *   OM_BUFFER  []int, one longer: its last element gets the needed length
 *   OM_STRINGS []string, packed into one NUL-separated Go string (a
 *              []string holds Go pointers, which cgo may not pass)
 *   OM_MESHES  []*Handle, passed as their C pointers
 *   OM_INTS    []int; OM_TEXT []byte; OM_OUTPUT and enum outputs *int, ...
 * int64_t and size_t are Go's int: SWIG runs with -intgosize 64 and
 * types.go refuses to compile where int is not 64 bits.
 */
%module omswig

%include <stdint.i>

%{
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "offline_mesh.h"

/* Target of empty Go slices (their data pointer may be NULL). */
static int64_t omgo_empty_i64[1];

/* Widens the n int32s at the start of buf to int64s in place. The upper
 * half [lo, n) of the values is written above every int32 still unread
 * (8 * lo >= 4 * n), so it is one plain loop; then the lower half the same
 * way, down to the first value. The loop runs a multiple of 8 times, then
 * the rest: cgo compiles at -O2, where GCC vectorizes only a loop whose
 * count it knows to be a multiple of the vector width. */
static void omgo_widen(void *buf, size_t n) {
  for (size_t lo; n > 1; n = lo) {
    lo = (n + 1) / 2;
    const int32_t *restrict narrow = (const int32_t *)buf + lo;
    int64_t *restrict wide = (int64_t *)buf + lo;
    size_t i = 0;
    for (size_t blocks = (n - lo) & ~(size_t)7; i < blocks; i++)
      wide[i] = narrow[i];
    for (; i < n - lo; i++)
      wide[i] = narrow[i];
  }
  if (n == 1)
    *(int64_t *)buf = *(const int32_t *)buf;
}

/* The destructor of a handle type: om_mesh_free for om_mesh. */
#define OMGO_FREE_OF(type) ((uint64_t)(uintptr_t)type##_free)
%}

%inline %{
/* Frees a handle's object with the destructor OM_NEW recorded. */
static void omgo_release(uint64_t free_fn, uint64_t object) {
  ((void (*)(void *))(uintptr_t)free_fn)((void *)(uintptr_t)object);
}
%}

%typemap(gotype) int64_t, size_t "int"
/* A NUL byte would cut a C string short: cString (types.go) turns it into
 * "\xc0\x80", not UTF-8, which the library refuses with its own status. */
%typemap(goin) char *, const char * %{ $result = cString($input) %}

/* om_status: "" for OM_OK, else "STATUS MESSAGE" (statusError, types.go). */
%typemap(gotype) om_status "error"
%typemap(imtype) om_status "string"
%typemap(out) om_status %{ $result.p = NULL; $result.n = 0; %}
%typemap(goout, fragment="CopyString") om_status
%{ if $input != "" { $result = statusError(swigCopyString($input)) } %}
%typemap(gotype) om_status status "int"
%typemap(imtype) om_status status "int"
%typemap(in) om_status status %{ $1 = (om_status)$input; %}
%typemap(in, numinputs=0) om_error *OM_ERROR (om_error e)
%{ e.status = OM_OK; e.message[0] = '\0'; $1 = &e; %}
%typemap(argout) om_error *OM_ERROR
%{
  if (result != OM_OK) {
    char text[OM_ERROR_MESSAGE_SIZE + 16];
    int n = snprintf(text, sizeof text, "%d %s",
                     e$argnum.status != OM_OK ? (int)e$argnum.status : (int)result, e$argnum.message);
    _swig_go_result = Swig_AllocateString(text, n > 0 ? (size_t)n : 0);
  }
%}

/* Handles: every other pointer of the API is an opaque object (om_mesh *,
 * om_world *, ...): a *Handle; nil is NULL. The call holds a use of it
 * (types.go), so a racing Close frees it only after C returns; a closed
 * one is NULL. OM_NEW: the call fills a new Handle. */
%typemap(gotype) SWIGTYPE * "*Handle"
%typemap(goin) SWIGTYPE * %{ $result = $input.use(); defer $result.done() %}
%typemap(in) SWIGTYPE *
%{ $1 = $input != NULL ? ($1_ltype)(uintptr_t)((uint64_t *)$input)[0] : NULL; %}
/* The other pointers pass as they are. */
%typemap(goin) char **OM_STRING, int64_t *OM_OUTPUT, size_t *OM_OUTPUT, uint64_t *OM_OUTPUT, bool *OM_OUTPUT,
               enum SWIGTYPE *, (const int64_t *OM_INTS, size_t OM_INTS_LEN),
               (int32_t *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED),
               (int64_t *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) %{ $result = $input %}
%typemap(gotype) SWIGTYPE **OM_NEW "*Handle"
%typemap(imtype) SWIGTYPE **OM_NEW "*[2]uint64"
%typemap(goin) SWIGTYPE **OM_NEW %{ $result = &$input.c; defer $input.track() %}
%typemap(in) SWIGTYPE **OM_NEW ($*1_ltype obj = NULL) %{ $1 = &obj; %}
%typemap(argout) SWIGTYPE **OM_NEW
%{
  if (obj$argnum != NULL) {
    ((uint64_t *)$input)[0] = (uint64_t)(uintptr_t)obj$argnum;
    ((uint64_t *)$input)[1] = OMGO_FREE_OF($1_basetype);
  }
%}

%typemap(gotype) int64_t *OM_OUTPUT, size_t *OM_OUTPUT "*int"
%typemap(gotype) uint64_t *OM_OUTPUT "*uint64"
%typemap(gotype) bool *OM_OUTPUT "*bool"
%typemap(in) int64_t *OM_OUTPUT, size_t *OM_OUTPUT, uint64_t *OM_OUTPUT,
             bool *OM_OUTPUT %{ $1 = ($1_ltype)$input; %}
/* Enumerations through pointers are outputs (C enums are 4 bytes). */
%typemap(gotype) enum SWIGTYPE * "*int"
%typemap(in) enum SWIGTYPE * ($*1_ltype value = 0) %{ $1 = &value; %}
%typemap(argout) enum SWIGTYPE * %{ *$input = (intgo)value$argnum; %}

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

/* Input lists: Go slices, not copied: integer lists are []int (int64_t
 * memory), texts []byte, mesh lists the meshes' C pointers (in use). */
%typemap(gotype) (const int64_t *OM_INTS, size_t OM_INTS_LEN) "[]int"
%typemap(gotype) (const char *OM_TEXT, size_t OM_TEXT_LEN) "[]byte"
%typemap(goin) (const char *OM_TEXT, size_t OM_TEXT_LEN) %{ $result = $input %}
%typemap(gotype) (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN) "[]*Handle"
%typemap(imtype) (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN) "[]uintptr"
%typemap(goin) (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN)
%{ $result = uses($input); defer dones($input, $result) %}
%typemap(in) (const int64_t *OM_INTS, size_t OM_INTS_LEN), (const char *OM_TEXT, size_t OM_TEXT_LEN),
             (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN)
%{
  $1 = ($1_ltype)($input.array != NULL ? $input.array : (void *)omgo_empty_i64);
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

/* String lists: packed by packNames() (types.go) as "dp\0cp\0tp\0"; the C
 * side points into the packed Go string during the call (the library
 * copies what it keeps). Up to 64 on the stack; if more cannot be
 * allocated, the library reports the NULL array. */
%typemap(gotype) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "[]string"
%typemap(imtype) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "string"
%typemap(goin) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) %{ $result = packNames($input) %}
%typemap(in) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN)
     (const char *stack[64], const char **heap = NULL, const char **dst = NULL, size_t count = 0)
%{
  for (size_t i = 0; i < (size_t)$input.n; i++)
    count += $input.p[i] == '\0';
  dst = count > 64 ? (heap = (const char **)malloc(count * sizeof *heap)) : stack;
  for (size_t i = 0, k = 0; dst != NULL && i < (size_t)$input.n; i += strlen($input.p + i) + 1)
    dst[k++] = $input.p + i; /* each item ends with its NUL: strlen stays inside */
  $1 = ($1_ltype)dst;
  $2 = count;
%}
%typemap(freearg) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN)
%{ free(heap$argnum); %}

/* The 1.0 mask calls are not bound (axis sets are names: the 1.1 calls,
 * OM_BIND_1_1_FORMS), om_mesh_axes included, nor the handle classes' SWIG
 * constructors and destructors (Handle owns every object; the destructors
 * would take a SWIG class, not a Handle); warning 453 is the shared
 * file's %apply of patterns this file has no typemaps for. */
#define OM_BIND_1_1_FORMS
%ignore om_mesh_axes;
%ignore om_mesh::om_mesh;
%ignore om_dims::om_dims;
%rename("$ignore", %$isdestructor) "";
#pragma SWIG nowarn=453

%include "offline_mesh.i"
