package scheduling

import (
	"context"
	"fmt"

	"sort"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
	"github.com/karmada-io/karmada/pkg/features"
	"github.com/karmada-io/karmada/pkg/util"
	"github.com/karmada-io/karmada/pkg/util/fedinformer/keys"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

// RunChange is Run for a change of policies (lint --base): the control plane holds the base policies, the
// snapshot's templates and bindings; the change then deletes the base policies in.Policies lacks, creates
// the new ones and updates the changed ones, each through Karmada's own reconcilers, and the scheduler runs
// over the bindings the detector leaves. The entries are in.Policies' (per Policy.Index), as Run's.
//
// The base side is the world as it stands (the snapshot is the live state): its policies are not
// reconciled, only its templates are (the detector's initial list), so a holder whose selectors no longer
// match keeps its claim, as it does live until the holder changes. The change, in the order of Karmada's
// reconcilers (live they race; the result does not depend on it, see docs/changing-policies.md):
//  1. every created or changed policy is written (a change keeps the base object's permanent id);
//  2. every deleted base policy is deleted; its finalizer (karmada-webhook adds it on create) keeps it with a
//     deletionTimestamp, and ReconcilePropagationPolicy / ReconcileClusterPropagationPolicy runs
//     handlePolicyDeletion and removes the finalizer;
//  3. every created or changed policy goes through HandlePropagationPolicyCreationOrUpdate /
//     HandleClusterPropagationPolicyCreationOrUpdate (what the policy reconcilers do on its event); an
//     unchanged one is not reconciled (OnPropagationPolicyUpdate skips an unchanged generation);
//  4. every template the change wrote goes through the detector's OnUpdate (eventfilter.SpecificationChanged:
//     its claim labels), and the queue (with the waiting templates the handlers enqueued) is drained.
//
// The released workloads are those of a given binding the base side claimed and the change left with no
// claim: karmada-scheduler ignores such a binding, so it keeps its clusters (lint's diff entries with
// after.releasedBy). A binding the base side's detector created is not reported: the base side is not
// scheduled here (its given bindings are taken as scheduled), so it has no clusters to keep.
//
// refused names the new side's policies the webhook denied: kubectl apply of such a policy fails, so a base
// policy of that kind, namespace and name stays on the server as it was (neither deleted nor changed).
func RunChange(ctx context.Context, in Input, base []Policy, refused []PolicyName) (map[int][]report.Scheduling, []report.DiffEntry, error) {
	runMu.Lock()
	defer runMu.Unlock()
	if err := setFeatureGates(in.FeatureGates); err != nil {
		return nil, nil, err
	}
	baseIn := in
	baseIn.Policies = base
	w, err := newWorld(baseIn)
	if err != nil {
		return nil, nil, err
	}
	after, err := newWorld(in)
	if err != nil {
		return nil, nil, err
	}
	res, err := detectChange(ctx, w, after, refused)
	if err != nil {
		return nil, nil, err
	}
	outcomes, err := runScheduler(ctx, w, res.bindings)
	if err != nil {
		return nil, nil, err
	}
	w.policyIdx = after.policyIdx // the entries are the new side's
	return w.entries(res.bindings, outcomes, res.replicas), w.released(res.baseClaims, outcomes), nil
}

// changeResult is the detector's part of a change: the bindings it leaves, the replicas of those with
// components, and the claim each given binding had once the base side was reconciled.
type changeResult struct {
	bindings   []binding
	replicas   map[string]int64
	baseClaims map[string]policyKey
}

// released lists the given bindings of templates the base side claimed that end with no claim.
func (w *world) released(baseClaims map[string]policyKey, outcomes map[string]outcome) []report.DiffEntry {
	templates := map[resourceKey]bool{}
	for _, t := range w.templates {
		templates[resourceKey{t.GetAPIVersion(), t.GetKind(), t.GetNamespace(), t.GetName()}] = true
	}
	var out []report.DiffEntry
	for _, b := range w.bindings {
		was, claimed := baseClaims[b.id()]
		o, ok := outcomes[b.id()]
		// The template the binding records once the detector wrote it: a given binding named after a
		// template but recording another object is the one ApplyPolicy finds by name and points at it.
		if !claimed || !ok || !templates[o.after.resource()] {
			continue
		}
		if _, _, still := o.after.claim(); still {
			continue
		}
		r := o.after.spec().Resource
		e := report.DiffEntry{
			Workload: report.DiffWorkload{APIVersion: r.APIVersion, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name},
			After:    report.DiffSide{ReleasedBy: was.String(), Clusters: []report.TargetCluster{}},
		}
		for _, tc := range o.after.spec().Clusters {
			e.After.Clusters = append(e.After.Clusters, report.TargetCluster{Name: tc.Name, Replicas: int64(tc.Replicas)})
		}
		out = append(out, e)
	}
	return out
}

// detectChange is detect for a change: a panic in Karmada's detector code is this dry run's error.
func detectChange(ctx context.Context, w, after *world, refused []PolicyName) (res changeResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("karmada's resource detector panicked: %v", r)
		}
	}()
	return runChangeDetector(ctx, w, after, refused)
}

