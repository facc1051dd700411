module github.com/offline-mesh/liboffline_mesh/bench/go

go 1.24

require github.com/offline-mesh/liboffline_mesh/bindings/go v0.0.0

replace github.com/offline-mesh/liboffline_mesh/bindings/go => ../../bindings/go
