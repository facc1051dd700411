/* liboffline_mesh: the Java (JNI) representation of the shared conventions.
 * SPDX-License-Identifier: MIT
 *
 * SWIG generates the public API: one final, AutoCloseable class per handle
 * (OfflineMesh, ParallelDims, Hierarchy, Locality, World, Preset), the
 * enums (Status, Dim, Flag, ...), and OfflineMeshes for the functions that
 * belong to no handle. No method is written here: bindings/java/methods.py
 * derives them at build time from the headers and the Java column of
 * bindings/parity.tsv (om_mesh_size -> OfflineMesh.size(), om_launch_plan ->
 * OfflineMesh.launchPlan()), each declared with the return kind its outputs
 * give (Java is typed, so the declaration states it):
 *
 *   om_java_void    nothing               om_java_string  the char **out string
 *   om_java_mesh, om_java_dims, ...       the new handle of `T **out`
 *   om_java_ints, om_java_longs           the bulk output (int[], long[])
 *   om_java_long, om_java_bool, om_java_<enum>  the single scalar output
 *   om_java_longs   the scalar outputs, in order (long[]); om_java_size the
 *   WorldSize of (size, source); om_java_groups a group list (int[][])
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

/* ---- names (of the classes, enums and methods: methods.py) ----------------- */
%rename(OfflineMeshes) om;
%rename("%(regex:/^OM_(ERR_|DIM_|FLAG_|LOCALITY_|LAUNCH_|WORLD_SIZE_|DIAGNOSTIC_)?(.*)/\\2/)s", %$isenumitem) "";
%rename("$ignore", %$isconstant) "";   /* the #define constants (the JNI side uses them) */
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

static jbyteArray om_java_bytes(JNIEnv *jenv, const char *text) {
  jsize n = text ? (jsize)strlen(text) : 0;
  jbyteArray array = text ? (*jenv)->NewByteArray(jenv, n) : NULL;
  if (array)
    (*jenv)->SetByteArrayRegion(jenv, array, 0, n, (const jbyte *)text);
  return array;
}

/* Throws OfflineMeshException.create(status, UTF-8 message) from C (a
 * failure on the way leaves its own exception pending). */
