package offlinemesh

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// Mesh is an offline device mesh: ordered axis names with their sizes, e.g.
// (dp=2, cp=2, tp=2). It holds the C mesh it was built from, so topology
// queries cost one cgo call. Close releases that handle; a Mesh that is
// never closed is released by the garbage collector (runtime.AddCleanup).
// Copies of a Mesh value share the handle. A Mesh is immutable and safe for
// concurrent use, except that Close must not race with other calls.
//
// Names, Shape, NDim, Size, Index, SizeOf and Equal read a Go copy and keep
// working after Close; every other method then fails with
// ErrInvalidArgument. The zero Mesh is the empty mesh (no axes, size 1); a
// nil *Mesh behaves as C's NULL mesh.
type Mesh struct {
	c     *handle
	names []string
	shape []int
}

// handle owns one C mesh; the cleanup frees it when the last copy of the
// Mesh is unreachable, unless Close did so first.
type handle struct {
	p       uintptr
	cleanup runtime.Cleanup
}

// liveHandles counts C meshes not yet freed (the cleanup test reads it).
var liveHandles atomic.Int64

func freeMesh(p uintptr) {
	omswig.DeleteMesh(omswig.SwigcptrMesh(p))
	liveHandles.Add(-1)
}

// adopt copies names and shape out of a mesh the library returned and takes
// ownership of it.
func adopt(p uintptr) *Mesh {
	c := omswig.SwigcptrMesh(p)
	n := omswig.Om_mesh_ndim(c)
	m := &Mesh{c: &handle{p: p}, names: make([]string, n), shape: make([]int, n)}
	for i := range n {
		m.names[i], m.shape[i] = omswig.Om_mesh_name(c, i), omswig.Om_mesh_dim_size(c, i)
	}
	liveHandles.Add(1)
	m.c.cleanup = runtime.AddCleanup(m.c, freeMesh, p)
	return m
}

// newMesh runs a C constructor that returns a mesh through `om_mesh **out`.
func newMesh(f func(out *uintptr, e *omswig.Error) int) (*Mesh, error) {
	var p uintptr
	var e omswig.Error
	if err := fromC(f(&p, &e), &e); err != nil {
		return nil, err
	}
	return adopt(p), nil
}

// emptyMesh is the C mesh of every zero Mesh (the empty mesh), never freed.
var emptyMesh = sync.OnceValue(func() uintptr {
	var p uintptr
	var e omswig.Error
	omswig.Om_mesh_new_checked(nil, nil, &p, &e)
	return p
})

// call runs f on the C mesh, keeping it alive until f returns.
func (m *Mesh) call(f func(p omswig.Mesh, e *omswig.Error) int) error {
	if m == nil {
		return errorf(ErrInvalidArgument, "mesh is NULL (a nil *Mesh)")
	}
	p := emptyMesh()
	if m.c != nil {
		if p = m.c.p; p == 0 {
			return errorf(ErrInvalidArgument, "mesh is closed")
		}
	}
	e := errPool.Get().(*omswig.Error) // a cgo argument: heap-allocated otherwise
	e.Status = 0
	st := f(omswig.SwigcptrMesh(p), e)
	runtime.KeepAlive(m.c)
	err := fromC(st, e)
	errPool.Put(e)
	return err
}

var errPool = sync.Pool{New: func() any { return new(omswig.Error) }}

// Close releases the C mesh now instead of at garbage collection. Further
// calls that need it fail; Close itself may be called again (a no-op).
func (m *Mesh) Close() error {
	if m != nil && m.c != nil && m.c.p != 0 {
		m.c.cleanup.Stop()
		freeMesh(m.c.p)
		m.c.p = 0
	}
	return nil
}

// NewMesh creates a mesh from axis names and their sizes. It fails with
// ErrLengthMismatch when the lengths differ, ErrEmptyName, ErrDuplicateName,
// ErrInvalidName (not UTF-8, or a NUL byte), ErrBadSize (a size < 1) or
// ErrMeshTooLarge (more than 2^31-1 ranks).
func NewMesh(names []string, shape []int) (*Mesh, error) {
	for _, n := range names {
		if strings.IndexByte(n, 0) >= 0 {
			return nil, errorf(ErrInvalidName, "axis name %q contains a NUL byte", n)
		}
	}
	return newMesh(func(out *uintptr, e *omswig.Error) int {
		return omswig.Om_mesh_new_checked(names, shape, out, e)
	})
}

// MustMesh is NewMesh for meshes known to be valid; it panics on error.
func MustMesh(names []string, shape []int) *Mesh {
	m, err := NewMesh(names, shape)
	if err != nil {
		panic(err)
	}
	return m
}

// ParseMesh parses the canonical JSON of a mesh,
// {"mesh_dim_names":["dp","tp"],"mesh_shape":[2,4]}. Anything that is not
// exactly one valid mesh object fails: ErrParse for wrong types, missing or
// duplicate keys, other keys or trailing bytes, then the errors of NewMesh.
func ParseMesh(data []byte) (*Mesh, error) {
	return newMesh(func(out *uintptr, e *omswig.Error) int { return omswig.Om_mesh_from_json(data, out, e) })
}

