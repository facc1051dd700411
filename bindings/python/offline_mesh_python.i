/* liboffline_mesh: the Python typemaps of the shared interface.
 * SPDX-License-Identifier: MIT
 *
 * Generates offline_mesh._core (swig -python -builtin): the C API as module
 * functions under their C names. The pure-Python package offline_mesh/ is
 * the public surface. This file only says how Python represents each
 * pattern of ../offline_mesh.i:
 *
 *   om_status + om_error *   nothing returned; a failure raises the
 *                            exception offline_mesh._errors.error() picks
 *                            (OfflineMeshError, a ValueError, ...) with
 *                            .status and the library's message
 *   T **out                  the new handle, owned; an om_mesh is returned
 *                            as an offline_mesh.OfflineMesh
 *   const om_mesh *          an OfflineMesh (its library mesh)
 *   const om_dims *          a Dims handle, or any object with the seven
 *                            ParallelDimsSpec fields (dp_size None: not given)
 *   char **out               str
 *   (T *out, len, *needed)   an optional last argument: a writable buffer of
 *                            C items (filled and returned: one library call);
 *                            without it, a new bytearray, sized by the
 *                            library's size query
 *   name / int lists         any non-text sequence of str / int
 *   (text, length)           str (UTF-8) or bytes-like; path: os.PathLike
 *   scalar and enum outputs  returned; several come back as a tuple
 * Nothing here touches SWIG's runtime structures.
 */

%module(package="offline_mesh") core

#define OM_BIND_1_1_FORMS

/* Every om_X_free is the destructor of its handle class. Of the 1.0 mask
 * calls, om_mesh_axes stays, for the mask callers of 1.0. */
%rename("$ignore", regexmatch$name="^om_[a-z_]+_free$") "";
%ignore om_dims_from_yaml; /* the 1.0 world-size sentinel: parse + resolve */
%ignore om_dims_load_yaml;

%{
#include <limits.h>

#include "offline_mesh.h"

/* Registered by the package (_register): offline_mesh.OfflineMesh and the
 * exception factory offline_mesh._errors.error. */
static PyObject *om_py_mesh_class, *om_py_error;

static void om_py_raise(const om_error *err)
{
    const char *text = err->message[0] ? err->message : om_status_string(err->status);
    PyObject *exc = om_py_error ? PyObject_CallFunction(om_py_error, "is", (int)err->status, text)
                                : PyErr_Format(PyExc_ImportError, "offline_mesh is not initialised");

    if (exc)
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_XDECREF(exc);
}

/* Argument `what`, or item `index` of it (index >= 0), for messages. */
#define OM_PY_FAIL(exc, what, index, text, ...) (index < 0 \
    ? PyErr_Format(exc, "%s" text, what, __VA_ARGS__) \
    : PyErr_Format(exc, "%s[%zd]" text, what, (Py_ssize_t)index, __VA_ARGS__))

/* An int (or __index__, as numpy integers), never a bool. */
static int om_py_int(PyObject *obj, const char *what, Py_ssize_t index, int64_t *out)
{
    PyObject *number = PyBool_Check(obj) ? NULL : PyNumber_Index(obj);
    int overflow = 0;
    long long value = number ? PyLong_AsLongLongAndOverflow(number, &overflow) : -1;

    Py_XDECREF(number);
    if (number && !overflow)
        return *out = (int64_t)value, 0;
    PyErr_Clear();
    if (overflow)
        OM_PY_FAIL(PyExc_ValueError, what, index, " = %R is out of range", obj);
    else
        OM_PY_FAIL(PyExc_TypeError, what, index, " must be an int, not %.100s", Py_TYPE(obj)->tp_name);
    return -1;
}

/* The UTF-8 of a str without NUL characters (borrowed). */
static const char *om_py_cstr(PyObject *obj, const char *what, Py_ssize_t index)
{
    Py_ssize_t n;
    const char *text = PyUnicode_Check(obj) ? PyUnicode_AsUTF8AndSize(obj, &n) : NULL;

    if (text && (size_t)n == strlen(text))
        return text;
    if (!PyUnicode_Check(obj))
        OM_PY_FAIL(PyExc_TypeError, what, index, " must be a str, not %.100s", Py_TYPE(obj)->tp_name);
    else if (text)
        OM_PY_FAIL(PyExc_ValueError, what, index, " contains a NUL character%s", "");
    return NULL;
}

