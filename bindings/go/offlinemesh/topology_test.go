package offlinemesh

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// ---- a straightforward pure-Go model of the rank topology -----------------

// refCoord is rank's row-major coordinate (last axis fastest).
func refCoord(shape []int, rank int) []int {
	c := make([]int, len(shape))
	for i := len(shape) - 1; i >= 0; i-- {
		c[i] = rank % shape[i]
		rank /= shape[i]
	}
	return c
}

func refRank(shape, coord []int) int {
	r := 0
	for i, s := range shape {
		r = r*s + coord[i]
	}
	return r
}

// refGroups lists the groups over the selected axes: ranks that agree on
// every other axis, groups ordered by their first member (row-major over the
// other axes), members in increasing rank order (row-major over the axes).
func refGroups(shape []int, sel []bool) [][]int {
	size := 1
	for _, s := range shape {
		size *= s
	}
	key := func(rank int) string {
		c := refCoord(shape, rank)
		for i := range c {
			if sel[i] {
				c[i] = -1
			}
		}
		return fmt.Sprint(c)
	}
	index := map[string]int{}
	var groups [][]int
	for r := 0; r < size; r++ {
		k := key(r)
		g, ok := index[k]
		if !ok {
			g = len(groups)
			index[k] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], r)
	}
	return groups
}

func refLocality(groups [][]int, perHost int) Locality {
	loc := Locality{Groups: len(groups)}
	for _, g := range groups {
		hosts := map[int]bool{}
		for _, r := range g {
			hosts[r/perHost] = true
		}
		if len(hosts) == 1 {
			loc.LocalGroups++
		}
		loc.MaxHosts = max(loc.MaxHosts, len(hosts))
	}
	return loc
}

// ---- fixed examples ---------------------------------------------------------

func TestGroupsDomainExample(t *testing.T) {
	m := mustMesh(t, []string{"dp", "cp", "tp"}, []int{2, 2, 2})
	tests := []struct {
		dims []string
		want [][]int
	}{
		{[]string{"tp"}, [][]int{{0, 1}, {2, 3}, {4, 5}, {6, 7}}},
		{[]string{"cp"}, [][]int{{0, 2}, {1, 3}, {4, 6}, {5, 7}}},
		{[]string{"dp"}, [][]int{{0, 4}, {1, 5}, {2, 6}, {3, 7}}},
		{[]string{"dp", "cp"}, [][]int{{0, 2, 4, 6}, {1, 3, 5, 7}}},
		{[]string{"cp", "dp"}, [][]int{{0, 2, 4, 6}, {1, 3, 5, 7}}},
		{[]string{"dp", "cp", "tp"}, [][]int{{0, 1, 2, 3, 4, 5, 6, 7}}},
		{nil, [][]int{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}}},
		{[]string{}, [][]int{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.dims), func(t *testing.T) {
			got, err := m.Groups(tc.dims...)
			if err != nil || !equalGroups(got, tc.want) {
				t.Fatalf("Groups(%q) = %v, %v; want %v", tc.dims, got, err, tc.want)
			}
			count, size, err := m.GroupShape(tc.dims...)
			if err != nil || count != len(tc.want) || size != len(tc.want[0]) {
				t.Fatalf("GroupShape = %d, %d, %v", count, size, err)
			}
			for gi, g := range tc.want {
				for _, r := range g {
					of, err := m.GroupOf(r, tc.dims...)
					if err != nil || !equalInts(of, g) {
						t.Fatalf("GroupOf(%d) = %v, %v; want %v", r, of, err, g)
					}
					idx, err := m.GroupIndex(r, tc.dims...)
					if err != nil || idx != gi {
						t.Fatalf("GroupIndex(%d) = %d, %v; want %d", r, idx, err, gi)
					}
				}
			}
		})
	}
}

func TestGroupsAreIndependentSlices(t *testing.T) {
	m := mustMesh(t, []string{"dp", "tp"}, []int{2, 2})
	g, err := m.Groups("tp")
	if err != nil {
		t.Fatal(err)
	}
	g[0] = append(g[0], 99) // must not overwrite group 1
	if !equalInts(g[1], []int{2, 3}) {
		t.Fatalf("appending to one group changed the next: %v", g)
	}
}

