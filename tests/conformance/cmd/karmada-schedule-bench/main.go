// Command karmada-schedule-bench times Karmada's own scheduling algorithm over the dry-run corpus of
// tests/bench/gen_dry_run.py, as the Karmada side of tests/bench/karmada_schedule_bench.sh.
//
// Phases, each timed (wall clock, one goroutine as karmada-scheduler's single worker):
//
//  1. read: the JSON files decoded as Karmada's control plane holds them: typed Clusters and
//     PropagationPolicies, resource templates as unstructured objects, typed ResourceBindings.
//  2. bind: the ResourceBindings karmada-controller-manager's detector would build or update. Policies get
//     the defaults of Karmada's mutating PropagationPolicy webhook (resource selector namespace,
//     helper.SetDefaultSpreadConstraints, helper.SetReplicaDivisionPreferenceWeighted). First time: every
//     template is claimed by the detector's rule (LookForMatchedPolicy: util.ResourceMatchSelectorsPriority
//     over every policy of the namespace, explicit priority, then name) and a binding is built as
//     BuildResourceBinding does (placement, replicas and replica requirements from Karmada's native
//     resource interpreter). Steady re-plan (--bindings): each binding keeps the policy its claim
//     annotations name; the policy's placement and the template's replicas are written into it.
//  3. schedule: per binding, what karmada-scheduler's scheduleResourceBinding does around the algorithm:
//     core.NewGenericScheduler with the in-tree plugin registry (--plugins=*, the default) over the
//     scheduler cache (a cluster lister and a ResourceBinding indexer, as NewScheduler builds them), then
//     Schedule for spec.placement, walking spec.placement.clusterAffinities from the observed term as
//     scheduleResourceBindingWithClusterAffinities does. The scheduler's API writes (patches, events) and
//     its assumption cache are not run: every binding is scheduled against the same cluster snapshot, as
//     lint's dry run does.
//
// Each run prints a RESULT line; --write-bindings writes the scheduled bindings (as kubectl get rb -o json
// prints them) for a later steady re-plan, by this command or by lint --bindings.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/google/uuid"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	clusterv1alpha1 "github.com/karmada-io/karmada/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/karmada-io/karmada/pkg/apis/work/v1alpha2"
	clusterlister "github.com/karmada-io/karmada/pkg/generated/listers/cluster/v1alpha1"
	"github.com/karmada-io/karmada/pkg/resourceinterpreter/default/native"
	schedcache "github.com/karmada-io/karmada/pkg/scheduler/cache"
	"github.com/karmada-io/karmada/pkg/scheduler/core"
	"github.com/karmada-io/karmada/pkg/scheduler/framework"
	frameworkplugins "github.com/karmada-io/karmada/pkg/scheduler/framework/plugins"
	"github.com/karmada-io/karmada/pkg/util"
	"github.com/karmada-io/karmada/pkg/util/helper"
	"github.com/karmada-io/karmada/pkg/util/names"
)

func main() {
	var (
		clustersPath, policiesPath, workloadsPath, bindingsPath, writePath, cpuProfile string
		limit                                                                          int
	)
	fs := flag.NewFlagSet("karmada-schedule-bench", flag.ExitOnError)
	fs.StringVar(&clustersPath, "clusters", "", "List of Clusters (JSON)")
	fs.StringVar(&policiesPath, "policies", "", "List of PropagationPolicies (JSON)")
	fs.StringVar(&workloadsPath, "workloads", "", "List of resource templates (JSON)")
	fs.StringVar(&bindingsPath, "bindings", "", "List of placed ResourceBindings (JSON): a steady re-plan of them")
	fs.StringVar(&writePath, "write-bindings", "", "write the scheduled bindings here (JSON List)")
	fs.IntVar(&limit, "limit", 0, "schedule only the first N bindings (0: all)")
	fs.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile (runtime/pprof) of the whole run here")
	_ = fs.Parse(os.Args[1:])
	if clustersPath == "" || policiesPath == "" || workloadsPath == "" {
		fmt.Fprintln(os.Stderr, "usage: karmada-schedule-bench --clusters F --policies F --workloads F [--bindings F] [--write-bindings F] [--limit N]")
		os.Exit(2)
	}
	// karmada-scheduler logs at -v=0; the algorithm's per-binding lines are V(4). Errors are counted, not logged.
	klog.SetOutput(io.Discard)
	klog.LogToStderr(false)
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "karmada-schedule-bench: %v\n", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(clustersPath, policiesPath, workloadsPath, bindingsPath, writePath, limit, os.Stdout); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintf(os.Stderr, "karmada-schedule-bench: %v\n", err)
		os.Exit(1)
	}
}

