/* liboffline_mesh: the Java (JNI) representation of the shared conventions.
 * SPDX-License-Identifier: MIT
 *
 * SWIG generates the public API: one final, AutoCloseable class per handle
 * (OfflineMesh, ParallelDims, Hierarchy, Locality, World, Preset,
 * Diagnostics), the
 * enums (Status, Dim, Flag, ...), and the module class OfflineMeshes for the
 * functions that belong to no handle. No method is written here: bindings/java/methods.py
 * derives them at build time from the headers and the Java column of
 * bindings/parity.tsv (om_mesh_size -> OfflineMesh.size(), om_launch_plan ->
 * OfflineMesh.launchPlan()), each as a small C body that returns the
 * outputs of its call (Java is typed, so the declaration states them):
 *
 *   nothing: void; one output: itself (a new handle or string is
 *   %newobject; a long, boolean or enum as SWIG maps it); several scalar
 *   outputs, in order: om_java_longs (long[]), om_java_size for a
 *   WorldSize (size, source); a bulk output: om_java_ints / om_java_longs,
 *   om_java_groups for a group list (int[][])
 *
 * A failed call throws from the wrapper (status + om_error message):
 * OfflineMeshException (an IllegalArgumentException with status()),
 * IOException for OM_ERR_IO (file readers declare it), OutOfMemoryError.
 * Strings cross as UTF-8 bytes both ways (never JNI's modified UTF-8).
 * A closed handle throws IllegalStateException; an unreachable one is
 * freed by a Cleaner (no finalize()). close() may race with calls on other
 * threads: each call holds a use of its handles (om_java_cell), so a call
 * either completes or throws IllegalStateException, and the C object is
 * freed once, when the last call using it returns.
 */

%module OfflineMeshes
#define OM_OWN_CLASS_NAMES
/* methods.py declares every function, as a method of its class (Java is
 * typed: each declaration states what it returns); the plain functions
 * of the headers are not generated. */
%rename("$ignore", regextarget=1, %$isfunction, %$not %$ismember) "^om_";

%include <enums.swg>   /* proper Java enums, values as constants */
%javaconst(1);
%pragma(java) moduleclassmodifiers="public final class"
%pragma(java) modulecode=%{
  private OfflineMeshes() {
  }
%}
%pragma(java) jniclassclassmodifiers="final class"
%pragma(java) jniclasscode=%{
  static { Native.load(); }
  static native void closeHandle(long cell);
  static native void dropHandle(long cell);
  static native long liveHandles(); // C objects not yet freed (the tests read it)
%}

/* ---- names (of the classes, enums and methods: methods.py) ----------------- */
%rename("%(regex:/^OM_(ERR_|DIM_|FLAG_|LOCALITY_|LAUNCH_|WORLD_SIZE_|DIAGNOSTIC_)?(.*)/\\2/)s", %$isenumitem) "";
%rename("$ignore", %$isconstant) "";   /* #define limits and counts: Java's enums have values() */

/* ---- classes: final, AutoCloseable, freed by close() or a Cleaner --------- */
%typemap(javaclassmodifiers) SWIGTYPE "public final class"
%typemap(javainterfaces) SWIGTYPE "AutoCloseable"
%typemap(javabody) SWIGTYPE %{
  private transient volatile long swigCPtr; // its om_java_cell; 0 once closed

  $javaclassname(long cPtr, boolean own) {
    swigCPtr = cPtr;
    Native.CLEANER.register(this, () -> $imclassname.dropHandle(cPtr));
  }

  /** 0 for null (the library reports the NULL argument); a closed object throws. */
  static long getCPtr($javaclassname obj) {
    if (obj != null && obj.swigCPtr == 0)
      throw new IllegalStateException("$javaclassname used after close()");
    return obj == null ? 0 : obj.swigCPtr;
  }
%}
/* Frees the C object now, or when the last call using it returns (its
 * SWIG destructor is unused: closeHandle and the Cleaner's dropHandle). */
%typemap(javadestruct, methodname="close", methodmodifiers="public") SWIGTYPE {
    long cell = swigCPtr;
    swigCPtr = 0;
    $imclassname.closeHandle(cell);
  }
%typemap(javafinalize) SWIGTYPE ""
/* Handles cross as their om_java_cell: a call takes a use of each (the
 * object, NULL once closed) and ends it after the call. A closed `this`
 * throws before any input is converted; a closed argument reaches C as NULL
 * and throws after the call (om_java_done). A new object gets its cell. */
