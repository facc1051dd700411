package offlinemesh

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

func TestNewMeshValid(t *testing.T) {
	tests := []struct {
		names []string
		shape []int
		size  int
	}{
		{nil, nil, 1},
		{[]string{}, []int{}, 1},
		{[]string{"dp"}, []int{1}, 1},
		{[]string{"dp", "cp", "tp"}, []int{2, 2, 2}, 8},
		{[]string{"dp", "tp"}, []int{2, 4}, 8},
		{[]string{"x"}, []int{2147483647}, 2147483647},
		{[]string{"a", "b"}, []int{65536, 32767}, 65536 * 32767},
		{[]string{"données", "張量"}, []int{3, 5}, 15},
		{[]string{"with space", "a,b", "k=v"}, []int{1, 2, 3}, 6},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.names), func(t *testing.T) {
			m := mustMesh(t, tc.names, tc.shape)
			if m.NDim() != len(tc.names) || m.Size() != tc.size {
				t.Fatalf("ndim %d size %d, want %d %d", m.NDim(), m.Size(), len(tc.names), tc.size)
			}
			names, shape := m.Names(), m.Shape()
			if len(names) != len(tc.names) || len(shape) != len(tc.shape) {
				t.Fatalf("names %q shape %v", names, shape)
			}
			for i := range names {
				if names[i] != tc.names[i] || shape[i] != tc.shape[i] {
					t.Fatalf("axis %d is %s=%d, want %s=%d", i, names[i], shape[i], tc.names[i], tc.shape[i])
				}
				if m.SizeOf(names[i]) != tc.shape[i] || m.Index(names[i]) != i {
					t.Fatalf("SizeOf/Index(%q) = %d/%d", names[i], m.SizeOf(names[i]), m.Index(names[i]))
				}
			}
			// The C mesh agrees with the Go copy.
			h, c, err := m.handle()
			if err != nil {
				t.Fatal(err)
			}
			if int(omswig.Om_mesh_size(h)) != tc.size || int(omswig.Om_mesh_ndim(h)) != len(tc.names) {
				t.Fatalf("C mesh disagrees: size %d ndim %d", omswig.Om_mesh_size(h), omswig.Om_mesh_ndim(h))
			}
			_ = c
		})
	}
}

func TestNewMeshErrors(t *testing.T) {
	tests := []struct {
		name   string
		names  []string
		shape  []int
		status Status
		parts  []string
	}{
		{"more names", []string{"dp", "tp"}, []int{2}, ErrLengthMismatch, []string{"2", "1"}},
		{"more sizes", []string{"dp"}, []int{2, 4}, ErrLengthMismatch, []string{"1", "2"}},
		{"names only", []string{"dp"}, nil, ErrLengthMismatch, nil},
		{"duplicate", []string{"dp", "tp", "dp"}, []int{2, 2, 2}, ErrDuplicateName, []string{`"dp"`}},
		{"empty name", []string{"dp", ""}, []int{2, 2}, ErrEmptyName, nil},
		{"zero size", []string{"dp", "tp"}, []int{2, 0}, ErrBadSize, []string{"tp", "0"}},
		{"negative size", []string{"dp"}, []int{-3}, ErrBadSize, []string{"-3"}},
		{"too large", []string{"a", "b"}, []int{65536, 32768}, ErrMeshTooLarge, nil},
		{"size over int32", []string{"a"}, []int{1 << 31}, ErrMeshTooLarge, nil},
		{"invalid utf-8", []string{"dp", "t\xffp"}, []int{2, 2}, ErrInvalidName, nil},
		{"NUL byte", []string{"d\x00p"}, []int{2}, ErrInvalidName, []string{`d\xC0\x80p`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewMesh(tc.names, tc.shape)
			if m != nil {
				t.Fatalf("got mesh %v with error %v", m, err)
			}
			wantErr(t, err, tc.status, tc.parts...)
		})
	}
}

func TestMeshCopiesSlices(t *testing.T) {
	names := []string{"dp", "tp"}
	shape := []int{2, 4}
	m := mustMesh(t, names, shape)
	names[0], shape[0] = "xx", 9
	if m.Names()[0] != "dp" || m.Shape()[0] != 2 {
		t.Fatal("mesh shares the caller's slices")
	}
	got := m.Names()
	got[1] = "yy"
	sh := m.Shape()
	sh[1] = 7
	if m.Names()[1] != "tp" || m.Shape()[1] != 4 || m.Size() != 8 {
		t.Fatal("Names/Shape return the mesh's own slices")
	}
}

