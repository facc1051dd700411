package offlinemesh

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestViewBasics(t *testing.T) {
	// dp=2 with stride 4 and tp=2 with stride 1 over 8 ranks, offset 2.
	v, err := NewView([]string{"dp", "tp"}, []int{2, 2}, []int{4, 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	g, err := v.Groups("dp")
	if err != nil || !equalGroups(g, [][]int{{2, 6}, {3, 7}}) {
		t.Fatalf("Groups(dp) = %v %v", g, err)
	}
	if c, err := v.Coordinate(7); err != nil || !equalInts(c, []int{1, 1}) {
		t.Fatalf("Coordinate(7) = %v %v", c, err)
	}
	if r, err := v.Rank([]int{1, 0}); err != nil || r != 6 {
		t.Fatalf("Rank = %d %v", r, err)
	}
	if v.IsPlain() || v.Offset() != 2 || v.Extent() != 8 || v.RankCount() != 4 || !v.Holds(3) || v.Holds(4) || v.InstanceCount() != 1 {
		t.Fatalf("plain %v offset %d extent %d ranks %d", v.IsPlain(), v.Offset(), v.Extent(), v.RankCount())
	}
	if m, err := v.Modes(0); err != nil || !equalInts(m, []int{2, 4}) {
		t.Fatalf("Modes(0) = %v %v", m, err)
	}
	if m, err := v.InstanceModes(); err != nil || len(m) != 0 {
		t.Fatalf("InstanceModes = %v %v", m, err)
	}
	// Readable: the view record, not a pointer.
	if s := v.String(); !strings.Contains(s, `"dim_names":["dp","tp"]`) || !strings.Contains(s, `"layout"`) {
		t.Fatalf("String = %s", s)
	}
	back, err := ParseView([]byte(v.String()))
	if err != nil || back.String() != v.String() {
		t.Fatalf("round trip %v %v", back, err)
	}
	// A plain mesh prints as a mesh and is the row-major view.
	m := mustMesh(t, []string{"dp", "tp"}, []int{2, 4})
	if !m.IsPlain() || m.String() != `{"mesh_dim_names":["dp","tp"],"mesh_shape":[2,4]}` {
		t.Fatalf("plain mesh %s", m)
	}
	// Flatten, unflatten (the identity), slice.
	f, err := m.Flatten("dp_tp", "dp", "tp")
	if err != nil || !slices.Equal(f.Names(), []string{"dp_tp"}) || f.Size() != 8 {
		t.Fatalf("Flatten %v %v", f, err)
	}
	u, err := f.Unflatten("dp_tp", []int{2, 4}, "dp", "tp")
	if err != nil || u.String() != m.String() {
		t.Fatalf("Unflatten %v %v", u, err)
	}
	s, err := m.Slice("dp")
	if err != nil || s.InstanceCount() != 4 || s.RankCount() != 8 {
		t.Fatalf("Slice %v %v", s, err)
	}
	if g, err := s.Groups("dp"); err != nil || !equalGroups(g, [][]int{{0, 4}, {1, 5}, {2, 6}, {3, 7}}) {
		t.Fatalf("slice groups %v %v", g, err)
	}
}

// TestViewEquality checks that Equal compares layouts as the library does:
// the dp slice of (dp=2, tp=2) (ranks {0, 2}) is not the plain mesh dp=2
// (ranks {0, 1}), though both have names [dp] and shape [2].
func TestViewEquality(t *testing.T) {
	m := mustMesh(t, []string{"dp", "tp"}, []int{2, 2})
	slice, err := m.Slice("dp")
	if err != nil {
		t.Fatal(err)
	}
	again, err := m.Slice("dp")
	if err != nil {
		t.Fatal(err)
	}
	text, err := slice.ViewJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseView([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	plain := mustMesh(t, []string{"dp"}, []int{2})
	if slice.Equal(plain) || plain.Equal(slice) {
		t.Fatalf("the dp slice %s equals the plain mesh %s", slice, plain)
	}
	if !slice.Equal(again) || !slice.Equal(back) || !plain.Equal(mustMesh(t, []string{"dp"}, []int{2})) {
		t.Fatal("equal layouts compare unequal")
	}
	if slice.Hash() != plain.Hash() { // the hash covers names and shape only: equal values hash alike
		t.Fatalf("hash %x != %x", slice.Hash(), plain.Hash())
	}
}

func TestViewErrors(t *testing.T) {
	_, err := NewView([]string{"a", "b"}, []int{2, 2}, []int{1, 1}, 0)
	wantErr(t, err, ErrRankCollision, "appears twice")
	_, err = NewView([]string{"a"}, []int{2}, []int{0}, 0)
	wantErr(t, err, ErrOutOfRange)
	_, err = NewView([]string{"a", "a"}, []int{2, 2}, []int{2, 1}, 0)
	wantErr(t, err, ErrDuplicateName, "a")
	m := mustMesh(t, []string{"dp", "cp", "tp"}, []int{2, 2, 2})
	_, err = m.Flatten("x", "tp", "dp")
	wantErr(t, err, ErrAxisOrder)
	_, err = m.Unflatten("dp", []int{3}, "x")
	wantErr(t, err, ErrSizeMismatch)
	f, _ := NewView([]string{"x"}, []int{4}, []int{1}, 0)
	_, err = f.Unflatten("x", []int{2, 2}, "y", "y")
	wantErr(t, err, ErrDuplicateName)
	s, _ := m.Flatten("dt", "dp", "tp")
	_, err = s.Unflatten("dt", []int{4}, "z")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Unflatten("dt", []int{1, 4}, "p", "q")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Unflatten("dt", []int{4, 1, 1}, "p", "q", "r")
	if err != nil {
		t.Fatal(err)
	}
	cut, _ := NewView([]string{"x"}, []int{6}, []int{1}, 0)
	odd, _ := cut.Flatten("x", "x")
	_ = odd
	unaligned, err := NewViewModes([]string{"x"}, []int{2}, []int{2, 4, 2, 1}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = unaligned.Unflatten("x", []int{1, 4}, "p", "q")
	if err != nil {
		_ = err
	}
	_, err = unaligned.Unflatten("x", []int{4, 1}, "p", "q")
	_, err = unaligned.Unflatten("x", []int{8, 1}, "p", "q")
	wantErr(t, err, ErrSizeMismatch)
	_, err = ParseView([]byte(`{"dim_names":["a"]`))
	wantErr(t, err, ErrParse)
	var nilView *View
	_, err = nilView.Flatten("x", "a")
	wantErr(t, err, ErrInvalidArgument, "nil")
}

func TestWorld(t *testing.T) {
	dense := mustMesh(t, []string{"dp", "tp"}, []int{2, 4})
	expert, err := dense.Unflatten("tp", []int{2, 2}, "ep", "etp")
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWorld(8, []string{"dense", "expert"}, []*View{dense, expert})
	if err != nil {
		t.Fatal(err)
	}
	if w.Size() != 8 || !slices.Equal(w.ViewNames(), []string{"dense", "expert"}) || w.ViewIndex("expert") != 1 || w.ViewIndex("x") != -1 {
		t.Fatalf("world %d %v", w.Size(), w.ViewNames())
	}
	if w.AxisView("ep") != "expert" || w.AxisView("dp") != "dense" || w.AxisView("zz") != "" {
		t.Fatalf("AxisView %q %q", w.AxisView("ep"), w.AxisView("dp"))
	}
	v, err := w.View("expert")
	if g, err2 := v.Groups("ep"); err != nil || err2 != nil || !equalGroups(g, [][]int{{0, 2}, {1, 3}, {4, 6}, {5, 7}}) {
		t.Fatalf("expert ep groups %v %v %v", g, err, err2)
	}
	s, err := w.Slice("dp", "ep")
	if err != nil || !slices.Equal(s.Names(), []string{"dp", "ep"}) {
		t.Fatalf("Slice %v %v", s, err)
	}
	_, err = w.View("nope")
	wantErr(t, err, ErrUnknownView, "nope")
	// JSON round trip, and readable printing.
	text := w.String()
	if !strings.Contains(text, `"dense"`) || !strings.Contains(text, `"world_size":8`) {
		t.Fatalf("String = %s", text)
	}
	back, err := ParseWorld([]byte(text))
	if err != nil || back.String() != text {
		t.Fatalf("round trip %v", err)
	}
	path := filepath.Join(t.TempDir(), "world.json")
	os.WriteFile(path, []byte(text), 0o644)
	if l, err := LoadWorld(path); err != nil || l.String() != text {
		t.Fatalf("LoadWorld %v", err)
	}
	_, err = LoadWorld(path + ".missing")
	wantErr(t, err, ErrIO)
	// Consistency: tp in two views with different groups.
	other := mustMesh(t, []string{"tp", "dp"}, []int{4, 2})
	_, err = NewWorld(8, []string{"a", "b"}, []*View{dense, other})
	wantErr(t, err, ErrViewConflict, "disagree")
	_, err = NewWorld(4, []string{"a"}, []*View{dense})
	wantErr(t, err, ErrOutsideWorld)
	_, err = NewWorld(8, []string{"a", "b"}, []*View{dense})
	wantErr(t, err, ErrLengthMismatch, "2 view names but 1 views")
	w.Close()
	if w.Size() != 0 {
		t.Fatal("closed world still answers")
	}
}

func TestPresetObject(t *testing.T) {
	p, err := NewPreset("megatron", []string{"tensor_model_parallel_size=2", "expert_model_parallel_size=2"}, 8)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "megatron" || p.WorldSize() != 8 || !slices.Equal(p.Views(), []string{"dense", "expert"}) {
		t.Fatalf("preset %s %d %v", p.Name(), p.WorldSize(), p.Views())
	}
	lists := p.GroupLists()
	if len(lists) < 10 || lists[0] != "dp_cp" {
		t.Fatalf("GroupLists %v", lists)
	}
	tp, err := p.GroupList("tp")
	if err != nil || !equalGroups(tp, [][]int{{0, 1}, {2, 3}, {4, 5}, {6, 7}}) {
		t.Fatalf("GroupList(tp) = %v %v", tp, err)
	}
	_, err = p.GroupList("nope")
	wantErr(t, err, ErrInvalidArgument, "nope")
	w, err := p.World()
	if err != nil || w.Size() != 8 || len(w.ViewNames()) != 2 {
		t.Fatalf("World %v %v", w, err)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(p.String()), &doc); err != nil || doc["groups"] == nil {
		t.Fatalf("String is not the document: %v", err)
	}
	_, err = NewPreset("megatron", []string{"tensor_model_parallel_size=3"}, 8)
	wantErr(t, err, ErrInvalidArgument)
}

func TestLoadMesh(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	os.WriteFile(path, []byte(`{"mesh_dim_names":["dp","tp"],"mesh_shape":[2,4]}`), 0o644)
	m, err := LoadMesh(path)
	if err != nil || m.Size() != 8 {
		t.Fatalf("LoadMesh %v %v", m, err)
	}
	_, err = LoadMesh(filepath.Join(dir, "none.json"))
	wantErr(t, err, ErrIO, "none.json")
	_, err = LoadMesh(dir)
	wantErr(t, err, ErrIO)
	os.WriteFile(path, []byte(`{"mesh_dim_names":["dp"],"mesh_shape":[2]} GARBAGE`), 0o644)
	_, err = LoadMesh(path)
	wantErr(t, err, ErrParse)
	_, err = LoadMesh("a\x00b")
	wantErr(t, err, ErrIO, `a\xC0\x80b`)
}

func TestWorldSizeStep(t *testing.T) {
	for _, v := range []string{"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	n, src, err := ResolveWorldSize(0)
	if err != nil || n != 1 || src != WorldSizeDefault || src.Variable() != "" || !strings.Contains(src.String(), "the default") {
		t.Fatalf("default: %d %v %v", n, src, err)
	}
	n, src, err = ResolveWorldSize(16)
	if err != nil || n != 16 || src != WorldSizeExplicit {
		t.Fatalf("explicit: %d %v %v", n, src, err)
	}
	_, _, err = ResolveWorldSize(-8)
	wantErr(t, err, ErrInvalidArgument, "-8")
	t.Setenv("PMI_SIZE", "12")
	n, src, err = ResolveWorldSize(0)
	if err != nil || n != 12 || src != WorldSizeFromPMI || src.Variable() != "PMI_SIZE" || src.String() != "from PMI_SIZE" {
		t.Fatalf("PMI: %d %v %q %v", n, src, src.Variable(), err)
	}
	if s := WorldSizeSource(99).String(); s != "WorldSizeSource(99)" {
		t.Fatalf("unknown source prints %q", s)
	}
	t.Setenv("PMI_SIZE", "x")
	_, _, err = ResolveWorldSize(0)
	wantErr(t, err, ErrInvalidArgument, "PMI_SIZE")
	os.Unsetenv("PMI_SIZE")

	// The pure projection leaves dp to the world-size step.
	yaml := []byte("accelerator:\n  tp_size: 2\n  pp_size: 2\n")
	d, err := ProjectParallelDims(yaml)
	if err != nil || d != (ParallelDims{DP: 0, TP: 2, CP: 1, EP: 1, PP: 2}) {
		t.Fatalf("Project = %+v %v", d, err)
	}
	r, src, err := d.ResolveWorldSize(16)
	if err != nil || r.DP != 4 || src != WorldSizeExplicit {
		t.Fatalf("ResolveWorldSize = %+v %v %v", r, src, err)
	}
	_, _, err = d.ResolveWorldSize(0)
	wantErr(t, err, ErrInvalidArgument, "world size 1 (the default", "not divisible by tp*cp*pp = 4")
	_, _, err = d.ResolveWorldSize(-1)
	wantErr(t, err, ErrInvalidArgument, "-1")
	a, err := d.ApplyWorldSize(8, WorldSizeFromWorldSize)
	if err != nil || a.DP != 2 {
		t.Fatalf("ApplyWorldSize = %+v %v", a, err)
	}
	_, err = d.ApplyWorldSize(6, WorldSizeExplicit)
	wantErr(t, err, ErrInvalidArgument, "6")
	given := ParallelDims{DP: 2, TP: 2, CP: 1, EP: 1, PP: 1}
	_, err = given.ApplyWorldSize(8, WorldSizeExplicit)
	wantErr(t, err, ErrInvalidArgument, "8")
	if ok, err := given.ApplyWorldSize(8, WorldSizeDefault); err != nil || ok.DP != 2 {
		t.Fatalf("default checks nothing: %+v %v", ok, err)
	}
	_, err = d.ApplyWorldSize(8, WorldSizeUnresolved)
	wantErr(t, err, ErrInvalidArgument)
	// Given dp in YAML is kept (and checked).
	d, err = ProjectParallelDims([]byte("accelerator:\n  dp_size: 2\n"))
	if err != nil || d.DP != 2 {
		t.Fatalf("given dp: %+v %v", d, err)
	}
	// Negative world size: the library's error, as the CLI's --world-size.
	_, err = ParseParallelDims(yaml, -4)
	wantErr(t, err, ErrInvalidArgument, "-4")
	path := filepath.Join(t.TempDir(), "t.yaml")
	os.WriteFile(path, yaml, 0o644)
	_, err = LoadParallelDims(path, -4)
	wantErr(t, err, ErrInvalidArgument, "-4")
	if d, err := ReadParallelDims(path); err != nil || d.DP != 0 || d.PP != 2 {
		t.Fatalf("ReadParallelDims %+v %v", d, err)
	}
	_, err = ReadParallelDims(path + "x")
	wantErr(t, err, ErrIO)
	_, err = ProjectParallelDims([]byte("accelerator:\n  tp_size: two\n"))
	wantErr(t, err, ErrParse, "tp_size")
}

func TestHierarchyQueries(t *testing.T) {
	h, err := ParseHierarchy("host=4,nvl=8")
	if err != nil {
		t.Fatal(err)
	}
	if i, err := h.LevelIndex("nvl"); err != nil || i != 1 {
		t.Fatalf("LevelIndex %d %v", i, err)
	}
	_, err = h.LevelIndex("rack")
	wantErr(t, err, ErrInvalidArgument, "rack")
	k0, err0 := h.RanksPerDomain(0)
	k1, err1 := h.RanksPerDomain(1)
	if k0 != 4 || k1 != 8 || err0 != nil || err1 != nil || h.Ranks() != 0 {
		t.Fatalf("sizes %d %d %d (%v, %v)", k0, k1, h.Ranks(), err0, err1)
	}
	if d, err := h.DomainOf(0, 9); err != nil || d != 2 {
		t.Fatalf("DomainOf %d %v", d, err)
	}
	_, err = h.DomainOf(5, 0)
	wantErr(t, err, ErrOutOfRange)
	if l, err := h.DomainLabel(0, 2); err != nil || l == "" {
		t.Fatalf("DomainLabel %q %v", l, err)
	}
	if s := h.String(); !strings.Contains(s, `"host"`) {
		t.Fatalf("String %s", s)
	}
	f, err := ReadHostfile([]byte("a slots=2\nb slots=2\n"))
	if err != nil || f.Ranks() != 4 {
		t.Fatalf("hostfile %v", err)
	}
	if l, err := f.DomainLabel(0, 1); err != nil || l != "b" {
		t.Fatalf("hostfile label %q %v", l, err)
	}
}

func TestOrderAdvice(t *testing.T) {
	h, _ := ParseHierarchy("host=4")
	d := ParallelDims{DP: 2, TP: 4, CP: 1, EP: 1, PP: 1}
	advice, err := AdviseOrder(d, h, "tp:host", "", "")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Orders []struct {
			Broken []string
			Torch  string
		}
	}
	if err := json.Unmarshal([]byte(advice), &doc); err != nil || len(doc.Orders) != 2 || doc.Orders[0].Torch != "dp,tp" || len(doc.Orders[0].Broken) != 0 || len(doc.Orders[1].Broken) != 1 {
		t.Fatalf("advice %s %v", advice, err)
	}
	broken, err := CheckOrder(d, h, "tp,dp", "tp:host")
	if err != nil || len(broken) != 1 || !strings.Contains(broken[0], "tp") {
		t.Fatalf("CheckOrder %q %v", broken, err)
	}
	if ok, err := CheckOrder(d, h, "dp,tp", "tp:host"); err != nil || len(ok) != 0 || ok == nil {
		t.Fatalf("CheckOrder ok %q %v", ok, err)
	}
	_, err = AdviseOrder(d, h, "tp:rack", "", "")
	wantErr(t, err, ErrInvalidArgument, "rack")
	_, err = AdviseOrder(d, h, "", "", "tp>zz")
	wantErr(t, err, ErrInvalidArgument)
	_, err = CheckOrder(d, h, "tp", "")
	wantErr(t, err, ErrInvalidArgument)
}

// The remaining error paths of the views, worlds, presets and hierarchy
// calls, each by status.
func TestMoreErrorPaths(t *testing.T) {
	m := mustMesh(t, []string{"dp", "tp"}, []int{2, 4})
	_, err := m.Modes(5)
	wantErr(t, err, ErrOutOfRange)
	_, err = NewViewModes([]string{"a"}, []int{1}, []int{2}, nil, 0)
	wantErr(t, err, ErrLengthMismatch)
	w, err := NewWorld(8, []string{"m"}, []*View{m})
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.Slice("zz")
	wantErr(t, err, ErrUnknownAxis, "zz")
	_, err = ParseWorld([]byte(`{"world_size":8}`))
	wantErr(t, err, ErrParse)
	_, err = ParseWorld([]byte(`{"world_size":8,"views":{"a":` + m.String() + `}} x`))
	wantErr(t, err, ErrParse)
	_, err = LoadPreset(filepath.Join(t.TempDir(), "none.yaml"), 8)
	wantErr(t, err, ErrIO)
	_, err = NewPreset("nope", nil, 8)
	wantErr(t, err, ErrInvalidArgument, "nope")
	_, err = NewPreset("megatron", []string{"tensor_model_parallel_sise=2"}, 8)
	wantErr(t, err, ErrInvalidArgument, "tensor_model_parallel_size")
	h, _ := ParseHierarchy("host=4")
	_, err = h.DomainLabel(3, 0)
	wantErr(t, err, ErrOutOfRange)
	_, _, err = ResolveWorldSize(1 << 31)
	wantErr(t, err, ErrOutOfRange)
	_, err = (ParallelDims{TP: -1}).ApplyWorldSize(8, WorldSizeExplicit)
	wantErr(t, err, ErrInvalidArgument, "-1")
	_, _, err = (ParallelDims{TP: 1 << 31}).ResolveWorldSize(8)
	wantErr(t, err, ErrOutOfRange)
	_, err = CheckOrder(ParallelDims{DP: 2, TP: 4}, h, "tp,dp", "tp:rack")
	wantErr(t, err, ErrInvalidArgument, "rack")
}

func TestPrinting(t *testing.T) {
	m := mustMesh(t, []string{"dp", "tp"}, []int{2, 4})
	want := `{"mesh_dim_names":["dp","tp"],"mesh_shape":[2,4]}`
	var nilMesh *Mesh
	if fmt.Sprint(m) != want || fmt.Sprint(nilMesh) != "<nil>" {
		t.Fatalf("mesh prints %v / %v", m, nilMesh)
	}
	h, _ := ParseHierarchy("host=4")
	loc, err := h.Locality(m, "tp")
	if err != nil || fmt.Sprint(loc[0]) != "LevelLocality{Level:host Groups:2 GroupsInside:2 GroupsCrossing:0 MaxDomains:1 PPNMin:4 PPNMax:4 WorstGroup:0 FirstCrossing:-1 CrossingRank:-1}" {
		t.Fatalf("locality prints %v (%v)", loc, err)
	}
	for _, s := range []fmt.Stringer{h, WorldSizeExplicit, UnknownKey, ErrParse} {
		if p := fmt.Sprint(s); strings.Contains(p, "0x") || p == "" {
			t.Errorf("%T prints %q", s, p)
		}
	}
}

func TestFlattenDefaultNameAndSliceEdges(t *testing.T) {
	m := mustMesh(t, []string{"dp", "cp", "tp"}, []int{2, 2, 2})
	f, err := m.Flatten("", "dp", "tp")
	if err != nil || !slices.Equal(f.Names(), []string{"dp_tp"}) {
		t.Fatalf("default name: %v %v", f, err)
	}
	if s, err := m.Slice("zz"); err != nil || s.NDim() != 0 {
		t.Fatalf("absent axis: %v %v", s, err)
	}
	_, err = m.Slice()
	wantErr(t, err, ErrInvalidArgument, "no axes")
}

// torchtitan's single-axis meshes equal the vectors' (single_axis,
// one_dimensional_active), and other presets refuse the call.
func TestPresetSingleAxes(t *testing.T) {
	checked := 0
	for i, raw := range loadVectors(t, "torchtitan") {
		c := decodeCase(t, raw)
		var want map[string]json.RawMessage
		_ = json.Unmarshal(raw, &want)
		if c.expectsError() || want["single_axis"] == nil {
			continue
		}
		p, err := NewPreset("torchtitan", paramTexts(c.Params), c.WorldSize)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		text, err := p.SingleAxes()
		var got map[string]any
		if err != nil || json.Unmarshal([]byte(text), &got) != nil {
			t.Fatalf("case %d: %q %v", i, text, err)
		}
		var active any
		_ = json.Unmarshal(want["one_dimensional_active"], &active)
		if !reflect.DeepEqual(got["one_dimensional_active"], active) {
			t.Errorf("case %d: one_dimensional_active = %v, want %v", i, got["one_dimensional_active"], active)
		}
		// Each axis: the vector's fields, and its groups are those of
		// mesh_dim_name in from_view (through the Go World).
		var axes map[string]map[string]any
		_ = json.Unmarshal(want["single_axis"], &axes)
		gotAxes, _ := got["single_axis"].(map[string]any)
		w, _ := p.World()
		for name, rec := range axes {
			groups := rec["groups"]
			delete(rec, "groups")
			if !reflect.DeepEqual(gotAxes[name], any(rec)) {
				t.Errorf("case %d: single_axis[%s] = %v, want %v", i, name, gotAxes[name], rec)
				continue
			}
			v, err := w.View(rec["from_view"].(string))
			if err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
			g, err := v.Groups(rec["mesh_dim_name"].(string))
			gj, _ := json.Marshal(g)
			wj, _ := json.Marshal(groups)
			if err != nil || string(gj) != string(wj) {
				t.Errorf("case %d: %s groups %s %v, want %s", i, name, gj, err, wj)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no torchtitan case has single_axis")
	}
	p, _ := NewPreset("megatron", nil, 8)
	_, err := p.SingleAxes()
	wantErr(t, err, ErrInvalidArgument, "torchtitan")
}
