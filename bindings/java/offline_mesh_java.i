/* liboffline_mesh: the Java (JNI) representation of the shared conventions.
 * SPDX-License-Identifier: MIT
 *
 * SWIG generates the public API: one final, AutoCloseable class per handle
 * (OfflineMesh, ParallelDims, Hierarchy, Locality, World, Preset), the
 * enums (Status, Dim, Flag, ...), and OfflineMeshes for the functions that
 * belong to no handle. Every C function is declared once below, as a
 * method of the handle it takes first (om_mesh_size -> OfflineMesh.size())
 * or as a static method of OfflineMeshes (om_launch_plan ->
 * OfflineMeshes.launchPlan()). Its declared return type says what Java
 * returns (Java is typed, so the declaration states it):
 *
 *   OM_VOID    nothing                OM_STRING_R  the char **out string
 *   OM_MESH, OM_DIMS, ...             the new handle of `T **out`
 *   OM_INTS_R, OM_LONGS_R             the OM_BUFFER contents (int[], long[])
 *   OM_LONG, OM_BOOL, OM_<ENUM>       the single scalar output
 *   OM_LONGS_OUT                      every scalar output, in order (long[])
 *
 * A failed call throws from the wrapper (status + om_error message):
 * OfflineMeshException (an IllegalArgumentException with status()),
 * IOException for OM_ERR_IO (file readers declare it), OutOfMemoryError.
 * Strings cross as UTF-8 bytes both ways (never JNI's modified UTF-8).
 * A closed handle throws IllegalStateException; an unreachable one is
 * freed by a Cleaner (no finalize()).
 */

%module OfflineMeshNative
#define OM_OWN_CLASS_NAMES
#define OM_JAVA_METHODS

%include <enums.swg>   /* proper Java enums, values as constants */
%javaconst(1);
%pragma(java) moduleclassmodifiers="final class"
%pragma(java) jniclassclassmodifiers="final class"
%pragma(java) jniclasscode=%{ static { Native.load(); } %}

/* ---- names ---------------------------------------------------------------- */
%rename(OfflineMesh) om_mesh;
%rename(ParallelDims) om_dims;
%rename(Preset) om_preset;
%rename(Hierarchy) om_hierarchy;
%rename(Locality) om_locality;
%rename(World) om_world;
%rename(Diagnostics) om_diagnostics;
%rename(OfflineMeshes) om;
%rename(Status) om_status;
%rename(Dim) om_dim;
%rename(Flag) om_flag;
%rename(LocalityField) om_locality_field;
%rename(LaunchFormat) om_launch_format;
%rename(WorldSizeSource) om_world_size_source;
%rename(DiagnosticKind) om_diagnostic_kind;
%rename("%(regex:/^OM_(ERR_|DIM_|FLAG_|LOCALITY_|LAUNCH_|WORLD_SIZE_|DIAGNOSTIC_)?(.*)/\\2/)s", %$isenumitem) "";
%ignore OM_ERROR_MESSAGE_SIZE;
%ignore OM_MAX_RANKS;
%ignore OM_STATUS_COUNT;
%ignore OM_WORLD_SIZE_SOURCE_COUNT;
%ignore OM_DIAGNOSTIC_KIND_COUNT;
%ignore OM_DIAGNOSTICS_MAX_UNKNOWN_KEYS;
%ignore om_error;

/* ---- classes: final, AutoCloseable, freed by close() or a Cleaner --------- */
%typemap(javaclassmodifiers) SWIGTYPE "public final class"
%typemap(javainterfaces) SWIGTYPE "AutoCloseable"
%typemap(javabody) SWIGTYPE %{
  private transient long swigCPtr;
  private final java.lang.ref.Cleaner.Cleanable cleanable;

  $javaclassname(long cPtr, boolean own) {
    swigCPtr = cPtr;
    cleanable = Native.CLEANER.register(this, () -> OfflineMeshNativeJNI.delete_$javaclassname(cPtr));
  }

  /** 0 for null (the library reports the NULL argument); a closed object throws. */
  static long getCPtr($javaclassname obj) {
    if (obj != null && obj.swigCPtr == 0) throw new IllegalStateException("$javaclassname used after close()");
    return obj == null ? 0 : obj.swigCPtr;
  }
%}
%typemap(javadestruct, methodname="close", methodmodifiers="public synchronized") SWIGTYPE {
    swigCPtr = 0;
    cleanable.clean();
  }
%typemap(javafinalize) SWIGTYPE ""
/* A closed handle (pointer 0), checked before any input is converted. */
%typemap(in) SWIGTYPE *self %{
  $1 = *($&1_ltype)&$input;
  if (!$1) {
    SWIG_JavaThrowException(jenv, SWIG_JavaIllegalStateException, "used after close()");
    return $null;
  }
%}
%typemap(javainterfaces) om, struct om ""
%typemap(javabody) om, struct om %{
  private OfflineMeshes() {
  }
%}
%typemap(javadestruct) om, struct om ""
%typemap(javacode) om_status %{
  /** The library's English text, e.g. "parse error". */
  public String description() { return OfflineMeshes.statusString(this); }
  /** The C name, e.g. "OM_ERR_PARSE". */
  public String cName() { return OfflineMeshes.statusName(this); }
%}
%typemap(javacode) om_world_size_source %{
  public String toString() { return OfflineMeshes.worldSizeSourceString(this); }
  /** The environment variable it came from, or null. */
  public String variable() { return OfflineMeshes.worldSizeSourceVariable(this); }
%}

