package offlinemesh

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// clearWorldEnv unsets every variable the world size is discovered from,
// for the duration of the test.
func clearWorldEnv(t *testing.T) {
	t.Helper()
	for _, v := range []string{"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
}

func TestDefaultParallelDims(t *testing.T) {
	d := DefaultParallelDims()
	want := ParallelDims{DP: 1, TP: 1, CP: 1, EP: 1, PP: 1}
	if d != want {
		t.Fatalf("DefaultParallelDims() = %+v", d)
	}
	b, err := json.Marshal(d)
	if err != nil || string(b) != `{"cp_size":1,"dp_size":1,"ep_size":1,"loss_parallel":false,"pp_size":1,"sequence_parallel":false,"tp_size":1}` {
		t.Fatalf("json = %s %v", b, err)
	}
	// A config without an accelerator section gives the same, at world size 1.
	clearWorldEnv(t)
	got, err := ParseParallelDims([]byte("model: llama\n"), 0)
	if err != nil || got != d {
		t.Fatalf("empty config: %+v %v", got, err)
	}
}

func TestParallelDimsJSON(t *testing.T) {
	d := ParallelDims{DP: 8, TP: 4, CP: 2, EP: 2, PP: 3, SequenceParallel: true}
	b, err := json.Marshal(d)
	want := `{"cp_size":2,"dp_size":8,"ep_size":2,"loss_parallel":false,"pp_size":3,"sequence_parallel":true,"tp_size":4}`
	if err != nil || string(b) != want {
		t.Fatalf("json = %s %v", b, err)
	}
	var back ParallelDims
	if err := json.Unmarshal(b, &back); err != nil || back != d {
		t.Fatalf("round trip %+v %v", back, err)
	}
	_, err = json.Marshal(ParallelDims{TP: -1})
	if err == nil {
		t.Fatal("negative size marshalled")
	}
	wantErr(t, errorsUnwrapJSON(err), ErrInvalidArgument, "-1")
}

// errorsUnwrapJSON returns the *Error inside encoding/json's wrapper.
func errorsUnwrapJSON(err error) error {
	if m, ok := err.(*json.MarshalerError); ok {
		return m.Unwrap()
	}
	return err
}

func TestBuildOfflineMeshRules(t *testing.T) {
	tests := []struct {
		name  string
		dims  ParallelDims
		names []string
		shape []int
	}{
		{"defaults: dp,cp,tp even at 1", DefaultParallelDims(), []string{"dp", "cp", "tp"}, []int{1, 1, 1}},
		{"order dp,cp,tp", ParallelDims{DP: 2, TP: 4, CP: 3, EP: 1, PP: 1}, []string{"dp", "cp", "tp"}, []int{2, 3, 4}},
		{"pp appended when > 1", ParallelDims{DP: 2, TP: 2, CP: 1, EP: 1, PP: 4}, []string{"dp", "cp", "tp", "pp"}, []int{2, 1, 2, 4}},
		{"pp 1 never an axis", ParallelDims{DP: 8, TP: 1, CP: 1, EP: 1, PP: 1}, []string{"dp", "cp", "tp"}, []int{8, 1, 1}},
		{"ep never an axis", ParallelDims{DP: 8, TP: 1, CP: 1, EP: 8, PP: 1}, []string{"dp", "cp", "tp"}, []int{8, 1, 1}},
		{"zero means not declared", ParallelDims{DP: 4, TP: 0, CP: 0, EP: 0, PP: 0}, []string{"dp"}, []int{4}},
		{"only tp declared", ParallelDims{TP: 8}, []string{"tp"}, []int{8}},
		{"nothing declared", ParallelDims{}, []string{}, []int{}},
		{"cp and pp", ParallelDims{CP: 2, PP: 2}, []string{"cp", "pp"}, []int{2, 2}},
		{"flags do not matter", ParallelDims{DP: 2, TP: 2, CP: 1, PP: 1, SequenceParallel: true, LossParallel: true}, []string{"dp", "cp", "tp"}, []int{2, 1, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := BuildOfflineMesh(tc.dims)
			if err != nil {
				t.Fatal(err)
			}
			if !m.Equal(mustMesh(t, tc.names, tc.shape)) {
				t.Fatalf("mesh %v, want %q %v", m, tc.names, tc.shape)
			}
		})
	}
}

func TestBuildOfflineMeshErrors(t *testing.T) {
	tests := []struct {
		name   string
		dims   ParallelDims
		status Status
		parts  []string
	}{
		{"negative dp", ParallelDims{DP: -1, TP: 1, CP: 1, EP: 1, PP: 1}, ErrInvalidArgument, []string{"dp_size", "-1"}},
		{"negative tp", ParallelDims{DP: 1, TP: -2}, ErrInvalidArgument, []string{"tp_size"}},
		{"negative cp", ParallelDims{CP: -3}, ErrInvalidArgument, []string{"cp_size"}},
		{"negative ep", ParallelDims{EP: -4}, ErrInvalidArgument, []string{"ep_size"}},
		{"negative pp", ParallelDims{PP: -5}, ErrInvalidArgument, []string{"pp_size"}},
		{"size over 2^31-1", ParallelDims{DP: 1 << 31}, ErrOutOfRange, []string{"dp_size"}},
		{"mesh too large", ParallelDims{DP: 1 << 16, TP: 1 << 16, CP: 1, PP: 1}, ErrMeshTooLarge, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := BuildOfflineMesh(tc.dims)
			if m != nil {
				t.Fatalf("built %v", m)
			}
			wantErr(t, err, tc.status, tc.parts...)
		})
	}
}

