// Package scheduling runs Karmada's own resource detector, resource interpreter and scheduler over the
// objects lint reads, and reports what the scheduler wrote, in lint's JSON shape.
//
// The pipeline (every decision is Karmada's code at the version tests/conformance/go.mod pins):
//
//  1. detector (detector.go): karmada-controller-manager's detector.ResourceDetector over a controller-runtime
//     fake client. Each policy goes through HandlePropagationPolicyCreationOrUpdate /
//     HandleClusterPropagationPolicyCreationOrUpdate (release of claims that no longer match, preemption),
//     then each template through EventFilter, OnAdd and Reconcile (sticky claims, LookForMatchedPolicy /
//     LookForMatchedClusterPolicy, ApplyPolicy / ApplyClusterPolicy, which build the binding with
//     BuildResourceBinding and Karmada's resource interpreter, and create or update it).
//  2. scheduler (scheduler.go): scheduler.NewScheduler + Run over Karmada's fake clientset holding the Cluster
//     objects and every binding the detector left; the result is what the scheduler patched.
//
// What is not Karmada's code, and why:
//   - the detector's work queue: the detector's Processor is replaced by a synchronous de-duplicating FIFO
//     (syncQueue) that hands each key to the detector's own Reconcile, so the dry run knows when it is done;
//     its Start is called with a context that is already done, only to initialise its private waiting list;
//   - live state a file from git lacks (newWorld): uids, the claim metadata a bound template carries, the
//     policies' permanent ids, and the kube-apiserver defaults that decide a native template's replicas
//     (apiserverDefaults: k8s.io/kubernetes is not importable);
//   - the order of events: policies are handled before templates, both in input order (live, the two
//     reconcilers race);
//   - completion: sentinel bindings queued after the real ones tell when the scheduler's single worker has
//     handled them all; whether it acted is read from the events it records.
package scheduling

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/component-base/featuregate"

	workv1alpha2 "github.com/karmada-io/karmada/pkg/apis/work/v1alpha2"
	"github.com/karmada-io/karmada/pkg/features"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

// Policy is one admitted policy document: the object after the CRD's defaults and Karmada's mutating
// handler, and the index of its entry in report.Output.Results.
type Policy struct {
	Index  int
	Object *unstructured.Unstructured
}

// Input is everything a dry run reads: admitted policies, Cluster objects, resource templates and
// existing ResourceBindings / ClusterResourceBindings.
type Input struct {
	Policies     []Policy
	Clusters     []*unstructured.Unstructured
	Workloads    []*unstructured.Unstructured
	Bindings     []*unstructured.Unstructured
	FeatureGates string // as --feature-gates: "A=true,B=false"
	// MemberState is --member-state: per cluster name, the Nodes and Pods its karmada-scheduler-estimator
	// sees. With any, karmada-scheduler runs with --enable-scheduler-estimator (estimator.go).
	MemberState map[string][]*unstructured.Unstructured
	// Namespace is where a template of a namespaced kind without metadata.namespace lands (lint's -n, as
	// kubectl apply -n); empty means "default".
	Namespace string
}

// runMu serialises dry runs: Karmada's feature gates (features.FeatureGate) are process-wide.
var runMu sync.Mutex

// Run returns, per Policy.Index, the scheduling entries of the workloads that policy claims. Entries follow
// lint's order: first the given bindings (input order), then the templates without one (input order).
// A binding whose claiming policy is not among in.Policies is not reported (lint's summary.notPredicted).
// Run is safe for concurrent use, but runs one dry run at a time. Each call takes about 0.2 s (the
// informers' 100 ms sync polls) and leaks what karmada-scheduler never releases: NewScheduler starts an
// event broadcaster nobody can shut down (4 goroutines, ~130 KiB per call), so a long batch should be
// split over processes.
//
// A binding given without its template stays as given (the detector has nothing to reconcile), so the
// scheduler sees its old placement and replicas; lint applies the policy to it anyway.
func Run(ctx context.Context, in Input) (map[int][]report.Scheduling, error) {
	runMu.Lock()
	defer runMu.Unlock()
	if err := setFeatureGates(in.FeatureGates); err != nil {
		return nil, err
	}
	w, err := newWorld(in)
	if err != nil {
		return nil, err
	}
	bindings, replicas, err := detect(ctx, w)
	if err != nil {
		return nil, err
	}
	outcomes, err := runScheduler(ctx, w, bindings)
	if err != nil {
		return nil, err
	}
	return w.entries(bindings, outcomes, replicas), nil
}

