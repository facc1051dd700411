package offlinemesh

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// The shared bad-input table, tests/hardening/bad_inputs.json (format in
// docs/hardening.md, "The bad-input table"), run through the public Go API.

// badCase is one entry of the table.
type badCase struct {
	ID      string         `json:"id"`
	Call    string         `json:"call"`
	Args    map[string]any `json:"args"`
	Status  string         `json:"status"`
	Code    int            `json:"code"`
	Message string         `json:"message"`
	Needs   []string       `json:"needs"`
	Env     map[string]any `json:"env"`
}

// statusNames maps the table's om_status names to this package's values:
// every status the library has (OM_STATUS_COUNT grows with a release).
var statusNames = func() map[string]Status {
	names := map[string]Status{}
	for s := OK; int(s) < omswig.OM_STATUS_COUNT; s++ {
		names[s.Name()] = s
	}
	return names
}()

// What the Go API can express of the table's `needs` tags:
//   - bytes: yes, Go strings and []byte carry any bytes;
//   - env: yes, t.Setenv (cgo's setenv, which the library's getenv sees);
//   - files: yes, fixtures in t.TempDir();
//   - null: only a nil *Mesh; a string, a []string element and a
//     ParallelDims cannot be nil, and a nil []byte is the empty text (the
//     binding passes "" rather than NULL), so those cases are skipped;
//   - raw_enum: no (ParallelDims has named fields, no dim/flag numbers);
//   - c_only: no (NULL out-pointers, explicit lengths and buffers).
var supportedNeeds = map[string]bool{"bytes": true, "env": true, "files": true, "null": true}

// The calls the Go API does not expose as a failing call.
var unexposedCalls = map[string]string{
	"mesh_get":      "om_mesh_get not exposed (Mesh.Sub is pure Go and cannot fail)",
	"dims_new":      "om_dims_new not exposed (ParallelDims is a Go value)",
	"dims_copy":     "om_dims_copy not exposed (ParallelDims is a Go value)",
	"dims_set_flag": "om_dims_set_flag not exposed with a raw flag (named bool fields)",
}

var worldSizeVars = []string{"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"}

// errSkip is returned by the argument decoders for a value Go cannot pass.
type errSkip string

func (e errSkip) Error() string { return string(e) }

// repoRoot finds the repository root from this file's location (falling
// back to the working directory), as the directory that holds the table.
func repoRoot(t *testing.T) string {
	t.Helper()
	var starts []string
	if _, file, _, ok := runtime.Caller(0); ok {
		starts = append(starts, filepath.Dir(file))
	}
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	for _, dir := range starts {
		for d := dir; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "tests", "hardening", "bad_inputs.json")); err == nil {
				return d
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	t.Fatal("tests/hardening/bad_inputs.json not found above " + strings.Join(starts, ", "))
	return ""
}

func loadBadCases(t *testing.T) []badCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "tests", "hardening", "bad_inputs.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // sizes such as -2^63 and 2^63-1 must stay exact
	var file struct {
		Cases []badCase `json:"cases"`
	}
	if err := dec.Decode(&file); err != nil {
		t.Fatalf("bad_inputs.json: %v", err)
	}
	return file.Cases
}

