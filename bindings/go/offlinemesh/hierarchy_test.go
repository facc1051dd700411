package offlinemesh_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/offlinemesh"
)

// A Go program reads a hierarchy, checks a config against --require rules
// and prints the launch plan (docs/go.md shows the same program).
func ExampleLaunch() {
	yaml := []byte("accelerator:\n  tp_size: 4\n")
	dims, err := offlinemesh.ParseParallelDims(yaml, 8)
	if err != nil {
		panic(err)
	}
	mesh, err := offlinemesh.BuildOfflineMesh(dims) // dp=2, cp=1, tp=4
	if err != nil {
		panic(err)
	}
	defer mesh.Close()
	h, err := offlinemesh.ParseHierarchy("host=4,nvl=8")
	if err != nil {
		panic(err)
	}
	broken, err := h.Check(mesh, "tp:host,dp:nvl")
	if err != nil {
		panic(err)
	}
	fmt.Println("broken rules:", len(broken))
	job := offlinemesh.Launch{Nodes: 2, ProcsPerNode: 4, Hierarchy: &h,
		Require: "tp:host", MasterAddr: "gb-001", MasterPort: 29500}
	if violations, err := job.Check(mesh); err != nil || len(violations) > 0 {
		panic(fmt.Sprint(violations, err))
	}
	plan, err := job.Plan(mesh)
	if err != nil {
		panic(err)
	}
	var p struct {
		Nodes []struct {
			NodeRank  int   `json:"node_rank"`
			Ranks     []int `json:"ranks"`
			Processes []struct {
				Env map[string]string `json:"env"`
			} `json:"processes"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(plan), &p); err != nil {
		panic(err)
	}
	for _, n := range p.Nodes {
		env := n.Processes[1].Env
		fmt.Println(n.NodeRank, n.Ranks, env["RANK"], env["LOCAL_RANK"], env["MASTER_ADDR"])
	}
	// Output:
	// broken rules: 0
	// 0 [0 1 2 3] 1 1 gb-001
	// 1 [4 5 6 7] 5 1 gb-001
}

func TestHierarchyLocality(t *testing.T) {
	m, err := offlinemesh.NewMesh([]string{"dp", "tp"}, []int{3, 5})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	h, err := offlinemesh.ParseHierarchy("host=4,nvl=6")
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Levels(); !reflect.DeepEqual(got, []string{"host", "nvl"}) {
		t.Fatalf("levels %v", got)
	}
	loc, err := h.Locality(m, "tp")
	if err != nil {
		t.Fatal(err)
	}
	want := []offlinemesh.LevelLocality{
		{Level: "host", Groups: 3, GroupsInside: 0, GroupsCrossing: 3, MaxDomains: 2, PPNMin: 1, PPNMax: 4,
			WorstGroup: 0, FirstCrossing: 0, CrossingRank: 4},
		{Level: "nvl", Groups: 3, GroupsInside: 1, GroupsCrossing: 2, MaxDomains: 2, PPNMin: 1, PPNMax: 5,
			WorstGroup: 1, FirstCrossing: 1, CrossingRank: 6},
	}
	if !reflect.DeepEqual(loc, want) {
		t.Fatalf("locality\n got %+v\nwant %+v", loc, want)
	}
	if _, err := h.Locality(m, "ep"); !errors.Is(err, offlinemesh.ErrUnknownAxis) {
		t.Fatalf("unknown axis: %v", err)
	}
}

func TestHierarchyErrorsAndExplicit(t *testing.T) {
	if _, err := offlinemesh.ParseHierarchy("host=8,nvl=8"); !errors.Is(err, offlinemesh.ErrInvalidArgument) {
		t.Fatalf("sizes not increasing: %v", err)
	}
	if _, err := offlinemesh.ReadHostfile([]byte("a slots=2\na slots=2\n")); err == nil ||
		err.Error() != `offlinemesh: hostfile lists host "a" twice (lines 1 and 2)` {
		t.Fatalf("duplicate host: %v", err)
	}
	h, err := offlinemesh.ReadHostfile([]byte("n7 slots=2\nn8 slots=2\n"))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := offlinemesh.NewMesh([]string{"dp", "tp"}, []int{2, 2})
	defer m.Close()
	broken, err := h.Check(m, "dp:host")
	if err != nil || len(broken) != 1 {
		t.Fatalf("check: %v %v", broken, err)
	}
	want := "dp:host broken: dp group 0 (ranks 0, 2) crosses host domains: rank 2 is in host n8, rank 0 in host n7 (groups span up to 2 domains)"
	if broken[0] != want {
		t.Fatalf("got %q", broken[0])
	}
	if _, err := h.Check(m, "dp:rack"); !errors.Is(err, offlinemesh.ErrInvalidArgument) {
		t.Fatalf("unknown level: %v", err)
	}
	j, err := offlinemesh.ReadHierarchyJSON([]byte(`{"levels":["host"],"ranks":[{"rank":0,"host":"a"},{"rank":1,"host":"a"},{"rank":2,"host":"b"},{"rank":3,"host":"b"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := j.Check(m, "tp:host"); err != nil || len(b) != 0 {
		t.Fatalf("tp:host: %v %v", b, err)
	}
}

func TestLaunchViolationsAndFormats(t *testing.T) {
	m, _ := offlinemesh.NewMesh([]string{"dp", "tp"}, []int{2, 4})
	defer m.Close()
	v, err := offlinemesh.Launch{Nodes: 3, ProcsPerNode: 4, Require: "tp:host"}.Check(m)
	if err != nil || len(v) != 1 || v[0] != "world size 8 (the mesh) is not nnodes*nproc_per_node = 3*4 = 12" {
		t.Fatalf("violations %q %v", v, err)
	}
	plan, err := offlinemesh.Launch{Nodes: 2, ProcsPerNode: 4, Format: "openmpi", Hosts: []string{"b", "a"}}.Plan(m)
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Rankfile string `json:"rankfile"`
	}
	if err := json.Unmarshal([]byte(plan), &p); err != nil || p.Rankfile[:30] != "rank 0=b slot=0\nrank 1=b slot=" {
		t.Fatalf("rankfile %q %v", p.Rankfile, err)
	}
	if _, err := (offlinemesh.Launch{Nodes: 2, ProcsPerNode: 4, Format: "mpich"}).Plan(m); !errors.Is(err, offlinemesh.ErrInvalidArgument) {
		t.Fatalf("bad format: %v", err)
	}
	if _, err := (offlinemesh.Launch{Nodes: 4, ProcsPerNode: 4}).Plan(m); !errors.Is(err, offlinemesh.ErrInvalidArgument) {
		t.Fatalf("size mismatch: %v", err)
	}
}
