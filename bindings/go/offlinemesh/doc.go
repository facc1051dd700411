// Package offlinemesh is the Go binding of liboffline_mesh: the offline
// device mesh of a distributed training job, computed on any CPU host
// before a single accelerator is allocated.
//
// A Mesh is the named grid the ranks of a job form, e.g. (dp=2, cp=2,
// tp=2). Build one from axis names and sizes (NewMesh), from its canonical
// JSON (ParseMesh, or encoding/json), or from a training config's
// parallelism (LoadParallelDims / ParseParallelDims, then
// BuildOfflineMesh). Then ask it what a live job would see: coordinates and
// ranks, process groups over any set of axes, host locality, a planner's
// axis checks (ValidateAxes, PlanDimNames) and the expert-parallel layout
// (ExpertLayout).
//
// # Views, worlds, presets
//
// A View is a Mesh whose axes carry strides and a rank offset: Flatten,
// Unflatten and Slice make views as torch's DeviceMesh does, and every
// topology method works on any view. A World holds named views of one rank
// space whose shared axis names agree (NewWorld, ParseWorld, LoadWorld). A
// Preset builds the views torchtitan, Megatron, DeepSpeed or hyper-parallel
// build, from their own parameters (NewPreset), with the named group lists
// and a World of them.
//
// # Configs and the world size
//
// ParseParallelDims and LoadParallelDims project a training YAML and run the
// world-size step (0 = from the environment, negative = an error);
// ProjectParallelDims and ReadParallelDims are the pure projection, followed
// by ParallelDims.ResolveWorldSize or ApplyWorldSize; ResolveWorldSize says
// where a size came from. CheckConfig and CheckConfigFile also return the
// probable mistakes of a config as Diagnostics, or fail in strict mode.
//
// # Topology
//
// Ranks are laid out row-major: rank = arange(Size()).reshape(Shape()), the
// last axis varies fastest. The process groups over a set of axes S are the
// sets of ranks that agree on every axis outside S; groups are listed
// row-major over the axes outside S and members row-major over S (both in
// mesh order, whatever order S is named in), so members are increasing.
// Example, mesh (dp=2, cp=2, tp=2): Groups("tp") is {0,1},{2,3},{4,5},{6,7}
// and Groups("dp", "cp") is {0,2,4,6},{1,3,5,7}.
//
// Axis sets are axis names (Groups("dp", "cp")), in any order, with no
// limit on their number; no names is the empty set: one single-rank group
// per rank. A name the mesh lacks is ErrUnknownAxis, an axis named twice
// ErrDuplicateName.
//
// # Errors
//
// Every failing call returns an error wrapping *Error, which carries the C
// library's status code (a Status) and its one-line message naming the
// offending value, taken from the very call that failed. Test the code with
// errors.Is(err, offlinemesh.ErrParse) or read both with errors.As. Nothing
// panics on bad input (MustMesh excepted, by design).
//
// # Memory and concurrency
//
// A Mesh holds the C mesh it was built from, so each query is one cgo call.
// Close releases it; a Mesh never closed is released by runtime.AddCleanup
// once unreachable. World, Preset and Hierarchy hold their C object alike.
// A Mesh is immutable and safe for concurrent use, Close included: a call
// racing with Close answers, or fails as after it; the C mesh is freed once
// the last call using it returns.
// ParallelDims is a plain Go value. The functions that discover
// the world size read the environment (WORLD_SIZE, ...); do not change it
// concurrently.
//
// # Building
//
// The package links the shared library through cgo and pkg-config
// (#cgo pkg-config: offline_mesh): the library and its offline_mesh.pc must
// be installed, or PKG_CONFIG_PATH and LD_LIBRARY_PATH must point at a
// build tree (see docs/go.md). SWIG is not needed: the generated layer is
// committed under internal/omswig with the script that regenerates it.
package offlinemesh
