package offlinemesh

import (
	"errors"
	"fmt"
	"testing"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

func TestStatusValuesMatchTheLibrary(t *testing.T) {
	pairs := []struct {
		goValue Status
		cValue  omswig.Enum_SS_om_status
		name    string
	}{
		{OK, omswig.OM_OK, "ok"},
		{ErrInvalidArgument, omswig.OM_ERR_INVALID_ARGUMENT, "invalid argument"},
		{ErrOutOfRange, omswig.OM_ERR_OUT_OF_RANGE, ""},
		{ErrParse, omswig.OM_ERR_PARSE, ""},
		{ErrIO, omswig.OM_ERR_IO, ""},
		{ErrNoMemory, omswig.OM_ERR_NO_MEMORY, ""},
		{ErrLengthMismatch, omswig.OM_ERR_LENGTH_MISMATCH, ""},
		{ErrDuplicateName, omswig.OM_ERR_DUPLICATE_NAME, ""},
		{ErrEmptyName, omswig.OM_ERR_EMPTY_NAME, ""},
		{ErrBadSize, omswig.OM_ERR_BAD_SIZE, ""},
		{ErrMeshTooLarge, omswig.OM_ERR_MESH_TOO_LARGE, ""},
		{ErrInvalidName, omswig.OM_ERR_INVALID_NAME, ""},
		{ErrBufferTooSmall, omswig.OM_ERR_BUFFER_TOO_SMALL, ""},
		{ErrUnknownAxis, omswig.OM_ERR_UNKNOWN_AXIS, ""},
		{ErrRankCollision, omswig.OM_ERR_RANK_COLLISION, ""},
		{ErrOutsideWorld, omswig.OM_ERR_OUTSIDE_WORLD, ""},
		{ErrAxisOrder, omswig.OM_ERR_AXIS_ORDER, ""},
		{ErrSizeMismatch, omswig.OM_ERR_SIZE_MISMATCH, ""},
		{ErrUnaligned, omswig.OM_ERR_UNALIGNED, ""},
		{ErrViewConflict, omswig.OM_ERR_VIEW_CONFLICT, ""},
		{ErrUnknownView, omswig.OM_ERR_UNKNOWN_VIEW, ""},
	}
	seen := map[string]bool{}
	for _, p := range pairs {
		if int(p.goValue) != int(p.cValue) {
			t.Errorf("Go status %d, C status %d", p.goValue, p.cValue)
		}
		s := p.goValue.String()
		if s == "" || s == "unknown status" || seen[s] {
			t.Errorf("status %d has name %q", p.goValue, s)
		}
		seen[s] = true
		if p.name != "" && s != p.name {
			t.Errorf("status %d is %q, want %q", p.goValue, s, p.name)
		}
		if p.goValue.Error() != s || fmt.Sprint(p.goValue) != s {
			t.Errorf("Status.Error() = %q", p.goValue.Error())
		}
	}
	if s := Status(99).String(); s != "unknown status" {
		t.Errorf("Status(99) = %q", s)
	}
}

func TestErrorType(t *testing.T) {
	_, err := NewMesh([]string{"dp", "dp"}, []int{2, 2})
	var e *Error
	if !errors.As(err, &e) || e.Status != ErrDuplicateName {
		t.Fatalf("errors.As: %v", err)
	}
	if err.Error() != "offlinemesh: "+e.Message {
		t.Fatalf("Error() = %q, message %q", err.Error(), e.Message)
	}
	if !errors.Is(err, ErrDuplicateName) || errors.Is(err, ErrEmptyName) || errors.Is(err, OK) {
		t.Fatal("errors.Is does not follow the status")
	}
	// Still recognised through the caller's own wrapping.
	wrapped := fmt.Errorf("loading job %q: %w", "llama", err)
	if !errors.Is(wrapped, ErrDuplicateName) || !errors.As(wrapped, &e) {
		t.Fatal("wrapped error lost its status")
	}
	// An *Error without a message falls back to the status name.
	if got := (&Error{Status: ErrIO}).Error(); got != "offlinemesh: "+ErrIO.String() {
		t.Fatalf("empty message: %q", got)
	}
}

func TestFromC(t *testing.T) {
	h := new(omswig.Handle)
	if err := omswig.Om_mesh_new_checked([]string{"a"}, []int{2}, h); err != nil || !h.Open() {
		t.Fatalf("a valid mesh: %v", err)
	}
	h.Close()
	// The message and status come from the om_error the failing call filled.
	h = new(omswig.Handle)
	err := omswig.Om_mesh_new_checked([]string{"a"}, []int{1, 2}, h)
	wantErr(t, err, ErrLengthMismatch)
	if h.Open() {
		t.Fatal("failed call returned a handle")
	}
	// Long values in messages are shortened, never overflow the buffer.
	long := make([]byte, 1000)
	for i := range long {
		long[i] = 'x'
	}
	_, err = NewMesh([]string{string(long), string(long)}, []int{1, 1})
	wantErr(t, err, ErrDuplicateName)
	if len(err.Error()) > 300 {
		t.Fatalf("message not shortened: %d bytes", len(err.Error()))
	}
}

func TestStatusNames(t *testing.T) {
	for s, want := range map[Status]string{OK: "OM_OK", ErrParse: "OM_ERR_PARSE", ErrUnknownAxis: "OM_ERR_UNKNOWN_AXIS"} {
		if s.Name() != want {
			t.Errorf("Status(%d).Name() = %q, want %q", s, s.Name(), want)
		}
	}
	if ErrUnknownAxis.String() == "" || ErrUnknownAxis.String() == ErrInvalidArgument.String() {
		t.Errorf("ErrUnknownAxis has no text of its own: %q", ErrUnknownAxis)
	}
}
