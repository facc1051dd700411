package offlinemesh

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The hostile-argument sweep of the exported API (session 7): what a
// throwaway program calling every function and method with ~40 hostile
// values per argument found, plus a representative table of the rest.
// Each case either fails with an *Error of a status whose message holds
// fragments naming the value, or succeeds with a value (printed with %v);
// none may panic.

type sweepCase struct {
	name   string
	call   func() (any, error)
	status Status   // OK: the call succeeds and prints as want
	want   string   // the value (%v) when status is OK
	msg    []string // fragments of the message otherwise
}

func runSweep(t *testing.T, cases []sweepCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panicked: %v", r)
				}
			}()
			v, err := c.call()
			if c.status == OK {
				if err != nil {
					t.Fatalf("error %v, want %s", err, c.want)
				}
				if got := fmt.Sprint(v); got != c.want {
					t.Fatalf("got %s, want %s", got, c.want)
				}
				return
			}
			wantErr(t, err, c.status, c.msg...)
		})
	}
}

// ok and fail build cases; val wraps a call without an error.
func ok(name, want string, call func() (any, error)) sweepCase {
	return sweepCase{name: name, call: call, want: want}
}

func fail(name string, s Status, call func() (any, error), msg ...string) sweepCase {
	return sweepCase{name: name, call: call, status: s, msg: msg}
}

func val[T any](f func() T) func() (any, error) { return func() (any, error) { return f(), nil } }

func res[T any](f func() (T, error)) func() (any, error) {
	return func() (any, error) { return f() }
}

func res0(f func() error) func() (any, error) { return func() (any, error) { return nil, f() } }

