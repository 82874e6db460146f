package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"karmada-policy-webhook/tests/conformance/internal/admission"
	"karmada-policy-webhook/tests/conformance/internal/inputs"
	"karmada-policy-webhook/tests/conformance/internal/report"
	"karmada-policy-webhook/tests/conformance/internal/scheduling"
)

const policyGroup = "policy.karmada.io"

// newAdmitter builds the admission chain; batch mode replaces it with a memoising one (batch.go).
var newAdmitter = admission.New

// run state of one lint: the report, the admitted policies and the inputs that could not be read.
type linter struct {
	admitter *admission.Admitter
	opts     options
	mode     admission.Validation
	out      report.Output
	admitted []scheduling.Policy
	broken   []error
	// stored is the base side's admitted policies by storedKey (--base): the server's objects.
	stored map[string]*unstructured.Unstructured
	// server: these documents are the server's objects (--base), not new ones: a permanent-id label
	// they carry is the one the server holds (a CREATE would draw a new one: mutating.go:87-88).
	server bool
}

// storedKey is a policy's kind, namespace ("" for a cluster-scoped one) and name.
func storedKey(kind, namespace, name string) string { return kind + "/" + namespace + "/" + name }

func lint(ctx context.Context, o options, stdin io.Reader, stdout, stderr io.Writer) int {
	mode, err := admission.ParseValidation(o.validate)
	if err != nil {
		fmt.Fprintf(stderr, "lint: %v\n", err)
		return exitUsage
	}
	a, err := newAdmitter(o.crdDir)
	if err != nil {
		fmt.Fprintf(stderr, "lint: %v\n", err)
		return exitUsage
	}
	l := &linter{admitter: a, opts: o, mode: mode, out: report.Output{Results: []report.Result{}}}
	// The base side first: what the server holds makes a policy of PATH with the same kind, namespace and
	// name an UPDATE (kubectl apply patches it).
	var base []scheduling.Policy
	if len(o.base) > 0 {
		if base, err = l.basePolicies(ctx, stdin); err != nil {
			fmt.Fprintf(stderr, "lint: --base: %v\n", err)
			return exitUsage
		}
		l.stored = map[string]*unstructured.Unstructured{}
		for _, p := range base {
			l.stored[storedKey(p.Object.GetKind(), p.Object.GetNamespace(), p.Object.GetName())] = p.Object
		}
	}
	files, errs := inputs.Collect(o.paths, stdin)
	l.broken = append(l.broken, errs...)
	for _, f := range files {
		if err := l.file(ctx, f); err != nil {
			l.broken = append(l.broken, err)
		}
	}
	if len(o.clusters) > 0 {
		if err := l.dryRun(ctx, stdin, base); err != nil {
			for _, e := range l.broken {
				fmt.Fprintln(stderr, e)
			}
			fmt.Fprintf(stderr, "lint: dry run: %v\n", err)
			return exitUsage
		}
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l.out); err != nil {
		fmt.Fprintf(stderr, "lint: %v\n", err)
		return exitUsage
	}
	for _, e := range l.broken {
		fmt.Fprintln(stderr, e)
	}
	return l.exitCode()
}

func (l *linter) exitCode() int {
	if len(l.broken) > 0 {
		return exitUsage
	}
	for _, r := range l.out.Results {
		if !r.Allowed {
			return exitFindings
		}
		for _, s := range r.Scheduling {
			// A new binding karmada-scheduler never wrote (no condition, no clusters) was not queued: its
			// schedulerName is another scheduler's. lint reports it, and does not count it unschedulable.
			ignored := s.Acted == nil && s.Condition == nil && len(s.Clusters) == 0
			if !s.Scheduled && !ignored {
				return exitFindings
			}
		}
	}
	return exitOK
}

// file admits every policy document of one file kubectl apply sends (inputs.Decode: the objects it
// visits; the first refusal is the file's error); other kinds are skipped, as lint skips them. A document
// kubectl cannot map (no apiVersion, no such kind) is reported and the next one read, as kubectl does.
func (l *linter) file(ctx context.Context, f inputs.File) error {
	docs, err := inputs.Decode(f)
	for _, d := range docs {
		if derr := l.document(ctx, d); derr != nil && err == nil {
			err = derr
		}
	}
	return err
}

