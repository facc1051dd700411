// Hand-written companion of the SWIG-generated omswig.go and omswig_wrap.c
// (see ../../offline_mesh_go.i and ../../regen.sh): the Go types the
// typemaps map C types to, and the cgo link directive.

// Package omswig is the low-level, SWIG-generated mirror of the
// liboffline_mesh C API. It is internal: use package offlinemesh.
package omswig

// #cgo pkg-config: offline_mesh
import "C"

import (
	"bytes"
	"unsafe"
)

// Error has the exact memory layout of om_error, so a *Error is passed to C
// as the `om_error *err` of every call (omswig_wrap.c asserts the C side).
type Error struct {
	Status  int32
	Message [OM_ERROR_MESSAGE_SIZE]byte
}

// The wrappers were generated with -intgosize 64: Go's int must be 64 bits
// (this fails to compile on 32-bit platforms instead of miscalling C).
var _ [unsafe.Sizeof(int(0)) - 8]struct{}

// The Go mirror of om_error has no padding: 4 + OM_ERROR_MESSAGE_SIZE bytes.
var _ [unsafe.Sizeof(Error{}) - 4 - uintptr(OM_ERROR_MESSAGE_SIZE)]struct{}
var _ [4 + uintptr(OM_ERROR_MESSAGE_SIZE) - unsafe.Sizeof(Error{})]struct{}

// Text is the message up to its terminating NUL.
func (e *Error) Text() string {
	if i := bytes.IndexByte(e.Message[:], 0); i >= 0 {
		return string(e.Message[:i])
	}
	return string(e.Message[:])
}

// packNames packs a string list (OM_STRINGS) as "dp\x00cp\x00tp\x00", one
// NUL after each item: a []string holds Go pointers and may not be passed
// to C. Items must not contain NUL bytes (the caller checks).
func packNames(names []string) string {
	n := 0
	for _, s := range names {
		n += len(s) + 1
	}
	b := make([]byte, 0, n)
	for _, s := range names {
		b = append(b, s...)
		b = append(b, 0)
	}
	return string(b)
}
