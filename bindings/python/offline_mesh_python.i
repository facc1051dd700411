/* liboffline_mesh: the Python typemaps of the shared interface.
 * SPDX-License-Identifier: MIT
 *
 * Generates offline_mesh._core (swig -python -builtin): the C API as module
 * functions with its C names, plus the handle classes Mesh and Dims. The
 * pure-Python package offline_mesh (offline_mesh/) is the public surface.
 * This file only says how Python represents each pattern of
 * ../offline_mesh.i:
 *
 *   om_status + om_error *     nothing is returned; a failure raises
 *                              offline_mesh.OfflineMeshError (a ValueError),
 *                              OfflineMeshIOError (an OSError) or
 *                              OfflineMeshMemoryError (a MemoryError), all
 *                              with .status and the library's message
 *   T **out                    the new handle (Mesh, Dims), owned
 *   om_mesh **out              an offline_mesh.OfflineMesh (the class the
 *                              package registers), holding the Mesh handle
 *                              and the names/shape tuples
 *   char **out                 str
 *   (T *out, size_t out_len, size_t *needed)
 *                              list (retried once at the needed length)
 *   (const char *const *, size_t), (const int64_t *, size_t)
 *                              a list or tuple of str / int
 *   (int32_t *, size_t), (int64_t *, size_t) 1.0 caller buffers
 *                              the item count in; a bytearray of them out
 *   (const char *text, size_t) str (UTF-8) or bytes-like
 *   scalar out-parameters      returned; several come back as a tuple
 *   const char *path           str, bytes or os.PathLike
 *   const om_dims *            a Dims handle, or any object with the seven
 *                              ParallelDimsSpec fields (read by name)
 *
 * Nothing here touches SWIG's runtime structures; the generated types are
 * used as SWIG makes them.
 */

%module(package="offline_mesh") core

#define OM_CONVENTIONS
#define OM_BIND_PLANNING

/* Every om_X_free is the destructor of its handle class: never a function
 * Python could call twice. */
%rename("$ignore", regexmatch$name="^om_[a-z_]+_free$") "";

