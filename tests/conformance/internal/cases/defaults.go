package cases

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Skipped is a source of inputs the default set leaves out, and why.
type Skipped struct {
	Source string
	Why    string
}

// Options choose what the default set takes from the fuzz corpora.
type Options struct {
	// CorpusLimit caps the entries taken from each fuzz corpus (name order); 0 takes them all, a
	// negative value none.
	CorpusLimit int
}

// GateOn is the flag that turns on Karmada's multi-component scheduling (alpha, off by default).
const GateOn = "--feature-gates=MultiplePodTemplatesScheduling=true"

// Defaults is the case set `conformance run` uses when given none: the shipped examples, lint's test
// fixtures, the committed conformance cases and the fuzz corpora that are lint inputs. root is the
// repository root, as a path from the working directory the binaries run in.
func Defaults(root string, opt Options) ([]Case, []Skipped, error) {
	var out []Case
	var skipped []Skipped
	add := func(cs []Case, err error) error {
		out = append(out, cs...)
		return err
	}
	if err := add(examples(root)); err != nil {
		return nil, nil, err
	}
	if err := add(perFile(filepath.Join(root, "tests/data/lint/cases"), nil)); err != nil {
		return nil, nil, err
	}
	reach := filepath.Join(root, "tests/fuzz/policies/rules-reach.yaml")
	out = append(out, Case{Name: reach, Args: []string{reach}},
		Case{Name: reach + " (example snapshot)", Args: append(exampleSnapshot(root), reach)})
	committed, err := committedCases(filepath.Join(root, "tests/conformance/cases"))
	if err != nil {
		return nil, nil, err
	}
	out = append(out, committed...)
	fuzz, skip, err := corpora(root, opt)
	if err != nil {
		return nil, nil, err
	}
	out = append(out, fuzz...)
	skipped = append(skipped, skip...)
	skipped = append(skipped, Skipped{filepath.Join(root, "manifests/examples/drills"),
		"simulate Scenarios (karmada-policy-webhook.io/v1alpha1), not lint inputs"},
		Skipped{filepath.Join(root, "manifests/examples/admission-review.json"),
			"an AdmissionReview for serve; its policy is manifests/examples/dc-groups.yaml's shape, compared there"})
	return out, skipped, nil
}

func exampleSnapshot(root string) []string {
	ex := filepath.Join(root, "manifests/examples")
	return []string{"--clusters", filepath.Join(ex, "clusters.yaml"), "--workloads", filepath.Join(ex, "workloads.yaml")}
}

// examples maps manifests/examples to cases: the seed scenarios together and one by one on the example
// snapshot, again with day 2's bindings, the pr-edit copy, ai/ per policy with the gate off and on, and
// broken/ one file per case.
func examples(root string) ([]Case, error) {
	ex := filepath.Join(root, "manifests/examples")
	snap := exampleSnapshot(root)
	seeds, err := manifestFiles(ex)
	if err != nil {
		return nil, err
	}
	var policies []string
	for _, f := range seeds {
		switch filepath.Base(f) {
		case "clusters.yaml", "workloads.yaml", "admission-review.json":
			continue
		}
		policies = append(policies, f)
	}
	day2 := []string{"--bindings", filepath.Join(ex, "day2/bindings.yaml")}
	prEdit := filepath.Join(ex, "pr-edit")
	out := []Case{
		{Name: ex + " (seed scenarios)", Args: join(snap, policies)},
		{Name: ex + " (seed scenarios, day2 bindings)", Args: join(snap, day2, policies)},
		{Name: prEdit, Args: join(snap, []string{prEdit})},
		{Name: prEdit + " (day2 bindings)", Args: join(snap, day2, []string{prEdit})},
	}
	for _, p := range policies {
		out = append(out, Case{Name: p, Args: join(snap, []string{p})})
	}
	ai := filepath.Join(ex, "ai")
	aiPolicies, err := manifestFiles(filepath.Join(ai, "policies"))
	if err != nil {
		return nil, err
	}
	aiSnap := []string{"--clusters", filepath.Join(ai, "clusters.yaml"), "--workloads", filepath.Join(ai, "workloads")}
	for _, p := range aiPolicies {
		out = append(out, Case{Name: p + " (gate off)", Args: join(aiSnap, []string{p})},
			Case{Name: p + " (gate on)", Args: join(aiSnap, []string{GateOn, p})})
	}
	broken, err := perFile(filepath.Join(ex, "broken"), nil)
	return append(out, broken...), err
}

