package offlinemesh

import (
	"strings"
	"testing"
	"time"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// Run: go test -run '^$' -bench . -benchmem ./offlinemesh (see docs/go.md).

var (
	benchNames = []string{"dp", "cp", "tp"}
	benchShape = []int{16, 4, 8}
	sinkInt    int
	sinkMesh   *Mesh
	sinkGroups [][]int
)

func BenchmarkNewMesh(b *testing.B) {
	for i := 0; i < b.N; i++ {
		m, err := NewMesh(benchNames, benchShape)
		if err != nil {
			b.Fatal(err)
		}
		sinkMesh = m
	}
}

func BenchmarkSizeOf(b *testing.B) {
	m := mustMesh(b, benchNames, benchShape)
	for i := 0; i < b.N; i++ {
		sinkInt += m.SizeOf("tp")
	}
}

func BenchmarkSub(b *testing.B) {
	m := mustMesh(b, benchNames, benchShape)
	for i := 0; i < b.N; i++ {
		sinkMesh = m.Sub("tp")
	}
}

func BenchmarkBuildOfflineMesh(b *testing.B) {
	d := ParallelDims{DP: 16, TP: 8, CP: 4, EP: 1, PP: 2}
	for i := 0; i < b.N; i++ {
		m, err := BuildOfflineMesh(d)
		if err != nil {
			b.Fatal(err)
		}
		sinkMesh = m
	}
}

func BenchmarkParseParallelDims(b *testing.B) {
	cfg := []byte("model: llama\naccelerator:\n  tp_size: 8\n  cp_size: 2\n  pp_size: 4\n  sequence_parallel: true\n")
	for i := 0; i < b.N; i++ {
		d, err := ParseParallelDims(cfg, 512)
		if err != nil {
			b.Fatal(err)
		}
		sinkInt += d.DP
	}
}

func BenchmarkMarshalJSON(b *testing.B) {
	m := mustMesh(b, benchNames, benchShape)
	for i := 0; i < b.N; i++ {
		out, err := m.MarshalJSON()
		if err != nil {
			b.Fatal(err)
		}
		sinkInt += len(out)
	}
}

func BenchmarkParseMesh(b *testing.B) {
	text := []byte(`{"mesh_dim_names":["dp","cp","tp"],"mesh_shape":[16,4,8]}`)
	for i := 0; i < b.N; i++ {
		m, err := ParseMesh(text)
		if err != nil {
			b.Fatal(err)
		}
		sinkMesh = m
	}
}

func BenchmarkCoordinate(b *testing.B) {
	m := mustMesh(b, benchNames, benchShape)
	n := m.Size()
	for i := 0; i < b.N; i++ {
		c, err := m.Coordinate(i % n)
		if err != nil {
			b.Fatal(err)
		}
		sinkInt += c[0]
	}
}

func BenchmarkGroupOf(b *testing.B) {
	m := mustMesh(b, benchNames, benchShape)
	n := m.Size()
	for i := 0; i < b.N; i++ {
		g, err := m.GroupOf(i%n, "dp")
		if err != nil {
			b.Fatal(err)
		}
		sinkInt += g[0]
	}
}

// The bulk groups of a 2^20-rank mesh over its middle axis (a strided,
// non-contiguous pattern).
var bigNames, bigShape = []string{"dp", "cp", "tp"}, []int{256, 64, 64}

func BenchmarkGroups1M(b *testing.B) {
	m := mustMesh(b, bigNames, bigShape)
	b.SetBytes(int64(m.Size()) * 8)
	for i := 0; i < b.N; i++ {
		g, err := m.Groups("cp")
		if err != nil {
			b.Fatal(err)
		}
		sinkGroups = g
	}
}

// BenchmarkGroups1MPureGo is the same result computed by a plain Go loop,
// for comparison with BenchmarkGroups1M.
func BenchmarkGroups1MPureGo(b *testing.B) {
	dp, cp, tp := bigShape[0], bigShape[1], bigShape[2]
	b.SetBytes(int64(dp*cp*tp) * 8)
	for i := 0; i < b.N; i++ {
		all := make([]int, dp*cp*tp)
		out := make([][]int, dp*tp)
		k := 0
		for d := 0; d < dp; d++ {
			for t := 0; t < tp; t++ {
				g := all[k : k+cp : k+cp]
				for c := 0; c < cp; c++ {
					g[c] = (d*cp+c)*tp + t
				}
				out[d*tp+t] = g
				k += cp
			}
		}
		sinkGroups = out
	}
}

func BenchmarkExpertLayout(b *testing.B) {
	m := mustMesh(b, benchNames, benchShape)
	for i := 0; i < b.N; i++ {
		x, err := ExpertLayout(m, 8, 64)
		if err != nil {
			b.Fatal(err)
		}
		sinkInt += x.EDP()
	}
}

func BenchmarkLocality1M(b *testing.B) {
	m := mustMesh(b, bigNames, bigShape)
	for i := 0; i < b.N; i++ {
		loc, err := m.Locality(8, "cp")
		if err != nil {
			b.Fatal(err)
		}
		sinkInt += loc.MaxHosts
	}
}

// BenchmarkGroupsVsCopy times Groups against a warm copy of the same number
// of ints (the result has to be written somewhere: the cheapest honest
// baseline; the copy's destination is read back, so it cannot be dropped)
// and reports their ratio from one run (the best turn of each, taken
// alternately), with the ratio of the C enumeration alone (into a ready
// buffer) and of the Go floor of the result (a fresh [][]int of the same
// shape filled by copying the ready answer: what returning one costs in
// Go, whatever the binding does) beside it:
//
//	go test -run '^$' -bench GroupsVsCopy ./offlinemesh
func BenchmarkGroupsVsCopy(b *testing.B) {
	for _, c := range []struct {
		spec string
		axes []string
	}{
		{"dp=256,cp=64,tp=64", []string{"cp"}},
		{"dp=256,cp=64,tp=64", []string{"tp"}},
		{"dp=256,cp=64,tp=64", []string{"dp", "tp"}},
		{"dp=64,cp=16,tp=16,pp=64", []string{"cp"}},
		{"dp=131071,cp=2,tp=4", []string{"cp"}},        // a prime axis
		{"dp=1024,cp=64,tp=256", []string{"cp"}},       // 2^24 ranks, DRAM
		{"dp=1048576", nil},                            // 2^20 groups of one rank
		{"dp=7,cp=3,tp=5,pp=11", []string{"cp", "pp"}}, // small, odd sizes
	} {
		b.Run(c.spec+"/"+strings.Join(c.axes, "+"), func(b *testing.B) {
			m, err := ParseMeshSpec(c.spec)
			if err != nil {
				b.Fatal(err)
			}
			src, dst := make([]int, m.Size()), make([]int, m.Size())
			best := func(f func()) time.Duration {
				t := time.Duration(1 << 62)
				for range 3 {
					start := time.Now()
					f()
					t = min(t, time.Since(start))
				}
				return t
			}
			count, size, _ := m.GroupShape(c.axes...)
			raw := make([]int, count*size+1)
			groups, flat, copies, calls := time.Duration(1<<62), time.Duration(1<<62), time.Duration(1<<62), time.Duration(1<<62)
			floor := time.Duration(1 << 62)
			answer, _, _ := m.GroupsFlat(c.axes...)
			for i := 0; i < b.N; i++ {
				groups = min(groups, best(func() {
					g, err := m.Groups(c.axes...)
					if err != nil {
						b.Fatal(err)
					}
					sinkInt += g[len(g)-1][0]
				}))
				copies = min(copies, best(func() { copy(dst, src); sinkInt += dst[len(dst)-1] }))
				flat = min(flat, best(func() {
					g, _, err := m.GroupsFlat(c.axes...)
					if err != nil {
						b.Fatal(err)
					}
					sinkInt += g[len(g)-1]
				}))
				floor = min(floor, best(func() { // a fresh [][]int of the same shape, filled by a copy
					all := make([]int, len(answer))
					copy(all, answer)
					g := make([][]int, count)
					for i := range g {
						g[i] = all[i*size : (i+1)*size : (i+1)*size]
					}
					sinkInt += g[len(g)-1][0]
				}))
				calls = min(calls, best(func() { // the C enumeration alone, into a ready buffer
					_ = omswig.Om_mesh_groups_named(m.c(), c.axes, 0, count, raw)
					sinkInt += raw[len(raw)-2]
				}))
			}
			b.ReportMetric(float64(groups)/float64(copies), "x-copy")
			b.ReportMetric(float64(flat)/float64(copies), "flat-x-copy")
			b.ReportMetric(float64(calls)/float64(copies), "C-x-copy")
			b.ReportMetric(float64(floor)/float64(copies), "floor-x-copy")
		})
	}
}
