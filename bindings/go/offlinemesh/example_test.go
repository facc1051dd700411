package offlinemesh_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/offlinemesh"
)

func ExampleNewMesh() {
	m, err := offlinemesh.NewMesh([]string{"dp", "cp", "tp"}, []int{2, 2, 2})
	if err != nil {
		panic(err)
	}
	fmt.Println(m.NDim(), m.Size(), m.SizeOf("tp"), m.SizeOf("ep"))
	fmt.Println(m)
	// Output:
	// 3 8 2 1
	// {"mesh_dim_names":["dp","cp","tp"],"mesh_shape":[2,2,2]}
}

func ExampleNewMesh_errors() {
	_, err := offlinemesh.NewMesh([]string{"dp", "dp"}, []int{2, 4})
	fmt.Println(err)
	fmt.Println(errors.Is(err, offlinemesh.ErrDuplicateName))

	var e *offlinemesh.Error
	_, err = offlinemesh.NewMesh([]string{"dp", "tp"}, []int{2})
	if errors.As(err, &e) {
		fmt.Println(int(e.Status), e.Status)
	}
	// Output:
	// offlinemesh: duplicate axis name "dp" (axes 0 and 1)
	// true
	// 6 length mismatch
}

func ExampleMesh_Sub() {
	m, _ := offlinemesh.NewMesh([]string{"dp", "tp"}, []int{4, 2})
	fmt.Println(m.Sub("tp"))
	fmt.Println(m.Sub("pp").NDim(), m.Sub("pp").Size()) // absent: the empty mesh
	fmt.Println(m.Sub("tp", "dp"))                      // several axes, in mesh order
	// Output:
	// {"mesh_dim_names":["tp"],"mesh_shape":[2]}
	// 0 1
	// {"mesh_dim_names":["dp","tp"],"mesh_shape":[4,2]}
}

func ExampleParseMesh() {
	m, err := offlinemesh.ParseMesh([]byte(`{"mesh_dim_names":["dp","tp"],"mesh_shape":[2,4]}`))
	fmt.Println(m.Names(), m.Shape(), err)

	_, err = offlinemesh.ParseMesh([]byte(`{"mesh_dim_names":["dp"],"mesh_shape":["2"]}`))
	fmt.Println(errors.Is(err, offlinemesh.ErrParse))
	// Output:
	// [dp tp] [2 4] <nil>
	// true
}

func ExampleMesh_MarshalJSON() {
	type job struct {
		Name string            `json:"name"`
		Mesh *offlinemesh.Mesh `json:"mesh"`
	}
	m, _ := offlinemesh.NewMesh([]string{"dp", "tp"}, []int{16, 8})
	b, _ := json.Marshal(job{"llama", m})
	fmt.Println(string(b))

	var back job
	err := json.Unmarshal(b, &back)
	fmt.Println(back.Mesh.Equal(m), err)
	// Output:
	// {"name":"llama","mesh":{"mesh_dim_names":["dp","tp"],"mesh_shape":[16,8]}}
	// true <nil>
}

func ExampleParseParallelDims() {
	config := []byte(`
model: llama-70b
accelerator:
  tp_size: 8
  pp_size: 4
  sequence_parallel: true
`)
	dims, err := offlinemesh.ParseParallelDims(config, 256) // 0: from WORLD_SIZE etc.
	if err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", dims)
	m, _ := offlinemesh.BuildOfflineMesh(dims)
	fmt.Println(m)
	// Output:
	// {"cp_size":1,"dp_size":8,"ep_size":1,"loss_parallel":false,"pp_size":4,"sequence_parallel":true,"tp_size":8}
	// {"mesh_dim_names":["dp","cp","tp","pp"],"mesh_shape":[8,1,8,4]}
}

func ExampleParseParallelDims_errors() {
	_, err := offlinemesh.ParseParallelDims([]byte("accelerator:\n  tp_size: 4\n"), 6)
	fmt.Println(errors.Is(err, offlinemesh.ErrInvalidArgument))
	_, err = offlinemesh.ParseParallelDims([]byte("accelerator:\n  tp_size: \"4\"\n"), 8)
	fmt.Println(errors.Is(err, offlinemesh.ErrParse))
	// Output:
	// true
	// true
}

