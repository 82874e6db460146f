package simcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"karmada-policy-webhook/tests/conformance/internal/inputs"
	"karmada-policy-webhook/tests/conformance/internal/report"
)

// Outcome classifies one input.
type Outcome int

const (
	Agree       Outcome = iota
	Differ              // Differences say where
	Skipped             // Why says why: a difference by design
	CouldNotRun         // Why says why
)

// Verdict is the comparison of one input.
type Verdict struct {
	Outcome     Outcome
	Why         string
	Differences []Difference
}

// wait is the drill Check runs: one step that changes nothing, so that step 0 is the whole answer.
const wait = `apiVersion: karmada-policy-webhook.io/v1alpha1
kind: Scenario
metadata: {name: step-zero}
steps:
- name: a minute later
  wait: {duration: 1m}
`

// Checker runs both faces of one binary.
type Checker struct {
	Binary  string
	Timeout time.Duration
}

// Check runs `lint -o json ARGS` and `simulate -o json --scenario WAIT ARGS` on the input of args (flags,
// then policy paths; it must have --clusters) and compares them.
func (c Checker) Check(ctx context.Context, args []string) Verdict {
	tmp, err := os.MkdirTemp("", "simcheck-")
	if err != nil {
		return Verdict{Outcome: CouldNotRun, Why: err.Error()}
	}
	defer os.RemoveAll(tmp)
	scenario := filepath.Join(tmp, "scenario.yaml")
	if err := os.WriteFile(scenario, []byte(wait), 0o600); err != nil {
		return Verdict{Outcome: CouldNotRun, Why: err.Error()}
	}
	args = withReadyClusters(args, filepath.Join(tmp, "clusters.yaml"))
	a, err := c.runFaces(ctx, args, scenario)
	if err != nil {
		return Verdict{Outcome: CouldNotRun, Why: err.Error()}
	}
	if a.lintExit == 1 && a.simExit == 2 {
		// simulate starts from admitted policies only: compare both faces on the admitted ones.
		admitted, ok := withoutDenied(args, a.lint, filepath.Join(tmp, "admitted.yaml"))
		if !ok {
			return Verdict{Outcome: Skipped, Why: "lint denies every policy: simulate has none to start from"}
		}
		if a, err = c.runFaces(ctx, admitted, scenario); err != nil {
			return Verdict{Outcome: CouldNotRun, Why: err.Error()}
		}
	}
	switch {
	case a.lintExit == 2 && a.simExit == 2:
		return Verdict{Outcome: Agree, Why: "both refuse the input"}
	case a.lintExit == 1 && a.simExit == 2:
		return Verdict{Outcome: Skipped, Why: "simulate starts from admitted policies only; lint denies one"}
	case a.lintExit > 1 || a.simExit > 1:
		return Verdict{Outcome: Differ, Why: fmt.Sprintf("lint exits %d, simulate %d", a.lintExit, a.simExit)}
	}
	lint, err := LintDecisions(a.lint)
	if err != nil {
		return Verdict{Outcome: CouldNotRun, Why: err.Error()}
	}
	sim, controllersActed, err := SimulateDecisions(a.simulate)
	if err != nil {
		return Verdict{Outcome: CouldNotRun, Why: err.Error()}
	}
	if controllersActed {
		return Verdict{Outcome: Skipped, Why: "a controller changed the Clusters before simulate's first pass"}
	}
	if d := Compare(lint, sim); len(d) > 0 {
		return Verdict{Outcome: Differ, Differences: d}
	}
	return Verdict{Outcome: Agree}
}

// answers are both faces' reports on one input, and how each exited.
type answers struct {
	lint, simulate    []byte
	lintExit, simExit int
}

// runFaces runs `lint -o json ARGS` and `simulate -o json --scenario SCENARIO ARGS`.
func (c Checker) runFaces(ctx context.Context, args []string, scenario string) (answers, error) {
	var a answers
	var err error
	if a.lint, a.lintExit, err = c.run(ctx, append([]string{"lint", "-o", "json"}, args...)); err != nil {
		return a, fmt.Errorf("lint: %w", err)
	}
	if a.simulate, a.simExit, err = c.run(ctx, append([]string{"simulate", "-o", "json", "--scenario", scenario}, args...)); err != nil {
		return a, fmt.Errorf("simulate: %w", err)
	}
	return a, nil
}

// run executes the binary; exit codes are answers, anything else (a crash, a timeout) an error.
func (c Checker) run(ctx context.Context, args []string) ([]byte, int, error) {
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Binary, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return nil, 0, fmt.Errorf("timed out after %s", c.Timeout)
	case err == nil:
		return stdout.Bytes(), 0, nil
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return stdout.Bytes(), exit.ExitCode(), nil
	}
	return nil, 0, fmt.Errorf("%v: %s", err, firstLine(stderr.String()))
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// withReadyClusters rewrites the --clusters inputs of args into one file at path in which every Cluster
// is as the cluster controllers leave it (settleCluster), so that simulate's cluster controller has
// nothing to change before its first scheduling pass. Inputs that cannot be read are left as they are:
// the faces then compare on them unchanged.
func withReadyClusters(args []string, path string) []string {
	var paths []string
	var rest []string
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--clusters" && i+1 < len(args):
			paths = append(paths, args[i+1])
			i++
		case strings.HasPrefix(args[i], "--clusters="):
			paths = append(paths, strings.TrimPrefix(args[i], "--clusters="))
		default:
			rest = append(rest, args[i])
		}
	}
	if len(paths) == 0 {
		return args
	}
	if !rewrite(paths, path, func(d inputs.Document) bool {
		if d.Object.GetKind() != "Cluster" {
			return false
		}
		settleCluster(d.Object.Object)
		return true
	}) {
		return args
	}
	return append([]string{"--clusters", path}, rest...)
}