%{
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "offline_mesh.h"

/* offline_mesh._errors.error(status, message): the exception to raise.
 * Looked up on first use (the package imports _core first). */
static PyObject *om_py_error_factory = NULL;

static void om_py_raise(const om_error *err)
{
    const char *text = err->message[0] ? err->message
                                       : om_status_string(err->status);
    PyObject *exc;

    if (!om_py_error_factory) {
        PyObject *module = PyImport_ImportModule("offline_mesh._errors");
        if (!module)
            return;
        om_py_error_factory = PyObject_GetAttrString(module, "error");
        Py_DECREF(module);
        if (!om_py_error_factory)
            return;
    }
    exc = PyObject_CallFunction(om_py_error_factory, "is", (int)err->status,
                                text);
    if (exc) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
}

/* Out-values accumulate in a list that the "ret" typemap of om_status turns
 * into None, the value, or a tuple of values. */
static int om_py_push(PyObject *outputs, PyObject *value)
{
    int rc;
    if (!value)
        return -1;
    rc = PyList_Append(outputs, value);
    Py_DECREF(value);
    return rc;
}

static PyObject *om_py_outputs(PyObject *outputs)
{
    PyObject *result;
    Py_ssize_t n = PyList_GET_SIZE(outputs);

    if (n == 0)
        result = Py_None, Py_INCREF(result);
    else if (n == 1)
        result = PyList_GET_ITEM(outputs, 0), Py_INCREF(result);
    else
        result = PyList_AsTuple(outputs);
    Py_DECREF(outputs);
    return result;
}

/* int or __index__ (numpy integers), never bool; TypeError otherwise,
 * ValueError when out of range. */
static int om_py_as_int64(PyObject *obj, const char *what, int64_t *out)
{
    long long value;
    int overflow = 0;

    if (PyBool_Check(obj) || !PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (PyLong_Check(obj)) {
        value = PyLong_AsLongLongAndOverflow(obj, &overflow);
    } else {
        PyObject *number = PyNumber_Index(obj);
        if (!number)
            return -1;
        value = PyLong_AsLongLongAndOverflow(number, &overflow);
        Py_DECREF(number);
    }
    if (overflow) {
        PyErr_Format(PyExc_ValueError, "%s = %R is out of range", what, obj);
        return -1;
    }
    if (value == -1 && PyErr_Occurred())
        return -1;
    *out = (int64_t)value;
    return 0;
}

/* UTF-8 of a str without NUL (C strings cannot carry it), borrowed. */
static const char *om_py_as_cstring(PyObject *obj, const char *what)
{
    Py_ssize_t length;
    const char *text;

    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be a str, not %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    text = PyUnicode_AsUTF8AndSize(obj, &length);
    if (text && (size_t)length != strlen(text)) {
        PyErr_Format(PyExc_ValueError, "%s contains a NUL character", what);
        return NULL;
    }
    return text;
}

/* The items of a list or tuple (not str/bytes), as a new tuple. */
static PyObject *om_py_items(PyObject *obj, const char *what)
{
    if (PyTuple_CheckExact(obj)) {
        Py_INCREF(obj);
        return obj;
    }
    if (PyUnicode_Check(obj) || PyBytes_Check(obj) || PyByteArray_Check(obj) ||
        !(PySequence_Check(obj) || PyIter_Check(obj) || PyAnySet_Check(obj) ||
          PyDict_Check(obj))) {
        PyErr_Format(PyExc_TypeError, "%s must be a sequence, not %.100s",
                     what, Py_TYPE(obj)->tp_name);
        return NULL;
    }
    return PySequence_Tuple(obj);
}

/* str for a C string the library made. */
static PyObject *om_py_str(const char *text)
{
    return PyUnicode_DecodeUTF8(text, (Py_ssize_t)strlen(text), "strict");
}

/* The axis names the library itself produces, made once: a mesh's tuple
 * reuses them instead of decoding a new str per axis. */
static const char *const om_py_common_names[] = {"dp", "cp", "tp", "pp",
                                                 "ep", "edp"};
#define OM_PY_COMMON_NAMES \
    (sizeof om_py_common_names / sizeof om_py_common_names[0])
static PyObject *om_py_common_name_objects[OM_PY_COMMON_NAMES];

static PyObject *om_py_name(const char *name)
{
    size_t i;
    for (i = 0; i < OM_PY_COMMON_NAMES; i++) {
        if (strcmp(name, om_py_common_names[i]) == 0) {
            if (!om_py_common_name_objects[i])
                om_py_common_name_objects[i] =
                    PyUnicode_InternFromString(name);
            Py_XINCREF(om_py_common_name_objects[i]);
            return om_py_common_name_objects[i];
        }
    }
    return om_py_str(name);
}

/* (names, shape) tuples of a mesh. */
static PyObject *om_py_mesh_tuples(const om_mesh *mesh)
{
    size_t ndim = om_mesh_ndim(mesh), i;
    PyObject *names = PyTuple_New((Py_ssize_t)ndim);
    PyObject *shape = PyTuple_New((Py_ssize_t)ndim);
    PyObject *pair = NULL;

    if (!names || !shape)
        goto done;
    for (i = 0; i < ndim; i++) {
        PyObject *name = om_py_name(om_mesh_name(mesh, i));
        PyObject *size = PyLong_FromLongLong(om_mesh_dim_size(mesh, i));
        if (!name || !size) {
            Py_XDECREF(name);
            Py_XDECREF(size);
            goto done;
        }
        PyTuple_SET_ITEM(names, (Py_ssize_t)i, name);
        PyTuple_SET_ITEM(shape, (Py_ssize_t)i, size);
    }
    pair = PyTuple_Pack(2, names, shape);
done:
    Py_XDECREF(names);
    Py_XDECREF(shape);
    return pair;
}

/* The package's OfflineMesh class (registered once by _set_mesh_class):
 * every mesh the library returns becomes one, its slots set here, so no
 * Python code runs per mesh. Until it is registered, meshes come back as
 * (handle, names, shape). */
static PyTypeObject *om_py_mesh_class = NULL;
static PyObject *om_py_mesh_slots[3]; /* mesh_dim_names, mesh_shape, _handle */

static PyObject *om_py_mesh_object(PyObject *handle, PyObject *names,
                                   PyObject *shape)
{
    PyObject *values[3] = {names, shape, handle}, *obj;
    int i;

    if (!om_py_mesh_class)
        return PyTuple_Pack(3, handle, names, shape);
    obj = om_py_mesh_class->tp_alloc(om_py_mesh_class, 0);
    /* generic setattr: the slots' own descriptors, past the class's
     * __setattr__ that makes the mesh immutable */
    for (i = 0; obj && i < 3; i++) {
        if (PyObject_GenericSetAttr(obj, om_py_mesh_slots[i], values[i]) < 0)
            Py_CLEAR(obj);
    }
    return obj;
}

/* The OfflineMesh of a new mesh handle (stolen). */
static PyObject *om_py_with_tuples(PyObject *handle, const om_mesh *mesh)
{
    PyObject *tuples = om_py_mesh_tuples(mesh), *result = NULL;

    if (tuples) {
        result = om_py_mesh_object(handle, PyTuple_GET_ITEM(tuples, 0),
                                   PyTuple_GET_ITEM(tuples, 1));
        Py_DECREF(tuples);
    }
    Py_DECREF(handle);
    return result;
}

/* ---- om_dims from a ParallelDimsSpec-like object ---- */
static PyObject *om_py_dim_fields[OM_DIM_PP + 1];
static PyObject *om_py_flag_fields[OM_FLAG_LOSS_PARALLEL + 1];

static PyObject *om_py_field_name(PyObject **cache, const char *name)
{
    if (!*cache)
        *cache = PyUnicode_InternFromString(name);
    return *cache;
}

/* A new om_dims from the seven attributes of `spec` (any object that has
 * them). Types are checked here; values by the library (om_dims_set). */
static om_dims *om_py_dims_from_spec(PyObject *spec)
{
    om_dims *dims = NULL;
    om_error err;
    int i;

    om_error_clear(&err);
    if (om_dims_new(&dims, &err) != OM_OK) {
        om_py_raise(&err);
        return NULL;
    }
    for (i = 0; i <= (int)OM_DIM_PP; i++) {
        const char *field = om_dim_field_name((om_dim)i);
        PyObject *name = om_py_field_name(&om_py_dim_fields[i], field);
        PyObject *value = name ? PyObject_GetAttr(spec, name) : NULL;
        int64_t size;
        int rc;
        if (!value)
            goto missing;
        rc = om_py_as_int64(value, field, &size);
        Py_DECREF(value);
        if (rc < 0)
            goto fail;
        if (om_dims_set(dims, (om_dim)i, size, &err) != OM_OK) {
            om_py_raise(&err);
            goto fail;
        }
    }
    for (i = 0; i <= (int)OM_FLAG_LOSS_PARALLEL; i++) {
        const char *field = om_flag_field_name((om_flag)i);
        PyObject *name = om_py_field_name(&om_py_flag_fields[i], field);
        PyObject *value = name ? PyObject_GetAttr(spec, name) : NULL;
        if (!value)
            goto missing;
        if (!PyBool_Check(value)) {
            PyErr_Format(PyExc_TypeError, "%s must be a bool, not %.100s",
                         field, Py_TYPE(value)->tp_name);
            Py_DECREF(value);
            goto fail;
        }
        if (om_dims_set_flag(dims, (om_flag)i, value == Py_True, &err) !=
            OM_OK) {
            Py_DECREF(value);
            om_py_raise(&err);
            goto fail;
        }
        Py_DECREF(value);
    }
    return dims;
missing:
    if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "spec must be a ParallelDimsSpec, not %.100s",
                     Py_TYPE(spec)->tp_name);
    }
fail:
    om_dims_free(dims);
    return NULL;
}
%}