func run(clustersPath, policiesPath, workloadsPath, bindingsPath, writePath string, limit int, out io.Writer) error {
	start := time.Now()
	var (
		clusters  list[clusterv1alpha1.Cluster]
		policies  list[policyv1alpha1.PropagationPolicy]
		bindings  list[workv1alpha2.ResourceBinding]
		templates []*unstructured.Unstructured
	)
	if err := readJSON(clustersPath, &clusters); err != nil {
		return err
	}
	if err := readJSON(policiesPath, &policies); err != nil {
		return err
	}
	templates, err := readTemplates(workloadsPath)
	if err != nil {
		return err
	}
	steady := bindingsPath != ""
	if steady {
		if err := readJSON(bindingsPath, &bindings); err != nil {
			return err
		}
	}
	readDone := time.Now()

	pps := make([]*policyv1alpha1.PropagationPolicy, len(policies.Items))
	for i := range policies.Items {
		pps[i] = &policies.Items[i]
		defaultPolicy(pps[i])
	}
	var rbs []*workv1alpha2.ResourceBinding
	if steady {
		rbs, err = updateBindings(bindings.Items, pps, templates)
	} else {
		rbs, err = buildBindings(pps, templates)
	}
	if err != nil {
		return err
	}
	if limit > 0 && limit < len(rbs) {
		rbs = rbs[:limit]
	}
	bindDone := time.Now()

	cpuBefore := cpuTime()
	s, err := newScheduler(clusters.Items, rbs)
	if err != nil {
		return err
	}
	var scheduled, unschedulable int
	for _, rb := range rbs {
		ok, err := s.schedule(context.TODO(), rb)
		if err != nil {
			return fmt.Errorf("%s/%s: %w", rb.Namespace, rb.Name, err)
		}
		if ok {
			scheduled++
		} else {
			unschedulable++
		}
	}
	scheduleDone := time.Now()
	scheduleCPU := cpuTime() - cpuBefore

	mode := "first"
	if steady {
		mode = "steady"
	}
	fmt.Fprintf(out, "RESULT mode=%s clusters=%d policies=%d templates=%d bindings=%d scheduled=%d unschedulable=%d "+
		"read_s=%.3f bind_s=%.3f schedule_s=%.3f schedule_cpu_s=%.3f total_s=%.3f peak_rss_kib=%d\n",
		mode, len(clusters.Items), len(pps), len(templates), len(rbs), scheduled, unschedulable,
		readDone.Sub(start).Seconds(), bindDone.Sub(readDone).Seconds(), scheduleDone.Sub(bindDone).Seconds(),
		scheduleCPU.Seconds(), scheduleDone.Sub(start).Seconds(), peakRSS())
	if writePath != "" {
		return writeBindings(writePath, rbs)
	}
	return nil
}

