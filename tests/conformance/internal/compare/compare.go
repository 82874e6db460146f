package compare

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Status is the verdict on one case.
type Status int

const (
	Agree       Status = iota // same answer, or differences all intentional
	Differ                    // at least one difference no rule explains
	CouldNotRun               // the oracle did not answer: never counted as agreement
	KnownDiffer               // differs, and is listed in the ledger of open divergences (Known)
)

func (s Status) String() string {
	return [...]string{"agree", "differ", "could not run"}[s]
}

// Diff is one differing key: where (file, document, path of the key) and both values.
type Diff struct {
	File     string // "" for the case as a whole (exit code, output)
	Document int
	Path     string
	Lint     string
	Karmada  string
	Rule     string // the intentional difference that explains it; "" when none does
}

func (d Diff) String() string {
	where := "(case)"
	if d.File != "" {
		where = fmt.Sprintf("%s#%d", d.File, d.Document)
	}
	return fmt.Sprintf("%s %s: lint %s, Karmada %s", where, d.Path, d.Lint, d.Karmada)
}

// Verdict is the outcome of comparing one case.
type Verdict struct {
	Status Status
	// Why the oracle could not run; "both refuse" when both exited 2; "both: Karmada's code panics (...)"
	// when Karmada's code crashed with the runtime error lint predicted.
	Reason string
	// BothRefuse: both binaries refused an input (exit 2); the verdict then compares the refused file and
	// the answers for everything else they read.
	BothRefuse bool
	Diffs      []Diff // unexplained differences
	Explained  []Diff // differences an intentional rule explains
	OracleRuns int
}

// Comparer runs both binaries on a case and judges their answers.
type Comparer struct {
	Lint, Oracle Binary
	// OracleRuns is how often the oracle runs on a case whose lint answer has FitError alternatives
	// (their texts depend on Go's map order); other cases run it once.
	OracleRuns int
	// TieRuns bounds the runs on a case whose lint answer has a tie (Karmada's random tie-break) that
	// the oracle has not produced yet. A two-way tie missed 5 times in a row happens once in 16 cases,
	// which made a committed tie case fail CI now and then; 30 misses happen once in 10^9.
	TieRuns int
	Rules   []Rule
}

// Compare runs lint once and the oracle once or more, and judges. Where lint's answer has FitError
// alternatives the oracle runs OracleRuns times, to see Karmada's texts (each must be one of lint's).
// Where it has a tie the oracle runs until it has produced lint's outcome, at most TieRuns times:
// later runs could only add outcomes lint does not claim.
func (c *Comparer) Compare(ctx context.Context, args []string) Verdict {
	lint := c.Lint.Run(ctx, args)
	oracle := []Run{c.Oracle.Run(ctx, args)}
	for c.anotherRun(lint, oracle) && ctx.Err() == nil {
		oracle = append(oracle, c.Oracle.Run(ctx, args))
	}
	return Judge(lint, oracle, c.Rules)
}

// anotherRun: the oracle's runs so far cannot settle lint's answer yet. Karmada's FitError text has
// been drawn fewer than OracleRuns times, or lint's tie outcome has not come up in fewer than TieRuns.
func (c *Comparer) anotherRun(lint Run, oracle []Run) bool {
	if oracle[len(oracle)-1].Failed != "" {
		return false
	}
	ties, alternatives := randomness(lint)
	if alternatives && len(oracle) < c.OracleRuns {
		return true
	}
	return ties && len(oracle) < max(c.TieRuns, c.OracleRuns) && unmatchedTie(Judge(lint, oracle, c.Rules))
}

// randomness: lint's answer holds an outcome Karmada draws at random (a tie) or a FitError whose text
// depends on Go's map order (alternatives).
func randomness(lint Run) (ties, alternatives bool) {
	if lint.Failed != "" || lint.Exit == 2 {
		return false, false
	}
	out, err := ParseOutput(lint.Stdout)
	if err != nil {
		return false, false
	}
	for _, r := range out.Results {
		for _, s := range r.Scheduling {
			ties = ties || s.Tie
			alternatives = alternatives || len(s.DiagnosisAlternatives) > 0
		}
	}
	return ties, alternatives
}

