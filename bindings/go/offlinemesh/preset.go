package offlinemesh

import (
	"strings"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// PresetViews builds the views a framework builds, from that framework's
// own parameters, and returns the JSON document `offline-mesh views` prints:
// {"views": {NAME: {"dim_names", "shape", "layout", "groups", "coords", ...}}}
// plus, for "megatron" and "deepspeed", a top-level "groups" object with the
// framework's named group lists in its order. name is one of "torchtitan",
// "megatron", "deepspeed", "hyper-parallel"; params are "KEY=VALUE" strings
// with the framework's keys (e.g. "tensor_model_parallel_size=2",
// "fsdp_config.dp_shard_size=4"; absent keys take the framework's
// defaults). worldSize 0 takes the "world_size" parameter. A broken rule of
// the framework is ErrInvalidArgument with the framework's message, e.g.
// "world_size (8) is not divisible by 3"; an unknown key names the closest
// valid one.
func PresetViews(name string, params []string, worldSize int) (string, error) {
	if err := checkPresetText(name, params); err != nil {
		return "", err
	}
	return presetJSON(func(out *uintptr, e *omswig.Error) int {
		return omswig.Om_preset_new(name, params, worldSize, out, e)
	})
}

// LoadPresetViews is PresetViews of the hyper-parallel preset whose
// parameters are the accelerator.{tp,cp,pp,ep}_size and
// fsdp_config.{dp,edp}_shard_size keys of the training YAML at path.
// worldSize must be > 0. ErrIO / ErrParse for the file.
func LoadPresetViews(path string, worldSize int) (string, error) {
	if strings.IndexByte(path, 0) >= 0 {
		return "", errorf(ErrIO, "%q: path contains a NUL byte", path)
	}
	return presetJSON(func(out *uintptr, e *omswig.Error) int {
		return omswig.Om_preset_load_yaml(path, worldSize, out, e)
	})
}

// PresetCheck runs every rule of the preset that can be evaluated (not only
// the first failing one), then the consistency of its views, and returns
// the verdict {"ok": BOOL, "preset": NAME, "violations": [...]}. Broken
// rules are not an error; an unknown preset or key, or a badly typed value,
// is.
func PresetCheck(name string, params []string, worldSize int) (string, error) {
	if err := checkPresetText(name, params); err != nil {
		return "", err
	}
	var s string
	var e omswig.Error
	err := fromC(omswig.Om_preset_check(name, params, worldSize, &s, &e), &e)
	return s, err
}

// The C API takes NUL-terminated strings: a Go string holding a NUL byte
// would be cut short, so it is refused here.
func checkPresetText(name string, params []string) error {
	if strings.IndexByte(name, 0) >= 0 {
		return errorf(ErrInvalidArgument, "preset name %q contains a NUL byte", name)
	}
	for _, p := range params {
		if strings.IndexByte(p, 0) >= 0 {
			return errorf(ErrInvalidArgument, "parameter %q contains a NUL byte", p)
		}
	}
	return nil
}

// presetJSON makes a preset with f, writes its document and frees it.
func presetJSON(f func(out *uintptr, e *omswig.Error) int) (string, error) {
	var p uintptr
	var e omswig.Error
	if err := fromC(f(&p, &e), &e); err != nil {
		return "", err
	}
	h := omswig.SwigcptrPreset(p)
	defer omswig.Om_preset_free(h)
	var s string
	err := fromC(omswig.Om_preset_to_json(h, &s, &e), &e)
	return s, err
}
