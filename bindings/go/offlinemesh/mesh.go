package offlinemesh

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// Mesh is an offline device mesh: ordered axis names with their sizes,
// e.g. (dp=2, cp=2, tp=2). It is immutable and safe for concurrent use.
//
// The zero Mesh is the empty mesh (no axes, size 1). A Mesh is a Go value:
// its names and shape are copied out of C, and the C handle it uses for
// topology queries is released by the garbage collector (runtime.AddCleanup)
// once the Mesh is unreachable, so there is nothing to close.
//
// A nil *Mesh is not a mesh, as NULL in C: NDim and Size return 0, SizeOf
// returns 1, Sub returns the empty mesh, Equal is true only against nil and
// the methods that return an error return ErrInvalidArgument.
type Mesh struct {
	names []string
	shape []int
	c     *cmesh // the C twin; nil only in the zero Mesh
}

// cmesh holds the C handle of a mesh, created on first use. Copies of a
// Mesh share it; the cleanup attached to it frees the handle.
type cmesh struct {
	once sync.Once
	h    omswig.Mesh
	err  error
}

// liveHandles counts the C mesh handles not yet freed (tests check that
// the cleanups run).
var liveHandles atomic.Int64

// emptyC is the C twin of every zero Mesh; it is never freed.
var emptyC = &cmesh{}

func freeMesh(h omswig.Mesh) {
	omswig.Om_mesh_free(h)
	liveHandles.Add(-1)
}

// adopt takes ownership of a handle returned by the library.
func adopt(h omswig.Mesh) *cmesh {
	c := &cmesh{h: h}
	c.once.Do(func() {})
	liveHandles.Add(1)
	runtime.AddCleanup(c, freeMesh, h)
	return c
}

// handle returns the C handle of m (creating it on first use) and the
// holder to keep alive until the C call returns.
func (m *Mesh) handle() (omswig.Mesh, *cmesh, error) {
	if m == nil {
		// The library's own text for NULL, so every binding says the same.
		return 0, nil, errorf(ErrInvalidArgument, "mesh is NULL (a nil *Mesh)")
	}
	c := m.c
	if c == nil {
		c = emptyC
	}
	c.once.Do(func() {
		var h omswig.Mesh
		var e omswig.Error
		st := omswig.Om_mesh_new_checked(m.names, toInt64s(m.shape), &h, &e)
		if err := fromC(st, &e); err != nil {
			c.err = err
			return
		}
		c.h = h
		if c != emptyC {
			liveHandles.Add(1)
			runtime.AddCleanup(c, freeMesh, h)
		}
	})
	return c.h, c, c.err
}

// NewMesh creates a mesh from axis names and their sizes. It fails with
// ErrLengthMismatch when the lengths differ, ErrEmptyName, ErrDuplicateName,
// ErrInvalidName (not UTF-8, or a NUL byte), ErrBadSize (a size < 1) or
// ErrMeshTooLarge (more than 2^31-1 ranks). The slices are copied.
func NewMesh(names []string, shape []int) (*Mesh, error) {
	for _, n := range names {
		if strings.IndexByte(n, 0) >= 0 {
			return nil, errorf(ErrInvalidName, "axis name %q contains a NUL byte", n)
		}
	}
	var h omswig.Mesh
	var e omswig.Error
	st := omswig.Om_mesh_new_checked(names, toInt64s(shape), &h, &e)
	if err := fromC(st, &e); err != nil {
		return nil, err
	}
	return &Mesh{names: slices.Clone(names), shape: slices.Clone(shape), c: adopt(h)}, nil
}

// MustMesh is NewMesh for meshes known to be valid (constants in code and
// tests); it panics on error.
func MustMesh(names []string, shape []int) *Mesh {
	m, err := NewMesh(names, shape)
	if err != nil {
		panic(err)
	}
	return m
}

// fromHandle copies names and shape out of a handle the library returned
// and takes ownership of it.
func fromHandle(h omswig.Mesh) *Mesh {
	n := int(omswig.Om_mesh_ndim(h))
	m := &Mesh{names: make([]string, n), shape: make([]int, n)}
	for i := 0; i < n; i++ {
		m.names[i] = omswig.Om_mesh_name(h, int64(i))
		m.shape[i] = int(omswig.Om_mesh_dim_size(h, int64(i)))
	}
	m.c = adopt(h)
	return m
}