// The cluster controller's condition taints (pkg/controllers/cluster taintClusterByCondition).
var (
	notReadyTaint    = map[string]any{"key": "cluster.karmada.io/not-ready", "effect": "NoSchedule"}
	unreachableTaint = map[string]any{"key": "cluster.karmada.io/unreachable", "effect": "NoSchedule"}
)

// settleCluster makes a Cluster object what karmada's cluster controllers leave it as: a Ready=True
// condition when it has none (a member the cluster status controller reaches), and the condition taints
// of its Ready status (False: not-ready, Unknown: unreachable, True: neither). A status, condition list or
// taint list of another type is left alone: that input is about the type.
func settleCluster(obj map[string]any) {
	if obj["status"] == nil {
		obj["status"] = map[string]any{}
	}
	status, ok := obj["status"].(map[string]any)
	if !ok {
		return
	}
	if status["conditions"] == nil {
		status["conditions"] = []any{}
	}
	conditions, ok := status["conditions"].([]any)
	if !ok {
		return
	}
	ready := ""
	for _, c := range conditions {
		if m, ok := c.(map[string]any); ok && m["type"] == "Ready" {
			ready, _ = m["status"].(string)
			break
		}
	}
	if ready == "" {
		status["conditions"] = append(conditions, map[string]any{"type": "Ready", "status": "True"})
		ready = "True"
	}
	switch ready {
	case "True":
		setTaints(obj, nil, notReadyTaint, unreachableTaint)
	case "False":
		setTaints(obj, notReadyTaint, unreachableTaint)
	case "Unknown":
		setTaints(obj, unreachableTaint, notReadyTaint)
	}
}

// setTaints is SetCurrentClusterTaints: spec.taints without the `remove` ones (by key and effect), with
// `add` (when not nil) unless one of its key and effect is there.
func setTaints(obj map[string]any, add map[string]any, remove ...map[string]any) {
	if obj["spec"] == nil {
		obj["spec"] = map[string]any{}
	}
	spec, ok := obj["spec"].(map[string]any)
	if !ok {
		return
	}
	taints, ok := spec["taints"].([]any)
	if !ok && spec["taints"] != nil {
		return
	}
	same := func(t any, want map[string]any) bool {
		m, ok := t.(map[string]any)
		return ok && m["key"] == want["key"] && m["effect"] == want["effect"]
	}
	kept := []any{}
	present := false
	for _, t := range taints {
		drop := false
		for _, r := range remove {
			drop = drop || same(t, r)
		}
		if drop {
			continue
		}
		present = present || (add != nil && same(t, add))
		kept = append(kept, t)
	}
	if add != nil && !present {
		kept = append(kept, map[string]any{"key": add["key"], "effect": add["effect"]})
	}
	if len(kept) == 0 && spec["taints"] == nil {
		return
	}
	spec["taints"] = kept
}

// valueFlags are lint's and simulate's flags that take the next argument as their value.
var valueFlags = map[string]bool{"--clusters": true, "--workloads": true, "--bindings": true, "--member-state": true, "--scenario": true, "-o": true}

// withoutDenied rewrites the policy inputs of args into one file at path holding every policy object
// lint admitted (its report: allowed), in lint's order. False when there is nothing to compare: the
// report or an input cannot be read, or lint admits none.
func withoutDenied(args []string, lintOut []byte, path string) ([]string, bool) {
	var o report.Output
	if json.Unmarshal(lintOut, &o) != nil {
		return nil, false
	}
	type document struct {
		file  string
		index int
	}
	denied := map[document]bool{}
	for _, r := range o.Results {
		if !r.Allowed {
			denied[document{r.File, r.Document}] = true
		}
	}
	var flags, policies []string
	for i := 0; i < len(args); i++ {
		switch {
		case valueFlags[args[i]] && i+1 < len(args):
			flags = append(flags, args[i], args[i+1])
			i++
		case strings.HasPrefix(args[i], "-"):
			flags = append(flags, args[i])
		default:
			policies = append(policies, args[i])
		}
	}
	if !rewrite(policies, path, func(d inputs.Document) bool { return !denied[document{d.File, d.Index}] }) {
		return nil, false
	}
	return append(flags, path), true
}

// rewrite writes the objects of the inputs at paths that keep accepts (it may edit them) to path, one YAML
// document each, in lint's order. False when an input cannot be read or nothing is kept.
func rewrite(paths []string, path string, keep func(inputs.Document) bool) bool {
	files, errs := inputs.Collect(paths, nil)
	if len(errs) > 0 {
		return false
	}
	var out bytes.Buffer
	for _, f := range files {
		docs, err := inputs.Decode(f)
		if err != nil {
			return false
		}
		for _, d := range docs {
			if !keep(d) {
				continue
			}
			y, err := yaml.Marshal(d.Object.Object)
			if err != nil {
				return false
			}
			out.WriteString("---\n")
			out.Write(y)
		}
	}
	return out.Len() > 0 && os.WriteFile(path, out.Bytes(), 0o600) == nil
}
