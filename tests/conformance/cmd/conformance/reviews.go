package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"karmada-policy-webhook/tests/conformance/internal/generate"
	"karmada-policy-webhook/tests/conformance/internal/review"
)

// reviewInput is one POST compared: a committed review case, a fuzz corpus entry (serve's fuzz target's
// inputs), or a generated review.
type reviewInput struct {
	name string
	generate.Review
}

// reviewCase is a committed case under tests/conformance/reviews: the POST and, as JSON, the review.
type reviewCase struct {
	Path        string          `json:"path"`
	ContentType string          `json:"contentType,omitempty"` // default application/json
	Review      json.RawMessage `json:"review"`
	Why         string          `json:"why,omitempty"` // what the case is about (not sent)
}

// runReviews compares serve's answers with karmada-webhook's on AdmissionReviews, per release: serve
// runs on a loopback port, the oracle's `reviews` mode runs Karmada's validating webhooks in memory.
func runReviews(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance reviews", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c common
	c.register(fs)
	root := fs.String("root", "", "repository root for the default inputs (default: found from the working directory)")
	corpusLimit := fs.Int("corpus-limit", 0, "default inputs: entries taken from serve's admission_review fuzz corpus (0 all, -1 none)")
	generated := fs.Int("generate", 0, "also N generated reviews (CREATE and UPDATE, generate.GenerateReview)")
	seed := fs.Uint64("seed", 1, "with --generate: the generator's seed")
	out := fs.String("out", "build-oracle/review-divergent", "where differing generated reviews are kept, as review cases")
	dirs, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if code := checkBinaries(&c, stderr); code != 0 {
		return code
	}
	inputs, err := reviewInputs(dirs, *root, *corpusLimit)
	if err != nil {
		fmt.Fprintln(stderr, "conformance:", err)
		return 2
	}
	for i := 0; i < *generated; i++ {
		inputs = append(inputs, reviewInput{name: fmt.Sprintf("generated %d-%d", *seed, i), Review: generate.GenerateReview(*seed, i)})
	}
	targets, err := c.targets(ctx, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "conformance:", err)
		return 2
	}
	failed := false
	for _, t := range targets {
		n, err := compareReviews(ctx, &c, t, inputs, *out, stdout)
		if err != nil {
			fmt.Fprintf(stderr, "conformance: Karmada %s: %v\n", t.release, err)
			return 2
		}
		fmt.Fprintf(stdout, "Karmada %s: %d reviews: %d agree (%d allowed, %d denied, %d objects refused as undecodable, "+
			"%d bodies that are no AdmissionReview refused by both; %d with serve's own warnings beside), "+
			"%d not JSON (intentional: serve reads JSON, controller-runtime YAML too), %d where karmada-webhook panics "+
			"and serve answers, %d DELETE or CONNECT (intentional: serve allows them), %d differing where a JSON object "+
			"repeats a member, %d differ\n",
			t.release, n.agree+n.differ+n.notJSON+n.karmadaPanics+n.deleteAllowed+n.repeatedKeys, n.agree, n.allowed, n.denied,
			n.undecodable, n.envelope, n.ownWarnings, n.notJSON, n.karmadaPanics, n.deleteAllowed, n.repeatedKeys, n.differ)
		differ := n.differ
		failed = failed || differ > 0
	}
	if failed {
		return 1
	}
	return 0
}

// reviewTotals counts one release's comparison; the agreeing answers by Karmada's verdict.
type reviewTotals struct {
	agree, differ int
	// The agreeing answers by Karmada's verdict; ownWarnings: serve added warnings of its own.
	allowed, denied, undecodable, envelope, ownWarnings int
	// Listed apart: bodies serve does not read as JSON (intentional), reviews karmada-webhook panics on and
	// serve answers, DELETE and CONNECT (intentional: serve allows them), and differing answers to a body
	// that repeats a member of a JSON object.
	notJSON, karmadaPanics, deleteAllowed, repeatedKeys int
}