// Nil, zero and closed Worlds, Presets, Hierarchies and Experts answer as
// C's NULL: getters give zero values, fallible calls ErrInvalidArgument.
// Before: a nil *World, *Preset or *Experts panicked in every method, and
// the zero World, Preset and Hierarchy (what a failed ParseHierarchy
// returns) panicked in String and MarshalJSON.
func TestSweepNilZeroClosedObjects(t *testing.T) {
	m := MustMesh([]string{"dp", "tp"}, []int{2, 4})
	closedWorld, err := NewWorld(8, []string{"dense"}, []*View{m})
	if err != nil {
		t.Fatal(err)
	}
	closedWorld.Close()
	closedPreset, err := NewPreset("megatron", []string{"tensor_model_parallel_size=2"}, 8)
	if err != nil {
		t.Fatal(err)
	}
	closedPreset.Close()
	closedH, err := ParseHierarchy("host=4")
	if err != nil {
		t.Fatal(err)
	}
	copyH := closedH
	closedH.Close()
	failedH, err := ParseHierarchy("host=8,rack=4")
	wantErr(t, err, ErrInvalidArgument, "host")

	var cases []sweepCase
	for name, w := range map[string]*World{"nil": nil, "zero": {}, "closed": closedWorld} {
		cases = append(cases,
			ok(name+" World.Size", "0", val(w.Size)),
			ok(name+" World.ViewNames", "[]", val(w.ViewNames)),
			ok(name+" World.ViewIndex", "-1", val(func() int { return w.ViewIndex("dense") })),
			ok(name+" World.AxisView", "", val(func() string { return w.AxisView("tp") })),
			ok(name+" World.String", "<offlinemesh: world is NULL>", val(w.String)),
			fail(name+" World.MarshalJSON", ErrInvalidArgument, res(w.MarshalJSON), "world is NULL"),
			fail(name+" World.View", ErrInvalidArgument, res(func() (*View, error) { return w.View("dense") }),
				"world is NULL"),
			fail(name+" World.Slice", ErrInvalidArgument, res(func() (*View, error) { return w.Slice("tp") }),
				"world is NULL"),
			ok(name+" World.Close", "<nil>", res0(w.Close)))
	}
	for name, p := range map[string]*Preset{"nil": nil, "zero": {}, "closed": closedPreset} {
		cases = append(cases,
			ok(name+" Preset.Name", "", val(p.Name)),
			ok(name+" Preset.WorldSize", "0", val(p.WorldSize)),
			ok(name+" Preset.Views", "[]", val(p.Views)),
			ok(name+" Preset.GroupLists", "[]", val(p.GroupLists)),
			ok(name+" Preset.String", "<offlinemesh: preset is NULL>", val(p.String)),
			fail(name+" Preset.MarshalJSON", ErrInvalidArgument, res(p.MarshalJSON), "preset is NULL"),
			fail(name+" Preset.GroupList", ErrInvalidArgument,
				res(func() ([][]int, error) { return p.GroupList("tp") }), "preset or name is NULL"),
			fail(name+" Preset.World", ErrInvalidArgument, res(p.World), "preset is NULL"),
			fail(name+" Preset.SingleAxes", ErrInvalidArgument, res(p.SingleAxes), "preset is NULL"),
			ok(name+" Preset.Close", "<nil>", res0(p.Close)))
	}
	for name, h := range map[string]Hierarchy{"zero": {}, "closed": closedH, "copy of closed": copyH,
		"failed ParseHierarchy": failedH} {
		cases = append(cases,
			ok(name+" Hierarchy.Levels", "[]", val(h.Levels)),
			ok(name+" Hierarchy.Ranks", "0", val(h.Ranks)),
			ok(name+" Hierarchy.String", "<offlinemesh: hierarchy is NULL>", val(h.String)),
			fail(name+" Hierarchy.MarshalJSON", ErrInvalidArgument, res(h.MarshalJSON), "hierarchy is NULL"),
			fail(name+" Hierarchy.LevelIndex", ErrInvalidArgument,
				res(func() (int, error) { return h.LevelIndex("host") }), "hierarchy is NULL"),
			fail(name+" Hierarchy.RanksPerDomain", ErrInvalidArgument,
				res(func() (int, error) { return h.RanksPerDomain(0) }), "hierarchy is NULL"),
			fail(name+" Hierarchy.DomainOf", ErrInvalidArgument,
				res(func() (int, error) { return h.DomainOf(0, 0) }), "hierarchy is NULL"),
			fail(name+" Hierarchy.DomainLabel", ErrInvalidArgument,
				res(func() (string, error) { return h.DomainLabel(0, 0) }), "hierarchy is NULL"),
			fail(name+" Hierarchy.Check", ErrInvalidArgument,
				res(func() ([]string, error) { return h.Check(m, "tp:host") }), "hierarchy is NULL"),
			fail(name+" Hierarchy.Locality", ErrInvalidArgument,
				res(func() ([]LevelLocality, error) { return h.Locality(m, "tp") }), "hierarchy is NULL"),
			fail(name+" AdviseOrder", ErrInvalidArgument, res(func() (string, error) {
				return AdviseOrder(DefaultParallelDims(), h, "", "", "")
			}), "NULL"),
			ok(name+" Hierarchy.Close", "<nil>", res0(h.Close)))
	}
	var nilX *Experts
	cases = append(cases,
		ok("nil Experts.EP", "1", val(nilX.EP)),
		ok("nil Experts.EDP", "1", val(nilX.EDP)),
		ok("nil Experts.LocalExperts", "0", val(nilX.LocalExperts)),
		ok("nil Experts.String", "<nil>", val(nilX.String)),
		fail("nil Experts.EPGroups", ErrInvalidArgument, res(nilX.EPGroups), "mesh is NULL"),
		fail("nil Experts.EDPGroups", ErrInvalidArgument, res(nilX.EDPGroups), "mesh is NULL"),
		fail("nil Experts.EPGroupOf", ErrInvalidArgument,
			res(func() ([]int, error) { return nilX.EPGroupOf(0) }), "mesh is NULL"),
		fail("nil Experts.EDPGroupOf", ErrInvalidArgument,
			res(func() ([]int, error) { return nilX.EDPGroupOf(0) }), "mesh is NULL"))
	runSweep(t, cases)
}

