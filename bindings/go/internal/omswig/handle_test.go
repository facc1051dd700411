package omswig

import (
	"runtime"
	"sync"
	"testing"
)

// TestCloseWhileInUse races Close (twice) with calls using the handle,
// directly on Handle: each call must give the right answer or see NULL,
// and every C object is freed exactly once (Live, counted by release,
// returns to where it was: a second free or a missing one shows).
func TestCloseWhileInUse(t *testing.T) {
	base := Live.Load()
	for round := 0; round < 300; round++ {
		h := new(Handle)
		if err := Om_mesh_new_checked([]string{"dp", "tp"}, []int{2, 4}, h); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		fail := make(chan string, 8)
		for g := 0; g < 6; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 30; i++ {
					switch {
					case g == 0 && i == round%30, g == 1 && i == (round*7)%30:
						h.Close()
					case g > 1:
						buf := make([]int, 3)
						err := Om_mesh_coordinate_of(h, 6, buf)
						if n := Om_mesh_size(h); n != 8 && n != 0 { // 0: NULL
							fail <- "size of a mesh of 8 ranks answered otherwise"
						}
						if err == nil && (buf[0] != 1 || buf[1] != 2 || buf[2] != 2) {
							fail <- "coordinate of rank 6 is wrong"
						} else if err != nil && err.(*Error).Status != 1 { // OM_ERR_INVALID_ARGUMENT
							fail <- err.Error()
						}
					}
					runtime.Gosched()
				}
			}()
		}
		wg.Wait()
		close(fail)
		for msg := range fail {
			t.Fatalf("round %d: %s", round, msg)
		}
		if h.Open() || Live.Load() != base {
			t.Fatalf("round %d: open %v, %d C objects live, want %d", round, h.Open(), Live.Load(), base)
		}
	}
}
