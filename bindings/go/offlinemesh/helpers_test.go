package offlinemesh

import (
	"errors"
	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
	"strings"
	"testing"
)

// wantErr checks that err is an *Error with status s whose message holds
// every one of parts, usable with both errors.Is and errors.As.
func wantErr(t *testing.T, err error, s Status, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %v", s)
	}
	if !errors.Is(err, s) {
		t.Fatalf("errors.Is(%v, %v) is false", err, s)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *Error", err, err)
	}
	if e.Status != s {
		t.Fatalf("status %v, want %v (%v)", e.Status, s, err)
	}
	if e.Message == "" {
		t.Fatalf("error %v has no message", err)
	}
	for _, p := range parts {
		if !strings.Contains(e.Message, p) {
			t.Errorf("message %q lacks %q", e.Message, p)
		}
	}
}

func mustMesh(t testing.TB, names []string, shape []int) *Mesh {
	t.Helper()
	m, err := NewMesh(names, shape)
	if err != nil {
		t.Fatalf("NewMesh(%q, %v): %v", names, shape, err)
	}
	return m
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalGroups(a, b [][]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !equalInts(a[i], b[i]) {
			return false
		}
	}
	return true
}

// handle is the C mesh of m for tests that call the SWIG layer directly
// (the shared empty mesh for the zero Mesh).
func (m *Mesh) handle() (*omswig.Handle, *omswig.Handle, error) {
	return m.c(), m.h, nil
}
