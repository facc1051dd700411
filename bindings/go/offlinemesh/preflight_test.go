package offlinemesh

import (
	"math/rand"
	"slices"
	"testing"
)

func TestValidateAxes(t *testing.T) {
	m := mustMesh(t, []string{"dp", "cp", "tp"}, []int{4, 2, 8})
	withEP := mustMesh(t, []string{"dp", "ep", "tp"}, []int{2, 4, 2})
	tests := []struct {
		name       string
		m          *Mesh
		tp, cp, ep int
		status     Status // OK: valid
		parts      []string
	}{
		{"all match", m, 8, 2, 1, OK, nil},
		{"sizes 1 are not checked", m, 1, 1, 1, OK, nil},
		{"ep without ep axis is not compared", m, 8, 2, 16, OK, nil},
		{"ep axis matches", withEP, 2, 1, 4, OK, nil},
		{"tp mismatch", m, 4, 2, 1, ErrInvalidArgument, []string{"tp_size 4", "tp", "8"}},
		{"cp mismatch", m, 8, 4, 1, ErrInvalidArgument, []string{"cp_size 4", "2"}},
		{"tp axis missing", mustMesh(t, []string{"dp"}, []int{8}), 2, 1, 1, ErrInvalidArgument, []string{"tp"}},
		{"cp axis missing", mustMesh(t, []string{"dp", "tp"}, []int{2, 2}), 2, 2, 1, ErrInvalidArgument, []string{"cp"}},
		{"ep axis mismatch", withEP, 2, 1, 2, ErrInvalidArgument, []string{"ep_size 2", "4"}},
		{"ep axis with plan ep 1", withEP, 2, 1, 1, ErrInvalidArgument, []string{"ep"}},
		{"tp < 1", m, 0, 1, 1, ErrInvalidArgument, []string{"tp_size"}},
		{"cp < 1", m, 1, -1, 1, ErrInvalidArgument, []string{"cp_size"}},
		{"ep < 1", m, 1, 1, 0, ErrInvalidArgument, []string{"ep_size"}},
		{"empty mesh, sizes 1", &Mesh{}, 1, 1, 1, OK, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateAxes(tc.m, tc.tp, tc.cp, tc.ep)
			if tc.status == OK {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantErr(t, err, tc.status, tc.parts...)
		})
	}
}

func TestPlanDimNames(t *testing.T) {
	tests := []struct {
		names      []string
		shape      []int
		tp, cp, ep int
		want       []string
	}{
		{[]string{"dp", "cp", "tp"}, []int{2, 2, 2}, 2, 2, 1, []string{"cp", "tp"}},
		{[]string{"dp", "cp", "tp"}, []int{2, 2, 2}, 2, 1, 1, []string{"tp"}},
		{[]string{"dp", "cp", "tp"}, []int{2, 2, 2}, 1, 1, 1, []string{}},
		{[]string{"tp", "dp", "cp"}, []int{2, 2, 2}, 2, 2, 1, []string{"tp", "cp"}},
		{[]string{"dp", "ep", "tp"}, []int{2, 4, 2}, 2, 1, 4, []string{"ep", "tp"}},
		{[]string{"dp", "tp"}, []int{2, 2}, 2, 2, 2, []string{"tp"}},
		{[]string{"dp"}, []int{8}, 1, 1, 8, []string{}},
	}
	for _, tc := range tests {
		m := mustMesh(t, tc.names, tc.shape)
		got, err := PlanDimNames(m, tc.tp, tc.cp, tc.ep)
		if err != nil || got == nil || !slices.Equal(got, tc.want) {
			t.Errorf("PlanDimNames(%v, %d, %d, %d) = %q, %v; want %q", m, tc.tp, tc.cp, tc.ep, got, err, tc.want)
		}
	}
	m := mustMesh(t, []string{"dp", "tp"}, []int{2, 2})
	for _, s := range [][3]int{{0, 1, 1}, {1, 0, 1}, {1, 1, -2}} {
		_, err := PlanDimNames(m, s[0], s[1], s[2])
		wantErr(t, err, ErrInvalidArgument)
	}
}

