// Hand-written companion of the SWIG-generated omswig.go and omswig_wrap.c
// (see ../../offline_mesh_go.i and ../../regen.sh): the Go types the
// typemaps map C types to, and the cgo link directive.

// Package omswig is the low-level, SWIG-generated mirror of the
// liboffline_mesh C API. It is internal: use package offlinemesh.
package omswig

// #cgo pkg-config: offline_mesh
import "C"

import (
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"
)

// The wrappers were generated with -intgosize 64: Go's int must be 64 bits
// (this fails to compile on 32-bit platforms instead of miscalling C).
var _ [unsafe.Sizeof(int(0)) - 8]struct{}

// Status is a status code of the C library (om_status).
type Status int

// String is the library's English name of the status, e.g. "parse error".
func (s Status) String() string { return Om_status_string(int(s)) }

// Name is the C identifier of the status, e.g. "OM_ERR_PARSE".
func (s Status) Name() string { return Om_status_name(int(s)) }

// Error makes a Status an errors.Is target (the text of String).
func (s Status) Error() string { return s.String() }

// Error is a failed call: the library's status and its one-line message.
type Error struct {
	Status  Status // the library's status code, never OK
	Message string // one line naming the offending value
}

// Error returns "offlinemesh: " followed by the library's message.
func (e *Error) Error() string {
	if e.Message == "" {
		return "offlinemesh: " + e.Status.String()
	}
	return "offlinemesh: " + e.Message
}

// Unwrap returns the Status, for errors.Is.
func (e *Error) Unwrap() error { return e.Status }

// statusError reads the status text of a wrapper ("" for OM_OK, else
// "STATUS MESSAGE", written from the failing call's own om_error).
func statusError(s string) error {
	if s == "" {
		return nil
	}
	code, msg, _ := strings.Cut(s, " ")
	n, _ := strconv.Atoi(code)
	return &Error{Status: Status(n), Message: msg}
}

// Handle owns one C object: c[0] is its pointer, c[1] its destructor
// (written by the call that made it, never changed after). A cleanup frees
// it once the Handle is unreachable, unless Close did so first. A nil or
// closed Handle is NULL.
//
// Close may race with calls using the handle (as os.File's): each call
// holds a use of it (state counts them in steps of 2; bit 0 is "closed"),
// a call that starts after Close gets NULL, and whoever ends the last use
// of a closed handle frees the object, exactly once.
type Handle struct {
	c       [2]uint64
	state   atomic.Uint64
	cleanup runtime.Cleanup
}

// Live counts C objects not yet freed (the cleanup test reads it).
var Live atomic.Int64

func release(c [2]uint64) {
	Omgo_release(c[1], c[0])
	Live.Add(-1)
}

// track arms the cleanup of a handle a call has just filled.
func (h *Handle) track() {
	if h.c[0] != 0 {
		Live.Add(1)
		h.cleanup = runtime.AddCleanup(h, release, h.c)
	}
}

// use starts a call's use of the C object: h, or nil (C's NULL) when h is
// closed; done ends it. An empty handle (NULL) is not counted.
func (h *Handle) use() *Handle {
	if h == nil || h.c[0] == 0 {
		return h
	}
	for s := h.state.Load(); s&1 == 0; s = h.state.Load() {
		if h.state.CompareAndSwap(s, s+2) {
			return h
		}
	}
	return nil
}

func (h *Handle) done() {
	if h != nil && h.c[0] != 0 && h.state.Add(^uint64(1)) == 1 { // closed, and that was the last use
		release(h.c)
	}
}

// Close frees the C object now, or when the last call using it returns;
// later calls see NULL. Closing twice is a no-op.
func (h *Handle) Close() {
	for h != nil && h.c[0] != 0 {
		s := h.state.Load()
		if s&1 != 0 {
			return
		}
		if h.state.CompareAndSwap(s, s|1) {
			h.cleanup.Stop()
			if s == 0 {
				release(h.c)
			}
			return
		}
	}
}

// Open reports whether h holds a C object and is not closed.
func (h *Handle) Open() bool { return h != nil && h.c[0] != 0 && h.state.Load()&1 == 0 }

// uses starts the uses of a list of handles (OM_MESHES): their C pointers
// (0 for nil or closed ones); dones ends them.
func uses(hs []*Handle) []uintptr {
	out := make([]uintptr, len(hs))
	for i, h := range hs {
		if h = h.use(); h != nil {
			out[i] = uintptr(h.c[0])
		}
	}
	return out
}

func dones(hs []*Handle, ps []uintptr) {
	for i, h := range hs {
		if ps[i] != 0 {
			h.done()
		}
	}
}

// cString passes a Go string to C whole: a NUL byte, which would end the C
// string early, becomes "\xc0\x80" (not UTF-8, so no valid name, path or
// number), and the library refuses the value with its own status.
func cString(s string) string { return strings.ReplaceAll(s, "\x00", "\xc0\x80") }

// packNames packs a string list (OM_STRINGS) as "dp\x00cp\x00tp\x00", one
// NUL after each item: a []string holds Go pointers and may not be passed
// to C. A NUL inside an item becomes "\xc0\x80" (cString), so the library
// refuses the name instead of reading two.
func packNames(names []string) string {
	var b strings.Builder
	for _, s := range names {
		b.WriteString(cString(s))
		b.WriteByte(0)
	}
	return b.String()
}
