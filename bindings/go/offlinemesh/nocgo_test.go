package offlinemesh

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Without cgo the build must fail with the message of
// internal/omswig/cgo_required.go, which names what to install.
func TestBuildWithoutCgoSaysWhatItNeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	// go test puts its own GOROOT/bin first on PATH.
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("go build with CGO_ENABLED=0 succeeded; want a build error:\n%s", out)
	}
	for _, want := range []string{
		"internal/omswig/cgo_required.go",
		"offlinemesh needs cgo: build with CGO_ENABLED=1 and a C compiler (gcc), pkg-config and liboffline_mesh",
		"liboffline-mesh-dev",
		"PKG_CONFIG_PATH=<prefix>/lib/<triplet>/pkgconfig",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("go build with CGO_ENABLED=0: output lacks %q:\n%s", want, out)
		}
	}
}
