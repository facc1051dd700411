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
 *   (T *out, len, *needed)   bytearray of the C items (str list for names),
 *                            retried once at the needed length
 *   name / int lists         list or tuple of str / int
 *   (text, length)           str (UTF-8) or bytes-like; path: os.PathLike
 *   scalar and enum outputs  returned; several come back as a tuple
 * Nothing here touches SWIG's runtime structures.
 */

%module(package="offline_mesh") core

#define OM_BIND_1_1_FORMS

/* Every om_X_free is the destructor of its handle class. The 1.0 calls
 * that take axis masks or caller-sized buffers are not bound: their 1.1
 * forms (names, one-call sizing) are (bindings/parity.tsv); om_mesh_axes
 * stays, for the mask callers of 1.0. */
%rename("$ignore", regexmatch$name="^om_[a-z_]+_free$") "";
%ignore om_mesh_coordinate;
%ignore om_mesh_group_shape;
%ignore om_mesh_groups;
%ignore om_mesh_group_index;
%ignore om_mesh_group_of;
%ignore om_mesh_locality;
%ignore om_dims_from_yaml; /* the 1.0 world-size sentinel: parse + resolve */
%ignore om_dims_load_yaml;

%{
#include <limits.h>
#include <string.h>

#include "offline_mesh.h"

#if PY_VERSION_HEX < 0x030A0000
#define Py_NewRef(obj) (Py_INCREF(obj), (PyObject *)(obj))
#define Py_XNewRef(obj) (Py_XINCREF(obj), (PyObject *)(obj))
#endif

/* Raises offline_mesh._errors.error(status, message). */
static void om_py_raise(const om_error *err)
{
    static PyObject *factory;
    PyObject *exc;

    if (!factory) {
        PyObject *module = PyImport_ImportModule("offline_mesh._errors");
        factory = module ? PyObject_GetAttrString(module, "error") : NULL;
        Py_XDECREF(module);
        if (!factory)
            return;
    }
    exc = PyObject_CallFunction(factory, "is", (int)err->status,
                                err->message[0] ? err->message
                                                : om_status_string(err->status));
    if (exc)
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_XDECREF(exc);
}

/* Out-values collect in *result: the value, or a list of several that the
 * "ret" typemap of om_status makes a tuple (no output value is a list).
 * Steals `value`. */
static int om_py_push(PyObject **result, PyObject *value)
{
    int rc = value ? 0 : -1;

    if (value && !*result)
        return *result = value, 0;
    if (value && !PyList_CheckExact(*result)) {
        PyObject *list = PyList_New(1);
        if (list)
            PyList_SET_ITEM(list, 0, *result), *result = list;
        rc = list ? 0 : -1;
    }
    rc = rc == 0 ? PyList_Append(*result, value) : -1;
    Py_XDECREF(value);
    return rc;
}

/* The name of an argument in messages: what, or what[index] (item index
 * of a list; formatted only when a message needs it). */
static const char *om_py_what(char *buffer, const char *what, Py_ssize_t index)
{
    if (index >= 0)
        snprintf(buffer, 64, "%s[%zd]", what, index);
    return index >= 0 ? buffer : what;
}

/* An int (or __index__, as numpy integers), never a bool. */
static int om_py_int(PyObject *obj, const char *what, Py_ssize_t index, int64_t *out)
{
    PyObject *number = NULL;
    int overflow = 0;
    long long value;
    char name[64];

    if (PyLong_CheckExact(obj) || (!PyBool_Check(obj) && PyIndex_Check(obj) &&
                                   (number = PyNumber_Index(obj)))) {
        value = PyLong_AsLongLongAndOverflow(number ? number : obj, &overflow);
        Py_XDECREF(number);
        if (!overflow && !(value == -1 && PyErr_Occurred()))
            return *out = (int64_t)value, 0;
    }
    if (overflow)
        PyErr_Format(PyExc_ValueError, "%s = %R is out of range",
                     om_py_what(name, what, index), obj);
    else if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s",
                     om_py_what(name, what, index), Py_TYPE(obj)->tp_name);
    return -1;
}

