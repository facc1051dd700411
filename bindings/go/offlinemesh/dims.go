package offlinemesh

import (
	"strings"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// ParallelDims is the parallelism of a training config: data (DP), tensor
// (TP), context (CP), expert (EP) and pipeline (PP) parallel sizes and two
// flags. Through this API (not YAML) a size may be 0, meaning "not
// declared": DP, CP and TP at 0 are left out of the mesh, PP and EP at 0
// behave as 1. Negative sizes and sizes over 2^31-1 are errors. The JSON
// field names are the config's.
type ParallelDims struct {
	DP               int  `json:"dp_size"`
	TP               int  `json:"tp_size"`
	CP               int  `json:"cp_size"`
	EP               int  `json:"ep_size"`
	PP               int  `json:"pp_size"`
	SequenceParallel bool `json:"sequence_parallel"`
	LossParallel     bool `json:"loss_parallel"`
}

// DefaultParallelDims has every size 1 and both flags false.
func DefaultParallelDims() ParallelDims {
	return ParallelDims{DP: 1, TP: 1, CP: 1, EP: 1, PP: 1}
}

// fields lists the C field of every Go field, in om_dim / om_flag order.
func (d *ParallelDims) fields() ([]*int, []*bool) {
	return []*int{&d.DP, &d.TP, &d.CP, &d.EP, &d.PP}, []*bool{&d.SequenceParallel, &d.LossParallel}
}

// withC runs f on a C copy of d; the library checks every value (negative:
// ErrInvalidArgument, over 2^31-1: ErrOutOfRange).
func (d ParallelDims) withC(f func(h omswig.Dims, e *omswig.Error) int) error {
	var p uintptr
	var e omswig.Error
	st := omswig.Om_dims_new(&p, &e)
	h := omswig.SwigcptrDims(p)
	defer omswig.Om_dims_free(h)
	sizes, flags := d.fields()
	for i := 0; st == 0 && i < len(sizes); i++ {
		st = omswig.Om_dims_set(h, omswig.Enum_SS_om_dim(i), *sizes[i], &e)
	}
	for i := 0; st == 0 && i < len(flags); i++ {
		st = omswig.Om_dims_set_flag(h, omswig.Enum_SS_om_flag(i), *flags[i], &e)
	}
	if st == 0 {
		st = f(h, &e)
	}
	return fromC(st, &e)
}

// newDims runs a C constructor of dims and copies the result out.
func newDims(f func(out *uintptr, e *omswig.Error) int) (ParallelDims, error) {
	var d ParallelDims
	var p uintptr
	var e omswig.Error
	if err := fromC(f(&p, &e), &e); err != nil {
		return d, err
	}
	h := omswig.SwigcptrDims(p)
	defer omswig.Om_dims_free(h)
	sizes, flags := d.fields()
	for i, p := range sizes {
		*p = omswig.Om_dims_get(h, omswig.Enum_SS_om_dim(i))
	}
	for i, p := range flags {
		*p = omswig.Om_dims_get_flag(h, omswig.Enum_SS_om_flag(i))
	}
	return d, nil
}

// MarshalJSON is the library's canonical JSON of the seven fields, keys
// sorted, no spaces. (Unmarshalling uses the struct tags.)
func (d ParallelDims) MarshalJSON() ([]byte, error) {
	var s string
	err := d.withC(func(h omswig.Dims, e *omswig.Error) int { return omswig.Om_dims_to_json(h, &s, e) })
	return []byte(s), err
}

// String is the canonical JSON, or the error for invalid values.
func (d ParallelDims) String() string {
	b, err := d.MarshalJSON()
	if err != nil {
		return "<invalid ParallelDims: " + err.Error() + ">"
	}
	return string(b)
}

// BuildOfflineMesh builds the offline mesh of d: axes dp, cp, tp in that
// order, each present when its size is >= 1 (even at 1); pp appended last
// when PP > 1; ep never an axis (EP travels beside the mesh).
func BuildOfflineMesh(d ParallelDims) (*Mesh, error) {
	var m *Mesh
	err := d.withC(func(h omswig.Dims, e *omswig.Error) int {
		var p uintptr
		st := omswig.Om_build_offline_mesh(h, &p, e)
		if st == 0 {
			m = adopt(p)
		}
		return st
	})
	return m, err
}

// BuildRuntimeMesh builds the mesh of d with its axes in a runtime order, as
// a live trainer lays out its ranks. order lists axis names from {dp, cp,
// tp, pp, ep}: comma-separated, slowest-varying first ("pp,dp,cp,tp", as
// PyTorch/JAX/MPI write meshes); dash-separated, Megatron style,
// fastest-varying first ("tp-cp-ep-dp-pp" is the mesh pp,dp,ep,cp,tp).
// Names the offline mesh lacks are skipped; axes of size 1 that order omits
// stay outermost. ErrInvalidArgument for an unknown or repeated axis, mixed
// separators, an empty item, or an omitted axis of size > 1.
func BuildRuntimeMesh(d ParallelDims, order string) (*Mesh, error) {
	if strings.IndexByte(order, 0) >= 0 {
		return nil, errorf(ErrInvalidArgument, "axis order %q contains a NUL byte", order)
	}
	var m *Mesh
	err := d.withC(func(h omswig.Dims, e *omswig.Error) int {
		var p uintptr
		st := omswig.Om_build_runtime_mesh(h, order, &p, e)
		if st == 0 {
			m = adopt(p)
		}
		return st
	})
	return m, err
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
	err := fromC(omswig.Om_order_normalize(order, &s, &e), &e)
	return s, err
}

// WorldSizeFromEnv discovers the world size from the environment, first to
// last: WORLD_SIZE (torchrun), OMPI_COMM_WORLD_SIZE (Open MPI), PMI_SIZE
// (MPICH, Intel MPI), SLURM_NTASKS; the first one set decides. found tells
// whether any was set (size is 1 when none is). A value that is not a
// positive integer is an error naming the variable.
func WorldSizeFromEnv() (size int, found bool, err error) {
	var e omswig.Error
	if err := fromC(omswig.Om_world_size_from_env(&size, &found, &e), &e); err != nil {
		return 0, false, err
	}
	return size, found, nil
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
// their product must equal a known world size. worldSize 0 means discover
// it (WorldSizeFromEnv). Errors name the key and line: ErrParse (malformed
// YAML, wrong types), ErrInvalidArgument (sizes < 1, indivisible or
// mismatched world size, bad environment value), ErrOutOfRange (> 2^31-1).
func ParseParallelDims(yaml []byte, worldSize int) (ParallelDims, error) {
	if err := checkWorldSize(worldSize); err != nil {
		return ParallelDims{}, err
	}
	return newDims(func(out *uintptr, e *omswig.Error) int {
		return omswig.Om_dims_from_yaml(yaml, worldSize, out, e)
	})
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
	return newDims(func(out *uintptr, e *omswig.Error) int {
		return omswig.Om_dims_load_yaml(path, worldSize, out, e)
	})
}

// Version is the version of the C library actually loaded, e.g. "1.1.0".
func Version() string {
	return omswig.Om_version_string()
}

// VersionNumber is Version as major*10000 + minor*100 + patch.
func VersionNumber() int {
	return omswig.Om_version_number()
}