func runChangeDetector(ctx context.Context, w, after *world, refused []PolicyName) (changeResult, error) {
	var res changeResult
	withFinalizers(w)
	r, err := newDetectorRun(ctx, w, nil)
	if err != nil {
		return res, err
	}
	r.addTemplates()
	r.queue.drain(r.det.Reconcile)
	before, err := r.templates(ctx)
	if err != nil {
		return res, err
	}
	if res.baseClaims, err = r.claims(ctx); err != nil {
		return res, err
	}
	plan := planChange(w, after, refused)
	if err := r.writePolicies(ctx, plan); err != nil {
		return res, err
	}
	for _, k := range plan.deleted {
		if err := r.deletePolicy(ctx, k); err != nil {
			return res, err
		}
	}
	for _, p := range plan.applied {
		// An error (dependent overrides missing, ...) leaves what Karmada leaves: the templates stay queued.
		if p.pp != nil {
			_ = r.det.HandlePropagationPolicyCreationOrUpdate(p.pp.DeepCopy())
		} else {
			_ = r.det.HandleClusterPropagationPolicyCreationOrUpdate(p.cpp.DeepCopy())
		}
	}
	if err := r.requeueDeprioritized(ctx, plan); err != nil {
		return res, err
	}
	if err := r.updateTemplates(ctx, before); err != nil {
		return res, err
	}
	r.queue.drain(r.det.Reconcile)
	res.bindings, res.replicas, err = r.result(ctx)
	return res, err
}

// claims is the policy each binding's claim names now.
func (r *detectorRun) claims(ctx context.Context) (map[string]policyKey, error) {
	bindings, err := r.bindings(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]policyKey{}
	for _, b := range bindings {
		if k, _, ok := b.claim(); ok {
			out[b.id()] = k
		}
	}
	return out, nil
}