/* The UTF-8 of a str without NUL characters (borrowed). */
static const char *om_py_cstr(PyObject *obj, const char *what, Py_ssize_t index)
{
    Py_ssize_t n;
    const char *text = PyUnicode_Check(obj) ? PyUnicode_AsUTF8AndSize(obj, &n) : NULL;
    char name[64];

    if (text && (size_t)n == strlen(text))
        return text;
    if (!PyUnicode_Check(obj))
        PyErr_Format(PyExc_TypeError, "%s must be a str, not %.100s",
                     om_py_what(name, what, index), Py_TYPE(obj)->tp_name);
    else if (text)
        PyErr_Format(PyExc_ValueError, "%s contains a NUL character",
                     om_py_what(name, what, index));
    return NULL;
}

static om_mesh *om_py_mesh_of(PyObject *obj, const char *what);

/* Item i of a list of int (kind 0), str (1) or OfflineMesh (2), into slot i
 * of `array`. */
static int om_py_item(PyObject *item, const char *what, size_t i, int kind, void *array)
{
    if (kind == 2)
        return (((const om_mesh **)array)[i] = om_py_mesh_of(item, what)) ? 0 : -1;
    if (kind == 1)
        return (((const char **)array)[i] = om_py_cstr(item, what, (Py_ssize_t)i)) ? 0 : -1;
    return om_py_int(item, what, (Py_ssize_t)i, (int64_t *)array + i);
}

/* A list of int, str or OfflineMesh (kind, as om_py_item; a tuple, list or
 * other non-text sequence) as a C array: `small` when it fits, else PyMem
 * (om_py_free_array). *items keeps the strings alive. */
static void *om_py_array(PyObject *obj, const char *what, int kind,
                         void *small, size_t nsmall, PyObject **items,
                         size_t *n)
{
    void *array;

    if (PyUnicode_Check(obj) || PyBytes_Check(obj) || PyByteArray_Check(obj) ||
        !(PySequence_Check(obj) || PyIter_Check(obj) || PyAnySet_Check(obj) ||
          PyDict_Check(obj)))
        return PyErr_Format(PyExc_TypeError, "%s must be a sequence, not %.100s",
                            what, Py_TYPE(obj)->tp_name), NULL;
    if (!(*items = PySequence_Tuple(obj)))
        return NULL;
    *n = (size_t)PyTuple_GET_SIZE(*items);
    array = *n <= nsmall ? small
            : PyMem_Calloc(*n, kind ? sizeof(void *) : sizeof(int64_t));
    if (!array)
        return PyErr_NoMemory();
    for (size_t i = 0; i < *n; i++) {
        if (om_py_item(PyTuple_GET_ITEM(*items, (Py_ssize_t)i), what, i, kind,
                       array) < 0) {
            if (array != small)
                PyMem_Free(array);
            return NULL;
        }
    }
    return array;
}

static void om_py_free_array(const void *array, const void *small,
                             PyObject *items)
{
    if (array != small)
        PyMem_Free((void *)array);
    Py_XDECREF(items);
}

/* ---- meshes: every om_mesh becomes an offline_mesh.OfflineMesh ----------
 * The package registers the class (_set_mesh_class); its slots
 * mesh_dim_names, mesh_shape and _handle (the owning Mesh handle) are set
 * through their descriptors, so no Python code runs per mesh. */
static PyTypeObject *om_py_mesh_class;
static PyObject *om_py_slots[3];

static PyObject *om_py_mesh_object(PyObject *names, PyObject *shape,
                                   PyObject *handle)
{
    PyObject *values[3] = {names, shape, handle};
    PyObject *obj = om_py_mesh_class
        ? om_py_mesh_class->tp_alloc(om_py_mesh_class, 0)
        : PyErr_Format(PyExc_ImportError, "offline_mesh is not initialised");
    for (int i = 0; obj && i < 3; i++) {
        if (Py_TYPE(om_py_slots[i])->tp_descr_set(om_py_slots[i], obj,
                                                  values[i]) < 0)
            Py_CLEAR(obj);
    }
    return obj;
}

/* A str for a name the library keeps, the common ones made once. */
static PyObject *om_py_name(const char *name)
{
    static const char *const common[] = {"dp", "cp", "tp", "pp", "ep", "edp"};
    static PyObject *made[sizeof common / sizeof *common];

    for (size_t i = 0; i < sizeof common / sizeof *common; i++) {
        if (strcmp(name, common[i]) == 0)
            return Py_XNewRef(made[i] ? made[i]
                              : (made[i] = PyUnicode_InternFromString(name)));
    }
    return PyUnicode_FromString(name);
}

