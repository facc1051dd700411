/* liboffline_mesh: export and compiler attribute macros.
 * SPDX-License-Identifier: MIT */
#ifndef OFFLINE_MESH_ATTRIBUTES_H
#define OFFLINE_MESH_ATTRIBUTES_H

/* OM_API marks the public functions: the library is built with hidden
 * default visibility, so only these leave the shared object. */
#if defined(SWIG)
#  define OM_API
#elif defined(_WIN32) && defined(OM_BUILDING)
#  define OM_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#  define OM_API __attribute__((visibility("default")))
#else
#  define OM_API
#endif

/* Results that must not be ignored (statuses, allocated handles). */
#if defined(SWIG)
#  define OM_NODISCARD
#elif defined(__GNUC__) || defined(__clang__)
#  define OM_NODISCARD __attribute__((warn_unused_result))
#else
#  define OM_NODISCARD
#endif

/* Functions whose result depends only on their arguments and the memory
 * they point to. */
#if defined(SWIG)
#  define OM_PURE
#elif defined(__GNUC__) || defined(__clang__)
#  define OM_PURE __attribute__((pure))
#else
#  define OM_PURE
#endif

#ifdef __cplusplus
#  define OM_BEGIN_DECLS extern "C" {
#  define OM_END_DECLS }
#else
#  define OM_BEGIN_DECLS
#  define OM_END_DECLS
#endif

#endif /* OFFLINE_MESH_ATTRIBUTES_H */
