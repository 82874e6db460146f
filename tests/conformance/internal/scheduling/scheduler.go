package scheduling

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"

	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/karmada-io/karmada/pkg/apis/work/v1alpha2"
	karmadafake "github.com/karmada-io/karmada/pkg/generated/clientset/versioned/fake"
	"github.com/karmada-io/karmada/pkg/scheduler"
	"github.com/karmada-io/karmada/pkg/sharedcli/ratelimiterflag"
)

// The fake clientsets' watchers panic ("channel full") once more than watch.DefaultChanSize (100) events
// wait for an informer, and the scheduler of a packed case writes several per binding faster than its
// informers read them: such a pack had to be answered again by halves. kube-apiserver's watch has no
// such limit at these sizes.
func init() {
	watch.DefaultChanSize = 4096
}

// schedulerDeadline bounds one dry run's wait for the scheduler (it takes milliseconds; the bound only
// turns a hang into an error).
const schedulerDeadline = 2 * time.Minute

// sentinel names: bindings the dry run adds after every real one, so that their being scheduled proves
// the scheduler's single worker has taken every real binding out of its FIFO queue first.
const (
	sentinelNamespace = "karmada-oracle-sentinel"
	sentinelName      = "karmada-oracle-sentinel"
	// skipDeletingPrefix starts the event for a binding being deleted (scheduler.go doScheduleBinding): the
	// scheduler looked at the binding but did not schedule it.
	skipDeletingPrefix = "skip schedule deleting"
)

// outcome is what karmada-scheduler wrote into one binding.
type outcome struct {
	after binding // the binding as it is once the scheduler is done with it
	acted bool    // the scheduler scheduled it (events ScheduleBindingSucceed / ScheduleBindingFailed)
}

// runScheduler runs karmada-scheduler (scheduler.NewScheduler + Run, the options karmada-scheduler's flags
// default to; the scheduler-estimator on when the world has member state, estimator.go) over a fake clientset holding the clusters and bindings, waits
// until it has handled every binding once, and returns what each binding looks like afterwards.
func runScheduler(ctx context.Context, w *world, bindings []binding) (_ map[string]outcome, err error) {
	objs := make([]runtime.Object, 0, len(w.clusters)+len(bindings))
	for _, c := range w.clusters {
		objs = append(objs, c.DeepCopy())
	}
	for _, b := range bindings {
		objs = append(objs, b.runtimeObject().DeepCopyObject())
	}
	karmadaClient := karmadafake.NewSimpleClientset(objs...)
	keepPlacementOnPatch(karmadaClient)
	// The scheduler's event sink only. NewSimpleClientset, not NewClientset: the latter's field-managed
	// tracker builds a static REST mapper on every event written, over half of a dry run's CPU; nothing of
	// Karmada's reads these events back (only runScheduler does, for `acted`).
	// With member state it also holds the Services the estimator client resolves (estimator.go).
	var kubeObjs []runtime.Object
	if len(w.members) > 0 {
		est, err := startEstimators(ctx, w.clusterNames(), w.members)
		if err != nil {
			return nil, err
		}
		defer est.stop()
		// RegisterSchedulerEstimator (NewScheduler, below) puts the accurate estimator into a package map
		// of Karmada's that nothing removes; a later dry run of this process without member state must not
		// find it there.
		defer unregisterAccurateEstimator()
		kubeObjs = est.services
	}
	kubeClient := kubefake.NewSimpleClientset(kubeObjs...) //nolint:staticcheck // deprecated for its lack of field management, which is not used

	dynamicClient := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme())

	sched, err := scheduler.NewScheduler(dynamicClient, karmadaClient, kubeClient,
		// --enable-scheduler-estimator when there is member state, with the flags' defaults for the rest.
		scheduler.WithEnableSchedulerEstimator(len(w.members) > 0),
		scheduler.WithSchedulerEstimatorServiceNamespace(estimatorServiceNamespace),
		scheduler.WithSchedulerEstimatorServicePrefix(estimatorServicePrefix),
		scheduler.WithSchedulerEstimatorConnection(estimatorPort, "", "", "", false),
		scheduler.WithSchedulerEstimatorTimeout(metav1.Duration{Duration: estimatorTimeout}),
		scheduler.WithEnableEmptyWorkloadPropagation(false),
		scheduler.WithEnableSchedulerPlugin([]string{"*"}),
		scheduler.WithSchedulerName(scheduler.DefaultScheduler),
		scheduler.WithRateLimiterOptions(ratelimiterflag.Options{}),
	)
	if err != nil {
		return nil, fmt.Errorf("creating the scheduler: %w", err)
	}
	if len(w.members) > 0 {
		// After the scheduler has stopped (deferred below, so run before this).
		defer func() {
			if cerr := closeEstimatorConnections(sched, w.clusterNames()); cerr != nil && err == nil {
				err = cerr
			}
		}()
	}
	runCtx, stop := context.WithCancel(ctx)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		sched.Run(runCtx)
	}()
	defer func() {
		stop()
		<-stopped
	}()

	deadline, cancel := context.WithTimeout(ctx, schedulerDeadline)
	defer cancel()

	// 1. Both binding informers have listed (their initial items are on their way to the queue) and watch.
	if err := poll(deadline, "the scheduler's binding informers to watch", func() bool {
		return watching(karmadaClient, "resourcebindings") && watching(karmadaClient, "clusterresourcebindings")
	}); err != nil {
		return nil, err
	}
	// 2. One sentinel per informer: its add event follows the informer's initial items, so it enters the
	// queue after them (lowest schedule priority, for the PriorityBasedScheduling queue).
	if err := createSentinels(deadline, karmadaClient); err != nil {
		return nil, err
	}
	// 3. The scheduler has written the sentinels' Scheduled condition (the last thing it does for a binding),
	// so it has handled every binding queued before them.
	if err := poll(deadline, "the scheduler to schedule the sentinel bindings", func() bool {
		return sentinelsScheduled(deadline, karmadaClient)
	}); err != nil {
		return nil, err
	}
	// 4. Events are written asynchronously, in order: once the sentinels' events are there, so are all others.
	if err := poll(deadline, "the scheduler's events", func() bool {
		rb, crb := false, false
		for _, e := range events(kubeClient) {
			if e.InvolvedObject.Name == sentinelName {
				rb = rb || e.InvolvedObject.Kind == "ResourceBinding"
				crb = crb || e.InvolvedObject.Kind == "ClusterResourceBinding"
			}
		}
		return rb && crb
	}); err != nil {
		return nil, err
	}

	acted := map[string]bool{}
	for _, e := range events(kubeClient) {
		if strings.HasPrefix(e.Message, skipDeletingPrefix) {
			continue
		}
		switch e.InvolvedObject.Kind {
		case "ResourceBinding":
			acted["ResourceBinding "+e.InvolvedObject.Namespace+"/"+e.InvolvedObject.Name] = true
		case "ClusterResourceBinding":
			acted["ClusterResourceBinding "+e.InvolvedObject.Name] = true
		}
	}
	out := map[string]outcome{}
	for _, b := range bindings {
		var after binding
		if b.rb != nil {
			rb, err := karmadaClient.WorkV1alpha2().ResourceBindings(b.rb.Namespace).Get(deadline, b.rb.Name, metav1.GetOptions{})
			if err != nil {
				return nil, fmt.Errorf("reading %s: %w", b.id(), err)
			}
			after = binding{rb: rb}
		} else {
			crb, err := karmadaClient.WorkV1alpha2().ClusterResourceBindings().Get(deadline, b.crb.Name, metav1.GetOptions{})
			if err != nil {
				return nil, fmt.Errorf("reading %s: %w", b.id(), err)
			}
			after = binding{crb: crb}
		}
		out[b.id()] = outcome{after: after, acted: acted[b.id()]}
	}
	return out, nil
}

