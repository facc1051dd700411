package offlinemesh

import (
	"fmt"
	"strings"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// Axis sets: the topology methods take axis names (Groups("dp", "cp")), in
// any order (groups and members are in mesh order); no names is the empty
// set, one single-rank group per rank. A name the mesh lacks is
// ErrUnknownAxis, a name given twice ErrDuplicateName.

// MaxGroupRanks is the largest number of ranks Groups and GroupRange
// materialise at once (2^27, 1 GiB of ints); page through bigger meshes.
const MaxGroupRanks = 1 << 27

// names refuses axis names C cannot receive (a NUL byte would cut them).
func names(dims []string) error {
	for _, d := range dims {
		if strings.IndexByte(d, 0) >= 0 {
			return errorf(ErrInvalidArgument, "axis name %q contains a NUL byte", d)
		}
	}
	return nil
}

// bulk runs a 1.1 bulk call (OM_BUFFER: a buffer one longer than the
// result, whose last element receives the needed length) with room for
// guess values, and once more with the needed length if that was short.
func bulk(guess int, e *omswig.Error, f func(buf []int) int) ([]int, int) {
	buf := make([]int, guess+1)
	st := f(buf)
	if Status(st) == ErrBufferTooSmall {
		buf = make([]int, buf[guess]+1)
		st = f(buf)
	}
	n := buf[len(buf)-1]
	return buf[:n:n], st
}

// groupSize is the size of the groups over dims as the Go copy sees it (the
// library checks the names).
func (m *Mesh) groupSize(dims []string) int {
	n := 1
	for i, name := range m.Names() {
		for _, d := range dims {
			if d == name {
				n *= m.shape[i]
				break
			}
		}
	}
	return n
}

// AxisIndices returns the indices of the named axes, in mesh order (the
// canonical form of an axis set).
func (m *Mesh) AxisIndices(dims ...string) ([]int, error) {
	var out []int
	err := m.call(func(p omswig.Mesh, e *omswig.Error) int {
		var st int
		out, st = bulk(len(dims), e, func(b []int) int { return omswig.Om_mesh_axis_indices(p, dims, b, e) })
		return st
	})
	return orNil(out, err)
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
	var out []int
	err := m.call(func(p omswig.Mesh, e *omswig.Error) int {
		var st int
		out, st = bulk(m.NDim(), e, func(b []int) int { return omswig.Om_mesh_coordinate_of(p, rank, b, e) })
		return st
	})
	return orNil(out, err)
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
	if err = names(dims); err == nil {
		err = m.call(func(p omswig.Mesh, e *omswig.Error) int {
			return omswig.Om_mesh_group_shape_named(p, dims, &count, &size, e)
		})
	}
	return count, size, err
}

// Groups returns every process group over dims: the sets of ranks that agree
// on every other axis, listed row-major over the other axes, members
// increasing. Meshes of more than MaxGroupRanks ranks fail with
// ErrOutOfRange: page through them with GroupRange.
func (m *Mesh) Groups(dims ...string) ([][]int, error) {
	return m.GroupRange(0, m.Size()/m.groupSize(dims), dims...)
}

// GroupRange returns groups first .. first+count-1 over dims, to page through
// meshes too big for Groups. ErrOutOfRange when the range is not inside the
// groups, or holds more than MaxGroupRanks ranks.
func (m *Mesh) GroupRange(first, count int, dims ...string) ([][]int, error) {
	if err := names(dims); err != nil {
		return nil, err
	}
	size, guess := m.groupSize(dims), 0
	if count > 0 && count <= m.Size() { // else the library reports the range
		guess = count * size
	}
	if guess > MaxGroupRanks {
		return nil, errorf(ErrOutOfRange, "groups hold %d ranks, more than MaxGroupRanks (%d): page with GroupRange", guess, MaxGroupRanks)
	}
	var all []int
	err := m.call(func(p omswig.Mesh, e *omswig.Error) int {
		var st int
		all, st = bulk(guess, e, func(b []int) int {
			return omswig.Om_mesh_groups_named(p, dims, first, count, b, e)
		})
		return st
	})
	if err != nil {
		return nil, err
	}
	out := make([][]int, len(all)/size)
	for g := range out {
		out[g] = all[g*size : (g+1)*size : (g+1)*size]
	}
	return out, nil
}

// GroupIndex returns the index, in Groups(dims...), of the group holding
// rank. ErrOutOfRange for a rank outside the mesh.
func (m *Mesh) GroupIndex(rank int, dims ...string) (int, error) {
	var idx int
	err := names(dims)
	if err == nil {
		err = m.call(func(p omswig.Mesh, e *omswig.Error) int {
			return omswig.Om_mesh_group_index_named(p, dims, rank, &idx, e)
		})
	}
	return idx, err
}

// GroupOf returns the members of the group over dims that holds rank.
// ErrOutOfRange for a rank outside the mesh.
func (m *Mesh) GroupOf(rank int, dims ...string) ([]int, error) {
	if err := names(dims); err != nil {
		return nil, err
	}
	var out []int
	err := m.call(func(p omswig.Mesh, e *omswig.Error) int {
		var st int
		out, st = bulk(m.groupSize(dims), e, func(b []int) int { return omswig.Om_mesh_group_of_named(p, dims, rank, b, e) })
		return st
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
	err := names(dims)
	if err == nil {
		err = m.call(func(p omswig.Mesh, e *omswig.Error) int {
			return omswig.Om_mesh_locality_named(p, dims, ranksPerHost, &l.Groups, &l.LocalGroups, &l.MaxHosts, e)
		})
	}
	return orNil(l, err)
}
