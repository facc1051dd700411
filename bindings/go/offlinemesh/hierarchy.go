package offlinemesh

import (
	"fmt"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// Hierarchy is the physical hierarchy of a cluster: ordered levels, fastest
// first (the GPU itself implied), each splitting the ranks into domains.
// Uniform levels ("host=4,nvl=72,rack=576") put rank r in domain r/k;
// explicit ones come from a hostfile or JSON (see docs/hierarchy.md).
// Copies share the C hierarchy, which is immutable and freed by a cleanup
// (or Close). MarshalJSON and String give the hierarchy as JSON. The zero
// Hierarchy, as a closed one, is C's NULL.
type Hierarchy struct{ h *omswig.Handle }

func newHierarchy(f func(h *omswig.Handle) error) (Hierarchy, error) {
	h := Hierarchy{new(omswig.Handle)}
	return orNil(h, f(h.h))
}

// Close releases the hierarchy (and its copies) now.
func (h Hierarchy) Close() error { h.h.Close(); return nil }

// MarshalJSON is the hierarchy's levels as JSON.
func (h Hierarchy) MarshalJSON() ([]byte, error) { return marshal(h.h, omswig.Om_hierarchy_to_json) }

// String is the levels as JSON, or the error.
func (h Hierarchy) String() string { return jsonString(h.MarshalJSON()) }

// ParseHierarchy reads uniform levels such as "host=4,nvl=72". Sizes must
// strictly increase; ErrInvalidArgument, ErrParse or ErrOutOfRange name the
// offending item.
func ParseHierarchy(spec string) (Hierarchy, error) {
	return newHierarchy(with(omswig.Om_hierarchy_from_spec, spec))
}

// ReadHierarchyJSON reads {"levels":[...],"ranks":[{"rank":0,...},...]}.
func ReadHierarchyJSON(data []byte) (Hierarchy, error) {
	return newHierarchy(with(omswig.Om_hierarchy_from_json, data))
}

// ReadHostfile reads "NAME slots=N [LEVEL=ID ...]" lines (or "NAME:N").
func ReadHostfile(data []byte) (Hierarchy, error) {
	return newHierarchy(with(omswig.Om_hierarchy_from_hostfile, data))
}

// Levels returns the level names, fastest first.
func (h Hierarchy) Levels() []string {
	return list(h.h, omswig.Om_hierarchy_levels, omswig.Om_hierarchy_level_name)
}

// LevelIndex is the position of level name (ErrInvalidArgument otherwise).
func (h Hierarchy) LevelIndex(name string) (int, error) {
	return get(nil, func(i *int) error { return omswig.Om_hierarchy_level_index(h.h, name, i) })
}

// level checks a level index: C takes a size_t, where -1 would be named
// 2^64-1, and its RanksPerDomain answers 0 out of range.
func (h Hierarchy) level(level int) error {
	switch n := omswig.Om_hierarchy_levels(h.h); {
	case n == 0:
		return errorf(ErrInvalidArgument, "hierarchy is NULL")
	case level < 0 || level >= n:
		return errorf(ErrOutOfRange, "level %d is outside the %d levels of the hierarchy", level, n)
	}
	return nil
}

// RanksPerDomain is the domain size of a uniform level (0 when explicit);
// ErrOutOfRange for a level outside Levels(), as DomainOf.
func (h Hierarchy) RanksPerDomain(level int) (int, error) {
	n := omswig.Om_hierarchy_ranks_per_domain(h.h, level) // 0 out of range or closed, safely
	return orNil(n, h.level(level))                       // checked after: open then, open for the call
}

// Ranks is the number of ranks an explicit hierarchy describes (0 when
// uniform: any number).
func (h Hierarchy) Ranks() int { return omswig.Om_hierarchy_ranks(h.h) }

// DomainOf is the domain of rank at level.
func (h Hierarchy) DomainOf(level, rank int) (int, error) {
	return get(h.level(level), func(d *int) error { return omswig.Om_hierarchy_domain_of(h.h, level, rank, d) })
}

// DomainLabel is the name of a domain (a host name, or "nvl3").
func (h Hierarchy) DomainLabel(level, domain int) (string, error) {
	return get(h.level(level), func(s *string) error {
		return omswig.Om_hierarchy_domain_label(h.h, level, domain, s)
	})
}

// LevelLocality is the locality of the groups over one axis set at one
// level.
type LevelLocality struct {
	Level          string
	Groups         int // groups over the axis set
	GroupsInside   int // groups inside one domain
	GroupsCrossing int // groups spanning two or more domains
	MaxDomains     int // most domains one group spans
	PPNMin, PPNMax int // fewest / most ranks of a group in one domain
	WorstGroup     int // first group spanning MaxDomains
	FirstCrossing  int // first crossing group, -1 when none
	CrossingRank   int // its first rank outside its first member's domain, -1
}

// String is e.g. LevelLocality{Level:host Groups:2 GroupsInside:0 ...}.
func (l LevelLocality) String() string {
	type fields LevelLocality // no String method: no recursion
	return fmt.Sprintf("LevelLocality%+v", fields(l))
}

// Locality reports, per level, how the groups of m over axes sit in h.
func (h Hierarchy) Locality(m *View, axes ...string) ([]LevelLocality, error) {
	loc := new(omswig.Handle)
	defer loc.Close()
	levels := h.Levels() // before the report: a racing Close leaves none, and no report
	err := m.ok()
	if err == nil {
		err = omswig.Om_hierarchy_locality(m.c(), h.h, axes, loc)
	}
	out := make([]LevelLocality, omswig.Om_locality_levels(loc)) // none without a report
	for l, name := range levels[:len(out)] {
		v := [8]int{}
		for f := range v {
			_ = omswig.Om_locality_get(loc, l, omswig.Enum_SS_om_locality_field(f), &v[f])
		}
		out[l] = LevelLocality{name, omswig.Om_locality_groups(loc), v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]}
	}
	return orNil(out, err)
}