// ParseMeshSpec parses the text form "dp=2,cp=2,tp=8" (spaces around items
// are allowed; "" is the empty mesh). Errors: ErrParse, then those of NewMesh.
func ParseMeshSpec(spec string) (*Mesh, error) {
	if strings.IndexByte(spec, 0) >= 0 {
		return nil, errorf(ErrParse, "mesh spec %q contains a NUL byte", spec)
	}
	return newMesh(func(out *uintptr, e *omswig.Error) int { return omswig.Om_mesh_from_spec(spec, out, e) })
}

// Names returns a copy of the axis names, in mesh order.
func (m *Mesh) Names() []string {
	if m == nil {
		return nil
	}
	return slices.Clone(m.names)
}

// Shape returns a copy of the axis sizes, in mesh order.
func (m *Mesh) Shape() []int {
	if m == nil {
		return nil
	}
	return slices.Clone(m.shape)
}

// NDim is the number of axes (0 for the empty mesh).
func (m *Mesh) NDim() int {
	if m == nil {
		return 0
	}
	return len(m.names)
}

// Size is the number of ranks, the product of the sizes (1 for the empty
// mesh, 0 for nil).
func (m *Mesh) Size() int {
	if m == nil {
		return 0
	}
	n := 1
	for _, s := range m.shape {
		n *= s
	}
	return n
}

// Index is the position of axis dim, or -1 when the mesh has no such axis.
func (m *Mesh) Index(dim string) int {
	if m == nil {
		return -1
	}
	return slices.Index(m.names, dim)
}

// SizeOf is the size of axis dim, or 1 when the mesh has no such axis (a
// planner asks for "tp" on a mesh without tp).
func (m *Mesh) SizeOf(dim string) int {
	if i := m.Index(dim); i >= 0 {
		return m.shape[i]
	}
	return 1
}

// Sub selects axes: the mesh of the named axes that m has, in mesh order.
// Absent names are skipped (Sub of an absent axis is the empty mesh, as in
// the planner-facing original), so Sub("dp", "cp") is torch's
// mesh["dp", "cp"] and never fails.
func (m *Mesh) Sub(dims ...string) *Mesh {
	var names []string
	var shape []int
	for i, n := range m.Names() {
		if slices.Contains(dims, n) {
			names, shape = append(names, n), append(shape, m.shape[i])
		}
	}
	return MustMesh(names, shape) // a subset of a valid mesh is valid
}

// Equal reports whether both meshes have the same names and sizes in the
// same order. Two nil meshes are equal; nil and a mesh are not.
func (m *Mesh) Equal(o *Mesh) bool {
	if m == nil || o == nil {
		return m == o
	}
	return slices.Equal(m.names, o.names) && slices.Equal(m.shape, o.shape)
}

// Hash is the library's hash of (names, shape), consistent with Equal and
// the same in every language binding (0 for nil or a closed mesh).
func (m *Mesh) Hash() uint64 {
	var h uint64
	_ = m.call(func(p omswig.Mesh, _ *omswig.Error) int { h = omswig.Om_mesh_hash(p); return 0 })
	return h
}

// String is the canonical JSON of the mesh, e.g.
// {"mesh_dim_names":["dp","tp"],"mesh_shape":[2,4]}; "<nil>" for nil.
func (m *Mesh) String() string {
	if m == nil {
		return "<nil>"
	}
	b, err := m.MarshalJSON()
	if err != nil {
		return "<invalid mesh: " + err.Error() + ">"
	}
	return string(b)
}

// MarshalJSON returns the canonical JSON of the mesh (keys sorted, no
// spaces), exactly as the library and the other bindings print it.
func (m *Mesh) MarshalJSON() ([]byte, error) {
	var s string
	err := m.call(func(p omswig.Mesh, e *omswig.Error) int { return omswig.Om_mesh_to_json(p, &s, e) })
	if err != nil {
		return nil, err
	}
	return []byte(s), nil
}

// UnmarshalJSON sets m from the JSON of a mesh, with the checks of
// ParseMesh. JSON null leaves m unchanged, as encoding/json does.
func (m *Mesh) UnmarshalJSON(data []byte) error {
	if m == nil {
		return errorf(ErrInvalidArgument, "UnmarshalJSON into a nil *Mesh")
	}
	if string(data) == "null" {
		return nil
	}
	p, err := ParseMesh(data)
	if err == nil {
		*m = *p
	}
	return err
}

// Spec returns the text form "dp=2,cp=2,tp=8" ("" for the empty mesh) that
// ParseMeshSpec reads back; ErrInvalidArgument for names it cannot carry
// (',', '=' or spaces at either end).
func (m *Mesh) Spec() (string, error) {
	var s string
	err := m.call(func(p omswig.Mesh, e *omswig.Error) int { return omswig.Om_mesh_to_spec(p, &s, e) })
	return s, err
}