/* The slot descriptors of OfflineMesh (_register): mesh_dim_names,
 * mesh_shape, is_plain and _handle (the owning Mesh handle). */
static PyObject *om_py_slots[4];

/* The library mesh of an OfflineMesh (borrowed: the OfflineMesh keeps it). */
static om_mesh *om_py_mesh_of(PyObject *obj, const char *what)
{
    PyObject *handle = NULL;
    void *mesh = NULL;

    if (!om_py_mesh_class || !PyObject_TypeCheck(obj, (PyTypeObject *)om_py_mesh_class))
        return PyErr_Format(PyExc_TypeError, "%s must be an OfflineMesh, not %.100s", what,
                            Py_TYPE(obj)->tp_name), NULL;
    if ((handle = Py_TYPE(om_py_slots[3])->tp_descr_get(om_py_slots[3], obj, NULL)))
        SWIG_ConvertPtr(handle, &mesh, SWIGTYPE_p_om_mesh, 0);
    Py_XDECREF(handle);
    if (!mesh)
        PyErr_Clear(), PyErr_Format(PyExc_TypeError, "%s is not initialised", what);
    return (om_mesh *)mesh;
}

/* A sequence (not text) of int (kind 0), str (1) or OfflineMesh (2) as a C
 * array: `small` (8 items) when it fits, else PyMem; NULL when empty.
 * *items keeps the strings alive. */
static int om_py_array(PyObject *obj, const char *what, int kind, int64_t *small, void **array,
                       PyObject **items, size_t *n)
{
    if (PyUnicode_Check(obj) || PyBytes_Check(obj) || PyByteArray_Check(obj) ||
        !(*items = PySequence_Tuple(obj))) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError))
            PyErr_Clear(), PyErr_Format(PyExc_TypeError, "%s must be a sequence, not %.100s",
                                        what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    *n = (size_t)PyTuple_GET_SIZE(*items);
    if (*n && !(*array = *n <= 8 ? small : PyMem_Calloc(*n, sizeof(int64_t))))
        return PyErr_NoMemory(), -1;
    for (size_t i = 0; i < *n; i++) {
        PyObject *item = PyTuple_GET_ITEM(*items, (Py_ssize_t)i);
        int ok = kind == 2 ? !!(((const om_mesh **)*array)[i] = om_py_mesh_of(item, what))
                 : kind == 1 ? !!(((const char **)*array)[i] = om_py_cstr(item, what, (Py_ssize_t)i))
                 : om_py_int(item, what, (Py_ssize_t)i, (int64_t *)*array + i) == 0;
        if (!ok)
            return -1; /* the caller frees *array */
    }
    return 0;
}

/* A str for an axis name, the common ones made once (identical names make
 * `in` and == on mesh_dim_names cheap). */
static PyObject *om_py_name(const char *name)
{
    static const char *const common[] = {"dp", "cp", "tp", "pp", "ep", "edp"};
    static PyObject *made[6];

    for (int i = 0; i < 6; i++) {
        if (strcmp(name, common[i]) == 0)
            return Py_XNewRef(made[i] ? made[i] : (made[i] = PyUnicode_InternFromString(name)));
    }
    return PyUnicode_FromString(name);
}

/* mesh_dim_names (names 1) or mesh_shape (0) of a library mesh: `given`
 * itself when it holds plain str / int (the library copied them: equal). */
static PyObject *om_py_fields(const om_mesh *mesh, int names, PyObject *given)
{
    Py_ssize_t ndim = (Py_ssize_t)om_mesh_ndim(mesh), i = 0;
    PyObject *tuple = NULL;

    while (given && i < ndim && (names ? PyUnicode_CheckExact(PyTuple_GET_ITEM(given, i))
                                       : PyLong_CheckExact(PyTuple_GET_ITEM(given, i))))
        i++;
    if (given && i == ndim)
        return Py_NewRef(given);
    for (i = 0, tuple = PyTuple_New(ndim); tuple && i < ndim; i++) {
        PyObject *item = names ? om_py_name(om_mesh_name(mesh, (size_t)i))
                               : PyLong_FromLongLong(om_mesh_dim_size(mesh, (size_t)i));
        PyTuple_SET_ITEM(tuple, i, item);
        if (!item)
            Py_CLEAR(tuple);
    }
    return tuple;
}