/* The OfflineMesh of a new library mesh (the handle is stolen). */
static PyObject *om_py_wrap_mesh(PyObject *handle, const om_mesh *mesh)
{
    size_t ndim = om_mesh_ndim(mesh);
    PyObject *names = PyTuple_New((Py_ssize_t)ndim);
    PyObject *shape = PyTuple_New((Py_ssize_t)ndim), *obj = NULL;

    for (size_t i = 0; names && shape && i < ndim; i++) {
        PyObject *name = om_py_name(om_mesh_name(mesh, i));
        PyObject *size = PyLong_FromLongLong(om_mesh_dim_size(mesh, i));
        PyTuple_SET_ITEM(names, (Py_ssize_t)i, name);
        PyTuple_SET_ITEM(shape, (Py_ssize_t)i, size);
        if (!name || !size)
            goto done;
    }
    if (handle && names && shape)
        obj = om_py_mesh_object(names, shape, handle);
done:
    Py_XDECREF(names);
    Py_XDECREF(shape);
    Py_XDECREF(handle);
    return obj;
}

/* The library mesh of an OfflineMesh; a sub-mesh (made by _sub_mesh from
 * tuples known to be valid) gets it on first use. */
static om_mesh *om_py_mesh_of(PyObject *obj, const char *what)
{
    PyObject *handle = NULL;
    void *mesh = NULL;

    if (om_py_mesh_class && PyObject_TypeCheck(obj, om_py_mesh_class))
        handle = Py_TYPE(om_py_slots[2])->tp_descr_get(om_py_slots[2], obj, NULL);
    else
        PyErr_Format(PyExc_TypeError, "%s must be an OfflineMesh, not %.100s",
                     what, Py_TYPE(obj)->tp_name);
    if (handle == Py_None) {
        PyObject *names = Py_TYPE(om_py_slots[0])->tp_descr_get(om_py_slots[0], obj, NULL);
        PyObject *shape = Py_TYPE(om_py_slots[1])->tp_descr_get(om_py_slots[1], obj, NULL);
        PyObject *made = names && shape ? PyObject_CallFunctionObjArgs(
            (PyObject *)om_py_mesh_class, names, shape, NULL) : NULL;
        Py_XDECREF(names);
        Py_XDECREF(shape);
        Py_SETREF(handle, made ? Py_TYPE(om_py_slots[2])->tp_descr_get(
            om_py_slots[2], made, NULL) : NULL);
        Py_XDECREF(made);
        if (handle && Py_TYPE(om_py_slots[2])->tp_descr_set(om_py_slots[2], obj, handle) < 0)
            Py_CLEAR(handle);
    }
    if (handle && !SWIG_IsOK(SWIG_ConvertPtr(handle, &mesh, SWIGTYPE_p_om_mesh, 0)))
        PyErr_Format(PyExc_TypeError, "%s is not initialised", what);
    Py_XDECREF(handle); /* the OfflineMesh keeps it */
    if (!mesh && PyErr_ExceptionMatches(PyExc_AttributeError))
        PyErr_Clear(), PyErr_Format(PyExc_TypeError, "%s is not initialised", what);
    return (om_mesh *)mesh;
}

/* A new om_dims with the seven fields of `spec`, read by name; types are
 * checked here, values by om_dims_set(). dp_size None: dp not given. */
