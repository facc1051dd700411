package offlinemesh

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The binding must give the CLI's answers. run-tests.sh sets OM_CLI to the
// offline-mesh program of the build under test; without it these tests are
// skipped (and run-tests.sh says so).

type cliResult struct {
	out    []byte
	stderr string
	failed bool
}

func runCLI(t *testing.T, args ...string) cliResult {
	t.Helper()
	cmd := exec.Command(os.Getenv("OM_CLI"), args...)
	cmd.Env = append(os.Environ(), "WORLD_SIZE=", "OMPI_COMM_WORLD_SIZE=", "PMI_SIZE=", "SLURM_NTASKS=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("offline-mesh %q: %v\n%s", args, err, stderr.String())
		}
	}
	return cliResult{bytes.TrimSpace(stdout.Bytes()), stderr.String(), err != nil}
}

func needCLI(t *testing.T) {
	if os.Getenv("OM_CLI") == "" {
		t.Skip("OM_CLI not set: no offline-mesh program to compare with")
	}
	clearWorldEnv(t)
}

// sameOutcome checks a Go result against the CLI's: both fail with the same
// message, or both succeed with the same JSON.
func sameOutcome(t *testing.T, what string, cli cliResult, goJSON []byte, goErr error) {
	t.Helper()
	if goErr != nil || cli.failed {
		if goErr == nil || !cli.failed {
			t.Fatalf("%s: Go error %v, CLI failed %v (%s)", what, goErr, cli.failed, cli.stderr)
		}
		msg := goErr.(*Error).Message
		if i := strings.LastIndex(msg, ": "); i >= 0 && strings.HasPrefix(msg, "/") {
			msg = msg[i+2:] // messages of LoadParallelDims start with the path
		}
		// check's verdict lists the broken rules on stdout (exit 1).
		var verdict struct{ Violations []string }
		_ = json.Unmarshal(cli.out, &verdict)
		if !strings.Contains(cli.stderr+strings.Join(verdict.Violations, "\n"), msg) {
			t.Fatalf("%s: Go says %q, CLI says %q", what, msg, cli.stderr)
		}
		return
	}
	if !bytes.Equal(cli.out, goJSON) {
		t.Fatalf("%s:\nGo  %s\nCLI %s", what, goJSON, cli.out)
	}
}

func randomConfig(rng *rand.Rand) (yaml string, world int) {
	var b strings.Builder
	b.WriteString("model: {name: test}\naccelerator:\n")
	product := 1
	for _, key := range []string{"tp_size", "cp_size", "pp_size", "ep_size"} {
		if rng.Intn(2) == 0 {
			v := []int{1, 2, 4, 3}[rng.Intn(4)]
			if rng.Intn(20) == 0 {
				v = 0 // an error
			}
			fmt.Fprintf(&b, "  %s: %d\n", key, v)
			if key != "ep_size" {
				product *= max(v, 1)
			}
		}
	}
	dp := 1 + rng.Intn(4)
	world = dp * product
	if rng.Intn(4) == 0 {
		fmt.Fprintf(&b, "  dp_size: %d\n", dp)
	}
	if rng.Intn(8) == 0 {
		world++ // indivisible or mismatched
	}
	if rng.Intn(3) == 0 {
		b.WriteString("  sequence_parallel: yes\n")
	}
	return b.String(), world
}

func TestAgreesWithCLIOnConfigs(t *testing.T) {
	needCLI(t)
	rng := rand.New(rand.NewSource(99))
	dir := t.TempDir()
	failures, checks, checkFailures := 0, 0, 0
	defer func() {
		if !t.Failed() && (failures == 0 || failures == 40 || checkFailures == 0 || checkFailures == checks) {
			t.Errorf("%d of 40 configs and %d of %d checks failed: the cases miss an outcome",
				failures, checkFailures, checks)
		}
	}()
	for i := 0; i < 40; i++ {
		yaml, world := randomConfig(rng)
		path := filepath.Join(dir, fmt.Sprintf("c%d.yaml", i))
		if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		ws := fmt.Sprint(world)
		what := fmt.Sprintf("config %q world %d", yaml, world)

		d, err := LoadParallelDims(path, world)
		var dj []byte
		if err == nil {
			dj, err = json.Marshal(d)
		}
		sameOutcome(t, what+" dims", runCLI(t, "dims", path, "--world-size", ws), dj, err)
		if err != nil {
			failures++
			continue
		}
		m, err := BuildOfflineMesh(d)
		var mj []byte
		if err == nil {
			mj, err = json.Marshal(m)
		}
		sameOutcome(t, what+" mesh", runCLI(t, "mesh", path, "--world-size", ws), mj, err)

		for _, order := range []string{"pp,dp,cp,tp", "tp-cp-ep-dp-pp", "dp,tp"} {
			rm, err := BuildRuntimeMesh(d, order)
			var rj []byte
			if err == nil {
				rj, _ = json.Marshal(rm)
			}
			sameOutcome(t, what+" order "+order, runCLI(t, "mesh", path, "--world-size", ws, "--order", order), rj, err)
		}

		// The CLI's "check": every planner preflight check in order.
		experts := 0
		checkArgs := []string{"check", path, "--world-size", ws}
		if rng.Intn(2) == 0 {
			experts = d.EP * (1 + rng.Intn(3))
			if rng.Intn(4) == 0 {
				experts++ // not divisible by ep (unless ep is 1)
			}
			checkArgs = append(checkArgs, "--num-experts", fmt.Sprint(experts))
		}
		cj, err := goCheck(d, m, experts)
		checks++
		if err != nil {
			checkFailures++
		}
		sameOutcome(t, what+fmt.Sprintf(" check (experts %d)", experts), runCLI(t, checkArgs...), cj, err)

		x, err := ExpertLayout(m, d.EP, 0)
		var xj []byte
		if err == nil {
			ep, _ := x.EPGroups()
			edp, _ := x.EDPGroups()
			xj, _ = json.Marshal(map[string]any{"edp": x.EDP(), "ep": x.EP(), "ep_groups": ep, "edp_groups": edp})
		}
		sameOutcome(t, what+" experts", runCLI(t, "experts", path, "--world-size", ws), xj, err)
	}
}

