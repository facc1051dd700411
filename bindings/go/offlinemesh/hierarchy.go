package offlinemesh

import (
	"strings"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// Hierarchy is the physical hierarchy of a cluster: ordered levels, fastest
// first (the GPU itself implied), each splitting the ranks into domains.
// Uniform levels ("host=4,nvl=72,rack=576") put rank r in domain r/k;
// explicit ones come from a hostfile or JSON (see docs/hierarchy.md).
//
// A Hierarchy is a Go value holding its validated source: every call builds
// the C hierarchy, uses it and frees it, so there is nothing to Close and
// values may be copied and shared between goroutines.
type Hierarchy struct {
	kind   int // 0 spec, 1 JSON, 2 hostfile
	text   string
	levels []string
}

// ParseHierarchy reads uniform levels such as "host=4,nvl=72". Sizes must
// strictly increase; ErrInvalidArgument, ErrParse or ErrOutOfRange name the
// offending item.
func ParseHierarchy(spec string) (Hierarchy, error) { return newHierarchy(0, spec) }

// ReadHierarchyJSON reads {"levels":[...],"ranks":[{"rank":0,...},...]}.
func ReadHierarchyJSON(data []byte) (Hierarchy, error) { return newHierarchy(1, string(data)) }

// ReadHostfile reads "NAME slots=N [LEVEL=ID ...]" lines (or "NAME:N").
func ReadHostfile(data []byte) (Hierarchy, error) { return newHierarchy(2, string(data)) }

func newHierarchy(kind int, text string) (Hierarchy, error) {
	h := Hierarchy{kind: kind, text: text}
	err := h.with(func(p omswig.Hierarchy) error {
		n := omswig.Om_hierarchy_levels(p)
		for i := range n {
			h.levels = append(h.levels, omswig.Om_hierarchy_level_name(p, i))
		}
		return nil
	})
	return h, err
}

// with builds the C hierarchy for one call of f.
func (h Hierarchy) with(f func(p omswig.Hierarchy) error) error {
	var out uintptr
	var e omswig.Error
	var st int
	switch h.kind {
	case 0:
		st = omswig.Om_hierarchy_from_spec(h.text, &out, &e)
	case 1:
		st = omswig.Om_hierarchy_from_json([]byte(h.text), &out, &e)
	default:
		st = omswig.Om_hierarchy_from_hostfile([]byte(h.text), &out, &e)
	}
	if err := fromC(st, &e); err != nil {
		return err
	}
	p := omswig.SwigcptrHierarchy(out)
	defer omswig.Om_hierarchy_free(p)
	return f(p)
}

// Levels returns the level names, fastest first.
func (h Hierarchy) Levels() []string { return append([]string(nil), h.levels...) }

// LevelLocality is the locality of the groups over one axis set at one
// level.
type LevelLocality struct {
	Level          string
	GroupsInside   int // groups inside one domain
	GroupsCrossing int // groups spanning two or more domains
	MaxDomains     int // most domains one group spans
	PPNMin, PPNMax int // fewest / most ranks of a group in one domain
	WorstGroup     int // first group spanning MaxDomains
	FirstCrossing  int // first crossing group, -1 when none
	CrossingRank   int // its first rank outside its first member's domain, -1
}

// Locality reports, per level, how the groups of m over axes sit in h.
func (h Hierarchy) Locality(m *Mesh, axes ...string) ([]LevelLocality, error) {
	var out []LevelLocality
	err := h.with(func(hp omswig.Hierarchy) error {
		return m.call(func(mp omswig.Mesh, e *omswig.Error) int {
			var lp uintptr
			st := omswig.Om_hierarchy_locality(mp, hp, axes, &lp, e)
			if st != 0 {
				return st
			}
			loc := omswig.SwigcptrLocality(lp)
			defer omswig.Om_locality_free(loc)
			for l, name := range h.levels {
				var v [8]int
				for f := range v {
					if st = omswig.Om_locality_get(loc, l, omswig.Enum_SS_om_locality_field(f), &v[f], e); st != 0 {
						return st
					}
				}
				out = append(out, LevelLocality{name, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]})
			}
			return 0
		})
	})
	return out, err
}

// Check returns one message per broken placement rule of rules
// ("tp:host,cp+tp:nvl"; "" for none), each naming the first offending group
// and rank; an empty slice when every rule holds. A broken rule is a
// result; errors are for bad input (an unknown level or axis, a malformed
// rule).
func (h Hierarchy) Check(m *Mesh, rules string) ([]string, error) {
	var lines string
	err := h.with(func(hp omswig.Hierarchy) error {
		return m.call(func(mp omswig.Mesh, e *omswig.Error) int {
			var n int
			return omswig.Om_hierarchy_check(mp, hp, rules, &lines, &n, e)
		})
	})
	if err != nil {
		return nil, err
	}
	return splitLines(lines), nil
}

func splitLines(s string) []string {
	out := []string{}
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}