func ExampleLoadParallelDims() {
	dir, _ := os.MkdirTemp("", "offlinemesh-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "train.yaml")
	os.WriteFile(path, []byte("accelerator: {tp_size: 2, cp_size: 2}\n"), 0o644)

	dims, err := offlinemesh.LoadParallelDims(path, 16)
	fmt.Println(dims.DP, dims.CP, dims.TP, err)

	_, err = offlinemesh.LoadParallelDims(filepath.Join(dir, "missing.yaml"), 16)
	fmt.Println(errors.Is(err, offlinemesh.ErrIO))
	// Output:
	// 4 2 2 <nil>
	// true
}

func ExampleBuildOfflineMesh() {
	m, _ := offlinemesh.BuildOfflineMesh(offlinemesh.ParallelDims{DP: 4, TP: 2, CP: 1, EP: 8, PP: 1})
	fmt.Println(m) // ep is never an axis; pp only when > 1
	// Output:
	// {"mesh_dim_names":["dp","cp","tp"],"mesh_shape":[4,1,2]}
}

func ExampleBuildRuntimeMesh() {
	dims := offlinemesh.ParallelDims{DP: 2, TP: 4, CP: 1, EP: 1, PP: 2}
	m, _ := offlinemesh.BuildRuntimeMesh(dims, "tp-cp-ep-dp-pp") // Megatron order
	spec, _ := m.Spec()
	fmt.Println(spec)
	g, _ := m.Groups("pp")
	fmt.Println(g[:2])
	// Output:
	// pp=2,dp=2,cp=1,tp=4
	// [[0 8] [1 9]]
}

func ExampleNormalizeOrder() {
	s, _ := offlinemesh.NormalizeOrder("tp-cp-ep-dp-pp")
	fmt.Println(s)
	// Output: pp,dp,ep,cp,tp
}

func ExampleMesh_Groups() {
	m, _ := offlinemesh.NewMesh([]string{"dp", "cp", "tp"}, []int{2, 2, 2})
	tp, _ := m.Groups("tp")
	cp, _ := m.Groups("cp")
	dpcp, _ := m.Groups("dp", "cp")
	fmt.Println(tp)
	fmt.Println(cp)
	fmt.Println(dpcp)
	// Output:
	// [[0 1] [2 3] [4 5] [6 7]]
	// [[0 2] [1 3] [4 6] [5 7]]
	// [[0 2 4 6] [1 3 5 7]]
}

func ExampleMesh_GroupOf() {
	m, _ := offlinemesh.NewMesh([]string{"dp", "cp", "tp"}, []int{2, 2, 2})
	g, _ := m.GroupOf(5, "dp")
	fmt.Println(g)
	_, err := m.GroupOf(5, "pp")
	fmt.Println(err)
	// Output:
	// [1 5]
	// offlinemesh: axis "pp" is not in the mesh (dp, cp, tp)
}

func ExampleMesh_Coordinate() {
	m, _ := offlinemesh.NewMesh([]string{"pp", "dp", "tp"}, []int{2, 2, 4})
	c, _ := m.Coordinate(13)
	r, _ := m.Rank([]int{1, 1, 1})
	fmt.Println(c, r)
	// Output: [1 1 1] 13
}

func ExampleMesh_Locality() {
	// 32 ranks, 8 per host: tp groups stay inside a host, dp groups span 4.
	m, _ := offlinemesh.NewMesh([]string{"dp", "tp"}, []int{4, 8})
	tp, _ := m.Locality(8, "tp")
	dp, _ := m.Locality(8, "dp")
	fmt.Printf("%+v\n%+v\n", tp, dp)
	// Output:
	// Locality{Groups: 4, LocalGroups: 4, MaxHosts: 1}
	// Locality{Groups: 8, LocalGroups: 0, MaxHosts: 4}
}

func ExampleValidateAxes() {
	m, _ := offlinemesh.NewMesh([]string{"dp", "cp", "tp"}, []int{4, 1, 2})
	fmt.Println(offlinemesh.ValidateAxes(m, 2, 1, 8))
	fmt.Println(offlinemesh.ValidateAxes(m, 4, 1, 1))
	// Output:
	// <nil>
	// offlinemesh: tp_size 4 does not match mesh axis "tp" of size 2
}

func ExamplePlanDimNames() {
	m, _ := offlinemesh.NewMesh([]string{"dp", "cp", "tp"}, []int{2, 2, 2})
	names, _ := offlinemesh.PlanDimNames(m, 2, 2, 1)
	fmt.Println(names)
	// Output: [cp tp]
}

func ExampleExpertLayout() {
	m, _ := offlinemesh.NewMesh([]string{"dp", "tp"}, []int{4, 2})
	x, err := offlinemesh.ExpertLayout(m, 4, 64)
	if err != nil {
		panic(err)
	}
	ep, _ := x.EPGroups()
	edp, _ := x.EDPGroups()
	fmt.Println(x)
	fmt.Println(x.Mesh)
	fmt.Println(ep, edp, x.LocalExperts())
	// Output:
	// Experts{EDP: 2, EP: 4, NumExperts: 64}
	// {"mesh_dim_names":["edp","ep"],"mesh_shape":[2,4]}
	// [[0 1 2 3] [4 5 6 7]] [[0 4] [1 5] [2 6] [3 7]] 16
}

func ExampleMesh_Flatten() {
	m := offlinemesh.MustMesh([]string{"dp", "cp", "tp"}, []int{2, 2, 2})
	dpTP, _ := m.Flatten("", "dp", "tp") // "" names it dp_tp
	g, _ := dpTP.Groups("dp_tp")
	back, _ := dpTP.Unflatten("dp_tp", []int{2, 2}, "x", "y")
	x, _ := back.Groups("x")
	fmt.Println(dpTP.Names(), g, x)
	fmt.Println(dpTP)
	// Output:
	// [dp_tp] [[0 1 4 5] [2 3 6 7]] [[0 4] [1 5] [2 6] [3 7]]
	// {"dim_names":["dp_tp"],"instances":[[0,1,4,5],[2,3,6,7]],"layout":[[[2,4],[2,1]]],"shape":[4]}
}

func ExampleNewWorld() {
	m := offlinemesh.MustMesh([]string{"dp", "cp", "tp"}, []int{2, 2, 2})
	flat, _ := m.Flatten("dp_cp", "dp", "cp")
	w, _ := offlinemesh.NewWorld(8, []string{"base", "flat"}, []*offlinemesh.View{m, flat})
	s, _ := w.Slice("dp_cp", "tp")
	fmt.Println(w.ViewNames(), w.AxisView("dp_cp"), s.Names())
	// Output:
	// [base flat] flat [dp_cp tp]
}

func ExampleNewPreset() {
	p, err := offlinemesh.NewPreset("torchtitan", []string{"dp_shard=4", "tp=2", "ep=2"}, 8)
	if err != nil {
		panic(err)
	}
	w, _ := p.World()
	sparse, _ := w.View("sparse")
	ep, _ := sparse.Groups("ep")
	fmt.Println(p.Views())
	fmt.Println(sparse.Names(), ep[:2])
	// Output:
	// [dataloading loss dense sparse spmd_dense_for_fwdbwd spmd_sparse_for_fwdbwd]
	// [pp dp_replicate efsdp ep] [[0 1] [2 3]]
}

func ExampleResolveWorldSize() {
	size, source, _ := offlinemesh.ResolveWorldSize(16)
	fmt.Println(size, source)
	_, _, err := offlinemesh.ResolveWorldSize(-8)
	fmt.Println(errors.Is(err, offlinemesh.ErrInvalidArgument), err)
	// Output:
	// 16 given explicitly
	// true offlinemesh: world size must be >= 1 (or 0 to discover it), got -8
}

func ExampleCheckConfig() {
	typo := []byte("accelerator:\n  tp_size: 2\n  tpsize: 4\n")
	d, diags, err := offlinemesh.CheckConfig(typo, false)
	fmt.Println(d.TP, err, diags)
	_, _, err = offlinemesh.CheckConfig(typo, true)
	fmt.Println(errors.Is(err, offlinemesh.ErrParse))
	// Output:
	// 2 <nil> [line 3: unknown key "tpsize" in accelerator (did you mean "tp_size"?)]
	// true
}
