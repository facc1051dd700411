/* liboffline_mesh: Python typemaps and the OfflineMesh class (SWIG -builtin).
 * SPDX-License-Identifier: MIT
 *
 * Generates the extension module offline_mesh._core (SWIG names the
 * extension after the module with a leading underscore; the core.py SWIG
 * also writes is not used: OfflineMesh is a real type). The package
 * offline_mesh (offline_mesh/__init__.py) re-exports the public names.
 *
 * Layout of this file:
 *   1. support code: error mapping, argument conversion, the om_py_mesh
 *      wrapper struct behind OfflineMesh;
 *   2. typemaps that turn the C API's conventions into Python ones (status +
 *      om_error * -> exception, out-parameters -> return values, ParallelDims
 *      objects -> om_dims, OfflineMesh -> const om_mesh *);
 *   3. the shared interface bindings/offline_mesh.i, with the functions that
 *      OfflineMesh methods replace %ignored;
 *   4. the OfflineMesh class: om_py_mesh %extended, static slot functions.
 *
 * OfflineMesh is a SWIG -builtin type (a real CPython type, no Python proxy
 * class): construction, size(), mesh[dim] and the attributes run without
 * any Python bytecode, which is what makes them faster than the frozen
 * dataclass they replace (bench/python/bench_python.py).
 */

%module(package="offline_mesh") core

%feature("kwargs");

/* ------------------------------------------------------------------------
 * 1. Support code
 * ------------------------------------------------------------------------ */

%{
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "offline_mesh.h"
#include "structmember.h" /* T_OBJECT_EX, READONLY */

/* The C object behind every OfflineMesh: the library's mesh plus the
 * Python values that the attributes return, built once (a mesh is
 * immutable), and the library's hash. */
typedef struct om_py_mesh {
    om_mesh *mesh;       /* owned; never NULL once constructed */
    PyObject *names;     /* tuple of str: mesh_dim_names */
    PyObject *shape;     /* tuple of int: mesh_shape */
    Py_hash_t hash;
} om_py_mesh;

/* Set in the module's init (section 4): the OfflineMesh type, the
 * exception raised by attribute assignment, interned spec field names. */
static PyTypeObject *om_py_mesh_type = NULL;
static PyObject *om_py_frozen_error = NULL;
static PyObject *om_py_dim_fields[OM_DIM_PP + 1];
static PyObject *om_py_flag_fields[OM_FLAG_LOSS_PARALLEL + 1];

/* Python exception class for a library status: I/O -> OSError, out of
 * memory -> MemoryError, everything else -> ValueError. */
static PyObject *om_py_exception_type(om_status status)
{
    switch (status) {
    case OM_ERR_IO:
        return PyExc_OSError;
    case OM_ERR_NO_MEMORY:
        return PyExc_MemoryError;
    default:
        return PyExc_ValueError;
    }
}

/* Raises the exception of a failed call, carrying the library's message. */
static void om_py_raise(const om_error *err, om_status status)
{
    const char *text = err->message[0] ? err->message
                                       : om_status_string(status);
    PyObject *message = PyUnicode_DecodeUTF8(text, (Py_ssize_t)strlen(text),
                                             "replace");
    if (message) {
        PyErr_SetObject(om_py_exception_type(status), message);
        Py_DECREF(message);
    }
}

/* Python's own name for the type of `obj`, for TypeError messages. */
static const char *om_py_type_name(PyObject *obj)
{
    return Py_TYPE(obj)->tp_name;
}

/* Converts an int-like Python object (int or anything with __index__, but
 * not bool) to int64_t. TypeError for other types, ValueError when the
 * value does not fit. `what` names the argument in messages. */
static int om_py_as_int64(PyObject *obj, const char *what, int64_t *out)
{
    PyObject *number;
    long long value;
    int overflow = 0;

    if (PyLong_CheckExact(obj)) {
        value = PyLong_AsLongLongAndOverflow(obj, &overflow);
        if (!overflow) {
            if (value == -1 && PyErr_Occurred())
                return -1;
            *out = (int64_t)value;
            return 0;
        }
    } else {
        if (PyBool_Check(obj) || !PyIndex_Check(obj)) {
            PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s",
                         what, om_py_type_name(obj));
            return -1;
        }
        number = PyNumber_Index(obj);
        if (!number)
            return -1;
        value = PyLong_AsLongLongAndOverflow(number, &overflow);
        Py_DECREF(number);
        if (!overflow) {
            if (value == -1 && PyErr_Occurred())
                return -1;
            *out = (int64_t)value;
            return 0;
        }
    }
    PyErr_Format(PyExc_ValueError, "%s = %R is out of range", what, obj);
    return -1;
}

/* UTF-8 text of a str that must not contain NUL (C strings cannot carry
 * it). Borrowed from `obj`. TypeError for non-str. */
static const char *om_py_as_cstring(PyObject *obj, const char *what)
{
    Py_ssize_t length;
    const char *text;

    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be a str, not %.100s", what,
                     om_py_type_name(obj));
        return NULL;
    }
    text = PyUnicode_AsUTF8AndSize(obj, &length);
    if (!text)
        return NULL;
    if ((size_t)length != strlen(text)) {
        PyErr_Format(PyExc_ValueError, "%s contains a NUL character", what);
        return NULL;
    }
    return text;
}

/* Text and length of a str (as UTF-8) or bytes-like object. For a
 * bytes-like object `*view` is filled and must be released by the caller
 * when `view->obj` is set. */
static int om_py_as_text(PyObject *obj, const char *what, Py_buffer *view,
                         const char **text, size_t *length)
{
    Py_ssize_t n;

    view->obj = NULL;
    if (PyUnicode_Check(obj)) {
        *text = PyUnicode_AsUTF8AndSize(obj, &n);
        if (!*text)
            return -1;
        *length = (size_t)n;
        return 0;
    }
    if (PyObject_CheckBuffer(obj)) {
        if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0)
            return -1;
        *text = (const char *)view->buf;
        *length = (size_t)view->len;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s must be str or bytes, not %.100s",
                 what, om_py_type_name(obj));
    return -1;
}

/* ---- om_py_mesh: construction and destruction ---- */

/* Wraps a constructed om_py_mesh in a new OfflineMesh object (steals
 * `pm`; freed on failure). */
static void om_py_mesh_destroy(om_py_mesh *pm);

static PyObject *om_py_mesh_to_object(om_py_mesh *pm)
{
    SwigPyObject *obj;

    if (!pm)
        return NULL;
    /* tp_alloc zero-fills, which covers the fields SWIG versions differ in
     * (the instance dict is "dict" in 4.1, "swigdict" in 4.5). */
    obj = (SwigPyObject *)om_py_mesh_type->tp_alloc(om_py_mesh_type, 0);
    if (!obj) {
        om_py_mesh_destroy(pm);
        return NULL;
    }
    obj->ptr = pm;
    obj->ty = SWIGTYPE_p_om_py_mesh;
    obj->own = SWIG_POINTER_OWN;
    obj->next = NULL;
    return (PyObject *)obj;
}

static void om_py_mesh_destroy(om_py_mesh *pm)
{
    if (!pm)
        return;
    om_mesh_free(pm->mesh);
    Py_XDECREF(pm->names);
    Py_XDECREF(pm->shape);
    PyMem_Free(pm);
}

/* The str objects of the axis names the library itself produces
 * (build_offline_mesh, expert layout), made once at init: a wrapper reuses
 * them instead of decoding a new str per axis. */
static const char *const om_py_common_names[] = {"dp", "cp", "tp", "pp",
                                                 "ep", "edp"};
#define OM_PY_COMMON_NAMES \
    (sizeof om_py_common_names / sizeof om_py_common_names[0])
static PyObject *om_py_common_name_objects[OM_PY_COMMON_NAMES];

/* A new reference to a str holding `name` (UTF-8). */
static PyObject *om_py_name_object(const char *name)
{
    size_t i;
    for (i = 0; i < OM_PY_COMMON_NAMES; i++) {
        if (om_py_common_name_objects[i] &&
            strcmp(name, om_py_common_names[i]) == 0) {
            Py_INCREF(om_py_common_name_objects[i]);
            return om_py_common_name_objects[i];
        }
    }
    return PyUnicode_DecodeUTF8(name, (Py_ssize_t)strlen(name), "strict");
}

