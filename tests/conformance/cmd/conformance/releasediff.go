package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"karmada-policy-webhook/tests/conformance/internal/compare"
	"karmada-policy-webhook/tests/conformance/internal/parallel"
	"karmada-policy-webhook/tests/conformance/internal/releases"
)

// runReleases answers which cases change by Karmada release (issue 37 §2): every case through each
// release's oracle alone, judged against the default release's oracle as if that were lint. What
// changes is what lint has to model per release; a case that does not change needs no release mark.
func runReleases(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance releases", flag.ContinueOnError)
	fs.SetOutput(stderr)
	base := fs.String("oracle", "build-oracle/karmada-oracle", "the karmada-oracle binary: release V's is this path + \"-V\"")
	which := fs.String("karmada-version", "", "the releases set against the default one (default: every other supported release)")
	timeout := fs.Duration("timeout", time.Minute, "per run of an oracle")
	workers := fs.Int("j", 4*runtime.NumCPU(), "cases run at once (and oracle batch processes per release)")
	runs := fs.Int("runs", 5, "runs of both oracles on a case whose answers differ before it counts as changed (Karmada's random tie-break and Go's map orders)")
	root := fs.String("root", "", "repository root for the default case set (default: found from the working directory)")
	corpusLimit := fs.Int("corpus-limit", 0, "default set: entries taken from each fuzz corpus (0 all, -1 none)")
	dirs, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	list, _, err := caseList(dirs, *root, *corpusLimit)
	if err != nil {
		fmt.Fprintln(stderr, "conformance releases:", err)
		return 2
	}
	others := []string{}
	if *which == "" {
		for _, r := range releases.Supported {
			if r != releases.Default {
				others = append(others, r)
			}
		}
	} else if others, err = releases.ParseList(*which); err != nil {
		fmt.Fprintln(stderr, "conformance releases: --karmada-version:", err)
		return 2
	}
	defOracle, err := oracleOf(ctx, *base, releases.Default)
	if err != nil {
		fmt.Fprintln(stderr, "conformance releases:", err)
		return 2
	}
	for _, r := range others {
		oracle, err := oracleOf(ctx, *base, r)
		if err != nil {
			fmt.Fprintln(stderr, "conformance releases:", err)
			return 2
		}
		defPool, pool := compare.NewPool(defOracle, max(*workers, 1)), compare.NewPool(oracle, max(*workers, 1))
		d := releaseDiff{
			def:   compare.Binary{Path: defOracle, Timeout: *timeout, Pool: defPool, Flags: []string{lintFlag, releases.Default}},
			other: compare.Binary{Path: oracle, Timeout: *timeout, Pool: pool, Flags: []string{lintFlag, r}},
			runs:  *runs,
		}
		jobs := toJobs(list, r)
		vs := parallel.Map(len(jobs), *workers, func(i int) compare.Verdict { return d.judge(ctx, jobs[i].Args) })
		defPool.Close()
		pool.Close()
		if ctx.Err() != nil {
			return 2
		}
		printReleaseDiff(stdout, r, jobs, vs)
	}
	return 0
}

// releaseDiff judges one release's oracle against the default release's.
type releaseDiff struct {
	def, other compare.Binary
	runs       int
}

// judge runs both oracles on a case: the same answer agrees at once; otherwise both run again (up to
// runs times) and the case agrees when any pair of runs does, since one release's answer may be one of
// several Karmada draws (a tie) or prints (map order) and the other release's another.
func (d releaseDiff) judge(ctx context.Context, args []string) compare.Verdict {
	defRuns := []compare.Run{d.def.Run(ctx, args)}
	otherRuns := []compare.Run{d.other.Run(ctx, args)}
	first := judgeReleases(defRuns[0], otherRuns[0])
	if first.Status != compare.Differ {
		return first
	}
	for len(defRuns) < d.runs && ctx.Err() == nil {
		defRuns = append(defRuns, d.def.Run(ctx, args))
		otherRuns = append(otherRuns, d.other.Run(ctx, args))
		for _, a := range defRuns {
			for _, b := range otherRuns {
				if v := judgeReleases(a, b); v.Status == compare.Agree {
					return v
				}
			}
		}
	}
	return first
}

// judgeReleases is compare.Judge with the default release's run as lint's, except where an oracle
// failed: Karmada's code panicking is an answer here (both releases crash the same way, or one does and
// the other does not), while lint's side of Judge would call any panic a failure.
func judgeReleases(def, other compare.Run) compare.Verdict {
	switch {
	case def.Failed == "" && other.Failed == "":
		return compare.Judge(def, []compare.Run{other}, compare.Intentional)
	case def.Failed == other.Failed:
		return compare.Verdict{Status: compare.Agree, Reason: "both: " + def.Failed}
	case strings.HasPrefix(def.Failed, "panicked: ") || strings.HasPrefix(other.Failed, "panicked: "):
		return compare.Verdict{Status: compare.Differ, Diffs: []compare.Diff{{Path: "exit", Lint: runText(def), Karmada: runText(other)}}}
	}
	return compare.Verdict{Status: compare.CouldNotRun, Reason: fmt.Sprintf("%s; %s", def.Failed, other.Failed)}
}

func runText(r compare.Run) string {
	if r.Failed != "" {
		return r.Failed
	}
	return fmt.Sprintf("exit %d", r.Exit)
}

// printReleaseDiff lists the cases whose answer changes on release against the default release, key by
// key, and a summary line "releases: <release> against <default>: N cases, N same, N change".
func printReleaseDiff(w io.Writer, release string, jobs []compare.Job, vs []compare.Verdict) {
	same, changed, failed := 0, 0, 0
	for i, v := range vs {
		switch v.Status {
		case compare.Differ:
			changed++
			fmt.Fprintf(w, "CHANGES %s (Karmada %s against %s)\n", jobs[i].Name, release, releases.Default)
			for _, diff := range v.Diffs {
				where := "(case)"
				if diff.File != "" {
					where = fmt.Sprintf("%s document %d", diff.File, diff.Document)
				}
				fmt.Fprintf(w, "  %s\n    key:     %s\n    %s: %s\n    %s: %s\n", where, diff.Path,
					releases.Default, diff.Lint, release, diff.Karmada)
			}
		case compare.CouldNotRun:
			failed++
			fmt.Fprintf(w, "COULD NOT RUN %s on Karmada %s: %s\n", jobs[i].Name, release, v.Reason)
		default:
			same++
		}
	}
	line := fmt.Sprintf("releases: Karmada %s against %s: %d cases, %d same, %d change", release, releases.Default, len(jobs), same, changed)
	if failed > 0 {
		line += fmt.Sprintf(", %d could not run", failed)
	}
	fmt.Fprintln(w, line)
}
