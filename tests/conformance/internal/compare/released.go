package compare

import (
	"fmt"
	"sort"
	"strings"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

// diffReleased compares the workloads a change of policies (lint --base) releases: lint's diff entries
// with after.releasedBy, and the oracle's (a given binding the base side claimed that ends with no claim).
// Each is keyed by workload; the value is the policy whose claim came off and the clusters the binding
// keeps (karmada-scheduler ignores a binding with no claim). Other diff entries are lint's comparison
// with its own base side, which the oracle does not compute.
func diffReleased(l, k *Output) []Diff {
	lr, kr := released(l), released(k)
	keys := map[string]bool{}
	for w := range lr {
		keys[w] = true
	}
	for w := range kr {
		keys[w] = true
	}
	var diffs []Diff
	for _, w := range sortedKeys(keys) {
		lv, kv := orAbsent(lr[w]), orAbsent(kr[w])
		if lv != kv {
			diffs = append(diffs, Diff{Path: "released[" + w + "]", Lint: lv, Karmada: kv})
		}
	}
	return diffs
}

// released: workload -> "by <policy>, clusters <name>:<replicas> ..." of each released diff entry.
func released(o *Output) map[string]string {
	out := map[string]string{}
	for _, e := range o.Diff {
		if e.After.ReleasedBy == "" || e.After.Policy != nil {
			continue
		}
		w := fmt.Sprintf("%s %s/%s", e.Workload.Kind, e.Workload.Namespace, e.Workload.Name)
		out[w] = "by " + e.After.ReleasedBy + ", clusters " + clusterList(e.After.Clusters)
	}
	return out
}

func clusterList(cs []report.TargetCluster) string {
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s:%d", c.Name, c.Replicas))
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}

func orAbsent(s string) string {
	if s == "" {
		return "absent"
	}
	return s
}