// unmatchedTie: a tie entry whose lint outcome no oracle run has produced yet.
func unmatchedTie(v Verdict) bool {
	for _, d := range v.Diffs {
		if strings.HasSuffix(d.Path, "].tie") {
			return true
		}
	}
	return false
}

// Judge compares lint's run with the oracle's runs (at least one).
func Judge(lint Run, oracle []Run, rules []Rule) Verdict {
	v := Verdict{OracleRuns: len(oracle)}
	for _, o := range oracle {
		if o.Failed != "" && predictsPanic(lint, o.Failed) {
			v.Reason = "both: Karmada's code panics (" + runtimePanic(o.Failed) + ")"
			return v
		}
		if o.Failed != "" {
			return couldNotRun(v, "oracle "+o.Failed)
		}
	}
	k := oracle[0]
	if strings.HasPrefix(lint.Failed, "cannot run ") {
		return couldNotRun(v, "lint "+lint.Failed)
	}
	if lint.Failed != "" {
		v.Status = Differ
		v.Diffs = []Diff{{Path: "exit", Lint: lint.Failed, Karmada: exitText(k)}}
		return v
	}
	switch {
	case lint.Exit == 2 && k.Exit == 2:
		return judgeRefusals(v, lint, oracle, rules)
	case k.Exit == 2 && !RefusedInput(k.Stderr):
		return couldNotRun(v, fmt.Sprintf("oracle exit 2 where lint exits %d: %s", lint.Exit, FirstLine(k.Stderr)))
	case k.Exit == 2, lint.Exit == 2:
		return finish(v, []Diff{{Path: "exit", Lint: exitText(lint), Karmada: exitText(k)}}, nil, nil, rules)
	}
	kOut := make([]*Output, len(oracle))
	for i, o := range oracle {
		out, err := ParseOutput(o.Stdout)
		if err != nil {
			return couldNotRun(v, "oracle output: "+err.Error())
		}
		kOut[i] = out
	}
	lOut, err := ParseOutput(lint.Stdout)
	if err != nil {
		return finish(v, []Diff{{Path: "output", Lint: err.Error(), Karmada: "valid JSON"}}, nil, nil, rules)
	}
	diffs := diffOutputs(lOut, kOut)
	if lint.Exit != k.Exit {
		diffs = append(diffs, Diff{Path: "exit", Lint: strconv.Itoa(lint.Exit), Karmada: strconv.Itoa(k.Exit)})
	}
	return finish(v, diffs, lOut, kOut[0], rules)
}

// kubectlRefusals are the texts of kubectl's resource builder (k8s.io/cli-runtime) refusing a file:
// the oracle read it as kubectl does, so lint accepting it is a difference, not an oracle failure.
var kubectlRefusals = []string{"error parsing ", "unable to decode ", "no objects passed to apply",
	"does not match the namespace"}

// RefusedInput reports whether an exit 2 of the oracle is kubectl's reader refusing an input file
// (rather than the oracle failing: a usage error, a snapshot it cannot load, ...).
func RefusedInput(stderr []byte) bool {
	line := FirstLine(stderr)
	for _, r := range kubectlRefusals {
		if strings.Contains(line, r) {
			return true
		}
	}
	return false
}

func couldNotRun(v Verdict, why string) Verdict {
	v.Status, v.Reason = CouldNotRun, why
	return v
}

func exitText(r Run) string {
	if r.Failed != "" {
		return r.Failed
	}
	if r.Exit == 2 {
		return "exit 2 (" + FirstLine(r.Stderr) + ")"
	}
	return "exit " + strconv.Itoa(r.Exit)
}

// finish sorts the differences into explained and unexplained and sets the status.
func finish(v Verdict, diffs []Diff, l, k *Output, rules []Rule) Verdict {
	ctx := ruleContext{lint: l, karmada: k}
	for _, d := range diffs {
		if d.Path != "exit" {
			if r := explain(rules, d, ctx); r != "" {
				d.Rule = r
				v.Explained = append(v.Explained, d)
				continue
			}
		}
		v.Diffs = append(v.Diffs, d)
	}
	// An exit code that differs only because of explained differences follows from them.
	if len(v.Diffs) == 1 && v.Diffs[0].Path == "exit" && len(v.Explained) > 0 && exitFollows(v.Explained) {
		d := v.Diffs[0]
		d.Rule = "exit-follows"
		v.Explained, v.Diffs = append(v.Explained, d), nil
	}
	if len(v.Diffs) > 0 {
		v.Status = Differ
	}
	return v
}

