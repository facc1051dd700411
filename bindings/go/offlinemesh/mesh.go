package offlinemesh

import (
	"slices"
	"sync"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// Mesh is an offline device mesh: ordered axis names with their sizes, e.g.
// (dp=2, cp=2, tp=2). It holds the C mesh it was built from, so topology
// queries cost one cgo call. Close releases that handle; a Mesh that is
// never closed is released by the garbage collector (runtime.AddCleanup).
// Copies of a Mesh value share the handle. A Mesh is immutable and safe for
// concurrent use, Close included: a call racing with Close answers as
// without it, or fails as after it; the C mesh is freed once, when the last
// call using it returns.
//
// Names, Shape, NDim, Size, Index, SizeOf and Equal read a Go copy and keep
// working after Close; every other method then fails with
// ErrInvalidArgument. The zero Mesh is the empty mesh (no axes, size 1); a
// nil *Mesh behaves as C's NULL mesh.
//
// Every Mesh is also a View (views.go): a plain mesh is the row-major view.
type Mesh struct {
	h     *omswig.Handle
	names []string
	shape []int
	ranks int  // RankCount, so bulk calls need no second cgo call (0: the zero Mesh)
	view  bool // not plain (strides, instances or an offset): Equal compares layouts
}

// emptyMesh is the C mesh of every zero Mesh (the empty mesh), never freed.
var emptyMesh = sync.OnceValue(func() *omswig.Handle {
	h := new(omswig.Handle)
	_ = omswig.Om_mesh_new_checked(nil, nil, h)
	return h
})

// c is the handle C calls receive: nil for a nil *Mesh (C's NULL).
func (m *Mesh) c() *omswig.Handle {
	if m == nil {
		return nil
	}
	if m.h == nil {
		return emptyMesh()
	}
	if !m.h.Open() {
		return closed
	}
	return m.h
}

// closed stands for a closed mesh: C receives NULL, Go reports it by name.
var closed = new(omswig.Handle)

// newMesh runs a C constructor of a mesh (`om_mesh **out`) unless pre is
// an error.
func newMesh(pre error, f func(out *omswig.Handle) error) (*Mesh, error) {
	h := new(omswig.Handle)
	if pre == nil {
		pre = f(h)
	}
	if pre != nil {
		return nil, pre
	}
	n := omswig.Om_mesh_ndim(h)
	m := &Mesh{h: h, names: make([]string, n), shape: make([]int, n), ranks: omswig.Om_view_rank_count(h),
		view: !omswig.Om_view_is_plain(h)}
	for i := range n {
		m.names[i], m.shape[i] = omswig.Om_mesh_name(h, i), omswig.Om_mesh_dim_size(h, i)
	}
	return m, nil
}

// str runs a C call that writes a string about the mesh.
func (m *Mesh) str(f func(*omswig.Handle, *string) error) (string, error) {
	return get(m.ok(), with(f, m.c()))
}

// ok is the error of a call on a nil or closed mesh, else nil.
func (m *Mesh) ok() error {
	switch m.c() {
	case nil:
		return errorf(ErrInvalidArgument, "mesh is NULL (a nil *Mesh)")
	case closed:
		return errorf(ErrInvalidArgument, "mesh is closed")
	}
	return nil
}

// Close releases the C mesh now instead of at garbage collection. Further
// calls that need it fail; Close itself may be called again (a no-op).
func (m *Mesh) Close() error {
	if m != nil {
		m.h.Close()
	}
	return nil
}

// NewMesh creates a mesh from axis names and their sizes. It fails with
// ErrLengthMismatch when the lengths differ, ErrEmptyName, ErrDuplicateName,
// ErrInvalidName (not UTF-8, or a NUL byte), ErrBadSize (a size < 1) or
// ErrMeshTooLarge (more than 2^31-1 ranks).
func NewMesh(names []string, shape []int) (*Mesh, error) {
	return newMesh(nil, func(h *omswig.Handle) error { return omswig.Om_mesh_new_checked(names, shape, h) })
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
func ParseMesh(data []byte) (*Mesh, error) { return newMesh(nil, with(omswig.Om_mesh_from_json, data)) }

// LoadMesh is ParseMesh of the file at path; ErrIO when it cannot be read
// (missing, a directory, a FIFO or device, over 64 MiB). Messages start
// with the path.
func LoadMesh(path string) (*Mesh, error) { return newMesh(nil, with(omswig.Om_mesh_load_json, path)) }

// ParseMeshSpec parses the text form "dp=2,cp=2,tp=8" (spaces around items
// are allowed; "" is the empty mesh). Errors: ErrParse, then those of NewMesh.
func ParseMeshSpec(spec string) (*Mesh, error) {
	return newMesh(nil, with(omswig.Om_mesh_from_spec, spec))
}

// Names returns a copy of the axis names, in mesh order.
func (m *Mesh) Names() []string { return slices.Clone(m.own().names) }

// Shape returns a copy of the axis sizes, in mesh order.
func (m *Mesh) Shape() []int { return slices.Clone(m.own().shape) }

// NDim is the number of axes (0 for the empty mesh).
func (m *Mesh) NDim() int { return len(m.own().names) }

// own is the Go copy of the mesh: no axes for nil.
func (m *Mesh) own() *Mesh {
	if m == nil {
		return &Mesh{}
	}
	return m
}

// Size is the number of ranks of one instance, the product of the sizes (1
// for the empty mesh, 0 for nil).
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
func (m *Mesh) Index(dim string) int { return slices.Index(m.own().names, dim) }

// SizeOf is the size of axis dim, or 1 when the mesh has no such axis (a
// planner asks for "tp" on a mesh without tp).
func (m *Mesh) SizeOf(dim string) int {
	if i := m.Index(dim); i >= 0 {
		return m.shape[i]
	}
	return 1
}

// Sub selects axes: the plain mesh of the named axes that m has, in mesh
// order. Absent names are skipped (Sub of an absent axis is the empty mesh,
// as in the planner-facing original), so Sub("dp", "cp") is torch's
// mesh["dp", "cp"] shape and never fails. View.Slice keeps the ranks.
func (m *Mesh) Sub(dims ...string) *Mesh {
	var names []string
	var shape []int
	wanted := make(map[string]bool, len(dims)) // 10^5 names cost no O(n^2)
	for _, d := range dims {
		wanted[d] = true
	}
	for i, n := range m.own().names {
		if wanted[n] {
			names, shape = append(names, n), append(shape, m.shape[i])
		}
	}
	return MustMesh(names, shape) // a subset of a valid mesh is valid
}

// Equal reports whether both meshes have the same names and sizes in the
// same order and, when either is a view, the same layout (modes, instances
// and offset), as the library's om_mesh_equal. Two nil meshes are equal;
// nil and a mesh are not. A closed view (not a plain mesh) equals no mesh:
// its layout is gone.
func (m *Mesh) Equal(o *Mesh) bool {
	if m == nil || o == nil {
		return m == o
	}
	return slices.Equal(m.names, o.names) && slices.Equal(m.shape, o.shape) &&
		(!m.view && !o.view || m.ok() == nil && o.ok() == nil && omswig.Om_mesh_equal(m.c(), o.c()))
}

// Hash is the library's hash of (names, shape), consistent with Equal and
// the same in every language binding (0 for nil or a closed mesh).
func (m *Mesh) Hash() uint64 { return omswig.Om_mesh_hash(m.c()) }

// String is the canonical JSON of a plain mesh, e.g.
// {"mesh_dim_names":["dp","tp"],"mesh_shape":[2,4]}, and the view JSON
// (ViewJSON) of any other view; "<nil>" for nil.
func (m *Mesh) String() string {
	if m == nil {
		return "<nil>"
	}
	f := omswig.Om_view_to_json
	if m.IsPlain() {
		f = omswig.Om_mesh_to_json
	}
	s, err := m.str(f)
	if err != nil {
		return "<invalid mesh: " + err.Error() + ">"
	}
	return s
}

// MarshalJSON returns the canonical JSON of the mesh (keys sorted, no
// spaces), exactly as the library and the other bindings print it. For a
// view that is its planner shape (names and sizes): UnmarshalJSON then
// gives the plain mesh of that shape; ViewJSON and ParseView keep the
// layout.
func (m *Mesh) MarshalJSON() ([]byte, error) {
	s, err := m.str(omswig.Om_mesh_to_json)
	return orNil([]byte(s), err)
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
func (m *Mesh) Spec() (string, error) { return m.str(omswig.Om_mesh_to_spec) }
