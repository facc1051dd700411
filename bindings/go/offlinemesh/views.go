package offlinemesh

import (
	"fmt"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// View is a mesh whose axes carry strides and a rank offset (VIEWS.md 1):
// a named view of some ranks of a world, as torch's DeviceMesh slices,
// flattens and unflattens them. A plain row-major Mesh is the special case,
// and every topology method (Coordinate, Rank, Groups, GroupOf, Locality,
// ...) works on any view, giving the view's global ranks.
type View = Mesh

// Axis sets: the topology methods take axis names (Groups("dp", "cp")), in
// any order (groups and members are in view order); no names is the empty
// set, one single-rank group per rank. A name the view lacks is
// ErrUnknownAxis, a name given twice ErrDuplicateName.

// MaxGroupRanks is the largest number of ranks Groups, GroupRange and
// GroupOf materialise at once (2^27, 1 GiB of ints); page through bigger
// meshes.
const MaxGroupRanks = 1 << 27

// atOnce refuses to materialise more than MaxGroupRanks ranks (a larger
// make is a fatal out-of-memory error, not a panic, where memory is short).
func atOnce(ranks int, hint string) error {
	if ranks > MaxGroupRanks {
		return errorf(ErrOutOfRange, "%d ranks at once are more than MaxGroupRanks (%d)%s", ranks, MaxGroupRanks, hint)
	}
	return nil
}

// NewView makes the view of axes names with sizes and strides (in ranks)
// and a rank offset: rank = offset + sum(coord[i] * strides[i]).
// ErrRankCollision when two coordinates give one rank, ErrOutOfRange for
// strides < 1 or ranks beyond 2^31-1, then the errors of NewMesh.
func NewView(names []string, sizes, strides []int, offset int) (*View, error) {
	return newMesh(nil, func(h *omswig.Handle) error {
		return omswig.Om_view_new(names, sizes, strides, offset, h)
	})
}

// NewViewModes makes a view in normal form: axis i has modeCounts[i]
// (size, stride) pairs in modes (slowest first), instanceModes the pairs
// that enumerate the view's instances (a family of sub-views).
func NewViewModes(names []string, modeCounts, modes, instanceModes []int, offset int) (*View, error) {
	return newMesh(nil, func(h *omswig.Handle) error {
		return omswig.Om_view_new_modes(names, modeCounts, modes, instanceModes, offset, h)
	})
}

// ParseView reads the JSON ViewJSON writes.
func ParseView(data []byte) (*View, error) { return newMesh(nil, with(omswig.Om_view_from_json, data)) }

// ViewJSON is the view record {"dim_names","shape","layout",...}.
func (m *Mesh) ViewJSON() (string, error) { return m.str(omswig.Om_view_to_json) }

// Flatten merges axes (in view order, adjacent or not) into one axis name
// ("" for the default, the names joined by "_": "dp_tp"), as torch's
// mesh[axes]._flatten(); one axis into its own name is Slice(axis).
// ErrAxisOrder when they are named out of view order (size-1 axes may
// stand anywhere, as torch allows).
func (m *Mesh) Flatten(name string, axes ...string) (*View, error) {
	return newMesh(m.ok(), func(o *omswig.Handle) error { return omswig.Om_view_flatten(m.c(), axes, name, o) })
}

// Unflatten splits axis into names with sizes (their product must be its
// size: ErrSizeMismatch; cutting one of its modes: ErrUnaligned).
func (m *Mesh) Unflatten(axis string, sizes []int, names ...string) (*View, error) {
	return newMesh(m.ok(), func(o *omswig.Handle) error {
		return omswig.Om_view_unflatten(m.c(), axis, sizes, names, o)
	})
}

// Slice keeps the named axes: the family of sub-views, one instance per
// coordinate of the other axes (mesh["dp", "tp"] in torch). One absent
// name gives the empty mesh, as torch's mesh["x"]; no names is an error.
func (m *Mesh) Slice(axes ...string) (*View, error) {
	return newMesh(m.ok(), func(o *omswig.Handle) error { return omswig.Om_view_slice(m.c(), axes, o) })
}

// IsPlain is true for a row-major mesh (one instance, offset 0).
func (m *Mesh) IsPlain() bool { return omswig.Om_view_is_plain(m.c()) }

// Offset is the view's rank offset.
func (m *Mesh) Offset() int { return omswig.Om_view_offset(m.c()) }

// InstanceCount is the number of instances of a family (1 for a view).
func (m *Mesh) InstanceCount() int { return omswig.Om_view_instance_count(m.c()) }

// RankCount is the number of ranks of all instances together.
func (m *Mesh) RankCount() int { return omswig.Om_view_rank_count(m.c()) }

// Extent is one past the largest rank the view holds.
func (m *Mesh) Extent() int { return omswig.Om_view_extent(m.c()) }

// Holds reports whether some instance of the view holds rank.
func (m *Mesh) Holds(rank int) bool { return omswig.Om_view_holds(m.c(), rank) }

// Modes returns axis i's normal-form modes as (size, stride) pairs, slowest
// first (none for a size-1 axis).
func (m *Mesh) Modes(i int) ([]int, error) {
	pre := m.ok()
	if pre == nil && i < 0 { // C takes a size_t: -1 would be named 2^64-1
		pre = errorf(ErrOutOfRange, "axis index %d is outside the view of %d axes", i, m.NDim())
	}
	return bulk(pre, 2*omswig.Om_view_mode_count(m.c(), i), func(b []int) error {
		return omswig.Om_view_modes(m.c(), i, b)
	})
}

// InstanceModes returns the (size, stride) pairs enumerating the instances.
func (m *Mesh) InstanceModes() ([]int, error) {
	return bulk(m.ok(), 2*omswig.Om_view_instance_mode_count(m.c()), func(b []int) error {
		return omswig.Om_view_instance_modes(m.c(), b)
	})
}

// groupSize is the size of the groups over dims as the Go copy sees it (the
// library checks the names).
func (m *Mesh) groupSize(dims []string) int {
	n := 1
	for _, d := range dims {
		if i := m.Index(d); i >= 0 {
			n *= m.shape[i]
		}
	}
	return n
}

// AxisIndices returns the indices of the named axes, in mesh order (the
// canonical form of an axis set).
func (m *Mesh) AxisIndices(dims ...string) ([]int, error) {
	return bulk(m.ok(), len(dims), func(b []int) error { return omswig.Om_mesh_axis_indices(m.c(), dims, b) })
}

// Coordinate returns the coordinates of rank, one per axis in mesh order.
// ErrOutOfRange when the view does not hold rank.
func (m *Mesh) Coordinate(rank int) ([]int, error) {
	return bulk(m.ok(), m.NDim(), func(b []int) error { return omswig.Om_mesh_coordinate_of(m.c(), rank, b) })
}

// Rank returns the rank at coord (one value per axis, in mesh order), the
// inverse of Coordinate. ErrInvalidArgument when len(coord) != NDim(),
// ErrOutOfRange (naming the axis) when a value is outside its axis.
func (m *Mesh) Rank(coord []int) (int, error) {
	return get(m.ok(), func(r *int) error { return omswig.Om_mesh_rank(m.c(), coord, r) })
}

// GroupShape returns the number of groups over dims and the size of each
// (count * size == RankCount()).
func (m *Mesh) GroupShape(dims ...string) (count, size int, err error) {
	if err = m.ok(); err == nil {
		err = omswig.Om_mesh_group_shape_named(m.c(), dims, &count, &size)
	}
	return count, size, err
}

// Groups returns every process group over dims: the sets of ranks that agree
// on every other axis, listed row-major over the other axes, members
// increasing. Meshes of more than MaxGroupRanks ranks fail with
// ErrOutOfRange: page through them with GroupRange.
func (m *Mesh) Groups(dims ...string) ([][]int, error) { return split(m.GroupsFlat(dims...)) }

// GroupsFlat is Groups as one slice, group g being ranks[g*size:(g+1)*size]:
// the bulk form (no slice header per group), for small groups on big meshes.
func (m *Mesh) GroupsFlat(dims ...string) (ranks []int, size int, err error) {
	return m.groupRange(0, max(m.own().ranks, 1)/max(m.groupSize(dims), 1), dims)
}

// GroupRange returns groups first .. first+count-1 over dims, to page through
// meshes too big for Groups. ErrOutOfRange when the range is not inside the
// groups, or holds more than MaxGroupRanks ranks.
func (m *Mesh) GroupRange(first, count int, dims ...string) ([][]int, error) {
	return split(m.groupRange(first, count, dims))
}

func (m *Mesh) groupRange(first, count int, dims []string) ([]int, int, error) {
	size, guess := m.groupSize(dims), 0
	if count > 0 && count <= max(m.own().ranks, 1) { // else the library reports the range
		guess = count * size
	}
	if err := atOnce(guess, ": page with GroupRange"); err != nil {
		return nil, 0, err
	}
	all, err := bulk(m.ok(), guess, func(b []int) error {
		return omswig.Om_mesh_groups_named(m.c(), dims, first, count, b)
	})
	return all, size, err
}

// split cuts groups of size ranks out of all.
func split(all []int, size int, err error) ([][]int, error) {
	out := make([][]int, len(all)/max(size, 1))
	for g := range out {
		out[g] = all[g*size : (g+1)*size : (g+1)*size]
	}
	return orNil(out, err)
}

// GroupIndex returns the index, in Groups(dims...), of the group holding
// rank. ErrOutOfRange for a rank outside the mesh.
func (m *Mesh) GroupIndex(rank int, dims ...string) (int, error) {
	return get(m.ok(), func(i *int) error { return omswig.Om_mesh_group_index_named(m.c(), dims, rank, i) })
}

// GroupOf returns the members of the group over dims that holds rank.
// ErrOutOfRange for a rank outside the mesh, or a group of more than
// MaxGroupRanks ranks.
func (m *Mesh) GroupOf(rank int, dims ...string) ([]int, error) {
	pre := m.ok()
	if pre == nil {
		pre = atOnce(m.groupSize(dims), "")
	}
	return bulk(pre, m.groupSize(dims), func(b []int) error {
		return omswig.Om_mesh_group_of_named(m.c(), dims, rank, b)
	})
}

// Locality describes how the groups over some axes fall on hosts.
type Locality struct {
	Groups      int // number of groups
	LocalGroups int // groups whose ranks all sit on one host
	MaxHosts    int // the most hosts any one group spans
}

func (l Locality) String() string {
	return fmt.Sprintf("Locality{Groups: %d, LocalGroups: %d, MaxHosts: %d}",
		l.Groups, l.LocalGroups, l.MaxHosts)
}

// Locality places ranks r .. r+ranksPerHost-1 on one host (the last host may
// be partial) and reports how the groups over dims spread across hosts.
// ErrInvalidArgument when ranksPerHost < 1.
func (m *Mesh) Locality(ranksPerHost int, dims ...string) (l Locality, err error) {
	if err = m.ok(); err == nil {
		err = omswig.Om_mesh_locality_named(m.c(), dims, ranksPerHost, &l.Groups, &l.LocalGroups, &l.MaxHosts)
	}
	return orNil(l, err)
}