static om_dims *om_py_dims(PyObject *spec)
{
    static PyObject *keys[OM_DIM_COUNT + OM_FLAG_COUNT];
    om_dims *dims = NULL;
    om_error err;
    int i, n = OM_DIM_COUNT + OM_FLAG_COUNT;

    om_error_clear(&err);
    if (om_dims_new(&dims, &err) != OM_OK)
        return om_py_raise(&err), NULL;
    for (i = 0; i < n; i++) {
        int flag = i >= OM_DIM_COUNT;
        const char *field = flag ? om_flag_field_name((om_flag)(i - OM_DIM_COUNT))
                                 : om_dim_field_name((om_dim)i);
        PyObject *key = keys[i] ? keys[i] : (keys[i] = PyUnicode_InternFromString(field));
        PyObject *value = key ? PyObject_GetAttr(spec, key) : NULL;
        int64_t size = 0;
        int rc = value ? 0 : -1;

        if (rc == 0 && flag && !PyBool_Check(value))
            rc = -1, PyErr_Format(PyExc_TypeError, "%s must be a bool, not "
                                  "%.100s", field, Py_TYPE(value)->tp_name);
        else if (rc == 0 && flag)
            rc = om_dims_set_flag(dims, (om_flag)(i - OM_DIM_COUNT),
                                  value == Py_True, &err) == OM_OK ? 0 : 1;
        else if (rc == 0 && !(i == OM_DIM_DP && value == Py_None))
            rc = om_py_int(value, field, -1, &size) < 0 ? -1
                 : om_dims_set(dims, (om_dim)i, size, &err) == OM_OK ? 0 : 1;
        Py_XDECREF(value);
        if (rc != 0) {
            if (rc > 0)
                om_py_raise(&err);
            else if (PyErr_ExceptionMatches(PyExc_AttributeError))
                PyErr_Clear(), PyErr_Format(PyExc_TypeError, "spec must be a "
                    "ParallelDimsSpec, not %.100s", Py_TYPE(spec)->tp_name);
            om_dims_free(dims);
            return NULL;
        }
    }
    return dims;
}
%}

/* ---- status and error ------------------------------------------------------ */
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
%typemap(in, numinputs=0) SWIGTYPE **OM_NEW ($*1_ltype temp = NULL) %{ $1 = &temp; %}
%typemap(argout) SWIGTYPE **OM_NEW %{
    if (*$1) {
        PyObject *handle = SWIG_NewPointerObj(*$1, $*1_descriptor, SWIG_POINTER_OWN);
        if ($*1_descriptor == SWIGTYPE_p_om_mesh)
            handle = om_py_wrap_mesh(handle, (const om_mesh *)*$1);
        if (om_py_push(&$result, handle) < 0)
            SWIG_fail;
    }
%}

%typemap(in, numinputs=0) char **OM_STRING (char *temp = NULL) %{ $1 = &temp; %}
%typemap(argout) char **OM_STRING %{
    if (*$1 && om_py_push(&$result, PyUnicode_FromString(*$1)) < 0)
        SWIG_fail;
%}
%typemap(freearg) char **OM_STRING %{ om_string_free(*$1); %}

%define OM_PY_OUTPUT(TYPE, CONVERT)
%typemap(in, numinputs=0) TYPE *OM_OUTPUT ($*1_ltype temp = 0) %{ $1 = &temp; %}
%typemap(argout) TYPE *OM_OUTPUT %{
    if (result == OM_OK && om_py_push(&$result, CONVERT(*$1)) < 0)
        SWIG_fail;
%}
%enddef
OM_PY_OUTPUT(int64_t, PyLong_FromLongLong)
OM_PY_OUTPUT(uint64_t, PyLong_FromUnsignedLongLong)
OM_PY_OUTPUT(size_t, PyLong_FromSize_t)
OM_PY_OUTPUT(bool, PyBool_FromLong)
/* enumerations through a pointer (om_launch_format *, om_world_size_source *) */
OM_PY_OUTPUT(enum SWIGTYPE, PyLong_FromLong)
%apply enum SWIGTYPE *OM_OUTPUT { enum SWIGTYPE * };

/* Caller buffers with a needed length: the first call is the library's size
 * query (NULL, 0); the wrapper jumps back (the label in "check") once with a
 * buffer of exactly the needed length. */
%define OM_PY_BUFFER(TYPE, RESULT)
%typemap(in, numinputs=0) (TYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED)
    (size_t needed = 0, PyObject *grown = NULL) %{ $1 = NULL; $2 = 0; $3 = &needed; %}