// goCheck is the CLI's "check" command written with this package.
func goCheck(d ParallelDims, m *Mesh, experts int) ([]byte, error) {
	if err := ValidateAxes(m, d.TP, d.CP, d.EP); err != nil {
		return nil, err
	}
	plan, err := PlanDimNames(m, d.TP, d.CP, d.EP)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"dims": d, "mesh": m, "ok": true, "plan_dim_names": plan, "violations": []string{}}
	// Extended EP (and so num_experts) is only checked when ep > 1.
	if d.EP > 1 {
		x, err := ExpertLayout(m, d.EP, experts)
		if err != nil {
			return nil, err
		}
		out["experts"] = map[string]int{"edp": x.EDP(), "ep": x.EP()}
	}
	return json.Marshal(out)
}

func TestAgreesWithCLIOnTopology(t *testing.T) {
	needCLI(t)
	rng := rand.New(rand.NewSource(5))
	all := []string{"pp", "dp", "cp", "ep", "tp"}
	for i := 0; i < 40; i++ {
		ndim := 1 + rng.Intn(4)
		names := append([]string(nil), all...)
		rng.Shuffle(len(names), func(a, b int) { names[a], names[b] = names[b], names[a] })
		names = names[:ndim]
		shape := make([]int, ndim)
		for j := range shape {
			shape[j] = 1 + rng.Intn(4)
		}
		m := mustMesh(t, names, shape)
		spec, _ := m.Spec()

		var dims []string
		for _, n := range names {
			if rng.Intn(2) == 0 {
				dims = append(dims, n)
			}
		}
		if len(dims) == 0 || rng.Intn(10) == 0 {
			dims = append(dims, "zz") // an unknown axis
		}
		g, err := m.Groups(dims...)
		var gj []byte
		if err == nil {
			gj, _ = json.Marshal(g)
		}
		sameOutcome(t, spec+" groups "+strings.Join(dims, ","),
			runCLI(t, "groups", "--mesh", spec, "--dims", strings.Join(dims, ",")), gj, err)

		rank := rng.Intn(m.Size() + 1) // sometimes Size(), outside the mesh
		c, err := m.Coordinate(rank)
		cli := runCLI(t, "coord", "--mesh", spec, "--rank", fmt.Sprint(rank))
		if err != nil || cli.failed {
			sameOutcome(t, spec+" coord", cli, nil, err)
		} else {
			var got map[string]int
			if err := json.Unmarshal(cli.out, &got); err != nil || len(got) != ndim {
				t.Fatalf("coord output %s: %v", cli.out, err)
			}
			for j, n := range names {
				if got[n] != c[j] {
					t.Fatalf("%s coord %d: Go %v, CLI %s", spec, rank, c, cli.out)
				}
			}
		}

		k := 1 + rng.Intn(6)
		loc, err := m.Locality(k, dims...)
		cli = runCLI(t, "locality", "--mesh", spec, "--ranks-per-host", fmt.Sprint(k), "--dims", strings.Join(dims, ","))
		if err != nil || cli.failed {
			sameOutcome(t, spec+" locality", cli, nil, err)
			continue
		}
		var rep struct {
			Report []struct {
				Groups      int `json:"groups"`
				LocalGroups int `json:"local_groups"`
				MaxHosts    int `json:"max_hosts"`
			} `json:"report"`
		}
		if err := json.Unmarshal(cli.out, &rep); err != nil || len(rep.Report) != 1 {
			t.Fatalf("locality output %s: %v", cli.out, err)
		}
		r := rep.Report[0]
		if (Locality{r.Groups, r.LocalGroups, r.MaxHosts}) != loc {
			t.Fatalf("%s locality %d %q: Go %+v, CLI %s", spec, k, dims, loc, cli.out)
		}
	}

	for _, order := range []string{"tp-cp-ep-dp-pp", "pp,dp,cp,tp", "tp-dp", "tp,tp", "tp-cp,dp"} {
		s, err := NormalizeOrder(order)
		var oj []byte
		if err == nil {
			oj, _ = json.Marshal(strings.Split(s, ","))
		}
		sameOutcome(t, "order "+order, runCLI(t, "order", order), oj, err)
	}
}