%{
#include "offline_mesh.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Return kinds: om_status under the name of what the method returns. */
typedef om_status om_java_void, om_java_string, om_java_ints, om_java_longs,
    om_java_long, om_java_bool, om_java_source, om_java_format, om_java_size,
    om_java_groups, om_java_mesh, om_java_dims, om_java_preset, om_java_world,
    om_java_hierarchy, om_java_locality, om_java_diagnostics;

/* Throws OfflineMeshException.create(status, UTF-8 message) from C. */
static void om_java_throw(JNIEnv *jenv, const om_error *err) {
  jclass cls = (*jenv)->FindClass(jenv, "org/offlinemesh/OfflineMeshException");
  jmethodID create = cls ? (*jenv)->GetStaticMethodID(jenv, cls, "create",
                                                      "(I[B)Ljava/lang/Throwable;") : NULL;
  jsize n = (jsize)strnlen(err->message, sizeof err->message);
  jbyteArray message = create ? (*jenv)->NewByteArray(jenv, n) : NULL;
  jobject exc;
  if (!message)
    return; /* an exception is pending already */
  (*jenv)->SetByteArrayRegion(jenv, message, 0, n, (const jbyte *)err->message);
  exc = (*jenv)->CallStaticObjectMethod(jenv, cls, create, (jint)err->status, message);
  if (exc && !(*jenv)->ExceptionCheck(jenv))
    (*jenv)->Throw(jenv, (jthrowable)exc);
}

static jbyteArray om_java_bytes(JNIEnv *jenv, const char *text) {
  jsize n = text ? (jsize)strlen(text) : 0;
  jbyteArray array = text ? (*jenv)->NewByteArray(jenv, n) : NULL;
  if (array)
    (*jenv)->SetByteArrayRegion(jenv, array, 0, n, (const jbyte *)text);
  return array;
}

/* A NUL-terminated copy of a byte[] (NULL for null, or when out of memory:
 * the library then reports the NULL argument). */
static char *om_java_dup(JNIEnv *jenv, jbyteArray array, size_t *length) {
  jsize n = array ? (*jenv)->GetArrayLength(jenv, array) : 0;
  char *copy = array ? malloc((size_t)n + 1) : NULL;
  if (copy) {
    (*jenv)->GetByteArrayRegion(jenv, array, 0, n, (jbyte *)copy);
    copy[n] = '\0';
  }
  if (length)
    *length = (size_t)n;
  return copy;
}

/* The outputs of one call. A bulk-output buffer starts with a guess on the
 * stack; when the library says it is short, the wrapper grows it to the
 * needed length and calls again. Scalar outputs collect in `scalars`. */
typedef struct om_java_buffer {
  void **arg;        /* the wrapper's buffer argument */
  size_t *arg_len;   /* and its length argument */
  size_t elem, needed, group_size;
  void *heap;
  int64_t stack[64];
  jlong scalars[4];
  jsize nscalars;
} om_java_buffer;

static void om_java_buffer_init(om_java_buffer *b, void **arg, size_t *len,
                                size_t elem, size_t guess) {
  b->arg = arg;
  b->arg_len = len;
  b->elem = elem;
  b->needed = b->group_size = 0;
  b->heap = NULL;
  *arg = b->stack;
  *len = guess < sizeof b->stack / elem ? guess : sizeof b->stack / elem;
}

/* Returns the scalar outputs as a long[] (only kinds returning an array
 * have a slot for it; the others have no scalar outputs). */
static void om_java_scalars(JNIEnv *jenv, jobject *slot, const om_java_buffer *b) {
  jlongArray array = slot ? (*jenv)->NewLongArray(jenv, b->nscalars) : NULL;
  if (array) {
    (*jenv)->SetLongArrayRegion(jenv, array, 0, b->nscalars, b->scalars);
    *slot = array;
  }
}

/* What the retry below reads in calls without an error report: never
 * written (a status of OM_OK never grows). The fallible calls declare
 * their own om_err and om_buf (the om_error typemap), which shadow these. */
static om_error om_err;
static om_java_buffer om_buf;

/* True when the call may be repeated with a buffer of the needed length. */
static bool om_java_buffer_grow(om_java_buffer *b, om_error *err) {
  if (err->status != OM_ERR_BUFFER_TOO_SMALL || b->needed <= *b->arg_len || b->heap)
    return false;
  b->heap = malloc(b->needed * b->elem);
  if (!b->heap)
    return false;
  *b->arg = b->heap;
  *b->arg_len = b->needed;
  err->status = OM_OK;
  return true;
}
%}

%exception %{
  $action
  if (om_java_buffer_grow(&om_buf, &om_err)) {
    $action
  }
%}

/* ---- return kinds --------------------------------------------------------- */
%define OM_JAVA_RETURN(KIND, JNI, JTYPE, JSTYPE, JAVAOUT)
typedef om_status KIND;
%typemap(jni) KIND "JNI"
%typemap(jtype) KIND "JTYPE"
%typemap(jstype) KIND "JSTYPE"
%typemap(out) KIND ""
%typemap(javaout) KIND JAVAOUT
%enddef
%define OM_JAVA_HANDLE(KIND, CLASS)
OM_JAVA_RETURN(KIND, jlong, long, CLASS, { return new CLASS($jnicall, true); })
%enddef
OM_JAVA_RETURN(om_java_void, jint, int, void, { $jnicall; })
OM_JAVA_RETURN(om_java_string, jbyteArray, byte[], String, { return Native.string($jnicall); })
OM_JAVA_RETURN(om_java_ints, jintArray, int[], int[], { return $jnicall; })
OM_JAVA_RETURN(om_java_longs, jlongArray, long[], long[], { return $jnicall; })
OM_JAVA_RETURN(om_java_long, jlongArray, long[], long, { return $jnicall[0]; })
OM_JAVA_RETURN(om_java_bool, jlongArray, long[], boolean, { return $jnicall[0] != 0; })
OM_JAVA_RETURN(om_java_source, jlongArray, long[], WorldSizeSource,
               { return WorldSizeSource.swigToEnum((int) $jnicall[0]); })
