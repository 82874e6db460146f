package compare

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// script writes an executable shell script standing in for lint or the oracle.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCompareRunsTheOracleUntilItProducesLintsTieOutcome(t *testing.T) {
	a := string(out(t, schedResult(placed(false, tc("m1", 2), tc("m2", 1)))))
	b := string(out(t, schedResult(placed(false, tc("m1", 1), tc("m2", 2)))))
	tie := func(clusters string) string {
		return strings.Replace(clusters, `"tie":false`, `"tie":true`, 1)
	}
	tests := []struct {
		name     string
		lint     string
		bAt      int // the oracle's run that takes the other branch of the tie
		wantRuns int
		want     Status
	}{
		{"lint's outcome is Karmada's third run: three runs", tie(b), 3, 3, Agree},
		{"lint's outcome is Karmada's first run: one run", tie(a), 3, 1, Agree},
		{"lint's outcome comes after OracleRuns misses: the runs go on", tie(b), 9, 9, Agree},
		{"lint's outcome never produced: TieRuns runs", tie(string(out(t, schedResult(placed(false, tc("m3", 3)))))), 3, 12, Differ},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			counter := filepath.Join(dir, "runs")
			oracle := script(t, dir, "oracle", `n=$(cat `+counter+` 2>/dev/null || echo 0); n=$((n+1)); echo $n > `+counter+`
if [ $n -eq `+strconv.Itoa(tt.bAt)+` ]; then echo '`+b+`'; else echo '`+a+`'; fi
`)
			lint := script(t, dir, "lint", "echo '"+tt.lint+"'\n")
			c := Comparer{Lint: Binary{Path: lint, Timeout: 10 * time.Second}, Oracle: Binary{Path: oracle, Timeout: 10 * time.Second},
				OracleRuns: 5, TieRuns: 12}
			v := c.Compare(context.Background(), []string{"p.yaml"})
			if v.Status != tt.want || v.OracleRuns != tt.wantRuns {
				t.Errorf("status %v after %d runs, want %v after %d (diffs %v)", v.Status, v.OracleRuns, tt.want, tt.wantRuns, v.Diffs)
			}
		})
	}
}

func TestBinaryRunClassifiesHowTheProgramEnded(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name       string
		body       string
		wantExit   int
		wantFailed string // prefix
	}{
		{"exit 1 with output", "echo '{}'; exit 1\n", 1, ""},
		{"killed by a signal", "kill -SEGV $$\n", 0, "killed by signal"},
		{"a Go panic exits 2", "echo 'panic: boom' >&2; echo >&2; echo 'goroutine 1 [running]:' >&2; exit 2\n", 2, "panicked"},
		{"timeout", "exec sleep 5\n", 0, "timed out"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := Binary{Path: script(t, dir, "bin"+string(rune('a'+i)), tt.body), Timeout: 300 * time.Millisecond}
			r := b.Run(context.Background(), nil)
			if !strings.HasPrefix(r.Failed, tt.wantFailed) || (tt.wantFailed == "" && r.Failed != "") {
				t.Errorf("Failed = %q, want prefix %q", r.Failed, tt.wantFailed)
			}
			if tt.wantFailed == "" && r.Exit != tt.wantExit {
				t.Errorf("Exit = %d, want %d", r.Exit, tt.wantExit)
			}
		})
	}
}

func TestBinaryRunFeedsTheStdinFileAndHidesTheFlag(t *testing.T) {
	dir := t.TempDir()
	input := filepath.Join(dir, "policies.yaml")
	if err := os.WriteFile(input, []byte("kind: PropagationPolicy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Prints its arguments, then its standard input.
	echo := script(t, dir, "echo", `echo "$@"; cat`)
	r := Binary{Path: echo, Timeout: 10 * time.Second}.Run(context.Background(), []string{StdinFrom + input, "-"})
	if r.Failed != "" || r.Exit != 0 {
		t.Fatalf("run failed: %+v", r)
	}
	if got, want := string(r.Stdout), "lint -o json -\nkind: PropagationPolicy\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
	if r := (Binary{Path: echo, Timeout: 10 * time.Second}).Run(context.Background(),
		[]string{StdinFrom + filepath.Join(dir, "missing.yaml"), "-"}); !strings.Contains(r.Failed, "standard input") {
		t.Errorf("a missing stdin file: Failed = %q", r.Failed)
	}
}