func (l *linter) document(ctx context.Context, d inputs.Document) error {
	obj := d.Object
	if obj.GetAPIVersion() == "" {
		return fmt.Errorf("%s: document %d: apiVersion not set", d.File, d.Index)
	}
	group, version, _ := strings.Cut(obj.GetAPIVersion(), "/")
	if group != policyGroup || !l.admitter.Handles(obj.GetKind()) {
		return nil
	}
	if version != "v1alpha1" {
		return fmt.Errorf("%s: document %d: no matches for kind %q in version %q", d.File, d.Index, obj.GetKind(), obj.GetAPIVersion())
	}
	if l.opts.namespaceGiven && obj.GetKind() == "PropagationPolicy" {
		if err := requireNamespace(obj.GetNamespace(), l.opts.namespace); err != nil {
			return fmt.Errorf("%s: document %d: %w", d.File, d.Index, err)
		}
	}
	ns := l.admitter.RequestNamespace(obj, l.opts.namespace)
	old := l.stored[storedKey(obj.GetKind(), ns, obj.GetName())] // nil: a CREATE
	verdict, err := l.admitter.Admit(ctx, obj.DeepCopy(), l.opts.namespace, l.mode, old)
	if err != nil {
		return fmt.Errorf("%s: document %d: %w", d.File, d.Index, err)
	}
	adm := verdict.Admission
	l.out.Results = append(l.out.Results, report.Result{
		File: d.File, Document: d.Index, Kind: obj.GetKind(), Namespace: ns, Name: obj.GetName(),
		Allowed: verdict.Allowed, Errors: verdict.Errors, Scheduling: []report.Scheduling{}, Admission: &adm,
	})
	if verdict.Allowed && l.server {
		admission.CopyPermanentID(verdict.Object, obj, true)
	}
	if verdict.Allowed {
		l.admitted = append(l.admitted, scheduling.Policy{Index: len(l.out.Results) - 1, Object: verdict.Object})
	}
	return nil
}

// dryRun reads the snapshot and hands it to Karmada's detector and scheduler with the admitted policies.
func (l *linter) dryRun(ctx context.Context, stdin io.Reader, base []scheduling.Policy) error {
	in := scheduling.Input{Policies: l.admitted, FeatureGates: l.opts.featureGates}
	var err error
	if in.Clusters, err = objects(l.opts.clusters, stdin); err != nil {
		return fmt.Errorf("--clusters: %w", err)
	}
	if in.Workloads, err = objects(l.opts.workloads, stdin); err != nil {
		return fmt.Errorf("--workloads: %w", err)
	}
	if in.Bindings, err = objects(l.opts.bindings, stdin); err != nil {
		return fmt.Errorf("--bindings: %w", err)
	}
	if l.opts.memberState != "" {
		if in.MemberState, err = memberState(l.opts.memberState); err != nil {
			return fmt.Errorf("--member-state: %w", err)
		}
	}
	var entries map[int][]report.Scheduling
	if l.opts.base != nil {
		entries, l.out.Diff, err = scheduling.RunChange(ctx, in, base, l.refused())
	} else {
		entries, err = scheduling.Run(ctx, in)
	}
	if err != nil {
		return err
	}
	for i, e := range entries {
		if i < 0 || i >= len(l.out.Results) {
			return fmt.Errorf("scheduling entry for result %d of %d", i, len(l.out.Results))
		}
		l.out.Results[i].Scheduling = e
	}
	return nil
}

// refused names the policies the webhook denied (kubectl apply leaves the server's policy of that name).
func (l *linter) refused() []scheduling.PolicyName {
	var out []scheduling.PolicyName
	for _, r := range l.out.Results {
		if !r.Allowed {
			cluster := r.Kind == "ClusterPropagationPolicy"
			ns := r.Namespace
			if cluster {
				ns = ""
			}
			out = append(out, scheduling.PolicyName{Cluster: cluster, Namespace: ns, Name: r.Name})
		}
	}
	return out
}

// basePolicies admits the --base files as lint reads them (a file that cannot be read is an error; a
// denied policy is not in the base, as it never reached the server).
func (l *linter) basePolicies(ctx context.Context, stdin io.Reader) ([]scheduling.Policy, error) {
	b := &linter{admitter: l.admitter, opts: l.opts, mode: l.mode, out: report.Output{Results: []report.Result{}}, server: true}
	files, errs := inputs.Collect(l.opts.base, stdin)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	for _, f := range files {
		if err := b.file(ctx, f); err != nil {
			return nil, err
		}
	}
	return b.admitted, nil
}

// objects reads every object of the given paths (snapshot files); any unreadable input is an error.
func objects(paths []string, stdin io.Reader) ([]*unstructured.Unstructured, error) {
	files, errs := inputs.Collect(paths, stdin)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	var out []*unstructured.Unstructured
	for _, f := range files {
		docs, err := inputs.Decode(f)
		if errors.Is(err, inputs.ErrNoObjects) {
			continue // a snapshot with nothing in it (`kubectl get` found none) is no apply: lint reads it as empty
		}
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			out = append(out, d.Object)
		}
	}
	return out, nil
}

// requireNamespace is kubectl apply -n NS on a namespaced object (PropagationPolicy; not
// ClusterPropagationPolicy): cli-runtime's RequireNamespace visitor (k8s.io/cli-runtime v0.35.3
// pkg/resource/visitor.go:665-683), which the builder adds when the namespace is enforced
// (builder.go:296-298). The oracle's reader emulates cli-runtime's (package inputs) rather than linking it;
// this is that visitor's rule and text. An object without a namespace takes NS.
func requireNamespace(objectNamespace, namespace string) error {
	if objectNamespace == "" || objectNamespace == namespace {
		return nil
	}
	return fmt.Errorf("the namespace from the provided object %q does not match the namespace %q. You must pass '--namespace=%s' to perform this operation.", objectNamespace, namespace, objectNamespace)
}