func TestExpertLayoutExample(t *testing.T) {
	m := mustMesh(t, []string{"dp", "tp"}, []int{4, 2})
	x, err := ExpertLayout(m, 4, 16)
	if err != nil {
		t.Fatal(err)
	}
	if x.EP() != 4 || x.EDP() != 2 || x.NumExperts != 16 || x.LocalExperts() != 4 {
		t.Fatalf("EP %d EDP %d experts %d local %d", x.EP(), x.EDP(), x.NumExperts, x.LocalExperts())
	}
	if x.Mesh.String() != `{"mesh_dim_names":["edp","ep"],"mesh_shape":[2,4]}` {
		t.Fatalf("expert mesh %v", x.Mesh)
	}
	ep, err := x.EPGroups()
	if err != nil || !equalGroups(ep, [][]int{{0, 1, 2, 3}, {4, 5, 6, 7}}) {
		t.Fatalf("EP groups %v %v", ep, err)
	}
	edp, err := x.EDPGroups()
	if err != nil || !equalGroups(edp, [][]int{{0, 4}, {1, 5}, {2, 6}, {3, 7}}) {
		t.Fatalf("EDP groups %v %v", edp, err)
	}
	if g, err := x.EPGroupOf(6); err != nil || !equalInts(g, []int{4, 5, 6, 7}) {
		t.Fatalf("EPGroupOf(6) = %v %v", g, err)
	}
	if g, err := x.EDPGroupOf(6); err != nil || !equalInts(g, []int{2, 6}) {
		t.Fatalf("EDPGroupOf(6) = %v %v", g, err)
	}
	if _, err := x.EPGroupOf(8); err == nil {
		t.Fatal("EPGroupOf(8) succeeded")
	}
	// Without a number of experts.
	y, err := ExpertLayout(m, 8, 0)
	if err != nil || y.NumExperts != 0 || y.LocalExperts() != 0 || y.EDP() != 1 {
		t.Fatalf("ep 8: %v %v", y, err)
	}
	// A pp axis of size 1 is not part of the problem.
	z, err := ExpertLayout(mustMesh(t, []string{"dp", "tp", "pp"}, []int{2, 2, 1}), 2, 0)
	if err != nil || z.EDP() != 2 || z.EP() != 2 {
		t.Fatalf("pp 1: %v", err)
	}
}

func TestExpertLayoutErrors(t *testing.T) {
	m := mustMesh(t, []string{"dp", "tp"}, []int{4, 2})
	tests := []struct {
		name        string
		m           *Mesh
		ep, experts int
		parts       []string
	}{
		{"ep < 1", m, 0, 0, []string{"ep"}},
		{"negative ep", m, -2, 0, nil},
		{"negative experts", m, 2, -1, nil},
		{"pp > 1", mustMesh(t, []string{"dp", "tp", "pp"}, []int{2, 2, 2}), 2, 0, []string{"pp"}},
		{"ep does not divide the dense region", m, 3, 0, []string{"3", "8"}},
		{"ep larger than the dense region", m, 16, 0, []string{"16"}},
		{"experts not divisible", m, 4, 6, []string{"6", "4"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x, err := ExpertLayout(tc.m, tc.ep, tc.experts)
			if x != nil {
				t.Fatalf("layout %v", x.Mesh)
			}
			wantErr(t, err, ErrInvalidArgument, tc.parts...)
		})
	}
}

// refExperts is the pure-Go expert layout: the dense region of n ranks
// re-sliced as (n/ep, ep).
func refExperts(n, ep int) (epGroups, edpGroups [][]int) {
	for g := 0; g < n/ep; g++ {
		var grp []int
		for r := g * ep; r < (g+1)*ep; r++ {
			grp = append(grp, r)
		}
		epGroups = append(epGroups, grp)
	}
	for j := 0; j < ep; j++ {
		var grp []int
		for r := j; r < n; r += ep {
			grp = append(grp, r)
		}
		edpGroups = append(edpGroups, grp)
	}
	return epGroups, edpGroups
}

func TestExpertLayoutMatchesPureGo(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 200; trial++ {
		names := []string{"dp", "cp", "tp"}[:1+rng.Intn(3)]
		shape := make([]int, len(names))
		dense := 1
		for i := range shape {
			shape[i] = 1 + rng.Intn(6)
			dense *= shape[i]
		}
		if rng.Intn(3) == 0 {
			names = append(slices.Clone(names), "pp")
			shape = append(shape, 1)
		}
		m := mustMesh(t, names, shape)
		var divisors []int
		for d := 1; d <= dense; d++ {
			if dense%d == 0 {
				divisors = append(divisors, d)
			}
		}
		ep := divisors[rng.Intn(len(divisors))]
		experts := ep * rng.Intn(4)
		x, err := ExpertLayout(m, ep, experts)
		if err != nil {
			t.Fatalf("%v ep %d experts %d: %v", m, ep, experts, err)
		}
		wantEP, wantEDP := refExperts(dense, ep)
		gotEP, err1 := x.EPGroups()
		gotEDP, err2 := x.EDPGroups()
		if err1 != nil || err2 != nil || !equalGroups(gotEP, wantEP) || !equalGroups(gotEDP, wantEDP) {
			t.Fatalf("%v ep %d: EP %v EDP %v (%v %v), want %v %v", m, ep, gotEP, gotEDP, err1, err2, wantEP, wantEDP)
		}
		if x.EP()*x.EDP() != dense {
			t.Fatalf("%v ep %d: %d x %d != %d", m, ep, x.EDP(), x.EP(), dense)
		}
		// A size that does not divide the dense region is refused.
		if bad := dense + 1 + rng.Intn(3); bad > 1 {
			if _, err := ExpertLayout(m, bad, 0); err == nil {
				t.Fatalf("%v: ep %d accepted", m, bad)
			}
		}
	}
}