func TestCoordinateAndRank(t *testing.T) {
	m := mustMesh(t, []string{"pp", "dp", "tp"}, []int{3, 2, 4})
	for r := 0; r < m.Size(); r++ {
		c, err := m.Coordinate(r)
		if err != nil || !equalInts(c, refCoord([]int{3, 2, 4}, r)) {
			t.Fatalf("Coordinate(%d) = %v, %v", r, c, err)
		}
		back, err := m.Rank(c)
		if err != nil || back != r {
			t.Fatalf("Rank(%v) = %d, %v", c, back, err)
		}
	}
	if c, _ := m.Coordinate(23); !equalInts(c, []int{2, 1, 3}) {
		t.Fatalf("last rank at %v", c)
	}

	for _, rank := range []int{-1, 24, 1 << 40} {
		_, err := m.Coordinate(rank)
		wantErr(t, err, ErrOutOfRange)
	}
	tests := []struct {
		coord  []int
		status Status
		parts  []string
	}{
		{nil, ErrInvalidArgument, nil},
		{[]int{1, 1}, ErrInvalidArgument, []string{"2", "3"}},
		{[]int{1, 1, 1, 1}, ErrInvalidArgument, nil},
		{[]int{3, 0, 0}, ErrOutOfRange, []string{"pp"}},
		{[]int{0, -1, 0}, ErrOutOfRange, []string{"dp"}},
		{[]int{0, 0, 4}, ErrOutOfRange, []string{"tp"}},
	}
	for _, tc := range tests {
		_, err := m.Rank(tc.coord)
		wantErr(t, err, tc.status, tc.parts...)
	}
}

func TestTopologyErrors(t *testing.T) {
	m := mustMesh(t, []string{"dp", "cp", "tp"}, []int{2, 2, 2})
	axisErrors := []struct {
		dims   []string
		status Status
	}{
		{[]string{"pp"}, ErrUnknownAxis},
		{[]string{"tp", "tp"}, ErrDuplicateName},
		{[]string{"tp", ""}, ErrUnknownAxis},
		{[]string{"dp,cp"}, ErrUnknownAxis},  // names, not comma lists
		{[]string{"t\x00p"}, ErrUnknownAxis}, // never read as two names
		{[]string{"TP"}, ErrUnknownAxis},
	}
	for _, tc := range axisErrors {
		_, err := m.Groups(tc.dims...)
		wantErr(t, err, tc.status)
		_, err = m.GroupOf(0, tc.dims...)
		wantErr(t, err, tc.status)
		_, err = m.GroupIndex(0, tc.dims...)
		wantErr(t, err, tc.status)
		_, _, err = m.GroupShape(tc.dims...)
		wantErr(t, err, tc.status)
		_, err = m.GroupRange(0, 1, tc.dims...)
		wantErr(t, err, tc.status)
		_, err = m.Locality(2, tc.dims...)
		wantErr(t, err, tc.status)
	}
	_, err := m.Groups("pp")
	wantErr(t, err, ErrUnknownAxis, `axis "pp" is not in the mesh (dp, cp, tp)`)

	for _, rank := range []int{-1, 8} {
		_, err := m.GroupOf(rank, "tp")
		wantErr(t, err, ErrOutOfRange)
		_, err = m.GroupIndex(rank, "tp")
		wantErr(t, err, ErrOutOfRange)
	}
	for _, r := range [][2]int{{-1, 1}, {0, -1}, {0, 5}, {4, 1}, {3, 2}} {
		_, err := m.GroupRange(r[0], r[1], "tp")
		wantErr(t, err, ErrOutOfRange)
	}
	for _, k := range []int{0, -4} {
		_, err := m.Locality(k, "tp")
		wantErr(t, err, ErrInvalidArgument)
	}

	// A mesh too big to materialise: Groups refuses, GroupRange pages.
	big := mustMesh(t, []string{"dp", "tp"}, []int{1 << 20, 1 << 10})
	_, err = big.Groups("tp")
	wantErr(t, err, ErrOutOfRange, "GroupRange")
	page, err := big.GroupRange(1000, 2, "tp")
	if err != nil || len(page) != 2 || page[0][0] != 1000<<10 || page[1][1023] != 1002<<10-1 {
		t.Fatalf("GroupRange on a big mesh: %v", err)
	}
	_, err = big.GroupRange(0, 1<<20, "tp")
	wantErr(t, err, ErrOutOfRange)
	if g, err := big.GroupOf(1<<30-1, "dp"); err != nil || len(g) != 1<<20 || g[1] != 2047 {
		t.Fatalf("GroupOf on a big mesh: %v", err)
	}
}

func TestGroupRangePages(t *testing.T) {
	m := mustMesh(t, []string{"a", "b", "c"}, []int{3, 4, 5})
	all, err := m.Groups("b")
	if err != nil {
		t.Fatal(err)
	}
	var paged [][]int
	for first := 0; first < len(all); first += 4 {
		page, err := m.GroupRange(first, min(4, len(all)-first), "b")
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, page...)
	}
	if !equalGroups(paged, all) {
		t.Fatalf("pages %v != %v", paged, all)
	}
	if empty, err := m.GroupRange(len(all), 0, "b"); err != nil || len(empty) != 0 {
		t.Fatalf("empty page %v %v", empty, err)
	}
}

