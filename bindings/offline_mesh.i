/* liboffline_mesh: the SWIG interface shared by every language binding.
 * SPDX-License-Identifier: MIT
 *
 * This file says, once, what each parameter of the C API MEANS; each
 * language file (bindings/<language>/offline_mesh_<language>.i) says how
 * its language REPRESENTS that meaning, by defining typemaps for the
 * pattern names below, and then includes this file:
 *
 *     %module(...) mymodule
 *     ... typemaps for the patterns, language extras ...
 *     %include "offline_mesh.i"   (swig -I<repo>/bindings)
 *
 * The model is GDAL's swig/include/ (gdal.i maps the API onto named
 * typemaps with %apply; python/typemaps_python.i implements them).
 *
 * The patterns (a language file defines typemaps for exactly these
 * signatures; the %apply lines at the end of this file map the API onto
 * them, so a new C function that follows COMMON.md's conventions is bound
 * in every language without touching any interface file):
 *
 *   om_status                  return type of fallible calls: not returned
 *                              (a failure raises, see OM_ERROR)
 *   om_error *OM_ERROR         hidden; after the call, a status other than
 *                              OM_OK in it raises the language's error
 *                              carrying the status code and the message.
 *                              (The library writes it only on failure, so
 *                              the typemap clears it before the call; clear
 *                              it in a "check" typemap, which runs after
 *                              every "in" typemap: see OM_BUFFER.)
 *   SWIGTYPE **OM_NEW          hidden; the new object is returned and owned
 *                              by the language (freed with its om_X_free,
 *                              the destructor OM_HANDLE declares)
 *   char **OM_STRING           hidden; returned as the language's string,
 *                              the C string freed with om_string_free()
 *   (SWIGTYPE *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED)
 *                              hidden caller buffer; returned as an array
 *                              or list; when the library reports a short
 *                              buffer (OM_ERR_BUFFER_TOO_SMALL with the
 *                              needed length) the wrapper retries once with
 *                              that length, so one call from the language
 *                              always suffices
 *   (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN)
 *                              a list of strings (axis names, axis sets)
 *   (const int64_t *OM_INTS, size_t OM_INTS_LEN)
 *                              a list of integers (sizes, coordinates)
 *   (int64_t *OM_INTO, size_t OM_INTO_LEN), (int32_t *OM_INTO, ...)
 *                              1.0-style caller buffer without a needed
 *                              length: the language says how many items
 *                              (Python: passes the count, gets them back)
 *   (const char *OM_TEXT, size_t OM_TEXT_LEN)
 *                              text or bytes with their length
 *   (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN)
 *                              a list of meshes (the views of a world)
 *   enum pointers (om_launch_format *format)
 *                              always outputs in this API: a language
 *                              typemaps `enum SWIGTYPE *` as a returned value
 *   int64_t *OM_OUTPUT, uint64_t *OM_OUTPUT, bool *OM_OUTPUT,
 *   size_t *OM_OUTPUT          hidden scalar out-parameters, returned
 *
 * Opaque handles become classes through OM_HANDLE(type, Name): its
 * constructor is om_X_new (or the explicit %extend below), its destructor
 * om_X_free. %extend methods would generate C functions named
 * om_X_<method>, which can collide with the real API: give them a
 * leading-underscore name (see OM_HANDLE) or none at all; every C
 * function stays a plain function of the module, which the hand-written
 * idiomatic layers (Python package, Go package, Java classes) call.
 *
 * Names: functions keep their C names in Python and Go (the idiomatic
 * layers rename); Java declares each as a method of its class, named by
 * the Java column of bindings/parity.tsv (bindings/java/methods.py).
 *
 */

%{
#include "offline_mesh.h"
%}

/* The attribute macros carry nothing SWIG needs. attributes.h defines them
 * empty when SWIG is defined; define them here too so this file also parses
 * on its own, without attributes.h on SWIG's include path. */
#define OM_API
#define OM_NODISCARD
#define OM_PURE
#define OM_BEGIN_DECLS
#define OM_END_DECLS


/* ---- deliberately not bound (bindings/parity.tsv gives the reasons) ------- */
%ignore om_error;          /* the OM_ERROR typemaps own the report */
%ignore om_error_clear;
%ignore om_string_free;    /* the OM_STRING typemaps free every string */
%ignore om_mesh_new;       /* om_mesh_new_checked: the same, with both lengths */
%ignore om_preset_write_json; /* a C stdio stream: om_preset_to_json gives the text */

/* ---- every parameter of the API, onto the patterns ------------------------ */
%apply om_error *OM_ERROR { om_error * };
%apply char **OM_STRING { char **out, char **violations, char **broken };
%apply (int32_t *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) {
    (int32_t *out, size_t out_len, size_t *needed) };
%apply (int64_t *OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) {
    (int64_t *out, size_t out_len, size_t *needed) };
