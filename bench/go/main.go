// Command bench-go measures the Go binding and prints ratios from one run:
// bulk Groups against a warm copy of the same number of ints (the cheapest
// honest baseline: the result has to be written somewhere) and against the
// Go floor of the result type (a fresh [][]int of the same shape filled by
// copying the ready answer: what any binding must pay to return one), and the
// per-call cost of Coordinate and GroupOf in ns/call, printed the same way
// as bench/java/MeshBench.java so the two can be compared.
//
//	cd bench/go && PKG_CONFIG_PATH=<build>/meson-uninstalled \
//	    LD_LIBRARY_PATH=<build>/src go run .
//
// Every result is consumed (a checksum printed at the end), so nothing is
// optimised away. Each figure is the best of ten turns taken alternately
// with its baselines (a shared machine's load hits all alike). No
// thresholds: the numbers are for people to read.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"time"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/offlinemesh"
)

var sink int

// best returns, for each of fs, the lowest of ten perOp means, measured in
// turns (f1, f2, ..., f1, f2, ...), so that load from other processes on a
// shared machine hits all alike and the minimum filters it out.
func best(d time.Duration, fs ...func()) []float64 {
	out := make([]float64, len(fs))
	for i := range out {
		out[i] = math.Inf(1)
	}
	for range 10 {
		for i, f := range fs {
			out[i] = math.Min(out[i], perOp(d/10, f))
		}
	}
	return out
}

// perOp runs f repeatedly for about d and returns the mean time per call.
func perOp(d time.Duration, f func()) float64 {
	f() // warm: first-touch page faults, caches
	n := 1
	for {
		start := time.Now()
		for i := 0; i < n; i++ {
			f()
		}
		el := time.Since(start)
		if el >= d {
			return float64(el.Nanoseconds()) / float64(n)
		}
		n *= 2
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-go:", err)
		os.Exit(1)
	}
	return v
}

func must2[T, U any](v T, u U, err error) (T, U) { return must(v, err), u }

func main() {
	d := flag.Duration("time", 300*time.Millisecond, "time per measurement")
	flag.Parse()

	fmt.Println("Groups vs a warm copy of the same number of ints (ratio = Groups / copy), and vs the Go floor")
	fmt.Println("(a fresh [][]int of the same shape, filled by copying the ready answer; floor = floor / copy)")
	fmt.Printf("%-24s %-8s %11s %10s %7s %11s %7s %9s\n", "mesh", "axes", "Groups ns", "copy ns", "ratio",
		"floor ns", "floor", "vs floor")
	cases := []struct {
		spec string
		axes []string
	}{
		{"dp=256,cp=64,tp=64", []string{"cp"}},         // strided, 2^20 ranks
		{"dp=256,cp=64,tp=64", []string{"tp"}},         // contiguous
		{"dp=256,cp=64,tp=64", []string{"dp", "tp"}},   // two axes
		{"dp=1048576", []string{}},                     // 2^20 groups of one rank
		{"dp=7,cp=3,tp=5,pp=11", []string{"cp", "pp"}}, // awkward sizes, 1155 ranks
		{"dp=64,cp=16,tp=16,pp=64", []string{"cp"}},    // 2^20 x 8 B = 8 MiB ... DRAM below
		{"dp=1024,cp=64,tp=256", []string{"cp"}},       // 2^24 ranks: 128 MiB, past L3
	}
	for _, c := range cases {
		m := must(offlinemesh.ParseMeshSpec(c.spec))
		n := m.Size()
		src := make([]int, n)
		for i := range src {
			src[i] = i
		}
		dst := make([]int, n)
		answer, size := must2(m.GroupsFlat(c.axes...))
		t := best(*d, func() {
			g := must(m.Groups(c.axes...))
			sink += g[len(g)-1][len(g[0])-1]
		}, func() {
			copy(dst, src)
			sink += dst[n-1]
		}, func() {
			all := make([]int, n)
			copy(all, answer)
			g := make([][]int, n/size)
			for i := range g {
				g[i] = all[i*size : (i+1)*size : (i+1)*size]
			}
			sink += g[len(g)-1][size-1]
		})
		groups, cp, floor := t[0], t[1], t[2]
		fmt.Printf("%-24s %-8s %11.0f %10.0f %6.2fx %11.0f %6.2fx %8.2fx\n", c.spec, fmt.Sprint(c.axes),
			groups, cp, groups/cp, floor, floor/cp, groups/floor)
		m.Close()
	}

	runtime.GC() // drop the big tables above before timing small calls
	fmt.Println()
	fmt.Println("per call (ns/call), mesh dp=16,cp=4,tp=8 (512 ranks); compare with bench/java")
	m := must(offlinemesh.ParseMeshSpec("dp=16,cp=4,tp=8"))
	defer m.Close()
	big := must(offlinemesh.ParseMeshSpec("dp=256,cp=64,tp=64"))
	defer big.Close()
	r := 0
	calls := []struct {
		name string
		f    func()
	}{
		{"coordinate(rank)", func() { sink += must(m.Coordinate(r % 512))[0]; r++ }},
		{"groupOf(rank, dp)", func() { sink += must(m.GroupOf(r%512, "dp"))[0]; r++ }},
		{"groupOf(rank, dp) 2^20 mesh", func() { sink += must(big.GroupOf(r%1048576, "dp"))[0]; r++ }},
		{"size(tp)", func() { sink += m.SizeOf("tp") }},
	}
	for _, c := range calls {
		ns := best(*d, c.f)[0]
		fmt.Printf("go  %-30s %10.1f ns/call\n", c.name, ns)
	}
	fmt.Println("checksum", sink)
}
