package compare

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

// NoClusterFit is the Scheduled condition's reason for a FitError, whose text depends on Go's map
// order of the filter plugins.
const NoClusterFit = "NoClusterFit"

// diffSchedulings compares the scheduling entries of one result, matched by workload. runs holds the
// oracle's result in each run (nil where a run lacks it).
func diffSchedulings(l *Result, runs []*Result) []Diff {
	var diffs []Diff
	lKeys := schedulingKeys(l.Scheduling)
	lIndex := map[string]*Scheduling{}
	for i := range l.Scheduling {
		s := &l.Scheduling[i]
		w := lKeys[i]
		lIndex[w] = s
		variants := make([]*Scheduling, 0, len(runs))
		for _, r := range runs {
			variants = append(variants, findScheduling(r, w))
		}
		for _, d := range diffScheduling(s, variants) {
			d.File, d.Document, d.Path = l.File, l.Document, "scheduling["+w+"]"+d.Path
			diffs = append(diffs, d)
		}
	}
	for i, w := range schedulingKeys(runs[0].Scheduling) {
		if lIndex[w] == nil {
			diffs = append(diffs, Diff{File: l.File, Document: l.Document, Path: "scheduling[" + w + "]",
				Lint: "absent", Karmada: outcome(&runs[0].Scheduling[i])})
		}
	}
	return diffs
}

// schedulingKeys names each entry by its workload; a second entry of the same kind, namespace and name (two
// policies' claims on one workload, or two API groups serving a kind of that name) is "#1" after it, the
// third "#2", in the order printed, so that none overwrites another. apiVersion is compared as a field.
func schedulingKeys(list []Scheduling) []string {
	keys := make([]string, len(list))
	seen := map[string]int{}
	for i := range list {
		w := workloadKey(list[i].Workload)
		if n := seen[w]; n > 0 {
			keys[i] = fmt.Sprintf("%s#%d", w, n)
		} else {
			keys[i] = w
		}
		seen[w]++
	}
	return keys
}

func findScheduling(r *Result, w string) *Scheduling {
	if r == nil {
		return nil
	}
	for i, k := range schedulingKeys(r.Scheduling) {
		if k == w {
			return &r.Scheduling[i]
		}
	}
	return nil
}

// diffScheduling compares lint's entry with the oracle's entry of every run. With tie: true lint's
// outcome must be one the oracle produced in some run. Otherwise every run must agree with lint: a
// Karmada outcome that varies where lint says it does not is a difference, and every FitError text
// Karmada printed must be one of lint's.
func diffScheduling(l *Scheduling, runs []*Scheduling) []Diff {
	if l.Tie {
		outcomes := map[string]bool{}
		for _, k := range runs {
			if len(diffEntry(l, k)) == 0 {
				return nil
			}
			if k != nil {
				outcomes[outcome(k)] = true
			}
		}
		diffs := diffEntry(l, runs[0])
		return append(diffs, Diff{Path: ".tie", Lint: "tie: " + outcome(l),
			Karmada: fmt.Sprintf("%d outcome(s) in %d run(s), none lint's: %s", len(outcomes), len(runs),
				strings.Join(sortedKeys(outcomes), " | "))})
	}
	var diffs []Diff
	seen := map[string]bool{}
	for _, k := range runs {
		for _, d := range diffEntry(l, k) {
			if key := d.Path + "\x00" + d.Karmada; !seen[key] {
				seen[key] = true
				diffs = append(diffs, d)
			}
		}
	}
	return diffs
}

// diffEntry compares one pair of entries; paths are relative to the entry (".scheduled", ...).
func diffEntry(l, k *Scheduling) []Diff {
	if k == nil {
		return []Diff{{Path: "", Lint: outcome(l), Karmada: "absent"}}
	}
	var diffs []Diff
	add := func(path, lv, kv string) {
		if lv != kv {
			diffs = append(diffs, Diff{Path: path, Lint: lv, Karmada: kv})
		}
	}
	add(".workload.apiVersion", l.Workload.APIVersion, k.Workload.APIVersion)
	add(".scheduled", strconv.FormatBool(l.Scheduled), strconv.FormatBool(k.Scheduled))
	add(".affinityName", strconv.Quote(l.AffinityName), strconv.Quote(k.AffinityName))
	lc, kc := clusterMap(l.Clusters), clusterMap(k.Clusters)
	for _, name := range unionClusterNames(lc, kc) {
		add(".clusters["+name+"]", clusterText(lc[name]), clusterText(kc[name]))
	}
	switch {
	case l.Condition == nil || k.Condition == nil:
		add(".condition", conditionText(l.Condition), conditionText(k.Condition))
	default:
		add(".condition.status", l.Condition.Status, k.Condition.Status)
		add(".condition.reason", l.Condition.Reason, k.Condition.Reason)
		if !sameConditionMessage(l, k) {
			add(".condition.message", strconv.Quote(l.Condition.Message), strconv.Quote(k.Condition.Message))
		}
	}
	if l.Acted != nil || k.Acted != nil {
		add(".acted", boolPtr(l.Acted), boolPtr(k.Acted))
	}
	return diffs
}

// sameConditionMessage: equal texts, or, for a FitError on both sides, Karmada's text is lint's
// diagnosis or one of its alternatives (the set of Go map orders).
func sameConditionMessage(l, k *Scheduling) bool {
	lm, km := l.Condition.Message, k.Condition.Message
	if lm == km {
		return true
	}
	if l.Condition.Reason != NoClusterFit || k.Condition.Reason != NoClusterFit {
		return false
	}
	if km == l.Diagnosis {
		return true
	}
	for _, alt := range l.DiagnosisAlternatives {
		if km == alt {
			return true
		}
	}
	return false
}

func clusterMap(cs []report.TargetCluster) map[string]*report.TargetCluster {
	m := map[string]*report.TargetCluster{}
	for i := range cs {
		m[cs[i].Name] = &cs[i]
	}
	return m
}

func unionClusterNames(a, b map[string]*report.TargetCluster) []string {
	var names []string
	for n := range a {
		names = append(names, n)
	}
	for n := range b {
		if a[n] == nil {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// clusterText renders a target cluster's replicas and components (in name order) for comparison.
func clusterText(c *report.TargetCluster) string {
	if c == nil {
		return "absent"
	}
	s := "replicas " + strconv.FormatInt(c.Replicas, 10)
	if len(c.Components) > 0 {
		comps := make([]string, 0, len(c.Components))
		for _, comp := range c.Components {
			comps = append(comps, comp.Name+"="+strconv.FormatInt(comp.Replicas, 10))
		}
		sort.Strings(comps)
		s += " components " + strings.Join(comps, ",")
	}
	return s
}

func conditionText(c *report.Condition) string {
	if c == nil {
		return "absent"
	}
	return fmt.Sprintf("%s/%s %q", c.Status, c.Reason, c.Message)
}

func boolPtr(b *bool) string {
	if b == nil {
		return "absent"
	}
	return strconv.FormatBool(*b)
}

// outcome is one entry's decision as one line, for tie reports.
func outcome(s *Scheduling) string {
	if !s.Scheduled {
		return "unschedulable " + conditionText(s.Condition)
	}
	m := clusterMap(s.Clusters)
	parts := []string{}
	for _, n := range unionClusterNames(m, nil) {
		parts = append(parts, n+" "+clusterText(m[n]))
	}
	return fmt.Sprintf("group %q: %s", s.AffinityName, strings.Join(parts, "; "))
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
