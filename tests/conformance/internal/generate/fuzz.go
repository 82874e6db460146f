package generate

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"karmada-policy-webhook/tests/conformance/internal/cases"
	"karmada-policy-webhook/tests/conformance/internal/compare"
)

// Fuzzer generates cases, compares each, and keeps the divergent ones (shrunk) under Out.
type Fuzzer struct {
	Comparer *compare.Comparer
	Seed     uint64
	Out      string // kept cases: Out/<seed>-<index>/, replayed by `conformance run Out/<seed>-<index>`
	Work     string // scratch directory; "" makes a temporary one
	Parallel int
	// MinimiseBudget is how many comparisons shrinking one divergent case may spend.
	MinimiseBudget int
	// From is the index of the first case: `fuzz --from 66 1 1` regenerates case 1-66 alone.
	From      int
	ExtraArgs []string // given before every case's arguments (compare.ComparedFlags)
	Log       io.Writer
	// Deadline, when set, stops RunPacks from starting packs after it; Progress > 0 logs a line every
	// Progress packs.
	Deadline time.Time
	Progress int
	// KeepPerSignature > 0 keeps (shrinks and writes) only the first that many divergent cases of each
	// Signature; the others are counted in Signatures only.
	KeepPerSignature int
	Signatures       Signatures
}

// Run compares cases 0..n-1 of the seed and returns the tally.
func (f *Fuzzer) Run(ctx context.Context, n int) (compare.Totals, error) {
	work := f.Work
	if work == "" {
		tmp, err := os.MkdirTemp("", "conformance-fuzz-")
		if err != nil {
			return compare.Totals{}, fmt.Errorf("fuzz: %w", err)
		}
		defer os.RemoveAll(tmp)
		work = tmp
	}
	verdicts := make([]compare.Verdict, n)
	errs := make([]error, n)
	next := make(chan int)
	var mu sync.Mutex // serialises the log
	var wg sync.WaitGroup
	for w := 0; w < max(f.Parallel, 1); w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			dir := filepath.Join(work, fmt.Sprintf("worker-%d", w))
			for i := range next {
				verdicts[i], errs[i] = f.one(ctx, f.From+i, dir, &mu)
			}
		}(w)
	}
	sent := 0
	for ; sent < n && ctx.Err() == nil && (f.Deadline.IsZero() || time.Now().Before(f.Deadline)); sent++ {
		next <- sent
	}
	close(next)
	wg.Wait()
	if ctx.Err() != nil {
		return compare.Totals{}, ctx.Err()
	}
	for _, err := range errs {
		if err != nil {
			return compare.Totals{}, err
		}
	}
	return compare.Count(verdicts[:sent]), nil
}

// one generates, compares and (when divergent) shrinks and keeps case i.
func (f *Fuzzer) one(ctx context.Context, i int, dir string, mu *sync.Mutex) (compare.Verdict, error) {
	c := Generate(f.Seed, i)
	v, err := f.compare(ctx, c, dir)
	if err != nil || v.Status == compare.Agree {
		return v, err
	}
	name := fmt.Sprintf("%d-%d", f.Seed, i)
	if !f.worthKeeping(v, name) {
		return v, nil
	}
	return v, f.keep(ctx, name, c, v, dir, mu)
}

// worthKeeping counts a divergent case under its signature and says whether it is among the first
// KeepPerSignature of it (always, when that is 0).
func (f *Fuzzer) worthKeeping(v compare.Verdict, name string) bool {
	seen := f.Signatures.Add(Signature(v), name)
	return f.KeepPerSignature <= 0 || seen < f.KeepPerSignature
}

// keep shrinks the divergent case c (verdict v), writes it to Out/name and reports it as replayed there.
func (f *Fuzzer) keep(ctx context.Context, name string, c *Case, v compare.Verdict, dir string, mu *sync.Mutex) error {
	steps := Minimise(c, f.MinimiseBudget, func(c *Case) bool {
		w, err := f.compare(ctx, c, dir)
		return err == nil && sameDivergence(v, w)
	})
	keep := filepath.Join(f.Out, name)
	if err := os.RemoveAll(keep); err != nil {
		return fmt.Errorf("fuzz: %w", err)
	}
	if err := c.Write(keep); err != nil {
		return err
	}
	// Compared again where it is kept, so the report names the kept files and shows that it replays.
	replay, err := f.compareDir(ctx, keep)
	if err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	fmt.Fprintf(f.Log, "kept %s (shrunk in %d comparisons)\n", keep, steps)
	if replay.Status == compare.Agree {
		fmt.Fprintf(f.Log, "  %s agrees when replayed: the divergence is not deterministic\n", keep)
	}
	compare.PrintVerdict(f.Log, keep, replay, false)
	return nil
}

// compare writes the case into dir (emptied first) and compares it.
func (f *Fuzzer) compare(ctx context.Context, c *Case, dir string) (compare.Verdict, error) {
	if err := os.RemoveAll(dir); err != nil {
		return compare.Verdict{}, fmt.Errorf("fuzz: %w", err)
	}
	if err := c.Write(dir); err != nil {
		return compare.Verdict{}, err
	}
	return f.compareDir(ctx, dir)
}

// compareDir compares the case directory dir.
func (f *Fuzzer) compareDir(ctx context.Context, dir string) (compare.Verdict, error) {
	cs, err := cases.FromDir(dir)
	if err != nil {
		return compare.Verdict{}, err
	}
	return f.Comparer.Compare(ctx, append(append([]string{}, f.ExtraArgs...), cs.Args...)), nil
}

// sameDivergence: the shrunk case still fails the same way: the oracle still cannot run, or one of
// the keys that differed still differs.
func sameDivergence(was, now compare.Verdict) bool {
	if was.Status != now.Status {
		return false
	}
	if was.Status == compare.CouldNotRun {
		return failure(was.Reason) == failure(now.Reason)
	}
	keys := map[string]bool{}
	for _, d := range was.Diffs {
		keys[signature(d)] = true
	}
	for _, d := range now.Diffs {
		if keys[signature(d)] {
			return true
		}
	}
	return false
}

var digits = regexp.MustCompile(`[0-9]+`)

// failure is why the oracle could not run, as far as it names the cause (a panic's text then dumps
// objects with random uids).
func failure(reason string) string {
	if len(reason) > 70 {
		reason = reason[:70]
	}
	return digits.ReplaceAllString(reason, "#")
}

// signature is what must stay while a case shrinks: the differing key, and for the exit code (which
// many causes share) both sides' texts with line and column numbers blurred.
func signature(d compare.Diff) string {
	if d.Path != "exit" {
		return d.Path
	}
	return d.Path + "\x00" + digits.ReplaceAllString(d.Lint, "#") + "\x00" + digits.ReplaceAllString(d.Karmada, "#")
}