OM_JAVA_RETURN(om_java_format, jlongArray, long[], LaunchFormat,
               { return LaunchFormat.swigToEnum((int) $jnicall[0]); })
OM_JAVA_RETURN(om_java_size, jlongArray, long[], WorldSize,
               { long[] r = $jnicall; return new WorldSize(r[0], WorldSizeSource.swigToEnum((int) r[1])); })
OM_JAVA_RETURN(om_java_groups, jintArray, int[], int[][], {
    int[] flat = $jnicall;
    return Native.split(java.util.Arrays.copyOf(flat, flat.length - 1), flat[flat.length - 1]);
  })

/* ---- hidden parameters ------------------------------------------------------ */
%typemap(in, numinputs=0) om_error *OM_ERROR %{
  om_error om_err;
  om_java_buffer om_buf;
  om_err.status = OM_OK;
  om_err.message[0] = '\0';
  om_buf.heap = NULL;
  om_buf.needed = 0;
  om_buf.nscalars = 0;
  om_buf.arg_len = &om_buf.needed;
  $1 = &om_err;
%}
/* The last parameter: throws, or returns the scalar outputs as a long[]. */
%typemap(argout) om_error *OM_ERROR %{
  if (om_err.status != OM_OK)
    om_java_throw(jenv, &om_err);
  else if (om_buf.nscalars > 0)
    om_java_scalars(jenv, _Generic(&$result, jobject *: (jobject *)(void *)&$result, default: NULL), &om_buf);
%}
%typemap(freearg) om_error *OM_ERROR %{ free(om_buf.heap); %}

%typemap(in, numinputs=0) SWIGTYPE **OM_NEW ($*1_ltype temp = NULL) %{ $1 = &temp; %}
%typemap(argout) SWIGTYPE **OM_NEW %{ $result = (jlong)(intptr_t)temp$argnum; %}
OM_JAVA_HANDLE(om_java_mesh, OfflineMesh)
OM_JAVA_HANDLE(om_java_dims, ParallelDims)
OM_JAVA_HANDLE(om_java_preset, Preset)
OM_JAVA_HANDLE(om_java_world, World)
OM_JAVA_HANDLE(om_java_hierarchy, Hierarchy)
OM_JAVA_HANDLE(om_java_locality, Locality)
OM_JAVA_HANDLE(om_java_diagnostics, Diagnostics)

%typemap(in, numinputs=0) char **OM_STRING (char *temp = NULL) %{ $1 = &temp; %}
%typemap(argout) char **OM_STRING %{ if (temp$argnum) $result = om_java_bytes(jenv, temp$argnum); %}
%typemap(freearg) char **OM_STRING %{ om_string_free(temp$argnum); %}

/* Scalar outputs, in order: the long[] the return kind reads. */
%typemap(in, numinputs=0) int64_t *OM_OUTPUT (int64_t temp = 0), uint64_t *OM_OUTPUT (uint64_t temp = 0),
    bool *OM_OUTPUT (bool temp = 0), size_t *OM_OUTPUT (size_t temp = 0),
    enum SWIGTYPE * ($*1_ltype temp = 0) %{ $1 = &temp; %}
%typemap(argout) int64_t *OM_OUTPUT, uint64_t *OM_OUTPUT, bool *OM_OUTPUT, size_t *OM_OUTPUT,
    enum SWIGTYPE * %{ om_buf.scalars[om_buf.nscalars++] = (jlong)temp$argnum; %}
/* A count that the returned lines already give. */
%typemap(in, numinputs=0) size_t *count (size_t temp = 0) %{ $1 = &temp; %}
%typemap(argout) size_t *count ""

/* Bulk outputs (GUESS: the first buffer length) into a new int[] / long[].
 * Set up in "check", which runs after every "in" (om_buf is declared by the
 * om_error typemap, arg1 is set). */
%define OM_JAVA_BUFFER(CTYPE, PATTERN, GUESS, NEW, SET)
%typemap(in, numinputs=0) (CTYPE *PATTERN, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) ""
%typemap(check) (CTYPE *PATTERN, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) %{
  om_java_buffer_init(&om_buf, (void **)&$1, &$2, sizeof(CTYPE), GUESS);
  $3 = &om_buf.needed;
%}
%typemap(argout) (CTYPE *PATTERN, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) %{
  if (om_err.status == OM_OK && ($result = (*jenv)->NEW(jenv, (jsize)om_buf.needed)))
    (*jenv)->SET(jenv, $result, 0, (jsize)om_buf.needed, (const void *)$1);
%}
%enddef
OM_JAVA_BUFFER(int32_t, OM_BUFFER, 256, NewIntArray, SetIntArrayRegion)
OM_JAVA_BUFFER(int64_t, OM_BUFFER, 64, NewLongArray, SetLongArrayRegion)
OM_JAVA_BUFFER(int64_t, OM_COORD, om_mesh_ndim(arg1), NewLongArray, SetLongArrayRegion)
/* A named group list: the group size travels as the last element. */
%typemap(in, numinputs=0) (int32_t *out, size_t out_len, size_t *needed, size_t *group_size) ""
%typemap(check) (int32_t *out, size_t out_len, size_t *needed, size_t *group_size) %{
  om_java_buffer_init(&om_buf, (void **)&$1, &$2, sizeof(int32_t), 256);
  $3 = &om_buf.needed;
  $4 = &om_buf.group_size;
%}
%typemap(argout) (int32_t *out, size_t out_len, size_t *needed, size_t *group_size) %{
  if (om_err.status == OM_OK && ($result = (*jenv)->NewIntArray(jenv, (jsize)om_buf.needed + 1))) {
    jint size = (jint)om_buf.group_size;
    (*jenv)->SetIntArrayRegion(jenv, $result, 0, (jsize)om_buf.needed, (const jint *)$1);
    (*jenv)->SetIntArrayRegion(jenv, $result, (jsize)om_buf.needed, 1, &size);
  }
%}