func TestParseParallelDims(t *testing.T) {
	clearWorldEnv(t)
	d := func(dp, tp, cp, ep, pp int, sp, lp bool) ParallelDims {
		return ParallelDims{DP: dp, TP: tp, CP: cp, EP: ep, PP: pp, SequenceParallel: sp, LossParallel: lp}
	}
	tests := []struct {
		name  string
		yaml  string
		world int
		want  ParallelDims
	}{
		{"dp derived", "accelerator:\n  tp_size: 2\n  cp_size: 2\n", 16, d(4, 2, 2, 1, 1, false, false)},
		{"dp derived with pp", "accelerator:\n  tp_size: 2\n  pp_size: 2\n", 16, d(4, 2, 1, 1, 2, false, false)},
		{"explicit dp matching world", "accelerator:\n  dp_size: 2\n  tp_size: 4\n", 8, d(2, 4, 1, 1, 1, false, false)},
		{"null dp is derived", "accelerator:\n  dp_size: null\n  tp_size: 4\n", 8, d(2, 4, 1, 1, 1, false, false)},
		{"ep does not divide the world", "accelerator:\n  ep_size: 8\n", 8, d(8, 1, 1, 8, 1, false, false)},
		{"flags", "accelerator:\n  sequence_parallel: true\n  loss_parallel: yes\n", 1, d(1, 1, 1, 1, 1, true, true)},
		{"YAML 1.1 booleans", "accelerator: {sequence_parallel: On, loss_parallel: NO}\n", 1, d(1, 1, 1, 1, 1, true, false)},
		{"booleans upper case", "accelerator: {sequence_parallel: TRUE, loss_parallel: off}\n", 1, d(1, 1, 1, 1, 1, true, false)},
		{"other keys ignored", "model: {tp_size: 99}\naccelerator:\n  tp_size: 2\n  foo: bar\n  nested: {a: 1}\n", 4, d(2, 2, 1, 1, 1, false, false)},
		{"missing accelerator", "trainer: {steps: 10}\n", 6, d(6, 1, 1, 1, 1, false, false)},
		{"null accelerator", "accelerator:\n", 3, d(3, 1, 1, 1, 1, false, false)},
		{"empty document", "", 2, d(2, 1, 1, 1, 1, false, false)},
		{"comments", "# config\naccelerator: # parallelism\n  tp_size: 2 # two\n", 2, d(1, 2, 1, 1, 1, false, false)},
		{"flow style", "accelerator: {tp_size: 4, cp_size: 2}\n", 16, d(2, 4, 2, 1, 1, false, false)},
		{"anchors and aliases", "sizes:\n  four: &four 4\naccelerator:\n  tp_size: *four\n", 8, d(2, 4, 1, 1, 1, false, false)},
		{"merge key", "base: &base\n  tp_size: 2\n  cp_size: 2\naccelerator:\n  <<: *base\n  cp_size: 1\n", 8, d(4, 2, 1, 1, 1, false, false)},
		{"CRLF", "accelerator:\r\n  tp_size: 2\r\n", 4, d(2, 2, 1, 1, 1, false, false)},
		{"UTF-8", "name: \"modèle 模型\"\naccelerator:\n  tp_size: 2 # größe\n", 2, d(1, 2, 1, 1, 1, false, false)},
		{"max size", "accelerator:\n  dp_size: 2147483647\n", 0, d(2147483647, 1, 1, 1, 1, false, false)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseParallelDims([]byte(tc.yaml), tc.world)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestParseParallelDimsErrors(t *testing.T) {
	clearWorldEnv(t)
	tests := []struct {
		name   string
		yaml   string
		world  int
		status Status
		parts  []string
	}{
		{"quoted size", "accelerator:\n  tp_size: \"2\"\n", 2, ErrParse, []string{"tp_size", "line 2"}},
		{"float size", "accelerator:\n  tp_size: 2.0\n", 2, ErrParse, []string{"tp_size"}},
		{"bool size", "accelerator:\n  tp_size: true\n", 2, ErrParse, []string{"tp_size"}},
		{"list size", "accelerator:\n  tp_size: [2]\n", 2, ErrParse, []string{"tp_size"}},
		{"zero size", "accelerator:\n  tp_size: 0\n", 2, ErrInvalidArgument, []string{"tp_size"}},
		{"negative size", "accelerator:\n  cp_size: -2\n", 2, ErrInvalidArgument, []string{"cp_size"}},
		{"size over 2^31-1", "accelerator:\n  pp_size: 2147483648\n", 2, ErrOutOfRange, []string{"pp_size"}},
		{"string flag", "accelerator:\n  sequence_parallel: \"true\"\n", 1, ErrParse, []string{"sequence_parallel"}},
		{"int flag", "accelerator:\n  loss_parallel: 1\n", 1, ErrParse, []string{"loss_parallel"}},
		{"accelerator not a mapping", "accelerator: [1, 2]\n", 1, ErrParse, []string{"accelerator"}},
		{"malformed YAML", "accelerator: {tp_size: 2\n", 1, ErrParse, nil},
		{"bad indentation", "accelerator:\n  tp_size: 2\n bad: 1\n", 1, ErrParse, nil},
		{"indivisible world", "accelerator:\n  tp_size: 4\n", 6, ErrInvalidArgument, []string{"6", "4"}},
		{"explicit dp mismatch", "accelerator:\n  dp_size: 2\n  tp_size: 2\n", 8, ErrInvalidArgument, []string{"8"}},
		{"undefined alias", "accelerator:\n  tp_size: *nope\n", 1, ErrParse, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseParallelDims([]byte(tc.yaml), tc.world)
			wantErr(t, err, tc.status, tc.parts...)
		})
	}
	_, err := ParseParallelDims([]byte("accelerator: {}\n"), -1)
	wantErr(t, err, ErrInvalidArgument, "-1")
}

func TestWorldSizeFromEnvironment(t *testing.T) {
	cfg := []byte("accelerator:\n  tp_size: 2\n")
	tests := []struct {
		name  string
		env   map[string]string
		found bool
		size  int
	}{
		{"none", nil, false, 1},
		{"torchrun", map[string]string{"WORLD_SIZE": "8"}, true, 8},
		{"open mpi", map[string]string{"OMPI_COMM_WORLD_SIZE": "4"}, true, 4},
		{"mpich", map[string]string{"PMI_SIZE": "6"}, true, 6},
		{"slurm", map[string]string{"SLURM_NTASKS": "10"}, true, 10},
		{"WORLD_SIZE first", map[string]string{"WORLD_SIZE": "2", "OMPI_COMM_WORLD_SIZE": "4", "PMI_SIZE": "6", "SLURM_NTASKS": "8"}, true, 2},
		{"OMPI before PMI", map[string]string{"OMPI_COMM_WORLD_SIZE": "4", "PMI_SIZE": "6", "SLURM_NTASKS": "8"}, true, 4},
		{"PMI before SLURM", map[string]string{"PMI_SIZE": "6", "SLURM_NTASKS": "8"}, true, 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clearWorldEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			size, found, err := WorldSizeFromEnv()
			if err != nil || size != tc.size || found != tc.found {
				t.Fatalf("WorldSizeFromEnv() = %d, %v, %v", size, found, err)
			}
			if tc.size%2 != 0 {
				return
			}
			d, err := ParseParallelDims(cfg, 0)
			if err != nil || d.DP != tc.size/2 || d.TP != 2 {
				t.Fatalf("discovered dims %+v %v", d, err)
			}
			// An explicit world size wins over the environment.
			d, err = ParseParallelDims(cfg, 32)
			if err != nil || d.DP != 16 {
				t.Fatalf("explicit world size: %+v %v", d, err)
			}
		})
	}
	for _, bad := range []string{"abc", "0", "-4", "2.5", "", "8x", "+"} {
		t.Run("bad "+bad, func(t *testing.T) {
			clearWorldEnv(t)
			t.Setenv("WORLD_SIZE", bad) // "" is set but empty: not an integer either
			_, _, err := WorldSizeFromEnv()
			wantErr(t, err, ErrInvalidArgument, "WORLD_SIZE")
			_, err = ParseParallelDims(cfg, 0)
			wantErr(t, err, ErrInvalidArgument, "WORLD_SIZE")
			if _, err := ParseParallelDims(cfg, 4); err != nil {
				t.Fatalf("explicit world size still reads the environment: %v", err)
			}
		})
	}
	t.Run("too large", func(t *testing.T) {
		clearWorldEnv(t)
		t.Setenv("SLURM_NTASKS", "2147483648")
		_, _, err := WorldSizeFromEnv()
		wantErr(t, err, ErrOutOfRange, "SLURM_NTASKS")
	})
}

func TestLoadParallelDims(t *testing.T) {
	clearWorldEnv(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "train.yaml")
	if err := os.WriteFile(path, []byte("accelerator:\n  tp_size: 4\n  pp_size: 2\n  sequence_parallel: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := LoadParallelDims(path, 64)
	want := ParallelDims{DP: 8, TP: 4, CP: 1, EP: 1, PP: 2, SequenceParallel: true}
	if err != nil || d != want {
		t.Fatalf("LoadParallelDims = %+v, %v", d, err)
	}
	m, err := BuildOfflineMesh(d)
	if err != nil || m.String() != `{"mesh_dim_names":["dp","cp","tp","pp"],"mesh_shape":[8,1,4,2]}` {
		t.Fatalf("mesh %v %v", m, err)
	}

	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("accelerator:\n  tp_size: \"4\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		path   string
		world  int
		status Status
		parts  []string
	}{
		{"missing file", filepath.Join(dir, "nope.yaml"), 1, ErrIO, []string{"nope.yaml"}},
		{"directory", dir, 1, ErrIO, []string{dir}},
		{"parse error names the file", bad, 4, ErrParse, []string{"bad.yaml", "tp_size"}},
		{"indivisible", path, 12, ErrInvalidArgument, []string{"12"}},
		{"NUL in path", path + "\x00x", 1, ErrIO, []string{`\xC0\x80x`}}, // never a shorter path
		{"negative world size", path, -8, ErrInvalidArgument, []string{"-8"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadParallelDims(tc.path, tc.world)
			wantErr(t, err, tc.status, tc.parts...)
		})
	}
}

func TestRuntimeMesh(t *testing.T) {
	d := ParallelDims{DP: 2, TP: 4, CP: 2, EP: 2, PP: 3}
	tests := []struct {
		order string
		spec  string
	}{
		{"pp,dp,cp,tp", "pp=3,dp=2,cp=2,tp=4"},
		{"tp-cp-dp-pp", "pp=3,dp=2,cp=2,tp=4"},
		{"tp-cp-ep-dp-pp", "pp=3,dp=2,cp=2,tp=4"},
		{"dp,pp,tp,cp", "dp=2,pp=3,tp=4,cp=2"},
		{"dp,cp,tp,pp", "dp=2,cp=2,tp=4,pp=3"},
	}
	for _, tc := range tests {
		m, err := BuildRuntimeMesh(d, tc.order)
		if err != nil {
			t.Fatalf("%s: %v", tc.order, err)
		}
		if s, _ := m.Spec(); s != tc.spec {
			t.Errorf("BuildRuntimeMesh(%q) = %s, want %s", tc.order, s, tc.spec)
		}
	}
	// Size-1 axes the order omits stay outermost, in offline order; pp at
	// size 1 is skipped.
	m, err := BuildRuntimeMesh(ParallelDims{DP: 4, TP: 2, CP: 1, PP: 1, EP: 1}, "tp-dp-pp")
	if s, _ := m.Spec(); err != nil || s != "cp=1,dp=4,tp=2" {
		t.Errorf("omitted size-1 axis: %v %v", m, err)
	}
	for _, bad := range []string{"", "pp,dp,cp", "pp,dp,cp,tp,tp", "pp,dp,xx,cp,tp", "pp-dp,cp,tp", "pp,,dp,cp,tp", "pp,dp,cp,tp\x00"} {
		_, err := BuildRuntimeMesh(d, bad)
		wantErr(t, err, ErrInvalidArgument)
	}
	_, err = BuildRuntimeMesh(ParallelDims{DP: -1}, "dp")
	wantErr(t, err, ErrInvalidArgument)

	for _, tc := range []struct{ in, out string }{
		{"tp-cp-ep-dp-pp", "pp,dp,ep,cp,tp"},
		{"pp,dp,cp,tp", "pp,dp,cp,tp"},
		{"tp-dp", "dp,tp"},
		{"dp", "dp"},
	} {
		got, err := NormalizeOrder(tc.in)
		if err != nil || got != tc.out {
			t.Errorf("NormalizeOrder(%q) = %q, %v; want %q", tc.in, got, err, tc.out)
		}
	}
	for _, bad := range []string{"tp-cp,dp", "tp,tp", "tp,xx", "tp,,dp", "tp\x00"} {
		_, err := NormalizeOrder(bad)
		wantErr(t, err, ErrInvalidArgument)
	}
}

func TestVersion(t *testing.T) {
	v := Version()
	if strings.Count(v, ".") != 2 || !strings.HasPrefix(v, "1.") {
		t.Fatalf("Version() = %q", v)
	}
	var major, minor, patch int
	fmt.Sscanf(v, "%d.%d.%d", &major, &minor, &patch)
	if n := VersionNumber(); n != major*10000+minor*100+patch {
		t.Fatalf("VersionNumber() = %d for %s", n, v)
	}
}
