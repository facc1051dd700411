package offlinemesh

import (
	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

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
// rule of Require.
func (l Launch) Check(m *Mesh) ([]string, error) {
	var lines string
	run := func(hp omswig.Hierarchy) error {
		return m.call(func(mp omswig.Mesh, e *omswig.Error) int {
			var n int
			return omswig.Om_launch_check(mp, hp, l.Nodes, l.ProcsPerNode, l.Require, &lines, &n, e)
		})
	}
	var err error
	if l.Hierarchy != nil {
		err = l.Hierarchy.with(run)
	} else {
		err = run(omswig.SwigcptrHierarchy(0))
	}
	if err != nil {
		return nil, err
	}
	return splitLines(lines), nil
}

// Plan returns the launch plan of m as JSON: per node its node rank, host,
// ranks and each process's launcher environment (torchrun's static
// rendezvous, Slurm or Open MPI; docs/hierarchy.md lists the variables).
// Call Check first: Plan only refuses what it cannot write.
func (l Launch) Plan(m *Mesh) (string, error) {
	format := 0
	if l.Format != "" {
		var e omswig.Error
		var f omswig.Enum_SS_om_launch_format
		if err := fromC(omswig.Om_launch_format_from_name(l.Format, &f, &e), &e); err != nil {
			return "", err
		}
		format = int(f)
	}
	var json string
	err := m.call(func(mp omswig.Mesh, e *omswig.Error) int {
		return omswig.Om_launch_plan(mp, l.Nodes, l.ProcsPerNode,
			omswig.Enum_SS_om_launch_format(format), l.MasterAddr, l.MasterPort, l.Hosts, &json, e)
	})
	return json, err
}
