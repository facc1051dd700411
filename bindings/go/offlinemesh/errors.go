package offlinemesh

import (
	"fmt"
	"strings"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// Status is a status code of the C library (om_status). The values are
// pinned by the library's 1.x ABI. Every status other than OK is also an
// error value, so a returned error can be tested with errors.Is:
//
//	if errors.Is(err, offlinemesh.ErrParse) { ... }
//
// String is the library's English name ("parse error"), Name the C
// identifier ("OM_ERR_PARSE").
type Status = omswig.Status

// The library's status codes.
const (
	OK                 Status = iota // success
	ErrInvalidArgument               // a bad value or an inconsistent combination
	ErrOutOfRange                    // a number beyond its limits (rank, coordinate, size over 2^31-1)
	ErrParse                         // malformed YAML, JSON or spec text, or a value of the wrong type in it
	ErrIO                            // a file could not be opened or read
	ErrNoMemory                      // an allocation failed
	ErrLengthMismatch                // mesh names and shape differ in length
	ErrDuplicateName                 // an axis name appears twice
	ErrEmptyName                     // an axis name is empty
	ErrBadSize                       // an axis size is < 1
	ErrMeshTooLarge                  // the product of the sizes exceeds 2^31-1
	ErrInvalidName                   // an axis name is not valid UTF-8 (or holds a NUL byte)
	ErrBufferTooSmall                // a buffer cannot hold the result
	ErrUnknownAxis                   // an axis named in a set is not in the mesh
	ErrRankCollision                 // two coordinates of a view give one rank
	ErrOutsideWorld                  // a view reaches a rank outside the world
	ErrAxisOrder                     // axes named out of view order (Flatten)
	ErrSizeMismatch                  // Unflatten sizes do not multiply to the axis size
	ErrUnaligned                     // an Unflatten would cut one of the axis's modes
	ErrViewConflict                  // two views of a world give one axis different groups
	ErrUnknownView                   // a named view is not in the world
)

// Error is the error every failing function of this package returns, with
// the library's status and its one-line message naming the offending value,
// taken from the very call that failed. Error() is "offlinemesh: MESSAGE".
//
//	var e *offlinemesh.Error
//	if errors.As(err, &e) && e.Status == offlinemesh.ErrDuplicateName { ... }
type Error = omswig.Error

// errorf builds an *Error for a check done on the Go side.
func errorf(s Status, format string, args ...any) error {
	return &Error{Status: s, Message: fmt.Sprintf(format, args...)}
}

// get runs a call that writes one result through a pointer, unless pre
// (the state of the receiver, see Mesh.ok) is an error.
func get[T any](pre error, f func(*T) error) (T, error) {
	var v T
	if pre == nil {
		pre = f(&v)
	}
	return orNil(v, pre)
}

// with binds the first argument of a C call whose second one is its
// output (`om_x **out`, `char **out`, ...).
func with[A, O any](f func(A, O) error, a A) func(O) error {
	return func(out O) error { return f(a, out) }
}

// orNil returns v, or the zero value when err is set.
func orNil[T any](v T, err error) (T, error) {
	if err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// bulk runs a bulk call (OM_BUFFER: a buffer one longer than the result,
// whose last element receives the needed length) with room for guess
// values, and once more with the needed length if that was short.
func bulk(pre error, guess int, f func([]int) error) ([]int, error) {
	if pre != nil {
		return nil, pre
	}
	buf := make([]int, guess+1)
	err := f(buf)
	if e, ok := err.(*Error); ok && e.Status == ErrBufferTooSmall {
		buf = make([]int, buf[guess]+1)
		err = f(buf)
	}
	if err != nil {
		return nil, err
	}
	n := buf[len(buf)-1]
	return buf[:n:n], nil
}

// lines splits a newline-terminated list of messages.
func lines(s string, err error) ([]string, error) {
	return orNil(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' }), err)
}

// list reads n strings of h by index; none when h was closed meanwhile
// (its getters then answer "").
func list(h *omswig.Handle, n func(*omswig.Handle) int, at func(*omswig.Handle, int) string) []string {
	out := make([]string, n(h))
	for i := range out {
		out[i] = at(h, i)
	}
	if !h.Open() {
		return nil
	}
	return out
}

// marshal is the JSON the C call f writes of the object h (a World, a
// Preset or a Hierarchy; nil or closed is C's NULL, which f reports).
func marshal(h *omswig.Handle, f func(*omswig.Handle, *string) error) ([]byte, error) {
	s, err := get(nil, with(f, h))
	return []byte(s), err
}

// object is the shape of World and Preset: a pointer to one C object.
type object = struct{ h *omswig.Handle }

// newObject runs a C constructor (`om_x **out`) of a World or a Preset.
func newObject[T ~object](f func(out *omswig.Handle) error) (*T, error) {
	h := new(omswig.Handle)
	return orNil(&T{h}, f(h))
}

// handleOf is the C object of a World or a Preset: NULL for nil.
func handleOf[T ~object](p *T) *omswig.Handle {
	if p == nil {
		return nil
	}
	return object(*p).h
}

// jsonString is String of a MarshalJSON: the JSON, or the error.
func jsonString(b []byte, err error) string {
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}
