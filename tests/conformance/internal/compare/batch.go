package compare

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"karmada-policy-webhook/tests/conformance/internal/parallel"
)

// Job is one case to compare: its name in reports and its lint arguments.
type Job struct {
	Name string
	Args []string
}

// CompareAll compares every job, `workers` at a time; verdicts are in the jobs' order.
func (c *Comparer) CompareAll(ctx context.Context, jobs []Job, workers int) []Verdict {
	return parallel.Map(len(jobs), workers, func(i int) Verdict { return c.Compare(ctx, jobs[i].Args) })
}

// Totals counts verdicts.
type Totals struct {
	Cases, Agree, Differ, CouldNotRun, Known int
	BothRefuse                               int            // of Agree: both refused the same file and agree on the rest
	Explained                                map[string]int // rule -> differences it explained
}

// Count tallies verdicts.
func Count(vs []Verdict) Totals {
	t := Totals{Explained: map[string]int{}}
	for _, v := range vs {
		t.Add(v)
	}
	return t
}

// Failed: a difference no rule explains, or a case the oracle could not run.
func (t Totals) Failed() bool { return t.Differ > 0 || t.CouldNotRun > 0 }

// Summary is the closing line: "conformance: N cases, N agree[ (N of them both refuse)], N differ[, N could
// not run]".
func (t Totals) Summary() string {
	s := fmt.Sprintf("conformance: %d cases, %d agree", t.Cases, t.Agree)
	if t.BothRefuse > 0 {
		s += fmt.Sprintf(" (%d of them both refuse)", t.BothRefuse)
	}
	s += fmt.Sprintf(", %d differ", t.Differ)
	if t.CouldNotRun > 0 {
		s += fmt.Sprintf(", %d could not run", t.CouldNotRun)
	}
	if t.Known > 0 {
		s += fmt.Sprintf(" (and %d known divergences, open)", t.Known)
	}
	return s
}

// Print writes every difference field by field (case, file, document, key, lint value, Karmada value),
// each case the oracle could not run, the intentional differences met (per rule; each one with
// verbose) and the summary line.
func Print(w io.Writer, jobs []Job, vs []Verdict, verbose bool) Totals {
	for i, v := range vs {
		PrintVerdict(w, jobs[i].Name, v, verbose)
	}
	t := Count(vs)
	if line := t.ExplainedLine(); line != "" {
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w, t.Summary())
	return t
}

// ExplainedLine tallies the intentional differences met, per rule ("" when none).
func (t Totals) ExplainedLine() string {
	if len(t.Explained) == 0 {
		return ""
	}
	rules := make([]string, 0, len(t.Explained))
	for r, n := range t.Explained {
		rules = append(rules, fmt.Sprintf("%s %d", r, n))
	}
	sort.Strings(rules)
	return "intentional differences: " + strings.Join(rules, ", ")
}

// PrintVerdict writes one case's unexplained differences (or why the oracle could not run), and with
// verbose its intentional ones; nothing for a case that agrees.
func PrintVerdict(w io.Writer, name string, v Verdict, verbose bool) {
	switch v.Status {
	case Differ, KnownDiffer:
		fmt.Fprintf(w, "DIFFER %s\n", name)
		printDiffs(w, v.Diffs, "")
	case CouldNotRun:
		fmt.Fprintf(w, "COULD NOT RUN %s: %s\n", name, v.Reason)
	}
	if verbose && len(v.Explained) > 0 {
		fmt.Fprintf(w, "explained %s\n", name)
		printDiffs(w, v.Explained, "intentional")
	}
}

func printDiffs(w io.Writer, diffs []Diff, label string) {
	for _, d := range diffs {
		where := "(case)"
		if d.File != "" {
			where = fmt.Sprintf("%s document %d", d.File, d.Document)
		}
		fmt.Fprintf(w, "  %s\n    key:     %s\n    lint:    %s\n    Karmada: %s\n", where, d.Path, d.Lint, d.Karmada)
		if d.Rule != "" {
			fmt.Fprintf(w, "    %s: %s\n", label, d.Rule)
		}
	}
}