// list is a kind: List document.
type list[T any] struct {
	Items []T `json:"items"`
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// readTemplates decodes resource templates as the detector's informers hold them (unstructured, integers
// as int64).
func readTemplates(path string) ([]*unstructured.Unstructured, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var l list[map[string]any]
	if err := utiljson.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := make([]*unstructured.Unstructured, len(l.Items))
	for i, obj := range l.Items {
		out[i] = &unstructured.Unstructured{Object: obj}
	}
	return out, nil
}

// defaultPolicy applies what Karmada's mutating PropagationPolicy webhook changes in a policy's spec.
func defaultPolicy(p *policyv1alpha1.PropagationPolicy) {
	if p.Namespace == "" {
		p.Namespace = metav1.NamespaceDefault
	}
	for i := range p.Spec.ResourceSelectors {
		if p.Spec.ResourceSelectors[i].Namespace == "" {
			p.Spec.ResourceSelectors[i].Namespace = p.Namespace
		}
	}
	helper.SetDefaultSpreadConstraints(p.Spec.Placement.SpreadConstraints)
	helper.SetReplicaDivisionPreferenceWeighted(&p.Spec.Placement)
	if p.Labels[policyv1alpha1.PropagationPolicyPermanentIDLabel] == "" { // set on CREATE
		metav1.SetMetaDataLabel(&p.ObjectMeta, policyv1alpha1.PropagationPolicyPermanentIDLabel, uuid.New().String())
	}
	if p.Spec.SchedulerName == "" {
		p.Spec.SchedulerName = "default-scheduler" // the CRD's default
	}
}

// highestPriorityPolicy is the detector's getHighestPriorityPropagationPolicy (pkg/detector/compare.go):
// the matching policy with the highest explicit priority, then the highest implicit (selector) priority,
// then the smallest name.
func highestPriorityPolicy(policies []*policyv1alpha1.PropagationPolicy, resource *unstructured.Unstructured) *policyv1alpha1.PropagationPolicy {
	var (
		matched           *policyv1alpha1.PropagationPolicy
		matchedImplicit   = util.PriorityMisMatch
		matchedExplicit   = int32(-1 << 31)
		resourceNamespace = resource.GetNamespace()
	)
	for _, p := range policies {
		if p.Namespace != resourceNamespace || !p.DeletionTimestamp.IsZero() {
			continue // LookForMatchedPolicy lists the namespace's policies and skips deleting ones
		}
		implicit := util.ResourceMatchSelectorsPriority(resource, p.Spec.ResourceSelectors...)
		if implicit <= util.PriorityMisMatch {
			continue
		}
		explicit := p.ExplicitPriority()
		switch {
		case matchedExplicit < explicit:
			matched, matchedImplicit, matchedExplicit = p, implicit, explicit
		case matchedExplicit == explicit && implicit > matchedImplicit:
			matched, matchedImplicit = p, implicit
		case matchedExplicit == explicit && implicit == matchedImplicit && p.Name < matched.Name:
			matched = p
		}
	}
	return matched
}

var interpreter = native.NewDefaultInterpreter()

// applyTemplate writes what the detector takes from the template and the policy into a binding spec.
func applyTemplate(spec *workv1alpha2.ResourceBindingSpec, t *unstructured.Unstructured, p *policyv1alpha1.PropagationPolicy) error {
	spec.PropagateDeps = p.Spec.PropagateDeps
	spec.SchedulerName = p.Spec.SchedulerName
	spec.Placement = p.Spec.Placement.DeepCopy()
	spec.Failover = p.Spec.Failover
	spec.ConflictResolution = p.Spec.ConflictResolution
	spec.Resource = workv1alpha2.ObjectReference{
		APIVersion: t.GetAPIVersion(), Kind: t.GetKind(), Namespace: t.GetNamespace(), Name: t.GetName(),
		UID: t.GetUID(), ResourceVersion: t.GetResourceVersion(),
	}
	replicas, requirements, err := interpreter.GetReplicas(t)
	if err != nil {
		return err
	}
	spec.Replicas, spec.ReplicaRequirements = replicas, requirements
	return nil
}

const (
	nameAnnotation      = policyv1alpha1.PropagationPolicyNameAnnotation
	namespaceAnnotation = policyv1alpha1.PropagationPolicyNamespaceAnnotation
)

// buildBindings claims every template and builds its binding (first time: no spec.clusters).
func buildBindings(policies []*policyv1alpha1.PropagationPolicy, templates []*unstructured.Unstructured) ([]*workv1alpha2.ResourceBinding, error) {
	out := make([]*workv1alpha2.ResourceBinding, 0, len(templates))
	for _, t := range templates {
		if t.GetNamespace() == "" {
			t.SetNamespace(metav1.NamespaceDefault)
		}
		p := highestPriorityPolicy(policies, t)
		if p == nil {
			continue
		}
		rb := &workv1alpha2.ResourceBinding{
			TypeMeta: metav1.TypeMeta{APIVersion: workv1alpha2.SchemeGroupVersion.String(), Kind: "ResourceBinding"},
			ObjectMeta: metav1.ObjectMeta{
				Name: names.GenerateBindingName(t.GetKind(), t.GetName()), Namespace: t.GetNamespace(),
				Annotations: map[string]string{nameAnnotation: p.Name, namespaceAnnotation: p.Namespace},
				Labels:      map[string]string{policyv1alpha1.PropagationPolicyPermanentIDLabel: p.Labels[policyv1alpha1.PropagationPolicyPermanentIDLabel]},
			},
		}
		if err := applyTemplate(&rb.Spec, t, p); err != nil {
			return nil, err
		}
		out = append(out, rb)
	}
	return out, nil
}

// updateBindings applies each binding's claiming policy and its template again (steady re-plan): the claim
// is sticky, so the policy is the one its annotations name.
func updateBindings(bindings []workv1alpha2.ResourceBinding, policies []*policyv1alpha1.PropagationPolicy, templates []*unstructured.Unstructured) ([]*workv1alpha2.ResourceBinding, error) {
	byName := make(map[string]*policyv1alpha1.PropagationPolicy, len(policies))
	for _, p := range policies {
		byName[p.Namespace+"/"+p.Name] = p
	}
	byResource := make(map[string]*unstructured.Unstructured, len(templates))
	for _, t := range templates {
		if t.GetNamespace() == "" {
			t.SetNamespace(metav1.NamespaceDefault)
		}
		byResource[t.GetAPIVersion()+"/"+t.GetKind()+"/"+t.GetNamespace()+"/"+t.GetName()] = t
	}
	out := make([]*workv1alpha2.ResourceBinding, 0, len(bindings))
	for i := range bindings {
		rb := &bindings[i]
		p := byName[rb.Annotations[namespaceAnnotation]+"/"+rb.Annotations[nameAnnotation]]
		r := rb.Spec.Resource
		t := byResource[r.APIVersion+"/"+r.Kind+"/"+r.Namespace+"/"+r.Name]
		if p == nil || t == nil {
			continue // not predicted, as lint's summary.notPredicted
		}
		if err := applyTemplate(&rb.Spec, t, p); err != nil {
			return nil, err
		}
		out = append(out, rb)
	}
	return out, nil
}

// scheduler is karmada-scheduler's algorithm as scheduler.NewScheduler builds it.
type scheduler struct {
	algorithm core.ScheduleAlgorithm
}

func newScheduler(clusters []clusterv1alpha1.Cluster, bindings []*workv1alpha2.ResourceBinding) (*scheduler, error) {
	clusterIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for i := range clusters {
		if err := clusterIndexer.Add(&clusters[i]); err != nil {
			return nil, err
		}
	}
	bindingIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, rb := range bindings {
		if err := bindingIndexer.Add(rb); err != nil {
			return nil, err
		}
	}
	schedulerCache := schedcache.NewCache(clusterlister.NewClusterLister(clusterIndexer), bindingIndexer, schedcache.DefaultAssumptionTTL)
	registry := frameworkplugins.NewInTreeRegistry().Filter([]string{"*"})
	algorithm, err := core.NewGenericScheduler(schedulerCache, registry)
	if err != nil {
		return nil, err
	}
	return &scheduler{algorithm: algorithm}, nil
}

// schedule runs the algorithm for one binding as scheduleResourceBinding does and writes the result into
// it (spec.clusters, the observed affinity term, the Scheduled condition). It reports whether the binding
// was scheduled; an error other than Karmada's FitError (no cluster fits) stops the benchmark.
func (s *scheduler) schedule(ctx context.Context, rb *workv1alpha2.ResourceBinding) (bool, error) {
	opt := &core.ScheduleAlgorithmOption{EnableEmptyWorkloadPropagation: false}
	placement := rb.Spec.Placement
	var (
		result core.ScheduleResult
		err    error
	)
	if placement.ClusterAffinities == nil {
		result, err = s.algorithm.Schedule(ctx, &rb.Spec, &rb.Status, opt)
	} else {
		status := rb.Status.DeepCopy()
		index := affinityIndex(placement.ClusterAffinities, rb.Status.SchedulerObservedAffinityName)
		var firstErr error
		for ; index < len(placement.ClusterAffinities); index++ {
			status.SchedulerObservedAffinityName = placement.ClusterAffinities[index].AffinityName
			result, err = s.algorithm.Schedule(ctx, &rb.Spec, status, opt)
			if err == nil {
				break
			}
			if firstErr == nil {
				firstErr = err
			}
		}
		if index < len(placement.ClusterAffinities) {
			rb.Status.SchedulerObservedAffinityName = status.SchedulerObservedAffinityName
		} else {
			err = firstErr
		}
	}
	var fitErr *framework.FitError
	if err != nil && !errors.As(err, &fitErr) {
		return false, err
	}
	// Both paths patch the result in, also after a FitError (which clears spec.clusters).
	rb.Spec.Clusters = result.SuggestedClusters
	if err == nil {
		meta.SetStatusCondition(&rb.Status.Conditions, metav1.Condition{Type: workv1alpha2.Scheduled, Status: metav1.ConditionTrue,
			Reason: workv1alpha2.BindingReasonSuccess, Message: "Binding has been scheduled successfully."})
		return true, nil
	}
	meta.SetStatusCondition(&rb.Status.Conditions, metav1.Condition{Type: workv1alpha2.Scheduled, Status: metav1.ConditionFalse,
		Reason: workv1alpha2.BindingReasonNoClusterFit, Message: err.Error()})
	return false, nil
}

// affinityIndex is karmada-scheduler's getAffinityIndex: the observed term, or the first.
func affinityIndex(terms []policyv1alpha1.ClusterAffinityTerm, observed string) int {
	for i, t := range terms {
		if observed != "" && t.AffinityName == observed {
			return i
		}
	}
	return 0
}

// writeBindings writes the bindings as a List with the applied-placement annotation karmada-scheduler
// patches in, so that a re-plan of the same placement is not a placement change.
func writeBindings(path string, bindings []*workv1alpha2.ResourceBinding) error {
	items := make([]*workv1alpha2.ResourceBinding, len(bindings))
	for i, rb := range bindings {
		placement, err := json.Marshal(rb.Spec.Placement)
		if err != nil {
			return err
		}
		rb.Annotations[util.PolicyPlacementAnnotation] = string(placement)
		items[i] = rb
	}
	data, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// cpuTime is the CPU time (user + system) the process has used so far, every thread (the garbage
// collector's too).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSS is the process's VmHWM in KiB (0 where /proc is not there).
func peakRSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kib int64
			fmt.Sscanf(strings.TrimSpace(rest), "%d", &kib)
			return kib
		}
	}
	return 0
}
