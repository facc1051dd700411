package offlinemesh

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// The framework vectors (tests/vectors, copies of the steering team's
// cases computed by running torchtitan, Megatron, DeepSpeed and torch)
// through the Go views: layouts op by op, presets through Preset, its
// JSON document, its named group lists and its World.

type vecCase struct {
	WorldSize int                        `json:"world_size"`
	Params    map[string]json.RawMessage `json:"params"`
	Base      struct {
		DimNames []string `json:"dim_names"`
		Shape    []int    `json:"shape"`
	} `json:"base"`
	Ops []struct {
		Kind  string   `json:"kind"`
		Axes  []string `json:"axes"`
		Name  string   `json:"name"`
		Axis  int      `json:"axis"`
		Sizes []int    `json:"sizes"`
		Names []string `json:"names"`
	} `json:"ops"`
	Result  *vecView           `json:"result"`
	Views   map[string]vecView `json:"views"`
	Groups  map[string][][]int `json:"groups"`
	Error   json.RawMessage    `json:"error"`
	Library json.RawMessage    `json:"library"`
}

type vecView struct {
	DimNames  []string           `json:"dim_names"`
	Shape     []int              `json:"shape"`
	Layout    [][][2]int         `json:"layout"`
	Instances [][]int            `json:"instances"`
	Groups    map[string][][]int `json:"groups"`
	Coords    [][]int            `json:"coords"`
}

func loadVectors(t *testing.T, stem string) []json.RawMessage {
	return loadCases(t, filepath.Join("tests", "vectors", stem+".json"), 10)
}

// loadCases reads the cases of a vector file (a path in the repository).
func loadCases(t *testing.T, path string, atLeast int) []json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", path))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Cases []json.RawMessage }
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < atLeast {
		t.Fatalf("%s: only %d cases", path, len(doc.Cases))
	}
	return doc.Cases
}