%apply (const char **OM_BUFFER, size_t OM_BUFFER_LEN, size_t *OM_NEEDED) {
    (const char **out, size_t out_len, size_t *needed) };
%apply (const char *const *OM_STRINGS, size_t OM_STRINGS_LEN) {
    (const char *const *names, size_t names_len),
    (const char *const *axes, size_t naxes),
    (const char *const *params, size_t nparams),
    (const char *const *names, size_t naxes),
    (const char *const *names, size_t nnames),
    (const char *const *view_names, size_t nnames),
    (const char *const *hosts, size_t nhosts) };
%apply (const om_mesh *const *OM_MESHES, size_t OM_MESHES_LEN) {
    (const om_mesh *const *views, size_t nviews) };
%apply (const int64_t *OM_INTS, size_t OM_INTS_LEN) {
    (const int64_t *sizes, size_t sizes_len),
    (const int64_t *coord, size_t coord_len),
    (const int64_t *strides, size_t strides_len),
    (const int64_t *mode_counts, size_t counts_len),
    (const int64_t *modes, size_t modes_len),
    (const int64_t *instance_modes, size_t instance_len),
    (const int64_t *sizes, size_t nsizes) };
/* The 1.0 calls that take axis masks or caller-sized buffers: a language
 * that binds only their 1.1 forms (axis names, one-call sizing: parity.tsv)
 * defines OM_BIND_1_1_FORMS (Python, Go), and they are not bound. */
#ifdef OM_BIND_1_1_FORMS
%rename("$ignore", regextarget=1, %$isfunction)
    "^om_mesh_(coordinate|group_shape|groups|group_index|group_of|locality)$";
#else
%apply (int64_t *OM_INTO, size_t OM_INTO_LEN) {
    (int64_t *coord, size_t coord_len) };
%apply (int32_t *OM_INTO, size_t OM_INTO_LEN) { (int32_t *out, size_t out_len) };
#endif
%apply uint64_t *OM_OUTPUT { uint64_t * };
%apply (const char *OM_TEXT, size_t OM_TEXT_LEN) {
    (const char *text, size_t length) };
%apply int64_t *OM_OUTPUT { int64_t * };
%apply bool *OM_OUTPUT { bool * };
%apply size_t *OM_OUTPUT { size_t * };

/* ---- opaque handles -> classes ---------------------------------------------
 * OM_HANDLE(om_x, Name): the class Name over om_x, destroyed by om_x_free;
 * every `om_x **out` parameter returns a new, owned Name. */
#ifdef OM_OWN_CLASS_NAMES   /* a language that names its classes itself */
%define OM_HANDLE_NAME(TYPE, NAME) %enddef
#else
%define OM_HANDLE_NAME(TYPE, NAME) %rename(NAME) TYPE; %enddef
#endif
%define OM_HANDLE(TYPE, NAME)
OM_HANDLE_NAME(TYPE, NAME)
%nodefaultctor TYPE;
struct TYPE {};
%extend TYPE {
    ~TYPE() { TYPE##_free($self); }
}
%apply SWIGTYPE **OM_NEW { TYPE **out };
%enddef

OM_HANDLE(om_mesh, Mesh)
OM_HANDLE(om_dims, Dims)
OM_HANDLE(om_preset, Preset)
OM_HANDLE(om_hierarchy, Hierarchy)
OM_HANDLE(om_locality, Locality)
OM_HANDLE(om_world, World)
OM_HANDLE(om_diagnostics, Diagnostics)

/* Constructors: the om_X_new of each handle. */
%extend om_mesh {
    om_mesh(const char *const *names, size_t names_len,
            const int64_t *sizes, size_t sizes_len, om_error *err) {
        om_mesh *mesh = NULL;
        if (om_mesh_new_checked(names, names_len, sizes, sizes_len, &mesh,
                                err) != OM_OK)
            return NULL;
        return mesh;
    }
}
%extend om_dims {
    om_dims(om_error *err) {
        om_dims *dims = NULL;
        if (om_dims_new(&dims, err) != OM_OK)
            return NULL;
        return dims;
    }
}

/* The count constants are the length of each language's enum values(). */
%ignore OM_DIM_COUNT;
%ignore OM_FLAG_COUNT;

/* version.h is generated by meson into the build directory, so it is not
 * %included (SWIG would need the build directory on its include path);
 * its two functions are declared here instead. The macros are available to
 * the wrapper code through offline_mesh.h. */
const char *om_version_string(void);
int om_version_number(void);

%include "offline_mesh/status.h"
%include "offline_mesh/mesh.h"
%include "offline_mesh/dims.h"
%include "offline_mesh/topology.h"
%include "offline_mesh/preflight.h"
%include "offline_mesh/preset.h"
%include "offline_mesh/hierarchy.h"
%include "offline_mesh/launch.h"
%include "offline_mesh/view.h"
%include "offline_mesh/world.h"
%include "offline_mesh/config.h"