// exitFollows: an explained difference changes a verdict (allowed or scheduled), so the exit codes
// may differ.
func exitFollows(explained []Diff) bool {
	for _, d := range explained {
		if d.Path == "allowed" || strings.HasSuffix(d.Path, ".scheduled") {
			return true
		}
	}
	return false
}

// diffOutputs compares the results of lint with those of the oracle's first run; the later runs are
// consulted for the scheduling entries (ties and FitError texts).
func diffOutputs(l *Output, k []*Output) []Diff {
	index := make([]map[string]*Result, len(k))
	for i, o := range k {
		index[i] = map[string]*Result{}
		for j, key := range resultKeys(o) {
			index[i][key] = &o.Results[j]
		}
	}
	var diffs []Diff
	seen := map[string]bool{}
	for i, key := range resultKeys(l) {
		lr := &l.Results[i]
		seen[key] = true
		kr := index[0][key]
		if kr == nil {
			diffs = append(diffs, Diff{File: lr.File, Document: lr.Document, Path: "result",
				Lint: describe(lr), Karmada: "absent"})
			continue
		}
		variants := make([]*Result, len(k))
		for run := range k {
			variants[run] = index[run][key]
		}
		diffs = append(diffs, diffResult(lr, variants)...)
	}
	for j, key := range resultKeys(k[0]) {
		kr := &k[0].Results[j]
		if !seen[key] {
			diffs = append(diffs, Diff{File: kr.File, Document: kr.Document, Path: "result",
				Lint: "absent", Karmada: describe(kr)})
		}
	}
	return append(diffs, diffReleased(l, k[0])...)
}

func describe(r *Result) string {
	return fmt.Sprintf("%s %s/%s allowed=%t", r.Kind, r.Namespace, r.Name, r.Allowed)
}

// diffResult compares one policy document; runs[0] is the oracle's first run.
func diffResult(l *Result, runs []*Result) []Diff {
	k := runs[0]
	var diffs []Diff
	add := func(path, lv, kv string) {
		if lv != kv {
			diffs = append(diffs, Diff{File: l.File, Document: l.Document, Path: path, Lint: lv, Karmada: kv})
		}
	}
	add("kind", l.Kind, k.Kind)
	add("namespace", l.Namespace, k.Namespace)
	add("name", l.Name, k.Name)
	add("allowed", strconv.FormatBool(l.Allowed), strconv.FormatBool(k.Allowed))
	if !l.Allowed || !k.Allowed {
		add("message", strconv.Quote(LintMessage(l.Errors)), strconv.Quote(KarmadaMessage(k)))
	}
	if len(k.Errors) > 0 || k.Allowed {
		lset, kset := fieldReasons(l), fieldReasons(k)
		for _, fr := range unionKeys(lset, kset) {
			add("errors["+fr+"]", presence(lset[fr]), presence(kset[fr]))
		}
	}
	if k.Admission != nil {
		lw, kw := apiServerWarnings(l), map[string]bool{}
		for _, w := range k.Admission.Warnings {
			kw[w] = true
		}
		for _, w := range unionKeys(lw, kw) {
			add("warnings["+w+"]", presence(lw[w]), presence(kw[w]))
		}
	}
	return append(diffs, diffSchedulings(l, runs)...)
}

// apiServerWarnings are lint's warnings that stand for the API server's (kubectl prints them as
// "Warning: ..."): the unknown fields under --validate=warn. lint's own warnings (a policy shadowed, a
// group that matches nothing, ...) have no Karmada counterpart and are not compared.
func apiServerWarnings(r *Result) map[string]bool {
	set := map[string]bool{}
	for _, w := range r.Warnings {
		if w.ID == "unknown-field" {
			set[w.Message] = true
		}
	}
	return set
}

func fieldReasons(r *Result) map[string]bool {
	set := map[string]bool{}
	for _, e := range r.Errors {
		set[e.Field+" "+e.Reason] = true
	}
	return set
}

func presence(b bool) string {
	if b {
		return "present"
	}
	return "absent"
}

func unionKeys(a, b map[string]bool) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if !a[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}