// text decodes a text value: a string, {"hex"}, {"repeat", "count"} or
// {"concat": [...]}. JSON null is an errSkip (Go text cannot be NULL).
func text(v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return nil, errSkip("null text (a Go string or []byte cannot be NULL)")
	case string:
		return []byte(x), nil
	case map[string]any:
		if h, ok := x["hex"].(string); ok {
			return hex.DecodeString(strings.ReplaceAll(h, " ", ""))
		}
		if r, ok := x["repeat"]; ok {
			unit, err := text(r)
			if err != nil {
				return nil, err
			}
			n, err := integer(x["count"])
			if err != nil {
				return nil, err
			}
			return bytes.Repeat(unit, int(n)), nil
		}
		if parts, ok := x["concat"].([]any); ok {
			var out []byte
			for _, p := range parts {
				b, err := text(p)
				if err != nil {
					return nil, err
				}
				out = append(out, b...)
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("bad text value %v", v)
}

func integer(v any) (int64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("not an integer: %v", v)
	}
	return strconv.ParseInt(string(n), 10, 64)
}

// badArgs reads the arguments of one case.
type badArgs struct {
	m   map[string]any
	dir string // scratch directory for path fixtures
	id  string
	err error // the first decoding problem
}

func (a *badArgs) fail(err error) {
	if a.err == nil {
		a.err = err
	}
}

func (a *badArgs) has(key string) bool {
	_, ok := a.m[key]
	return ok
}

func (a *badArgs) int(key string, def int64) int {
	v, ok := a.m[key]
	if !ok {
		return int(def)
	}
	n, err := integer(v)
	if err != nil {
		a.fail(fmt.Errorf("%s: %v", key, err))
	}
	return int(n)
}

func (a *badArgs) text(key string) string {
	b, err := text(a.m[key])
	if err != nil {
		a.fail(err)
	}
	return string(b)
}

func (a *badArgs) ints(key string) []int {
	list, ok := a.m[key].([]any)
	if !ok {
		a.fail(errSkip(key + " is not a list (a NULL array)"))
		return nil
	}
	out := make([]int, len(list))
	for i, v := range list {
		n, err := integer(v)
		if err != nil {
			a.fail(err)
		}
		out[i] = int(n)
	}
	return out
}

func (a *badArgs) texts(key string) []string {
	list, ok := a.m[key].([]any)
	if !ok {
		a.fail(errSkip(key + " is not a list (a NULL array)"))
		return nil
	}
	out := make([]string, len(list))
	for i, v := range list {
		b, err := text(v)
		if err != nil {
			a.fail(err)
		}
		out[i] = string(b)
	}
	return out
}

// mesh builds the fixture mesh: a spec string, {"json": TEXT}, {"view":
// TEXT}, or a nil *Mesh when absent or null (C's NULL).
func (a *badArgs) mesh() *Mesh {
	v, ok := a.m["mesh"]
	if !ok || v == nil {
		return nil
	}
	var m *Mesh
	var err error
	if obj, isObj := v.(map[string]any); isObj {
		var b []byte
		if view, isView := obj["view"]; isView {
			if b, err = text(view); err == nil {
				m, err = ParseView(b)
			}
		} else if b, err = text(obj["json"]); err == nil {
			m, err = ParseMesh(b)
		}
	} else if s, isStr := v.(string); isStr {
		m, err = ParseMeshSpec(s)
	} else {
		err = fmt.Errorf("bad mesh fixture %v", v)
	}
	if err != nil {
		a.fail(fmt.Errorf("fixture mesh: %v", err))
	}
	return m
}

// dims builds the fixture dims: an object of sizes over the defaults.
func (a *badArgs) dims() ParallelDims {
	obj, ok := a.m["dims"].(map[string]any)
	if !ok {
		a.fail(errSkip("null dims (ParallelDims is a value, it cannot be NULL)"))
		return ParallelDims{}
	}
	d := DefaultParallelDims()
	for k, v := range obj {
		n, err := integer(v)
		if err != nil {
			a.fail(err)
		}
		if p := dimField(&d, k); p != nil {
			*p = int(n)
		} else {
			a.fail(fmt.Errorf("unknown dims key %q", k))
		}
	}
	return d
}

func dimField(d *ParallelDims, name string) *int {
	switch name {
	case "dp":
		return &d.DP
	case "tp":
		return &d.TP
	case "cp":
		return &d.CP
	case "ep":
		return &d.EP
	case "pp":
		return &d.PP
	}
	return nil
}

// axes turns an axis mask into the names of m it selects (the Go API takes
// names). A mask naming no axis of m cannot be written that way.
func (a *badArgs) axes(m *Mesh) []string {
	mask := uint64(a.int("axes", 0))
	var names []string
	for mask != 0 {
		i := bits.TrailingZeros64(mask)
		if i >= m.NDim() {
			a.fail(errSkip("axis mask beyond the mesh (the Go API takes axis names)"))
			return nil
		}
		names = append(names, m.Names()[i])
		mask &^= 1 << i
	}
	return names
}

// path decodes a path argument, making {"fixture": KIND} in a.dir.
func (a *badArgs) path() string {
	v := a.m["path"]
	obj, ok := v.(map[string]any)
	if !ok || obj["fixture"] == nil {
		return a.text("path")
	}
	kind, _ := obj["fixture"].(string)
	var p string
	var err error
	switch kind {
	case "missing":
		p = filepath.Join(a.dir, "missing.yaml")
	case "directory":
		p = filepath.Join(a.dir, "a-directory.yaml")
		err = os.Mkdir(p, 0o700)
	case "not_a_dir":
		file := filepath.Join(a.dir, "plain-file")
		err = os.WriteFile(file, []byte("accelerator: {}\n"), 0o600)
		p = filepath.Join(file, "config.yaml")
	case "long_name":
		p = filepath.Join(a.dir, strings.Repeat("n", 300))
	case "huge_sparse":
		p = filepath.Join(a.dir, "huge.yaml")
		var f *os.File
		if f, err = os.Create(p); err == nil {
			err = errors.Join(f.Truncate(64<<20+1), f.Close())
		}
	case "file":
		p = filepath.Join(a.dir, a.id+".yaml")
		var content []byte
		if content, err = text(obj["content"]); err == nil {
			err = os.WriteFile(p, content, 0o600)
		}
	default:
		err = fmt.Errorf("unknown fixture %q", kind)
	}
	if err != nil {
		a.fail(fmt.Errorf("path fixture %s: %v", kind, err))
	}
	return p
}

// badCall maps one call of the table onto the public Go API. It returns the
// error of the call (nil = it succeeded, a test failure).
func badCall(a *badArgs, call string) (func() error, error) {
	var fn func() error
	switch call {
	case "mesh_new", "mesh_new_checked":
		if a.has("ndim") || a.has("names_len") || a.has("sizes_len") {
			return nil, errSkip("explicit ndim/lengths (C only)")
		}
		names, sizes := a.texts("names"), a.ints("sizes")
		fn = func() error { _, err := NewMesh(names, sizes); return err }
	case "mesh_from_json":
		if a.has("length") {
			return nil, errSkip("explicit text length (C only)")
		}
		b, err := text(a.m["text"])
		if err != nil {
			return nil, err
		}
		fn = func() error { _, err := ParseMesh(b); return err }
	case "mesh_from_spec":
		s := a.text("spec")
		fn = func() error { _, err := ParseMeshSpec(s); return err }
	case "mesh_to_spec":
		m := a.mesh()
		fn = func() error { _, err := m.Spec(); return err }
	case "mesh_to_json":
		m := a.mesh()
		fn = func() error { _, err := m.MarshalJSON(); return err }
	case "dims_set":
		d := a.dims()
		dim, isName := a.m["dim"].(string)
		p := dimField(&d, dim)
		if !isName || p == nil {
			return nil, errSkip("dim is not a ParallelDims field")
		}
		*p = a.int("value", 0)
		// MarshalJSON sets every field through om_dims_set.
		fn = func() error { _, err := d.MarshalJSON(); return err }
	case "dims_to_json":
		d := a.dims()
		fn = func() error { _, err := d.MarshalJSON(); return err }
	case "build_offline_mesh":
		d := a.dims()
		fn = func() error { _, err := BuildOfflineMesh(d); return err }
	case "build_runtime_mesh":
		d, order := a.dims(), a.text("order")
		fn = func() error { _, err := BuildRuntimeMesh(d, order); return err }
	case "order_normalize":
		order := a.text("order")
		fn = func() error { _, err := NormalizeOrder(order); return err }
	case "world_size_from_env":
		fn = func() error { _, _, err := WorldSizeFromEnv(); return err }
	case "dims_from_yaml":
		b, err := text(a.m["text"])
		if err != nil {
			return nil, err
		}
		ws := a.int("world_size", 0)
		fn = func() error { _, err := ParseParallelDims(b, ws); return err }
	case "dims_load_yaml":
		p, ws := a.path(), a.int("world_size", 0)
		fn = func() error { _, err := LoadParallelDims(p, ws); return err }
	case "mesh_axes":
		return nil, errSkip("om_mesh_axes not bound (1.0 comma list -> mask; Go passes axis names to the 1.1 calls)")
	case "mesh_coordinate":
		m, rank := a.mesh(), a.int("rank", 0)
		fn = func() error { _, err := m.Coordinate(rank); return err }
	case "mesh_rank":
		m, coord := a.mesh(), a.ints("coord")
		fn = func() error { _, err := m.Rank(coord); return err }
	case "mesh_group_shape":
		m := a.mesh()
		dims := a.axes(m)
		fn = func() error { _, _, err := m.GroupShape(dims...); return err }
	case "mesh_groups":
		m := a.mesh()
		dims := a.axes(m)
		first, count := a.int("first_group", 0), a.int("group_count", 1)
		fn = func() error { _, err := m.GroupRange(first, count, dims...); return err }
	case "mesh_group_index":
		m := a.mesh()
		dims, rank := a.axes(m), a.int("rank", 0)
		fn = func() error { _, err := m.GroupIndex(rank, dims...); return err }
	case "mesh_group_of":
		m := a.mesh()
		dims, rank := a.axes(m), a.int("rank", 0)
		fn = func() error { _, err := m.GroupOf(rank, dims...); return err }
	case "mesh_locality":
		m := a.mesh()
		dims, per := a.axes(m), a.int("ranks_per_host", 1)
		fn = func() error { _, err := m.Locality(per, dims...); return err }
	case "validate_axes":
		m, tp, cp, ep := a.mesh(), a.int("tp", 1), a.int("cp", 1), a.int("ep", 1)
		fn = func() error { return ValidateAxes(m, tp, cp, ep) }
	case "plan_dim_names":
		m, tp, cp, ep := a.mesh(), a.int("tp", 1), a.int("cp", 1), a.int("ep", 1)
		fn = func() error { _, err := PlanDimNames(m, tp, cp, ep); return err }
	case "expert_mesh":
		m, ep, n := a.mesh(), a.int("ep", 1), a.int("num_experts", 0)
		fn = func() error { _, err := ExpertLayout(m, ep, n); return err }
	case "view_from_json", "world_from_json":
		if a.has("length") {
			return nil, errSkip("explicit text length (C only)")
		}
		b, err := text(a.m["text"])
		if err != nil {
			return nil, err
		}
		if call == "view_from_json" {
			fn = func() error { _, err := ParseView(b); return err }
		} else {
			fn = func() error { _, err := ParseWorld(b); return err }
		}
	case "view_slice":
		m, axes := a.mesh(), a.texts("axes")
		fn = func() error { _, err := m.Slice(axes...); return err }
	case "view_flatten":
		m, axes, name := a.mesh(), a.texts("axes"), ""
		if a.has("name") {
			name = a.text("name")
		}
		fn = func() error { _, err := m.Flatten(name, axes...); return err }
	case "mesh_groups_named":
		if a.has("out_len") {
			return nil, errSkip("explicit buffer length (C only: GroupRange sizes its own)")
		}
		m, axes := a.mesh(), a.texts("axes")
		first, count := a.int("first_group", 0), a.int("group_count", 1)
		fn = func() error { _, err := m.GroupRange(first, count, axes...); return err }
	case "hierarchy_from_spec":
		spec := a.text("spec")
		fn = func() error { _, err := ParseHierarchy(spec); return err }
	case "world_size_resolve":
		explicit := a.int("explicit_size", 0)
		fn = func() error { _, _, err := ResolveWorldSize(explicit); return err }
	case "preset_new":
		name, params, size := a.text("name"), a.texts("params"), a.int("world_size", 0)
		fn = func() error { _, err := NewPreset(name, params, size); return err }
	default:
		return nil, fmt.Errorf("unknown call %q", call)
	}
	return fn, a.err
}

// TestBadInputsTable runs every case of tests/hardening/bad_inputs.json the
// Go API can express: each must fail (no success, no panic) with an *Error
// of the case's status whose message holds the case's fragment. Cost is
// bounded by the library's counted limits, never timed here; the memory
// limits (max_rss_mib) are checked by the C runner only.
func TestBadInputsTable(t *testing.T) {
	cases := loadBadCases(t)
	ran := 0
	skipped := map[string]int{}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			want, known := statusNames[c.Status]
			if !known || int(want) != c.Code {
				t.Fatalf("status %s (code %d) is not %v", c.Status, c.Code, want)
			}
			skip := func(reason string) {
				skipped[reason]++
				t.Skip(reason)
			}
			for _, n := range c.Needs {
				if !supportedNeeds[n] {
					skip("needs " + n)
				}
			}
			if reason, ok := unexposedCalls[c.Call]; ok {
				skip(reason)
			}
			if c.Args["out_null"] == true {
				skip("needs c_only")
			}

			for _, v := range worldSizeVars {
				t.Setenv(v, "") // restored after the subtest
				os.Unsetenv(v)
			}
			for k, v := range c.Env {
				b, err := text(v)
				if err != nil {
					t.Fatalf("env %s: %v", k, err)
				}
				t.Setenv(k, string(b))
			}

			// A short scratch path: the library quotes at most ~90 bytes of
			// a path in its messages, and t.TempDir's names are long.
			dir, err := os.MkdirTemp("", "om-bad")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			a := &badArgs{m: c.Args, dir: dir, id: c.ID}
			fn, err := badCall(a, c.Call)
			var s errSkip
			if errors.As(err, &s) {
				skip(string(s))
			}
			if err != nil {
				t.Fatalf("cannot build the call: %v", err)
			}
			ran++

			err = func() (err error) {
				defer func() {
					if r := recover(); r != nil {
						err = nil
						t.Errorf("%s panicked: %v", c.Call, r)
					}
				}()
				return fn()
			}()
			if t.Failed() {
				return
			}
			if err == nil {
				t.Fatalf("%s succeeded, want %s: %s", c.Call, c.Status, c.Message)
			}
			wantErr(t, err, want, c.Message)
			var e *Error
			if errors.As(err, &e) && !utf8.ValidString(e.Message) {
				t.Errorf("message is not valid UTF-8: %q", e.Message)
			}
		})
	}
	reasons := make([]string, 0, len(skipped))
	total := 0
	for r, n := range skipped {
		reasons = append(reasons, fmt.Sprintf("%3d  %s", n, r))
		total += n
	}
	sort.Strings(reasons)
	t.Logf("bad-input table: %d of %d cases run, %d skipped:\n%s", ran, len(cases), total, strings.Join(reasons, "\n"))
	if ran+total != len(cases) && !t.Failed() {
		t.Errorf("%d run + %d skipped != %d cases", ran, total, len(cases))
	}
	const minRun = 100
	if ran < minRun {
		t.Errorf("only %d cases run, want at least %d", ran, minRun)
	}
}
