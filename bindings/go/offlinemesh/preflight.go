package offlinemesh

import (
	"fmt"
	"strings"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// ValidateAxes runs a sharding planner's axis validation of a plan with
// sizes tp, cp and ep against m: for tp and cp with size > 1 the mesh must
// have that axis with that size; ep is compared only when the mesh has an
// "ep" axis. A failed check is ErrInvalidArgument with a message such as
// "tp_size 4 does not match mesh axis tp of size 2"; so are sizes < 1.
func ValidateAxes(m *Mesh, tp, cp, ep int) error {
	if err := m.ok(); err != nil {
		return err
	}
	return omswig.Om_validate_axes(m.c(), tp, cp, ep)
}

// PlanDimNames returns a plan's coordinate axes: the names of m, in mesh
// order, that are "tp", "cp" or "ep" with a plan size > 1 (an empty, non-nil
// slice when none). "dp" is never one. ErrInvalidArgument for sizes < 1.
func PlanDimNames(m *Mesh, tp, cp, ep int) ([]string, error) {
	s, err := get(m.ok(), func(s *string) error { return omswig.Om_plan_dim_names(m.c(), tp, cp, ep, s) })
	return orNil(strings.FieldsFunc(s, func(r rune) bool { return r == ',' }), err)
}

// Experts is the extended expert-parallel layout of a mesh: its dense region
// (all non-pp axes, flattened row-major in mesh order) re-sliced as the mesh
// ("edp", "ep") = (dense/EP, EP). EP groups are EP consecutive ranks; EDP
// groups take every EP-th rank. Example: mesh (dp=4, tp=2) with EP 4 has EP
// groups {0,1,2,3},{4,5,6,7} and EDP groups {0,4},{1,5},{2,6},{3,7}.
type Experts struct {
	*Mesh          // the ("edp", "ep") mesh; Close releases it
	NumExperts int // as given to ExpertLayout (0 = not given)
}

// ExpertLayout computes the expert layout of m for expert-parallel size ep
// and numExperts experts (0 = not given). ErrInvalidArgument when ep < 1,
// numExperts < 0, m has a pp axis of size > 1 (unsupported with extended
// EP), ep does not divide the dense region (or exceeds it), or numExperts
// is not divisible by ep.
func ExpertLayout(m *Mesh, ep, numExperts int) (*Experts, error) {
	x, err := newMesh(m.ok(), func(o *omswig.Handle) error {
		return omswig.Om_expert_mesh(m.c(), ep, numExperts, o)
	})
	return orNil(&Experts{x, numExperts}, err)
}

// own is x, or for a nil *Experts the zero one (no mesh: C's NULL), so the
// methods below answer as a nil *Mesh does.
func (x *Experts) own() *Experts {
	if x == nil {
		return &Experts{}
	}
	return x
}

// EP is the expert-parallel size (ranks per EP group).
func (x *Experts) EP() int { return x.own().SizeOf("ep") }

// EDP is the expert-data-parallel size, dense region / EP.
func (x *Experts) EDP() int { return x.own().SizeOf("edp") }

// LocalExperts is the number of experts each rank of an EP group holds,
// NumExperts / EP (0 when the number of experts was not given).
func (x *Experts) LocalExperts() int { return x.own().NumExperts / x.EP() }

// EPGroups returns the EP groups: EP consecutive ranks each.
func (x *Experts) EPGroups() ([][]int, error) { return x.own().Groups("ep") }

// EDPGroups returns the EDP groups: every EP-th rank.
func (x *Experts) EDPGroups() ([][]int, error) { return x.own().Groups("edp") }

// EPGroupOf returns the EP group that contains rank.
func (x *Experts) EPGroupOf(rank int) ([]int, error) { return x.own().GroupOf(rank, "ep") }

// EDPGroupOf returns the EDP group that contains rank.
func (x *Experts) EDPGroupOf(rank int) ([]int, error) { return x.own().GroupOf(rank, "edp") }

// String is e.g. Experts{EDP: 2, EP: 4, NumExperts: 64}.
func (x *Experts) String() string {
	if x == nil {
		return "<nil>"
	}
	return fmt.Sprintf("Experts{EDP: %d, EP: %d, NumExperts: %d}", x.EDP(), x.EP(), x.NumExperts)
}
