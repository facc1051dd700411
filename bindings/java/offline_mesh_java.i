/* liboffline_mesh: the Java (JNI) representation of the shared conventions.
 * SPDX-License-Identifier: MIT
 *
 * ../offline_mesh.i maps every parameter of the C API onto named patterns;
 * this file says how Java represents each one. The generated classes
 * (OfflineMeshNative, OfflineMeshNativeJNI, Mesh, Dims, ...) are
 * package-private in org.offlinemesh; the hand-written classes beside them
 * (OfflineMesh, ParallelDims, OfflineMeshes, ...) are the public API.
 *
 *   OM_ERROR   hidden: a failed call throws the exception made by
 *              NativeErrors.create(status, message) before returning
 *   om_status  a plain int (always OM_OK once the call returned)
 *   handles    SWIG's proxy classes Mesh and Dims (no finalize())
 *   OM_NEW     a long[1] holder receiving the new handle
 *   OM_STRING  a byte[1][] holder receiving the UTF-8 string
 *   OM_BUFFER  an int[] / long[] ONE LONGER than the buffer: its last
 *              element receives the needed length (one call, no retry)
 *   OM_STRINGS byte[][] of UTF-8 strings; OM_TEXT byte[]; OM_INTS long[]
 *   OM_OUTPUT  one-element arrays (long[], boolean[])
 * Strings cross as UTF-8 bytes, never JNI's "modified UTF-8", so names
 * outside the BMP round-trip; a null array reaches C as NULL, which the
 * library reports through its error (no early return skipping a free).
 */

%module OfflineMeshNative
#define OM_CONVENTIONS

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
%typemap(javaclassmodifiers) enum SWIGTYPE, SWIGTYPE "final class"
%typemap(javafinalize) SWIGTYPE ""   /* Cleaner in OfflineMesh instead */

/* No public constants interface: Java has its own values for these. */
%ignore OM_ERROR_MESSAGE_SIZE;
%ignore OM_MAX_RANKS;
%ignore OM_STATUS_COUNT;        /* Status.values() */


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
%typemap(in, numinputs=0) om_error *OM_ERROR (om_error temp) %{
  temp.status = OM_OK;
  temp.message[0] = '\0';
  $1 = &temp;
%}
%typemap(argout) om_error *OM_ERROR %{
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

/* ---- OM_NEW: a long[1] holder receiving the new handle */
%typemap(jni) SWIGTYPE **OM_NEW "jlongArray"
%typemap(jtype) SWIGTYPE **OM_NEW "long[]"
%typemap(jstype) SWIGTYPE **OM_NEW "long[]"
%typemap(javain) SWIGTYPE **OM_NEW "$javainput"
%typemap(in) SWIGTYPE **OM_NEW ($*1_ltype temp = NULL) %{
  $1 = om_java_length(jenv, $input) >= 1 ? &temp : NULL;
%}
%typemap(argout) SWIGTYPE **OM_NEW %{
  if ($1) {
    jlong handle = (jlong)(intptr_t)temp$argnum;
    (*jenv)->SetLongArrayRegion(jenv, $input, 0, 1, &handle);
  }
%}

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
%typemap(jni) (const char *OM_TEXT, size_t OM_TEXT_LEN) "jbyteArray"
%typemap(jtype) (const char *OM_TEXT, size_t OM_TEXT_LEN) "byte[]"
%typemap(jstype) (const char *OM_TEXT, size_t OM_TEXT_LEN) "byte[]"
%typemap(javain) (const char *OM_TEXT, size_t OM_TEXT_LEN) "$javainput"
%typemap(in) (const char *OM_TEXT, size_t OM_TEXT_LEN) %{
  $1 = NULL;
  $2 = 0;
  if ($input) {
    $1 = om_java_bytes_dup(jenv, $input, &$2);
    if (!$1)
      return $null;
  }
%}
%typemap(freearg) (const char *OM_TEXT, size_t OM_TEXT_LEN) %{ free((char *)$1); %}

/* (names, names_len): byte[][] of UTF-8 names; a null element reaches C
 * as a NULL name (OM_ERR_INVALID_NAME). */
%typemap(jni) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "jobjectArray"
%typemap(jtype) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "byte[][]"
%typemap(jstype) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "byte[][]"
%typemap(javain) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "$javainput"
%typemap(in) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) (char **copies = NULL, jsize count = 0) %{
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
%typemap(freearg) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) %{
  if (copies$argnum) {
    jsize i;
    for (i = 0; i < count$argnum; i++)
      free(copies$argnum[i]);
    free(copies$argnum);
  }
%}