/* The OfflineMesh of a new library mesh (owned by it from now on); names
 * and shape: the tuples it was made from, or NULL. Its slots are set
 * through their descriptors, so no Python code runs. */
static PyObject *om_py_wrap_mesh(om_mesh *mesh, PyObject *names, PyObject *shape)
{
    PyObject *values[4] = {om_py_fields(mesh, 1, names), om_py_fields(mesh, 0, shape),
                           PyBool_FromLong(om_view_is_plain(mesh)),
                           SWIG_InternalNewPointerObj(mesh, SWIGTYPE_p_om_mesh, SWIG_POINTER_OWN)};
    PyObject *obj = values[0] && values[1] && values[3]
        ? ((PyTypeObject *)om_py_mesh_class)->tp_alloc((PyTypeObject *)om_py_mesh_class, 0) : NULL;

    for (int i = 0; i < 4; i++) {
        if (obj && Py_TYPE(om_py_slots[i])->tp_descr_set(om_py_slots[i], obj, values[i]) < 0)
            Py_CLEAR(obj);
        Py_XDECREF(values[i]);
    }
    return obj;
}

/* A new om_dims with the seven fields of `spec`, read by name; types are
 * checked here, values by the library. dp_size None: dp not given. */
static om_dims *om_py_dims(PyObject *spec)
{
    static PyObject *keys[OM_DIM_COUNT + OM_FLAG_COUNT];
    om_dims *dims = NULL;
    om_error err;
    int rc = om_dims_new(&dims, &err) == OM_OK ? 0 : 1;

    for (int i = 0; rc == 0 && i < OM_DIM_COUNT + OM_FLAG_COUNT; i++) {
        om_flag flag = (om_flag)(i - OM_DIM_COUNT);
        const char *field = i < OM_DIM_COUNT ? om_dim_field_name((om_dim)i) : om_flag_field_name(flag);
        PyObject *value = keys[i] || (keys[i] = PyUnicode_InternFromString(field))
                          ? PyObject_GetAttr(spec, keys[i]) : NULL;
        int64_t size;

        if (!value)
            rc = -1;
        else if (i >= OM_DIM_COUNT && !PyBool_Check(value))
            rc = -1, PyErr_Format(PyExc_TypeError, "%s must be a bool, not %.100s", field,
                                  Py_TYPE(value)->tp_name);
        else if (i >= OM_DIM_COUNT)
            rc = om_dims_set_flag(dims, flag, value == Py_True, &err) != OM_OK;
        else if (!(i == OM_DIM_DP && value == Py_None))
            rc = om_py_int(value, field, -1, &size) < 0 ? -1
                 : om_dims_set(dims, (om_dim)i, size, &err) != OM_OK;
        Py_XDECREF(value);
    }
    if (rc > 0)
        om_py_raise(&err);
    else if (rc < 0 && PyErr_ExceptionMatches(PyExc_AttributeError))
        PyErr_Clear(), PyErr_Format(PyExc_TypeError, "spec must be a ParallelDimsSpec, not %.100s",
                                    Py_TYPE(spec)->tp_name);
    if (rc)
        om_dims_free(dims), dims = NULL;
    return dims;
}
%}

/* ---- status and error: outputs collect in $result (%append_output) ------- */
%typemap(out) om_status %{ $result = NULL; %}
%typemap(ret) om_status %{
    (void)$1;
    if (!$result || PyList_CheckExact($result))
        Py_XSETREF($result, $result ? PyList_AsTuple($result) : Py_NewRef(Py_None));
%}

%typemap(in, numinputs=0) om_error *OM_ERROR (om_error temp) %{ $1 = &temp; %}
/* cleared in "check", after every "in": a retry (OM_BUFFER) jumps back
 * before it */