/* ---- status and error ------------------------------------------------------ */
%typemap(out) om_status %{ $result = PyList_New(0); if (!$result) SWIG_fail; %}
%typemap(ret) om_status %{ (void)$1; $result = om_py_outputs($result); %}

%typemap(in, numinputs=0) om_error *OM_ERROR (om_error temp) %{ $1 = &temp; %}
/* cleared in "check", which runs after every "in": a retry (OM_BUFFER)
 * jumps back before it */
%typemap(check) om_error *OM_ERROR %{ om_error_clear($1); %}
%typemap(argout) om_error *OM_ERROR %{
    if ($1->status != OM_OK) {
        Py_XDECREF($result);
        $result = NULL;
        om_py_raise($1);
        SWIG_fail;
    }
%}

/* ---- new objects, strings, scalar outputs ---------------------------------- */
%typemap(in, numinputs=0) SWIGTYPE **OM_NEW ($*1_ltype temp = NULL) %{ $1 = &temp; %}
%typemap(argout) SWIGTYPE **OM_NEW %{
    if (*$1) {
        PyObject *handle = SWIG_NewPointerObj(*$1, $*1_descriptor,
                                              SWIG_POINTER_OWN);
        if (handle && $*1_descriptor == SWIGTYPE_p_om_mesh)
            handle = om_py_with_tuples(handle, (const om_mesh *)*$1);
        if (om_py_push($result, handle) < 0)
            SWIG_fail;
    }
%}

