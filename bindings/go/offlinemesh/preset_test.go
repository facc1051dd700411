package offlinemesh

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Every case of tests/vectors/{torchtitan,megatron,deepspeed,hyper_parallel}.json
// (computed by running the frameworks) through PresetViews: views and named
// groups equal the vector's; error cases fail with ErrInvalidArgument.
func TestPresetVectors(t *testing.T) {
	presets := map[string]string{"torchtitan": "torchtitan", "megatron": "megatron",
		"deepspeed": "deepspeed", "hyper_parallel": "hyper-parallel"}
	total := 0
	for stem, preset := range presets {
		raw, err := os.ReadFile(filepath.Join("..", "..", "..", "tests", "vectors", stem+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Cases []map[string]json.RawMessage `json:"cases"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		for i, c := range doc.Cases {
			var params map[string]any
			var world int
			json.Unmarshal(c["params"], &params)
			json.Unmarshal(c["world_size"], &world)
			var list []string
			for k, v := range params {
				text, _ := json.Marshal(v)
				if s, ok := v.(string); ok {
					text = []byte(s)
				}
				list = append(list, k+"="+string(text))
			}
			got, err := PresetViews(preset, list, world)
			name := fmt.Sprintf("%s case %d", stem, i)
			_, wantsError := c["error"]
			if wantsError {
				if !errors.Is(err, ErrInvalidArgument) || got != "" {
					t.Errorf("%s: want ErrInvalidArgument, got %q, %v", name, got, err)
				}
				total++
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var out map[string]any
			if err := json.Unmarshal([]byte(got), &out); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want := map[string]any{}
			var views any
			json.Unmarshal(c["views"], &views)
			want["views"] = views
			if g, ok := c["groups"]; ok {
				var groups any
				json.Unmarshal(g, &groups)
				want["groups"] = groups
			}
			if l, ok := c["local_ranks"]; ok { // hyper-parallel's per-rank local ranks
				var local any
				json.Unmarshal(l, &local)
				want["local_ranks"] = local
			}
			if !reflect.DeepEqual(out, want) {
				t.Errorf("%s: views/groups/local ranks differ from the vector", name)
			}
			total++
		}
	}
	if total < 50 {
		t.Fatalf("only %d vector cases ran", total)
	}
}

func TestPresetErrorsAndCheck(t *testing.T) {
	_, err := PresetViews("megatron", []string{"tp=2"}, 8)
	var e *Error
	if !errors.As(err, &e) || e.Status != ErrInvalidArgument ||
		!strings.Contains(e.Message, `did you mean "tensor_model_parallel_size"?`) {
		t.Fatalf("unknown key: %v", err)
	}
	if _, err := PresetViews("titan", nil, 8); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("unknown preset: %v", err)
	}
	if _, err := PresetViews("megatron", []string{"order=tp\x00"}, 8); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("NUL byte: %v", err)
	}
	verdict, err := PresetCheck("hyper-parallel", []string{"accelerator.tp_size=3"}, 8)
	if err != nil || verdict != `{"ok":false,"preset":"hyper-parallel","violations":["world_size 8 is not divisible by non-DP size 3"]}` {
		t.Fatalf("check: %q, %v", verdict, err)
	}
	yaml := filepath.Join(t.TempDir(), "train.yaml")
	os.WriteFile(yaml, []byte("accelerator: {tp_size: 2}\n"), 0o644)
	doc, err := LoadPresetViews(yaml, 8)
	if err != nil || !strings.Contains(doc, `"fsdp_non_moe":{`) {
		t.Fatalf("yaml: %v", err)
	}
	if _, err := LoadPresetViews(filepath.Join(t.TempDir(), "missing.yaml"), 8); !errors.Is(err, ErrIO) {
		t.Fatalf("missing file: %v", err)
	}
}
