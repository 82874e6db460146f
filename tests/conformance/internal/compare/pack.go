package compare

import (
	"context"
	"encoding/json"
	"fmt"
)

// Pack is one run of both binaries that answers N independent sub-cases: its lint arguments and, per
// policy file given, the sub-case the file belongs to. A result belongs to the sub-case of its file.
type Pack struct {
	Args  []string
	SubOf map[string]int
	N     int
	// Subset, when set, is the arguments of a run over only the given sub-cases (their policy files; the
	// snapshot stays whole): the oracle's later runs, for the sub-cases with a tie or FitError
	// alternatives, cover those only.
	Subset func(subs []int) []string
	// WorkloadOf, for a change pack (lint --base), is the sub-case of a workload (its namespace, or for a
	// cluster-scoped one its name): the diff's released entries name workloads, not files. nil: the runs
	// have no diff.
	WorkloadOf func(namespace, name string) (int, bool)
}

// ComparePack runs lint once and the oracle once on the pack (again while a sub-case's answer needs
// another run, as Compare decides: FitError alternatives, or a tie the oracle has not produced yet), and
// judges each sub-case on its own results: exactly what Compare does on that sub-case alone, given that
// the sub-cases cannot see each other. It returns ok false, with why, when the pack cannot be split:
// either binary failed or refused an input (exit 2), or the exit codes differ (a sub-case's exit code is
// derived from its results, so this guards the derivation); compare the sub-cases one by one then.
func (c *Comparer) ComparePack(ctx context.Context, p Pack) (vs []Verdict, ok bool, why string) {
	judged, why := c.comparePart(ctx, p, nil)
	if why != "" {
		return nil, false, why
	}
	vs = make([]Verdict, p.N)
	for j := range vs {
		vs[j] = judged[j]
	}
	return vs, true, ""
}

// ComparePackBisect is ComparePack that, when the whole pack cannot be split, compares each half as a
// pack of its own (p.Subset), and so on down: one sub-case a binary refuses (exit 2: a file kubectl
// would refuse) costs about 2 log2(N) runs instead of N. judged holds the verdict of every sub-case a
// part answered; the rest (each one the cause of a failed part of size one) are for the caller to
// compare alone. why is the whole pack's failure ("" when it split).
func (c *Comparer) ComparePackBisect(ctx context.Context, p Pack) (judged map[int]Verdict, why string) {
	judged, why = c.comparePart(ctx, p, nil)
	if why == "" || p.Subset == nil || p.N < 2 {
		return judged, why
	}
	judged = map[int]Verdict{}
	all := make([]int, p.N)
	for j := range all {
		all[j] = j
	}
	var bisect func(subs []int)
	bisect = func(subs []int) {
		if len(subs) < 2 || ctx.Err() != nil {
			return
		}
		for _, half := range [][]int{subs[:len(subs)/2], subs[len(subs)/2:]} {
			got, failed := c.comparePart(ctx, p, half)
			if failed != "" {
				bisect(half)
				continue
			}
			for j, v := range got {
				judged[j] = v
			}
		}
	}
	bisect(all)
	return judged, why
}

// comparePart compares the sub-cases subs of p (nil: all of them, with p.Args) in runs over those alone.
func (c *Comparer) comparePart(ctx context.Context, p Pack, subs []int) (map[int]Verdict, string) {
	args := p.Args
	if subs != nil {
		args = p.Subset(subs)
	} else {
		subs = make([]int, p.N)
		for j := range subs {
			subs[j] = j
		}
	}
	lint := c.Lint.Run(ctx, args)
	if lint.Failed != "" || lint.Exit == 2 {
		return nil, "lint: " + exitText(lint)
	}
	lSubs, err := SplitRun(lint, p.SubOf, p.WorkloadOf, p.N)
	if err != nil {
		return nil, "lint: " + err.Error()
	}
	kSubs := make([][]Run, p.N)
	// oracle runs the oracle over the sub-cases again (the first time: all of subs) and adds each one's run.
	oracle := func(again []int, first bool) string {
		k := c.Oracle.Run(ctx, p.argsFor(again, len(again) == p.N && first))
		if k.Failed != "" || k.Exit == 2 {
			return "oracle: " + exitText(k)
		}
		if first && k.Exit != lint.Exit {
			return fmt.Sprintf("exit codes: lint %d, oracle %d", lint.Exit, k.Exit)
		}
		split, err := SplitRun(k, p.SubOf, p.WorkloadOf, p.N)
		if err != nil {
			return "oracle: " + err.Error()
		}
		for _, j := range again {
			kSubs[j] = append(kSubs[j], split[j])
		}
		return ""
	}
	if why := oracle(subs, true); why != "" {
		return nil, why
	}
	for ctx.Err() == nil {
		var again []int
		for _, j := range subs {
			if c.anotherRun(lSubs[j], kSubs[j]) {
				again = append(again, j)
			}
		}
		if len(again) == 0 {
			break
		}
		if p.Subset == nil {
			again = subs
		}
		if why := oracle(again, false); why != "" {
			return nil, why
		}
	}
	judged := make(map[int]Verdict, len(subs))
	for _, j := range subs {
		judged[j] = Judge(lSubs[j], kSubs[j], c.Rules)
	}
	return judged, ""
}