%typemap(in, numinputs=0) char **OM_STRING (char *temp = NULL) %{ $1 = &temp; %}
%typemap(argout) char **OM_STRING %{
    if (*$1 && om_py_push($result, om_py_str(*$1)) < 0)
        SWIG_fail;
%}
%typemap(freearg) char **OM_STRING %{ om_string_free(*$1); %}

%typemap(in, numinputs=0) int64_t *OM_OUTPUT (int64_t temp = 0),
                          uint64_t *OM_OUTPUT (uint64_t temp = 0),
                          size_t *OM_OUTPUT (size_t temp = 0),
                          bool *OM_OUTPUT (bool temp = false) %{ $1 = &temp; %}
%typemap(argout) int64_t *OM_OUTPUT %{
    if (result == OM_OK && om_py_push($result, PyLong_FromLongLong(*$1)) < 0)
        SWIG_fail;
%}
%typemap(argout) uint64_t *OM_OUTPUT %{
    if (result == OM_OK &&
        om_py_push($result, PyLong_FromUnsignedLongLong(*$1)) < 0)
        SWIG_fail;
%}
%typemap(argout) size_t *OM_OUTPUT %{
    if (result == OM_OK && om_py_push($result, PyLong_FromSize_t(*$1)) < 0)
        SWIG_fail;
%}
%typemap(argout) bool *OM_OUTPUT %{
    if (result == OM_OK && om_py_push($result, PyBool_FromLong(*$1)) < 0)
        SWIG_fail;
%}

/* ---- caller buffers with a needed length, one retry ------------------------
 * Integers come back as a bytearray of the C items (memoryview(b).cast("i")
 * or "q" reads them; bulk tables need no Python int per item), strings as a
 * list of str. The first call is the library's size query (NULL, 0); the
 * wrapper then jumps back before the call (the label in "check") with a
 * buffer of exactly the needed length. */