func TestSizeOfAndSub(t *testing.T) {
	m := mustMesh(t, []string{"dp", "cp", "tp"}, []int{4, 2, 8})
	for _, tc := range []struct {
		dim  string
		size int
	}{{"dp", 4}, {"cp", 2}, {"tp", 8}, {"ep", 1}, {"pp", 1}, {"", 1}, {"TP", 1}} {
		if got := m.SizeOf(tc.dim); got != tc.size {
			t.Errorf("SizeOf(%q) = %d, want %d", tc.dim, got, tc.size)
		}
		sub := m.Sub(tc.dim)
		if m.Index(tc.dim) < 0 {
			if sub.NDim() != 0 || sub.Size() != 1 || !sub.Equal(&Mesh{}) {
				t.Errorf("Sub(%q) = %v, want the empty mesh", tc.dim, sub)
			}
			continue
		}
		want := mustMesh(t, []string{tc.dim}, []int{tc.size})
		if !sub.Equal(want) || sub.String() != want.String() || sub.Hash() != want.Hash() {
			t.Errorf("Sub(%q) = %v, want %v", tc.dim, sub, want)
		}
		// The sub-mesh works with the C library like any other mesh.
		g, err := sub.Groups(tc.dim)
		if err != nil || len(g) != 1 || len(g[0]) != tc.size {
			t.Errorf("Sub(%q).Groups = %v, %v", tc.dim, g, err)
		}
	}
	// The C library's own om_mesh_get agrees.
	h, c, _ := m.handle()
	for _, dim := range []string{"dp", "tp", "ep"} {
		got, err := newMesh(nil, func(out *omswig.Handle) error { return omswig.Om_mesh_get(h, dim, out) })
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(m.Sub(dim)) {
			t.Errorf("om_mesh_get(%q) = %v, Sub = %v", dim, got, m.Sub(dim))
		}
		if got := int(omswig.Om_mesh_size_of(h, dim)); got != m.SizeOf(dim) {
			t.Errorf("om_mesh_size_of(%q) = %d, SizeOf = %d", dim, got, m.SizeOf(dim))
		}
	}
	_ = c
}

func TestEqualAndHash(t *testing.T) {
	a := mustMesh(t, []string{"dp", "tp"}, []int{2, 4})
	b := mustMesh(t, []string{"dp", "tp"}, []int{2, 4})
	others := []*Mesh{
		mustMesh(t, []string{"tp", "dp"}, []int{4, 2}),
		mustMesh(t, []string{"dp", "tp"}, []int{4, 2}),
		mustMesh(t, []string{"dp"}, []int{2}),
		mustMesh(t, []string{"dp", "cp"}, []int{2, 4}),
		{},
	}
	if !a.Equal(b) || !b.Equal(a) || a.Hash() != b.Hash() || a.Hash() == 0 {
		t.Fatalf("equal meshes: Equal %v hash %x %x", a.Equal(b), a.Hash(), b.Hash())
	}
	for _, o := range others {
		if a.Equal(o) || o.Equal(a) {
			t.Errorf("%v equals %v", a, o)
		}
		if a.Hash() == o.Hash() {
			t.Errorf("%v and %v hash alike", a, o)
		}
		h1, c1, _ := a.handle()
		h2, c2, _ := o.handle()
		if omswig.Om_mesh_equal(h1, h2) != a.Equal(o) {
			t.Errorf("om_mesh_equal disagrees for %v, %v", a, o)
		}
		_, _ = c1, c2
	}
	var nilMesh *Mesh
	if !nilMesh.Equal(nil) || nilMesh.Equal(&Mesh{}) || (&Mesh{}).Equal(nil) || a.Equal(nil) {
		t.Error("nil equality differs from C's NULL semantics")
	}
	if !(&Mesh{}).Equal(mustMesh(t, nil, nil)) {
		t.Error("the zero Mesh is not the empty mesh")
	}
	// Usable as a map key through Hash + Equal, like the C library intends.
	seen := map[uint64][]*Mesh{}
	for _, m := range append(others, a, b) {
		seen[m.Hash()] = append(seen[m.Hash()], m)
	}
	if len(seen[a.Hash()]) != 2 {
		t.Errorf("hash bucket of a holds %d meshes", len(seen[a.Hash()]))
	}
}

