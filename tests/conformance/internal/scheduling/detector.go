package scheduling

import (
	"context"
	"fmt"
	"regexp"
	"sync"
	"time"

	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubeinformers "k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/cache/informertest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crfake "sigs.k8s.io/controller-runtime/pkg/client/fake"

	clusterv1alpha1 "github.com/karmada-io/karmada/pkg/apis/cluster/v1alpha1"
	configv1alpha1 "github.com/karmada-io/karmada/pkg/apis/config/v1alpha1"
	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
	workv1alpha1 "github.com/karmada-io/karmada/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/karmada-io/karmada/pkg/apis/work/v1alpha2"
	"github.com/karmada-io/karmada/pkg/detector"
	"github.com/karmada-io/karmada/pkg/resourceinterpreter"
	"github.com/karmada-io/karmada/pkg/util"
	"github.com/karmada-io/karmada/pkg/util/fedinformer/genericmanager"
	"github.com/karmada-io/karmada/pkg/util/fedinformer/keys"
)

// maxReconcileAttempts bounds the detector's retries of one template (its AsyncWorker retries with a rate
// limit forever; a template that still fails after this many passes has no binding).
const maxReconcileAttempts = 5

// controlPlaneScheme holds the kinds the detector's controller-runtime client reads as typed objects.
// Resource templates are not in it: they stay unstructured, as the detector reads them.
func controlPlaneScheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		policyv1alpha1.Install, workv1alpha1.Install, workv1alpha2.Install, clusterv1alpha1.Install,
		configv1alpha1.Install, schedulingv1.AddToScheme,
	} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// detectorRun is karmada-controller-manager's resource detector over fake clients: a controller-runtime
// fake client holding policies, templates and bindings (the detector's Client), and a fake dynamic client
// that reads templates from the same store (the detector's DynamicClient).
type detectorRun struct {
	w      *world
	client client.Client
	det    *detector.ResourceDetector
	queue  *syncQueue
	stored []binding // the bindings as the run started with them (keepUnwritten)
}

// runDetector lets Karmada's detector claim every template and build (or update) its binding, and returns
// the bindings as they are afterwards (given ones updated, new ones created).
func runDetector(ctx context.Context, w *world) ([]binding, map[string]int64, error) {
	r, err := newDetectorRun(ctx, w, nil)
	if err != nil {
		return nil, nil, err
	}
	r.applyPolicies()
	r.addTemplates()
	r.queue.drain(r.det.Reconcile)
	return r.result(ctx)
}