%define OM_PY_BUFFER(TYPE, RESULT)
%typemap(in, numinputs=0) (TYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED)
    (size_t needed = 0, PyObject *grown = NULL) %{
    $1 = NULL;
    $2 = 0;
    $3 = &needed;
%}
%typemap(check) (TYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) %{
om_py_retry$argnum:
    ;
%}
%typemap(argout) (TYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) %{
    if ((result == OM_OK || result == OM_ERR_BUFFER_TOO_SMALL) &&
        !grown$argnum && needed$argnum > 0) {
        if (needed$argnum > (size_t)PY_SSIZE_T_MAX / sizeof(TYPE)) {
            PyErr_NoMemory();
            SWIG_fail;
        }
        grown$argnum = PyByteArray_FromStringAndSize(
            NULL, (Py_ssize_t)(needed$argnum * sizeof(TYPE)));
        if (!grown$argnum)
            SWIG_fail;
        $1 = (TYPE *)PyByteArray_AS_STRING(grown$argnum);
        $2 = needed$argnum;
        Py_CLEAR($result);
        goto om_py_retry$argnum;
    }
    if (result == OM_OK) {
        size_t i, n = $1 ? needed$argnum : 0;
        PyObject *value = RESULT;
        if (om_py_push($result, value) < 0)
            SWIG_fail;
    }
%}
%typemap(freearg) (TYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) %{
    Py_XDECREF(grown$argnum);
%}
%enddef
%{
/* The first `n` items of a buffer as a bytearray (`grown`, when the buffer
 * is it, trimmed and passed on). */
static PyObject *om_py_items_bytes(PyObject *grown, const void *items,
                                   size_t n, size_t size)
{
    if (grown && n * size == (size_t)PyByteArray_GET_SIZE(grown)) {
        Py_INCREF(grown);
        return grown;
    }
    if (grown) {
        if (PyByteArray_Resize(grown, (Py_ssize_t)(n * size)) < 0)
            return NULL;
        Py_INCREF(grown);
        return grown;
    }
    return PyByteArray_FromStringAndSize(items, (Py_ssize_t)(n * size));
}

SWIGUNUSED static PyObject *om_py_str_list(const char *const *items, size_t n)
{
    PyObject *list = PyList_New((Py_ssize_t)n);
    size_t i;
    for (i = 0; list && i < n; i++) {
        PyObject *item = om_py_str(items[i]);
        if (!item)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    return list;
}
%}
OM_PY_BUFFER(int32_t, ((void)i, om_py_items_bytes(grown$argnum, $1, n, sizeof *$1)))
OM_PY_BUFFER(int64_t, ((void)i, om_py_items_bytes(grown$argnum, $1, n, sizeof *$1)))
OM_PY_BUFFER(const char *, ((void)i, om_py_str_list($1, n)))

/* Enumerations returned through a pointer (om_launch_format *format). */
%typemap(in, numinputs=0) enum SWIGTYPE * ($*1_ltype temp) %{ $1 = &temp; %}
%typemap(argout) enum SWIGTYPE * %{
    if (result == OM_OK && om_py_push($result, PyLong_FromLong((long)*$1)) < 0)
        SWIG_fail;
%}

/* A list of OfflineMesh handles (Mesh objects): the views of a world. */
%typemap(in) (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN)
    (PyObject *items = NULL) %{
    items = om_py_items($input, "$1_name");
    if (!items)
        SWIG_fail;
    $2 = (size_t)PyTuple_GET_SIZE(items);
    $1 = PyMem_Calloc($2 + 1, sizeof *$1);
    if (!$1) {
        PyErr_NoMemory();
        SWIG_fail;
    }
    for (size_t i = 0; i < $2; i++) {
        void *mesh = NULL;
        if (!SWIG_IsOK(SWIG_ConvertPtr(PyTuple_GET_ITEM(items, (Py_ssize_t)i),
                                       &mesh, SWIGTYPE_p_om_mesh, 0))) {
            PyErr_Format(PyExc_TypeError, "$1_name[%zu] must be a Mesh", i);
            SWIG_fail;
        }
        ((const om_mesh **)$1)[i] = mesh;
    }
%}
%typemap(freearg) (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN) %{
    PyMem_Free((void *)$1);
    Py_XDECREF(items$argnum);
%}
%typemap(argout) (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN) ""

/* ---- inputs ------------------------------------------------------------------ */
%typemap(in) int64_t %{
    if (om_py_as_int64($input, "$1_name", &$1) < 0)
        SWIG_fail;
%}

/* Enumerations: ints, ValueError beyond C's int; the library answers unknown
 * values itself. */
%typemap(in) enum SWIGTYPE %{
    {
        int64_t value;
        if (om_py_as_int64($input, "$1_name", &value) < 0)
            SWIG_fail;
        if (value < INT_MIN || value > INT_MAX) {
            PyErr_Format(PyExc_ValueError, "$1_name = %R is out of range", $input);
            SWIG_fail;
        }
        $1 = ($1_ltype)value;
    }
%}

/* None is C's NULL: the library reports it with its own message. */
%typemap(in) const char * %{
    $1 = $input == Py_None ? NULL
                           : ($1_ltype)om_py_as_cstring($input, "$1_name");
    if (!$1 && PyErr_Occurred())
        SWIG_fail;
%}
%typemap(freearg) const char * ""

/* SWIG is not told that int64_t is `long` (its stdint.i says `long long`,
 * and the casts it writes then mismatch the headers): map them here. */
%typemap(in) uint64_t %{
    {
        unsigned long long value = PyLong_Check($input) && !PyBool_Check($input)
            ? PyLong_AsUnsignedLongLong($input) : (PyErr_Format(PyExc_TypeError,
                  "$1_name must be an int, not %.100s", Py_TYPE($input)->tp_name),
              (unsigned long long)-1);
        if (value == (unsigned long long)-1 && PyErr_Occurred())
            SWIG_fail;
        $1 = (uint64_t)value;
    }
%}
%typemap(out) int64_t %{ $result = PyLong_FromLongLong((long long)$1); %}
%typemap(out) uint64_t %{ $result = PyLong_FromUnsignedLongLong((unsigned long long)$1); %}

%typemap(in) const char *path (PyObject *encoded = NULL) %{
    if (!PyUnicode_FSConverter($input, &encoded))
        SWIG_fail;
    $1 = PyBytes_AS_STRING(encoded);
%}
%typemap(freearg) const char *path %{ Py_XDECREF(encoded$argnum); %}

%typemap(in) (const char *OM_TEXT, size_t OM_TEXT_LEN) (Py_buffer view) %{
    view.obj = NULL;
    if (PyUnicode_Check($input)) {
        Py_ssize_t n;
        $1 = ($1_ltype)PyUnicode_AsUTF8AndSize($input, &n);
        if (!$1)
            SWIG_fail;
        $2 = (size_t)n;
    } else if (PyObject_CheckBuffer($input)) {
        if (PyObject_GetBuffer($input, &view, PyBUF_SIMPLE) < 0)
            SWIG_fail;
        $1 = ($1_ltype)view.buf;
        $2 = (size_t)view.len;
    } else {
        PyErr_Format(PyExc_TypeError, "$1_name must be str or bytes, not %.100s",
                     Py_TYPE($input)->tp_name);
        SWIG_fail;
    }
%}
%typemap(freearg) (const char *OM_TEXT, size_t OM_TEXT_LEN) %{
    if (view$argnum.obj)
        PyBuffer_Release(&view$argnum);
%}

%typemap(in) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN)
    (PyObject *items = NULL, const char *small[8]) %{
    items = om_py_items($input, "$1_name");
    if (!items)
        SWIG_fail;
    $2 = (size_t)PyTuple_GET_SIZE(items);
    /* an empty list is (NULL, 0): "none given" */
    $1 = $2 == 0 ? NULL : $2 <= 8 ? small : PyMem_Calloc($2, sizeof *$1);
    if (!$1 && $2 > 0) {
        PyErr_NoMemory();
        SWIG_fail;
    }
    for (size_t i = 0; i < $2; i++) {
        PyObject *item = PyTuple_GET_ITEM(items, (Py_ssize_t)i);
        if (!PyUnicode_Check(item)) {
            PyErr_Format(PyExc_TypeError, "$1_name[%zu] must be a str, not %.100s",
                         i, Py_TYPE(item)->tp_name);
            SWIG_fail;
        }
        ((const char **)$1)[i] = om_py_as_cstring(item, "$1_name");
        if (!$1[i])
            SWIG_fail;
    }
%}
%typemap(freearg) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) %{
    if ((const void *)$1 != (const void *)small$argnum)
        PyMem_Free((void *)$1);
    Py_XDECREF(items$argnum);
%}

