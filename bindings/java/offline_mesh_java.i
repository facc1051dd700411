/* liboffline_mesh: Java (JNI) typemaps over the shared SWIG interface.
 * SPDX-License-Identifier: MIT
 *
 * The generated classes (OfflineMeshNative, OfflineMeshNativeJNI, ...) are
 * package-private in org.offlinemesh: only the hand-written classes beside
 * them (OfflineMesh, ParallelDims, OfflineMeshes, ...) are public. The raw
 * layer therefore stays close to C and simple:
 *
 * - handles (om_mesh *, om_dims *) are Java longs; `TYPE **out` is a long[1]
 *   holder that receives the new handle;
 * - every string crosses as UTF-8 bytes (byte[]), never as JNI "modified
 *   UTF-8": the Java side encodes and decodes with StandardCharsets.UTF_8,
 *   so names outside the BMP round-trip exactly;
 * - scalar out-parameters are one-element arrays (long[], boolean[]);
 *   caller buffers (coordinates, groups) are Java arrays with their length;
 * - `om_error *err` is hidden: the wrapper passes its own, and when the call
 *   fails it throws the exception built by NativeErrors.create(status,
 *   message) before returning to Java (IllegalArgumentException subclass,
 *   UncheckedIOException, OutOfMemoryError);
 * - a null holder or array reaches C as NULL, so C reports it as an error
 *   through `err` (no early return that would skip freeing the inputs).
 */

%module OfflineMeshNative

/* No <stdint.i>: it declares int64_t as `long long`, and SWIG would then
 * cast `const int64_t *` arguments to `long long const *`, an incompatible
 * pointer type where int64_t is `long`. The fixed-width types stay opaque
 * names to SWIG, with the typemaps below. */
%include <enumtypeunsafe.swg>
%javaconst(1);

/* Keep the raw layer out of the public API. */
%pragma(java) moduleclassmodifiers="final class"
%pragma(java) jniclassclassmodifiers="final class"
%pragma(java) jniclasscode=%{
  static {
    NativeLibrary.load();
  }
%}
%typemap(javaclassmodifiers) enum SWIGTYPE "final class"

/* C names as lowerCamelCase Java names: om_mesh_new_checked -> omMeshNewChecked. */
%rename("%(lowercamelcase)s", %$isfunction) "";

/* om_mesh_new_checked() covers om_mesh_new() with better errors; the error
 * struct never reaches Java (the wrapper owns it). */
%ignore om_mesh_new;
%ignore om_error;
%ignore om_error_clear;
%ignore om_string_free;          /* the wrapper frees every char **out itself */
%ignore OM_ERROR_MESSAGE_SIZE;   /* no public constants interface */
%ignore OM_MAX_RANKS;

%{
#include "offline_mesh.h"

#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdbool.h>

#define OM_JAVA_ERRORS_CLASS "org/offlinemesh/NativeErrors"

/* Throws the Java exception for a failed call. The message goes to Java
 * as bytes and is decoded there as UTF-8 (it may quote user input). */
static void om_java_throw(JNIEnv *jenv, const om_error *err) {
  jclass cls;
  jmethodID create;
  jbyteArray message;
  jobject exc;
  jsize length;

  if ((*jenv)->ExceptionCheck(jenv))
    return;
  cls = (*jenv)->FindClass(jenv, OM_JAVA_ERRORS_CLASS);
  if (!cls)
    return;
  create = (*jenv)->GetStaticMethodID(jenv, cls, "create",
                                      "(I[B)Ljava/lang/Throwable;");
  if (!create)
    return;
  length = (jsize)strnlen(err->message, sizeof err->message);
  message = (*jenv)->NewByteArray(jenv, length);
  if (!message)
    return;
  (*jenv)->SetByteArrayRegion(jenv, message, 0, length,
                              (const jbyte *)err->message);
  exc = (*jenv)->CallStaticObjectMethod(jenv, cls, create,
                                        (jint)err->status, message);
  if ((*jenv)->ExceptionCheck(jenv) || !exc)
    return;
  (*jenv)->Throw(jenv, (jthrowable)exc);
}

static void om_java_no_memory(JNIEnv *jenv) {
  jclass cls;
  if ((*jenv)->ExceptionCheck(jenv))
    return;
  cls = (*jenv)->FindClass(jenv, "java/lang/OutOfMemoryError");
  if (cls)
    (*jenv)->ThrowNew(jenv, cls, "liboffline_mesh JNI: out of memory");
}

/* Copies a Java byte[] into a fresh NUL-terminated C buffer; NULL (with
 * OutOfMemoryError pending) when malloc fails. */
static char *om_java_bytes_dup(JNIEnv *jenv, jbyteArray array, size_t *length) {
  jsize n = (*jenv)->GetArrayLength(jenv, array);
  char *copy = malloc((size_t)n + 1);
  if (!copy) {
    om_java_no_memory(jenv);
    return NULL;
  }
  (*jenv)->GetByteArrayRegion(jenv, array, 0, n, (jbyte *)copy);
  copy[n] = '\0';
  if (length)
    *length = (size_t)n;
  return copy;
}

/* A Java byte[] holding `length` bytes of `text`; NULL for NULL text. */
static jbyteArray om_java_new_bytes(JNIEnv *jenv, const char *text, size_t length) {
  jbyteArray array;
  if (!text)
    return NULL;
  array = (*jenv)->NewByteArray(jenv, (jsize)length);
  if (array)
    (*jenv)->SetByteArrayRegion(jenv, array, 0, (jsize)length, (const jbyte *)text);
  return array;
}

/* The length of a holder array, 0 when it is null. */
static jsize om_java_length(JNIEnv *jenv, jarray array) {
  return array ? (*jenv)->GetArrayLength(jenv, array) : 0;
}
%}