%typemap(check) (TYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) %{
om_py_retry$argnum:;
%}
%typemap(argout) (TYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) %{
    if ((result == OM_OK || result == OM_ERR_BUFFER_TOO_SMALL) && !grown$argnum &&
        needed$argnum > 0) {
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
    if (result == OM_OK && om_py_push(&$result, RESULT) < 0)
        SWIG_fail;
%}
%typemap(freearg) (TYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) %{
    Py_XDECREF(grown$argnum);
%}
%enddef
OM_PY_BUFFER(int32_t, grown$argnum ? Py_NewRef(grown$argnum) : PyByteArray_FromStringAndSize("", 0))
OM_PY_BUFFER(int64_t, grown$argnum ? Py_NewRef(grown$argnum) : PyByteArray_FromStringAndSize("", 0))

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
%typemap(freearg) (const char *OM_TEXT, size_t OM_TEXT_LEN) %{
    if (view$argnum.obj)
        PyBuffer_Release(&view$argnum);
%}

/* lists of names and of ints; an empty list of names is (NULL, 0) */
%typemap(in) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN)
    (PyObject *items = NULL, const char *small[8]) %{
    if (!($1 = om_py_array($input, "$1_name", 1, small, 8, &items, &$2)))
        SWIG_fail;
    if ($2 == 0)
        $1 = NULL;
%}
%typemap(in) (const int64_t *OM_INTS, size_t OM_INTS_LEN)
    (PyObject *items = NULL, int64_t small[8]) %{
    if (!($1 = om_py_array($input, "$1_name", 0, small, 8, &items, &$2)))
        SWIG_fail;
%}
%typemap(freearg) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN),
                  (const int64_t *OM_INTS, size_t OM_INTS_LEN),
                  (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN) %{
    if ($1) om_py_free_array($1, small$argnum, NULL);
    Py_XDECREF(items$argnum);
%}
%typemap(argout) (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN),
                 (const int64_t *OM_INTS, size_t OM_INTS_LEN),
                 (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN) ""

/* a list of OfflineMesh: the views of a world */
%typemap(in) (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN)
    (PyObject *items = NULL, const om_mesh *small[8]) %{
    if (!($1 = om_py_array($input, "$1_name", 2, small, 8, &items, &$2)))
        SWIG_fail;
%}
%typemap(in) const om_mesh * %{ if (!($1 = om_py_mesh_of($input, "$1_name"))) SWIG_fail; %}

%typemap(in) const om_dims * (void *handle = NULL, om_dims *temp = NULL) %{
    if (SWIG_IsOK(SWIG_ConvertPtr($input, &handle, $1_descriptor, 0)) && handle)
        $1 = (om_dims *)handle;
    else if (!($1 = temp = om_py_dims($input)))
        SWIG_fail;
%}
%typemap(freearg) const om_dims * %{ om_dims_free(temp$argnum); %}

/* ---- shims ------------------------------------------------------------------
 * OfflineMesh(mesh_dim_names=(), mesh_shape=()): the class's constructor
 * (the package's metaclass calls it; positional arguments skip the keyword
 * parser). Tuples of plain str and int are kept as given (the library
 * copied and checked them). */