%typemap(in) SWIGTYPE *self %{
  if (!($1 = ($1_ltype)om_java_use($input))) {
    SWIG_JavaThrowException(jenv, SWIG_JavaIllegalStateException, "used after close()");
    return $null;
  }
%}
%typemap(in) SWIGTYPE * %{ $1 = ($1_ltype)om_java_use($input); %}
%typemap(freearg) SWIGTYPE * %{ om_java_done(jenv, $input, $1); %}
%typemap(out) SWIGTYPE * %{ $result = om_java_cell_new(jenv, $1, OM_JAVA_FREE_OF($1)); %}
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

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A handle's C object and the count of the calls using it, which the
 * Java object holds (swigCPtr): state counts uses in steps of 2, bit 0 is
 * "closed". close() frees the object at once or the last use does, once;
 * the Cleaner frees the cell when the Java object is unreachable (calls
 * pass the Java object too, so none is running then). */
typedef struct om_java_cell {
  atomic_size_t state;
  void *obj;
  void (*free_obj)(void *);
} om_java_cell;

static atomic_long om_java_live;

static void om_java_free(om_java_cell *c) {
  c->free_obj(c->obj);
  atomic_fetch_sub(&om_java_live, 1);
}

/* The destructor of a new object, as its cell keeps it (through void (*)(void),
 * the cast GCC accepts between function types; the object is one of them). */
#define OM_JAVA_FREE_OF(p) ((void (*)(void *))(void (*)(void))_Generic((p), om_mesh *: om_mesh_free, \
    om_dims *: om_dims_free, om_preset *: om_preset_free, om_hierarchy *: om_hierarchy_free, \
    om_locality *: om_locality_free, om_world *: om_world_free, om_diagnostics *: om_diagnostics_free))

static jlong om_java_cell_new(JNIEnv *jenv, void *obj, void (*free_obj)(void *)) {
  om_java_cell *c = obj ? malloc(sizeof *c) : NULL;
  if (c) {
    atomic_init(&c->state, 0);
    c->obj = obj;
    c->free_obj = free_obj;
    atomic_fetch_add(&om_java_live, 1);
  } else if (obj) {
    free_obj(obj);
    SWIG_JavaThrowException(jenv, SWIG_JavaOutOfMemoryError, "no memory for a handle");
  }
  return (jlong)(intptr_t)c;
}

/* The object of a handle for one call, NULL when null or closed. */
static void *om_java_use(jlong cell) {
  om_java_cell *c = (om_java_cell *)(intptr_t)cell;
  size_t s = c ? atomic_load(&c->state) : 1;
  while (!(s & 1))
    if (atomic_compare_exchange_weak(&c->state, &s, s + 2))
      return c->obj;
  return NULL;
}

/* Ends a use; an argument closed before it reached C as NULL: the
 * library's error about it gives way to the reason. */
static void om_java_done(JNIEnv *jenv, jlong cell, const void *used) {
  om_java_cell *c = (om_java_cell *)(intptr_t)cell;
  if (used && atomic_fetch_sub(&c->state, 2) == 3) /* closed, and that was the last use */
    om_java_free(c);
  if (c && !used) {
    (*jenv)->ExceptionClear(jenv);
    SWIG_JavaThrowException(jenv, SWIG_JavaIllegalStateException, "used after close()");
  }
}

JNIEXPORT void JNICALL Java_org_offlinemesh_OfflineMeshesJNI_closeHandle(JNIEnv *jenv, jclass cls, jlong cell) {
  om_java_cell *c = (om_java_cell *)(intptr_t)cell;
  if (c && atomic_fetch_or(&c->state, 1) == 0) /* no call is using it */
    om_java_free(c);
}

JNIEXPORT void JNICALL Java_org_offlinemesh_OfflineMeshesJNI_dropHandle(JNIEnv *jenv, jclass cls, jlong cell) {
  Java_org_offlinemesh_OfflineMeshesJNI_closeHandle(jenv, cls, cell);
  free((void *)(intptr_t)cell);
}

JNIEXPORT jlong JNICALL Java_org_offlinemesh_OfflineMeshesJNI_liveHandles(JNIEnv *jenv, jclass cls) {
  return atomic_load(&om_java_live);
}

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
  jmethodID create =
      cls ? (*jenv)->GetStaticMethodID(jenv, cls, "create", "(I[B)Ljava/lang/Throwable;") : NULL;
  jbyteArray message = create ? om_java_bytes(jenv, err->message) : NULL;
  jobject exc =
      message ? (*jenv)->CallStaticObjectMethod(jenv, cls, create, (jint)err->status, message) : NULL;
  if (exc && !(*jenv)->ExceptionCheck(jenv))
    (*jenv)->Throw(jenv, (jthrowable)exc);
}

/* A result of several values, in the wrapper's storage: the scalar outputs
 * of a call, in order, or a bulk output. methods.py asks the library for a
 * bulk output's length first (NULL, 0, &n), then calls again into exactly
 * that length: on the stack when it fits, else on the heap. */