%typemap(check) om_error *OM_ERROR %{ om_error_clear($1); %}
%typemap(argout) om_error *OM_ERROR %{
    if ($1->status != OM_OK) {
        Py_CLEAR($result);
        om_py_raise($1);
        SWIG_fail;
    }
%}

/* ---- outputs ------------------------------------------------------------------ */
%define OM_PY_APPEND(VALUE)
    if (!(VALUE))
        SWIG_fail;
    %append_output(VALUE);
%enddef

%typemap(in, numinputs=0) SWIGTYPE **OM_NEW ($*1_ltype temp = NULL) %{ $1 = &temp; %}
%typemap(argout) SWIGTYPE **OM_NEW (PyObject *obj) {
    if (*$1) {
        obj = $*1_descriptor == SWIGTYPE_p_om_mesh ? om_py_wrap_mesh((om_mesh *)*$1, NULL, NULL)
              : SWIG_NewPointerObj(*$1, $*1_descriptor, SWIG_POINTER_OWN);
        OM_PY_APPEND(obj)
    }
}

%typemap(in, numinputs=0) char **OM_STRING (char *temp = NULL) %{ $1 = &temp; %}
%typemap(argout) char **OM_STRING (PyObject *text) {
    if (*$1) {
        text = PyUnicode_FromString(*$1);
        OM_PY_APPEND(text)
    }
}
%typemap(freearg) char **OM_STRING %{ om_string_free(*$1); %}

%define OM_PY_OUTPUT(TYPE, CONVERT)
%typemap(in, numinputs=0) TYPE *OM_OUTPUT ($*1_ltype temp = 0) %{ $1 = &temp; %}
%typemap(argout) TYPE *OM_OUTPUT (PyObject *value) {
    value = CONVERT(*$1);
    OM_PY_APPEND(value)
}
%enddef
OM_PY_OUTPUT(int64_t, PyLong_FromLongLong)
OM_PY_OUTPUT(uint64_t, PyLong_FromUnsignedLongLong)
OM_PY_OUTPUT(size_t, PyLong_FromSize_t)
OM_PY_OUTPUT(bool, PyBool_FromLong)
/* enumerations through a pointer (om_launch_format *, om_world_size_source *) */
OM_PY_OUTPUT(enum SWIGTYPE, PyLong_FromLong)
%apply enum SWIGTYPE *OM_OUTPUT { enum SWIGTYPE * };

/* Caller buffers with a needed length: the caller's writable buffer of
 * items of this size, or None (the default): then the first call is the
 * library's size query (NULL, 0) and the wrapper jumps back (the label in
 * "check") once with a new bytearray of exactly the needed length. */
%define OM_PY_BUFFER(TYPE)
%typemap(default) (TYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) "";
%typemap(in) (TYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED)
    (size_t needed = 0, PyObject *grown = NULL, Py_buffer view = {0}) %{
    if ($input != Py_None && PyObject_GetBuffer($input, &view, PyBUF_CONTIG | PyBUF_FORMAT) < 0)
        SWIG_fail;
    if (view.obj && (view.itemsize != sizeof(TYPE) || !strpbrk(view.format, "bhilq"))) {
        PyErr_Format(PyExc_TypeError, "out must hold %d-byte signed integers, not format '%s'",
                     (int)sizeof(TYPE), view.format);
        SWIG_fail;
    }
%}
%typemap(check) (TYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) %{
    $1 = view$argnum.obj ? (TYPE *)view$argnum.buf : NULL;
    $2 = view$argnum.obj ? (size_t)view$argnum.len / sizeof(TYPE) : 0;
    $3 = &needed$argnum;
om_py_retry$argnum:;
%}
%typemap(argout) (TYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) {
    if ((result == OM_OK || result == OM_ERR_BUFFER_TOO_SMALL) && !view$argnum.obj && !grown$argnum) {
        if (needed$argnum > (size_t)PY_SSIZE_T_MAX / sizeof(TYPE)) {
            PyErr_NoMemory();
            SWIG_fail;
        }
        grown$argnum = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(needed$argnum * sizeof(TYPE)));
        if (!grown$argnum)
            SWIG_fail;
        $1 = (TYPE *)PyByteArray_AS_STRING(grown$argnum);
        $2 = needed$argnum;
        Py_CLEAR($result);
        goto om_py_retry$argnum;
    }
    if (result == OM_OK) {
        PyObject *table = Py_NewRef(view$argnum.obj ? view$argnum.obj : grown$argnum);
        OM_PY_APPEND(table)
    }
}
%typemap(freearg) (TYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) %{
    Py_XDECREF(grown$argnum);
    PyBuffer_Release(&view$argnum);
%}
%enddef
OM_PY_BUFFER(int32_t)
OM_PY_BUFFER(int64_t)

