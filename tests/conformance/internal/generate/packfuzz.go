package generate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"karmada-policy-webhook/tests/conformance/internal/compare"
)

// Case kinds, as the tallies name them.
const (
	KindPlain      = "plain"      // Generate: one case per run of each binary, YAML-level hostility included
	KindFirst      = "first-time" // a packed sub-case without bindings: every workload scheduled for the first time
	KindReschedule = "re-schedule"
	KindAdmission  = "admission"
	KindEstimator  = "estimator" // prefixes first-time / re-schedule for a sub-case with member state
	KindChange     = "change"    // a packed change of policies (lint --base), after Karmada's reconcilers ran it
)

// Tally is the verdicts per kind, and how the sub-cases were run.
type Tally struct {
	Kinds map[string]*compare.Totals
	// Packs run whole, and packs that could not be split whole (and why, per reason); Halved counts
	// the sub-cases of the latter that the halves answered (the rest were compared alone).
	Packs, Unpacked, Halved int
	UnpackedWhy             map[string]int
	OracleRuns              int // oracle runs over packs (more than one where a sub-case has a tie or alternatives)
	// PackOnly counts sub-cases that differed in their pack and agree alone (evidence of coupling).
	PackOnly int
}

func (t *Tally) add(kind string, v compare.Verdict) {
	if t.Kinds == nil {
		t.Kinds = map[string]*compare.Totals{}
	}
	k := t.Kinds[kind]
	if k == nil {
		k = &compare.Totals{}
		t.Kinds[kind] = k
	}
	k.Add(v)
}

// Total is every kind together.
func (t *Tally) Total() compare.Totals {
	var all compare.Totals
	for _, k := range t.Kinds {
		all.Merge(*k)
	}
	return all
}

// Lines are one summary line per kind, sorted.
func (t *Tally) Lines() []string {
	var out []string
	for name, k := range t.Kinds {
		out = append(out, fmt.Sprintf("%s: %s", name, strings.TrimPrefix(k.Summary(), "conformance: ")))
	}
	sort.Strings(out)
	if t.Packs > 0 || t.Unpacked > 0 {
		line := fmt.Sprintf("packs: %d run whole (%d oracle runs), %d not whole (%d of their sub-cases answered by halves, the rest alone)",
			t.Packs, t.OracleRuns, t.Unpacked, t.Halved)
		var why []string
		for w, n := range t.UnpackedWhy {
			why = append(why, fmt.Sprintf("%s: %d", w, n))
		}
		sort.Strings(why)
		if len(why) > 0 {
			line += " (" + strings.Join(why, "; ") + ")"
		}
		if t.PackOnly > 0 {
			line += fmt.Sprintf("; %d sub-cases differed packed and agree alone", t.PackOnly)
		}
		out = append(out, line)
	}
	return out
}

// Packed kinds, as fuzz --kind names them.
const (
	PackSnapshot  = "snapshot"
	PackAdmission = "admission"
	PackEstimator = "estimator"
	PackChange    = KindChange
)

// generatePack is pack number index of seed of the packed kind, with k sub-cases.
func generatePack(kind string, seed uint64, index, k int) *Pack {
	switch kind {
	case PackAdmission:
		return GenerateAdmissionPack(seed, index, k)
	case PackEstimator:
		return GenerateEstimatorPack(seed, index, k)
	case PackChange:
		return GenerateChangePack(seed, index, k)
	}
	return GeneratePack(seed, index, k)
}