%typemap(in) (const int64_t *OM_INTS, size_t OM_INTS_LEN)
    (PyObject *items = NULL, int64_t small[8]) %{
    items = om_py_items($input, "$1_name");
    if (!items)
        SWIG_fail;
    $2 = (size_t)PyTuple_GET_SIZE(items);
    $1 = $2 <= 8 ? small : PyMem_Calloc($2, sizeof *$1);
    if (!$1) {
        PyErr_NoMemory();
        SWIG_fail;
    }
    for (size_t i = 0; i < $2; i++) {
        PyObject *item = PyTuple_GET_ITEM(items, (Py_ssize_t)i);
        if (PyLong_CheckExact(item)) {
            int overflow = 0;
            ((int64_t *)$1)[i] = PyLong_AsLongLongAndOverflow(item, &overflow);
            if (!overflow)
                continue;
        }
        char what[48];
        snprintf(what, sizeof what, "$1_name[%zu]", i);
        if (om_py_as_int64(item, what, (int64_t *)&$1[i]) < 0)
            SWIG_fail;
    }
%}
%typemap(freearg) (const int64_t *OM_INTS, size_t OM_INTS_LEN) %{
    if ((const void *)$1 != (const void *)small$argnum)
        PyMem_Free((void *)$1);
    Py_XDECREF(items$argnum);
%}

