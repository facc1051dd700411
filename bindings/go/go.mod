module github.com/offline-mesh/liboffline_mesh/bindings/go

go 1.24