// detect runs the detector phase; a panic in Karmada's detector code (it runs on this goroutine) is an
// error of this dry run, not of the process.
func detect(ctx context.Context, w *world) (bindings []binding, replicas map[string]int64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("karmada's resource detector panicked: %v", r)
		}
	}()
	return runDetector(ctx, w)
}

// setFeatureGates sets Karmada's gates as --feature-gates does, from their defaults. The value is checked
// first (component-base's syntax: "A=true,B=false"): an unknown name given to the gate itself would stay
// in its raw state and fail every later call.
func setFeatureGates(gates string) error {
	known := features.FeatureGate.GetAll()
	m := map[string]bool{}
	for name, spec := range features.DefaultFeatureGates {
		m[string(name)] = spec.Default
	}
	for _, s := range strings.Split(gates, ",") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		k, v, ok := strings.Cut(s, "=")
		k = strings.TrimSpace(k)
		if !ok {
			return fmt.Errorf("--feature-gates: missing bool value for %s", k)
		}
		if _, found := known[featuregate.Feature(k)]; !found {
			return fmt.Errorf("--feature-gates: unrecognized feature gate: %s", k)
		}
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("--feature-gates: invalid value of %s=%s, err: %w", k, v, err)
		}
		m[k] = b
	}
	if err := features.FeatureGate.SetFromMap(m); err != nil {
		return fmt.Errorf("--feature-gates: %w", err)
	}
	return nil
}

var _ featuregate.MutableFeatureGate = features.FeatureGate

// entries turns the scheduler's outcomes into lint's scheduling[] entries per policy index.
// replicas overrides workload.replicas per binding id (bindings with components).
func (w *world) entries(bindings []binding, outcomes map[string]outcome, replicas map[string]int64) map[int][]report.Scheduling {
	out := map[int][]report.Scheduling{}
	given := map[string]bool{}
	add := func(b binding, withActed bool) {
		o, ok := outcomes[b.id()]
		if !ok {
			return
		}
		k, _, ok := o.after.claim()
		if !ok {
			return
		}
		idx, ok := w.policyIdx[k]
		if !ok {
			return
		}
		e := entry(o)
		if r, ok := replicas[b.id()]; ok {
			e.Workload.Replicas = r
		}
		if withActed {
			acted := o.acted
			e.Acted = &acted
		}
		out[idx] = append(out[idx], e)
	}
	for _, b := range w.bindings {
		given[b.id()] = true
		add(b, true)
	}
	byResource := map[resourceKey][]binding{}
	for _, b := range bindings {
		if !given[b.id()] {
			byResource[b.resource()] = append(byResource[b.resource()], b)
		}
	}
	for _, t := range w.templates {
		k := resourceKey{t.GetAPIVersion(), t.GetKind(), t.GetNamespace(), t.GetName()}
		for _, b := range byResource[k] {
			add(b, false)
		}
		delete(byResource, k)
	}
	return out
}

// entry reads one scheduling entry off a binding the scheduler is done with.
func entry(o outcome) report.Scheduling {
	spec, status := o.after.spec(), o.after.status()
	r := spec.Resource
	e := report.Scheduling{
		Workload: report.Workload{
			APIVersion: r.APIVersion, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name,
			Replicas: int64(spec.Replicas),
		},
		AffinityName: status.SchedulerObservedAffinityName,
		Clusters:     []report.TargetCluster{},
	}
	for _, tc := range spec.Clusters {
		// Karmada v1.18's TargetCluster has no per-cluster components: report.TargetCluster.Components
		// stays empty.
		e.Clusters = append(e.Clusters, report.TargetCluster{Name: tc.Name, Replicas: int64(tc.Replicas)})
	}
	if cond := meta.FindStatusCondition(status.Conditions, workv1alpha2.Scheduled); cond != nil {
		e.Condition = &report.Condition{Status: string(cond.Status), Reason: cond.Reason, Message: cond.Message}
		e.Scheduled = cond.Status == "True"
	} else {
		e.Scheduled = len(spec.Clusters) > 0
	}
	return e
}