// perFile is one case per manifest file of dir, each with the flags given.
func perFile(dir string, flags []string) ([]Case, error) {
	files, err := manifestFiles(dir)
	if err != nil {
		return nil, err
	}
	out := make([]Case, 0, len(files))
	for _, f := range files {
		out = append(out, Case{Name: f, Args: join(flags, []string{f})})
	}
	return out, nil
}

// committedCases is every subdirectory (or manifest file) of dir as a case; a missing dir is none.
func committedCases(dir string) ([]Case, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cases: %w", err)
	}
	var out []Case
	for _, e := range entries {
		if !e.IsDir() && !IsManifest(e.Name()) {
			continue
		}
		c, err := FromDir(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// corpora maps the fuzz corpora that are lint inputs to cases (their entries have no extension: each is
// named on the command line, which lint reads whatever its name). The manifest target reads a policy
// file; schedule and reschedule read one stream of clusters, workloads, (bindings) and policies, given
// here as each of the flags and as the policy path; bindings entries are today's bindings for the
// example snapshot and the seed scenarios.
func corpora(root string, opt Options) ([]Case, []Skipped, error) {
	fuzz := filepath.Join(root, "tests/fuzz")
	var out []Case
	ex := filepath.Join(root, "manifests/examples")
	seedPolicies := []string{filepath.Join(ex, "checkout-local-idc.yaml"), filepath.Join(ex, "dc-groups.yaml"),
		filepath.Join(ex, "overflow-onprem-cloud.yaml")}
	shapes := []struct {
		target string
		args   func(f string) []string
	}{
		{"manifest", func(f string) []string { return []string{f} }},
		{"schedule", func(f string) []string { return []string{"--clusters", f, "--workloads", f, f} }},
		{"reschedule", func(f string) []string { return []string{"--clusters", f, "--workloads", f, "--bindings", f, f} }},
		{"bindings", func(f string) []string {
			return join(exampleSnapshot(root), []string{"--bindings", f}, seedPolicies)
		}},
	}
	for _, s := range shapes {
		for _, dir := range []string{filepath.Join(fuzz, "regressions", s.target), filepath.Join(fuzz, "corpus", s.target)} {
			files, err := plainFiles(dir)
			if err != nil {
				return nil, nil, err
			}
			if opt.CorpusLimit < 0 {
				files = nil
			} else if opt.CorpusLimit > 0 && len(files) > opt.CorpusLimit {
				files = files[:opt.CorpusLimit]
			}
			for _, f := range files {
				out = append(out, Case{Name: f, Args: s.args(f)})
			}
		}
	}
	skipped := []Skipped{
		{filepath.Join(fuzz, "corpus/admission_review"), "AdmissionReview envelopes, serve's input: lint reads no reviews"},
		{filepath.Join(fuzz, "corpus/http_request"), "raw HTTP/1.1 requests (framing, headers) for serve"},
		{filepath.Join(fuzz, "corpus/scenario"), "simulate Scenario drills, not lint inputs"},
	}
	return out, skipped, nil
}

// manifestFiles lists dir's *.yaml/*.yml/*.json files (not recursive), sorted.
func manifestFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cases: %w", err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && IsManifest(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// plainFiles lists every regular file of dir (recursive), sorted; a missing dir is none.
func plainFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == dir {
				return filepath.SkipDir
			}
			return err
		}
		if d.Type().IsRegular() && !strings.HasPrefix(d.Name(), ".") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cases: %w", err)
	}
	sort.Strings(out)
	return out, nil
}

func join(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