/* 1.0-style caller buffers: Python passes the number of items and gets
 * back a bytearray of them, filled by the library (not zeroed first: bulk
 * group tables are megabytes). */
%define OM_PY_INTO(TYPE)
%typemap(in) (TYPE *OM_INTO, size_t OM_INTO_LEN) (PyObject *array = NULL) %{
    {
        int64_t count;
        if (om_py_as_int64($input, "$2_name", &count) < 0)
            SWIG_fail;
        if (count < 0 || (uint64_t)count > (uint64_t)PY_SSIZE_T_MAX / sizeof(TYPE)) {
            PyErr_Format(PyExc_ValueError, "$2_name = %lld is out of range",
                         (long long)count);
            SWIG_fail;
        }
        array = PyByteArray_FromStringAndSize(NULL,
                                              (Py_ssize_t)(count * (int64_t)sizeof(TYPE)));
        if (!array)
            SWIG_fail;
        $1 = (TYPE *)PyByteArray_AS_STRING(array);
        $2 = (size_t)count;
    }
%}
%typemap(argout) (TYPE *OM_INTO, size_t OM_INTO_LEN) %{
    if (result == OM_OK) {
        Py_INCREF(array$argnum);
        if (om_py_push($result, array$argnum) < 0)
            SWIG_fail;
    }
%}
%typemap(freearg) (TYPE *OM_INTO, size_t OM_INTO_LEN) %{ Py_XDECREF(array$argnum); %}
%enddef
OM_PY_INTO(int32_t)
OM_PY_INTO(int64_t)

/* Inputs only (not the scalar outputs their pointer types would match). */
%typemap(argout) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN),
                 (const int64_t *OM_INTS, size_t OM_INTS_LEN) ""

/* A Dims handle, or any object with the seven ParallelDimsSpec fields
 * (converted into a temporary om_dims through the library's setters). */
%typemap(in) const om_dims * (void *handle = NULL, om_dims *temp = NULL) %{
    if ($input != Py_None &&
        SWIG_IsOK(SWIG_ConvertPtr($input, &handle, $1_descriptor, 0))) {
        $1 = (om_dims *)handle;
    } else {
        $1 = temp = om_py_dims_from_spec($input);
        if (!$1)
            SWIG_fail;
    }
%}
%typemap(freearg) const om_dims * %{ om_dims_free(temp$argnum); %}

/* Python-only shims. */
%inline %{
/* Registers the package's OfflineMesh class (see om_py_mesh_object). */
static PyObject *_set_mesh_class(PyObject *cls)
{
    static const char *const slots[3] = {"mesh_dim_names", "mesh_shape",
                                         "_handle"};
    int i;

    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "cls must be a class");
        return NULL;
    }
    for (i = 0; i < 3; i++) {
        if (!om_py_mesh_slots[i] &&
            !(om_py_mesh_slots[i] = PyUnicode_InternFromString(slots[i])))
            return NULL;
    }
    Py_INCREF(cls);
    Py_XSETREF(om_py_mesh_class, (PyTypeObject *)cls);
    Py_RETURN_NONE;
}

/* An OfflineMesh of tuples known to be a valid mesh (sub-meshes), its
 * library mesh made on first use. */
static PyObject *_mesh_object(PyObject *names, PyObject *shape)
{
    return om_py_mesh_object(Py_None, names, shape);
}
%}

/* Test builds only (meson -Dpython_static=true -Dalloc_failure_injection=true):
 * make the library's n-th allocation from now fail (-1 disarms). Returns the
 * allocations made since the previous call. */
#ifdef OM_PY_ALLOC_FAILURE_INJECTION
%{
long omi_alloc_fail_after(long n); /* src/alloc.c */
%}
%inline %{
static long _alloc_fail_after(long n)
{
    return omi_alloc_fail_after(n);
}
%}
#endif

%include "offline_mesh.i"
