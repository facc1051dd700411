package offlinemesh

import (
	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// Preset is the set of views a framework builds, from that framework's own
// parameters (docs/views.md): "torchtitan", "megatron", "deepspeed" or
// "hyper-parallel". params are "KEY=VALUE" strings with the framework's
// keys (e.g. "tensor_model_parallel_size=2", "fsdp_config.dp_shard_size=4";
// absent keys take the framework's defaults); worldSize 0 takes the
// "world_size" parameter. A broken rule of the framework is
// ErrInvalidArgument with the framework's message, e.g. "world_size (8) is
// not divisible by 3"; an unknown key names the closest valid one. Close
// releases it (a cleanup otherwise). MarshalJSON and String give the
// document `offline-mesh views` prints: {"views": {NAME: {"dim_names",
// "shape", "layout", "groups", "coords", ...}}} plus, for "megatron" and
// "deepspeed", a top-level "groups" object. A nil *Preset is C's NULL.
type Preset struct{ h *omswig.Handle }

var newPreset = newObject[Preset]

// c is the preset's C object: NULL for nil, zero or closed.
func (p *Preset) c() *omswig.Handle { return handleOf(p) }

// Close releases the preset now instead of at garbage collection.
func (p *Preset) Close() error { p.c().Close(); return nil }

// MarshalJSON is the preset's document (see Preset).
func (p *Preset) MarshalJSON() ([]byte, error) { return marshal(p.c(), omswig.Om_preset_to_json) }

// String is the preset's document, or the error.
func (p *Preset) String() string { return jsonString(p.MarshalJSON()) }

// NewPreset builds the views of preset name.
func NewPreset(name string, params []string, worldSize int) (*Preset, error) {
	return newPreset(func(h *omswig.Handle) error { return omswig.Om_preset_new(name, params, worldSize, h) })
}

// LoadPreset is the hyper-parallel preset whose parameters are the
// accelerator.{tp,cp,pp,ep}_size and fsdp_config.{dp,edp}_shard_size keys
// of the training YAML at path. worldSize must be > 0.
func LoadPreset(path string, worldSize int) (*Preset, error) {
	return newPreset(func(h *omswig.Handle) error { return omswig.Om_preset_load_yaml(path, worldSize, h) })
}

// Name is the preset's name.
func (p *Preset) Name() string { return omswig.Om_preset_name(p.c()) }

// WorldSize is the number of ranks the views cover.
func (p *Preset) WorldSize() int { return omswig.Om_preset_world_size(p.c()) }

// Views lists the view names in the framework's order.
func (p *Preset) Views() []string {
	return list(p.c(), omswig.Om_preset_view_count, omswig.Om_preset_view_name)
}

// GroupLists lists the named group lists (Megatron's "dp_cp", "tp", ...;
// DeepSpeed's "ep", "expt_dp"), in creation order; none for the others.
func (p *Preset) GroupLists() []string {
	return list(p.c(), omswig.Om_preset_group_list_count, omswig.Om_preset_group_list_name)
}

// GroupList returns the named group list, groups and members in the
// framework's order (ErrInvalidArgument for an unknown name).
func (p *Preset) GroupList(name string) ([][]int, error) {
	var size int
	all, err := bulk(nil, p.WorldSize(), func(b []int) error {
		return omswig.Om_preset_group_list(p.c(), name, b, &size)
	})
	return split(all, size, err)
}

// World returns the views as a World, each under the name it has among the
// others (Megatron's expert axes are "pp", "expt_dp", "ep", "expt_tp").
func (p *Preset) World() (*World, error) { return newWorld(with(omswig.Om_preset_world, p.c())) }

// SingleAxes is torchtitan's single-axis meshes (ParallelDims.get_mesh /
// get_optional_mesh keys) as JSON: {"one_dimensional_active":[...],
// "single_axis":{NAME:{"fake_backed","from_view",
// "get_optional_mesh_is_none","mesh_dim_name","size"}}}. Other presets
// are ErrInvalidArgument.
func (p *Preset) SingleAxes() (string, error) {
	return get(nil, with(omswig.Om_preset_single_axes_json, p.c()))
}

// PresetViews is NewPreset's JSON document (MarshalJSON) as a string.
func PresetViews(name string, params []string, worldSize int) (string, error) {
	return presetJSON(NewPreset(name, params, worldSize))
}

// LoadPresetViews is LoadPreset's JSON document as a string.
func LoadPresetViews(path string, worldSize int) (string, error) {
	return presetJSON(LoadPreset(path, worldSize))
}

func presetJSON(p *Preset, err error) (string, error) {
	if err != nil {
		return "", err
	}
	defer p.Close()
	b, err := p.MarshalJSON()
	return string(b), err
}

// PresetCheck runs every rule of the preset that can be evaluated (not only
// the first failing one), then the consistency of its views, and returns
// the verdict {"ok": BOOL, "preset": NAME, "violations": [...]}. Broken
// rules are not an error; an unknown preset or key, or a badly typed value,
// is.
func PresetCheck(name string, params []string, worldSize int) (string, error) {
	return get(nil, func(s *string) error { return omswig.Om_preset_check(name, params, worldSize, s) })
}
