package offlinemesh

import (
	"runtime"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
	"testing"
	"time"
)

// TestHandlesAreFreed checks the memory model: a Mesh needs no Close, the C
// handle behind it is freed by the runtime cleanup once the Mesh is
// unreachable, so a caller that "forgets" leaks nothing.
func TestHandlesAreFreed(t *testing.T) {
	runtime.GC()
	base := omswig.Live.Load()
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
	if got := omswig.Live.Load() - base; got <= 0 || got > 3*n {
		t.Fatalf("%d live handles after creating %d meshes", got, 3*n)
	}
	deadline := time.Now().Add(10 * time.Second)
	for omswig.Live.Load() > base && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if left := omswig.Live.Load() - base; left > 0 {
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

// TestClose checks explicit release: Close frees the C mesh at once (the
// cleanup is cancelled, so nothing is freed twice), a second Close is a
// no-op, and calls that need the C mesh then fail while the Go copy stays
// readable.
func TestClose(t *testing.T) {
	m := mustMesh(t, []string{"dp", "tp"}, []int{2, 4})
	cp := *m
	if err := m.Close(); err != nil || m.h.Open() {
		t.Fatalf("Close: %v, handle open", err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := cp.Groups("tp") // copies share the handle
	wantErr(t, err, ErrInvalidArgument, "mesh is closed")
	_, err = m.Coordinate(0)
	wantErr(t, err, ErrInvalidArgument, "mesh is closed")
	wantErr(t, ValidateAxes(m, 1, 1, 1), ErrInvalidArgument, "mesh is closed")
	if m.Size() != 8 || m.SizeOf("tp") != 4 || !m.Equal(&cp) {
		t.Fatal("the Go copy is gone after Close")
	}
	if m.Hash() != 0 || m.String() != "<invalid mesh: offlinemesh: mesh is closed>" {
		t.Fatalf("closed mesh: hash %x, String %s", m.Hash(), m)
	}
	var zero Mesh
	if err := zero.Close(); err != nil || zero.String() != `{"mesh_dim_names":[],"mesh_shape":[]}` {
		t.Fatalf("zero Mesh after Close: %v %s", err, &zero)
	}
	x, err := ExpertLayout(MustMesh([]string{"dp"}, []int{4}), 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
	_, err = x.EPGroups()
	wantErr(t, err, ErrInvalidArgument, "mesh is closed")
}

// TestEveryHandleIsFreed: worlds, presets, hierarchies, their views and the
// C objects made for one call (dims, locality reports, diagnostics) all
// come back, closed or not.
func TestEveryHandleIsFreed(t *testing.T) {
	runtime.GC()
	base := omswig.Live.Load()
	for i := 0; i < 300; i++ {
		p, err := NewPreset("megatron", []string{"tensor_model_parallel_size=2"}, 8)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := p.World()
		v, _ := w.View("dense")
		h, _ := ParseHierarchy("host=4")
		if _, err := h.Locality(v, "tp"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := CheckConfig([]byte("accelerator:\n  tpsize: 2\n"), false); err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			p.Close()
			w.Close()
			h.Close()
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for omswig.Live.Load() > base && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if left := omswig.Live.Load() - base; left > 0 {
		t.Fatalf("%d C objects were never freed", left)
	}
}

// TestConcurrentWorlds shares one world, preset and hierarchy between
// goroutines (run under -race by run-tests.sh).
func TestConcurrentWorlds(t *testing.T) {
	p, err := NewPreset("megatron", []string{"tensor_model_parallel_size=2", "expert_model_parallel_size=2"}, 8)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := p.World()
	h, _ := ParseHierarchy("host=4")
	want, _ := p.GroupList("tp_ep")
	done := make(chan error, 8)
	for g := 0; g < 8; g++ {
		go func() {
			for i := 0; i < 200; i++ {
				v, err := w.View(w.ViewNames()[i%2])
				if err == nil {
					_, err = h.Check(v, "pp:host")
				}
				if got, err2 := p.GroupList("tp_ep"); err == nil && (err2 != nil || !equalGroups(got, want)) {
					err = errorf(ErrInvalidArgument, "GroupList differs: %v %v", got, err2)
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