// withFinalizers gives the base policies the finalizer karmada-webhook's mutating handler adds on create,
// so that deleting one leaves it with a deletionTimestamp for its reconciler, as live.
func withFinalizers(w *world) {
	for _, p := range w.pps {
		p.Finalizers = appendOnce(p.Finalizers, util.PropagationPolicyControllerFinalizer)
	}
	for _, p := range w.cpps {
		p.Finalizers = appendOnce(p.Finalizers, util.ClusterPropagationPolicyControllerFinalizer)
	}
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// PolicyName is a policy's kind (cluster-scoped or not), namespace and name.
type PolicyName struct {
	Cluster         bool
	Namespace, Name string
}

// changedPolicy is one new-side policy the change creates or updates.
type changedPolicy struct {
	pp     *policyv1alpha1.PropagationPolicy
	cpp    *policyv1alpha1.ClusterPropagationPolicy
	update bool  // a base policy of the same kind, namespace and name exists
	was    int32 // its explicit priority before (update only)
}

// changePlan is what the change does to the base policies.
type changePlan struct {
	deleted []policyKey     // base policies the new side lacks, in base order
	applied []changedPolicy // new-side policies created or changed, in new-side order
}

// planChange compares the two sides by (kind, namespace, name); a policy whose spec is the same on both is
// unchanged (reconciledOnUpdate). An updated policy keeps the base object's permanent id (the label is
// immutable). A policy the base lacks but a given binding claims keeps that binding's id (newWorld): as
// for the base side's templates (addTemplates), a claim names a policy that exists on the server, so
// applying the new file updates it.
func planChange(base, after *world, refused []PolicyName) changePlan {
	var plan changePlan
	kept := map[policyKey]bool{}
	for _, r := range refused {
		kept[policyKey{cluster: r.Cluster, namespace: r.Namespace, name: r.Name}] = true
	}
	ppKey := func(p *policyv1alpha1.PropagationPolicy) policyKey {
		return policyKey{namespace: p.Namespace, name: p.Name}
	}
	cppKey := func(p *policyv1alpha1.ClusterPropagationPolicy) policyKey {
		return policyKey{cluster: true, name: p.Name}
	}
	planKind(&plan, kept, base.pps, after.pps, ppKey, func(p *policyv1alpha1.PropagationPolicy) policyv1alpha1.PropagationSpec { return p.Spec },
		policyv1alpha1.PropagationPolicyPermanentIDLabel, util.PropagationPolicyControllerFinalizer,
		func(p *policyv1alpha1.PropagationPolicy) changedPolicy { return changedPolicy{pp: p} })
	planKind(&plan, kept, base.cpps, after.cpps, cppKey, func(p *policyv1alpha1.ClusterPropagationPolicy) policyv1alpha1.PropagationSpec { return p.Spec },
		policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel, util.ClusterPropagationPolicyControllerFinalizer,
		func(p *policyv1alpha1.ClusterPropagationPolicy) changedPolicy { return changedPolicy{cpp: p} })
	for _, p := range base.pps {
		if k := ppKey(p); !kept[k] {
			plan.deleted = append(plan.deleted, k)
		}
	}
	for _, p := range base.cpps {
		if k := cppKey(p); !kept[k] {
			plan.deleted = append(plan.deleted, k)
		}
	}
	return plan
}

// policyObject is a *PropagationPolicy or a *ClusterPropagationPolicy.
type policyObject[T any] interface {
	*T
	client.Object
	DeepCopy() *T
	ExplicitPriority() int32
}

// planKind is planChange for one kind of policy: each new-side policy (marked kept) that is created, or
// updated so that the detector reconciles it, goes to plan.applied with the base object's permanent id
// (idLabel) and karmada-webhook's finalizer.
func planKind[T any, P policyObject[T]](plan *changePlan, kept map[policyKey]bool, base, after []P, key func(P) policyKey,
	spec func(P) policyv1alpha1.PropagationSpec, idLabel, finalizer string, wrap func(P) changedPolicy) {
	byKey := map[policyKey]P{}
	for _, p := range base {
		byKey[key(p)] = p
	}
	for _, p := range after {
		k := key(p)
		kept[k] = true
		old, ok := byKey[k]
		if ok && !reconciledOnUpdate(spec(old), spec(p), old, p) {
			continue
		}
		p = P(p.DeepCopy())
		c := wrap(p)
		if ok {
			labels := p.GetLabels()
			setLabel(&labels, idLabel, old.GetLabels()[idLabel])
			p.SetLabels(labels)
			c.update, c.was = true, old.ExplicitPriority()
		}
		p.SetFinalizers(appendOnce(p.GetFinalizers(), finalizer))
		plan.applied = append(plan.applied, c)
	}
}

// reconciledOnUpdate: whether the detector reconciles a policy kubectl apply changed from old to new. A
// spec change bumps metadata.generation (the policy CRDs have no status subresource); a change of labels
// or annotations alone is an update with the same generation, which v1.18 skips and older releases do not
// (updateNeedsNewGeneration). The permanent-id label is the store's, not the file's.
func reconciledOnUpdate(old, new policyv1alpha1.PropagationSpec, oldMeta, newMeta metav1.Object) bool {
	if !apiequality.Semantic.DeepEqual(old, new) {
		return true
	}
	if updateNeedsNewGeneration {
		return false
	}
	withoutID := func(m map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range m {
			if k != policyv1alpha1.PropagationPolicyPermanentIDLabel && k != policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel {
				out[k] = v
			}
		}
		return out
	}
	return !apiequality.Semantic.DeepEqual(withoutID(oldMeta.GetLabels()), withoutID(newMeta.GetLabels())) ||
		!apiequality.Semantic.DeepEqual(withoutID(oldMeta.GetAnnotations()), withoutID(newMeta.GetAnnotations()))
}

func setLabel(labels *map[string]string, k, v string) {
	if v == "" {
		return
	}
	if *labels == nil {
		*labels = map[string]string{}
	}
	(*labels)[k] = v
}

// writePolicies creates or updates the changed policies in the store (kubectl apply's write; the detector's
// handlers run later, as the policy reconcilers do on the event).
func (r *detectorRun) writePolicies(ctx context.Context, plan changePlan) error {
	for _, p := range plan.applied {
		var obj client.Object = p.pp
		if p.cpp != nil {
			obj = p.cpp
		}
		if !p.update {
			obj.SetResourceVersion("")
			if err := r.client.Create(ctx, obj); err != nil {
				return fmt.Errorf("creating %s: %w", obj.GetName(), err)
			}
			continue
		}
		stored := obj.DeepCopyObject().(client.Object)
		if err := r.client.Get(ctx, client.ObjectKeyFromObject(obj), stored); err != nil {
			return fmt.Errorf("reading %s: %w", obj.GetName(), err)
		}
		obj.SetResourceVersion(stored.GetResourceVersion())
		obj.SetUID(stored.GetUID())
		obj.SetGeneration(stored.GetGeneration() + 1)
		if err := r.client.Update(ctx, obj); err != nil {
			return fmt.Errorf("updating %s: %w", obj.GetName(), err)
		}
		// The handlers read the object as stored (its resourceVersion).
		if err := r.client.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			return fmt.Errorf("reading %s: %w", obj.GetName(), err)
		}
	}
	return nil
}

