package compare

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"karmada-policy-webhook/tests/conformance/internal/releases"
)

// Known is the ledger of open divergences: cases where lint is known to differ from Karmada and the fix
// is still to be made, each with the reason. It is not an intentional difference: a listed case still
// prints its differences, is counted apart ("N known") and must keep differing, or the ledger is stale.
type Known map[string]string

// ReadKnown reads lines "CASE  reason..." ('#' comments and blank lines skipped; two spaces or a tab
// after CASE when its name holds a space). CASE@RELEASE (e.g.
// some-case@v1.16) lists a divergence of that Karmada release only; a bare CASE holds for every release.
func ReadKnown(path string) (Known, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("known divergences: %w", err)
	}
	defer f.Close()
	k := Known{}
	s := bufio.NewScanner(f)
	for n := 1; s.Scan(); n++ {
		line := strings.TrimSpace(s.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		// Two spaces (or a tab) end the case's name when it holds a space itself ("x.yaml (gate on)").
		name, reason, ok := strings.Cut(strings.ReplaceAll(line, "\t", "  "), "  ")
		if !ok {
			name, reason, _ = strings.Cut(line, " ")
		}
		if strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("%s:%d: a known divergence needs its reason after the case", path, n)
		}
		if c, r, ok := strings.Cut(name, "@"); ok {
			pinned, err := releases.Resolve(r)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, n, err)
			}
			name = c + "@" + pinned
		}
		k[name] = strings.TrimSpace(reason)
	}
	return k, s.Err()
}

// Apply marks the listed cases that differ as known, and reports the listed cases that no longer differ
// (the fix landed: remove them from the ledger) as stale; both are printed to w. release is the Karmada
// release the verdicts were judged against ("" when only the bare entries apply).
func (k Known) Apply(w io.Writer, release string, jobs []Job, vs []Verdict) (known, stale int) {
	for i := range vs {
		reason, listed := k[jobs[i].Name+"@"+release]
		if !listed {
			reason, listed = k[jobs[i].Name]
		}
		if !listed {
			continue
		}
		if vs[i].Status == Differ {
			vs[i].Status = KnownDiffer
			known++
			fmt.Fprintf(w, "KNOWN %s: %s\n", jobs[i].Name, reason)
			continue
		}
		stale++
		fmt.Fprintf(w, "STALE %s: listed as a known divergence but no longer differs: remove it from the ledger\n",
			jobs[i].Name)
	}
	return known, stale
}
