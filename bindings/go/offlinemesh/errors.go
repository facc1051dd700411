package offlinemesh

import (
	"fmt"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// Status is a status code of the C library (om_status). The values are
// pinned by the library's 1.x ABI. Every status other than OK is also an
// error value, so a returned error can be tested with errors.Is:
//
//	if errors.Is(err, offlinemesh.ErrParse) { ... }
type Status int

// The library's status codes.
const (
	OK                 Status = 0  // success
	ErrInvalidArgument Status = 1  // a bad value or an inconsistent combination
	ErrOutOfRange      Status = 2  // a number beyond its limits (rank, coordinate, size over 2^31-1)
	ErrParse           Status = 3  // malformed YAML, JSON or spec text, or a value of the wrong type in it
	ErrIO              Status = 4  // a file could not be opened or read
	ErrNoMemory        Status = 5  // an allocation failed
	ErrLengthMismatch  Status = 6  // mesh names and shape differ in length
	ErrDuplicateName   Status = 7  // an axis name appears twice
	ErrEmptyName       Status = 8  // an axis name is empty
	ErrBadSize         Status = 9  // an axis size is < 1
	ErrMeshTooLarge    Status = 10 // the product of the sizes exceeds 2^31-1
	ErrInvalidName     Status = 11 // an axis name is not valid UTF-8 (or holds a NUL byte)
	ErrBufferTooSmall  Status = 12 // a buffer cannot hold the result
	ErrUnknownAxis     Status = 13 // an axis named in a set is not in the mesh
)

// String is the library's English name of the status, e.g. "parse error".
func (s Status) String() string {
	return omswig.Om_status_string(int(s))
}

// Name is the C identifier of the status, e.g. "OM_ERR_PARSE".
func (s Status) Name() string {
	return omswig.Om_status_name(int(s))
}

// Error makes a Status usable as an error target for errors.Is; it is the
// same text as String (like syscall.Errno).
func (s Status) Error() string {
	return s.String()
}

// Error is the error every failing function of this package returns. Use
// errors.As to read the status code and the library's message:
//
//	var e *offlinemesh.Error
//	if errors.As(err, &e) && e.Status == offlinemesh.ErrDuplicateName { ... }
//
// errors.Is(err, offlinemesh.ErrDuplicateName) tests the status alone.
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

// fromC turns the result of a C call into a Go error: nil on success,
// otherwise an *Error with the status and message the failing call itself
// wrote to its om_error (there is no thread-local error state to consult).
func fromC(status int, e *omswig.Error) error {
	if status == int(OK) {
		return nil
	}
	s := Status(status)
	if e.Status != 0 {
		s = Status(e.Status)
	}
	return &Error{Status: s, Message: e.Text()}
}

// errorf builds an *Error for a check done on the Go side (values C cannot
// receive, such as strings with NUL bytes).
func errorf(s Status, format string, args ...any) error {
	return &Error{Status: s, Message: fmt.Sprintf(format, args...)}
}
