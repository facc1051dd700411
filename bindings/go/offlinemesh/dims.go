package offlinemesh

import (
	"strings"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// ParallelDims is the parallelism of a training config: data (DP), tensor
// (TP), context (CP), expert (EP) and pipeline (PP) parallel sizes and two
// flags. Through this API (not YAML) a size may be 0, meaning "not
// declared": DP, CP and TP at 0 are left out of the mesh, PP and EP at 0
// behave as 1. Negative sizes and sizes over 2^31-1 are errors.
//
// The JSON field names are the config's: dp_size, tp_size, cp_size,
// ep_size, pp_size, sequence_parallel, loss_parallel.
type ParallelDims struct {
	DP               int  `json:"dp_size"`
	TP               int  `json:"tp_size"`
	CP               int  `json:"cp_size"`
	EP               int  `json:"ep_size"`
	PP               int  `json:"pp_size"`
	SequenceParallel bool `json:"sequence_parallel"`
	LossParallel     bool `json:"loss_parallel"`
}

// DefaultParallelDims has every size 1 and both flags false, the defaults
// of a config without an accelerator section.
func DefaultParallelDims() ParallelDims {
	return ParallelDims{DP: 1, TP: 1, CP: 1, EP: 1, PP: 1}
}

var dimFields = []struct {
	dim omswig.Enum_SS_om_dim
	get func(*ParallelDims) *int
}{
	{omswig.OM_DIM_DP, func(d *ParallelDims) *int { return &d.DP }},
	{omswig.OM_DIM_TP, func(d *ParallelDims) *int { return &d.TP }},
	{omswig.OM_DIM_CP, func(d *ParallelDims) *int { return &d.CP }},
	{omswig.OM_DIM_EP, func(d *ParallelDims) *int { return &d.EP }},
	{omswig.OM_DIM_PP, func(d *ParallelDims) *int { return &d.PP }},
}

var flagFields = []struct {
	flag omswig.Enum_SS_om_flag
	get  func(*ParallelDims) *bool
}{
	{omswig.OM_FLAG_SEQUENCE_PARALLEL, func(d *ParallelDims) *bool { return &d.SequenceParallel }},
	{omswig.OM_FLAG_LOSS_PARALLEL, func(d *ParallelDims) *bool { return &d.LossParallel }},
}

// toC creates the om_dims of d; the caller frees it. The library checks
// every value (negative: ErrInvalidArgument, over 2^31-1: ErrOutOfRange).
func (d ParallelDims) toC() (omswig.Dims, error) {
	var h omswig.Dims
	var e omswig.Error
	if err := fromC(omswig.Om_dims_new(&h, &e), &e); err != nil {
		return 0, err
	}
	for _, f := range dimFields {
		if err := fromC(omswig.Om_dims_set(h, f.dim, int64(*f.get(&d)), &e), &e); err != nil {
			omswig.Om_dims_free(h)
			return 0, err
		}
	}
	for _, f := range flagFields {
		if err := fromC(omswig.Om_dims_set_flag(h, f.flag, *f.get(&d), &e), &e); err != nil {
			omswig.Om_dims_free(h)
			return 0, err
		}
	}
	return h, nil
}

// dimsFromC copies the fields out of a handle and frees it.
func dimsFromC(h omswig.Dims) ParallelDims {
	var d ParallelDims
	for _, f := range dimFields {
		*f.get(&d) = int(omswig.Om_dims_get(h, f.dim))
	}
	for _, f := range flagFields {
		*f.get(&d) = omswig.Om_dims_get_flag(h, f.flag)
	}
	omswig.Om_dims_free(h)
	return d
}

// MarshalJSON is the library's canonical JSON of the seven fields, keys
// sorted, no spaces: {"cp_size":1,"dp_size":8,"ep_size":1,
// "loss_parallel":false,"pp_size":1,"sequence_parallel":false,"tp_size":1}.
// (Unmarshalling uses the struct tags.)
func (d ParallelDims) MarshalJSON() ([]byte, error) {
	h, err := d.toC()
	if err != nil {
		return nil, err
	}
	defer omswig.Om_dims_free(h)
	var s string
	var e omswig.Error
	if err := fromC(omswig.Om_dims_to_json(h, &s, &e), &e); err != nil {
		return nil, err
	}
	return []byte(s), nil
}

// BuildOfflineMesh builds the offline mesh of d: axes dp, cp, tp in that
// order, each present when its size is >= 1 (even at 1); pp appended last
// when PP > 1; ep never an axis (EP travels beside the mesh).
func BuildOfflineMesh(d ParallelDims) (*Mesh, error) {
	h, err := d.toC()
	if err != nil {
		return nil, err
	}
	defer omswig.Om_dims_free(h)
	var m omswig.Mesh
	var e omswig.Error
	if err := fromC(omswig.Om_build_offline_mesh(h, &m, &e), &e); err != nil {
		return nil, err
	}
	return fromHandle(m), nil
}

// BuildRuntimeMesh builds the mesh of d with its axes in a runtime order,
// as a live trainer lays out its ranks. order lists axis names from
// {dp, cp, tp, pp, ep}: comma-separated, slowest-varying first
// ("pp,dp,cp,tp", as PyTorch/JAX/MPI write meshes); dash-separated,
// Megatron style, fastest-varying first ("tp-cp-ep-dp-pp" is the mesh
// pp,dp,ep,cp,tp). Names the offline mesh lacks are skipped; axes of size 1
// that order omits stay outermost. ErrInvalidArgument for an unknown or
// repeated axis, mixed separators, an empty item, or an omitted axis of
// size > 1.
func BuildRuntimeMesh(d ParallelDims, order string) (*Mesh, error) {
	if strings.IndexByte(order, 0) >= 0 {
		return nil, errorf(ErrInvalidArgument, "axis order %q contains a NUL byte", order)
	}
	h, err := d.toC()
	if err != nil {
		return nil, err
	}
	defer omswig.Om_dims_free(h)
	var m omswig.Mesh
	var e omswig.Error
	if err := fromC(omswig.Om_build_runtime_mesh(h, order, &m, &e), &e); err != nil {
		return nil, err
	}
	return fromHandle(m), nil
}

// NormalizeOrder rewrites an axis order (either style of BuildRuntimeMesh)
// as the comma-separated, slowest-first list of the mesh it describes:
// "tp-cp-ep-dp-pp" gives "pp,dp,ep,cp,tp".
func NormalizeOrder(order string) (string, error) {
	if strings.IndexByte(order, 0) >= 0 {
		return "", errorf(ErrInvalidArgument, "axis order %q contains a NUL byte", order)
	}
	var s string
	var e omswig.Error
	if err := fromC(omswig.Om_order_normalize(order, &s, &e), &e); err != nil {
		return "", err
	}
	return s, nil
}

// WorldSizeFromEnv discovers the world size from the environment, first to
// last: WORLD_SIZE (torchrun), OMPI_COMM_WORLD_SIZE (Open MPI), PMI_SIZE
// (MPICH, Intel MPI), SLURM_NTASKS; the first one set decides. found tells
// whether any was set (size is 1 when none is). A value that is not a
// positive integer is an error naming the variable.
func WorldSizeFromEnv() (size int, found bool, err error) {
	var n int64
	var e omswig.Error
	if err := fromC(omswig.Om_world_size_from_env(&n, &found, &e), &e); err != nil {
		return 0, false, err
	}
	return int(n), found, nil
}

func checkWorldSize(worldSize int) error {
	if worldSize < 0 {
		return errorf(ErrInvalidArgument, "world size must be >= 0 (0 = from the environment), got %d", worldSize)
	}
	return nil
}

// ParseParallelDims projects a training YAML document onto ParallelDims.
// Only the top-level accelerator mapping is read; sizes must be YAML
// integers 1..2^31-1 and flags YAML booleans. DP is derived as
// worldSize / (TP*CP*PP) unless dp_size is given; with an explicit dp_size
// and a known world size their product must equal it. worldSize 0 means
// discover it from the environment (see WorldSizeFromEnv). Errors name the
// offending key and line: ErrParse (malformed YAML, wrong types),
// ErrInvalidArgument (sizes < 1, indivisible or mismatched world size, bad
// environment value), ErrOutOfRange (values over 2^31-1).
func ParseParallelDims(yaml []byte, worldSize int) (ParallelDims, error) {
	if err := checkWorldSize(worldSize); err != nil {
		return ParallelDims{}, err
	}
	var h omswig.Dims
	var e omswig.Error
	if err := fromC(omswig.Om_dims_from_yaml(yaml, int64(worldSize), &h, &e), &e); err != nil {
		return ParallelDims{}, err
	}
	return dimsFromC(h), nil
}

// LoadParallelDims is ParseParallelDims for the YAML file at path; it also
// fails with ErrIO when the file is missing, unreadable, a directory or
// larger than 64 MiB. Messages start with the path.
func LoadParallelDims(path string, worldSize int) (ParallelDims, error) {
	if strings.IndexByte(path, 0) >= 0 {
		return ParallelDims{}, errorf(ErrIO, "%q: path contains a NUL byte", path)
	}
	if err := checkWorldSize(worldSize); err != nil {
		return ParallelDims{}, err
	}
	var h omswig.Dims
	var e omswig.Error
	if err := fromC(omswig.Om_dims_load_yaml(path, int64(worldSize), &h, &e), &e); err != nil {
		return ParallelDims{}, err
	}
	return dimsFromC(h), nil
}

// Version is the version of the C library actually loaded, e.g. "1.0.0".
func Version() string {
	return omswig.Om_version_string()
}
