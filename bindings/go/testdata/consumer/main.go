// A program outside the offline_mesh module that imports it, as a user's
// launcher would. bindings/go/run-tests.sh copies this folder to a temporary
// directory, writes a go.mod with a `replace` to the checkout, builds it and
// compares its output with expected.txt.
//
// usage: meshjob CONFIG.yaml WORLD_SIZE
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/offline-mesh/liboffline_mesh/bindings/go/offlinemesh"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: meshjob CONFIG.yaml WORLD_SIZE")
		os.Exit(2)
	}
	world, err := strconv.Atoi(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	dims, err := offlinemesh.LoadParallelDims(os.Args[1], world)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mesh, err := offlinemesh.BuildOfflineMesh(dims)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, _ := json.Marshal(mesh)
	fmt.Println(string(out))
	fmt.Println("ranks", mesh.Size(), "ep", dims.EP)
	for _, axis := range []string{"tp", "cp", "pp"} {
		groups, err := mesh.Groups(axis)
		if err != nil {
			fmt.Println(axis, err)
			continue
		}
		fmt.Println(axis, groups)
	}
	// Extended EP is refused with pp > 1; on the mesh without pp it works.
	_, err = offlinemesh.ExpertLayout(mesh, dims.EP, 0)
	fmt.Println("experts with pp:", errors.Is(err, offlinemesh.ErrInvalidArgument))
	flat := dims
	flat.PP = 1
	flat.DP *= dims.PP
	dense, err := offlinemesh.BuildOfflineMesh(flat)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	experts, err := offlinemesh.ExpertLayout(dense, dims.EP, 16)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ep, _ := experts.EPGroups()
	edp, _ := experts.EDPGroups()
	fmt.Println("experts", experts.Mesh, "local", experts.LocalExperts())
	fmt.Println("ep", ep)
	fmt.Println("edp", edp)

	// Errors keep the library's status code.
	_, err = offlinemesh.LoadParallelDims(os.Args[1]+".missing", world)
	var e *offlinemesh.Error
	fmt.Println("missing file:", errors.Is(err, offlinemesh.ErrIO), errors.As(err, &e) && e.Status == offlinemesh.ErrIO)
}