func TestZeroAndNilMesh(t *testing.T) {
	var z Mesh
	if z.NDim() != 0 || z.Size() != 1 || z.SizeOf("tp") != 1 || len(z.Names()) != 0 {
		t.Fatalf("zero mesh: ndim %d size %d", z.NDim(), z.Size())
	}
	if s := z.String(); s != `{"mesh_dim_names":[],"mesh_shape":[]}` {
		t.Fatalf("zero mesh String = %s", s)
	}
	g, err := z.Groups()
	if err != nil || !equalGroups(g, [][]int{{0}}) {
		t.Fatalf("zero mesh groups %v %v", g, err)
	}
	c, err := z.Coordinate(0)
	if err != nil || len(c) != 0 {
		t.Fatalf("zero mesh coordinate %v %v", c, err)
	}
	if r, err := z.Rank(nil); err != nil || r != 0 {
		t.Fatalf("zero mesh rank %d %v", r, err)
	}

	var n *Mesh
	if n.NDim() != 0 || n.Size() != 0 || n.SizeOf("tp") != 1 || n.Names() != nil || n.Shape() != nil ||
		n.Index("tp") != -1 || n.Hash() != 0 || n.String() != "<nil>" || n.Sub("tp").NDim() != 0 {
		t.Fatal("nil mesh accessors")
	}
	_, err = n.Coordinate(0)
	wantErr(t, err, ErrInvalidArgument, "nil")
	_, err = n.Rank(nil)
	wantErr(t, err, ErrInvalidArgument)
	_, err = n.Groups("tp")
	wantErr(t, err, ErrInvalidArgument)
	_, err = n.GroupOf(0)
	wantErr(t, err, ErrInvalidArgument)
	_, _, err = n.GroupShape()
	wantErr(t, err, ErrInvalidArgument)
	_, err = n.GroupIndex(0)
	wantErr(t, err, ErrInvalidArgument)
	_, err = n.GroupRange(0, 1)
	wantErr(t, err, ErrInvalidArgument)
	_, err = n.Locality(1)
	wantErr(t, err, ErrInvalidArgument)
	_, err = n.MarshalJSON()
	wantErr(t, err, ErrInvalidArgument)
	_, err = n.Spec()
	wantErr(t, err, ErrInvalidArgument)
	wantErr(t, n.UnmarshalJSON([]byte(`{"mesh_dim_names":[],"mesh_shape":[]}`)), ErrInvalidArgument)
	wantErr(t, ValidateAxes(nil, 1, 1, 1), ErrInvalidArgument)
	_, err = PlanDimNames(nil, 1, 1, 1)
	wantErr(t, err, ErrInvalidArgument)
	_, err = ExpertLayout(nil, 1, 0)
	wantErr(t, err, ErrInvalidArgument)
}

