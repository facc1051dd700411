// Package offlinemesh is the Go binding of liboffline_mesh: the offline
// device mesh of a distributed training job, computed on any CPU host
// before a single accelerator is allocated.
//
// A Mesh is the named grid the ranks of a job form, e.g. (dp=2, cp=2,
// tp=2). Build one from axis names and sizes (NewMesh), from its canonical
// JSON (ParseMesh, or encoding/json), or from a training config's
// parallelism (LoadParallelDims / ParseParallelDims, then BuildOfflineMesh).
// Then ask it what a live job would see: coordinates and ranks, process
// groups over any set of axes, host locality, a planner's axis checks
// (ValidateAxes, PlanDimNames) and the expert-parallel layout
// (ExpertLayout).
//
// Every failing call returns an error wrapping *Error, which carries the C
// library's status code (a Status, usable with errors.Is) and its message;
// nothing panics on bad input. Values are copied out of C: there is nothing
// to close.
//
// The package links the shared library through cgo and pkg-config
// (`#cgo pkg-config: offline_mesh`): the library and its offline_mesh.pc
// must be installed, or PKG_CONFIG_PATH and LD_LIBRARY_PATH must point at a
// build (see docs/go.md). SWIG is not needed to build: the generated layer
// is committed under internal/omswig.
package offlinemesh
