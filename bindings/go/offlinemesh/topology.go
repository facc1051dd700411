package offlinemesh

import (
	"fmt"
	"strings"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// MaxGroupRanks is the largest number of ranks Groups and GroupRange
// materialise at once (2^27, 1 GiB of ints); page through bigger meshes.
const MaxGroupRanks = 1 << 27

// withAxes runs f with the C axis mask of dims (names, each possibly a
// comma-separated list) on the C mesh.
func (m *Mesh) withAxes(dims []string, f func(p omswig.Mesh, mask uint64, e *omswig.Error) int) error {
	joined := strings.Join(dims, ",")
	if strings.IndexByte(joined, 0) >= 0 {
		return errorf(ErrInvalidArgument, "axis names %q contain a NUL byte", joined)
	}
	return m.call(func(p omswig.Mesh, e *omswig.Error) int {
		var mask uint64
		if st := omswig.Om_mesh_axes(p, joined, &mask, e); st != 0 {
			return st
		}
		return f(p, mask, e)
	})
}

// orNil returns v, or the zero value when err is set.
func orNil[T any](v T, err error) (T, error) {
	if err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// Coordinate returns the coordinates of rank, one per axis in mesh order.
// ErrOutOfRange when rank is not in 0..Size()-1.
func (m *Mesh) Coordinate(rank int) ([]int, error) {
	coord := make([]int, m.NDim())
	return orNil(coord, m.call(func(p omswig.Mesh, e *omswig.Error) int {
		return omswig.Om_mesh_coordinate(p, rank, coord, e)
	}))
}

// Rank returns the rank at coord (one value per axis, in mesh order), the
// inverse of Coordinate. ErrInvalidArgument when len(coord) != NDim(),
// ErrOutOfRange (naming the axis) when a value is outside its axis.
func (m *Mesh) Rank(coord []int) (int, error) {
	var r int
	err := m.call(func(p omswig.Mesh, e *omswig.Error) int { return omswig.Om_mesh_rank(p, coord, &r, e) })
	return r, err
}

// GroupShape returns the number of groups over dims and the size of each
// (count * size == Size()).
func (m *Mesh) GroupShape(dims ...string) (count, size int, err error) {
	err = m.withAxes(dims, func(p omswig.Mesh, mask uint64, e *omswig.Error) int {
		return omswig.Om_mesh_group_shape(p, mask, &count, &size, e)
	})
	return count, size, err
}

// Groups returns every process group over dims: the sets of ranks that agree
// on every other axis, listed row-major over the other axes, members
// increasing. Meshes of more than MaxGroupRanks ranks fail with
// ErrOutOfRange: page through them with GroupRange.
func (m *Mesh) Groups(dims ...string) ([][]int, error) {
	return m.groupRange(0, -1, dims)
}

// GroupRange returns groups first .. first+count-1 over dims, to page through
// meshes too big for Groups. ErrOutOfRange when the range is not inside the
// groups, or holds more than MaxGroupRanks ranks.
func (m *Mesh) GroupRange(first, count int, dims ...string) ([][]int, error) {
	if count == -1 {
		count = -2 // -1 means "every group" to groupRange; negative counts are refused
	}
	return m.groupRange(first, count, dims)
}

func (m *Mesh) groupRange(first, count int, dims []string) ([][]int, error) { // count -1: all
	var out [][]int
	err := m.withAxes(dims, func(p omswig.Mesh, mask uint64, e *omswig.Error) int {
		var total, size int
		if st := omswig.Om_mesh_group_shape(p, mask, &total, &size, e); st != 0 {
			return st
		}
		if count == -1 {
			count = total
		}
		if first < 0 || count < 0 || first > total || count > total-first {
			return fail(e, ErrOutOfRange, "%d groups from group %d are outside the %d groups", count, first, total)
		}
		if count*size > MaxGroupRanks {
			return fail(e, ErrOutOfRange, "groups hold %d ranks, more than MaxGroupRanks (%d): page with GroupRange", count*size, MaxGroupRanks)
		}
		out = make([][]int, count)
		all := make([]int, count*size)
		if st := omswig.Om_mesh_groups(p, mask, first, count, all, e); st != 0 {
			return st
		}
		for g := range out {
			out[g] = all[g*size : (g+1)*size : (g+1)*size]
		}
		return 0
	})
	return orNil(out, err)
}

// fail reports a check done on the Go side through e, as C would.
func fail(e *omswig.Error, s Status, format string, args ...any) int {
	e.Status = int32(s)
	copy(e.Message[:len(e.Message)-1], fmt.Sprintf(format, args...))
	return int(s)
}

// GroupIndex returns the index, in Groups(dims...), of the group holding
// rank. ErrOutOfRange for a rank outside the mesh.
func (m *Mesh) GroupIndex(rank int, dims ...string) (int, error) {
	var idx int
	err := m.withAxes(dims, func(p omswig.Mesh, mask uint64, e *omswig.Error) int {
		return omswig.Om_mesh_group_index(p, mask, rank, &idx, e)
	})
	return idx, err
}

// GroupOf returns the members of the group over dims that holds rank.
// ErrOutOfRange for a rank outside the mesh.
func (m *Mesh) GroupOf(rank int, dims ...string) ([]int, error) {
	var out []int
	err := m.withAxes(dims, func(p omswig.Mesh, mask uint64, e *omswig.Error) int {
		var count, size int
		if st := omswig.Om_mesh_group_shape(p, mask, &count, &size, e); st != 0 {
			return st
		}
		out = make([]int, size)
		return omswig.Om_mesh_group_of(p, mask, rank, out, e)
	})
	return orNil(out, err)
}

// Locality describes how the groups over some axes fall on hosts.
type Locality struct {
	Groups      int // number of groups
	LocalGroups int // groups whose ranks all sit on one host
	MaxHosts    int // the most hosts any one group spans
}

func (l Locality) String() string {
	return fmt.Sprintf("Locality{Groups: %d, LocalGroups: %d, MaxHosts: %d}", l.Groups, l.LocalGroups, l.MaxHosts)
}

// Locality places ranks r .. r+ranksPerHost-1 on one host (the last host may
// be partial) and reports how the groups over dims spread across hosts.
// ErrInvalidArgument when ranksPerHost < 1.
func (m *Mesh) Locality(ranksPerHost int, dims ...string) (Locality, error) {
	var l Locality
	err := m.withAxes(dims, func(p omswig.Mesh, mask uint64, e *omswig.Error) int {
		return omswig.Om_mesh_locality(p, mask, ranksPerHost, &l.Groups, &l.LocalGroups, &l.MaxHosts, e)
	})
	return orNil(l, err)
}