// ParseMesh parses the canonical JSON of a mesh,
// {"mesh_dim_names":["dp","tp"],"mesh_shape":[2,4]}. Anything that is not
// exactly one valid mesh object fails: ErrParse for wrong types, missing or
// duplicate keys, other keys or trailing bytes, then the errors of NewMesh.
func ParseMesh(data []byte) (*Mesh, error) {
	var h omswig.Mesh
	var e omswig.Error
	st := omswig.Om_mesh_from_json(data, &h, &e)
	if err := fromC(st, &e); err != nil {
		return nil, err
	}
	return fromHandle(h), nil
}

// ParseMeshSpec parses the text form "dp=2,cp=2,tp=8" (spaces around items
// are allowed; "" is the empty mesh). Errors: ErrParse, then those of
// NewMesh.
func ParseMeshSpec(spec string) (*Mesh, error) {
	if strings.IndexByte(spec, 0) >= 0 {
		return nil, errorf(ErrParse, "mesh spec %q contains a NUL byte", spec)
	}
	var h omswig.Mesh
	var e omswig.Error
	st := omswig.Om_mesh_from_spec(spec, &h, &e)
	if err := fromC(st, &e); err != nil {
		return nil, err
	}
	return fromHandle(h), nil
}

// Names returns a copy of the axis names, in mesh order.
func (m *Mesh) Names() []string {
	if m == nil {
		return nil
	}
	return append(make([]string, 0, len(m.names)), m.names...)
}

// Shape returns a copy of the axis sizes, in mesh order.
func (m *Mesh) Shape() []int {
	if m == nil {
		return nil
	}
	return append(make([]int, 0, len(m.shape)), m.shape...)
}

// NDim is the number of axes (0 for the empty mesh).
func (m *Mesh) NDim() int {
	if m == nil {
		return 0
	}
	return len(m.names)
}

// Size is the number of ranks, the product of all sizes (1 for the empty
// mesh).
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

// Sub is the single-axis mesh (dim,)/(size,), or the empty mesh when the
// mesh has no such axis (not an error, as in the planner-facing original).
func (m *Mesh) Sub(dim string) *Mesh {
	i := m.Index(dim)
	if i < 0 {
		return &Mesh{}
	}
	return &Mesh{names: []string{dim}, shape: []int{m.shape[i]}, c: &cmesh{}}
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
// identical in every language binding of one library version (0 for nil).
func (m *Mesh) Hash() uint64 {
	if m == nil {
		return 0
	}
	h, c, err := m.handle()
	if err != nil {
		return 0
	}
	v := omswig.Om_mesh_hash(h)
	runtime.KeepAlive(c)
	return v
}

// String is the canonical JSON of the mesh (see MarshalJSON), e.g.
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

// MarshalJSON returns the canonical JSON of the mesh:
// {"mesh_dim_names":["dp","tp"],"mesh_shape":[2,4]} (keys sorted, no
// spaces), exactly as the library and the other bindings print it.
func (m *Mesh) MarshalJSON() ([]byte, error) {
	h, c, err := m.handle()
	if err != nil {
		return nil, err
	}
	var s string
	var e omswig.Error
	st := omswig.Om_mesh_to_json(h, &s, &e)
	runtime.KeepAlive(c)
	if err := fromC(st, &e); err != nil {
		return nil, err
	}
	return []byte(s), nil
}

// UnmarshalJSON sets m from the JSON of a mesh, with the strict checks of
// ParseMesh. JSON null leaves m unchanged, as encoding/json does for other
// types.
func (m *Mesh) UnmarshalJSON(data []byte) error {
	if m == nil {
		return errorf(ErrInvalidArgument, "UnmarshalJSON into a nil *Mesh")
	}
	if string(data) == "null" {
		return nil
	}
	p, err := ParseMesh(data)
	if err != nil {
		return err
	}
	*m = *p
	return nil
}

// Spec returns the text form "dp=2,cp=2,tp=8" ("" for the empty mesh),
// which ParseMeshSpec reads back. It fails with ErrInvalidArgument for
// names the text form cannot carry (',', '=' or spaces at either end).
func (m *Mesh) Spec() (string, error) {
	h, c, err := m.handle()
	if err != nil {
		return "", err
	}
	var s string
	var e omswig.Error
	st := omswig.Om_mesh_to_spec(h, &s, &e)
	runtime.KeepAlive(c)
	if err := fromC(st, &e); err != nil {
		return "", err
	}
	return s, nil
}

func toInt64s(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

func toInts64(v []int64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}