/* The library's hash folded into a Py_hash_t (-1 is reserved). */
static Py_hash_t om_py_fold_hash(uint64_t h)
{
    Py_hash_t folded = sizeof(Py_hash_t) >= 8 ? (Py_hash_t)h
                                              : (Py_hash_t)(h ^ (h >> 32));
    return folded == -1 ? -2 : folded;
}

/* Builds the wrapper of a library mesh, taking ownership of `mesh`.
 * `names` / `shape` (borrowed, may be NULL) are tuples the caller knows to
 * equal the mesh's; missing ones are read from the library. */
static om_py_mesh *om_py_mesh_adopt(om_mesh *mesh, PyObject *names,
                                    PyObject *shape)
{
    om_py_mesh *pm = PyMem_Malloc(sizeof *pm);
    size_t ndim = om_mesh_ndim(mesh);
    size_t i;

    if (!pm) {
        om_mesh_free(mesh);
        PyErr_NoMemory();
        return NULL;
    }
    pm->mesh = mesh;
    pm->names = names;
    pm->shape = shape;
    Py_XINCREF(names);
    Py_XINCREF(shape);
    if (!pm->names) {
        pm->names = PyTuple_New((Py_ssize_t)ndim);
        if (!pm->names)
            goto fail;
        for (i = 0; i < ndim; i++) {
            PyObject *item = om_py_name_object(om_mesh_name(mesh, i));
            if (!item)
                goto fail;
            PyTuple_SET_ITEM(pm->names, (Py_ssize_t)i, item);
        }
    }
    if (!pm->shape) {
        pm->shape = PyTuple_New((Py_ssize_t)ndim);
        if (!pm->shape)
            goto fail;
        for (i = 0; i < ndim; i++) {
            PyObject *item = PyLong_FromLongLong(om_mesh_dim_size(mesh, i));
            if (!item)
                goto fail;
            PyTuple_SET_ITEM(pm->shape, (Py_ssize_t)i, item);
        }
    }
    pm->hash = om_py_fold_hash(om_mesh_hash(mesh));
    return pm;
fail:
    om_py_mesh_destroy(pm);
    return NULL;
}

/* A tuple holding the items of `obj`, a list or tuple (other iterables are
 * accepted too, but not str/bytes, whose items are characters). New
 * reference. */
static PyObject *om_py_as_tuple(PyObject *obj, const char *what,
                                const char *item_type)
{
    if (PyTuple_CheckExact(obj)) {
        Py_INCREF(obj);
        return obj;
    }
    if (obj == Py_None || PyUnicode_Check(obj) || PyBytes_Check(obj) ||
        PyByteArray_Check(obj) || !(PySequence_Check(obj) ||
                                    PyIter_Check(obj) ||
                                    PyAnySet_Check(obj) ||
                                    PyDict_Check(obj))) {
        PyErr_Format(PyExc_TypeError,
                     "%s must be a sequence of %s, not %.100s", what,
                     item_type, om_py_type_name(obj));
        return NULL;
    }
    return PySequence_Tuple(obj);
}

#define OM_PY_SMALL_NDIM 8

/* OfflineMesh(mesh_dim_names, mesh_shape): checks the Python types, then
 * lets the library validate the values (lengths, names, sizes, product). */
static om_py_mesh *om_py_mesh_construct(PyObject *names_arg,
                                        PyObject *shape_arg)
{
    PyObject *names = NULL, *shape = NULL;
    const char *small_names[OM_PY_SMALL_NDIM];
    int64_t small_sizes[OM_PY_SMALL_NDIM];
    const char **cnames = small_names;
    int64_t *sizes = small_sizes;
    Py_ssize_t nnames, nsizes, i;
    om_mesh *mesh = NULL;
    om_py_mesh *pm = NULL;
    om_error err;
    om_status status;

    if (names_arg) {
        names = om_py_as_tuple(names_arg, "mesh_dim_names", "str");
        if (!names)
            return NULL;
    } else {
        names = PyTuple_New(0);
    }
    if (shape_arg) {
        shape = om_py_as_tuple(shape_arg, "mesh_shape", "int");
        if (!shape)
            goto done;
    } else {
        shape = PyTuple_New(0);
    }
    if (!names || !shape)
        goto done;
    nnames = PyTuple_GET_SIZE(names);
    nsizes = PyTuple_GET_SIZE(shape);
    if (nnames > OM_PY_SMALL_NDIM) {
        cnames = PyMem_Malloc((size_t)nnames * sizeof *cnames);
        if (!cnames) {
            PyErr_NoMemory();
            goto done;
        }
    }
    if (nsizes > OM_PY_SMALL_NDIM) {
        sizes = PyMem_Malloc((size_t)nsizes * sizeof *sizes);
        if (!sizes) {
            PyErr_NoMemory();
            goto done;
        }
    }
    for (i = 0; i < nnames; i++) {
        PyObject *item = PyTuple_GET_ITEM(names, i);
        Py_ssize_t length;
        if (!PyUnicode_Check(item)) {
            PyErr_Format(PyExc_TypeError,
                         "mesh_dim_names[%zd] must be a str, not %.100s", i,
                         om_py_type_name(item));
            goto done;
        }
        if (!PyUnicode_CheckExact(item)) {
            /* store plain str, as a frozen dataclass would compare */
            PyObject *plain = PyUnicode_FromObject(item);
            PyObject *copy;
            if (!plain)
                goto done;
            copy = PyTuple_New(nnames);
            if (!copy) {
                Py_DECREF(plain);
                goto done;
            }
            for (Py_ssize_t j = 0; j < nnames; j++) {
                PyObject *o = j == i ? plain : PyTuple_GET_ITEM(names, j);
                if (j != i)
                    Py_INCREF(o);
                PyTuple_SET_ITEM(copy, j, o);
            }
            Py_SETREF(names, copy);
            item = plain;
        }
        cnames[i] = PyUnicode_AsUTF8AndSize(item, &length);
        if (!cnames[i])
            goto done;
        if ((size_t)length != strlen(cnames[i])) {
            PyErr_Format(PyExc_ValueError,
                         "mesh_dim_names[%zd] contains a NUL character", i);
            goto done;
        }
    }
    for (i = 0; i < nsizes; i++) {
        PyObject *item = PyTuple_GET_ITEM(shape, i);
        char what[40];
        if (PyLong_CheckExact(item)) {
            int overflow = 0;
            long long v = PyLong_AsLongLongAndOverflow(item, &overflow);
            if (!overflow) {
                sizes[i] = (int64_t)v;
                continue;
            }
        }
        snprintf(what, sizeof what, "mesh_shape[%zd]", i);
        if (om_py_as_int64(item, what, &sizes[i]) < 0)
            goto done;
        if (!PyLong_CheckExact(item)) {
            /* store plain int (e.g. from numpy.int64) */
            PyObject *copy = PySequence_List(shape);
            PyObject *plain = PyLong_FromLongLong(sizes[i]);
            if (!copy || !plain) {
                Py_XDECREF(copy);
                Py_XDECREF(plain);
                goto done;
            }
            PyList_SetItem(copy, i, plain);
            Py_SETREF(shape, PyList_AsTuple(copy));
            Py_DECREF(copy);
            if (!shape)
                goto done;
        }
    }
    status = om_mesh_new_checked(cnames, (size_t)nnames, sizes,
                                 (size_t)nsizes, &mesh, &err);
    if (status != OM_OK) {
        om_py_raise(&err, status);
        goto done;
    }
    pm = om_py_mesh_adopt(mesh, names, shape);
done:
    if (cnames != small_names)
        PyMem_Free((void *)cnames);
    if (sizes != small_sizes)
        PyMem_Free(sizes);
    Py_XDECREF(names);
    Py_XDECREF(shape);
    return pm;
}

/* The om_py_mesh of an OfflineMesh object, or NULL with TypeError. */
static om_py_mesh *om_py_mesh_of(PyObject *obj, const char *what)
{
    om_py_mesh *pm;

    if (!om_py_mesh_type || !PyObject_TypeCheck(obj, om_py_mesh_type)) {
        PyErr_Format(PyExc_TypeError, "%s must be an OfflineMesh, not %.100s",
                     what, om_py_type_name(obj));
        return NULL;
    }
    pm = (om_py_mesh *)((SwigPyObject *)obj)->ptr;
    if (!pm) {
        PyErr_Format(PyExc_TypeError, "%s is an uninitialised OfflineMesh",
                     what);
        return NULL;
    }
    return pm;
}