/* ---- om_status: a plain int. A failed call has already thrown (om_error
 * *err below), so callers may ignore the returned status. */
%typemap(jni) om_status "jint"
%typemap(jtype) om_status "int"
%typemap(jstype) om_status "int"
%typemap(in) om_status %{ $1 = (om_status)$input; %}
%typemap(out) om_status %{ $result = (jint)$1; %}
%typemap(javain) om_status "$javainput"
%typemap(javaout) om_status { return $jnicall; }

/* ---- om_error *err: hidden; a failure becomes a pending Java exception.
 * It is the last parameter everywhere, so its argout runs after the other
 * out-parameters were copied; freearg code still runs afterwards. */
%typemap(in, numinputs=0) om_error *err (om_error temp) %{
  temp.status = OM_OK;
  temp.message[0] = '\0';
  $1 = &temp;
%}
%typemap(argout) om_error *err %{
  if ($1->status != OM_OK)
    om_java_throw(jenv, $1);
%}

/* ---- int64_t values: Java long */
%typemap(jni) int64_t "jlong"
%typemap(jtype) int64_t "long"
%typemap(jstype) int64_t "long"
%typemap(in) int64_t %{ $1 = (int64_t)$input; %}
%typemap(out) int64_t %{ $result = (jlong)$1; %}
%typemap(javain) int64_t "$javainput"
%typemap(javaout) int64_t { return $jnicall; }

/* ---- uint64_t (axis masks, hashes): a Java long holding the same bits */
%typemap(jni) uint64_t "jlong"
%typemap(jtype) uint64_t "long"
%typemap(jstype) uint64_t "long"
%typemap(in) uint64_t %{ $1 = (uint64_t)$input; %}
%typemap(out) uint64_t %{ $result = (jlong)$1; %}
%typemap(javain) uint64_t "$javainput"
%typemap(javaout) uint64_t { return $jnicall; }

/* ---- opaque handles as longs, `TYPE **out` as a long[1] holder */
%define OM_JAVA_HANDLE(TYPE)
%typemap(jni) TYPE *, const TYPE * "jlong"
%typemap(jtype) TYPE *, const TYPE * "long"
%typemap(jstype) TYPE *, const TYPE * "long"
%typemap(in) TYPE *, const TYPE * %{ $1 = ($1_ltype)(intptr_t)$input; %}
%typemap(out) TYPE *, const TYPE * %{ $result = (jlong)(intptr_t)$1; %}
%typemap(javain) TYPE *, const TYPE * "$javainput"
%typemap(javaout) TYPE *, const TYPE * { return $jnicall; }

%typemap(jni) TYPE **out "jlongArray"
%typemap(jtype) TYPE **out "long[]"
%typemap(jstype) TYPE **out "long[]"
%typemap(javain) TYPE **out "$javainput"
%typemap(in) TYPE **out ($*1_ltype temp = NULL) %{
  $1 = om_java_length(jenv, $input) >= 1 ? &temp : NULL;
%}
%typemap(argout) TYPE **out %{
  if ($1) {
    jlong handle = (jlong)(intptr_t)temp$argnum;
    (*jenv)->SetLongArrayRegion(jenv, $input, 0, 1, &handle);
  }
%}
%enddef
OM_JAVA_HANDLE(om_mesh)
OM_JAVA_HANDLE(om_dims)

