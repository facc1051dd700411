package offlinemesh

import (
	"errors"
	"runtime"
	"slices"
	"sync"
	"testing"
)

// TestCloseRacesCalls closes a mesh, a hierarchy and a world (each twice,
// from two goroutines) while four others call them in a loop, the mesh
// also as an argument (Hierarchy.Locality, NewWorld's OM_MESHES list).
// Every call must give the right answer or ErrInvalidArgument (closed is
// C's NULL), never crash nor read freed memory (-race, ASan); and no C
// object may be freed twice or left (cleanup_test counts them).
func TestCloseRacesCalls(t *testing.T) {
	for round := 0; round < 150; round++ {
		m := mustMesh(t, []string{"dp", "cp", "tp"}, []int{2, 2, 2})
		h, err := ParseHierarchy("host=4")
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewWorld(8, []string{"base"}, []*View{m})
		if err != nil {
			t.Fatal(err)
		}
		start, errs := make(chan struct{}), make(chan error, 8)
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for i := 0; i < 20; i++ {
					if err := closeRaceCalls(m, h, w); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		for _, c := range []func() error{m.Close, h.Close, w.Close, w.Close, h.Close, m.Close} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for i := 0; i < round%8*50; i++ {
					runtime.Gosched()
				}
				if err := c(); err != nil {
					errs <- err
				}
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("round %d: %v", round, err)
		}
		if m.h.Open() || h.h.Open() || w.h.Open() {
			t.Fatal("a handle is open after Close")
		}
	}
}

// closeRaceCalls makes one call of each kind; an error is a wrong answer
// or an error other than the closed handle's.
func closeRaceCalls(m *Mesh, h Hierarchy, w *World) error {
	check := func(ok bool, err error, what string) error {
		var e *Error
		switch {
		case err == nil && !ok:
			return errorf(ErrInvalidArgument, "%s: wrong answer", what)
		case err != nil && (!errors.As(err, &e) || e.Status != ErrInvalidArgument):
			return errorf(ErrInvalidArgument, "%s: %v", what, err)
		}
		return nil
	}
	c, err := m.Coordinate(5)
	if err := check(slices.Equal(c, []int{1, 0, 1}), err, "Coordinate"); err != nil {
		return err
	}
	g, err := m.GroupOf(5, "tp")
	if err := check(slices.Equal(g, []int{4, 5}), err, "GroupOf"); err != nil {
		return err
	}
	l, err := h.Locality(m, "tp")
	if err := check(len(l) == 1 && l[0].Groups == 4 && l[0].GroupsInside == 4, err, "Locality"); err != nil {
		return err
	}
	n, err := h.RanksPerDomain(0)
	if err := check(n == 4, err, "RanksPerDomain"); err != nil {
		return err
	}
	levels := h.Levels()
	if err := check(levels == nil || slices.Equal(levels, []string{"host"}), nil, "Levels"); err != nil {
		return err
	}
	names := w.ViewNames()
	if err := check(names == nil || slices.Equal(names, []string{"base"}), nil, "ViewNames"); err != nil {
		return err
	}
	w2, err := NewWorld(8, []string{"v"}, []*View{m})
	if err == nil {
		err = w2.Close()
	}
	if err := check(true, err, "NewWorld"); err != nil {
		return err
	}
	j, err := w.MarshalJSON()
	return check(len(j) > 0, err, "World.MarshalJSON")
}