/* Axis mask of `dims`: a str of comma-separated axis names ("dp,cp") or a
 * tuple/list of axis names. The library parses and checks the names. */
static int om_py_axes(const om_py_mesh *pm, PyObject *dims, uint64_t *mask)
{
    PyObject *joined = NULL;
    const char *text;
    om_error err;
    om_status status;

    if (PyUnicode_Check(dims)) {
        text = om_py_as_cstring(dims, "dims");
    } else if (PyTuple_Check(dims) || PyList_Check(dims)) {
        PyObject *comma;
        Py_ssize_t i, n = PySequence_Fast_GET_SIZE(dims);
        for (i = 0; i < n; i++) {
            PyObject *item = PySequence_Fast_GET_ITEM(dims, i);
            if (!PyUnicode_Check(item)) {
                PyErr_Format(PyExc_TypeError,
                             "dims[%zd] must be a str, not %.100s", i,
                             om_py_type_name(item));
                return -1;
            }
        }
        comma = PyUnicode_FromString(",");
        if (!comma)
            return -1;
        joined = PyUnicode_Join(comma, dims);
        Py_DECREF(comma);
        if (!joined)
            return -1;
        text = om_py_as_cstring(joined, "dims");
    } else {
        PyErr_Format(PyExc_TypeError,
                     "dims must be a str or a tuple of str, not %.100s",
                     om_py_type_name(dims));
        return -1;
    }
    if (!text) {
        Py_XDECREF(joined);
        return -1;
    }
    status = om_mesh_axes(pm->mesh, text, mask, &err);
    Py_XDECREF(joined);
    if (status != OM_OK) {
        om_py_raise(&err, status);
        return -1;
    }
    return 0;
}

/* A tuple of `n` ints from a C array. */
static PyObject *om_py_tuple_of_int32(const int32_t *values, int64_t n)
{
    PyObject *tuple = PyTuple_New((Py_ssize_t)n);
    int64_t i;

    if (!tuple)
        return NULL;
    for (i = 0; i < n; i++) {
        PyObject *item = PyLong_FromLong(values[i]);
        if (!item) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, (Py_ssize_t)i, item);
    }
    return tuple;
}

/* ---- the bulk groups buffer ---- */

/* A read-only (rows, cols) table of C int32 that exports the buffer
 * protocol; groups_buffer() returns a memoryview of one. (A memoryview cast
 * of bytes cannot have a 0 in its shape; this exporter can.) */
typedef struct om_py_table {
    PyObject_HEAD
    int32_t *data;
    Py_ssize_t shape[2];
    Py_ssize_t strides[2];
} om_py_table;

static int om_py_table_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    om_py_table *table = (om_py_table *)self;

    if (flags & PyBUF_WRITABLE) {
        PyErr_SetString(PyExc_BufferError, "the groups buffer is read-only");
        view->obj = NULL;
        return -1;
    }
    view->buf = table->data;
    view->obj = self;
    Py_INCREF(self);
    view->len = table->shape[0] * table->shape[1] * (Py_ssize_t)sizeof(int32_t);
    view->readonly = 1;
    view->itemsize = (Py_ssize_t)sizeof(int32_t);
    view->format = (flags & PyBUF_FORMAT) ? (char *)"i" : NULL;
    if (flags & PyBUF_ND) {
        view->ndim = 2;
        view->shape = table->shape;
    } else {
        view->ndim = 1;
        view->shape = NULL;
    }
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? table->strides
                                                             : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    return 0;
}

static void om_py_table_dealloc(PyObject *self)
{
    PyMem_Free(((om_py_table *)self)->data);
    Py_TYPE(self)->tp_free(self);
}

static PyBufferProcs om_py_table_buffer = {om_py_table_getbuffer, NULL};

static PyTypeObject om_py_table_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "offline_mesh._core.GroupsBuffer",
    .tp_basicsize = sizeof(om_py_table),
    .tp_dealloc = om_py_table_dealloc,
    .tp_as_buffer = &om_py_table_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Read-only (ngroups, group_size) int32 table of process groups.",
};

/* A new, unfilled table of rows x cols. */
static om_py_table *om_py_table_new(int64_t rows, int64_t cols)
{
    om_py_table *table;

    if (rows < 0 || cols < 0 ||
        (cols > 0 && rows > (int64_t)(PY_SSIZE_T_MAX / 4) / cols)) {
        PyErr_NoMemory();
        return NULL;
    }
    table = PyObject_New(om_py_table, &om_py_table_type);
    if (!table)
        return NULL;
    table->data = PyMem_Malloc((size_t)(rows * cols) * sizeof(int32_t));
    if (!table->data) {
        Py_TYPE(table)->tp_free((PyObject *)table);
        PyErr_NoMemory();
        return NULL;
    }
    table->shape[0] = (Py_ssize_t)rows;
    table->shape[1] = (Py_ssize_t)cols;
    table->strides[0] = (Py_ssize_t)(cols * (int64_t)sizeof(int32_t));
    table->strides[1] = (Py_ssize_t)sizeof(int32_t);
    return table;
}

/* ---- om_dims from a ParallelDimsSpec-like object ---- */

/* ParallelDimsSpec, when its fields are slots (a slots dataclass, Python
 * >= 3.10): the offsets of the seven slots, so that build_offline_mesh()
 * reads them directly instead of through seven generic attribute lookups
 * (which cost more than the library's whole mesh construction). Set by
 * _register_spec_type() at import; other objects take the generic path. */
static PyTypeObject *om_py_spec_type = NULL;
static Py_ssize_t om_py_dim_offsets[OM_DIM_PP + 1];
static Py_ssize_t om_py_flag_offsets[OM_FLAG_LOSS_PARALLEL + 1];

/* The offset of slot `name` of `type`, or -1 when it is not a plain
 * object slot. */
static Py_ssize_t om_py_slot_offset(PyTypeObject *type, PyObject *name)
{
    PyObject *descr = PyDict_GetItemWithError(type->tp_dict, name);
    PyMemberDef *member;

    if (!descr || !Py_IS_TYPE(descr, &PyMemberDescr_Type))
        return -1;
    member = ((PyMemberDescrObject *)descr)->d_member;
    if (member->type != T_OBJECT_EX || (member->flags & READONLY))
        return -1;
    return member->offset;
}

/* New reference to field `name` of `spec`: read from its slot when `spec`
 * is exactly the registered ParallelDimsSpec, else by attribute lookup. */
static PyObject *om_py_spec_field(PyObject *spec, PyObject *name,
                                  Py_ssize_t offset)
{
    if (offset >= 0 && Py_TYPE(spec) == om_py_spec_type) {
        PyObject *value = *(PyObject **)((char *)spec + offset);
        if (value) {
            Py_INCREF(value);
            return value;
        }
    }
    return PyObject_GetAttr(spec, name);
}

/* Fills a new om_dims from the seven attributes of `spec` (any object that
 * has them: ParallelDimsSpec, or the planner's own dataclass). Types are
 * checked here; values by the library (om_dims_set). */