/* ---- strings: UTF-8 bytes both ways. Inputs are copied NUL-terminated. */
%typemap(jni) const char * "jbyteArray"
%typemap(jtype) const char * "byte[]"
%typemap(jstype) const char * "byte[]"
%typemap(javain) const char * "$javainput"
%typemap(javaout) const char * { return $jnicall; }
%typemap(in) const char * %{
  $1 = NULL;
  if ($input) {
    $1 = om_java_bytes_dup(jenv, $input, NULL);
    if (!$1)
      return $null;
  }
%}
%typemap(freearg) const char * %{ free((char *)$1); %}
%typemap(out) const char * %{
  $result = om_java_new_bytes(jenv, $1, $1 ? strlen($1) : 0);
%}

/* (text, length): a document that may hold any byte, NUL included. */
%typemap(jni) (const char *text, size_t length) "jbyteArray"
%typemap(jtype) (const char *text, size_t length) "byte[]"
%typemap(jstype) (const char *text, size_t length) "byte[]"
%typemap(javain) (const char *text, size_t length) "$javainput"
%typemap(in) (const char *text, size_t length) %{
  $1 = NULL;
  $2 = 0;
  if ($input) {
    $1 = om_java_bytes_dup(jenv, $input, &$2);
    if (!$1)
      return $null;
  }
%}
%typemap(freearg) (const char *text, size_t length) %{ free((char *)$1); %}

/* (names, names_len): byte[][] of UTF-8 names; a null element reaches C
 * as a NULL name (OM_ERR_INVALID_NAME). */
%typemap(jni) (const char *const *names, size_t names_len) "jobjectArray"
%typemap(jtype) (const char *const *names, size_t names_len) "byte[][]"
%typemap(jstype) (const char *const *names, size_t names_len) "byte[][]"
%typemap(javain) (const char *const *names, size_t names_len) "$javainput"
%typemap(in) (const char *const *names, size_t names_len) (char **copies = NULL, jsize count = 0) %{
  $1 = NULL;
  $2 = 0;
  if ($input) {
    jsize i;
    count = (*jenv)->GetArrayLength(jenv, $input);
    copies = calloc(count > 0 ? (size_t)count : 1, sizeof *copies);
    if (!copies) {
      om_java_no_memory(jenv);
      return $null;
    }
    for (i = 0; i < count; i++) {
      jbyteArray item = (jbyteArray)(*jenv)->GetObjectArrayElement(jenv, $input, i);
      if (item) {
        copies[i] = om_java_bytes_dup(jenv, item, NULL);
        (*jenv)->DeleteLocalRef(jenv, item);
        if (!copies[i]) {
          jsize j;
          for (j = 0; j < i; j++)
            free(copies[j]);
          free(copies);
          return $null;
        }
      }
    }
    $1 = ($1_ltype)copies;
    $2 = (size_t)count;
  }
%}
%typemap(freearg) (const char *const *names, size_t names_len) %{
  if (copies$argnum) {
    jsize i;
    for (i = 0; i < count$argnum; i++)
      free(copies$argnum[i]);
    free(copies$argnum);
  }
%}

/* char **out: a byte[1][] holder receiving the UTF-8 result; the C string
 * is released here. */
%typemap(jni) char **out "jobjectArray"
%typemap(jtype) char **out "byte[][]"
%typemap(jstype) char **out "byte[][]"
%typemap(javain) char **out "$javainput"
%typemap(in) char **out (char *temp = NULL) %{
  $1 = om_java_length(jenv, $input) >= 1 ? &temp : NULL;
%}
%typemap(argout) char **out %{
  if ($1 && temp$argnum) {
    jbyteArray bytes = om_java_new_bytes(jenv, temp$argnum, strlen(temp$argnum));
    if (bytes) {
      (*jenv)->SetObjectArrayElement(jenv, $input, 0, bytes);
      (*jenv)->DeleteLocalRef(jenv, bytes);
    }
  }
%}
%typemap(freearg) char **out %{ om_string_free(temp$argnum); %}

/* ---- int64_t arrays: input (sizes, coordinates) and output (coordinate) */
%define OM_JAVA_INT64_ARRAY_IN(PTR, LEN)
%typemap(jni) (const int64_t *PTR, size_t LEN) "jlongArray"
%typemap(jtype) (const int64_t *PTR, size_t LEN) "long[]"
%typemap(jstype) (const int64_t *PTR, size_t LEN) "long[]"
%typemap(javain) (const int64_t *PTR, size_t LEN) "$javainput"
%typemap(in) (const int64_t *PTR, size_t LEN) (int64_t *values = NULL) %{
  $1 = NULL;
  $2 = 0;
  if ($input) {
    jsize i, n = (*jenv)->GetArrayLength(jenv, $input);
    jlong *raw = (*jenv)->GetLongArrayElements(jenv, $input, NULL);
    if (!raw)
      return $null;
    values = malloc(sizeof *values * (n > 0 ? (size_t)n : 1));
    if (values)
      for (i = 0; i < n; i++)
        values[i] = (int64_t)raw[i];
    (*jenv)->ReleaseLongArrayElements(jenv, $input, raw, JNI_ABORT);
    if (!values) {
      om_java_no_memory(jenv);
      return $null;
    }
    $1 = values;
    $2 = (size_t)n;
  }
%}
%typemap(freearg) (const int64_t *PTR, size_t LEN) %{ free(values$argnum); %}
%enddef
OM_JAVA_INT64_ARRAY_IN(sizes, sizes_len)
OM_JAVA_INT64_ARRAY_IN(coord, coord_len)

