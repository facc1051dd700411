package offlinemesh

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckConfig(t *testing.T) {
	typo := []byte("accelerator:\n  tp_size: 2\n  tpsize: 4\n")
	cases := []struct {
		name string
		yaml []byte
		kind DiagnosticKind
		line int
		part string
	}{
		{"unknown key", typo, UnknownKey, 3, `did you mean "tp_size"`},
		{"misspelled section", []byte("acclerator:\n  tp_size: 2\n"), NoAccelerator, 1, `did you mean "accelerator"`},
		{"empty section", []byte("accelerator: {}\n"), EmptyAccelerator, 1, "accelerator"},
		{"empty file", []byte("# nothing\n"), EmptyConfig, 0, "empty"},
		{"mesh JSON", []byte(`{"mesh_dim_names":["dp"],"mesh_shape":[2]}`), MeshJSON, 1, "mesh JSON"},
		{"duplicate key", []byte("accelerator:\n  tp_size: 4\n  tp_size: 2\n"), DuplicateKey, 3,
			`key "tp_size" appears again in accelerator (line 2's value 4 is replaced by 2)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Lenient: the projection succeeds and reports the mistake.
			d, diags, err := CheckConfig(tc.yaml, false)
			if err != nil || len(diags) != 1 {
				t.Fatalf("lenient: %+v %v %v", d, diags, err)
			}
			g := diags[0]
			if g.Kind != tc.kind || g.Line != tc.line || !strings.Contains(g.Message, tc.part) || g.String() != g.Message {
				t.Fatalf("diagnostic %+v (%s), want %v line %d with %q", g, g.Kind, tc.kind, tc.line, tc.part)
			}
			// Strict: the same diagnostic is an ErrParse.
			_, sdiags, err := CheckConfig(tc.yaml, true)
			wantErr(t, err, ErrParse, tc.part)
			if len(sdiags) != 1 || sdiags[0] != g {
				t.Fatalf("strict diagnostics %+v", sdiags)
			}
		})
	}
	d, diags, err := CheckConfig(typo, false)
	if err != nil || d != (ParallelDims{DP: 0, TP: 2, CP: 1, EP: 1, PP: 1}) {
		t.Fatalf("lenient dims %+v %v", d, err)
	}
	clean := []byte("accelerator:\n  tp_size: 2\n")
	if _, diags, err = CheckConfig(clean, true); err != nil || len(diags) != 0 || diags == nil {
		t.Fatalf("clean config: %v %v", diags, err)
	}
	_, diags, err = CheckConfig([]byte("accelerator:\n  tp_size: x\n"), false)
	wantErr(t, err, ErrParse, "tp_size")
	if len(diags) != 0 {
		t.Fatalf("diagnostics after a parse error: %v", diags)
	}
	// Files: messages start with the path.
	path := filepath.Join(t.TempDir(), "t.yaml")
	os.WriteFile(path, typo, 0o644)
	_, diags, err = CheckConfigFile(path, false)
	if err != nil || len(diags) != 1 || !strings.HasPrefix(diags[0].Message, path) {
		t.Fatalf("file: %v %v", diags, err)
	}
	_, _, err = CheckConfigFile(path, true)
	wantErr(t, err, ErrParse, path)
	_, _, err = CheckConfigFile(path+".none", false)
	wantErr(t, err, ErrIO)
	if s := DiagnosticKind(9).String(); s != "DiagnosticKind(9)" || MeshJSON.String() != "MeshJSON" {
		t.Fatalf("kind names %q %q", s, MeshJSON)
	}
	if DuplicateKey != 5 || DuplicateKey.String() != "DuplicateKey" || DiagnosticKind(6).String() != "DiagnosticKind(6)" {
		t.Fatalf("DuplicateKey %d %q", int(DuplicateKey), DuplicateKey)
	}
	// The last of a repeated key counts, as in PyYAML.
	d, diags, err = CheckConfig([]byte("accelerator: {tp_size: 4, tp_size: 2}\n"), false)
	if err != nil || d.TP != 2 || len(diags) != 1 || diags[0].Kind != DuplicateKey {
		t.Fatalf("duplicate key: %+v %v %v", d, diags, err)
	}
}