func watching(c *karmadafake.Clientset, resource string) bool {
	for _, a := range c.Actions() {
		if a.GetVerb() == "watch" && a.GetResource().Resource == resource {
			return true
		}
	}
	return false
}

// sentinelSpec places a ConfigMap (not a workload) on a cluster that cannot exist: the scheduler answers
// with a FitError and writes a Scheduled=False condition.
func sentinelSpec() workv1alpha2.ResourceBindingSpec {
	return workv1alpha2.ResourceBindingSpec{
		Resource: workv1alpha2.ObjectReference{APIVersion: "v1", Kind: "ConfigMap", Namespace: sentinelNamespace, Name: sentinelName},
		Placement: &policyv1alpha1.Placement{
			ClusterAffinity: &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"karmada-oracle-no-such-cluster"}},
		},
		SchedulerName:    scheduler.DefaultScheduler,
		SchedulePriority: &workv1alpha2.SchedulePriority{Priority: math.MinInt32},
	}
}

func createSentinels(ctx context.Context, c *karmadafake.Clientset) error {
	labels := map[string]string{policyv1alpha1.PropagationPolicyPermanentIDLabel: "karmada-oracle-sentinel"}
	rb := &workv1alpha2.ResourceBinding{
		ObjectMeta: metav1.ObjectMeta{Name: sentinelName, Namespace: sentinelNamespace, Labels: labels, UID: "karmada-oracle-sentinel-rb"},
		Spec:       sentinelSpec(),
	}
	if _, err := c.WorkV1alpha2().ResourceBindings(sentinelNamespace).Create(ctx, rb, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating the sentinel ResourceBinding: %w", err)
	}
	crb := &workv1alpha2.ClusterResourceBinding{
		ObjectMeta: metav1.ObjectMeta{Name: sentinelName, Labels: labels, UID: "karmada-oracle-sentinel-crb"},
		Spec:       sentinelSpec(),
	}
	if _, err := c.WorkV1alpha2().ClusterResourceBindings().Create(ctx, crb, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating the sentinel ClusterResourceBinding: %w", err)
	}
	return nil
}

func sentinelsScheduled(ctx context.Context, c *karmadafake.Clientset) bool {
	rb, err := c.WorkV1alpha2().ResourceBindings(sentinelNamespace).Get(ctx, sentinelName, metav1.GetOptions{})
	if err != nil || meta.FindStatusCondition(rb.Status.Conditions, workv1alpha2.Scheduled) == nil {
		return false
	}
	crb, err := c.WorkV1alpha2().ClusterResourceBindings().Get(ctx, sentinelName, metav1.GetOptions{})
	return err == nil && meta.FindStatusCondition(crb.Status.Conditions, workv1alpha2.Scheduled) != nil
}

// events are the Events the scheduler's recorder created (its sink writes them through the kube client).
func events(c *kubefake.Clientset) []*corev1.Event {
	var out []*corev1.Event
	for _, a := range c.Actions() {
		if a.GetVerb() != "create" || a.GetResource().Resource != "events" {
			continue
		}
		if create, ok := a.(interface{ GetObject() runtime.Object }); ok {
			if e, ok := create.GetObject().(*corev1.Event); ok {
				out = append(out, e)
			}
		}
	}
	return out
}

// poll checks cond every millisecond until it holds or ctx ends.
func poll(ctx context.Context, what string, cond func() bool) error {
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		case <-t.C:
		}
	}
	return nil
}