/* ---- inputs -------------------------------------------------------------------- */
%typemap(in) int64_t %{ if (om_py_int($input, "$1_name", -1, &$1) < 0) SWIG_fail; %}
%typemap(out) int64_t %{ $result = PyLong_FromLongLong((long long)$1); %}
%typemap(out) uint64_t %{ $result = PyLong_FromUnsignedLongLong((unsigned long long)$1); %}

/* enumerations: ints; the library answers unknown values itself */
%typemap(in) enum SWIGTYPE (int64_t value) %{
    if (om_py_int($input, "$1_name", -1, &value) < 0)
        SWIG_fail;
    if (value < INT_MIN || value > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "$1_name = %R is out of range", $input);
        SWIG_fail;
    }
    $1 = ($1_ltype)value;
%}

/* None is C's NULL: the library reports it with its own message */
%typemap(in) const char * %{
    $1 = $input == Py_None ? NULL : ($1_ltype)om_py_cstr($input, "$1_name", -1);
    if (!$1 && PyErr_Occurred())
        SWIG_fail;
%}
%typemap(freearg) const char * ""

%typemap(in) const char *path (PyObject *encoded = NULL) %{
    if (!PyUnicode_FSConverter($input, &encoded))
        SWIG_fail;
    $1 = PyBytes_AS_STRING(encoded);
%}
%typemap(freearg) const char *path %{ Py_XDECREF(encoded$argnum); %}

%typemap(in) (const char *OM_TEXT, size_t OM_TEXT_LEN) (Py_buffer view = {0}, Py_ssize_t n) %{
    if (PyUnicode_Check($input) ? !($1 = ($1_ltype)PyUnicode_AsUTF8AndSize($input, &n))
                                : PyObject_GetBuffer($input, &view, PyBUF_SIMPLE) < 0)
        SWIG_fail;
    $1 = view.obj ? ($1_ltype)view.buf : $1;
    $2 = (size_t)(view.obj ? view.len : n);
%}
%typemap(freearg) (const char *OM_TEXT, size_t OM_TEXT_LEN) %{ PyBuffer_Release(&view$argnum); %}

/* lists of names, ints and OfflineMesh; an empty list is (NULL, 0) */
%define OM_PY_LIST(PATTERN, KIND)
%typemap(in) PATTERN (PyObject *items = NULL, void *array = NULL, int64_t small[8]) %{
    if (om_py_array($input, "$1_name", KIND, small, &array, &items, &$2) < 0)
        SWIG_fail;
    $1 = ($1_ltype)array;
%}
%typemap(freearg) PATTERN %{
    if (array$argnum != small$argnum)
        PyMem_Free(array$argnum);
    Py_XDECREF(items$argnum);
%}
%typemap(argout) PATTERN ""
%enddef
OM_PY_LIST(%arg((const int64_t *OM_INTS, size_t OM_INTS_LEN)), 0)
OM_PY_LIST(%arg((const char *const *OM_STRINGS, size_t OM_STRINGS_LEN)), 1)
OM_PY_LIST(%arg((const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN)), 2)

%typemap(in) const om_mesh * %{ if (!($1 = om_py_mesh_of($input, "$1_name"))) SWIG_fail; %}