// newDetectorRun stores the world's policies (with extra, if any: policies of the store that are not the
// world's own), templates and bindings in a fake control plane and starts the detector over it.
func newDetectorRun(ctx context.Context, w *world, extra []client.Object) (*detectorRun, error) {
	scheme, err := controlPlaneScheme()
	if err != nil {
		return nil, err
	}
	objs := make([]client.Object, 0, len(w.pps)+len(w.cpps)+len(w.templates)+len(w.bindings)+len(extra))
	for _, p := range w.pps {
		objs = append(objs, p.DeepCopy())
	}
	for _, p := range w.cpps {
		objs = append(objs, p.DeepCopy())
	}
	objs = append(objs, extra...)
	for _, t := range w.templates {
		objs = append(objs, t.DeepCopy())
	}
	for _, b := range w.bindings {
		objs = append(objs, b.runtimeObject().DeepCopyObject().(client.Object))
	}
	c := crfake.NewClientBuilder().WithScheme(scheme).WithRESTMapper(w.restMapper).WithObjects(objs...).
		WithStatusSubresource(&workv1alpha2.ResourceBinding{}, &workv1alpha2.ClusterResourceBinding{}).Build()

	// The detector's DynamicClient: a template GET (and a LIST by label, handlePolicyDeletion's) is answered
	// from the controller-runtime client's store, so a claim the detector writes through one is seen
	// through the other.
	// The fake dynamic client panics on a LIST of a resource whose list kind it was not given.
	listKinds := map[schema.GroupVersionResource]string{}
	for _, t := range w.templates {
		if gvr, err := w.gvrOf(t.GroupVersionKind()); err == nil {
			listKinds[gvr] = t.GetKind() + "List"
		}
	}
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), listKinds)
	dyn.PrependReactor("get", "*", func(a clienttesting.Action) (bool, runtime.Object, error) {
		get := a.(clienttesting.GetAction)
		gvk, err := w.restMapper.KindFor(get.GetResource())
		if err != nil {
			return true, nil, err
		}
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(gvk)
		if err := c.Get(ctx, client.ObjectKey{Namespace: get.GetNamespace(), Name: get.GetName()}, u); err != nil {
			return true, nil, err
		}
		return true, u, nil
	})
	dyn.PrependReactor("list", "*", func(a clienttesting.Action) (bool, runtime.Object, error) {
		return listTemplates(ctx, c, w.restMapper, a.(clienttesting.ListAction))
	})
	// CleanupResourceTemplateClaimMetadata writes the template through the DynamicClient.
	dyn.PrependReactor("update", "*", func(a clienttesting.Action) (bool, runtime.Object, error) {
		u, ok := a.(clienttesting.UpdateAction).GetObject().(*unstructured.Unstructured)
		if !ok {
			return true, nil, fmt.Errorf("update of a %T", a.(clienttesting.UpdateAction).GetObject())
		}
		u = u.DeepCopy()
		if err := c.Update(ctx, u); err != nil {
			return true, nil, err
		}
		return true, u, nil
	})

	interpreter, err := sharedInterpreter()
	if err != nil {
		return nil, err
	}

	d := &detector.ResourceDetector{
		Client:        c,
		DynamicClient: dyn,
		// Never started: every lister misses, and the detector falls back to DynamicClient (its own path
		// for a cache that has not synced), which always reads the current object.
		InformerManager:        genericmanager.NewSingleClusterInformerManager(ctx, dyn, 0),
		ControllerRuntimeCache: &informertest.FakeInformers{Scheme: scheme},
		RESTMapper:             w.restMapper,
		// karmada-controller-manager's default --skipped-propagating-namespaces.
		SkippedPropagatingNamespaces: []*regexp.Regexp{regexp.MustCompile("^kube-.*$")},
		ResourceInterpreter:          interpreter,
		EventRecorder:                &record.FakeRecorder{},
	}
	// Start with a context that is already done: it only initialises the detector's private state (its
	// waiting list) and returns; its workers exit at once. The queue below replaces its Processor, so that
	// the dry run knows when every template has been reconciled.
	done, cancel := context.WithCancel(ctx)
	cancel()
	if err := d.Start(done); err != nil {
		return nil, fmt.Errorf("starting the resource detector: %w", err)
	}
	q := &syncQueue{}
	d.Processor = q

	r := &detectorRun{w: w, client: c, det: d, queue: q}
	if r.stored, err = r.bindings(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// addTemplates queues every template as the detector's informer does on its initial list.
func (r *detectorRun) addTemplates() {
	for _, t := range r.w.templates {
		if k, ok := templateClaim(t); ok {
			if _, known := r.w.policyIdx[k]; !known {
				// Held by a policy that is not among the inputs: live, that policy exists and keeps it; here the
				// detector would find it missing and release the claim. Not reconciled, not reported.
				continue
			}
		}
		obj := t.DeepCopy()
		// fedinformer.NewFilteringHandlerOnAllEvents: EventFilter, then OnAdd (the initial list).
		if r.det.EventFilter(obj) {
			r.det.OnAdd(obj, true)
		}
	}
}

// result is the bindings once the detector is done, and the replicas of those with components.
func (r *detectorRun) result(ctx context.Context) ([]binding, map[string]int64, error) {
	bindings, err := r.bindings(ctx)
	if err != nil {
		return nil, nil, err
	}
	bindings = keepUnwritten(bindings, r.stored, r.w.bindings)
	interpreter, err := sharedInterpreter()
	if err != nil {
		return nil, nil, err
	}
	return bindings, r.workloadReplicas(ctx, interpreter, bindings), nil
}

// listTemplates answers the dynamic client's LIST of one kind (with its label selector) from the store.
func listTemplates(ctx context.Context, c client.Client, mapper meta.RESTMapper, list clienttesting.ListAction) (bool, runtime.Object, error) {
	gvk, err := mapper.KindFor(list.GetResource())
	if err != nil {
		return true, nil, err
	}
	out := &unstructured.UnstructuredList{}
	out.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	opts := []client.ListOption{client.MatchingLabelsSelector{Selector: list.GetListRestrictions().Labels}}
	if ns := list.GetNamespace(); ns != "" {
		opts = append(opts, client.InNamespace(ns))
	}
	if err := c.List(ctx, out, opts...); err != nil {
		return true, nil, err
	}
	return true, out, nil
}

// keepUnwritten puts back the given object of every given binding the detector did not write (its
// resourceVersion is the one it was stored with). The controller-runtime fake client hands objects out
// through a JSON round trip, which drops empty lists and maps (omitempty); kube-apiserver keeps a custom
// resource as it was written, so a binding written with `clusterNames: []` reads back with an empty list
// live, and the scheduler's placementChanged (reflect.DeepEqual against the applied-placement
// annotation) tells an empty list from none. A binding the detector wrote is kept as the round trip
// left it: live, kube-apiserver stores what the detector's JSON encoding sent.
func keepUnwritten(after, before, given []binding) []binding {
	storedVersion := map[string]string{}
	for _, b := range before {
		storedVersion[b.id()] = b.object().GetResourceVersion()
	}
	original := map[string]binding{}
	for _, b := range given {
		original[b.id()] = b
	}
	for i, b := range after {
		g, ok := original[b.id()]
		if !ok || storedVersion[b.id()] != b.object().GetResourceVersion() {
			continue
		}
		if g.rb != nil {
			after[i] = binding{rb: g.rb.DeepCopy()}
		} else {
			after[i] = binding{crb: g.crb.DeepCopy()}
		}
	}
	return after
}

// templateClaim is the policy a template's claim metadata names (what detector.propagateResource reads).
func templateClaim(t *unstructured.Unstructured) (policyKey, bool) {
	labels, annotations := t.GetLabels(), t.GetAnnotations()
	if labels[policyv1alpha1.PropagationPolicyPermanentIDLabel] != "" &&
		annotations[policyv1alpha1.PropagationPolicyNamespaceAnnotation] != "" && annotations[policyv1alpha1.PropagationPolicyNameAnnotation] != "" {
		return policyKey{namespace: annotations[policyv1alpha1.PropagationPolicyNamespaceAnnotation], name: annotations[policyv1alpha1.PropagationPolicyNameAnnotation]}, true
	}
	if labels[policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel] != "" && annotations[policyv1alpha1.ClusterPropagationPolicyAnnotation] != "" {
		return policyKey{cluster: true, name: annotations[policyv1alpha1.ClusterPropagationPolicyAnnotation]}, true
	}
	return policyKey{}, false
}

// workloadReplicas is, for a binding with components (MultiplePodTemplatesScheduling: the detector sets
// spec.components and leaves spec.replicas 0), the replicas Karmada's interpreter reads off its template
// (GetReplicas), which is what lint's workload.replicas means.
func (r *detectorRun) workloadReplicas(ctx context.Context, interpreter resourceinterpreter.ResourceInterpreter, bindings []binding) map[string]int64 {
	out := map[string]int64{}
	for _, b := range bindings {
		spec := b.spec()
		if len(spec.Components) == 0 {
			continue
		}
		ref := spec.Resource
		t := &unstructured.Unstructured{}
		t.SetAPIVersion(ref.APIVersion)
		t.SetKind(ref.Kind)
		if err := r.client.Get(ctx, client.ObjectKey{Namespace: ref.Namespace, Name: ref.Name}, t); err != nil {
			continue
		}
		if !interpreter.HookEnabled(t.GroupVersionKind(), configv1alpha1.InterpreterOperationInterpretReplica) {
			continue
		}
		if replicas, _, err := interpreter.GetReplicas(t); err == nil {
			out[b.id()] = int64(replicas)
		}
	}
	return out
}

// applyPolicies is the policy reconcilers' pass over every policy, as on CREATE or UPDATE: claims that
// no longer match are released, derived templates are queued, and a policy with preemption: Always
// preempts (with the PolicyPreemption gate). Policies go in input order.
func (r *detectorRun) applyPolicies() {
	for _, p := range r.w.pps {
		// An error (dependent overrides missing, ...) leaves what Karmada leaves: the templates stay queued.
		_ = r.det.HandlePropagationPolicyCreationOrUpdate(p.DeepCopy())
	}
	for _, p := range r.w.cpps {
		_ = r.det.HandleClusterPropagationPolicyCreationOrUpdate(p.DeepCopy())
	}
}

func (r *detectorRun) bindings(ctx context.Context) ([]binding, error) {
	var out []binding
	rbs := &workv1alpha2.ResourceBindingList{}
	if err := r.client.List(ctx, rbs); err != nil {
		return nil, fmt.Errorf("listing ResourceBindings: %w", err)
	}
	for i := range rbs.Items {
		out = append(out, binding{rb: &rbs.Items[i]})
	}
	crbs := &workv1alpha2.ClusterResourceBindingList{}
	if err := r.client.List(ctx, crbs); err != nil {
		return nil, fmt.Errorf("listing ClusterResourceBindings: %w", err)
	}
	for i := range crbs.Items {
		out = append(out, binding{crb: &crbs.Items[i]})
	}
	return out, nil
}

var (
	interpreterOnce    sync.Once
	processInterpreter resourceinterpreter.ResourceInterpreter
	processInterpErr   error
)

// sharedInterpreter is one resource interpreter for the process: it holds no state of a dry run (no
// ResourceInterpreterCustomization or interpreter webhook exists in it), and starting one costs an
// informer sync.
func sharedInterpreter() (resourceinterpreter.ResourceInterpreter, error) {
	interpreterOnce.Do(func() { processInterpreter, processInterpErr = startInterpreter(context.Background()) })
	return processInterpreter, processInterpErr
}

// startInterpreter starts Karmada's resource interpreter (default native + third-party customizations).
func startInterpreter(ctx context.Context) (resourceinterpreter.ResourceInterpreter, error) {
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		util.ResourceInterpreterCustomizationsGVR:        "ResourceInterpreterCustomizationList",
		util.ResourceInterpreterWebhookConfigurationsGVR: "ResourceInterpreterWebhookConfigurationList",
	})
	informers := genericmanager.NewSingleClusterInformerManager(ctx, dyn, 0)
	services := kubeinformers.NewSharedInformerFactory(kubefake.NewClientset(), 0).Core().V1().Services().Lister()
	interpreter := resourceinterpreter.NewResourceInterpreter(informers, services)
	startCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	errCh := make(chan error, 1)
	go func() { errCh <- interpreter.Start(startCtx) }()
	select {
	case err := <-errCh:
		if err != nil {
			return nil, fmt.Errorf("starting the resource interpreter: %w", err)
		}
	case <-startCtx.Done():
		return nil, fmt.Errorf("starting the resource interpreter: %w", startCtx.Err())
	}
	return interpreter, nil
}

