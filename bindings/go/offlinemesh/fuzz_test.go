package offlinemesh

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzViews drives the Go API with arbitrary input -- a mesh spec or a view
// JSON, an axis list, a name, two sizes -- through one view operation, and
// checks what must hold whatever the input: a failure is an *Error with a
// known status and a readable message naming something; a result keeps the
// laws of a layout (see checkLaws). The seeds run with every `go test`;
// bindings/go/run-tests.sh also fuzzes for a few seconds, and longer runs
// are
//
//	go test -run '^$' -fuzz FuzzViews -fuzztime 60s ./offlinemesh
func FuzzViews(f *testing.F) {
	for _, s := range []struct {
		src, axes, name string
		op              uint8
		a, b            int
	}{
		{"dp=2,cp=3,tp=4", "cp,tp", "cptp", 0, 0, 0},
		{"dp=4,tp=2", "dp", "x", 1, 2, 2},
		{"dp=2,cp=2,tp=2", "dp,tp", "", 2, 0, 0},
		{`{"mesh_dim_names":["a"],"mesh_shape":[6]}`, "a", "b", 1, 3, 2},
		{`{"mesh_dim_names":["cp"],"mesh_shape":[2],"strides":[4],"offset":1}`, "cp", "c", 1, 2, 1},
		{"a=1,b=7,c=1", "b,a", "ab", 0, 0, 0},
		{"x=2,y=3", "x\x00y", "y", 0, 0, 0},
		{"x=2,y=3", "y", "\xff", 1, 3, 1},
		{"dp=5,tp=3", "tp,dp", "t", 2, 0, 0},
	} {
		f.Add(s.src, s.axes, s.name, s.op, s.a, s.b)
	}
	f.Fuzz(func(t *testing.T, src, axes, name string, op uint8, a, b int) {
		m, err := ParseMeshSpec(src)
		if err != nil {
			m, err = ParseView([]byte(src))
		}
		if err != nil {
			checkFailure(t, "parse", err)
			return
		}
		defer m.Close()
		checkLaws(t, m)
		var dims []string
		if axes != "" {
			dims = strings.Split(axes, ",")
		}
		var v *View
		switch op % 3 {
		case 0:
			v, err = m.Flatten(name, dims...)
		case 1:
			v, err = m.Unflatten(axes, []int{a, b}, name, name+"_inner")
		default:
			v, err = m.Slice(dims...)
		}
		if err != nil {
			checkFailure(t, "view operation", err)
			return
		}
		defer v.Close()
		checkLaws(t, v)
	})
}

// checkFailure: the error a library call gives for bad input.
func checkFailure(t *testing.T, what string, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: %T %v is not an *Error", what, err, err)
	}
	if e.Status <= OK || e.Status > ErrUnknownView || e.Message == "" ||
		!utf8.ValidString(e.Message) || strings.ContainsAny(e.Message, "\x00\n") {
		t.Fatalf("%s: status %d, message %q", what, e.Status, e.Message)
	}
}

// checkLaws checks a mesh or view against what its layout promises: its JSON
// reads back Equal (and Equal tells layouts apart: a view is never Equal
// to the plain mesh of its names and shape), the groups over each axis and
// over all axes partition the ranks it holds, GroupOf and GroupIndex agree
// with Groups, and (one instance) Rank inverts Coordinate.
func checkLaws(t *testing.T, m *Mesh) {
	t.Helper()
	if plain := MustMesh(m.Names(), m.Shape()); plain.Equal(m) == !m.IsPlain() {
		t.Fatalf("%v %v: Equal to the plain mesh of its shape is %v", m.Names(), m.Shape(), plain.Equal(m))
	}
	if m.RankCount() > 1<<12 {
		return // the JSON of a family lists every rank; the laws below enumerate them
	}
	text, err := m.ViewJSON()
	if err != nil {
		t.Fatalf("ViewJSON of %v: %v", m.Names(), err)
	}
	back, err := ParseView([]byte(text))
	if err != nil || !back.Equal(m) || !m.Equal(back) || back.Hash() != m.Hash() {
		t.Fatalf("%s does not read back equal: %v", text, err)
	}
	back.Close()
	sets := [][]string{m.Names(), nil}
	for _, name := range m.Names() {
		sets = append(sets, []string{name})
	}
	for _, set := range sets {
		groups, err := m.Groups(set...)
		if err != nil {
			t.Fatalf("%s: Groups%v: %v", text, set, err)
		}
		seen := map[int]bool{}
		for g, group := range groups {
			if len(group) != m.groupSize(set) {
				t.Fatalf("%s: group %d over %v has %d ranks", text, g, set, len(group))
			}
			for _, r := range group {
				if seen[r] || !m.Holds(r) {
					t.Fatalf("%s: rank %d repeated or not held (groups over %v)", text, r, set)
				}
				seen[r] = true
			}
			of, err1 := m.GroupOf(group[len(group)-1], set...)
			index, err2 := m.GroupIndex(group[0], set...)
			if err1 != nil || err2 != nil || !slices.Equal(of, group) || index != g {
				t.Fatalf("%s: group %d over %v: GroupOf %v, GroupIndex %d (%v, %v)",
					text, g, set, of, index, err1, err2)
			}
		}
		if len(seen) != m.RankCount() {
			t.Fatalf("%s: groups over %v hold %d of %d ranks", text, set, len(seen), m.RankCount())
		}
		if len(set) == 0 && m.InstanceCount() == 1 {
			for r := range seen {
				coord, err := m.Coordinate(r)
				back, err2 := m.Rank(coord)
				if err != nil || err2 != nil || back != r {
					t.Fatalf("%s: rank %d -> %v -> %d (%v, %v)", text, r, coord, back, err, err2)
				}
			}
		}
	}
}
