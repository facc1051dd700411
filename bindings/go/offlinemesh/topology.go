package offlinemesh

import (
	"runtime"
	"strings"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// MaxGroupRanks is the largest mesh Groups materialises at once (2^27
// ranks, 1 GiB of ints); page through bigger meshes with GroupRange.
const MaxGroupRanks = 1 << 27

// axes returns the axis mask of dims on handle h.
func axes(h omswig.Mesh, dims []string) (uint64, error) {
	joined := strings.Join(dims, ",")
	if strings.IndexByte(joined, 0) >= 0 {
		return 0, errorf(ErrInvalidArgument, "axis names %q contain a NUL byte", joined)
	}
	var mask uint64
	var e omswig.Error
	if err := fromC(omswig.Om_mesh_axes(h, joined, &mask, &e), &e); err != nil {
		return 0, err
	}
	return mask, nil
}

// Coordinate returns the coordinates of rank, one per axis in mesh order.
// ErrOutOfRange when rank is not in 0..Size()-1.
func (m *Mesh) Coordinate(rank int) ([]int, error) {
	h, c, err := m.handle()
	if err != nil {
		return nil, err
	}
	coord := make([]int64, len(m.names))
	var e omswig.Error
	st := omswig.Om_mesh_coordinate(h, int64(rank), coord, &e)
	runtime.KeepAlive(c)
	if err := fromC(st, &e); err != nil {
		return nil, err
	}
	return toInts64(coord), nil
}

// Rank returns the rank at coord (one value per axis, in mesh order), the
// inverse of Coordinate. ErrInvalidArgument when len(coord) != NDim(),
// ErrOutOfRange (naming the axis) when a value is outside its axis.
func (m *Mesh) Rank(coord []int) (int, error) {
	h, c, err := m.handle()
	if err != nil {
		return 0, err
	}
	var r int64
	var e omswig.Error
	st := omswig.Om_mesh_rank(h, toInt64s(coord), &r, &e)
	runtime.KeepAlive(c)
	if err := fromC(st, &e); err != nil {
		return 0, err
	}
	return int(r), nil
}

// GroupShape returns the number of groups over dims and the size of each
// (count * size == Size()).
func (m *Mesh) GroupShape(dims ...string) (count, size int, err error) {
	h, c, err := m.handle()
	if err != nil {
		return 0, 0, err
	}
	defer runtime.KeepAlive(c)
	mask, err := axes(h, dims)
	if err != nil {
		return 0, 0, err
	}
	return groupShape(h, mask)
}

// Groups returns every process group over dims (see the ordering above).
// Meshes of more than MaxGroupRanks ranks fail with ErrOutOfRange: use
// GroupRange to page through them.
func (m *Mesh) Groups(dims ...string) ([][]int, error) {
	h, c, err := m.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(c)
	mask, err := axes(h, dims)
	if err != nil {
		return nil, err
	}
	count, size, err := groupShape(h, mask)
	if err != nil {
		return nil, err
	}
	if count*size > MaxGroupRanks {
		return nil, errorf(ErrOutOfRange,
			"Groups materialises at most %d ranks, the mesh has %d: use GroupRange", MaxGroupRanks, count*size)
	}
	return groups(h, mask, 0, count, size)
}

// GroupRange returns groups first .. first+count-1 over dims, for paging
// through meshes too big for Groups. ErrOutOfRange when the range is not
// inside 0..number of groups, or holds more than MaxGroupRanks ranks.
func (m *Mesh) GroupRange(first, count int, dims ...string) ([][]int, error) {
	h, c, err := m.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(c)
	mask, err := axes(h, dims)
	if err != nil {
		return nil, err
	}
	total, size, err := groupShape(h, mask)
	if err != nil {
		return nil, err
	}
	if first < 0 || count < 0 || first > total || count > total-first {
		// The library's wording; first+count could overflow.
		return nil, errorf(ErrOutOfRange, "%d groups from group %d are outside the %d groups", count, first, total)
	}
	if count*size > MaxGroupRanks {
		return nil, errorf(ErrOutOfRange, "GroupRange materialises at most %d ranks, asked for %d", MaxGroupRanks, count*size)
	}
	return groups(h, mask, first, count, size)
}

func groupShape(h omswig.Mesh, mask uint64) (count, size int, err error) {
	var n, k int64
	var e omswig.Error
	if err := fromC(omswig.Om_mesh_group_shape(h, mask, &n, &k, &e), &e); err != nil {
		return 0, 0, err
	}
	return int(n), int(k), nil
}

// groups fetches groups first..first+count-1 of size ranks each, in pages
// of about 64 Ki ranks, into one backing []int.
func groups(h omswig.Mesh, mask uint64, first, count, size int) ([][]int, error) {
	all := make([]int, count*size)
	out := make([][]int, count)
	for g := range out {
		out[g] = all[g*size : (g+1)*size : (g+1)*size]
	}
	per := max(1, (1<<16)/size)
	buf := make([]int32, min(per, count)*size)
	var e omswig.Error
	for g := 0; g < count; g += per {
		n := min(per, count-g)
		page := buf[:n*size]
		if err := fromC(omswig.Om_mesh_groups(h, mask, int64(first+g), int64(n), page, &e), &e); err != nil {
			return nil, err
		}
		dst := all[g*size : (g+n)*size]
		for i, r := range page {
			dst[i] = int(r)
		}
	}
	return out, nil
}

// GroupIndex returns the index, in Groups(dims...), of the group that
// contains rank. ErrOutOfRange for a rank outside the mesh.
func (m *Mesh) GroupIndex(rank int, dims ...string) (int, error) {
	h, c, err := m.handle()
	if err != nil {
		return 0, err
	}
	defer runtime.KeepAlive(c)
	mask, err := axes(h, dims)
	if err != nil {
		return 0, err
	}
	var idx int64
	var e omswig.Error
	if err := fromC(omswig.Om_mesh_group_index(h, mask, int64(rank), &idx, &e), &e); err != nil {
		return 0, err
	}
	return int(idx), nil
}

// GroupOf returns the members of the group over dims that contains rank.
// ErrOutOfRange for a rank outside the mesh.
func (m *Mesh) GroupOf(rank int, dims ...string) ([]int, error) {
	h, c, err := m.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(c)
	mask, err := axes(h, dims)
	if err != nil {
		return nil, err
	}
	_, size, err := groupShape(h, mask)
	if err != nil {
		return nil, err
	}
	buf := make([]int32, size)
	var e omswig.Error
	if err := fromC(omswig.Om_mesh_group_of(h, mask, int64(rank), buf, &e), &e); err != nil {
		return nil, err
	}
	out := make([]int, size)
	for i, r := range buf {
		out[i] = int(r)
	}
	return out, nil
}

// Locality describes how the groups over some axes fall on hosts.
type Locality struct {
	Groups      int // number of groups
	LocalGroups int // groups whose ranks all sit on one host
	MaxHosts    int // the most hosts any one group spans
}

// Locality places ranks r .. r+ranksPerHost-1 on one host (the last host
// may be partial) and reports how the groups over dims spread across hosts.
// ErrInvalidArgument when ranksPerHost < 1.
func (m *Mesh) Locality(ranksPerHost int, dims ...string) (Locality, error) {
	h, c, err := m.handle()
	if err != nil {
		return Locality{}, err
	}
	defer runtime.KeepAlive(c)
	mask, err := axes(h, dims)
	if err != nil {
		return Locality{}, err
	}
	var n, local, hosts int64
	var e omswig.Error
	if err := fromC(omswig.Om_mesh_locality(h, mask, int64(ranksPerHost), &n, &local, &hosts, &e), &e); err != nil {
		return Locality{}, err
	}
	return Locality{Groups: int(n), LocalGroups: int(local), MaxHosts: int(hosts)}, nil
}
