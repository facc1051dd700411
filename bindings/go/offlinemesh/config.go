package offlinemesh

import (
	"fmt"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// Diagnostic is what is probably a mistake in a training config: a
// misspelled key inside accelerator: (with "did you mean"), a missing or
// empty accelerator: section, an empty file, or a mesh JSON given as a
// config. The library returns them and never prints.
type Diagnostic struct {
	Kind    DiagnosticKind
	Line    int    // 1-based; 0 when it concerns the whole document
	Message string // e.g. `line 3: unknown key "tpsize" in accelerator (did you mean "tp_size"?)`
}

// String is the message.
func (d Diagnostic) String() string { return d.Message }

// DiagnosticKind says what a Diagnostic is about.
type DiagnosticKind int

// The kinds of diagnostics (pinned values of om_diagnostic_kind).
const (
	UnknownKey       DiagnosticKind = iota // a key in accelerator: no field has
	NoAccelerator                          // no accelerator: section
	EmptyAccelerator                       // accelerator: null or {}
	EmptyConfig                            // nothing but comments or a null
	MeshJSON                               // a mesh JSON, not a config
	DuplicateKey                           // a key given twice (since 1.3)
)

// String is e.g. "UnknownKey".
func (k DiagnosticKind) String() string {
	names := []string{"UnknownKey", "NoAccelerator", "EmptyAccelerator", "EmptyConfig", "MeshJSON",
		"DuplicateKey"}
	if k >= 0 && int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("DiagnosticKind(%d)", int(k))
}

// CheckConfig projects a training YAML document as ProjectParallelDims does
// (DP 0 unless given; follow with ResolveWorldSize) and also returns its
// diagnostics. Lenient (strict false): diagnostics never fail the call.
// Strict: any diagnostic is ErrParse with the first one's message, and the
// diagnostics are still returned. Texts over 64 MiB are ErrInvalidArgument.
func CheckConfig(yaml []byte, strict bool) (ParallelDims, []Diagnostic, error) {
	return checked(func(list, out *omswig.Handle) error {
		return omswig.Om_dims_parse_yaml_checked(yaml, strict, list, out)
	})
}

// CheckConfigFile is CheckConfig of the file at path (messages start with
// the path; ErrIO as ReadParallelDims).
func CheckConfigFile(path string, strict bool) (ParallelDims, []Diagnostic, error) {
	return checked(func(list, out *omswig.Handle) error {
		return omswig.Om_dims_read_yaml_checked(path, strict, list, out)
	})
}

func checked(f func(list, out *omswig.Handle) error) (ParallelDims, []Diagnostic, error) {
	list, h := new(omswig.Handle), new(omswig.Handle)
	defer list.Close()
	defer h.Close()
	if err := omswig.Om_diagnostics_new(list); err != nil {
		return ParallelDims{}, nil, err
	}
	err := f(list, h)
	diags := make([]Diagnostic, omswig.Om_diagnostics_count(list))
	for i := range diags {
		d := &diags[i]
		d.Kind, d.Line = DiagnosticKind(omswig.Om_diagnostics_kind(list, i)), omswig.Om_diagnostics_line(list, i)
		_ = omswig.Om_diagnostics_message(list, i, &d.Message)
	}
	if err != nil {
		return ParallelDims{}, diags, err
	}
	d, _, err := fromC(h, true)
	return d, diags, err
}