%typemap(in) const om_dims * (void *handle = NULL, om_dims *temp = NULL) %{
    if (SWIG_IsOK(SWIG_ConvertPtr($input, &handle, $1_descriptor, 0)) && handle)
        $1 = (om_dims *)handle;
    else if (!($1 = temp = om_py_dims($input)))
        SWIG_fail;
%}
%typemap(freearg) const om_dims * %{ om_dims_free(temp$argnum); %}

/* ---- shims ------------------------------------------------------------------ */
%inline %{
/* The package's OfflineMesh class and exception factory (see above). */
static PyObject *_register(PyObject *mesh_class, PyObject *error)
{
    static const char *const fields[4] = {"mesh_dim_names", "mesh_shape", "is_plain", "_handle"};

    for (int i = 0; i < 4; i++) {
        PyObject *slot = PyType_Check(mesh_class) ? PyObject_GetAttrString(mesh_class, fields[i]) : NULL;
        if (!slot || !Py_TYPE(slot)->tp_descr_set || !Py_TYPE(slot)->tp_descr_get)
            return Py_XDECREF(slot), PyErr_Format(PyExc_TypeError, "mesh_class needs the slot %s", fields[i]);
        Py_XSETREF(om_py_slots[i], slot);
    }
    Py_XSETREF(om_py_mesh_class, Py_NewRef(mesh_class));
    Py_XSETREF(om_py_error, Py_NewRef(error));
    Py_RETURN_NONE;
}
%}

/* Test builds only (meson -Dpython_static=true -Dalloc_failure_injection=true):
 * the library's n-th allocation from now fails (-1 disarms); returns the
 * allocations made since the previous call. */
#ifdef OM_PY_ALLOC_FAILURE_INJECTION
%{
long omi_alloc_fail_after(long n); /* src/alloc.c */
%}
%inline %{
static long _alloc_fail_after(long n) { return omi_alloc_fail_after(n); }
%}
#endif

%include "offline_mesh.i"

/* OfflineMesh(mesh_dim_names=(), mesh_shape=()): the metaclass's __call__
 * is the C function _mesh_call() returns (no Python frame); the mesh keeps
 * the tuples of the arguments when they hold plain str and int. */
%feature("kwargs") _new_mesh;
%apply (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) {
    (const char *const *mesh_dim_names, size_t nnames) };
%apply (const int64_t *OM_INTS, size_t OM_INTS_LEN) { (const int64_t *mesh_shape, size_t nsizes) };
%typemap(default) (const char *const *mesh_dim_names, size_t nnames),
                  (const int64_t *mesh_shape, size_t nsizes) %{ $1 = NULL; $2 = 0; %}
%typemap(in, numinputs=0) om_mesh **made (om_mesh *temp = NULL) %{ $1 = &temp; %}
%typemap(argout) om_mesh **made %{
    if (*$1 && !($result = om_py_wrap_mesh(*$1, items1, items3)))
        SWIG_fail;
%}
%{
static PyObject *_wrap__new_mesh(PyObject *self, PyObject *args, PyObject *kwargs);
static PyObject *_wrap__new_sub_mesh(PyObject *self, PyObject *args);

/* Positional calls skip the keyword parser (SWIG's wrappers of the two). */
static PyObject *om_py_mesh_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    return kwargs ? _wrap__new_mesh(self, args, kwargs) : _wrap__new_sub_mesh(self, args);
}
%}
/* Both are om_mesh_new_checked: two SWIG wrappers of it, one without
 * keywords (also what mesh["tp"] calls). */
%{
#define _new_mesh om_mesh_new_checked
#define _new_sub_mesh om_mesh_new_checked
%}
om_status _new_mesh(const char *const *mesh_dim_names, size_t nnames, const int64_t *mesh_shape,
                    size_t nsizes, om_mesh **made, om_error *err);
om_status _new_sub_mesh(const char *const *mesh_dim_names, size_t nnames, const int64_t *mesh_shape,
                        size_t nsizes, om_mesh **made, om_error *err);
%inline %{
static PyObject *_mesh_call(void)
{
    static PyMethodDef def = {"OfflineMesh", (PyCFunction)(void (*)(void))om_py_mesh_call,
                              METH_VARARGS | METH_KEYWORDS, NULL};
    return PyCFunction_New(&def, NULL);
}
%}
