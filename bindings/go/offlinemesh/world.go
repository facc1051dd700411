package offlinemesh

import (
	"github.com/offline-mesh/liboffline_mesh/bindings/go/internal/omswig"
)

// World is one rank space and its named views (VIEWS.md 2). An axis name
// shared by two views gives identical groups in both: NewWorld refuses
// views that disagree (ErrViewConflict, naming the axis and both views) or
// reach ranks outside the world (ErrOutsideWorld). A World is immutable
// and safe for concurrent use; Close releases it (a cleanup otherwise).
// MarshalJSON and String give the world's JSON: its size and every view
// record. A nil *World is C's NULL, as a nil *Mesh.
type World struct{ h *omswig.Handle }

var newWorld = newObject[World]

// c is the world's C object: NULL for nil, zero or closed.
func (w *World) c() *omswig.Handle { return handleOf(w) }

// Close releases the world now instead of at garbage collection.
func (w *World) Close() error { w.c().Close(); return nil }

// MarshalJSON is the world's JSON.
func (w *World) MarshalJSON() ([]byte, error) { return marshal(w.c(), omswig.Om_world_to_json) }

// String is the world's JSON, or the error.
func (w *World) String() string { return jsonString(w.MarshalJSON()) }

// NewWorld makes a world of size ranks holding views under names.
func NewWorld(size int, names []string, views []*View) (*World, error) {
	hs := make([]*omswig.Handle, len(views))
	for i, v := range views {
		hs[i] = v.c()
	}
	return newWorld(func(h *omswig.Handle) error { return omswig.Om_world_new(size, names, hs, h) })
}

// ParseWorld reads the JSON of a world (World.String).
func ParseWorld(data []byte) (*World, error) { return newWorld(with(omswig.Om_world_from_json, data)) }

// LoadWorld is ParseWorld of the file at path (ErrIO when unreadable).
func LoadWorld(path string) (*World, error) { return newWorld(with(omswig.Om_world_load_json, path)) }

// Size is the number of ranks of the world.
func (w *World) Size() int { return omswig.Om_world_size(w.c()) }

// ViewNames lists the views in construction order.
func (w *World) ViewNames() []string {
	return list(w.c(), omswig.Om_world_view_count, omswig.Om_world_view_name)
}

// ViewIndex is the position of view name, or -1.
func (w *World) ViewIndex(name string) int { return omswig.Om_world_view_index(w.c(), name) }

// View returns the view called name (ErrUnknownView otherwise).
func (w *World) View(name string) (*View, error) {
	return newMesh(nil, func(h *omswig.Handle) error { return omswig.Om_world_view(w.c(), name, h) })
}

// AxisView names the first view that has axis ("" when none has it).
func (w *World) AxisView(axis string) string { return omswig.Om_world_axis_view(w.c(), axis) }

// Slice is the sub-view of the named axes, looked up in the views that
// have them (every axis of one view).
func (w *World) Slice(axes ...string) (*View, error) {
	return newMesh(nil, func(h *omswig.Handle) error { return omswig.Om_world_slice(w.c(), axes, h) })
}
