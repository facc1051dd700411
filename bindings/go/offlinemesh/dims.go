package offlinemesh

import (
	"fmt"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// ParallelDims is the parallelism of a training config: data (DP), tensor
// (TP), context (CP), expert (EP) and pipeline (PP) parallel sizes and two
// flags. Through this API (not YAML) a size may be 0, meaning "not
// declared": DP, CP and TP at 0 are left out of the mesh, PP and EP at 0
// behave as 1, and the world-size step (ResolveWorldSize) derives a DP of 0.
// Negative sizes and sizes over 2^31-1 are errors. The JSON field names are
// the config's.
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

// withC runs f on a C copy of d (the library checks every value: negative
// ErrInvalidArgument, over 2^31-1 ErrOutOfRange); a DP of 0 stays "not
// given" when deriveDP is set.
func (d ParallelDims) withC(deriveDP bool, f func(h *omswig.Handle) error) error {
	h := new(omswig.Handle)
	defer h.Close()
	err := omswig.Om_dims_new(h)
	for i, v := range []int{d.DP, d.TP, d.CP, d.EP, d.PP} { // om_dim order
		if err == nil && (i > 0 || !deriveDP || v != 0) {
			err = omswig.Om_dims_set(h, omswig.Enum_SS_om_dim(i), v)
		}
	}
	for i, v := range []bool{d.SequenceParallel, d.LossParallel} { // om_flag order
		if err == nil {
			err = omswig.Om_dims_set_flag(h, omswig.Enum_SS_om_flag(i), v)
		}
	}
	if err == nil {
		err = f(h)
	}
	return err
}

// fromC copies C dims out, with the source of their world size; a DP
// that was not given is 0 when keepGiven.
func fromC(h *omswig.Handle, keepGiven bool) (d ParallelDims, src WorldSizeSource, err error) {
	for i, p := range []*int{&d.DP, &d.TP, &d.CP, &d.EP, &d.PP} {
		*p = omswig.Om_dims_get(h, omswig.Enum_SS_om_dim(i))
	}
	for i, p := range []*bool{&d.SequenceParallel, &d.LossParallel} {
		*p = omswig.Om_dims_get_flag(h, omswig.Enum_SS_om_flag(i))
	}
	var size int
	given := true
	err = omswig.Om_dims_world_size(h, &size, (*int)(&src))
	if err == nil && keepGiven {
		err = omswig.Om_dims_dp_given(h, &given)
	}
	if !given {
		d.DP = 0
	}
	return d, src, err
}

// MarshalJSON is the library's canonical JSON of the seven fields, keys
// sorted, no spaces. (Unmarshalling uses the struct tags.)
func (d ParallelDims) MarshalJSON() ([]byte, error) {
	s, err := d.str(omswig.Om_dims_to_json)
	return orNil([]byte(s), err)
}

// str runs a C call that writes a string about a C copy of d.
func (d ParallelDims) str(f func(dims *omswig.Handle, s *string) error) (s string, err error) {
	err = d.withC(false, func(h *omswig.Handle) error { return f(h, &s) })
	return orNil(s, err)
}

// mesh runs a C constructor of a mesh from a C copy of d.
func (d ParallelDims) mesh(f func(dims, out *omswig.Handle) error) (m *Mesh, err error) {
	err = d.withC(false, func(h *omswig.Handle) error {
		m, err = newMesh(nil, with(f, h))
		return err
	})
	return m, err
}

// String is the canonical JSON, or the error for invalid values.
func (d ParallelDims) String() string {
	return jsonString(d.MarshalJSON())
}

// BuildOfflineMesh builds the offline mesh of d: axes dp, cp, tp in that
// order, each present when its size is >= 1 (even at 1); pp appended last
// when PP > 1; ep never an axis (EP travels beside the mesh).
func BuildOfflineMesh(d ParallelDims) (*Mesh, error) { return d.mesh(omswig.Om_build_offline_mesh) }

// BuildRuntimeMesh builds the mesh of d with its axes in a runtime order, as
// a live trainer lays out its ranks. order lists axis names from {dp, cp,
// tp, pp, ep}: comma-separated, slowest-varying first ("pp,dp,cp,tp", as
// PyTorch/JAX/MPI write meshes); dash-separated, Megatron style,
// fastest-varying first ("tp-cp-ep-dp-pp" is the mesh pp,dp,ep,cp,tp).
// Names the offline mesh lacks are skipped; axes of size 1 that order omits
// stay outermost. ErrInvalidArgument for an unknown or repeated axis, mixed
// separators, an empty item, or an omitted axis of size > 1.
func BuildRuntimeMesh(d ParallelDims, order string) (*Mesh, error) {
	return d.mesh(func(h, out *omswig.Handle) error { return omswig.Om_build_runtime_mesh(h, order, out) })
}

// NormalizeOrder rewrites an axis order (either style of BuildRuntimeMesh)
// as the comma-separated, slowest-first list of the mesh it describes:
// "tp-cp-ep-dp-pp" gives "pp,dp,ep,cp,tp".
func NormalizeOrder(order string) (string, error) {
	return get(nil, with(omswig.Om_order_normalize, order))
}

// WorldSizeSource says where a world size came from.
type WorldSizeSource int

// The sources, in the order ResolveWorldSize tries them.
const (
	WorldSizeUnresolved    WorldSizeSource = iota // no world size applied
	WorldSizeExplicit                             // given by the caller
	WorldSizeFromWorldSize                        // WORLD_SIZE (torchrun)
	WorldSizeFromOMPI                             // OMPI_COMM_WORLD_SIZE (Open MPI)
	WorldSizeFromPMI                              // PMI_SIZE (MPICH, Intel MPI)
	WorldSizeFromSlurm                            // SLURM_NTASKS
	WorldSizeDefault                              // none set: 1
)

// String is how messages name the source, e.g. "from WORLD_SIZE".
func (s WorldSizeSource) String() string {
	if t := omswig.Om_world_size_source_string(omswig.Enum_SS_om_world_size_source(s)); t != "" {
		return t
	}
	return fmt.Sprintf("WorldSizeSource(%d)", int(s))
}

// Variable is the environment variable of the source ("" for none).
func (s WorldSizeSource) Variable() string {
	return omswig.Om_world_size_source_variable(omswig.Enum_SS_om_world_size_source(s))
}

// ResolveWorldSize resolves a world size: explicit >= 1 is the caller's; 0
// means "not given": WORLD_SIZE, OMPI_COMM_WORLD_SIZE, PMI_SIZE,
// SLURM_NTASKS (the first set decides), else 1. A negative explicit value,
// or a variable that is not a positive integer, is ErrInvalidArgument.
func ResolveWorldSize(explicit int) (size int, source WorldSizeSource, err error) {
	err = omswig.Om_world_size_resolve(explicit, &size, (*int)(&source))
	return size, source, err
}

// WorldSizeFromEnv discovers the world size from the environment (as
// ResolveWorldSize(0)); found tells whether any variable was set.
func WorldSizeFromEnv() (size int, found bool, err error) {
	if err = omswig.Om_world_size_from_env(&size, &found); err != nil {
		return 0, false, err
	}
	return size, found, nil
}

// ResolveWorldSize is the world-size step for d: ResolveWorldSize(explicit),
// then ApplyWorldSize with its source.
func (d ParallelDims) ResolveWorldSize(explicit int) (ParallelDims, WorldSizeSource, error) {
	return d.apply(func(h *omswig.Handle) error { return omswig.Om_dims_resolve_world_size(h, explicit) })
}

// ApplyWorldSize applies a resolved world size as the YAML loaders do: a DP
// of 0 (not given) becomes size / (TP*CP*PP), a remainder being an error
// naming the source ("world size 1 (the default: ...) is not divisible by
// tp*cp*pp = 4"); a given DP must give DP*TP*CP*PP == size unless source is
// WorldSizeDefault. Sizes at 0 count as 1.
func (d ParallelDims) ApplyWorldSize(size int, source WorldSizeSource) (ParallelDims, error) {
	out, _, err := d.apply(func(h *omswig.Handle) error {
		return omswig.Om_dims_apply_world_size(h, size, omswig.Enum_SS_om_world_size_source(source))
	})
	return out, err
}

func (d ParallelDims) apply(f func(*omswig.Handle) error) (out ParallelDims, src WorldSizeSource, err error) {
	err = d.withC(true, func(h *omswig.Handle) error {
		if err := f(h); err != nil {
			return err
		}
		out, src, err = fromC(h, false)
		return err
	})
	return out, src, err
}

// ProjectParallelDims projects a training YAML document onto ParallelDims
// as a pure function of the text: no world size is applied and the
// environment is not read; DP is 0 unless dp_size is given. Follow with
// ResolveWorldSize. Only the top-level accelerator mapping is read; sizes
// must be YAML integers 1..2^31-1 and flags YAML booleans. Errors name the
// key and line: ErrParse (malformed YAML, wrong types), ErrInvalidArgument
// (sizes < 1), ErrOutOfRange (> 2^31-1).
func ProjectParallelDims(yaml []byte) (ParallelDims, error) {
	return dims(with(omswig.Om_dims_parse_yaml, yaml), true, 0)
}

// ReadParallelDims is ProjectParallelDims of the YAML file at path; ErrIO
// when it is missing, unreadable, a directory, a FIFO or larger than 64 MiB.
func ReadParallelDims(path string) (ParallelDims, error) {
	return dims(with(omswig.Om_dims_read_yaml, path), true, 0)
}

// ParseParallelDims is ProjectParallelDims followed by the world-size step
// with worldSize: 0 means not given (the environment, else 1), negative is
// ErrInvalidArgument, as the CLI's --world-size. DP is derived as
// worldSize / (TP*CP*PP) unless dp_size is given; then the product must
// equal a known world size. Messages name the world size's source.
func ParseParallelDims(yaml []byte, worldSize int) (ParallelDims, error) {
	return dims(with(omswig.Om_dims_parse_yaml, yaml), false, worldSize)
}

// LoadParallelDims is ParseParallelDims for the YAML file at path (ErrIO
// as ReadParallelDims). Messages start with the path.
func LoadParallelDims(path string, worldSize int) (ParallelDims, error) {
	return dims(with(omswig.Om_dims_read_yaml, path), false, worldSize)
}

// dims runs a C projection, then (unless pure) the world-size step.
func dims(f func(h *omswig.Handle) error, pure bool, worldSize int) (ParallelDims, error) {
	h := new(omswig.Handle)
	defer h.Close()
	err := f(h)
	if err == nil && !pure {
		err = omswig.Om_dims_resolve_world_size(h, worldSize)
	}
	if err != nil {
		return ParallelDims{}, err
	}
	d, _, err := fromC(h, pure)
	return d, err
}

// Version is the version of the C library actually loaded, e.g. "1.1.0".
func Version() string { return omswig.Om_version_string() }

// VersionNumber is Version as major*10000 + minor*100 + patch.
func VersionNumber() int { return omswig.Om_version_number() }