/* ---- inputs ------------------------------------------------------------------ */
%apply long long { int64_t, uint64_t };   /* a uint64_t hash or mask: the same bits */

/* Strings: checked UTF-8 in Java (Native.cstr refuses NUL and unpaired
 * surrogates), copied NUL-terminated here; null reaches C as NULL. */
%typemap(jni) const char * "jbyteArray"
%typemap(jtype) const char * "byte[]"
%typemap(jstype) const char * "String"
%typemap(javain) const char * "Native.cstr($javainput)"
%typemap(javaout) const char * { return Native.string($jnicall); }
%typemap(in) const char * %{ $1 = om_java_dup(jenv, $input, NULL); %}
%typemap(freearg) const char * %{ free((char *)$1); %}
%typemap(out) const char * %{ $result = om_java_bytes(jenv, $1); %}

%typemap(jni) (const char *OM_TEXT, size_t OM_TEXT_LEN) "jbyteArray"
%typemap(jtype) (const char *OM_TEXT, size_t OM_TEXT_LEN) "byte[]"
%typemap(jstype) (const char *OM_TEXT, size_t OM_TEXT_LEN) "String"
%typemap(javain) (const char *OM_TEXT, size_t OM_TEXT_LEN) "Native.utf8($javainput)"
%typemap(in) (const char *OM_TEXT, size_t OM_TEXT_LEN) %{ $1 = om_java_dup(jenv, $input, &$2); %}
%typemap(freearg) (const char *OM_TEXT, size_t OM_TEXT_LEN) %{ free((char *)$1); %}

/* Lists of strings: String[] (String... where it is the last parameter),
 * sent as ONE byte[] of NUL-terminated UTF-8 names (Native.cstrs; a null
 * name is the single byte 0xFF, never valid UTF-8, and reaches C as NULL):
 * one JNI copy into one buffer, on the stack when small. */
%define OM_JAVA_STRINGS(PATTERN)
%typemap(jni) (const char *const *PATTERN, size_t OM_STRINGS_LEN) "jbyteArray"
%typemap(jtype) (const char *const *PATTERN, size_t OM_STRINGS_LEN) "byte[]"
%typemap(jstype) (const char *const *PATTERN, size_t OM_STRINGS_LEN) "String[]"
%typemap(javain) (const char *const *PATTERN, size_t OM_STRINGS_LEN) "Native.cstrs($javainput)"
%typemap(in) (const char *const *PATTERN, size_t OM_STRINGS_LEN) (char *stack[64], char **names = NULL) %{
  {
    size_t n = $input ? (size_t)(*jenv)->GetArrayLength(jenv, $input) : 0, start = 0;
    names = n * (sizeof *names + 1) <= sizeof stack ? stack : malloc(n * (sizeof *names + 1));
    char *text = (char *)(names + n);
    $2 = 0;
    if ($input && names) {
      (*jenv)->GetByteArrayRegion(jenv, $input, 0, (jsize)n, (jbyte *)text);
      for (size_t i = 0; i < n; i++)
        if (text[i] == '\0') {
          names[$2++] = text[start] == '\xff' && i == start + 1 ? NULL : text + start;
          start = i + 1;
        }
    }
    $1 = ($1_ltype)($input ? names : NULL);
  }
%}
%typemap(freearg) (const char *const *PATTERN, size_t OM_STRINGS_LEN) %{ if (names$argnum != stack$argnum) free(names$argnum); %}
%enddef
OM_JAVA_STRINGS(OM_STRINGS)
OM_JAVA_STRINGS(OM_VARARGS)
%typemap(jstype) (const char *const *OM_VARARGS, size_t OM_STRINGS_LEN) "String..."

/* Java arrays read (and for 1.0 "into" buffers written) in place:
 * jlong is int64_t, jint int32_t. MODE: JNI_ABORT (read only) or 0. */