// Check returns one message per broken placement rule of rules
// ("tp:host,cp+tp:nvl"; "" for none), each naming the first offending group
// and rank; an empty slice when every rule holds. A broken rule is a
// result; errors are for bad input (an unknown level or axis, a malformed
// rule).
func (h Hierarchy) Check(m *View, rules string) ([]string, error) {
	var n int
	return lines(get(m.ok(), func(s *string) error {
		return omswig.Om_hierarchy_check(m.c(), h.h, rules, s, &n)
	}))
}

// AdviseOrder lists every runtime order of d's parallel axes judged in h
// with Megatron's layout, as JSON {"orders":[{"broken","crossings",
// "megatron","torch"},...],"rejected":[...]}, ranked by broken require
// (must) rules, broken prefer (should) rules, then crossings per level in
// priority order ("tp>ep>cp>pp>dp"; "" for Megatron's tp>cp>ep>dp>pp).
func AdviseOrder(d ParallelDims, h Hierarchy, require, prefer, priority string) (string, error) {
	return d.str(func(dh *omswig.Handle, s *string) error {
		return omswig.Om_order_advice(dh, h.h, require, prefer, priority, s)
	})
}

// CheckOrder lists the rules one runtime order breaks: Megatron's pp-last
// rule, then each broken rule of require (empty when none).
func CheckOrder(d ParallelDims, h Hierarchy, order, require string) (broken []string, err error) {
	var n int
	return lines(d.str(func(dh *omswig.Handle, s *string) error {
		return omswig.Om_order_check(dh, h.h, order, require, s, &n)
	}))
}

// Launch describes a job of Nodes nodes with ProcsPerNode processes each:
// node K runs ranks K*P .. K*P+P-1.
type Launch struct {
	Nodes, ProcsPerNode int
	Format              string     // "torchrun" (default), "slurm" or "openmpi"
	MasterAddr          string     // torchrun; "" means 127.0.0.1
	MasterPort          int        // torchrun; 0 means 29500
	Hosts               []string   // node-rank order, never sorted; nil for none
	Hierarchy           *Hierarchy // admission levels; nil means host=ProcsPerNode
	Require             string     // placement rules checked at admission
}

// Check lists every admission violation of running m as l at once (an
// empty slice when admissible): world size not Nodes*ProcsPerNode, a host
// level of another size, a slower level a node would straddle, each broken
// rule of Require. A closed (or zero) Hierarchy is an error, not the
// default.
func (l Launch) Check(m *View) ([]string, error) {
	var hh *omswig.Handle
	pre := m.ok()
	if l.Hierarchy != nil {
		if hh = l.Hierarchy.h; !hh.Open() && pre == nil { // C's NULL would mean the default
			pre = errorf(ErrInvalidArgument, "hierarchy is NULL (a closed or zero Hierarchy)")
		}
	}
	var n int
	return lines(get(pre, func(s *string) error {
		return omswig.Om_launch_check(m.c(), hh, l.Nodes, l.ProcsPerNode, l.Require, s, &n)
	}))
}

// Plan returns the launch plan of m as JSON: per node its node rank, host,
// ranks and each process's launcher environment (torchrun's static
// rendezvous, Slurm or Open MPI; docs/hierarchy.md lists the variables).
// Call Check first: Plan only refuses what it cannot write.
func (l Launch) Plan(m *View) (string, error) {
	var format int
	if l.Format != "" {
		if err := omswig.Om_launch_format_from_name(l.Format, &format); err != nil {
			return "", err
		}
	}
	return get(m.ok(), func(s *string) error {
		return omswig.Om_launch_plan(m.c(), l.Nodes, l.ProcsPerNode, omswig.Enum_SS_om_launch_format(format),
			l.MasterAddr, l.MasterPort, l.Hosts, s)
	})
}