// argsFor is the arguments of a run over the sub-cases subs (whole: the pack's own arguments).
func (p Pack) argsFor(subs []int, whole bool) []string {
	if whole || p.Subset == nil {
		return p.Args
	}
	return p.Subset(subs)
}

// SplitRun cuts one run over a pack into the runs its n sub-cases would have had alone: the results of
// each sub-case's files (in the pack's order), and the exit code lint's contract gives them (1 when a
// policy is denied or a workload is not scheduled, else 0). A result of a file outside subOf is an error;
// so is, with workloadOf, a diff entry of a workload of no sub-case.
func SplitRun(r Run, subOf map[string]int, workloadOf func(namespace, name string) (int, bool), n int) ([]Run, error) {
	var whole struct {
		Results []json.RawMessage `json:"results"`
		Diff    []json.RawMessage `json:"diff"`
	}
	if err := json.Unmarshal(r.Stdout, &whole); err != nil {
		return nil, fmt.Errorf("reading -o json: %w", err)
	}
	parts := make([][]json.RawMessage, n)
	exits := make([]int, n)
	for _, raw := range whole.Results {
		var peek struct {
			File       string `json:"file"`
			Allowed    bool   `json:"allowed"`
			Scheduling []struct {
				Scheduled bool `json:"scheduled"`
			} `json:"scheduling"`
		}
		if err := json.Unmarshal(raw, &peek); err != nil {
			return nil, fmt.Errorf("reading -o json: %w", err)
		}
		j, ok := subOf[peek.File]
		if !ok || j < 0 || j >= n {
			return nil, fmt.Errorf("a result of %q, not a sub-case's file", peek.File)
		}
		parts[j] = append(parts[j], raw)
		if !peek.Allowed {
			exits[j] = 1
		}
		for _, s := range peek.Scheduling {
			if !s.Scheduled {
				exits[j] = 1
			}
		}
	}
	diffs := make([][]json.RawMessage, n)
	for _, raw := range whole.Diff {
		if workloadOf == nil {
			break
		}
		var peek struct {
			Workload struct {
				Namespace string `json:"namespace"`
				Name      string `json:"name"`
			} `json:"workload"`
		}
		if err := json.Unmarshal(raw, &peek); err != nil {
			return nil, fmt.Errorf("reading -o json: %w", err)
		}
		j, ok := workloadOf(peek.Workload.Namespace, peek.Workload.Name)
		if !ok {
			return nil, fmt.Errorf("a diff entry of %q/%q, not a sub-case's", peek.Workload.Namespace, peek.Workload.Name)
		}
		diffs[j] = append(diffs[j], raw)
	}
	out := make([]Run, n)
	for j := range out {
		results := parts[j]
		if results == nil {
			results = []json.RawMessage{}
		}
		b, err := json.Marshal(struct {
			Results []json.RawMessage `json:"results"`
			Diff    []json.RawMessage `json:"diff,omitempty"`
		}{results, diffs[j]})
		if err != nil {
			return nil, err
		}
		out[j] = Run{Exit: exits[j], Stdout: b}
	}
	return out, nil
}

// Add counts one more verdict.
func (t *Totals) Add(v Verdict) {
	t.Cases++
	switch v.Status {
	case Agree:
		t.Agree++
		if v.BothRefuse {
			t.BothRefuse++
		}
	case Differ:
		t.Differ++
	case CouldNotRun:
		t.CouldNotRun++
	case KnownDiffer:
		t.Known++
	}
	if t.Explained == nil {
		t.Explained = map[string]int{}
	}
	for _, d := range v.Explained {
		t.Explained[d.Rule]++
	}
}

// Merge adds another tally.
func (t *Totals) Merge(o Totals) {
	t.Cases += o.Cases
	t.Agree += o.Agree
	t.BothRefuse += o.BothRefuse
	t.Differ += o.Differ
	t.CouldNotRun += o.CouldNotRun
	t.Known += o.Known
	if t.Explained == nil {
		t.Explained = map[string]int{}
	}
	for r, n := range o.Explained {
		t.Explained[r] += n
	}
}