static om_dims *om_py_dims_from_spec(PyObject *spec)
{
    om_dims *dims = NULL;
    om_error err;
    om_status status;
    int i;

    if (spec == Py_None) {
        PyErr_SetString(PyExc_TypeError,
                        "spec must be a ParallelDimsSpec, not None");
        return NULL;
    }
    status = om_dims_new(&dims, &err);
    if (status != OM_OK) {
        om_py_raise(&err, status);
        return NULL;
    }
    for (i = OM_DIM_DP; i <= OM_DIM_PP; i++) {
        PyObject *value = om_py_spec_field(spec, om_py_dim_fields[i],
                                           om_py_dim_offsets[i]);
        int64_t size;
        int rc;
        if (!value)
            goto missing;
        rc = om_py_as_int64(value, om_dim_field_name((om_dim)i), &size);
        Py_DECREF(value);
        if (rc < 0)
            goto fail;
        status = om_dims_set(dims, (om_dim)i, size, &err);
        if (status != OM_OK) {
            om_py_raise(&err, status);
            goto fail;
        }
    }
    for (i = OM_FLAG_SEQUENCE_PARALLEL; i <= OM_FLAG_LOSS_PARALLEL; i++) {
        PyObject *value = om_py_spec_field(spec, om_py_flag_fields[i],
                                           om_py_flag_offsets[i]);
        if (!value)
            goto missing;
        if (!PyBool_Check(value)) {
            PyErr_Format(PyExc_TypeError, "%s must be a bool, not %.100s",
                         om_flag_field_name((om_flag)i),
                         om_py_type_name(value));
            Py_DECREF(value);
            goto fail;
        }
        status = om_dims_set_flag(dims, (om_flag)i, value == Py_True, &err);
        Py_DECREF(value);
        if (status != OM_OK) {
            om_py_raise(&err, status);
            goto fail;
        }
    }
    return dims;
missing:
    if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "spec must be a ParallelDimsSpec, not %.100s",
                     om_py_type_name(spec));
    }
fail:
    om_dims_free(dims);
    return NULL;
}

/* The seven fields of `dims` as a dict {field name: value}. */
static PyObject *om_py_dims_to_dict(const om_dims *dims)
{
    PyObject *dict = PyDict_New();
    int i;

    if (!dict)
        return NULL;
    for (i = OM_DIM_DP; i <= OM_DIM_PP; i++) {
        PyObject *value = PyLong_FromLongLong(om_dims_get(dims, (om_dim)i));
        if (!value || PyDict_SetItem(dict, om_py_dim_fields[i], value) < 0) {
            Py_XDECREF(value);
            Py_DECREF(dict);
            return NULL;
        }
        Py_DECREF(value);
    }
    for (i = OM_FLAG_SEQUENCE_PARALLEL; i <= OM_FLAG_LOSS_PARALLEL; i++) {
        PyObject *value = om_dims_get_flag(dims, (om_flag)i) ? Py_True
                                                             : Py_False;
        if (PyDict_SetItem(dict, om_py_flag_fields[i], value) < 0) {
            Py_DECREF(dict);
            return NULL;
        }
    }
    return dict;
}
%}

/* ------------------------------------------------------------------------
 * 2. Typemaps for the C API's conventions
 * ------------------------------------------------------------------------ */

/* A status is not returned: a failure raises (see om_error *err). The
 * wrapped functions have at most one out-parameter, whose argout replaces
 * this None with the value (rather than SWIG's output appending, whose
 * list/tuple behaviour differs between SWIG versions). */
%typemap(out) om_status "$result = SWIG_Py_Void();";

/* The error report: hidden from Python, filled by the call, and turned
 * into OSError / MemoryError / ValueError with the library's message. The
 * error argument is last, so its argout runs after every other one; those
 * check `result` (the call's status) and do nothing on failure. */
%typemap(in, numinputs=0) om_error *err (om_error temp) {
    om_error_clear(&temp);
    $1 = &temp;
}
%typemap(argout) om_error *err {
    if (result != OM_OK) {
        om_py_raise($1, result);
        Py_XDECREF($result);
        $result = NULL;
        SWIG_fail;
    }
}

/* Sizes and other 64-bit integers: int or __index__, never bool or float;
 * TypeError for a wrong type, ValueError when the value cannot fit. */
%typemap(in) int64_t {
    if (om_py_as_int64($input, "$1_name", &$1) < 0)
        SWIG_fail;
}

/* Enum values (status codes, dims, flags): ints, checked like int64_t,
 * ValueError beyond int; the library answers unknown values itself. */
%typemap(in) om_status status, om_dim dim, om_flag flag {
    int64_t value$argnum;
    if (om_py_as_int64($input, "$1_name", &value$argnum) < 0)
        SWIG_fail;
    if (value$argnum < INT_MIN || value$argnum > INT_MAX) {
        PyErr_Format(PyExc_ValueError, "$1_name = %R is out of range", $input);
        SWIG_fail;
    }
    $1 = ($1_ltype)value$argnum;
}

/* An OfflineMesh argument. */
%typemap(in) const om_mesh * {
    om_py_mesh *pm$argnum = om_py_mesh_of($input, "$1_name");
    if (!pm$argnum)
        SWIG_fail;
    $1 = pm$argnum->mesh;
}

/* A ParallelDimsSpec (or any object with the seven fields) argument,
 * converted to a temporary om_dims through the library's setters. */
%typemap(in) const om_dims * {
    $1 = om_py_dims_from_spec($input);
    if (!$1)
        SWIG_fail;
}
%typemap(freearg) const om_dims * {
    om_dims_free((om_dims *)$1);
}

/* Text given with its length: str (UTF-8) or bytes. */
%typemap(in) (const char *text, size_t length) (Py_buffer view) {
    const char *text_ptr;
    if (om_py_as_text($input, "text", &view, &text_ptr, &$2) < 0)
        SWIG_fail;
    $1 = (char *)text_ptr;
}
%typemap(freearg) (const char *text, size_t length) {
    if (view$argnum.obj)
        PyBuffer_Release(&view$argnum);
}

/* A file system path: str, bytes or os.PathLike. */
%typemap(in) const char *path (PyObject *encoded = NULL) {
    if (!PyUnicode_FSConverter($input, &encoded))
        SWIG_fail;
    $1 = PyBytes_AS_STRING(encoded);
}
%typemap(freearg) const char *path {
    Py_XDECREF(encoded$argnum);
}

/* Axis names in om_mesh_axes(): a str without NUL. */
%typemap(in) const char *names {
    $1 = (char *)om_py_as_cstring($input, "names");
    if (!$1)
        SWIG_fail;
}

/* Out-parameters become return values. */
%typemap(in, numinputs=0) om_mesh **out (om_mesh *temp = NULL) {
    $1 = &temp;
}
%typemap(argout) om_mesh **out {
    if (result == OM_OK) {
        PyObject *obj = om_py_mesh_to_object(om_py_mesh_adopt(*$1, NULL, NULL));
        *$1 = NULL;
        if (!obj)
            SWIG_fail;
        Py_XDECREF($result); /* the status' None */
        $result = obj;
    }
}
%typemap(freearg) om_mesh **out {
    om_mesh_free(*$1);
}

%typemap(in, numinputs=0) om_dims **out (om_dims *temp = NULL) {
    $1 = &temp;
}
%typemap(argout) om_dims **out {
    if (result == OM_OK) {
        PyObject *dict = om_py_dims_to_dict(*$1);
        if (!dict)
            SWIG_fail;
        Py_XDECREF($result); /* the status' None */
        $result = dict;
    }
}
%typemap(freearg) om_dims **out {
    om_dims_free(*$1);
}

%typemap(in, numinputs=0) char **out (char *temp = NULL) {
    $1 = &temp;
}
%typemap(argout) char **out {
    if (result == OM_OK) {
        PyObject *str = PyUnicode_DecodeUTF8(*$1, (Py_ssize_t)strlen(*$1),
                                             "strict");
        if (!str)
            SWIG_fail;
        Py_XDECREF($result); /* the status' None */
        $result = str;
    }
}
%typemap(freearg) char **out {
    om_string_free(*$1);
}

%typemap(in, numinputs=0) uint64_t *mask (uint64_t temp = 0) {
    $1 = &temp;
}
%typemap(argout) uint64_t *mask {
    if (result == OM_OK) {
        PyObject *obj = PyLong_FromUnsignedLongLong(*$1);
        if (!obj)
            SWIG_fail;
        Py_XDECREF($result); /* the status' None */
        $result = obj;
    }
}

%typemap(in, numinputs=0) (int64_t *world_size, bool *found)
    (int64_t size = 0, bool found = false) {
    $1 = &size;
    $2 = &found;
}
%typemap(argout) (int64_t *world_size, bool *found) {
    if (result == OM_OK) {
        PyObject *pair = Py_BuildValue("(LO)", (long long)*$1,
                                       *$2 ? Py_True : Py_False);
        if (!pair)
            SWIG_fail;
        Py_XDECREF($result); /* the status' None */
        $result = pair;
    }
}

/* ------------------------------------------------------------------------
 * 3. The C API
 * ------------------------------------------------------------------------ */

