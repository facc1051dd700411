package offlinemesh

import (
	"runtime"
	"testing"
	"time"
)

// TestHandlesAreFreed checks the memory model: a Mesh needs no Close, the C
// handle behind it is freed by the runtime cleanup once the Mesh is
// unreachable, so a caller that "forgets" leaks nothing.
func TestHandlesAreFreed(t *testing.T) {
	runtime.GC()
	base := liveHandles.Load()
	const n = 5000
	for i := 0; i < n; i++ {
		m := mustMesh(t, []string{"dp", "tp"}, []int{2, i%7 + 1})
		if _, err := m.Sub("tp").Groups("tp"); err != nil { // lazy twin too
			t.Fatal(err)
		}
		if _, err := BuildOfflineMesh(ParallelDims{DP: 2, TP: 2}); err != nil {
			t.Fatal(err)
		}
	}
	if got := liveHandles.Load() - base; got <= 0 || got > 3*n {
		t.Fatalf("%d live handles after creating %d meshes", got, 3*n)
	}
	deadline := time.Now().Add(10 * time.Second)
	for liveHandles.Load() > base && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if left := liveHandles.Load() - base; left > 0 {
		t.Fatalf("%d C handles were never freed", left)
	}
}

// TestHandleOutlivesCopies checks that a copied Mesh keeps the shared C
// handle alive.
func TestHandleOutlivesCopies(t *testing.T) {
	m := mustMesh(t, []string{"dp", "cp", "tp"}, []int{2, 2, 2})
	cp := *m
	m = nil
	for i := 0; i < 5; i++ {
		runtime.GC()
	}
	g, err := cp.Groups("tp")
	if err != nil || !equalGroups(g, [][]int{{0, 1}, {2, 3}, {4, 5}, {6, 7}}) {
		t.Fatalf("copy after GC: %v %v", g, err)
	}
}