func TestJSON(t *testing.T) {
	tests := []struct {
		m    *Mesh
		json string
	}{
		{mustMesh(t, []string{"dp", "cp", "tp"}, []int{2, 2, 2}), `{"mesh_dim_names":["dp","cp","tp"],"mesh_shape":[2,2,2]}`},
		{mustMesh(t, nil, nil), `{"mesh_dim_names":[],"mesh_shape":[]}`},
		{mustMesh(t, []string{`q"uote`, "a/b"}, []int{1, 3}), `{"mesh_dim_names":["q\"uote","a/b"],"mesh_shape":[1,3]}`},
	}
	for _, tc := range tests {
		b, err := json.Marshal(tc.m)
		if err != nil || string(b) != tc.json {
			t.Errorf("json.Marshal = %s, %v; want %s", b, err, tc.json)
		}
		if s := tc.m.String(); s != tc.json {
			t.Errorf("String = %s", s)
		}
		p, err := ParseMesh([]byte(tc.json))
		if err != nil || !p.Equal(tc.m) {
			t.Errorf("ParseMesh(%s) = %v, %v", tc.json, p, err)
		}
		var u Mesh
		if err := json.Unmarshal([]byte(tc.json), &u); err != nil || !u.Equal(tc.m) {
			t.Errorf("json.Unmarshal(%s) = %v, %v", tc.json, &u, err)
		}
	}

	// Non-ASCII names are escaped (the output is ASCII) and read back.
	// (The hex digits' case is the C library's choice, not checked here.)
	uni := mustMesh(t, []string{"é", "張量"}, []int{2, 3})
	b, err := json.Marshal(uni)
	if err != nil || !strings.HasPrefix(strings.ToLower(string(b)), `{"mesh_dim_names":["\u00e9","\u5f35\u91cf"]`) {
		t.Fatalf("non-ASCII JSON %s %v", b, err)
	}
	var raw struct {
		Names []string `json:"mesh_dim_names"`
		Shape []int    `json:"mesh_shape"`
	}
	if err := json.Unmarshal(b, &raw); err != nil || raw.Names[0] != "é" || raw.Names[1] != "張量" {
		t.Fatalf("encoding/json reads back %+v %v", raw, err)
	}
	if back, err := ParseMesh(b); err != nil || !back.Equal(uni) {
		t.Fatalf("ParseMesh(%s) = %v %v", b, back, err)
	}

	// Whitespace is allowed; the canonical form comes back.
	p, err := ParseMesh([]byte(" {\n \"mesh_shape\" : [4, 2],\t\"mesh_dim_names\": [\"dp\", \"tp\"] }\n"))
	if err != nil || p.String() != `{"mesh_dim_names":["dp","tp"],"mesh_shape":[4,2]}` {
		t.Fatalf("ParseMesh with spaces: %v %v", p, err)
	}

	// Inside other JSON documents, as a *Mesh field.
	type job struct {
		Name string `json:"name"`
		Mesh *Mesh  `json:"mesh"`
	}
	in := job{"llama", mustMesh(t, []string{"dp", "tp"}, []int{16, 8})}
	b, err = json.Marshal(in)
	if err != nil || string(b) != `{"name":"llama","mesh":{"mesh_dim_names":["dp","tp"],"mesh_shape":[16,8]}}` {
		t.Fatalf("marshal job: %s %v", b, err)
	}
	var out job
	if err := json.Unmarshal(b, &out); err != nil || out.Name != "llama" || !out.Mesh.Equal(in.Mesh) {
		t.Fatalf("unmarshal job: %+v %v", out, err)
	}
	var withNull job
	if err := json.Unmarshal([]byte(`{"name":"x","mesh":null}`), &withNull); err != nil || withNull.Mesh != nil {
		t.Fatalf("null mesh: %+v %v", withNull, err)
	}
	keep := *mustMesh(t, []string{"dp"}, []int{2})
	if err := keep.UnmarshalJSON([]byte("null")); err != nil || keep.Size() != 2 {
		t.Fatalf("UnmarshalJSON(null) changed the mesh: %v %v", &keep, err)
	}
	if err := json.Unmarshal([]byte(`{"name":"x","mesh":{"mesh_dim_names":["a"],"mesh_shape":[0]}}`), &out); err == nil {
		t.Fatal("json.Unmarshal accepted a bad mesh")
	} else {
		wantErr(t, err, ErrBadSize)
	}
}