typedef struct om_java_array {
  size_t n, group_size;
  void *values;   /* stack, or heap when the values outgrow it */
  void *heap;
  int64_t stack[64];
} om_java_array;

/* True when the size query succeeded (the status of the calls that report
 * a short buffer for it too) and room for its a->n values is ready. */
static bool om_java_room(om_java_array *a, size_t elem, om_status status, om_error *err) {
  if ((status != OM_OK && status != OM_ERR_BUFFER_TOO_SMALL) || !a->n)
    return false;
  bool fits = a->n * elem <= sizeof a->stack;
  err->status = fits || (a->values = a->heap = malloc(a->n * elem)) ? OM_OK : OM_ERR_NO_MEMORY;
  if (err->status != OM_OK)
    snprintf(err->message, sizeof err->message, "no memory for %zu results", a->n);
  return err->status == OM_OK;
}

/* methods.py checks every index input first: below `count`, else
 * OM_ERR_OUT_OF_RANGE naming it as Java passed it (a negative long arrives
 * wrapped to size_t; the C getters answer 0 or NULL out of range). */
static bool om_java_index(size_t index, size_t count, const char *what, const char *counted, om_error *err) {
  if (index < count)
    return true;
  err->status = OM_ERR_OUT_OF_RANGE;
  snprintf(err->message, sizeof err->message, "%s %lld is outside the %zu %s", what, (long long)index, count, counted);
  return false;
}
%}

/* ---- results: methods.py returns the outputs (a handle or a string is
 * %newobject); the values of an om_java_array as a new Java array ---------- */
%define OM_JAVA_RESULT(KIND, JNI, JTYPE, JSTYPE, NEW, SET, GROUPS, JAVAOUT)
typedef om_java_array *KIND;
%{ typedef om_java_array *KIND; %}
%typemap(jni) KIND "JNI"
%typemap(jtype) KIND "JTYPE"
%typemap(jstype) KIND "JSTYPE"
%typemap(out) KIND %{
  if (om_err.status == OM_OK && ($result = (*jenv)->NEW(jenv, (jsize)$1->n + GROUPS))) {
    jint size = (jint)$1->group_size;
    (*jenv)->SET(jenv, $result, 0, (jsize)$1->n, $1->values);
    if (GROUPS)
      (*jenv)->SetIntArrayRegion(jenv, $result, (jsize)$1->n, 1, &size);
  }
  free($1->heap);
%}
%typemap(javaout) KIND JAVAOUT
%enddef
OM_JAVA_RESULT(om_java_ints, jintArray, int[], int[], NewIntArray, SetIntArrayRegion, 0, { return $jnicall; })
OM_JAVA_RESULT(om_java_longs, jlongArray, long[], long[], NewLongArray, SetLongArrayRegion, 0,
               { return $jnicall; })
OM_JAVA_RESULT(om_java_size, jlongArray, long[], WorldSize, NewLongArray, SetLongArrayRegion, 0,
               { long[] r = $jnicall; return new WorldSize(r[0], WorldSizeSource.swigToEnum((int) r[1])); })
OM_JAVA_RESULT(om_java_groups, jintArray, int[], int[][], NewIntArray, SetIntArrayRegion, 1, {
    int[] flat = $jnicall;
    return Native.split(java.util.Arrays.copyOf(flat, flat.length - 1), flat[flat.length - 1]);
  })
/* The storage of such a result (methods.py's `r`), in the wrapper. */
%typemap(in, numinputs=0) om_java_array *r (om_java_array storage) %{
  storage.n = storage.group_size = 0;
  storage.values = storage.stack;
  storage.heap = NULL;
  $1 = &storage;
%}
%typemap(newfree) char * "om_string_free($1);"
#pragma SWIG nowarn=453  /* the shared output patterns: methods.py returns the outputs instead */

/* The om_error of a call: hidden, checked after it (a failure throws). */
%typemap(in, numinputs=0) om_error *OM_ERROR %{
  om_error om_err;
  om_err.status = OM_OK;
  om_err.message[0] = '\0';
  $1 = &om_err;
%}
%typemap(argout) om_error *OM_ERROR %{
  if (om_err.status != OM_OK)
    om_java_throw(jenv, &om_err);
%}
%typemap(freearg) om_error *OM_ERROR, om_java_array *r ""

/* ---- inputs ------------------------------------------------------------------ */
%apply long long { int64_t, uint64_t };   /* a uint64_t hash or mask: the same bits */
/* A null enum is refused as the library refuses a NULL argument. */
%typemap(javain) enum SWIGTYPE "($javainput == null ? Native.isNull(\"$1_name\") : $javainput.swigValue())"

/* Strings: checked UTF-8 in Java (Native.cstr refuses NUL and unpaired
 * surrogates and appends the NUL C reads up to), read in place here; null
 * reaches C as NULL. */