/* Replaced by OfflineMesh's constructor, attributes and methods, which call
 * them from C: */
%ignore om_mesh_new;
%ignore om_mesh_new_checked;
%ignore om_mesh_free;
%ignore om_mesh_ndim;
%ignore om_mesh_name;
%ignore om_mesh_dim_size;
%ignore om_mesh_size;
%ignore om_mesh_size_of;
%ignore om_mesh_index_of;
%ignore om_mesh_get;
%ignore om_mesh_equal;
%ignore om_mesh_hash;
%ignore om_mesh_to_json;
%ignore om_mesh_from_json;
%ignore om_mesh_coordinate;
%ignore om_mesh_rank;
%ignore om_mesh_group_shape;
%ignore om_mesh_groups;
%ignore om_mesh_group_index;
%ignore om_mesh_group_of;
%ignore om_mesh_locality;
/* Memory and handle management stays in C: */
%ignore om_string_free;
%ignore om_error_clear;
%ignore om_error;
%ignore om_dims_new;
%ignore om_dims_copy;
%ignore om_dims_free;
%ignore om_dims_get;
%ignore om_dims_set;
%ignore om_dims_get_flag;
%ignore om_dims_set_flag;
%ignore om_dims_equal;
/* Not part of the Python API (see docs/python.md): */
%ignore om_mesh_from_spec;
%ignore om_mesh_to_spec;
%ignore om_order_normalize;
%ignore om_build_runtime_mesh;
%ignore om_dims_to_json;
/* Wrapped under the Python name instead (section 4). */
%ignore om_build_offline_mesh;

%include "offline_mesh.i"

/* ------------------------------------------------------------------------
 * 4. OfflineMesh
 * ------------------------------------------------------------------------ */

%{
/* tp_repr: OfflineMesh(mesh_dim_names=('dp', 'tp'), mesh_shape=(2, 4)) */
static PyObject *om_py_mesh_repr(PyObject *self)
{
    om_py_mesh *pm = om_py_mesh_of(self, "self");
    if (!pm)
        return NULL;
    return PyUnicode_FromFormat("OfflineMesh(mesh_dim_names=%R, mesh_shape=%R)",
                                pm->names, pm->shape);
}

/* tp_hash: the library's hash of (names, shape). */
static Py_hash_t om_py_mesh_hash(PyObject *self)
{
    om_py_mesh *pm = om_py_mesh_of(self, "self");
    return pm ? pm->hash : -1;
}

/* tp_richcompare: == and != by (names, shape); other operators and other
 * types are not implemented. */
static PyObject *om_py_mesh_richcompare(PyObject *a, PyObject *b, int op)
{
    om_py_mesh *pa, *pb;
    bool equal;

    if ((op != Py_EQ && op != Py_NE) ||
        !PyObject_TypeCheck(a, om_py_mesh_type) ||
        !PyObject_TypeCheck(b, om_py_mesh_type))
        Py_RETURN_NOTIMPLEMENTED;
    pa = (om_py_mesh *)((SwigPyObject *)a)->ptr;
    pb = (om_py_mesh *)((SwigPyObject *)b)->ptr;
    if (!pa || !pb)
        equal = pa == pb;
    else
        equal = om_mesh_equal(pa->mesh, pb->mesh);
    if (equal == (op == Py_EQ))
        Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

/* mp_subscript: mesh["tp"] is the sub-mesh (tp,)/(size,), the empty mesh
 * for an absent axis. */
static PyObject *om_py_mesh_subscript(PyObject *self, PyObject *key)
{
    om_py_mesh *pm = om_py_mesh_of(self, "self");
    const char *name;
    om_mesh *sub = NULL;
    om_error err;
    om_status status;
    int index;

    if (!pm)
        return NULL;
    if (!PyUnicode_Check(key)) {
        PyErr_Format(PyExc_TypeError,
                     "OfflineMesh indices must be str axis names, not %.100s",
                     om_py_type_name(key));
        return NULL;
    }
    name = PyUnicode_AsUTF8(key);
    if (!name)
        return NULL;
    status = om_mesh_get(pm->mesh, name, &sub, &err);
    if (status != OM_OK) {
        om_py_raise(&err, status);
        return NULL;
    }
    index = om_mesh_index_of(pm->mesh, name);
    if (index >= 0 && om_mesh_ndim(sub) == 1) {
        /* reuse the parent's str and int objects */
        PyObject *names = PyTuple_Pack(1, PyTuple_GET_ITEM(pm->names, index));
        PyObject *shape = PyTuple_Pack(1, PyTuple_GET_ITEM(pm->shape, index));
        om_py_mesh *result = NULL;
        if (names && shape)
            result = om_py_mesh_adopt(sub, names, shape);
        else
            om_mesh_free(sub);
        Py_XDECREF(names);
        Py_XDECREF(shape);
        return om_py_mesh_to_object(result);
    }
    return om_py_mesh_to_object(om_py_mesh_adopt(sub, NULL, NULL));
}

/* tp_new: SWIG's generic allocation leaves the object's type record NULL
 * until __init__ runs, and SWIG's pointer conversion dereferences it. Set
 * it at allocation, so a bare OfflineMesh.__new__(OfflineMesh) is refused
 * by the methods (TypeError) instead of crashing them. */
static PyObject *om_py_mesh_tp_new(PyTypeObject *type, PyObject *args,
                                   PyObject *kwargs)
{
    PyObject *obj = PyType_GenericNew(type, args, kwargs);
    if (obj)
        ((SwigPyObject *)obj)->ty = SWIGTYPE_p_om_py_mesh;
    return obj;
}

/* The hottest members are written by hand and installed in the type at
 * init: size() as a METH_FASTCALL method (SWIG 4.1 parses keyword
 * arguments with PyArg_ParseTupleAndKeywords, which alone costs more than
 * the whole pure-Python size() it replaces) and the three attributes as
 * plain getters (SWIG's go through a closure and a pointer conversion). */
static PyObject *om_py_mesh_size_impl(om_py_mesh *pm, PyObject *dim)
{
    int64_t index;
    Py_ssize_t n;

    if (!dim || dim == Py_None)
        return PyLong_FromLongLong(om_mesh_size(pm->mesh));
    if (PyUnicode_Check(dim)) {
        Py_ssize_t length;
        const char *name = PyUnicode_AsUTF8AndSize(dim, &length);
        if (!name)
            return NULL;
        if ((size_t)length != strlen(name))
            return PyLong_FromLong(1); /* no axis name contains NUL */
        return PyLong_FromLongLong(om_mesh_size_of(pm->mesh, name));
    }
    if (om_py_as_int64(dim, "dim", &index) < 0) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "dim must be None, a str or an int, not %.100s",
                         om_py_type_name(dim));
        } else if (PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_IndexError, "axis index %R out of range", dim);
        }
        return NULL;
    }
    n = PyTuple_GET_SIZE(pm->shape);
    if (index < 0)
        index += n;
    if (index < 0 || index >= n) {
        PyErr_Format(PyExc_IndexError,
                     "axis index %R out of range for a mesh with %zd axes",
                     dim, n);
        return NULL;
    }
    return PyLong_FromLongLong(om_mesh_dim_size(pm->mesh, (size_t)index));
}

static PyObject *om_py_mesh_size(PyObject *self, PyObject *const *args,
                                 Py_ssize_t nargs, PyObject *kwnames)
{
    om_py_mesh *pm = om_py_mesh_of(self, "self");
    PyObject *dim = nargs > 0 ? args[0] : NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;

    if (!pm)
        return NULL;
    if (nargs + nkw > 1) {
        PyErr_Format(PyExc_TypeError,
                     "size() takes at most 1 argument (%zd given)", nargs + nkw);
        return NULL;
    }
    if (nkw == 1) {
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0),
                                             "dim") != 0) {
            PyErr_Format(PyExc_TypeError,
                         "size() got an unexpected keyword argument %R",
                         PyTuple_GET_ITEM(kwnames, 0));
            return NULL;
        }
        dim = args[0];
    }
    return om_py_mesh_size_impl(pm, dim);
}

