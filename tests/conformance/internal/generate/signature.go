package generate

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"karmada-policy-webhook/tests/conformance/internal/compare"
)

var (
	errorsKey = regexp.MustCompile(`^errors\[.* (\w+)\]$`)
	indices   = regexp.MustCompile(`\[\d+\]`)
	named     = regexp.MustCompile(`(scheduling|clusters)\[[^\[\]]*\]`)
	quoted    = regexp.MustCompile(`\\?"(?:[^"\\]|\\.)*\\?"`)
)

// Signature names a divergence by its shape: per unexplained difference, the key with its indices and
// names blurred and both values with numbers and quoted texts blurred; a case the oracle could not run by
// the start of the reason. Cases with one signature are, most likely, one cause.
func Signature(v compare.Verdict) string {
	if v.Status == compare.CouldNotRun {
		return "could not run: " + failure(v.Reason)
	}
	seen := map[string]bool{}
	for _, d := range v.Diffs {
		path := named.ReplaceAllString(indices.ReplaceAllString(d.Path, "[]"), "$1[]")
		if m := errorsKey.FindStringSubmatch(path); m != nil {
			path = "errors[" + m[1] + "]" // the reason, not the field: one cause meets many fields
		}
		l, k := shape(d.Lint), shape(d.Karmada)
		if d.Path == "message" {
			l, k = cut(l, 40), cut(k, 40)
		}
		seen[fmt.Sprintf("%s (lint %s; Karmada %s)", path, l, k)] = true
	}
	parts := make([]string, 0, len(seen))
	for s := range seen {
		parts = append(parts, s)
	}
	sort.Strings(parts)
	return strings.Join(parts, " & ")
}

func shape(v string) string {
	if u, err := strconv.Unquote(v); err == nil {
		v = u // a message: its own quoted parts are blurred below
	}
	v = indices.ReplaceAllString(v, "[]")
	v = quoted.ReplaceAllString(v, `"…"`)
	v = digits.ReplaceAllString(v, "#")
	if len(v) > 80 {
		v = v[:80] + "…"
	}
	return v
}

// Signatures counts divergences per signature, and remembers the first case of each.
type Signatures struct {
	mu    sync.Mutex
	count map[string]int
	first map[string]string
}

// Add counts one divergent case; it returns how many of its signature were seen before it.
func (s *Signatures) Add(sig, name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.count == nil {
		s.count, s.first = map[string]int{}, map[string]string{}
	}
	n := s.count[sig]
	if n == 0 {
		s.first[sig] = name
	}
	s.count[sig] = n + 1
	return n
}

// Lines are "COUNT  FIRST-CASE  SIGNATURE", most frequent first, at most limit of them (0: all).
func (s *Signatures) Lines(limit int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	sigs := make([]string, 0, len(s.count))
	for sig := range s.count {
		sigs = append(sigs, sig)
	}
	sort.Slice(sigs, func(i, j int) bool {
		if s.count[sigs[i]] != s.count[sigs[j]] {
			return s.count[sigs[i]] > s.count[sigs[j]]
		}
		return sigs[i] < sigs[j]
	})
	if limit > 0 && len(sigs) > limit {
		sigs = sigs[:limit]
	}
	out := make([]string, len(sigs))
	for i, sig := range sigs {
		out[i] = fmt.Sprintf("%7d  %-16s %s", s.count[sig], s.first[sig], sig)
	}
	return out
}

// Len is the number of distinct signatures.
func (s *Signatures) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.count)
}

func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