static void om_java_throw(JNIEnv *jenv, const om_error *err) {
  jclass cls = (*jenv)->FindClass(jenv, "org/offlinemesh/OfflineMeshException");
  jmethodID create = cls ? (*jenv)->GetStaticMethodID(jenv, cls, "create", "(I[B)Ljava/lang/Throwable;") : NULL;
  jbyteArray message = create ? om_java_bytes(jenv, err->message) : NULL;
  jobject exc = message ? (*jenv)->CallStaticObjectMethod(jenv, cls, create, (jint)err->status, message) : NULL;
  if (exc && !(*jenv)->ExceptionCheck(jenv))
    (*jenv)->Throw(jenv, (jthrowable)exc);
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

/* The scalar outputs of a call, in order: each one makes the long[] that
 * the return kind reads one longer. */
static jlongArray om_java_push(JNIEnv *jenv, jlongArray array, jlong value) {
  jlong values[8] = {0};
  jsize n = array ? (*jenv)->GetArrayLength(jenv, array) : 0;
  jlongArray longer = n < 8 ? (*jenv)->NewLongArray(jenv, n + 1) : NULL;
  if (longer && array)
    (*jenv)->GetLongArrayRegion(jenv, array, 0, n, values);
  values[n < 8 ? n : 0] = value;
  if (longer)
    (*jenv)->SetLongArrayRegion(jenv, longer, 0, n + 1, values);
  return longer;
}

/* The bulk output of a call, sized by the library: the first call is a
 * size query (NULL, 0, &needed), the second writes exactly the needed
 * length, on the stack when it fits. */
typedef struct om_java_buffer {
  void **arg;        /* the wrapper's buffer argument (NULL: none) */
  size_t *arg_len;   /* and its length argument */
  size_t elem, needed, group_size;
  void *heap;
  int64_t stack[64];
} om_java_buffer;

/* What the retry below reads in calls without an error report: never
 * written. The fallible calls declare their own om_err and om_buf (the
 * om_error typemap), which shadow these. */
static om_error om_err;
static om_java_buffer om_buf;

/* True after a size query (OM_OK, or a short buffer for the calls that say
 * so): the call is to be repeated into a buffer of the needed length. */
static bool om_java_buffer_grow(om_java_buffer *b, om_error *err) {
  size_t bytes = b->needed * b->elem;
  if ((err->status != OM_OK && err->status != OM_ERR_BUFFER_TOO_SMALL) || !b->arg || *b->arg || !b->needed)
    return false;
  *b->arg = bytes <= sizeof b->stack ? (void *)b->stack : (b->heap = malloc(bytes));
  *b->arg_len = b->needed;
  err->status = OM_OK;
  if (!*b->arg) {
    err->status = OM_ERR_NO_MEMORY;
    snprintf(err->message, sizeof err->message, "no memory for %zu results", b->needed);
  }
  return *b->arg != NULL;
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
%{ typedef om_status KIND; %}
%typemap(jni) KIND "JNI"
%typemap(jtype) KIND "JTYPE"
%typemap(jstype) KIND "JSTYPE"
%typemap(out) KIND ""
%typemap(javaout) KIND JAVAOUT
%enddef
%define OM_JAVA_HANDLE(KIND, CLASS)
OM_JAVA_RETURN(KIND, jlong, long, CLASS, { return new CLASS($jnicall, true); })
%enddef
%define OM_JAVA_ENUM(KIND, CLASS)
OM_JAVA_RETURN(KIND, jlongArray, long[], CLASS, { return CLASS.swigToEnum((int) $jnicall[0]); })
%enddef
OM_JAVA_RETURN(om_java_void, jint, int, void, { $jnicall; })
OM_JAVA_RETURN(om_java_string, jbyteArray, byte[], String, { return Native.string($jnicall); })
OM_JAVA_RETURN(om_java_ints, jintArray, int[], int[], { return $jnicall; })
OM_JAVA_RETURN(om_java_longs, jlongArray, long[], long[], { return $jnicall; })
OM_JAVA_RETURN(om_java_long, jlongArray, long[], long, { return $jnicall[0]; })
OM_JAVA_RETURN(om_java_bool, jlongArray, long[], boolean, { return $jnicall[0] != 0; })
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
  om_buf.arg = NULL;
  om_buf.heap = NULL;
  $1 = &om_err;
%}
/* The last parameter: throws after a failure. */
%typemap(argout) om_error *OM_ERROR %{
  if (om_err.status != OM_OK)
    om_java_throw(jenv, &om_err);
%}
%typemap(freearg) om_error *OM_ERROR %{ free(om_buf.heap); %}

/* The other hidden outputs: a local each, read after the call. */
%typemap(in, numinputs=0) SWIGTYPE **OM_NEW ($*1_ltype temp = 0), char **OM_STRING ($*1_ltype temp = 0),
    int64_t *OM_OUTPUT ($*1_ltype temp = 0), size_t *count ($*1_ltype temp = 0) %{ $1 = &temp; %}
%typemap(argout) SWIGTYPE **OM_NEW %{ $result = (jlong)(intptr_t)temp$argnum; %}

%typemap(argout) char **OM_STRING %{ if (temp$argnum) $result = om_java_bytes(jenv, temp$argnum); %}
%typemap(freearg) char **OM_STRING %{ om_string_free(temp$argnum); %}

/* Scalar outputs, in order: the long[] the return kind reads. */
%typemap(argout) int64_t *OM_OUTPUT %{ $result = om_java_push(jenv, $result, (jlong)temp$argnum); %}
%apply int64_t *OM_OUTPUT { uint64_t *OM_OUTPUT, bool *OM_OUTPUT, size_t *OM_OUTPUT, enum SWIGTYPE * };
/* A count that the returned lines already give. */
%typemap(argout) size_t *count ""

/* Bulk outputs into a new int[] / long[] (a named group list: the group
 * size travels as the last element). Set up in "check", which runs after
 * every "in" (om_buf is declared by the om_error typemap). */
%define OM_JAVA_BUFFER(CTYPE, NEW, SET, PARAMS, GROUPS, SET_GROUPS)
%typemap(in, numinputs=0) PARAMS ""
%typemap(check) PARAMS %{
  om_buf.arg = (void **)&$1;
  om_buf.arg_len = &$2;
  om_buf.elem = sizeof(CTYPE);
  om_buf.needed = 0;
  $1 = NULL;
  $2 = 0;
  $3 = &om_buf.needed;
  SET_GROUPS
%}
%typemap(argout) PARAMS %{
  if (om_err.status == OM_OK && ($result = (*jenv)->NEW(jenv, (jsize)om_buf.needed + GROUPS))) {
    jint size = (jint)om_buf.group_size;
    (*jenv)->SET(jenv, $result, 0, (jsize)om_buf.needed, (const void *)$1);
    if (GROUPS)
      (*jenv)->SetIntArrayRegion(jenv, $result, (jsize)om_buf.needed, 1, &size);
  }
%}
%enddef
OM_JAVA_BUFFER(int32_t, NewIntArray, SetIntArrayRegion, (int32_t *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED), 0, )
OM_JAVA_BUFFER(int64_t, NewLongArray, SetLongArrayRegion, (int64_t *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED), 0, )
OM_JAVA_BUFFER(int32_t, NewIntArray, SetIntArrayRegion,
               (int32_t *out, size_t out_len, size_t *needed, size_t *group_size), 1, $4 = &om_buf.group_size;)

/* ---- inputs ------------------------------------------------------------------ */
%apply long long { int64_t, uint64_t };   /* a uint64_t hash or mask: the same bits */

/* Strings: checked UTF-8 in Java (Native.cstr refuses NUL and unpaired
 * surrogates), copied NUL-terminated here; null reaches C as NULL. */
%typemap(jni) const char *, (const char *OM_TEXT, size_t OM_TEXT_LEN),
    (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "jbyteArray"
%typemap(jtype) const char *, (const char *OM_TEXT, size_t OM_TEXT_LEN),
    (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "byte[]"
%typemap(jstype) const char *, (const char *OM_TEXT, size_t OM_TEXT_LEN) "String"
%typemap(javain) const char * "Native.cstr($javainput)"
%typemap(javaout) const char * { return Native.string($jnicall); }
%typemap(in) const char * %{ $1 = om_java_dup(jenv, $input, NULL); %}
%typemap(freearg) const char *, (const char *OM_TEXT, size_t OM_TEXT_LEN) %{ free((char *)$1); %}
%typemap(out) const char * %{ $result = om_java_bytes(jenv, $1); %}
%typemap(javain) (const char *OM_TEXT, size_t OM_TEXT_LEN) "Native.utf8($javainput)"
%typemap(in) (const char *OM_TEXT, size_t OM_TEXT_LEN) %{ $1 = om_java_dup(jenv, $input, &$2); %}

/* Lists of strings: String[] (String... where it is the last parameter),
 * sent as ONE byte[] of NUL-terminated UTF-8 names (Native.cstrs; a null
 * name is the single byte 0xFF, never valid UTF-8, and reaches C as NULL):
 * one JNI copy into one buffer, on the stack when small. */
%typemap(jstype) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "String[]"
%typemap(javain) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "Native.cstrs($javainput)"
%typemap(in) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) (char *stack[64], char **names = NULL) %{
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
%typemap(freearg) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) %{ if (names$argnum != stack$argnum) free(names$argnum); %}

/* Java arrays read (and for 1.0 "into" buffers written) in place:
 * jlong is int64_t, jint int32_t. MODE: JNI_ABORT (read only) or 0. */
%define OM_JAVA_ARRAY(PTR, LEN, JNI, JTYPE, JSTYPE, ELEM, MODE)
%typemap(jni) (PTR, size_t LEN) "JNI"
%typemap(jtype) (PTR, size_t LEN) "JTYPE"
%typemap(jstype) (PTR, size_t LEN) "JSTYPE"
%typemap(javain) (PTR, size_t LEN) "$javainput"
%typemap(in) (PTR, size_t LEN) %{
  $2 = $input ? (size_t)(*jenv)->GetArrayLength(jenv, $input) : 0;
  $1 = $input ? ($1_ltype)(*jenv)->Get##ELEM##ArrayElements(jenv, $input, NULL) : NULL;
%}
%typemap(argout) (PTR, size_t LEN) ""
%typemap(freearg) (PTR, size_t LEN) %{ if ($1) (*jenv)->Release##ELEM##ArrayElements(jenv, $input, (void *)$1, MODE); %}
%enddef
OM_JAVA_ARRAY(const int64_t *OM_INTS, OM_INTS_LEN, jlongArray, long[], long[], Long, JNI_ABORT)
OM_JAVA_ARRAY(int64_t *OM_INTO, OM_INTO_LEN, jlongArray, long[], long[], Long, 0)
OM_JAVA_ARRAY(int32_t *OM_INTO, OM_INTO_LEN, jintArray, int[], int[], Int, 0)
/* The views of a world: OfflineMesh[] as their handles, kept reachable. */
OM_JAVA_ARRAY(const om_mesh *const *OM_MESHES, OM_MESHES_LEN, jlongArray, long[], OfflineMesh[], Long, JNI_ABORT)
%typemap(javain, post="      java.lang.ref.Reference.reachabilityFence($javainput);")
    (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN)
    "java.util.Arrays.stream($javainput).mapToLong(OfflineMesh::getCPtr).toArray()"
/* An axis set or coordinate as the last input: Java varargs (methods.py
 * names them vaxes, vcoord). */
%apply (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) { (const char *const *vaxes, size_t nvaxes) };
%apply (const int64_t *OM_INTS, size_t OM_INTS_LEN) { (const int64_t *vcoord, size_t nvcoord) };
%typemap(jstype) (const char *const *vaxes, size_t nvaxes) "String..."
%typemap(jstype) (const int64_t *vcoord, size_t nvcoord) "long..."

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

%extend om_diagnostics {
  om_diagnostics(om_error *err) {
    om_diagnostics *diagnostics = NULL;
    return om_diagnostics_new(&diagnostics, err) == OM_OK ? diagnostics : NULL;
  }
}
%include "offline_mesh_java_names.i"
%include "offline_mesh.i"
/* Functions of no handle: static methods of OfflineMeshes. */
%nodefaultctor om;
%nodefaultdtor om;
struct om {};
%include "offline_mesh_java_methods.i"