/* char **OM_STRING: a byte[1][] holder receiving the UTF-8 result; the C string
 * is released here. */
%typemap(jni) char **OM_STRING "jobjectArray"
%typemap(jtype) char **OM_STRING "byte[][]"
%typemap(jstype) char **OM_STRING "byte[][]"
%typemap(javain) char **OM_STRING "$javainput"
%typemap(in) char **OM_STRING (char *temp = NULL) %{
  $1 = om_java_length(jenv, $input) >= 1 ? &temp : NULL;
%}
%typemap(argout) char **OM_STRING %{
  if ($1 && temp$argnum) {
    jbyteArray bytes = om_java_new_bytes(jenv, temp$argnum, strlen(temp$argnum));
    if (bytes) {
      (*jenv)->SetObjectArrayElement(jenv, $input, 0, bytes);
      (*jenv)->DeleteLocalRef(jenv, bytes);
    }
  }
%}
%typemap(freearg) char **OM_STRING %{ om_string_free(temp$argnum); %}

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
%typemap(argout) (const int64_t *PTR, size_t LEN) ""  /* not OM_OUTPUT's */
%enddef
OM_JAVA_INT64_ARRAY_IN(OM_INTS, OM_INTS_LEN)

/* ---- OM_BUFFER: a Java array one longer than the buffer; its last
 * element receives the needed length */
%define OM_JAVA_BUFFER(CTYPE, JARRAY, JTYPE, JELEM, GET, RELEASE)
%typemap(jni) (CTYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) "JARRAY"
%typemap(jtype) (CTYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) "JTYPE"
%typemap(jstype) (CTYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) "JTYPE"
%typemap(javain) (CTYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) "$javainput"
%typemap(in) (CTYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED)
     (JELEM *values = NULL, jsize count = 0, size_t needed = 0) %{
  $1 = NULL;
  $2 = 0;
  $3 = &needed;
  count = om_java_length(jenv, $input);
  if (count > 0) {
    values = (*jenv)->GET(jenv, $input, NULL);
    if (!values)
      return $null;
    $1 = (CTYPE *)values;
    $2 = (size_t)count - 1;
  }
%}
%typemap(argout) (CTYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) %{
  if (values$argnum)
    values$argnum[count$argnum - 1] = (JELEM)needed$argnum;
%}
%typemap(freearg) (CTYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) %{
  if (values$argnum)
    (*jenv)->RELEASE(jenv, $input, values$argnum, 0);
%}
%enddef
OM_JAVA_BUFFER(int32_t, jintArray, int[], jint, GetIntArrayElements, ReleaseIntArrayElements)
OM_JAVA_BUFFER(int64_t, jlongArray, long[], jlong, GetLongArrayElements, ReleaseLongArrayElements)

/* ---- scalar out-parameters as one-element arrays */
%define OM_JAVA_OUT_SCALAR(CTYPE, JNITYPE, JTYPE, JELEM, SETTER)
%typemap(jni) CTYPE *OM_OUTPUT "JNITYPE"
%typemap(jtype) CTYPE *OM_OUTPUT "JTYPE"
%typemap(jstype) CTYPE *OM_OUTPUT "JTYPE"
%typemap(javain) CTYPE *OM_OUTPUT "$javainput"
%typemap(in) CTYPE *OM_OUTPUT (CTYPE temp = 0) %{
  $1 = om_java_length(jenv, $input) >= 1 ? &temp : NULL;
%}
%typemap(argout) CTYPE *OM_OUTPUT %{
  if ($1) {
    JELEM v = (JELEM)temp$argnum;
    (*jenv)->SETTER(jenv, $input, 0, 1, &v);
  }
%}
%enddef
OM_JAVA_OUT_SCALAR(int64_t, jlongArray, long[], jlong, SetLongArrayRegion)
OM_JAVA_OUT_SCALAR(uint64_t, jlongArray, long[], jlong, SetLongArrayRegion)
OM_JAVA_OUT_SCALAR(bool, jbooleanArray, boolean[], jboolean, SetBooleanArrayRegion)

OM_JAVA_OUT_SCALAR(size_t, jlongArray, long[], jlong, SetLongArrayRegion)

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