static PyMethodDef om_py_mesh_fast_methods[] = {
    {"size", (PyCFunction)(void (*)(void))om_py_mesh_size,
     METH_FASTCALL | METH_KEYWORDS,
     "size($self, /, dim=None)\n"
     "--\n"
     "\n"
     "Number of ranks: the product of all sizes when dim is None; the size of\n"
     "axis dim when dim is a str (1 when the mesh has no such axis); the size of\n"
     "axis number dim when dim is an int (negative counts from the end; IndexError\n"
     "when out of range), as torch's DeviceMesh.size() does."},
    {NULL, NULL, 0, NULL}
};

/* The attributes, as plain getters (no setter: read-only). */
static PyObject *om_py_mesh_get_names(PyObject *self, void *closure)
{
    om_py_mesh *pm = om_py_mesh_of(self, "self");
    (void)closure;
    if (!pm)
        return NULL;
    Py_INCREF(pm->names);
    return pm->names;
}

static PyObject *om_py_mesh_get_shape(PyObject *self, void *closure)
{
    om_py_mesh *pm = om_py_mesh_of(self, "self");
    (void)closure;
    if (!pm)
        return NULL;
    Py_INCREF(pm->shape);
    return pm->shape;
}

static PyObject *om_py_mesh_get_ndim(PyObject *self, void *closure)
{
    om_py_mesh *pm = om_py_mesh_of(self, "self");
    (void)closure;
    if (!pm)
        return NULL;
    return PyLong_FromSsize_t(PyTuple_GET_SIZE(pm->shape));
}

static PyGetSetDef om_py_mesh_getset[] = {
    {"mesh_dim_names", om_py_mesh_get_names, NULL,
     "The axis names, in mesh order (tuple of str).", NULL},
    {"mesh_shape", om_py_mesh_get_shape, NULL,
     "The axis sizes, in mesh order (tuple of int).", NULL},
    {"ndim", om_py_mesh_get_ndim, NULL, "The number of axes (int).", NULL},
    {NULL, NULL, NULL, NULL, NULL}
};

/* tp_dealloc: frees the wrapper directly (SWIG's builtin dealloc goes
 * through a destructor wrapper with argument conversion). Honours SWIG's
 * ownership flag like SWIG's own. */
static void om_py_mesh_dealloc(PyObject *self)
{
    SwigPyObject *obj = (SwigPyObject *)self;
    Py_ssize_t dict_offset = om_py_mesh_type->tp_dictoffset;

    if (obj->own)
        om_py_mesh_destroy((om_py_mesh *)obj->ptr);
    Py_XDECREF(obj->next);
    if (dict_offset > 0) /* SWIG's lazily created instance __dict__ */
        Py_CLEAR(*(PyObject **)((char *)self + dict_offset));
    Py_TYPE(self)->tp_free(self);
}

/* tp_setattro: immutable, as a frozen dataclass. */
static int om_py_mesh_setattro(PyObject *self, PyObject *name, PyObject *value)
{
    (void)self;
    PyErr_Format(om_py_frozen_error ? om_py_frozen_error
                                    : PyExc_AttributeError,
                 value ? "cannot assign to field %R" : "cannot delete field %R",
                 name);
    return -1;
}
%}

%feature("python:tp_repr") om_py_mesh "om_py_mesh_repr";
%feature("python:tp_str") om_py_mesh "om_py_mesh_repr";
%feature("python:tp_hash") om_py_mesh "om_py_mesh_hash";
%feature("python:tp_richcompare") om_py_mesh "om_py_mesh_richcompare";
%feature("python:mp_subscript") om_py_mesh "om_py_mesh_subscript";
%feature("python:tp_setattro") om_py_mesh "om_py_mesh_setattro";
%feature("python:tp_dealloc") om_py_mesh "om_py_mesh_dealloc";

%exception {
    $action
    if (PyErr_Occurred())
        SWIG_fail;
}

%rename(OfflineMesh) om_py_mesh;

%feature("docstring") om_py_mesh
"OfflineMesh(mesh_dim_names=(), mesh_shape=())
--

An immutable, named device mesh computed offline (no process group).

mesh_dim_names is a sequence of distinct, non-empty str axis names and
mesh_shape the matching sizes (int >= 1, product <= 2**31-1). Wrong types
raise TypeError; invalid values raise ValueError with the library's message.
Ranks are laid out row-major: the last axis varies fastest.

Equality and hash are by (mesh_dim_names, mesh_shape); instances are
immutable (assignment raises dataclasses.FrozenInstanceError, an
AttributeError), picklable, and usable with dataclasses.fields(),
asdict() and replace().";

/* OfflineMesh.__new__(OfflineMesh) makes an object without a C mesh:
 * every method refuses it instead of dereferencing NULL. */
%typemap(check) om_py_mesh *, struct om_py_mesh * {
    if (!$1) {
        PyErr_SetString(PyExc_TypeError, "uninitialised OfflineMesh");
        SWIG_fail;
    }
}

typedef struct om_py_mesh {} om_py_mesh;

%newobject om_py_mesh::from_json;