func TestLocality(t *testing.T) {
	m := mustMesh(t, []string{"dp", "tp"}, []int{4, 8})
	tests := []struct {
		perHost int
		dims    []string
		want    Locality
	}{
		{8, []string{"tp"}, Locality{Groups: 4, LocalGroups: 4, MaxHosts: 1}},
		{8, []string{"dp"}, Locality{Groups: 8, LocalGroups: 0, MaxHosts: 4}},
		{4, []string{"tp"}, Locality{Groups: 4, LocalGroups: 0, MaxHosts: 2}},
		{16, []string{"dp"}, Locality{Groups: 8, LocalGroups: 0, MaxHosts: 2}},
		{32, []string{"dp", "tp"}, Locality{Groups: 1, LocalGroups: 1, MaxHosts: 1}},
		{1, nil, Locality{Groups: 32, LocalGroups: 32, MaxHosts: 1}},
		{3, []string{"tp"}, Locality{Groups: 4, LocalGroups: 0, MaxHosts: 4}}, // hosts straddle groups
		{100, []string{"dp"}, Locality{Groups: 8, LocalGroups: 8, MaxHosts: 1}},
	}
	for _, tc := range tests {
		got, err := m.Locality(tc.perHost, tc.dims...)
		if err != nil || got != tc.want {
			t.Errorf("Locality(%d, %q) = %+v, %v; want %+v", tc.perHost, tc.dims, got, err, tc.want)
		}
	}
}

// ---- the cross-check on random shapes ---------------------------------------

func TestTopologyMatchesPureGo(t *testing.T) {
	rng := rand.New(rand.NewSource(20240611))
	axisNames := []string{"pp", "dp", "ep", "cp", "tp", "sp"}
	for trial := 0; trial < 300; trial++ {
		ndim := rng.Intn(5)
		names := slices.Clone(axisNames)
		rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		names = names[:ndim]
		shape := make([]int, ndim)
		for i := range shape {
			shape[i] = 1 + rng.Intn(5)
		}
		m := mustMesh(t, names, shape)

		// Every rank's coordinate and back.
		for r := 0; r < m.Size(); r++ {
			c, err := m.Coordinate(r)
			if err != nil || !equalInts(c, refCoord(shape, r)) {
				t.Fatalf("%v: Coordinate(%d) = %v, %v", m, r, c, err)
			}
			if back, err := m.Rank(c); err != nil || back != refRank(shape, c) || back != r {
				t.Fatalf("%v: Rank(%v) = %d, %v", m, c, back, err)
			}
		}

		// A random axis subset, named in a random order.
		sel := make([]bool, ndim)
		var dims []string
		for i := range sel {
			if rng.Intn(2) == 0 {
				sel[i] = true
				dims = append(dims, names[i])
			}
		}
		rng.Shuffle(len(dims), func(i, j int) { dims[i], dims[j] = dims[j], dims[i] })
		want := refGroups(shape, sel)
		got, err := m.Groups(dims...)
		if err != nil || !equalGroups(got, want) {
			t.Fatalf("%v: Groups(%q) = %v, %v; want %v", m, dims, got, err, want)
		}
		r := rng.Intn(m.Size())
		of, err := m.GroupOf(r, dims...)
		if err != nil || !slices.Contains(of, r) {
			t.Fatalf("%v: GroupOf(%d, %q) = %v, %v", m, r, dims, of, err)
		}
		idx, err := m.GroupIndex(r, dims...)
		if err != nil || !equalInts(want[idx], of) {
			t.Fatalf("%v: GroupIndex(%d, %q) = %d, %v", m, r, dims, idx, err)
		}
		perHost := 1 + rng.Intn(8)
		loc, err := m.Locality(perHost, dims...)
		if err != nil || loc != refLocality(want, perHost) {
			t.Fatalf("%v: Locality(%d, %q) = %+v, %v; want %+v", m, perHost, dims, loc, err, refLocality(want, perHost))
		}
	}
}

func TestAxisIndices(t *testing.T) {
	m := mustMesh(t, []string{"dp", "cp", "tp"}, []int{2, 3, 4})
	for _, tc := range []struct {
		dims []string
		want []int
	}{
		{[]string{"tp", "dp"}, []int{0, 2}}, // mesh order
		{[]string{"cp"}, []int{1}},
		{nil, []int{}},
	} {
		got, err := m.AxisIndices(tc.dims...)
		if err != nil || !equalInts(got, tc.want) {
			t.Errorf("AxisIndices(%q) = %v, %v; want %v", tc.dims, got, err, tc.want)
		}
	}
	_, err := m.AxisIndices("dp", "ep")
	wantErr(t, err, ErrUnknownAxis, `"ep"`)
	_, err = m.AxisIndices("cp", "cp")
	wantErr(t, err, ErrDuplicateName, `"cp"`)
	// more than 64 axes: names, not masks, so every axis can be selected
	names, shape := make([]string, 70), make([]int, 70)
	for i := range names {
		names[i], shape[i] = fmt.Sprintf("a%d", i), 1
	}
	big := mustMesh(t, names, shape)
	idx, err := big.AxisIndices("a69", "a0")
	if err != nil || !equalInts(idx, []int{0, 69}) {
		t.Fatalf("AxisIndices on 70 axes = %v, %v", idx, err)
	}
	g, err := big.GroupOf(0, "a69")
	if err != nil || !equalInts(g, []int{0}) {
		t.Fatalf("GroupOf over axis 69 = %v, %v", g, err)
	}
}