func TestParseMeshErrors(t *testing.T) {
	tests := []struct {
		text   string
		status Status
	}{
		{``, ErrParse},
		{`null`, ErrParse},
		{`[]`, ErrParse},
		{`{}`, ErrParse},
		{`{"mesh_dim_names":["dp"]}`, ErrParse},
		{`{"mesh_shape":[2]}`, ErrParse},
		{`{"mesh_dim_names":["dp"],"mesh_shape":[2],"extra":1}`, ErrParse},
		{`{"mesh_dim_names":["dp"],"mesh_shape":[2],"mesh_shape":[2]}`, ErrParse},
		{`{"mesh_dim_names":"dp","mesh_shape":[2]}`, ErrParse},
		{`{"mesh_dim_names":[1],"mesh_shape":[2]}`, ErrParse},
		{`{"mesh_dim_names":["dp"],"mesh_shape":["2"]}`, ErrParse},
		{`{"mesh_dim_names":["dp"],"mesh_shape":[2.0]}`, ErrParse},
		{`{"mesh_dim_names":["dp"],"mesh_shape":[true]}`, ErrParse},
		{`{"mesh_dim_names":["dp"],"mesh_shape":[2]} x`, ErrParse},
		{`{"mesh_dim_names":["dp"],"mesh_shape":[2]}{}`, ErrParse},
		{`{"mesh_dim_names":["dp"],"mesh_shape":[2]`, ErrParse},
		{"{\"mesh_dim_names\":[\"dp\"],\"mesh_shape\":[2]}\x00", ErrParse},
		{`{"mesh_dim_names":["d\u0000p"],"mesh_shape":[2]}`, ErrParse},
		{`{"mesh_dim_names":["dp","tp"],"mesh_shape":[2]}`, ErrLengthMismatch},
		{`{"mesh_dim_names":["dp","dp"],"mesh_shape":[2,2]}`, ErrDuplicateName},
		{`{"mesh_dim_names":[""],"mesh_shape":[2]}`, ErrEmptyName},
		{`{"mesh_dim_names":["dp"],"mesh_shape":[0]}`, ErrBadSize},
		{`{"mesh_dim_names":["dp"],"mesh_shape":[-1]}`, ErrBadSize},
		{`{"mesh_dim_names":["a","b"],"mesh_shape":[65536,65536]}`, ErrMeshTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			m, err := ParseMesh([]byte(tc.text))
			if m != nil {
				t.Fatalf("parsed %v", m)
			}
			wantErr(t, err, tc.status)
		})
	}
	if _, err := ParseMesh(nil); err == nil {
		t.Fatal("ParseMesh(nil) succeeded")
	}
}

func TestSpec(t *testing.T) {
	for _, tc := range []struct {
		spec, canon string
		names       []string
		shape       []int
	}{
		{"dp=2,cp=2,tp=8", "dp=2,cp=2,tp=8", []string{"dp", "cp", "tp"}, []int{2, 2, 8}},
		{" dp = 2 , tp=4 ", "dp=2,tp=4", []string{"dp", "tp"}, []int{2, 4}},
		{"", "", nil, nil},
	} {
		m, err := ParseMeshSpec(tc.spec)
		if err != nil || !m.Equal(mustMesh(t, tc.names, tc.shape)) {
			t.Fatalf("ParseMeshSpec(%q) = %v, %v", tc.spec, m, err)
		}
		s, err := m.Spec()
		if err != nil || s != tc.canon {
			t.Fatalf("Spec() = %q, %v; want %q", s, err, tc.canon)
		}
	}
	for _, tc := range []struct {
		spec   string
		status Status
	}{
		{"dp", ErrParse},
		{"dp=x", ErrParse},
		{"dp=2,,tp=2", ErrParse},
		{"dp=2\x00,tp=3", ErrParse},
		{"dp=2,dp=2", ErrDuplicateName},
		{"dp=0", ErrBadSize},
		{"=2", ErrEmptyName},
	} {
		_, err := ParseMeshSpec(tc.spec)
		wantErr(t, err, tc.status)
	}
	_, err := mustMesh(t, []string{"a,b"}, []int{2}).Spec()
	wantErr(t, err, ErrInvalidArgument)
	_, err = mustMesh(t, []string{"k=v"}, []int{2}).Spec()
	wantErr(t, err, ErrInvalidArgument)
}

func TestConcurrentUse(t *testing.T) {
	// One mesh (and one lazily created C twin) shared by many goroutines.
	m := mustMesh(t, []string{"dp", "cp", "tp"}, []int{4, 2, 2})
	sub := m.Sub("dp")
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for r := 0; r < m.Size(); r++ {
				c, err := m.Coordinate(r)
				if err != nil {
					errs <- err
					return
				}
				back, err := m.Rank(c)
				if err != nil || back != r {
					errs <- fmt.Errorf("rank %d -> %v -> %d, %v", r, c, back, err)
					return
				}
			}
			if g, err := sub.Groups("dp"); err != nil || len(g) != 1 || len(g[0]) != 4 {
				errs <- fmt.Errorf("sub groups %v %v", g, err)
			}
			if _, err := NewMesh([]string{"x", "x"}, []int{1, 1}); err == nil {
				errs <- fmt.Errorf("duplicate accepted")
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