%extend om_py_mesh {
    om_py_mesh(PyObject *mesh_dim_names = NULL, PyObject *mesh_shape = NULL) {
        return om_py_mesh_construct(mesh_dim_names, mesh_shape);
    }

    ~om_py_mesh() {
        om_py_mesh_destroy($self);
    }


    %feature("docstring") to_json
"to_json($self, /)
--

Canonical JSON text: {\"mesh_dim_names\":[\"dp\",\"tp\"],\"mesh_shape\":[2,4]}
(keys sorted, no spaces).";
    PyObject *to_json() {
        char *text = NULL;
        om_error err;
        om_status status = om_mesh_to_json($self->mesh, &text, &err);
        PyObject *result;
        if (status != OM_OK) {
            om_py_raise(&err, status);
            return NULL;
        }
        result = PyUnicode_DecodeUTF8(text, (Py_ssize_t)strlen(text), "strict");
        om_string_free(text);
        return result;
    }

    %feature("docstring") from_json
"from_json(text)
--

Parses mesh JSON (str or bytes) as written by to_json(). Anything that is not
exactly one valid mesh object raises ValueError with the library's message.";
    static om_py_mesh *from_json(PyObject *text) {
        Py_buffer view;
        const char *data;
        size_t length;
        om_mesh *mesh = NULL;
        om_error err;
        om_status status;
        if (om_py_as_text(text, "text", &view, &data, &length) < 0)
            return NULL;
        status = om_mesh_from_json(data, length, &mesh, &err);
        if (view.obj)
            PyBuffer_Release(&view);
        if (status != OM_OK) {
            om_py_raise(&err, status);
            return NULL;
        }
        return om_py_mesh_adopt(mesh, NULL, NULL);
    }

    %feature("docstring") coordinate
"coordinate($self, /, rank)
--

Coordinates of rank, a tuple with one int per axis in mesh order.
ValueError when rank is outside 0 .. size()-1.";
    PyObject *coordinate(PyObject *rank) {
        int64_t r, small[OM_PY_SMALL_NDIM], *coord = small;
        size_t ndim = om_mesh_ndim($self->mesh), i;
        om_error err;
        om_status status;
        PyObject *tuple = NULL;
        if (om_py_as_int64(rank, "rank", &r) < 0)
            return NULL;
        if (ndim > OM_PY_SMALL_NDIM) {
            coord = PyMem_Malloc(ndim * sizeof *coord);
            if (!coord)
                return PyErr_NoMemory();
        }
        status = om_mesh_coordinate($self->mesh, r, coord, ndim, &err);
        if (status != OM_OK) {
            om_py_raise(&err, status);
            goto done;
        }
        tuple = PyTuple_New((Py_ssize_t)ndim);
        for (i = 0; tuple && i < ndim; i++) {
            PyObject *item = PyLong_FromLongLong(coord[i]);
            if (!item) {
                Py_CLEAR(tuple);
                break;
            }
            PyTuple_SET_ITEM(tuple, (Py_ssize_t)i, item);
        }
    done:
        if (coord != small)
            PyMem_Free(coord);
        return tuple;
    }

    %feature("docstring") rank
"rank($self, /, coord)
--

Rank at coord, a sequence of one int per axis in mesh order (the inverse of
coordinate()). ValueError for a wrong length or a coordinate outside its
axis.";
    PyObject *rank(PyObject *coord) {
        PyObject *items = om_py_as_tuple(coord, "coord", "int");
        int64_t small[OM_PY_SMALL_NDIM], *values = small, r = 0;
        Py_ssize_t n, i;
        om_error err;
        om_status status;
        PyObject *result = NULL;
        if (!items)
            return NULL;
        n = PyTuple_GET_SIZE(items);
        if (n > OM_PY_SMALL_NDIM) {
            values = PyMem_Malloc((size_t)n * sizeof *values);
            if (!values) {
                Py_DECREF(items);
                return PyErr_NoMemory();
            }
        }
        for (i = 0; i < n; i++) {
            char what[32];
            snprintf(what, sizeof what, "coord[%zd]", i);
            if (om_py_as_int64(PyTuple_GET_ITEM(items, i), what, &values[i]) < 0)
                goto done;
        }
        status = om_mesh_rank($self->mesh, values, (size_t)n, &r, &err);
        if (status != OM_OK) {
            om_py_raise(&err, status);
            goto done;
        }
        result = PyLong_FromLongLong(r);
    done:
        if (values != small)
            PyMem_Free(values);
        Py_DECREF(items);
        return result;
    }

    %feature("docstring") groups
"groups($self, /, dims)
--

The process groups over the axes dims (a str such as \"tp\" or \"dp,cp\", or a
tuple of str): a list of tuples of ranks, one per group. Ranks in a group
agree on every axis outside dims; groups are listed row-major over the other
axes, members row-major over dims (both in mesh order). For big meshes use
groups_buffer(), which builds no Python int per rank.";
    PyObject *groups(PyObject *dims) {
        uint64_t mask;
        int64_t count, size, g;
        int32_t *ranks;
        PyObject *list;
        om_error err;
        om_status status;
        if (om_py_axes($self, dims, &mask) < 0)
            return NULL;
        status = om_mesh_group_shape($self->mesh, mask, &count, &size, &err);
        if (status != OM_OK) {
            om_py_raise(&err, status);
            return NULL;
        }
        ranks = PyMem_Malloc((size_t)(count * size) * sizeof *ranks);
        if (!ranks)
            return PyErr_NoMemory();
        status = om_mesh_groups($self->mesh, mask, 0, count, ranks,
                                (size_t)(count * size), &err);
        if (status != OM_OK) {
            PyMem_Free(ranks);
            om_py_raise(&err, status);
            return NULL;
        }
        list = PyList_New((Py_ssize_t)count);
        for (g = 0; list && g < count; g++) {
            PyObject *group = om_py_tuple_of_int32(ranks + g * size, size);
            if (!group) {
                Py_CLEAR(list);
                break;
            }
            PyList_SET_ITEM(list, (Py_ssize_t)g, group);
        }
        PyMem_Free(ranks);
        return list;
    }

    %feature("docstring") groups_buffer
"groups_buffer($self, /, dims, start=0, count=None)
--

The groups of groups() in bulk: a read-only memoryview of C int32 (format
'i') shaped (ngroups, group_size), filled by the library in one call, with
no Python int per rank: numpy.asarray() views it without a copy, tolist()
gives lists, buf[g, i] one rank (memoryview has no row sub-views). start and count select groups start .. start+count-1 so huge
meshes can be walked piece by piece; count=None means up to the last
group.";
    PyObject *groups_buffer(PyObject *dims, PyObject *start = NULL,
                            PyObject *count = NULL) {
        uint64_t mask;
        int64_t ngroups, size, first = 0, n;
        om_py_table *table;
        PyObject *view;
        om_error err;
        om_status status;
        if (om_py_axes($self, dims, &mask) < 0)
            return NULL;
        status = om_mesh_group_shape($self->mesh, mask, &ngroups, &size, &err);
        if (status != OM_OK) {
            om_py_raise(&err, status);
            return NULL;
        }
        if (start && om_py_as_int64(start, "start", &first) < 0)
            return NULL;
        n = ngroups - first;
        if (count && count != Py_None && om_py_as_int64(count, "count", &n) < 0)
            return NULL;
        if (first < 0 || first > ngroups || n < 0 || n > ngroups - first) {
            PyErr_Format(PyExc_ValueError,
                         "start=%lld, count=%lld is outside the %lld groups",
                         (long long)first, (long long)n, (long long)ngroups);
            return NULL;
        }
        table = om_py_table_new(n, size);
        if (!table)
            return NULL;
        if (n > 0) {
            Py_BEGIN_ALLOW_THREADS
            status = om_mesh_groups($self->mesh, mask, first, n, table->data,
                                    (size_t)(n * size), &err);
            Py_END_ALLOW_THREADS
            if (status != OM_OK) {
                Py_DECREF(table);
                om_py_raise(&err, status);
                return NULL;
            }
        }
        view = PyMemoryView_FromObject((PyObject *)table);
        Py_DECREF(table);
        return view;
    }

    %feature("docstring") group_of
"group_of($self, /, rank, dims)
--

The group over dims (as in groups()) that contains rank, as a tuple of
ranks. ValueError when rank is outside the mesh.";
    PyObject *group_of(PyObject *rank, PyObject *dims) {
        uint64_t mask;
        int64_t r, count, size;
        int32_t small[64], *members = small;
        PyObject *tuple;
        om_error err;
        om_status status;
        if (om_py_as_int64(rank, "rank", &r) < 0)
            return NULL;
        if (om_py_axes($self, dims, &mask) < 0)
            return NULL;
        status = om_mesh_group_shape($self->mesh, mask, &count, &size, &err);
        if (status != OM_OK) {
            om_py_raise(&err, status);
            return NULL;
        }
        if (size > 64) {
            members = PyMem_Malloc((size_t)size * sizeof *members);
            if (!members)
                return PyErr_NoMemory();
        }
        status = om_mesh_group_of($self->mesh, mask, r, members, (size_t)size,
                                  &err);
        if (status != OM_OK) {
            om_py_raise(&err, status);
            tuple = NULL;
        } else {
            tuple = om_py_tuple_of_int32(members, size);
        }
        if (members != small)
            PyMem_Free(members);
        return tuple;
    }

    %feature("docstring") _host_locality
"_host_locality($self, /, dims, ranks_per_host)
--

(group_count, local_groups, max_hosts) of the groups over dims when
ranks_per_host consecutive ranks share a host; see
offline_mesh.host_locality().";
    PyObject *_host_locality(PyObject *dims, PyObject *ranks_per_host) {
        uint64_t mask;
        int64_t per_host, count = 0, local = 0, hosts = 0;
        om_error err;
        om_status status;
        if (om_py_axes($self, dims, &mask) < 0)
            return NULL;
        if (om_py_as_int64(ranks_per_host, "ranks_per_host", &per_host) < 0)
            return NULL;
        Py_BEGIN_ALLOW_THREADS
        status = om_mesh_locality($self->mesh, mask, per_host, &count, &local,
                                  &hosts, &err);
        Py_END_ALLOW_THREADS
        if (status != OM_OK) {
            om_py_raise(&err, status);
            return NULL;
        }
        return Py_BuildValue("(LLL)", (long long)count, (long long)local,
                             (long long)hosts);
    }

    %feature("docstring") __reduce__
"__reduce__($self, /)
--

Pickle support: (OfflineMesh, (mesh_dim_names, mesh_shape)).";
    PyObject *__reduce__() {
        return Py_BuildValue("(O(OO))", (PyObject *)om_py_mesh_type,
                             $self->names, $self->shape);
    }
}


/* build_offline_mesh(spec): the library's om_build_offline_mesh() under
 * its Python name and argument name. */
%feature("docstring") build_offline_mesh
"build_offline_mesh(spec)
--

The offline mesh of a ParallelDimsSpec (any object with its seven fields
works): axes dp, cp, tp in that order, each present when its size is >= 1
(even at 1, so a planner can see it; 0 means \"not declared\"); pp appended
last when pp_size > 1; ep never an axis (ep_size travels beside the mesh).
TypeError for wrong field types, ValueError for invalid values.";
%inline %{
static om_status build_offline_mesh(const om_dims *spec, om_mesh **out,
                                    om_error *err)
{
    return om_build_offline_mesh(spec, out, err);
}
%}

/* Registers ParallelDimsSpec for the slot fast path of build_offline_mesh()
 * (see om_py_spec_field). Returns whether its fields are usable slots. */
%inline %{
static PyObject *_register_spec_type(PyObject *type)
{
    Py_ssize_t dims[OM_DIM_PP + 1], flags[OM_FLAG_LOSS_PARALLEL + 1];
    int i;

    if (!PyType_Check(type)) {
        PyErr_SetString(PyExc_TypeError, "type must be a class");
        return NULL;
    }
    for (i = OM_DIM_DP; i <= OM_DIM_PP; i++) {
        dims[i] = om_py_slot_offset((PyTypeObject *)type, om_py_dim_fields[i]);
        if (dims[i] < 0) {
            if (PyErr_Occurred())
                return NULL;
            Py_RETURN_FALSE;
        }
    }
    for (i = OM_FLAG_SEQUENCE_PARALLEL; i <= OM_FLAG_LOSS_PARALLEL; i++) {
        flags[i] = om_py_slot_offset((PyTypeObject *)type, om_py_flag_fields[i]);
        if (flags[i] < 0) {
            if (PyErr_Occurred())
                return NULL;
            Py_RETURN_FALSE;
        }
    }
    memcpy(om_py_dim_offsets, dims, sizeof dims);
    memcpy(om_py_flag_offsets, flags, sizeof flags);
    Py_INCREF(type);
    Py_XSETREF(om_py_spec_type, (PyTypeObject *)type);
    Py_RETURN_TRUE;
}
%}

/* Test builds only (meson -Dpython_static=true -Dalloc_failure_injection=true):
 * make the library's n-th allocation from now fail (-1 disarms), to test
 * the OM_ERR_NO_MEMORY -> MemoryError path. Returns the allocations made
 * since the previous call. */
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

%{
/* SWIG starts multi-line docstrings with a newline, which hides the
 * "name(signature)\n--\n\n" header CPython reads __text_signature__ from
 * (inspect.signature(), help(), IDEs). Drop it from method tables; the
 * strings are read lazily, so this works after the objects exist. */
static void om_py_fix_method_doc(PyMethodDef *method)
{
    const char *doc = method->ml_doc;

    if (doc && doc[0] == '\n')
        method->ml_doc = ++doc;
    /* Newer SWIG (4.5) also wraps the constructor as an __init__ method
     * carrying the class docstring: name its signature after __init__ so
     * inspect finds it. The string lives as long as the module (never
     * freed, like the method table). */
    if (doc && strcmp(method->ml_name, "__init__") == 0 &&
        strncmp(doc, "OfflineMesh(", 12) == 0) {
        static const char prefix[] = "__init__($self, /, ";
        char *fixed = PyMem_RawMalloc(sizeof prefix + strlen(doc));
        if (fixed) {
            strcpy(fixed, prefix);
            strcat(fixed, doc + 12);
            method->ml_doc = fixed;
        }
    }
}

static void om_py_fix_method_docs(PyMethodDef *methods)
{
    for (; methods && methods->ml_name; methods++)
        om_py_fix_method_doc(methods);
}

/* The same for the class docstring, which PyType_Ready() already copied
 * into __dict__["__doc__"]: store the text after the signature header. */
static int om_py_fix_type_doc(PyTypeObject *type)
{
    const char *doc = type->tp_doc, *body;
    PyObject *text;
    int rc;

    if (!doc)
        return 0;
    if (doc[0] == '\n')
        doc++;
    type->tp_doc = doc;
    body = strstr(doc, "\n--\n\n");
    body = body ? body + 5 : doc;
    text = PyUnicode_FromString(body);
    if (!text)
        return -1;
    rc = PyDict_SetItemString(type->tp_dict, "__doc__", text);
    Py_DECREF(text);
    return rc;
}
%}

%init %{
    {
        /* Name the type after the package that exports it, so pickle and
         * help() find offline_mesh.OfflineMesh. */
        SwigPyClientData *om_cd =
            (SwigPyClientData *)SWIGTYPE_p_om_py_mesh->clientdata;
        PyObject *dataclasses;
        int k;
        om_py_mesh_type = om_cd->pytype;
        om_py_mesh_type->tp_name = "offline_mesh.OfflineMesh";
        om_py_mesh_type->tp_new = om_py_mesh_tp_new;
        if (PyType_Ready(&om_py_table_type) < 0)
            return NULL;
        om_py_fix_method_docs(SwigMethods);
        om_py_fix_method_docs(om_py_mesh_type->tp_methods);
        {
            PyObject *init = PyDict_GetItemString(om_py_mesh_type->tp_dict,
                                                  "__init__");
            if (init && Py_IS_TYPE(init, &PyMethodDescr_Type))
                om_py_fix_method_doc(((PyMethodDescrObject *)init)->d_method);
        }
        for (PyMethodDef *def = om_py_mesh_fast_methods; def->ml_name; def++) {
            PyObject *descr = PyDescr_NewMethod(om_py_mesh_type, def);
            if (!descr || PyDict_SetItemString(om_py_mesh_type->tp_dict,
                                               def->ml_name, descr) < 0) {
                Py_XDECREF(descr);
                return NULL;
            }
            Py_DECREF(descr);
        }
        for (PyGetSetDef *def = om_py_mesh_getset; def->name; def++) {
            PyObject *descr = PyDescr_NewGetSet(om_py_mesh_type, def);
            if (!descr || PyDict_SetItemString(om_py_mesh_type->tp_dict,
                                               def->name, descr) < 0) {
                Py_XDECREF(descr);
                return NULL;
            }
            Py_DECREF(descr);
        }
        if (om_py_fix_type_doc(om_py_mesh_type) < 0)
            return NULL;
        /* A heap type (newer SWIG) reads __module__ from its dict. */
        if (om_py_mesh_type->tp_flags & Py_TPFLAGS_HEAPTYPE) {
            PyObject *module_name = PyUnicode_FromString("offline_mesh");
            int rc = module_name ? PyDict_SetItemString(
                         om_py_mesh_type->tp_dict, "__module__", module_name)
                                 : -1;
            Py_XDECREF(module_name);
            if (rc < 0)
                return NULL;
        }
        PyType_Modified(om_py_mesh_type);
        dataclasses = PyImport_ImportModule("dataclasses");
        if (!dataclasses)
            return NULL;
        om_py_frozen_error = PyObject_GetAttrString(dataclasses,
                                                    "FrozenInstanceError");
        Py_DECREF(dataclasses);
        if (!om_py_frozen_error)
            return NULL;
        for (k = 0; k < (int)OM_PY_COMMON_NAMES; k++) {
            om_py_common_name_objects[k] =
                PyUnicode_InternFromString(om_py_common_names[k]);
            if (!om_py_common_name_objects[k])
                return NULL;
        }
        for (k = OM_DIM_DP; k <= OM_DIM_PP; k++)
            om_py_dim_offsets[k] = -1;
        for (k = OM_FLAG_SEQUENCE_PARALLEL; k <= OM_FLAG_LOSS_PARALLEL; k++)
            om_py_flag_offsets[k] = -1;
        for (k = OM_DIM_DP; k <= OM_DIM_PP; k++) {
            om_py_dim_fields[k] =
                PyUnicode_InternFromString(om_dim_field_name((om_dim)k));
            if (!om_py_dim_fields[k])
                return NULL;
        }
        for (k = OM_FLAG_SEQUENCE_PARALLEL; k <= OM_FLAG_LOSS_PARALLEL; k++) {
            om_py_flag_fields[k] =
                PyUnicode_InternFromString(om_flag_field_name((om_flag)k));
            if (!om_py_flag_fields[k])
                return NULL;
        }
    }
%}

/* Class attributes the package computes in Python (the dataclass field
 * metadata that dataclasses.fields()/asdict()/replace() read), installed
 * once at import. */
%inline %{
static PyObject *_set_mesh_class_attributes(PyObject *attributes)
{
    if (!PyDict_Check(attributes)) {
        PyErr_SetString(PyExc_TypeError, "attributes must be a dict");
        return NULL;
    }
    if (PyDict_Update(om_py_mesh_type->tp_dict, attributes) < 0)
        return NULL;
    PyType_Modified(om_py_mesh_type);
    Py_RETURN_NONE;
}
%}