// Indexes of levels and axes: C takes a size_t, so a negative Go index
// reached it as 2^64-1 and the message named 18446744073709551615; and
// RanksPerDomain answered 0 for a level out of range where DomainOf fails.
func TestSweepIndexes(t *testing.T) {
	h, err := ParseHierarchy("host=4,rack=8")
	if err != nil {
		t.Fatal(err)
	}
	hf, err := ReadHostfile([]byte("a slots=4\nb slots=4\n"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewView([]string{"a", "b"}, []int{2, 2}, []int{4, 1}, 3)
	if err != nil {
		t.Fatal(err)
	}
	cases := []sweepCase{
		ok("RanksPerDomain(0)", "4", res(func() (int, error) { return h.RanksPerDomain(0) })),
		ok("RanksPerDomain(1)", "8", res(func() (int, error) { return h.RanksPerDomain(1) })),
		ok("RanksPerDomain of an explicit level", "0", res(func() (int, error) { return hf.RanksPerDomain(0) })),
		ok("DomainOf(1, 9)", "1", res(func() (int, error) { return h.DomainOf(1, 9) })),
		ok("DomainLabel of a host", "b", res(func() (string, error) { return hf.DomainLabel(0, 1) })),
		ok("Modes(1)", "[2 1]", res(func() ([]int, error) { return v.Modes(1) })),
	}
	for _, level := range []int{-1, 2, math.MaxInt32 + 1, math.MaxInt64, math.MinInt64} {
		want := fmt.Sprintf("level %d is outside the 2 levels of the hierarchy", level)
		cases = append(cases,
			fail(fmt.Sprintf("RanksPerDomain(%d)", level), ErrOutOfRange,
				res(func() (int, error) { return h.RanksPerDomain(level) }), want),
			fail(fmt.Sprintf("DomainOf(%d, 0)", level), ErrOutOfRange,
				res(func() (int, error) { return h.DomainOf(level, 0) }), want),
			fail(fmt.Sprintf("DomainLabel(%d, 0)", level), ErrOutOfRange,
				res(func() (string, error) { return h.DomainLabel(level, 0) }), want))
	}
	for _, i := range []int{-1, 2, math.MinInt32, math.MaxInt64, math.MinInt64} {
		cases = append(cases, fail(fmt.Sprintf("Modes(%d)", i), ErrOutOfRange,
			res(func() ([]int, error) { return v.Modes(i) }),
			fmt.Sprintf("axis index %d is outside the view of 2 axes", i)))
	}
	cases = append(cases,
		fail("RanksPerDomain(1) of one level", ErrOutOfRange, res(func() (int, error) { return hf.RanksPerDomain(1) }),
			"level 1 is outside the 1 levels"),
		fail("DomainOf(0, -1)", ErrOutOfRange, res(func() (int, error) { return h.DomainOf(0, -1) }), "rank -1"),
		fail("DomainLabel(0, -1)", ErrOutOfRange, res(func() (string, error) { return h.DomainLabel(0, -1) }),
			"domain -1"))
	runSweep(t, cases)
}

// Launch: a closed or zero Hierarchy was NULL to C, which means the default
// host=ProcsPerNode, so Check judged the job against levels nobody gave; a
// node count past int64 in the product printed a wrapped product (C).
func TestSweepLaunch(t *testing.T) {
	m := MustMesh([]string{"dp", "tp"}, []int{2, 4})
	h, err := ParseHierarchy("host=8") // not the 4 processes per node
	if err != nil {
		t.Fatal(err)
	}
	closedH, err := ParseHierarchy("host=8")
	if err != nil {
		t.Fatal(err)
	}
	closedH.Close()
	zero := Hierarchy{}
	check := func(l Launch) func() (any, error) {
		return res(func() ([]string, error) { return l.Check(m) })
	}
	runSweep(t, []sweepCase{
		ok("default hierarchy", "[]", check(Launch{Nodes: 2, ProcsPerNode: 4})),
		ok("given hierarchy", "[level host has 8 ranks per domain but nproc_per_node is 4]",
			check(Launch{Nodes: 2, ProcsPerNode: 4, Hierarchy: &h})),
		fail("closed hierarchy", ErrInvalidArgument, check(Launch{Nodes: 2, ProcsPerNode: 4, Hierarchy: &closedH}),
			"hierarchy is NULL (a closed or zero Hierarchy)"),
		fail("zero hierarchy", ErrInvalidArgument, check(Launch{Nodes: 2, ProcsPerNode: 4, Hierarchy: &zero}),
			"hierarchy is NULL"),
		fail("nil mesh first", ErrInvalidArgument,
			res(func() ([]string, error) { return Launch{Nodes: 2, ProcsPerNode: 4, Hierarchy: &zero}.Check(nil) }),
			"mesh is NULL"),
		ok("nodes 2^63-1", "[world size 8 (the mesh) is not nnodes*nproc_per_node = 9223372036854775807*4, over 2^63-1]",
			check(Launch{Nodes: math.MaxInt64, ProcsPerNode: 4})),
		ok("nodes 2^31", "[world size 8 (the mesh) is not nnodes*nproc_per_node = 2147483648*4 = 8589934592]",
			check(Launch{Nodes: 1 << 31, ProcsPerNode: 4})),
		fail("nodes 0", ErrInvalidArgument, check(Launch{Nodes: 0, ProcsPerNode: 4}), "nnodes must be 1..2147483647, got 0"),
		fail("procs 2^31", ErrInvalidArgument, check(Launch{Nodes: 2, ProcsPerNode: 1 << 31}),
			"nproc_per_node must be 1..2147483647, got 2147483648"),
		fail("plan: nodes min int64", ErrInvalidArgument,
			res(func() (string, error) { return Launch{Nodes: math.MinInt64, ProcsPerNode: 4}.Plan(m) }),
			"nnodes must be >= 1, got -9223372036854775808"),
		fail("plan: product wraps to the mesh size", ErrInvalidArgument,
			res(func() (string, error) { return Launch{Nodes: 1<<62 + 2, ProcsPerNode: 4}.Plan(m) }),
			"the mesh has 8 ranks, not nnodes*nproc_per_node = 4611686018427387906*4"),
		fail("plan: port 2^32", ErrInvalidArgument,
			res(func() (string, error) { return Launch{Nodes: 2, ProcsPerNode: 4, MasterPort: 1 << 32}.Plan(m) }),
			"master port 4294967296 is outside 1..65535"),
		fail("plan: format with NUL", ErrInvalidArgument,
			res(func() (string, error) { return Launch{Nodes: 2, ProcsPerNode: 4, Format: "slurm\x00"}.Plan(m) }),
			`slurm\xC0\x80`),
		fail("plan: duplicate hosts", ErrInvalidArgument,
			res(func() (string, error) { return Launch{Nodes: 2, ProcsPerNode: 4, Hosts: []string{"a", "a"}}.Plan(m) }),
			"a"),
		fail("plan: one host for two nodes", ErrInvalidArgument,
			res(func() (string, error) { return Launch{Nodes: 2, ProcsPerNode: 4, Hosts: []string{"a"}}.Plan(m) }),
			"2"),
	})
}

// Meshes after Close keep their Go copy; a closed view's layout is gone,
// so it equals nothing (two closed views of one shape were equal whatever
// their layouts: both were C's NULL).
func TestSweepClosedMeshes(t *testing.T) {
	a, err := NewView([]string{"a", "b"}, []int{2, 2}, []int{4, 1}, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewView([]string{"a", "b"}, []int{2, 2}, []int{1, 2}, 0)
	if err != nil {
		t.Fatal(err)
	}
	same, err := ParseView([]byte(a.String()))
	if err != nil {
		t.Fatal(err)
	}
	if a.Equal(b) || !a.Equal(same) {
		t.Fatalf("open views: a == b %v, a == same %v", a.Equal(b), a.Equal(same))
	}
	a.Close()
	b.Close()
	if a.Equal(b) || a.Equal(same) || same.Equal(a) {
		t.Fatalf("closed views compare: a == b %v, a == same %v", a.Equal(b), a.Equal(same))
	}
	m := MustMesh([]string{"dp", "tp"}, []int{2, 4})
	c := *m
	m.Close()
	if !c.Equal(MustMesh([]string{"dp", "tp"}, []int{2, 4})) || c.Size() != 8 || c.SizeOf("tp") != 4 {
		t.Fatalf("a closed plain mesh's Go copy: %v %d %d", c.Names(), c.Size(), c.SizeOf("tp"))
	}
	runSweep(t, []sweepCase{
		// Getters without an error answer as for C's NULL, as documented.
		ok("RankCount", "0", val(c.RankCount)),
		ok("Hash", "0", val(c.Hash)),
		ok("Holds", "false", val(func() bool { return c.Holds(0) })),
		ok("String", "<invalid mesh: offlinemesh: mesh is closed>", val(c.String)),
		fail("Coordinate", ErrInvalidArgument, res(func() ([]int, error) { return c.Coordinate(0) }), "mesh is closed"),
		fail("Modes(-1)", ErrInvalidArgument, res(func() ([]int, error) { return c.Modes(-1) }), "mesh is closed"),
		fail("Flatten", ErrInvalidArgument, res(func() (*View, error) { return c.Flatten("x", "dp", "tp") }),
			"mesh is closed"),
		fail("ViewJSON", ErrInvalidArgument, res(c.ViewJSON), "mesh is closed"),
		fail("NewWorld of it", ErrInvalidArgument,
			res(func() (*World, error) { return NewWorld(8, []string{"d"}, []*View{&c}) }), "view 0 is NULL"),
		fail("ExpertLayout of it", ErrInvalidArgument,
			res(func() (*Experts, error) { return ExpertLayout(&c, 2, 0) }), "mesh is closed"),
	})
}

// A broad table over the rest of the API: boundaries of every integer
// argument, strings with NUL bytes, invalid UTF-8, empty and duplicated
// names, nil against empty slices. (Findings fixed in C: an Unflatten
// product past 2^31-1 printed as 2147483648, a size < 1 after it not
// checked; a trailing '>' in a priority ignored.)
func TestSweepTable(t *testing.T) {
	m := MustMesh([]string{"dp", "tp"}, []int{2, 4})
	h, err := ParseHierarchy("host=4")
	if err != nil {
		t.Fatal(err)
	}
	d := ParallelDims{DP: 2, TP: 4, CP: 1, EP: 1, PP: 1}
	long := strings.Repeat("n", 100000)
	yaml := filepath.Join(t.TempDir(), "train.yaml")
	if err := os.WriteFile(yaml, []byte("accelerator:\n  tp_size: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runSweep(t, []sweepCase{
		// constructors: nil and empty slices are the empty mesh
		ok("NewMesh(nil, nil)", `{"mesh_dim_names":[],"mesh_shape":[]}`,
			res(func() (*Mesh, error) { return NewMesh(nil, nil) })),
		ok("NewMesh([], [])", `{"mesh_dim_names":[],"mesh_shape":[]}`,
			res(func() (*Mesh, error) { return NewMesh([]string{}, []int{}) })),
		fail("NewMesh(nil, [2])", ErrLengthMismatch, res(func() (*Mesh, error) { return NewMesh(nil, []int{2}) }),
			"mesh_dim_names has 0 entries but mesh_shape has 1"),
		fail("NewMesh dup", ErrDuplicateName,
			res(func() (*Mesh, error) { return NewMesh([]string{"dp", "dp"}, []int{2, 2}) }), `"dp" (axes 0 and 1)`),
		fail("NewMesh NUL", ErrInvalidName, res(func() (*Mesh, error) { return NewMesh([]string{"d\x00p"}, []int{2}) }),
			`axis 0 name "d\xC0\x80p" is not valid UTF-8`),
		fail("NewMesh size -2^63", ErrBadSize,
			res(func() (*Mesh, error) { return NewMesh([]string{"dp"}, []int{math.MinInt64}) }),
			"size -9223372036854775808"),
		fail("NewMesh size 2^63-1", ErrMeshTooLarge,
			res(func() (*Mesh, error) { return NewMesh([]string{"dp"}, []int{math.MaxInt64}) }),
			"size 9223372036854775807"),
		fail("NewMesh 2^16 x 2^16", ErrMeshTooLarge,
			res(func() (*Mesh, error) { return NewMesh([]string{"a", "b"}, []int{1 << 16, 1 << 16}) }),
			"at axis 1 (size 65536)"),
		ok("NewMesh long name", "100000", res(func() (int, error) {
			x, err := NewMesh([]string{long}, []int{2})
			return len(x.Names()[0]), err
		})),
		fail("NewView stride 0", ErrOutOfRange,
			res(func() (*View, error) { return NewView([]string{"a"}, []int{2}, []int{0}, 0) }), "stride 0"),
		fail("NewView offset -1", ErrOutOfRange,
			res(func() (*View, error) { return NewView([]string{"a"}, []int{2}, []int{1}, -1) }), "offset -1"),
		fail("NewView nil strides", ErrLengthMismatch,
			res(func() (*View, error) { return NewView([]string{"a"}, []int{2}, nil, 0) }), "1 sizes and 0 strides"),
		fail("NewViewModes count -1", ErrLengthMismatch, res(func() (*View, error) {
			return NewViewModes([]string{"a"}, []int{-1}, []int{2, 1}, nil, 0)
		}), "axis 0 has -1 modes"),
		fail("NewWorld size 2^31", ErrOutOfRange,
			res(func() (*World, error) { return NewWorld(1<<31, []string{"d"}, []*View{m}) }), "world size 2147483648"),
		fail("NewWorld nil view", ErrInvalidArgument,
			res(func() (*World, error) { return NewWorld(8, []string{"d"}, []*View{nil}) }), "view 0 is NULL"),
		fail("NewWorld names without views", ErrLengthMismatch,
			res(func() (*World, error) { return NewWorld(8, []string{"d"}, nil) }), "1 view names but 0 views"),
		ok("NewWorld(nil, nil)", `{"views":{},"world_size":8}`,
			res(func() (*World, error) { return NewWorld(8, nil, nil) })),
		fail("NewWorld invalid UTF-8", ErrInvalidName,
			res(func() (*World, error) { return NewWorld(8, []string{"\xff"}, []*View{m}) }), `'\xFF'`),
		fail("ParseMesh nil", ErrParse, res(func() (*Mesh, error) { return ParseMesh(nil) }), "mesh JSON line 1"),
		fail("ParseMesh NUL", ErrParse, res(func() (*Mesh, error) { return ParseMesh([]byte("\x00")) }), "mesh JSON"),
		fail("ParseMesh 2^31", ErrMeshTooLarge, res(func() (*Mesh, error) {
			return ParseMesh([]byte(`{"mesh_dim_names":["dp"],"mesh_shape":[2147483648]}`))
		}), "size 2147483648"),
		fail("ParseMeshSpec NUL", ErrParse, res(func() (*Mesh, error) { return ParseMeshSpec("dp=2\x00") }), "dp"),
		fail("LoadMesh dir", ErrIO, res(func() (*Mesh, error) { return LoadMesh(t.TempDir()) }), "is a directory"),
		fail("LoadMesh NUL", ErrIO, res(func() (*Mesh, error) { return LoadMesh("/tmp\x00x") }), `/tmp\xC0\x80x`),
		fail("ReadHostfile NUL", ErrParse, res(func() (Hierarchy, error) { return ReadHostfile([]byte("a slots=4\x00")) }),
			"NUL byte"),
		fail("ParseHierarchy decreasing", ErrInvalidArgument,
			res(func() (Hierarchy, error) { return ParseHierarchy("host=8,rack=4") }), "host"),
		// topology: every integer at and past its boundary
		fail("Coordinate(-1)", ErrOutOfRange, res(func() ([]int, error) { return m.Coordinate(-1) }),
			"rank -1 is outside the mesh of 8 ranks"),
		fail("Coordinate(2^63-1)", ErrOutOfRange, res(func() ([]int, error) { return m.Coordinate(math.MaxInt64) }),
			"rank 9223372036854775807"),
		fail("Rank(nil)", ErrInvalidArgument, res(func() (int, error) { return m.Rank(nil) }),
			"coordinate has 0 values; the mesh has 2 axes"),
		fail("Rank(-2^63)", ErrOutOfRange, res(func() (int, error) { return m.Rank([]int{0, math.MinInt64}) }),
			"coordinate -9223372036854775808 is outside axis tp of size 4"),
		fail("GroupOf(2^31)", ErrOutOfRange, res(func() ([]int, error) { return m.GroupOf(1<<31, "tp") }),
			"rank 2147483648"),
		fail("GroupIndex(-1)", ErrOutOfRange, res(func() (int, error) { return m.GroupIndex(-1, "tp") }), "rank -1"),
		fail("GroupRange(-1, 1)", ErrOutOfRange, res(func() ([][]int, error) { return m.GroupRange(-1, 1, "tp") }),
			"1 groups from group -1 are outside the 2 groups"),
		fail("GroupRange(0, 2^63-1)", ErrOutOfRange,
			res(func() ([][]int, error) { return m.GroupRange(0, math.MaxInt64, "tp") }),
			"9223372036854775807 groups from group 0"),
		ok("GroupRange(0, 0)", "[]", res(func() ([][]int, error) { return m.GroupRange(0, 0, "tp") })),
		fail("Locality(0)", ErrInvalidArgument, res(func() (Locality, error) { return m.Locality(0, "tp") }),
			"ranks per host must be >= 1, got 0"),
		ok("Locality(2^63-1)", "Locality{Groups: 2, LocalGroups: 2, MaxHosts: 1}",
			res(func() (Locality, error) { return m.Locality(math.MaxInt64, "tp") })),
		// axis names: empty, NUL, invalid UTF-8, duplicated, with a comma
		fail(`Groups("")`, ErrUnknownAxis, res(func() ([][]int, error) { return m.Groups("") }),
			`axis "" is not in the mesh (dp, tp)`),
		fail(`Groups("t\x00p")`, ErrUnknownAxis, res(func() ([][]int, error) { return m.Groups("t\x00p") }),
			`axis "t\xC0\x80p"`),
		fail(`Groups("\xff")`, ErrUnknownAxis, res(func() ([][]int, error) { return m.Groups("\xff") }), `"\xFF"`),
		fail(`Groups("dp,tp")`, ErrUnknownAxis, res(func() ([][]int, error) { return m.Groups("dp,tp") }), `"dp,tp"`),
		fail("Groups(dp, dp)", ErrDuplicateName, res(func() ([][]int, error) { return m.Groups("dp", "dp") }),
			`"dp" is named twice`),
		ok("Groups(tp, dp)", "[[0 1 2 3 4 5 6 7]]", res(func() ([][]int, error) { return m.Groups("tp", "dp") })),
		fail("Flatten NUL name", ErrInvalidName, res(func() (*View, error) { return m.Flatten("x\x00", "dp", "tp") }),
			`x\xC0\x80`),
		fail("Flatten out of order", ErrAxisOrder, res(func() (*View, error) { return m.Flatten("x", "tp", "dp") }),
			"not in view order"),
		fail("Slice()", ErrInvalidArgument, res(func() (*View, error) { return m.Slice() }), "no axes"),
		fail("Slice(dp, dp)", ErrInvalidArgument, res(func() (*View, error) { return m.Slice("dp", "dp") }),
			"named twice"),
		fail("Unflatten(nil sizes)", ErrInvalidArgument, res(func() (*View, error) { return m.Unflatten("tp", nil) }),
			"no sizes"),
		fail("Unflatten 2^63-1 x 2", ErrSizeMismatch,
			res(func() (*View, error) { return m.Unflatten("tp", []int{math.MaxInt64, 2}, "x", "y") }),
			"the product of sizes (9223372036854775807, 2) is over 2^31-1, but axis 'tp' has size 4"),
		fail("Unflatten 2^32 x -1", ErrBadSize,
			res(func() (*View, error) { return m.Unflatten("tp", []int{1 << 32, -1}, "x", "y") }),
			"unflatten size -1 of 'tp' must be >= 1"),
		fail("Unflatten dup names", ErrDuplicateName,
			res(func() (*View, error) { return m.Unflatten("tp", []int{2, 2}, "x", "x") }), "x"),
		// preflight
		fail("ValidateAxes tp -1", ErrInvalidArgument, res0(func() error { return ValidateAxes(m, -1, 1, 1) }), "-1"),
		fail("ValidateAxes tp 2^63-1", ErrInvalidArgument,
			res0(func() error { return ValidateAxes(m, math.MaxInt64, 1, 1) }), "9223372036854775807"),
		fail("PlanDimNames ep 0", ErrInvalidArgument,
			res(func() ([]string, error) { return PlanDimNames(m, 1, 1, 0) }), "0"),
		fail("ExpertLayout ep 0", ErrInvalidArgument, res(func() (*Experts, error) { return ExpertLayout(m, 0, 0) }),
			"0"),
		fail("ExpertLayout experts -1", ErrInvalidArgument,
			res(func() (*Experts, error) { return ExpertLayout(m, 2, -1) }), "-1"),
		// dims, world size, orders
		fail("BuildOfflineMesh dp -1", ErrInvalidArgument,
			res(func() (*Mesh, error) { return BuildOfflineMesh(ParallelDims{DP: -1}) }), "dp_size must be >= 0, got -1"),
		fail("BuildOfflineMesh tp 2^31", ErrOutOfRange,
			res(func() (*Mesh, error) { return BuildOfflineMesh(ParallelDims{TP: 1 << 31}) }), "2147483648"),
		ok("ParallelDims{}.String", `{"cp_size":0,"dp_size":0,"ep_size":0,"loss_parallel":false,"pp_size":0,`+
			`"sequence_parallel":false,"tp_size":0}`, val(ParallelDims{}.String)),
		fail("ResolveWorldSize(-2^63)", ErrInvalidArgument, res(func() (int, error) {
			n, _, err := ResolveWorldSize(math.MinInt64)
			return n, err
		}), "got -9223372036854775808"),
		fail("ApplyWorldSize source 99", ErrInvalidArgument,
			res(func() (ParallelDims, error) { return d.ApplyWorldSize(8, WorldSizeSource(99)) }),
			"world size source 99 is not a resolved source"),
		ok("WorldSizeSource(99)", "WorldSizeSource(99)", val(WorldSizeSource(99).String)),
		ok("DiagnosticKind(-1)", "DiagnosticKind(-1)", val(DiagnosticKind(-1).String)),
		ok("Status(99)", "unknown status", val(Status(99).String)),
		fail("ParseParallelDims world -1", ErrInvalidArgument,
			res(func() (ParallelDims, error) { return ParseParallelDims(nil, -1) }), "got -1"),
		fail("ProjectParallelDims NUL", ErrParse,
			res(func() (ParallelDims, error) { return ProjectParallelDims([]byte("\x00")) }), "byte 0"),
		fail("NormalizeOrder NUL", ErrInvalidArgument, res(func() (string, error) { return NormalizeOrder("tp\x00") }),
			`tp\xC0\x80`),
		fail("NormalizeOrder dup", ErrInvalidArgument, res(func() (string, error) { return NormalizeOrder("tp,tp") }),
			`"tp" appears twice`),
		fail("CheckOrder empty", ErrInvalidArgument,
			res(func() ([]string, error) { return CheckOrder(d, h, "", "") }), "empty item"),
		fail("AdviseOrder priority 'tp>'", ErrInvalidArgument,
			res(func() (string, error) { return AdviseOrder(d, h, "", "", "tp>") }), `priority "tp>": "" is not one of`),
		fail("AdviseOrder rule with NUL", ErrInvalidArgument,
			res(func() (string, error) { return AdviseOrder(d, h, "tp:host\x00", "", "") }), `"host\xC0\x80"`),
		fail("Check rule 'tp:host,'", ErrInvalidArgument,
			res(func() ([]string, error) { return h.Check(m, "tp:host,") }), "a placement rule is empty"),
		// presets
		fail("NewPreset world -1", ErrInvalidArgument,
			res(func() (*Preset, error) { return NewPreset("megatron", nil, -1) }), "got -1"),
		fail("NewPreset param NUL", ErrInvalidArgument, res(func() (*Preset, error) {
			return NewPreset("megatron", []string{"tensor_model_parallel_size=2\x00"}, 8)
		}), `2\xC0\x80`),
		fail("NewPreset unknown", ErrInvalidArgument, res(func() (*Preset, error) { return NewPreset("", nil, 8) }),
			`""`),
		fail("LoadPreset world 0", ErrInvalidArgument,
			res(func() (*Preset, error) { return LoadPreset(yaml, 0) }), "no world size"),
		fail("LoadPreset world -1", ErrInvalidArgument,
			res(func() (*Preset, error) { return LoadPreset(yaml, -1) }), "world size must be >= 1, got -1"),
	})
}

// Worlds, presets and hierarchies are immutable: concurrent readers (run
// under -race by run-tests.sh) see the same answers.
func TestSweepConcurrentObjects(t *testing.T) {
	m := MustMesh([]string{"dp", "tp"}, []int{2, 4})
	w, err := NewWorld(8, []string{"dense"}, []*View{m})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPreset("megatron", []string{"tensor_model_parallel_size=2"}, 8)
	if err != nil {
		t.Fatal(err)
	}
	h, err := ParseHierarchy("host=4,rack=8")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				s, err1 := w.Slice("tp")
				tp, err2 := p.GroupList("tp")
				k, err3 := h.RanksPerDomain(1)
				broken, err4 := Launch{Nodes: 2, ProcsPerNode: 4, Hierarchy: &h, Require: "tp:host"}.Check(m)
				if err1 != nil || err2 != nil || err3 != nil || err4 != nil || s.InstanceCount() != 2 ||
					fmt.Sprint(tp) != "[[0 1] [2 3] [4 5] [6 7]]" || k != 8 || len(broken) != 0 {
					errs <- fmt.Sprint(err1, err2, err3, err4, tp, k, broken)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// GroupOf materialised any group: a group of 2^30-1 ranks made an 8 GiB
// slice, a fatal (unrecoverable) out-of-memory error where memory is short,
// while Groups and GroupRange refuse more than MaxGroupRanks ranks.
func TestSweepHugeGroups(t *testing.T) {
	m := MustMesh([]string{"dp", "tp"}, []int{1<<30 - 1, 2})
	want := "1073741823 ranks at once are more than MaxGroupRanks (134217728)"
	x, err := ExpertLayout(MustMesh([]string{"dp"}, []int{1<<28 + 2}), 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	runSweep(t, []sweepCase{
		fail("GroupOf(0, dp)", ErrOutOfRange, res(func() ([]int, error) { return m.GroupOf(0, "dp") }), want),
		fail("GroupRange(0, 1, dp)", ErrOutOfRange, res(func() ([][]int, error) { return m.GroupRange(0, 1, "dp") }),
			want),
		fail("Groups(dp)", ErrOutOfRange, res(func() ([][]int, error) { return m.Groups("dp") }),
			"2147483646 ranks at once"),
		fail("EDPGroupOf(0)", ErrOutOfRange, res(func() ([]int, error) { return x.EDPGroupOf(0) }),
			"134217729 ranks at once"),
		ok("GroupOf(2^31-3, tp)", "[2147483644 2147483645]",
			res(func() ([]int, error) { return m.GroupOf(1<<31-3, "tp") })),
		ok("GroupRange(2^30-2, 1, tp)", "[[2147483644 2147483645]]",
			res(func() ([][]int, error) { return m.GroupRange(1<<30-2, 1, "tp") })),
		ok("EPGroupOf(5)", "[4 5]", res(func() ([]int, error) { return x.EPGroupOf(5) })),
	})
}