%define OM_JAVA_ARRAY(PTR, LEN, JNI, JTYPE, JSTYPE, JAVAIN, ELEM, MODE)
%typemap(jni) (PTR, size_t LEN) "JNI"
%typemap(jtype) (PTR, size_t LEN) "JTYPE"
%typemap(jstype) (PTR, size_t LEN) "JSTYPE"
%typemap(javain) (PTR, size_t LEN) "JAVAIN"
%typemap(in) (PTR, size_t LEN) %{
  $2 = $input ? (size_t)(*jenv)->GetArrayLength(jenv, $input) : 0;
  $1 = $input ? ($1_ltype)(*jenv)->Get##ELEM##ArrayElements(jenv, $input, NULL) : NULL;
%}
%typemap(argout) (PTR, size_t LEN) ""
%typemap(freearg) (PTR, size_t LEN) %{ if ($1) (*jenv)->Release##ELEM##ArrayElements(jenv, $input, (void *)$1, MODE); %}
%enddef
OM_JAVA_ARRAY(const int64_t *OM_INTS, OM_INTS_LEN, jlongArray, long[], long[], $javainput, Long, JNI_ABORT)
OM_JAVA_ARRAY(const int64_t *OM_INTS_VARARGS, OM_INTS_LEN, jlongArray, long[], long..., $javainput, Long, JNI_ABORT)
OM_JAVA_ARRAY(int64_t *OM_INTO, OM_INTO_LEN, jlongArray, long[], long[], $javainput, Long, 0)
OM_JAVA_ARRAY(int32_t *OM_INTO, OM_INTO_LEN, jintArray, int[], int[], $javainput, Int, 0)
/* The views of a world: OfflineMesh[] as their handles, kept reachable. */
OM_JAVA_ARRAY(const om_mesh *const *OM_MESHES, OM_MESHES_LEN, jlongArray, long[], OfflineMesh[],
              java.util.Arrays.stream($javainput).mapToLong(OfflineMesh::getCPtr).toArray(), Long, JNI_ABORT)
%typemap(javain, post="      java.lang.ref.Reference.reachabilityFence($javainput);")
    (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN)
    "java.util.Arrays.stream($javainput).mapToLong(OfflineMesh::getCPtr).toArray()"

%apply SWIGTYPE **OM_NEW { om_mesh **out, om_dims **out, om_preset **out, om_world **out, om_hierarchy **out, om_locality **out, om_diagnostics **out };
%apply (int64_t *OM_COORD, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) {
    (int64_t *coord_out, size_t out_len, size_t *needed) };
%apply (const char *const *OM_VARARGS, size_t OM_STRINGS_LEN) {
    (const char *const *vaxes, size_t nvaxes) };
%apply (const int64_t *OM_INTS_VARARGS, size_t OM_INTS_LEN) {
    (const int64_t *vcoord, size_t nvcoord) };
%apply (int32_t *OM_INTO, size_t OM_INTO_LEN) { (int32_t *into, size_t into_len) };
%apply (int64_t *OM_INTO, size_t OM_INTO_LEN) { (int64_t *into, size_t into_len) };


/* ---- idiomatic additions (hand-written Java) --------------------------------- */
%typemap(javacode) struct om_mesh %{
  /** A mesh of these axis names and sizes (row-major). */
  public static OfflineMesh of(java.util.List<String> names, long... sizes) {
    return new OfflineMesh(names.toArray(new String[0]), sizes);
  }
  /** The axis names in mesh order. */
  public java.util.List<String> dimNames() {
    return java.util.stream.LongStream.range(0, ndim()).mapToObj(this::name).toList();
  }
  /** The axis sizes in mesh order. */
  public long[] shape() {
    return java.util.stream.LongStream.range(0, ndim()).map(this::dimSize).toArray();
  }
  /** Every group over the axes (any order; none: single ranks), ascending by first member. */
  public int[][] groups(String... axes) {
    long[] shape = groupShapeNamed(axes);
    return Native.split(groupsNamed(axes, 0, shape[0]), (int) shape[1]);
  }
  /** Group number {@code index} over the axes. */
  public int[] group(long index, String... axes) { return groupsNamed(axes, index, 1); }
  public long groupCount(String... axes) { return groupShapeNamed(axes)[0]; }
  public long groupSize(String... axes) { return groupShapeNamed(axes)[1]; }
  /** Index (in {@link #groups}) of the group over the axes holding {@code rank}. */
  public long groupIndex(long rank, String... axes) { return groupIndexNamed(axes, rank); }
  /** Members of the group over the axes holding {@code rank}. */
  public int[] groupOf(long rank, String... axes) { return groupOfNamed(axes, rank); }
  /** Host locality when ranks r..r+k-1 share a host (k = ranksPerHost). */
  public HostLocality locality(long ranksPerHost, String... axes) {
    long[] r = localityNamed(axes, ranksPerHost);
    return new HostLocality(r[0], r[1], r[2]);
  }
  /** Per-level locality of the groups over the axes in {@code hierarchy}. */
  public Locality locality(Hierarchy hierarchy, String... axes) { return hierarchy.locality(this, axes); }
  @Override public boolean equals(Object o) { return o instanceof OfflineMesh m && equal(m); }
  @Override public int hashCode() { return Long.hashCode(hash()); }
  /** {@code OfflineMesh{mesh_dim_names=[dp, tp], mesh_shape=[2, 4]}}; views add their layout JSON. */
  @Override public String toString() {
    if (swigCPtr == 0) return "OfflineMesh{closed}";
    return "OfflineMesh{mesh_dim_names=" + dimNames() + ", mesh_shape=" + java.util.Arrays.toString(shape())
        + (isPlain() ? "" : ", view=" + toViewJson()) + "}";
  }
%}
%typemap(javacode) struct om_dims %{
  /** Dims of a training YAML ({@link #parseYaml}) checked against a world size
   * ({@link #resolveWorldSize}: 0 = not given, then WORLD_SIZE, ... or 1). */
  public static ParallelDims parse(String yaml, long worldSize) { return resolved(parseYaml(yaml), worldSize); }
  public static ParallelDims read(String path, long worldSize) throws java.io.IOException {
    return resolved(readYaml(path), worldSize);
  }
  private static ParallelDims resolved(ParallelDims dims, long worldSize) {
    try {
      dims.resolveWorldSize(worldSize);
      return dims;
    } catch (RuntimeException e) {
      dims.close();
      throw e;
    }
  }
  /** Sets a size and returns these dims. */
  public ParallelDims with(Dim dim, long value) { set(dim, value); return this; }
  public ParallelDims with(Flag flag, boolean value) { setFlag(flag, value); return this; }
  public OfflineMesh buildOfflineMesh() { return OfflineMesh.fromDims(this); }
  public OfflineMesh buildRuntimeMesh(String order) { return OfflineMesh.fromDimsInOrder(this, order); }
  @Override public boolean equals(Object o) { return o instanceof ParallelDims d && equal(d); }
  @Override public int hashCode() { return toJson().hashCode(); }
  @Override public String toString() { return swigCPtr == 0 ? "ParallelDims{closed}" : "ParallelDims" + toJson(); }
%}
%typemap(javacode) struct om_hierarchy %{
  @Override public String toString() { return swigCPtr == 0 ? "Hierarchy{closed}" : "Hierarchy" + toJson(); }
%}
%typemap(javacode) struct om_world %{
  @Override public String toString() {
    return swigCPtr == 0 ? "World{closed}" : "World{size=" + size() + ", views="
        + java.util.stream.LongStream.range(0, viewCount()).mapToObj(this::viewName).toList() + "}";
  }
%}
%typemap(javacode) struct om_preset %{
  @Override public String toString() {
    return swigCPtr == 0 ? "Preset{closed}" : "Preset{" + name() + ", world_size=" + worldSize() + ", views="
        + java.util.stream.LongStream.range(0, viewCount()).mapToObj(this::viewName).toList() + "}";
  }
%}
%typemap(javacode) struct om_diagnostics %{
  /** The kind of diagnostic {@code index}. */
  public DiagnosticKind kindOf(long index) { return DiagnosticKind.swigToEnum(kind(index)); }
  /** The messages, in document order. */
  public java.util.List<String> messages() { return java.util.stream.LongStream.range(0, count()).mapToObj(this::message).toList(); }
  @Override public String toString() { return swigCPtr == 0 ? "Diagnostics{closed}" : "Diagnostics" + messages(); }
%}
%typemap(javacode) struct om_locality %{
  /** For example {@code Locality{groups=4, host={GROUPS_INSIDE=2, GROUPS_CROSSING=2, ...}}}. */
  @Override public String toString() {
    if (swigCPtr == 0) return "Locality{closed}";
    StringBuilder s = new StringBuilder("Locality{groups=" + groups());
    for (long level = 0; level < levels(); level++) {
      java.util.Map<LocalityField, Long> values = new java.util.EnumMap<>(LocalityField.class);
      for (LocalityField field : LocalityField.values()) values.put(field, get(level, field));
      s.append(", level ").append(level).append('=').append(values);
    }
    return s.append('}').toString();
  }
%}

%include "offline_mesh.i"



/* ---- the API -------------------------------------------------------------------
 * Each line is one C function: om_<class>_<name> as <class>.<name>, or
 * om_<name> as OfflineMeshes.<name>; names in lowerCamelCase. Bodies only
 * where the handle is not the first C argument. */
%javaexception("java.io.IOException") om_mesh::load_json %{ $action %}
%javaexception("java.io.IOException") om_dims::read_yaml %{ $action %}
%javaexception("java.io.IOException") om_dims::read_yaml_checked %{ $action %}
%javaexception("java.io.IOException") om_preset::load_yaml %{ $action %}
%javaexception("java.io.IOException") om_preset::check_yaml %{ $action %}
%javaexception("java.io.IOException") om_world::load_json %{ $action %}
%rename(size) om_mesh::size_of;
%rename(coordinate) om_mesh::coordinate_of;
%rename(coordinateInto) om_mesh::coordinate;
%rename(locality) om_hierarchy::locality_of;
%rename(check) om_hierarchy::check_rules;

%extend om_mesh {
  size_t ndim() const;
  const char *name(size_t index) const;
  int64_t dim_size(size_t index) const;
  int64_t size() const;
  int64_t size_of(const char *name) const;
  int index_of(const char *name) const;
  om_java_mesh get(const char *name, om_mesh **out, om_error *err) const;
  bool equal(const om_mesh *b) const;
  uint64_t hash() const;
  om_java_string to_json(char **out, om_error *err) const;
  om_java_string to_spec(char **out, om_error *err) const;
  static om_java_mesh from_json(const char *text, size_t length, om_mesh **out, om_error *err);
  static om_java_mesh load_json(const char *path, om_mesh **out, om_error *err);
  static om_java_mesh from_spec(const char *spec, om_mesh **out, om_error *err);
  static om_java_mesh from_dims(const om_dims *dims, om_mesh **out, om_error *err);
  static om_java_mesh from_dims_in_order(const om_dims *dims, const char *order, om_mesh **out, om_error *err);
  /* topology: axis sets by name (1.1) */
  om_java_longs axis_indices(const char *const *vaxes, size_t nvaxes, int64_t *out, size_t out_len, size_t *needed, om_error *err) const;
  om_java_longs coordinate_of(int64_t rank, int64_t *coord_out, size_t out_len, size_t *needed, om_error *err) const;
  om_java_long rank(const int64_t *vcoord, size_t nvcoord, int64_t *rank, om_error *err) const;
  om_java_longs group_shape_named(const char *const *vaxes, size_t nvaxes, int64_t *group_count, int64_t *group_size, om_error *err) const;
  om_java_ints groups_named(const char *const *axes, size_t naxes, int64_t first_group, int64_t group_count, int32_t *out, size_t out_len, size_t *needed, om_error *err) const;
  om_java_long group_index_named(const char *const *axes, size_t naxes, int64_t rank, int64_t *index, om_error *err) const;
  om_java_ints group_of_named(const char *const *axes, size_t naxes, int64_t rank, int32_t *out, size_t out_len, size_t *needed, om_error *err) const;
  om_java_longs locality_named(const char *const *axes, size_t naxes, int64_t ranks_per_host, int64_t *group_count, int64_t *local_groups, int64_t *max_hosts, om_error *err) const;
  /* topology: 1.0 axis masks, caller arrays */
  om_java_long axes(const char *names, uint64_t *mask, om_error *err) const;
  om_java_void coordinate(int64_t rank, int64_t *into, size_t into_len, om_error *err) const;
  om_java_longs group_shape(uint64_t axes, int64_t *group_count, int64_t *group_size, om_error *err) const;
  om_java_void groups(uint64_t axes, int64_t first_group, int64_t group_count, int32_t *into, size_t into_len, om_error *err) const;
  om_java_long group_index(uint64_t axes, int64_t rank, int64_t *index, om_error *err) const;
  om_java_void group_of(uint64_t axes, int64_t rank, int32_t *into, size_t into_len, om_error *err) const;
  om_java_longs locality(uint64_t axes, int64_t ranks_per_host, int64_t *group_count, int64_t *local_groups, int64_t *max_hosts, om_error *err) const;
  /* preflight */
  om_java_void validate_plan(int64_t tp_size, int64_t cp_size, int64_t ep_size, om_error *err) const;
  om_java_string plan_axes(int64_t tp_size, int64_t cp_size, int64_t ep_size, char **out, om_error *err) const;
  om_java_mesh reslice_experts(int64_t ep_size, int64_t num_experts, om_mesh **out, om_error *err) const;
  /* views (view.h): C names om_view_* */
  bool is_plain() const { return om_view_is_plain($self); }
  int64_t offset() const { return om_view_offset($self); }
  size_t mode_count(size_t axis) const { return om_view_mode_count($self, axis); }
  om_java_longs modes(size_t axis, int64_t *out, size_t out_len, size_t *needed, om_error *err) const { return om_view_modes($self, axis, out, out_len, needed, err); }
  int64_t instance_count() const { return om_view_instance_count($self); }
  size_t instance_mode_count() const { return om_view_instance_mode_count($self); }
  om_java_longs instance_modes(int64_t *out, size_t out_len, size_t *needed, om_error *err) const { return om_view_instance_modes($self, out, out_len, needed, err); }
  int64_t rank_count() const { return om_view_rank_count($self); }
  int64_t extent() const { return om_view_extent($self); }
  bool holds(int64_t rank) const { return om_view_holds($self, rank); }
  om_java_mesh flatten(const char *const *axes, size_t naxes, const char *name, om_mesh **out, om_error *err) const { return om_view_flatten($self, axes, naxes, name, out, err); }
  om_java_mesh unflatten(const char *axis, const int64_t *sizes, size_t nsizes, const char *const *names, size_t nnames, om_mesh **out, om_error *err) const { return om_view_unflatten($self, axis, sizes, nsizes, names, nnames, out, err); }
  om_java_mesh slice(const char *const *vaxes, size_t nvaxes, om_mesh **out, om_error *err) const { return om_view_slice($self, vaxes, nvaxes, out, err); }
  om_java_string to_view_json(char **out, om_error *err) const { return om_view_to_json($self, out, err); }
  static om_java_mesh view_from_json(const char *text, size_t length, om_mesh **out, om_error *err) { return om_view_from_json(text, length, out, err); }
  static om_java_mesh view(const char *const *names, size_t naxes, const int64_t *sizes, size_t sizes_len, const int64_t *strides, size_t strides_len, int64_t offset, om_mesh **out, om_error *err) { return om_view_new(names, naxes, sizes, sizes_len, strides, strides_len, offset, out, err); }
  static om_java_mesh view_of_modes(const char *const *names, size_t naxes, const int64_t *mode_counts, size_t counts_len, const int64_t *modes, size_t modes_len, const int64_t *instance_modes, size_t instance_len, int64_t offset, om_mesh **out, om_error *err) { return om_view_new_modes(names, naxes, mode_counts, counts_len, modes, modes_len, instance_modes, instance_len, offset, out, err); }
  /* launch plans (launch.h) */
  om_java_string launch_plan(int64_t nnodes, int64_t nproc_per_node, om_launch_format format, const char *master_addr, int64_t master_port, const char *const *hosts, size_t nhosts, char **out, om_error *err) const { return om_launch_plan($self, nnodes, nproc_per_node, format, master_addr, master_port, hosts, nhosts, out, err); }
  om_java_string launch_check(const om_hierarchy *hierarchy, int64_t nnodes, int64_t nproc_per_node, const char *rules, char **violations, size_t *count, om_error *err) const { return om_launch_check($self, hierarchy, nnodes, nproc_per_node, rules, violations, count, err); }
}

%extend om_dims {
  om_java_dims copy(om_dims **out, om_error *err) const;
  int64_t get(om_dim dim) const;
  om_java_void set(om_dim dim, int64_t value, om_error *err);
  bool get_flag(om_flag flag) const;
  om_java_void set_flag(om_flag flag, bool value, om_error *err);
  bool equal(const om_dims *b) const;
  om_java_string to_json(char **out, om_error *err) const;
  om_java_void apply_world_size(int64_t world_size, om_world_size_source source, om_error *err);
  om_java_void resolve_world_size(int64_t explicit_size, om_error *err);
  om_java_size world_size(int64_t *world_size, om_world_size_source *source, om_error *err) const;
  om_java_bool dp_given(bool *given, om_error *err) const;
  static om_java_dims parse_yaml(const char *text, size_t length, om_dims **out, om_error *err);
  static om_java_dims read_yaml(const char *path, om_dims **out, om_error *err);
  /* strict YAML (config.h): problems go to `diagnostics`, or are errors when strict */
  static om_java_dims parse_yaml_checked(const char *text, size_t length, bool strict, om_diagnostics *diagnostics, om_dims **out, om_error *err);
  static om_java_dims read_yaml_checked(const char *path, bool strict, om_diagnostics *diagnostics, om_dims **out, om_error *err);
  om_java_string order_advice(const om_hierarchy *hierarchy, const char *require, const char *prefer, const char *priority, char **out, om_error *err) const { return om_order_advice($self, hierarchy, require, prefer, priority, out, err); }
  om_java_string order_check(const om_hierarchy *hierarchy, const char *order, const char *require, char **broken, size_t *count, om_error *err) const { return om_order_check($self, hierarchy, order, require, broken, count, err); }
}

%extend om_preset {
  static om_java_preset of(const char *name, const char *const *params, size_t nparams, int64_t world_size, om_preset **out, om_error *err) { return om_preset_new(name, params, nparams, world_size, out, err); }
  static om_java_preset load_yaml(const char *path, int64_t world_size, om_preset **out, om_error *err);
  static om_java_string check(const char *name, const char *const *params, size_t nparams, int64_t world_size, char **out, om_error *err);
  static om_java_string check_yaml(const char *path, int64_t world_size, char **out, om_error *err);
  const char *name() const;
  int64_t world_size() const;
  size_t view_count() const;
  const char *view_name(size_t index) const;
  size_t group_list_count() const;
  const char *group_list_name(size_t index) const;
  om_java_groups group_list(const char *name, int32_t *out, size_t out_len, size_t *needed, size_t *group_size, om_error *err) const;
  om_java_world world(om_world **out, om_error *err) const;
  om_java_string to_json(char **out, om_error *err) const;
  om_java_string single_axes_json(char **out, om_error *err) const;
}

%extend om_hierarchy {
  static om_java_hierarchy from_spec(const char *spec, om_hierarchy **out, om_error *err);
  static om_java_hierarchy from_json(const char *text, size_t length, om_hierarchy **out, om_error *err);
  static om_java_hierarchy from_hostfile(const char *text, size_t length, om_hierarchy **out, om_error *err);
  size_t levels() const;
  const char *level_name(size_t level) const;
  int64_t ranks_per_domain(size_t level) const;
  int64_t ranks() const;
  om_java_long level_index(const char *name, size_t *index, om_error *err) const;
  om_java_long domain_of(size_t level, int64_t rank, int64_t *domain, om_error *err) const;
  om_java_string domain_label(size_t level, int64_t domain, char **out, om_error *err) const;
  om_java_string to_json(char **out, om_error *err) const;
  om_java_locality locality_of(const om_mesh *mesh, const char *const *vaxes, size_t nvaxes, om_locality **out, om_error *err) const { return om_hierarchy_locality(mesh, $self, vaxes, nvaxes, out, err); }
  om_java_string check_rules(const om_mesh *mesh, const char *rules, char **violations, size_t *count, om_error *err) const { return om_hierarchy_check(mesh, $self, rules, violations, count, err); }
}

%extend om_diagnostics {
  om_diagnostics(om_error *err) {
    om_diagnostics *diagnostics = NULL;
    return om_diagnostics_new(&diagnostics, err) == OM_OK ? diagnostics : NULL;
  }
  size_t count() const;
  om_java_string message(size_t index, char **out, om_error *err) const;
  int kind(size_t index) const;
  int64_t line(size_t index) const;
}

%extend om_locality {
  int64_t groups() const;
  size_t levels() const;
  om_java_long get(size_t level, om_locality_field field, int64_t *value, om_error *err) const;
}

%extend om_world {
  static om_java_world of(int64_t world_size, const char *const *view_names, size_t nnames, const om_mesh *const *views, size_t nviews, om_world **out, om_error *err) { return om_world_new(world_size, view_names, nnames, views, nviews, out, err); }
  static om_java_world from_json(const char *text, size_t length, om_world **out, om_error *err);
  static om_java_world load_json(const char *path, om_world **out, om_error *err);
  int64_t size() const;
  size_t view_count() const;
  const char *view_name(size_t index) const;
  int view_index(const char *name) const;
  om_java_mesh view(const char *name, om_mesh **out, om_error *err) const;
  const char *axis_view(const char *axis) const;
  om_java_mesh slice(const char *const *vaxes, size_t nvaxes, om_mesh **out, om_error *err) const;
  om_java_string to_json(char **out, om_error *err) const;
}

/* Functions of no handle: static methods of OfflineMeshes. */
%nodefaultctor om;
%nodefaultdtor om;
struct om {};
%extend om {
  static const char *version_string();
  static int version_number();
  static const char *status_string(om_status status);
  static const char *status_name(om_status status);
  static const char *dim_field_name(om_dim dim);
  static const char *dim_axis_name(om_dim dim);
  static const char *flag_field_name(om_flag flag);
  static const char *world_size_source_string(om_world_size_source source);
  static const char *world_size_source_variable(om_world_size_source source);
  static om_java_size world_size_resolve(int64_t explicit_size, int64_t *world_size, om_world_size_source *source, om_error *err);
  static om_java_longs world_size_from_env(int64_t *world_size, bool *found, om_error *err);
  static om_java_string axis_order_normalize(const char *order, char **out, om_error *err);
  static om_java_string order_normalize(const char *order, char **out, om_error *err);
  static om_java_mesh build_offline_mesh(const om_dims *dims, om_mesh **out, om_error *err);
  static om_java_mesh build_runtime_mesh(const om_dims *dims, const char *order, om_mesh **out, om_error *err);
  static om_java_void validate_axes(const om_mesh *mesh, int64_t tp_size, int64_t cp_size, int64_t ep_size, om_error *err);
  static om_java_string plan_dim_names(const om_mesh *mesh, int64_t tp_size, int64_t cp_size, int64_t ep_size, char **out, om_error *err);
  static om_java_mesh expert_mesh(const om_mesh *mesh, int64_t ep_size, int64_t num_experts, om_mesh **out, om_error *err);
  static om_java_format launch_format_from_name(const char *name, om_launch_format *format, om_error *err);
}