%typemap(jni) const char *, char *, (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "jbyteArray"
%typemap(jtype) const char *, char *, (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "byte[]"
%typemap(jstype) const char *, char * "String"
%typemap(javain) const char * "Native.cstr($javainput)"
%typemap(javaout) const char *, char * { return Native.string($jnicall); }
%typemap(in) const char *
  %{ $1 = $input ? ($1_ltype)(*jenv)->GetByteArrayElements(jenv, $input, NULL) : NULL; %}
%typemap(freearg) const char *
  %{ if ($1) (*jenv)->ReleaseByteArrayElements(jenv, $input, (jbyte *)$1, JNI_ABORT); %}
%typemap(out) const char *, char * %{ $result = om_java_bytes(jenv, $1); %}

/* Lists of strings: String[] (String... where it is the last parameter),
 * sent as ONE byte[] of NUL-terminated UTF-8 names (Native.cstrs; a null
 * name is the single byte 0xFF, never valid UTF-8, and reaches C as NULL):
 * one JNI copy into one buffer, on the stack when small. */
%typemap(jstype) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "String[]"
%typemap(javain) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) "Native.cstrs($javainput)"
%typemap(in) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) (char *stack[64], char **names = NULL) {
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
%typemap(freearg) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN)
  %{ if (names$argnum != stack$argnum) free(names$argnum); %}

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
%typemap(freearg) (PTR, size_t LEN)
  %{ if ($1) (*jenv)->Release##ELEM##ArrayElements(jenv, $input, (void *)$1, MODE); %}
%enddef
OM_JAVA_ARRAY(const int64_t *OM_INTS, OM_INTS_LEN, jlongArray, long[], long[], Long, JNI_ABORT)
OM_JAVA_ARRAY(int64_t *OM_INTO, OM_INTO_LEN, jlongArray, long[], long[], Long, 0)
OM_JAVA_ARRAY(int32_t *OM_INTO, OM_INTO_LEN, jintArray, int[], int[], Int, 0)
/* Text with its length: UTF-8 as Native.cstr makes it, without the NUL. */
OM_JAVA_ARRAY(const char *OM_TEXT, OM_TEXT_LEN, jbyteArray, byte[], String, Byte, JNI_ABORT)
%typemap(javain) (const char *OM_TEXT, size_t OM_TEXT_LEN) "Native.utf8($javainput)"
/* The views of a world: OfflineMesh[] as their cells, kept reachable; the
 * call uses each mesh (as a handle argument above). */
OM_JAVA_ARRAY(const om_mesh *const *OM_MESHES, OM_MESHES_LEN, jlongArray, long[], OfflineMesh[], Long,
              JNI_ABORT)
%typemap(in) (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN)
    (jlong *cells = NULL, const om_mesh *stack[64], const om_mesh **meshes = NULL) %{
  $2 = $input ? (size_t)(*jenv)->GetArrayLength(jenv, $input) : 0;
  cells = $input ? (*jenv)->GetLongArrayElements(jenv, $input, NULL) : NULL;
  meshes = $2 <= 64 ? stack : malloc($2 * sizeof *meshes);
  for (size_t i = 0; cells && meshes && i < $2; i++)
    meshes[i] = om_java_use(cells[i]);
  $1 = ($1_ltype)(cells ? meshes : NULL);
%}
%typemap(freearg) (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN) %{
  for (size_t i = 0; cells$argnum && meshes$argnum && i < $2; i++)
    om_java_done(jenv, cells$argnum[i], meshes$argnum[i]);
  if (meshes$argnum != stack$argnum)
    free(meshes$argnum);
  if (cells$argnum)
    (*jenv)->ReleaseLongArrayElements(jenv, $input, cells$argnum, JNI_ABORT);
%}
%typemap(javain, post="      java.lang.ref.Reference.reachabilityFence($javainput);")
    (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN)
    "($javainput == null ? null : java.util.Arrays.stream($javainput).mapToLong(OfflineMesh::getCPtr).toArray())"
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
    return new OfflineMesh(names == null ? null : names.toArray(new String[0]), sizes);
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
  public static ParallelDims parse(String yaml, long worldSize) {
    return resolved(parseYaml(yaml), worldSize);
  }
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
  @Override public boolean equals(Object o) { return o instanceof ParallelDims d && equal(d); }
  @Override public int hashCode() { return toJson().hashCode(); }
  @Override public String toString() {
    return swigCPtr == 0 ? "ParallelDims{closed}" : "ParallelDims" + toJson();
  }
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
  public java.util.List<String> messages() {
    return java.util.stream.LongStream.range(0, count()).mapToObj(this::message).toList();
  }
  @Override public String toString() {
    return swigCPtr == 0 ? "Diagnostics{closed}" : "Diagnostics" + messages();
  }
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
%include "offline_mesh_java_methods.i"
