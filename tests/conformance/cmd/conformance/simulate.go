package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"karmada-policy-webhook/tests/conformance/internal/cases"
	"karmada-policy-webhook/tests/conformance/internal/generate"
	"karmada-policy-webhook/tests/conformance/internal/parallel"
	"karmada-policy-webhook/tests/conformance/internal/simcheck"
)

// runSimulate compares simulate's step 0 with lint's dry run on every case that has a cluster snapshot.
func runSimulate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lint := fs.String("lint", "build/webhook/karmada-policy-webhook", "the karmada-policy-webhook binary")
	root := fs.String("root", "", "repository root for the default case set (default: found from the working directory)")
	corpusLimit := fs.Int("corpus-limit", 0, "default set: entries taken from each fuzz corpus (0 all, -1 none)")
	workers := fs.Int("j", runtime.NumCPU(), "inputs compared at once")
	timeout := fs.Duration("timeout", time.Minute, "per run of either face")
	verbose := fs.Bool("v", false, "also show the inputs left out by design, and why")
	generated := fs.Int("generate", 0, "instead of case directories: the sub-cases of N generated snapshot cases (fuzz --kind snapshot's generator), each alone")
	seed := fs.Uint64("seed", 1, "with --generate: the generator's seed")
	out := fs.String("out", "build-oracle/simulate-divergent", "with --generate: where differing generated cases are kept")
	dirs, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	var list []cases.Case
	if *generated > 0 {
		work, err := os.MkdirTemp("", "conformance-simulate-")
		if err != nil {
			fmt.Fprintln(stderr, "conformance:", err)
			return 2
		}
		defer os.RemoveAll(work)
		list, err = generatedCases(work, *seed, *generated)
	} else {
		list, _, err = caseList(dirs, *root, *corpusLimit)
	}
	if err != nil {
		fmt.Fprintln(stderr, "conformance:", err)
		return 2
	}
	var withSnapshot []cases.Case
	memberState := 0
	for _, c := range list {
		// simulate reads member state from its scenario (memberState:), which this check does not write
		// yet: a case with --member-state would be compared with the general estimator's drill.
		if hasFlag(c.Args, "--member-state") {
			memberState++
			continue
		}
		// simulate has no --base: a change of policies is not its input.
		if hasClusters(c.Args) && !cases.IsChange(c.Args) {
			withSnapshot = append(withSnapshot, c)
		}
	}
	if memberState > 0 {
		fmt.Fprintf(stdout, "left out: %d cases with --member-state (simulate's scenario does not carry it here yet)\n", memberState)
	}
	checker := simcheck.Checker{Binary: *lint, Timeout: *timeout}
	verdicts := parallel.Map(len(withSnapshot), *workers, func(i int) simcheck.Verdict {
		return checker.Check(ctx, withSnapshot[i].Args)
	})
	if ctx.Err() != nil {
		return 2
	}
	if *generated > 0 {
		if err := keepDiffering(*out, withSnapshot, verdicts); err != nil {
			fmt.Fprintln(stderr, "conformance:", err)
			return 2
		}
	}
	return printSimulate(stdout, withSnapshot, verdicts, *verbose)
}

// generatedCases writes the sub-cases of n generated snapshot cases (packs of simulatePack) under work,
// one directory each, named as fuzz names them (SEED-pINDEX-J).
func generatedCases(work string, seed uint64, n int) ([]cases.Case, error) {
	var list []cases.Case
	for index := 0; len(list) < n; index++ {
		p := generate.GeneratePack(seed, index, min(simulatePack, n-len(list)))
		for j, sub := range p.Subs {
			dir := filepath.Join(work, p.Name(j))
			if err := sub.Write(dir); err != nil {
				return nil, err
			}
			c, err := cases.FromDir(dir)
			if err != nil {
				return nil, err
			}
			c.Name = p.Name(j)
			list = append(list, c)
		}
	}
	return list, nil
}

// simulatePack is the sub-cases drawn per generated pack (its clusters are shared).
const simulatePack = 40

// keepDiffering copies every differing generated case to out/NAME.
func keepDiffering(out string, list []cases.Case, verdicts []simcheck.Verdict) error {
	for i, v := range verdicts {
		if v.Outcome != simcheck.Differ {
			continue
		}
		if err := os.CopyFS(filepath.Join(out, list[i].Name), os.DirFS(list[i].Dir)); err != nil {
			return err
		}
	}
	return nil
}

func printSimulate(w io.Writer, list []cases.Case, verdicts []simcheck.Verdict, verbose bool) int {
	counts := map[simcheck.Outcome]int{}
	why := map[string]int{}
	for i, v := range verdicts {
		counts[v.Outcome]++
		switch v.Outcome {
		case simcheck.Differ:
			fmt.Fprintf(w, "DIFFER %s\n", list[i].Name)
			if v.Why != "" {
				fmt.Fprintf(w, "  %s\n", v.Why)
			}
			for _, d := range v.Differences {
				fmt.Fprintf(w, "  %s\n", d)
			}
		case simcheck.CouldNotRun:
			fmt.Fprintf(w, "COULD NOT RUN %s: %s\n", list[i].Name, v.Why)
		case simcheck.Skipped:
			why[v.Why]++
			if verbose {
				fmt.Fprintf(w, "by design %s: %s\n", list[i].Name, v.Why)
			}
		}
	}
	reasons := make([]string, 0, len(why))
	for r, n := range why {
		reasons = append(reasons, fmt.Sprintf("%s: %d", r, n))
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		fmt.Fprintf(w, "left out by design: %s\n", r)
	}
	fmt.Fprintf(w, "simulate: %d inputs, %d agree, %d differ, %d left out by design, %d could not run\n",
		len(list), counts[simcheck.Agree], counts[simcheck.Differ], counts[simcheck.Skipped], counts[simcheck.CouldNotRun])
	if counts[simcheck.Differ]+counts[simcheck.CouldNotRun] > 0 {
		return 1
	}
	return 0
}

func hasClusters(args []string) bool {
	return hasFlag(args, "--clusters")
}

// hasFlag: args give the flag a value (`--flag V` or `--flag=V`).
func hasFlag(args []string, flag string) bool {
	for _, a := range args {
		if a == flag || strings.HasPrefix(a, flag+"=") && a != flag+"=" {
			return true
		}
	}
	return false
}
