//go:build !cgo

package omswig

// Without cgo (CGO_ENABLED=0, or no C compiler on PATH, which turns cgo off)
// this package cannot reach the C library. Fail the build with an error
// that says what to install, rather than "build constraints exclude all Go
// files". The constant expression is invalid on purpose: the compiler
// quotes the string in its error.
const _ = "offlinemesh needs cgo: build with CGO_ENABLED=1 and a C compiler (gcc), pkg-config and liboffline_mesh installed where pkg-config finds offline_mesh.pc (the Debian package liboffline-mesh-dev, or a meson install with PKG_CONFIG_PATH=<prefix>/lib/<triplet>/pkgconfig; see docs/go.md)" + 0
