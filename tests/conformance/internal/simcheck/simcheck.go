// Package simcheck compares `simulate`'s step 0 with `lint`'s dry run on one input. simulate takes
// today's bindings and unclaimed templates through the same detector pass and scheduler as lint
// (validation/scheduling), and lint is the face the oracle checks against Karmada: where the two
// faces agree, that evidence carries over to simulate's starting point.
//
// Where they may differ by design:
//   - simulate refuses to start from a policy the webhook denies (lint reports it and goes on);
//   - lint predicts only the bindings whose policy it is given, simulate shows every binding;
//   - simulate runs the controllers before its first scheduling pass: a Cluster without a Ready
//     condition, or with one that is not True, gets the cluster controller's taint. Check gives every
//     Cluster without a Ready condition a True one and the taints of its Ready status, and leaves out
//     the inputs whose step 0 still records a controller's action.
//   - simulate refuses a policy the webhook denies: Check compares both faces on the admitted ones.
package simcheck

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

// Decision is what one face says of one workload's binding.
type Decision struct {
	Scheduled bool
	Acted     bool // first-time placements count as acted
	Affinity  string
	Clusters  string // "name=replicas ..." by name
	Reason    string // the Scheduled condition's, "" without one
	Message   string
}

// Difference is one workload the faces disagree on (Lint or Simulate nil: that face has no entry).
type Difference struct {
	Workload       string
	Lint, Simulate *Decision
}

func (d Difference) String() string {
	show := func(x *Decision) string {
		if x == nil {
			return "no entry"
		}
		return fmt.Sprintf("%+v", *x)
	}
	return fmt.Sprintf("%s\n    lint:     %s\n    simulate: %s", d.Workload, show(d.Lint), show(d.Simulate))
}

func workloadKey(kind, namespace, name string) string {
	if namespace == "" {
		return kind + " " + name
	}
	return kind + " " + namespace + "/" + name
}

func clustersOf(cs []report.TargetCluster) string {
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s=%d", c.Name, c.Replicas))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// LintDecisions reads `lint -o json`: every scheduling entry of every result.
func LintDecisions(out []byte) (map[string]Decision, error) {
	var o report.Output
	if err := json.Unmarshal(out, &o); err != nil {
		return nil, fmt.Errorf("reading lint's report: %w", err)
	}
	ds := map[string]Decision{}
	for _, r := range o.Results {
		for _, s := range r.Scheduling {
			// A first binding the scheduler never queues (lint's "ignored") is one it did not act on.
			d := Decision{Scheduled: s.Scheduled, Acted: (s.Acted == nil || *s.Acted) && s.Ignored == "", Affinity: s.AffinityName,
				Clusters: clustersOf(s.Clusters)}
			if s.Condition != nil {
				d.Reason, d.Message = s.Condition.Reason, s.Condition.Message
			}
			ds[workloadKey(s.Workload.Kind, s.Workload.Namespace, s.Workload.Name)] = d
		}
	}
	return ds, nil
}

// drill is the part of `simulate -o json` read here.
type drill struct {
	Steps []struct {
		Events    []string `json:"events"`
		Workloads []struct {
			Workload     report.Workload        `json:"workload"`
			Scheduled    bool                   `json:"scheduled"`
			Acted        bool                   `json:"acted"`
			AffinityName string                 `json:"affinityName"`
			Clusters     []report.TargetCluster `json:"clusters"`
			Condition    *report.Condition      `json:"condition"`
		} `json:"workloads"`
	} `json:"steps"`
}

// controllerMark ends a step event of the cluster controller or a ClusterTaintPolicy (simulate's
// settle.cpp), which changes the Clusters before the scheduler's first pass.
var controllerMarks = []string{"(cluster controller)", "(ClusterTaintPolicy)"}

// SimulateDecisions reads `simulate -o json`: step 0's workloads, and whether a controller acted in it.
func SimulateDecisions(out []byte) (map[string]Decision, bool, error) {
	var d drill
	if err := json.Unmarshal(out, &d); err != nil {
		return nil, false, fmt.Errorf("reading simulate's report: %w", err)
	}
	if len(d.Steps) == 0 {
		return nil, false, fmt.Errorf("simulate's report has no step")
	}
	step := d.Steps[0]
	acted := false
	for _, e := range step.Events {
		for _, m := range controllerMarks {
			acted = acted || strings.HasSuffix(e, m)
		}
	}
	ds := map[string]Decision{}
	for _, w := range step.Workloads {
		x := Decision{Scheduled: w.Scheduled, Acted: w.Acted, Affinity: w.AffinityName, Clusters: clustersOf(w.Clusters)}
		if w.Condition != nil {
			x.Reason, x.Message = w.Condition.Reason, w.Condition.Message
		}
		ds[workloadKey(w.Workload.Kind, w.Workload.Namespace, w.Workload.Name)] = x
	}
	return ds, acted, nil
}

// Compare lists the workloads lint predicts on which simulate's step 0 says something else (simulate's
// entries for bindings lint does not predict are not compared).
func Compare(lint, simulate map[string]Decision) []Difference {
	var out []Difference
	for k, l := range lint {
		l := l
		s, ok := simulate[k]
		switch {
		case !ok:
			out = append(out, Difference{Workload: k, Lint: &l})
		case s != l:
			out = append(out, Difference{Workload: k, Lint: &l, Simulate: &s})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Workload < out[j].Workload })
	return out
}