/* Coordinates come back as a Java int[] (ranks and sizes fit an int); up
 * to 64 axes on the stack. */
%typemap(jni) (int64_t *coord, size_t coord_len) "jintArray"
%typemap(jtype) (int64_t *coord, size_t coord_len) "int[]"
%typemap(jstype) (int64_t *coord, size_t coord_len) "int[]"
%typemap(javain) (int64_t *coord, size_t coord_len) "$javainput"
%typemap(in) (int64_t *coord, size_t coord_len)
     (int64_t stack[64], int64_t *values = NULL, jsize count = 0) %{
  count = om_java_length(jenv, $input);
  values = count <= 64 ? stack : malloc(sizeof *values * (size_t)count);
  if (!values) {
    om_java_no_memory(jenv);
    return $null;
  }
  $1 = values;
  $2 = (size_t)count;
%}
%typemap(argout) (int64_t *coord, size_t coord_len) %{
  {
    jsize i;
    for (i = 0; result == OM_OK && i < count$argnum; i++) {
      jint v = (jint)values$argnum[i];
      (*jenv)->SetIntArrayRegion(jenv, $input, i, 1, &v);
    }
  }
%}
%typemap(freearg) (int64_t *coord, size_t coord_len) %{
  if (values$argnum != stack$argnum)
    free(values$argnum);
%}

/* ---- int32_t rank buffers (groups) */
%typemap(jni) (int32_t *out, size_t out_len) "jintArray"
%typemap(jtype) (int32_t *out, size_t out_len) "int[]"
%typemap(jstype) (int32_t *out, size_t out_len) "int[]"
%typemap(javain) (int32_t *out, size_t out_len) "$javainput"
%typemap(in) (int32_t *out, size_t out_len) (jint *values = NULL) %{
  $1 = NULL;
  $2 = 0;
  if ($input) {
    values = (*jenv)->GetIntArrayElements(jenv, $input, NULL);
    if (!values)
      return $null;
    $1 = (int32_t *)values;
    $2 = (size_t)(*jenv)->GetArrayLength(jenv, $input);
  }
%}
%typemap(freearg) (int32_t *out, size_t out_len) %{
  if (values$argnum)
    (*jenv)->ReleaseIntArrayElements(jenv, $input, values$argnum, 0);
%}

/* ---- scalar out-parameters as one-element arrays */
%define OM_JAVA_OUT_SCALAR(CTYPE, JNITYPE, JTYPE, JELEM, SETTER)
%typemap(jni) CTYPE *OM_OUT "JNITYPE"
%typemap(jtype) CTYPE *OM_OUT "JTYPE"
%typemap(jstype) CTYPE *OM_OUT "JTYPE"
%typemap(javain) CTYPE *OM_OUT "$javainput"
%typemap(in) CTYPE *OM_OUT (CTYPE temp = 0) %{
  $1 = om_java_length(jenv, $input) >= 1 ? &temp : NULL;
%}
%typemap(argout) CTYPE *OM_OUT %{
  if ($1) {
    JELEM v = (JELEM)temp$argnum;
    (*jenv)->SETTER(jenv, $input, 0, 1, &v);
  }
%}
%enddef
OM_JAVA_OUT_SCALAR(int64_t, jlongArray, long[], jlong, SetLongArrayRegion)
OM_JAVA_OUT_SCALAR(uint64_t, jlongArray, long[], jlong, SetLongArrayRegion)
OM_JAVA_OUT_SCALAR(bool, jbooleanArray, boolean[], jboolean, SetBooleanArrayRegion)

%apply int64_t *OM_OUT {
  int64_t *world_size, int64_t *rank, int64_t *index, int64_t *group_count,
  int64_t *group_size, int64_t *local_groups, int64_t *max_hosts
};
%apply uint64_t *OM_OUT { uint64_t *mask };
%apply bool *OM_OUT { bool *found };

%include "offline_mesh.i"