// RunPacks compares n generated cases of one packed kind (PackSnapshot, PackAdmission, PackEstimator, PackChange), k
// sub-cases per pack, packs From, From+1, ...; it stops starting packs once Deadline (if set) has passed,
// and returns what it compared.
func (f *Fuzzer) RunPacks(ctx context.Context, n, k int, kind string) (*Tally, error) {
	if k < 1 || k > MaxPack {
		return nil, fmt.Errorf("fuzz: --pack %d: want 1..%d", k, MaxPack)
	}
	work := f.Work
	if work == "" {
		tmp, err := os.MkdirTemp("", "conformance-fuzz-")
		if err != nil {
			return nil, fmt.Errorf("fuzz: %w", err)
		}
		defer os.RemoveAll(tmp)
		work = tmp
	}
	packs := (n + k - 1) / k
	tally := &Tally{UnpackedWhy: map[string]int{}}
	var mu sync.Mutex // the tally and the log
	var firstErr error
	next := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	done := 0
	for w := 0; w < max(f.Parallel, 1); w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			dir := filepath.Join(work, fmt.Sprintf("worker-%d", w))
			for i := range next {
				size := min(k, n-i*k)
				p := generatePack(kind, f.Seed, f.From+i, size)
				if err := f.pack(ctx, p, dir, tally, &mu); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
				mu.Lock()
				done++
				if f.Progress > 0 && done%f.Progress == 0 {
					all := tally.Total()
					el := time.Since(start)
					fmt.Fprintf(f.Log, "progress: %d packs, %d cases, %d differ, %d could not run, %s, %.1f cases/s\n",
						done, all.Cases, all.Differ, all.CouldNotRun, el.Round(time.Second), float64(all.Cases)/el.Seconds())
				}
				mu.Unlock()
			}
		}(w)
	}
	for i := 0; i < packs && ctx.Err() == nil && (f.Deadline.IsZero() || time.Now().Before(f.Deadline)); i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	if ctx.Err() != nil {
		return tally, ctx.Err()
	}
	return tally, firstErr
}

// pack compares one pack: whole when it can, else sub-case by sub-case; divergent sub-cases are
// compared again alone, shrunk and kept.
func (f *Fuzzer) pack(ctx context.Context, p *Pack, dir string, tally *Tally, mu *sync.Mutex) error {
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("fuzz: %w", err)
	}
	layout, err := p.Write(filepath.Join(dir, "pack"))
	if err != nil {
		return err
	}
	// A pack that cannot be split is halved until its parts can (a sub-case lint refuses, exit 2, is one
	// file of a few hundred); only what no part answered is compared alone.
	judged, why := f.Comparer.ComparePackBisect(ctx, compare.Pack{
		Args: append(append([]string{}, f.ExtraArgs...), layout.Args...), SubOf: layout.SubOf, N: len(p.Subs),
		WorkloadOf: p.workloadOf,
		Subset:     func(subs []int) []string { return append(append([]string{}, f.ExtraArgs...), layout.Subset(subs)...) }})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	mu.Lock()
	if why == "" {
		tally.Packs++
		runs := 0 // oracle runs over the pack: the first over all sub-cases, later ones over those that needed them
		for _, v := range judged {
			runs = max(runs, v.OracleRuns)
		}
		tally.OracleRuns += runs
	} else {
		tally.Unpacked++
		tally.UnpackedWhy[unpackReason(why)]++
		tally.Halved += len(judged)
	}
	mu.Unlock()
	alone := filepath.Join(dir, "alone")
	for j, c := range p.Subs {
		kind := KindAdmission
		switch {
		case p.Change:
			kind = KindChange
		case p.Snapshot:
			kind = KindFirst
			if p.Rescheduled(j) {
				kind = KindReschedule
			}
			if p.Estimator {
				kind = KindEstimator + " " + kind
			}
		}
		v, ok := judged[j]
		packOnly, worth := false, false
		if ok {
			// Only the first KeepPerSignature of a signature are compared again alone and kept; the rest
			// are counted (Signatures).
			if v.Status != compare.Agree && v.Status != compare.KnownDiffer && f.worthKeeping(v, p.Name(j)) {
				worth = true
				// Confirmed alone: the kept case is the sub-case alone.
				w, err := f.compare(ctx, c, alone)
				if err != nil {
					return err
				}
				if w.Status == compare.Agree {
					packOnly = true
				}
			}
		} else {
			var err error
			if v, err = f.compare(ctx, c, alone); err != nil {
				return err
			}
			worth = v.Status != compare.Agree && v.Status != compare.KnownDiffer && f.worthKeeping(v, p.Name(j))
		}
		mu.Lock()
		tally.add(kind, v)
		if packOnly {
			tally.PackOnly++
			fmt.Fprintf(f.Log, "%s differs in its pack and agrees alone\n", p.Name(j))
			compare.PrintVerdict(f.Log, p.Name(j), v, false)
		}
		mu.Unlock()
		if !worth || packOnly {
			continue
		}
		if err := f.keep(ctx, p.Name(j), c.clone(), v, alone, mu); err != nil {
			return err
		}
	}
	return nil
}

// unpackReason is why a pack was not split, without its case-specific parts (for the tally).
func unpackReason(why string) string {
	if len(why) > 60 {
		why = why[:60]
	}
	return digits.ReplaceAllString(why, "#")
}