%{
static PyObject *om_py_new_mesh(PyObject *mesh_dim_names, PyObject *mesh_shape)
{
    static PyObject *empty;
    const char *small_names[8];
    int64_t small_sizes[8];
    PyObject *names_items = NULL, *sizes_items = NULL, *handle, *obj = NULL;
    size_t nnames = 0, nsizes = 0, i;
    const char **names = NULL;
    int64_t *sizes = NULL;
    om_mesh *mesh = NULL;
    om_error err;

    if (!empty && !(empty = PyTuple_New(0)))
        return NULL;
    names = om_py_array(mesh_dim_names ? mesh_dim_names : empty,
                        "mesh_dim_names", 1, small_names, 8, &names_items, &nnames);
    sizes = names ? om_py_array(mesh_shape ? mesh_shape : empty, "mesh_shape",
                                0, small_sizes, 8, &sizes_items, &nsizes) : NULL;
    om_error_clear(&err);
    if (sizes && om_mesh_new_checked(names, nnames, sizes, nsizes, &mesh, &err) != OM_OK)
        om_py_raise(&err);
    if (mesh && (handle = SWIG_InternalNewPointerObj(mesh, SWIGTYPE_p_om_mesh, SWIG_POINTER_OWN))) {
        int plain = PyTuple_CheckExact(mesh_dim_names ? mesh_dim_names : empty) &&
                    PyTuple_CheckExact(mesh_shape ? mesh_shape : empty);
        for (i = 0; plain && i < nnames; i++)
            plain = PyUnicode_CheckExact(PyTuple_GET_ITEM(names_items, i)) &&
                    PyLong_CheckExact(PyTuple_GET_ITEM(sizes_items, i));
        if (plain) {
            obj = om_py_mesh_object(names_items, sizes_items, handle);
            Py_DECREF(handle);
        } else {
            obj = om_py_wrap_mesh(handle, mesh);
        }
    }
    if (names)
        om_py_free_array(names, small_names, names_items);
    else
        Py_XDECREF(names_items);
    if (sizes)
        om_py_free_array(sizes, small_sizes, sizes_items);
    else
        Py_XDECREF(sizes_items);
    return obj;
}

static PyObject *om_py_mesh_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"mesh_dim_names", "mesh_shape", NULL};
    PyObject *names = NULL, *shape = NULL;

    (void)self;
    if (!kwargs && PyTuple_GET_SIZE(args) == 2)
        return om_py_new_mesh(PyTuple_GET_ITEM(args, 0), PyTuple_GET_ITEM(args, 1));
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:OfflineMesh", keywords, &names, &shape))
        return NULL;
    return om_py_new_mesh(names, shape);
}
%}
%inline %{
/* The constructor as a function object (for the metaclass's __call__). */
static PyObject *_mesh_constructor(void)
{
    static PyMethodDef def = {"OfflineMesh", (PyCFunction)(void (*)(void))om_py_mesh_call,
                              METH_VARARGS | METH_KEYWORDS, NULL};
    return PyCFunction_New(&def, NULL);
}

/* Registers the package's OfflineMesh class (see om_py_mesh_object). */
static PyObject *_set_mesh_class(PyObject *cls)
{
    static const char *const names[3] = {"mesh_dim_names", "mesh_shape", "_handle"};
    for (int i = 0; i < 3; i++) {
        PyObject *slot = PyType_Check(cls) ? PyObject_GetAttrString(cls, names[i]) : NULL;
        if (!slot || !Py_TYPE(slot)->tp_descr_set || !Py_TYPE(slot)->tp_descr_get) {
            Py_XDECREF(slot);
            return PyErr_Format(PyExc_TypeError, "cls needs the slot %s", names[i]);
        }
        Py_XSETREF(om_py_slots[i], slot);
    }
    Py_XSETREF(om_py_mesh_class, (PyTypeObject *)Py_NewRef(cls));
    Py_RETURN_NONE;
}

/* An OfflineMesh of tuples known to make a valid mesh (sub-meshes); its
 * library mesh is made on first use. */
static PyObject *_sub_mesh(PyObject *names, PyObject *shape)
{
    return om_py_mesh_object(names, shape, Py_None);
}

/* A Dims handle with the fields of a ParallelDimsSpec (dp_size None: dp
 * not given), for the world-size step. */
static PyObject *_dims_of(PyObject *spec)
{
    om_dims *dims = om_py_dims(spec);
    return dims ? SWIG_InternalNewPointerObj(dims, SWIGTYPE_p_om_dims, SWIG_POINTER_OWN) : NULL;
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

/* The planner's two mesh builders, with the original's keyword names:
 * the package exports these functions themselves (no Python frame). */
%feature("kwargs") _build_offline_mesh;
%feature("kwargs") _build_runtime_mesh;
%feature("docstring") _build_offline_mesh "build_offline_mesh(spec) -> OfflineMesh

The offline mesh of a ParallelDimsSpec (or any object with its seven fields):
axes dp, cp, tp in that order, each present when its size is >= 1 (0 means
\"not declared\"); pp appended last when pp_size > 1; ep never an axis.
TypeError for wrong field types, OfflineMeshError for invalid values.";
%feature("docstring") _build_runtime_mesh "build_runtime_mesh(spec, order) -> OfflineMesh

The mesh of spec in a runtime axis order, as a live trainer lays out its
ranks: \"pp,dp,cp,tp\" lists axes slowest first (PyTorch, JAX, MPI),
\"tp-cp-ep-dp-pp\" fastest first (Megatron). Axes the offline mesh lacks
(pp at size 1, ep) are skipped.";

%inline %{
static om_status _build_offline_mesh(const om_dims *spec, om_mesh **out, om_error *err)
{
    return om_build_offline_mesh(spec, out, err);
}
static om_status _build_runtime_mesh(const om_dims *spec, const char *order, om_mesh **out,
                                     om_error *err)
{
    return om_build_runtime_mesh(spec, order, out, err);
}
%}