// deletePolicy deletes one base policy and runs its reconciler on the deletion.
func (r *detectorRun) deletePolicy(ctx context.Context, k policyKey) error {
	var obj client.Object = &policyv1alpha1.PropagationPolicy{}
	reconcile := r.det.ReconcilePropagationPolicy
	if k.cluster {
		obj = &policyv1alpha1.ClusterPropagationPolicy{}
		reconcile = r.det.ReconcileClusterPropagationPolicy
	}
	obj.SetNamespace(k.namespace)
	obj.SetName(k.name)
	if err := r.client.Delete(ctx, obj); err != nil {
		return fmt.Errorf("deleting %s: %w", k, err)
	}
	var err error
	for range maxReconcileAttempts {
		if err = reconcile(keys.NamespacedKey{Namespace: k.namespace, Name: k.name}); err == nil {
			return nil
		}
	}
	return fmt.Errorf("deleting %s: %w", k, err)
}

// templates reads every template as stored now.
func (r *detectorRun) templates(ctx context.Context) ([]*unstructured.Unstructured, error) {
	out := make([]*unstructured.Unstructured, 0, len(r.w.templates))
	for _, t := range r.w.templates {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(t.GroupVersionKind())
		if err := r.client.Get(ctx, client.ObjectKeyFromObject(t), u); err != nil {
			return nil, fmt.Errorf("reading %s %s/%s: %w", t.GetKind(), t.GetNamespace(), t.GetName(), err)
		}
		out = append(out, u)
	}
	return out, nil
}

// updateTemplates hands every template the change wrote to the detector's update handler
// (fedinformer.NewFilteringHandlerOnAllEvents: EventFilter on the new object, then OnUpdate, which
// queues it when eventfilter.SpecificationChanged).
func (r *detectorRun) updateTemplates(ctx context.Context, before []*unstructured.Unstructured) error {
	now, err := r.templates(ctx)
	if err != nil {
		return err
	}
	for i := range now {
		if now[i].GetResourceVersion() == before[i].GetResourceVersion() {
			continue
		}
		if r.det.EventFilter(now[i]) {
			r.det.OnUpdate(before[i], now[i])
		}
	}
	return nil
}

// requeueDeprioritized is what OnPropagationPolicyUpdate / OnClusterPropagationPolicyUpdate do besides
// enqueueing the policy, with the PropagationPolicyPreemption gate, when an update lowers its explicit
// priority: HandleDeprioritizedPropagationPolicy (preemption.go) re-queues, highest priority first, the
// policies of its namespace (every ClusterPropagationPolicy for one) that have a priority, preemption
// Always and a priority strictly between the new and the old one; their reconcile runs
// Handle*CreationOrUpdate, which preempts. Karmada's handlers write to the detector's private policy
// queue, so this run calls the reconcile they lead to.
func (r *detectorRun) requeueDeprioritized(ctx context.Context, plan changePlan) error {
	if !features.FeatureGate.Enabled(features.PolicyPreemption) {
		return nil
	}
	for _, p := range plan.applied {
		if !p.update {
			continue
		}
		inRange := func(s policyv1alpha1.PropagationSpec, now int32) bool {
			return s.Priority != nil && s.Preemption == policyv1alpha1.PreemptAlways &&
				s.ExplicitPriority() > now && s.ExplicitPriority() < p.was
		}
		if p.pp != nil && p.pp.ExplicitPriority() < p.was {
			list := &policyv1alpha1.PropagationPolicyList{}
			if err := r.client.List(ctx, list, client.InNamespace(p.pp.Namespace)); err != nil {
				return fmt.Errorf("listing PropagationPolicies: %w", err)
			}
			var potential []*policyv1alpha1.PropagationPolicy
			for i := range list.Items {
				if inRange(list.Items[i].Spec, p.pp.ExplicitPriority()) {
					potential = append(potential, &list.Items[i])
				}
			}
			sort.SliceStable(potential, func(a, b int) bool { return potential[a].ExplicitPriority() > potential[b].ExplicitPriority() })
			for _, q := range potential {
				_ = r.det.HandlePropagationPolicyCreationOrUpdate(q)
			}
		}
		if p.cpp != nil && p.cpp.ExplicitPriority() < p.was {
			list := &policyv1alpha1.ClusterPropagationPolicyList{}
			if err := r.client.List(ctx, list); err != nil {
				return fmt.Errorf("listing ClusterPropagationPolicies: %w", err)
			}
			var potential []*policyv1alpha1.ClusterPropagationPolicy
			for i := range list.Items {
				if inRange(list.Items[i].Spec, p.cpp.ExplicitPriority()) {
					potential = append(potential, &list.Items[i])
				}
			}
			sort.SliceStable(potential, func(a, b int) bool { return potential[a].ExplicitPriority() > potential[b].ExplicitPriority() })
			for _, q := range potential {
				_ = r.det.HandleClusterPropagationPolicyCreationOrUpdate(q)
			}
		}
	}
	return nil
}