// syncQueue stands in for the detector's Processor (util.AsyncPriorityWorker): a de-duplicating FIFO of
// keys.ClusterWideKeyWithConfig that drain hands to the detector's own Reconcile, one at a time, instead
// of worker goroutines. A failed key is retried (the AsyncWorker's rate-limited requeue, without the wait).
type syncQueue struct {
	mu       sync.Mutex
	items    []any
	queued   map[any]bool
	attempts map[any]int
}

var _ util.AsyncPriorityWorker = &syncQueue{}

func (q *syncQueue) Add(item any) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.queued == nil {
		q.queued = map[any]bool{}
	}
	if q.queued[item] {
		return
	}
	q.queued[item] = true
	q.items = append(q.items, item)
}

func (q *syncQueue) AddAfter(item any, _ time.Duration) { q.Add(item) }

func (q *syncQueue) AddWithOpts(_ util.AddOpts, items ...any) {
	for _, item := range items {
		q.Add(item)
	}
}

// Enqueue applies the detector Processor's KeyFunc (detector.ResourceItemKeyFunc).
func (q *syncQueue) Enqueue(obj any) {
	key, err := detector.ResourceItemKeyFunc(obj)
	if err != nil {
		return
	}
	q.Add(key)
}

func (q *syncQueue) EnqueueWithOpts(_ util.AddOpts, obj any) { q.Enqueue(obj) }

func (q *syncQueue) Run(context.Context, int) {}

func (q *syncQueue) pop() (any, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return nil, false
	}
	item := q.items[0]
	q.items = q.items[1:]
	delete(q.queued, item)
	return item, true
}

func (q *syncQueue) drain(reconcile func(util.QueueKey) error) {
	if q.attempts == nil {
		q.attempts = map[any]int{}
	}
	for {
		item, ok := q.pop()
		if !ok {
			return
		}
		if _, isKey := item.(keys.ClusterWideKeyWithConfig); !isKey {
			continue
		}
		if err := reconcile(item); err != nil {
			q.attempts[item]++
			if q.attempts[item] < maxReconcileAttempts {
				q.Add(item)
			}
		}
	}
}
