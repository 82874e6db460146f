// Command conformance compares karmada-policy-webhook lint with karmada-oracle (Karmada's own code
// behind lint's command line) on case directories, and generates cases to compare.
//
//	conformance run  [flags] [CASE_DIR...]
//	conformance fuzz [flags] N [SEED]
//	conformance simulate [flags] [CASE_DIR...]
//	conformance reviews [flags] [REVIEW_CASE...]
//	conformance releases [flags] [CASE_DIR...]
//
// Exit 0 when every difference is an intentional one, 1 on any other difference or a case the oracle
// could not run, 2 on a usage error.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"karmada-policy-webhook/tests/conformance/internal/cases"
	"karmada-policy-webhook/tests/conformance/internal/compare"
	"karmada-policy-webhook/tests/conformance/internal/generate"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: conformance run  [flags] [CASE_DIR...]   compare lint and the oracle (default: the shipped cases)
       conformance fuzz [flags] N [SEED]        generate N cases from SEED (default 1), compare, keep divergent ones
       conformance simulate [flags] [CASE_DIR...]   compare simulate's step 0 with lint's dry run
       conformance reviews [flags] [REVIEW_CASE...]   compare serve's answers with karmada-webhook's on AdmissionReviews (default: tests/conformance/reviews and serve's fuzz corpus; --generate N)
       conformance releases [flags] [CASE_DIR...]   which cases' answers change by Karmada release (each release's oracle against the default's)
flags go before or after the positional arguments; conformance run -h lists them`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	switch args[0] {
	case "run":
		return runCases(ctx, args[1:], stdout, stderr)
	case "fuzz":
		return runFuzz(ctx, args[1:], stdout, stderr)
	case "reviews":
		return runReviews(ctx, args[1:], stdout, stderr)
	case "simulate":
		return runSimulate(ctx, args[1:], stdout, stderr)
	case "releases":
		return runReleases(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprintln(stderr, usage)
	return 2
}

// common are the flags of both subcommands.
type common struct {
	lint, oracle string
	oracleRuns   int
	tieRuns      int
	timeout      time.Duration
	parallel     int
	verbose      bool
	batch        bool
	recycle      int
	release      string // --karmada-version: "" is every release lint answers for
	pool         *compare.Pool
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.lint, "lint", "build/webhook/karmada-policy-webhook", "the karmada-policy-webhook binary")
	fs.StringVar(&c.oracle, "oracle", "build-oracle/karmada-oracle", "the karmada-oracle binary: release V's is this path + \"-V\" (or the path itself when it is V's)")
	fs.StringVar(&c.release, "karmada-version", "", "Karmada releases to compare: v1.16, v1.17, v1.18 (or a full version), several separated by commas, or all (default: every release lint answers for; each case on the releases it is marked for)")
	fs.IntVar(&c.oracleRuns, "oracle-runs", 5, "oracle runs on a case whose lint answer has FitError alternatives")
	fs.IntVar(&c.tieRuns, "tie-runs", 30, "the most oracle runs on a case until it produces lint's tie outcome")
	fs.DurationVar(&c.timeout, "timeout", time.Minute, "per run of either binary")
	// The oracle mostly waits (its scheduler's informers and queues): 0.2 s of CPU in 0.9 s.
	fs.IntVar(&c.parallel, "j", 4*runtime.NumCPU(), "cases compared at once")
	fs.BoolVar(&c.verbose, "v", false, "also show every intentional difference")
	fs.BoolVar(&c.batch, "batch", true, "run the oracle as -j long-lived `karmada-oracle batch` processes (false: one process per run)")
	fs.IntVar(&c.recycle, "batch-recycle", 500, "requests one oracle batch process answers before it is replaced")
}

// comparer builds the comparer of one release; with --batch its oracle pool must be closed (close)
// before the next release's comparer is built.
func (c *common) comparer(t target) *compare.Comparer {
	oracle := compare.Binary{Path: t.oracle, Timeout: c.timeout, Flags: []string{lintFlag, t.release}}
	if c.batch {
		c.pool = compare.NewPool(t.oracle, max(c.parallel, 1))
		c.pool.Recycle = c.recycle
		oracle.Pool = c.pool
	}
	return &compare.Comparer{
		Lint:       compare.Binary{Path: c.lint, Timeout: c.timeout, Flags: t.lint},
		Oracle:     oracle,
		OracleRuns: c.oracleRuns,
		TieRuns:    c.tieRuns,
		Rules:      compare.Intentional,
	}
}

func (c *common) close() {
	if c.pool != nil {
		c.pool.Close()
		c.pool = nil
	}
}

// parseInterleaved parses flags wherever they stand among the positional arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func runCases(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c common
	c.register(fs)
	root := fs.String("root", "", "repository root for the default case set (default: found from the working directory)")
	corpusLimit := fs.Int("corpus-limit", 0, "default set: entries taken from each fuzz corpus (0 all, -1 none)")
	knownFile := fs.String("known", "", "ledger of open divergences (tests/conformance/known-divergences.txt): listed cases that differ do not fail the run, listed cases that agree do")
	dirs, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	list, skipped, err := caseList(dirs, *root, *corpusLimit)
	if c.verbose {
		for _, s := range skipped {
			fmt.Fprintf(stdout, "not a lint case: %s: %s\n", s.Source, s.Why)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "conformance:", err)
		return 2
	}
	if code := checkBinaries(&c, stderr); code != 0 {
		return code
	}
	var known compare.Known
	if *knownFile != "" {
		if known, err = compare.ReadKnown(*knownFile); err != nil {
			fmt.Fprintln(stderr, "conformance:", err)
			return 2
		}
	}
	targets, err := c.targets(ctx, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "conformance:", err)
		return 2
	}
	code := 0
	for _, t := range targets {
		header(stdout, targets, t)
		jobs := toJobs(list, t.release)
		cmp := c.comparer(t)
		verdicts := cmp.CompareAll(ctx, jobs, c.parallel)
		c.close()
		if ctx.Err() != nil {
			return 2
		}
		_, stale := known.Apply(stdout, t.release, jobs, verdicts)
		if compare.Print(stdout, jobs, verdicts, c.verbose).Failed() || stale > 0 {
			code = 1
		}
	}
	return code
}

// caseList is the cases of CASE_DIR arguments, or the default set and what it leaves out (root "" is
// found from the working directory).
func caseList(dirs []string, root string, corpusLimit int) ([]cases.Case, []cases.Skipped, error) {
	if len(dirs) > 0 {
		list, err := expandDirs(dirs)
		return list, nil, err
	}
	if root == "" {
		var err error
		if root, err = findRoot(); err != nil {
			return nil, nil, err
		}
	}
	return cases.Defaults(root, cases.Options{CorpusLimit: corpusLimit})
}

// expandDirs maps CASE_DIR arguments to cases; a directory that holds only directories (no file of its
// own), such as a fuzz --out directory or tests/conformance/cases, stands for each of them.
func expandDirs(dirs []string) ([]cases.Case, error) {
	var out []cases.Case
	for _, d := range dirs {
		sub, err := subCases(d)
		if err != nil {
			return nil, err
		}
		if sub == nil {
			c, err := cases.FromDir(d)
			if err != nil {
				return nil, err
			}
			sub = []cases.Case{c}
		}
		out = append(out, sub...)
	}
	return out, nil
}

// subCases is one case per subdirectory when dir holds only directories; nil otherwise.
func subCases(dir string) ([]cases.Case, error) {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		return nil, nil // FromDir reports it
	}
	for _, e := range entries {
		if !e.IsDir() {
			return nil, nil
		}
	}
	out := make([]cases.Case, 0, len(entries))
	for _, e := range entries {
		c, err := cases.FromDir(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// toJobs are the cases that hold for a release (cases.Case.For), as comparisons.
func toJobs(list []cases.Case, release string) []compare.Job {
	jobs := make([]compare.Job, 0, len(list))
	for _, c := range list {
		if c.For(release) {
			jobs = append(jobs, compare.Job{Name: c.Name, Args: append(append([]string{}, compare.ComparedFlags...), c.Args...)})
		}
	}
	return jobs
}

// checkBinaries: lint is there (each release's oracle is found and checked by targets).
func checkBinaries(c *common, stderr io.Writer) int {
	if _, err := os.Stat(c.lint); err != nil {
		fmt.Fprintf(stderr, "conformance: %v (build it first: ninja -C build webhook/karmada-policy-webhook)\n", err)
		return 2
	}
	return 0
}

// findRoot walks up from the working directory to the repository root (it holds manifests/examples and
// tests/conformance) and returns it relative to the working directory.
func findRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	rel := "."
	for dir := wd; ; dir = filepath.Dir(dir) {
		if isDir(filepath.Join(dir, "manifests/examples")) && isDir(filepath.Join(dir, "tests/conformance")) {
			return rel, nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("no repository root (manifests/examples, tests/conformance) above %s: use --root", wd)
		}
		rel = filepath.Join(rel, "..")
	}
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

func runFuzz(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance fuzz", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c common
	c.register(fs)
	out := fs.String("out", "build-oracle/conformance-fuzz", "where divergent cases are kept (one directory each)")
	work := fs.String("work", "", "where cases are written while compared (default: a temporary directory)")
	from := fs.Int("from", 0, "index of the first case (case SEED-I is regenerated by --from I 1 SEED)")
	minimise := fs.Int("minimise", 50, "comparisons spent shrinking each divergent case (0: keep it as generated)")
	kind := fs.String("kind", "plain", "what to generate: plain (one case per run), snapshot (packed first-time and re-schedule cases), admission (packed policy files, no snapshot), estimator (packed snapshot cases with member state: karmada-scheduler-estimator), change (packed changes of policies on a snapshot: lint --base, Karmada's reconcilers)")
	pack := fs.Int("pack", 0, "sub-cases per pack for a packed kind (0: 40 for snapshot and change, 200 for admission, 20 for estimator)")
	duration := fs.Duration("duration", 0, "stop starting cases (packs) after this long and report what was compared (0: run all N)")
	progress := fs.Int("progress", 0, "log a progress line every this many packs (0: none)")
	defaultMode := fs.Bool("lint-default-mode", false, "lint in its default mode, the seeds' overflow rule (Divided + Weighted + dynamicWeight only), instead of --allow-aggregated-overflow; what that rule denies and Karmada admits is the intentional difference seeds-overflow-rule, never the reverse")
	keepPer := fs.Int("keep-per-signature", 0, "keep (shrink and write) only the first N divergent cases of each divergence signature (0: every one)")
	signatures := fs.Int("signatures", 40, "print the N most frequent divergence signatures at the end (0: all)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) < 1 || len(pos) > 2 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	n, err := strconv.Atoi(pos[0])
	seed := uint64(1)
	if err == nil && len(pos) == 2 {
		seed, err = strconv.ParseUint(pos[1], 10, 64)
	}
	if err != nil || n < 0 {
		fmt.Fprintln(stderr, "conformance fuzz: N and SEED are non-negative integers")
		return 2
	}
	switch *kind {
	case "plain", generate.PackSnapshot, generate.PackAdmission, generate.PackEstimator, generate.PackChange:
	default:
		fmt.Fprintln(stderr, "conformance fuzz: --kind is plain, snapshot, admission, estimator or change")
		return 2
	}
	if code := checkBinaries(&c, stderr); code != 0 {
		return code
	}
	if *kind == generate.PackEstimator {
		// Without the flag lint would refuse every pack (exit 2): say so once instead.
		ok, err := takesFlag(ctx, c.lint, "--member-state")
		if err != nil || !ok {
			fmt.Fprintf(stderr, "conformance fuzz: --kind estimator: %s does not take --member-state (lint --help)%s\n", c.lint, errSuffix(err))
			return 2
		}
	}
	targets, err := c.targets(ctx, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "conformance fuzz:", err)
		return 2
	}
	extra := compare.ComparedFlags
	if *defaultMode {
		extra = nil
	}
	code := 0
	for _, t := range targets {
		header(stdout, targets, t)
		// Several releases keep their divergent cases apart: <out>/<release>/<case>.
		dir := *out
		if len(targets) > 1 {
			dir = filepath.Join(*out, t.release)
		}
		f := generate.Fuzzer{
			Comparer: c.comparer(t), Seed: seed, Out: dir, Work: *work, Parallel: c.parallel,
			MinimiseBudget: *minimise, From: *from, ExtraArgs: extra, Log: stdout, Progress: *progress,
			KeepPerSignature: *keepPer,
		}
		fc := fuzzOne(ctx, &f, &c, n, seed, fuzzKind{*kind, *pack, *duration, *signatures}, stdout, stderr)
		if fc == 2 {
			return 2
		}
		code = max(code, fc)
	}
	return code
}

// fuzzKind is what runFuzz generates per release.
type fuzzKind struct {
	kind       string
	pack       int
	duration   time.Duration
	signatures int
}

// fuzzOne runs one release's generated comparison: exit code 0, 1 (differences) or 2.
func fuzzOne(ctx context.Context, f *generate.Fuzzer, c *common, n int, seed uint64, fk fuzzKind, stdout, stderr io.Writer) int {
	defer func() {
		if f.Signatures.Len() > 0 {
			fmt.Fprintf(stdout, "divergence signatures: %d (count, first case, signature)\n", f.Signatures.Len())
			for _, line := range f.Signatures.Lines(fk.signatures) {
				fmt.Fprintln(stdout, line)
			}
		}
	}()
	defer c.close()
	start := time.Now()
	if fk.duration > 0 {
		f.Deadline = start.Add(fk.duration)
	}
	if fk.kind != "plain" {
		k := fk.pack
		if k == 0 {
			k = map[string]int{generate.PackSnapshot: 40, generate.PackAdmission: 200, generate.PackEstimator: 20, generate.PackChange: 40}[fk.kind]
		}
		tally, err := f.RunPacks(ctx, n, k, fk.kind)
		if tally != nil {
			fmt.Fprintf(stdout, "seed %d, kind %s, %d per pack, %s\n", seed, fk.kind, k, time.Since(start).Round(time.Second))
			for _, line := range tally.Lines() {
				fmt.Fprintln(stdout, line)
			}
			t := tally.Total()
			if line := t.ExplainedLine(); line != "" {
				fmt.Fprintln(stdout, line)
			}
			fmt.Fprintln(stdout, t.Summary())
			if err == nil && t.Failed() {
				return 1
			}
		}
		if err != nil {
			fmt.Fprintln(stderr, "conformance fuzz:", err)
			return 2
		}
		return 0
	}
	t, err := f.Run(ctx, n)
	if err != nil {
		fmt.Fprintln(stderr, "conformance fuzz:", err)
		return 2
	}
	fmt.Fprintf(stdout, "seed %d, %s\n", seed, time.Since(start).Round(time.Second))
	if line := t.ExplainedLine(); line != "" {
		fmt.Fprintln(stdout, line)
	}
	fmt.Fprintln(stdout, t.Summary())
	if t.Failed() {
		return 1
	}
	return 0
}

// errSuffix is ": err" or nothing.
func errSuffix(err error) string {
	if err == nil {
		return ""
	}
	return ": " + err.Error()
}