func decodeCase(t *testing.T, raw json.RawMessage) vecCase {
	var c vecCase
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// expectsError: the framework raised and the library follows it (a
// "library" field saying otherwise overrides).
func (c vecCase) expectsError() bool {
	if c.Library != nil {
		var lib map[string]json.RawMessage
		_ = json.Unmarshal(c.Library, &lib) // a string: an explanation only
		return lib["error"] != nil
	}
	return c.Error != nil
}

// checkView compares a view with its record exactly: names, shape, modes,
// instances, the groups of every axis (and GroupOf/GroupIndex of every
// member), and every rank's coordinate (nil: not held).
func checkView(t *testing.T, label string, v *View, want vecView, exactOrder bool) {
	t.Helper()
	if want.DimNames != nil && (!slices.Equal(v.Names(), want.DimNames) || !slices.Equal(v.Shape(), want.Shape)) {
		t.Errorf("%s: view %v %v, want %v %v", label, v.Names(), v.Shape(), want.DimNames, want.Shape)
		return
	}
	for i, modes := range want.Layout {
		got, err := v.Modes(i)
		var flat []int
		for _, m := range modes {
			flat = append(flat, m[0], m[1])
		}
		if err != nil || !slices.Equal(got, flat) {
			t.Errorf("%s: Modes(%d) = %v %v, want %v", label, i, got, err, flat)
		}
	}
	if want.Instances != nil {
		got, err := v.Groups(v.Names()...)
		if err != nil || !equalGroups(got, want.Instances) || v.InstanceCount() != len(want.Instances) {
			t.Errorf("%s: instances %v %v, want %v", label, got, err, want.Instances)
		}
	}
	for axis, groups := range want.Groups {
		if v.Index(axis) < 0 {
			continue // renamed in the world (Megatron's expert tokens)
		}
		got, err := v.Groups(axis)
		if err != nil {
			t.Errorf("%s: Groups(%s): %v", label, axis, err)
			continue
		}
		w := groups
		if !exactOrder {
			got, w = sortedGroups(got), sortedGroups(groups)
		}
		if !equalGroups(got, w) {
			t.Errorf("%s: Groups(%s) = %v, want %v", label, axis, got, w)
		}
		for g, members := range got {
			for _, r := range members {
				of, err1 := v.GroupOf(r, axis)
				idx, err2 := v.GroupIndex(r, axis)
				if err1 != nil || err2 != nil || !equalInts(of, members) || (exactOrder && idx != g) {
					t.Fatalf("%s: rank %d over %s: GroupOf %v %v, GroupIndex %d %v", label, r, axis, of, err1, idx, err2)
				}
			}
		}
	}
	if len(want.DimNames) != v.NDim() {
		return // the world dropped placeholder axes: coordinates differ in length
	}
	for r, c := range want.Coords {
		got, err := v.Coordinate(r)
		if c == nil {
			if v.Holds(r) || err == nil {
				t.Errorf("%s: rank %d held (%v), want not", label, r, got)
			}
			continue
		}
		if err != nil || !equalInts(got, c) {
			t.Errorf("%s: Coordinate(%d) = %v %v, want %v", label, r, got, err, c)
		}
		if back, err := v.Rank(c); v.InstanceCount() == 1 && (err != nil || back != r) {
			t.Errorf("%s: Rank(%v) = %d %v, want %d", label, c, back, err, r)
		}
	}
}

func sortedGroups(g [][]int) [][]int {
	out := slices.Clone(g)
	slices.SortFunc(out, func(a, b []int) int { return a[0] - b[0] })
	return out
}

func TestLayoutVectors(t *testing.T) { runLayoutCases(t, loadVectors(t, "layout"), "layout") }

// The random chains recorded from torch's DeviceMesh (tests/torch_layout).
func TestTorchLayoutVectors(t *testing.T) {
	runLayoutCases(t, loadCases(t, filepath.Join("tests", "torch_layout", "layout.json"), 500), "torch layout")
}

func runLayoutCases(t *testing.T, cases []json.RawMessage, what string) {
	for i, raw := range cases {
		c := decodeCase(t, raw)
		label := fmt.Sprintf("%s case %d", what, i)
		root := mustMesh(t, c.Base.DimNames, c.Base.Shape)
		if root.Size() != c.WorldSize {
			t.Fatalf("%s: base of %d ranks, world %d", label, root.Size(), c.WorldSize)
		}
		cur, names, flats := root, []string{"root"}, []*View{root}
		var err error
		for _, op := range c.Ops {
			var next *View
			switch op.Kind {
			case "flatten":
				// The root knows a flattened view by a new name only (torch
				// returns mesh["x"] for one axis into its own name, keeps the first).
				if next, err = cur.Flatten(op.Name, op.Axes...); err == nil &&
					cur.Index(next.Names()[0]) < 0 && !slices.Contains(names, next.Names()[0]) {
					names, flats = append(names, next.Names()[0]), append(flats, next)
				}
			case "unflatten":
				next, err = cur.Unflatten(cur.Names()[op.Axis], op.Sizes, op.Names...)
			case "slice":
				next, err = cur.Slice(op.Axes...)
			case "slice_root":
				var w *World
				if w, err = NewWorld(root.Size(), names, flats); err == nil {
					next, err = w.Slice(op.Axes...)
				}
			default:
				t.Fatalf("%s: op %q", label, op.Kind)
			}
			if err != nil {
				break
			}
			cur = next
		}
		if c.expectsError() {
			if err == nil {
				t.Errorf("%s: no error, the framework says %s", label, c.Error)
			} else if _, ok := err.(*Error); !ok {
				t.Errorf("%s: %v is not an *Error", label, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", label, err)
			continue
		}
		if c.Error == nil {
			checkView(t, label, cur, *c.Result, true)
			// The view's JSON reads back as the same view.
			text, err := cur.ViewJSON()
			back, err2 := ParseView([]byte(text))
			if err != nil || err2 != nil || back.String() != cur.String() {
				t.Errorf("%s: JSON round trip %s / %v %v", label, text, err, err2)
			}
		}
	}
}

func paramTexts(p map[string]json.RawMessage) []string {
	var out []string
	for k, v := range p {
		var s string
		if json.Unmarshal(v, &s) != nil {
			s = string(v)
		}
		out = append(out, k+"="+s)
	}
	slices.Sort(out)
	return out
}

func runPresetVectors(t *testing.T, stem, preset string, exactOrder bool) {
	// the shared vectors, then the random configurations recorded from the
	// frameworks (tests/frameworks)
	shared := loadVectors(t, stem)
	recorded := loadCases(t, filepath.Join("tests", "frameworks", stem+".json"), 100)
	for i, raw := range append(shared, recorded...) {
		c := decodeCase(t, raw)
		label := fmt.Sprintf("%s case %d", stem, i)
		if i >= len(shared) {
			label = fmt.Sprintf("tests/frameworks/%s case %d", stem, i-len(shared))
		}
		p, err := NewPreset(preset, paramTexts(c.Params), c.WorldSize)
		if c.expectsError() {
			wantErr(t, err, ErrInvalidArgument)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", label, err)
			continue
		}
		// The document is the vector's views (and named groups, local ranks), exactly.
		var got, want map[string]any
		b, err := p.MarshalJSON()
		var rawCase map[string]json.RawMessage
		_ = json.Unmarshal(raw, &rawCase)
		wantDoc := map[string]json.RawMessage{"views": rawCase["views"]}
		if g, ok := rawCase["groups"]; ok {
			wantDoc["groups"] = g
		}
		if l, ok := rawCase["local_ranks"]; ok { // hyper-parallel's per-rank local ranks
			wantDoc["local_ranks"] = l
		}
		wb, _ := json.Marshal(wantDoc)
		if err != nil || json.Unmarshal(b, &got) != nil || json.Unmarshal(wb, &want) != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: document differs from the vector (%v)", label, err)
		}
		if p.WorldSize() != c.WorldSize || p.Name() != preset || len(p.Views()) != len(c.Views) {
			t.Errorf("%s: %s of %d ranks, views %v", label, p.Name(), p.WorldSize(), p.Views())
		}
		// Named group lists, in the framework's order.
		if lists := p.GroupLists(); len(lists) != len(c.Groups) {
			t.Errorf("%s: group lists %v, want %d", label, lists, len(c.Groups))
		}
		for name, groups := range c.Groups {
			if got, err := p.GroupList(name); err != nil || !equalGroups(got, groups) {
				t.Errorf("%s: GroupList(%s) = %v %v, want %v", label, name, got, err, groups)
			}
		}
		// The world: every view's groups and coordinates through Go views.
		w, err := p.World()
		if err != nil || w.Size() != c.WorldSize {
			t.Fatalf("%s: World: %v", label, err)
		}
		for name, rec := range c.Views {
			v, err := w.View(name)
			if err != nil {
				t.Errorf("%s: View(%s): %v", label, name, err)
				continue
			}
			rec.DimNames, rec.Layout, rec.Instances = nil, nil, nil // names may differ in the world
			if len(c.Views[name].DimNames) != v.NDim() {
				rec.Coords = nil
			}
			checkView(t, label+" view "+name, v, rec, exactOrder)
		}
	}
}

func TestPresetWorldVectors(t *testing.T) {
	runPresetVectors(t, "torchtitan", "torchtitan", true)
	runPresetVectors(t, "hyper_parallel", "hyper-parallel", true)
	runPresetVectors(t, "megatron", "megatron", true)
	runPresetVectors(t, "deepspeed", "deepspeed", false)
}