// compareReviews sends every input to serve (answering as t.release) and to t's oracle.
func compareReviews(ctx context.Context, c *common, t target, inputs []reviewInput, out string, stdout io.Writer) (n reviewTotals, err error) {
	release := ""
	if len(t.lint) == 2 {
		release = t.lint[1]
	}
	serve, err := review.StartServe(ctx, c.lint, release, c.timeout)
	if err != nil {
		return n, err
	}
	defer serve.Stop()
	oracle, err := review.StartOracle(ctx, t.oracle)
	if err != nil {
		return n, err
	}
	defer oracle.Stop()
	for _, in := range inputs {
		s, err := serve.Post(ctx, in.Path, in.ContentType, in.Body)
		if err != nil {
			return n, fmt.Errorf("%s: %w", in.name, err)
		}
		k, err := oracle.Post(in.Path, in.ContentType, in.Body)
		if err != nil {
			return n, fmt.Errorf("%s: %w", in.name, err)
		}
		j := review.Judge(in.Body, s, k)
		switch j.Class {
		case review.NotJSONBody:
			n.notJSON++
			continue
		case review.DeleteOrConnect:
			n.deleteAllowed++
			continue
		case review.KarmadaPanicked:
			n.karmadaPanics++
			continue
		case review.RepeatedKeysDiffer:
			n.repeatedKeys++
			fmt.Fprintf(stdout, "REPEATED KEYS %s: differs where a JSON object repeats a member (review.RepeatedKeys)\n", in.name)
			continue
		case review.Agree:
			n.agree++
			switch {
			case j.Outcome == review.Allowed:
				n.allowed++
			case j.Outcome == review.Denied:
				n.denied++
			case j.Envelope:
				n.envelope++ // refused by both: a body that is no AdmissionReview
			default:
				n.undecodable++ // refused by both: an object that does not decode
			}
			if j.OwnWarnings {
				n.ownWarnings++
			}
			continue
		}
		n.differ++
		kept := ""
		if strings.HasPrefix(in.name, "generated ") {
			if kept, err = keepReview(out, strings.TrimPrefix(in.name, "generated "), in.Review); err != nil {
				return n, err
			}
		}
		fmt.Fprintf(stdout, "DIFFER %s (POST %s)%s\n", in.name, in.Path, kept)
		for _, d := range j.Diffs {
			fmt.Fprintf(stdout, "  %s\n    serve:   %s\n    karmada: %s\n", d.Path, d.Serve, d.Karmada)
		}
	}
	return n, nil
}

// keepReview writes a differing generated review as a review case, for `conformance reviews FILE`.
func keepReview(dir, name string, r generate.Review) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	body := json.RawMessage(r.Body)
	if !json.Valid(r.Body) {
		b, _ := json.Marshal(string(r.Body))
		body = b
	}
	b, err := json.MarshalIndent(reviewCase{Path: r.Path, ContentType: r.ContentType, Review: body}, "", "  ")
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, name+".json")
	return " kept as " + p, os.WriteFile(p, append(b, '\n'), 0o644)
}

// reviewInputs are the review cases (files, or directories of *.json) named, or by default
// tests/conformance/reviews and serve's fuzz corpus of AdmissionReviews.
func reviewInputs(paths []string, root string, corpusLimit int) ([]reviewInput, error) {
	if len(paths) == 0 {
		if root == "" {
			var err error
			if root, err = findRoot(); err != nil {
				return nil, err
			}
		}
		paths = []string{filepath.Join(root, "tests", "conformance", "reviews")}
		corpus, err := corpusReviews(filepath.Join(root, "tests", "fuzz", "corpus", "admission_review"), corpusLimit)
		if err != nil {
			return nil, err
		}
		cases, err := reviewCases(paths)
		return append(cases, corpus...), err
	}
	return reviewCases(paths)
}

func reviewCases(paths []string) ([]reviewInput, error) {
	var files []string
	for _, p := range paths {
		if isDir(p) {
			m, err := filepath.Glob(filepath.Join(p, "*.json"))
			if err != nil {
				return nil, err
			}
			sort.Strings(m)
			files = append(files, m...)
		} else {
			files = append(files, p)
		}
	}
	out := make([]reviewInput, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var rc reviewCase
		if err := json.Unmarshal(b, &rc); err != nil || rc.Path == "" || len(rc.Review) == 0 {
			return nil, fmt.Errorf("%s: not a review case ({\"path\", \"review\"}): %v", f, err)
		}
		body := []byte(rc.Review)
		var s string
		if json.Unmarshal(rc.Review, &s) == nil {
			body = []byte(s) // a body that is no JSON is kept as a string
		}
		if rc.ContentType == "" {
			rc.ContentType = "application/json"
		}
		out = append(out, reviewInput{name: f, Review: generate.Review{Path: rc.Path, ContentType: rc.ContentType, Body: body}})
	}
	return out, nil
}

// corpusReviews are the fuzz corpus's raw bodies, posted to the path of the kind their request names
// (the propagation policy path when none can be read), the first limit of them (0 all, -1 none).
func corpusReviews(dir string, limit int) ([]reviewInput, error) {
	if limit < 0 {
		return nil, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []reviewInput
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if limit > 0 && len(out) == limit {
			break
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		path := "/validate-propagationpolicy"
		var r struct {
			Request struct {
				Kind struct {
					Kind string `json:"kind"`
				} `json:"kind"`
			} `json:"request"`
		}
		if json.Unmarshal(b, &r) == nil && r.Request.Kind.Kind == "ClusterPropagationPolicy" {
			path = "/validate-clusterpropagationpolicy"
		}
		out = append(out, reviewInput{name: filepath.Join(dir, e.Name()), Review: generate.Review{Path: path, ContentType: "application/json", Body: b}})
	}
	return out, nil
}
