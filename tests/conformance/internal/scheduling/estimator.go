package scheduling

import (
	"context"
	"fmt"
	"net"
	"os"
	"path"
	"reflect"
	"sort"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"google.golang.org/grpc"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/karmada-io/karmada/cmd/scheduler-estimator/app/options"
	estimatorclient "github.com/karmada-io/karmada/pkg/estimator/client"
	estimatorserver "github.com/karmada-io/karmada/pkg/estimator/server"
	estimatorservice "github.com/karmada-io/karmada/pkg/estimator/service"
	"github.com/karmada-io/karmada/pkg/scheduler"
	"github.com/karmada-io/karmada/pkg/util/fedinformer/genericmanager"
	"github.com/karmada-io/karmada/pkg/util/names"
)

// karmada-scheduler's flag defaults for the estimator connection (cmd/scheduler/app/options/options.go
// of every pinned release): the estimator of cluster C is the Service
// karmada-system/karmada-scheduler-estimator-C, port 10352. The call's timeout is not the flag's 3 s: a
// call that times out is dropped like a failed one (calAvailableReplicas), and on this shared machine
// (load 20-30) a 3 s bound would make the answer depend on the load rather than on the input. Karmada's
// estimator answers in milliseconds; the bound only turns a hang into the fallback.
const (
	estimatorServiceNamespace = names.NamespaceKarmadaSystem
	estimatorServicePrefix    = names.KarmadaSchedulerEstimatorComponentName
	estimatorPort             = 10352
	estimatorTimeout          = time.Minute
	// estimator-side --parallelism default (cmd/scheduler-estimator/app/options).
	estimatorParallelism = 16
)

// member is one cluster's state for its karmada-scheduler-estimator: the Nodes and Pods its
// kube-apiserver would list.
type member struct {
	nodes []*corev1.Node
	pods  []*corev1.Pod
}

// objects are the member's Nodes and Pods as a fake clientset holds them.
func (m member) objects() []runtime.Object {
	out := make([]runtime.Object, 0, len(m.nodes)+len(m.pods))
	for _, n := range m.nodes {
		out = append(out, n.DeepCopy())
	}
	for _, p := range m.pods {
		out = append(out, p.DeepCopy())
	}
	return out
}

// cached is how many nodes and pods the estimator's cache holds once its handlers have seen the member:
// the pods bound to a node and not finished (the pod informer's field selector, eventhandlers.go
// assignedPod), and a node for every Node and every node such a pod names (the cache keeps a placeholder
// for a pod's node it has not seen).
func (m member) cached() (nodes, pods int) {
	names := map[string]bool{}
	for _, n := range m.nodes {
		names[n.Name] = true
	}
	for _, p := range m.pods {
		if p.Spec.NodeName == "" || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
			continue
		}
		names[p.Spec.NodeName] = true
		pods++
	}
	return len(names), pods
}

// estimators are the running karmada-scheduler-estimators of one dry run and the Services through which
// karmada-scheduler's estimator client finds them.
type estimators struct {
	services []runtime.Object // for the scheduler's kube client
	stops    []func()
}

func (e *estimators) stop() {
	for _, s := range e.stops {
		s()
	}
}

// startEstimators starts Karmada's estimator server for every cluster with a member state, each serving
// gRPC on its own 127.0.0.1 ephemeral port, and returns the Services karmada-scheduler resolves:
//
//   - a cluster with state gets the ExternalName Service the estimator client supports
//     (pkg/estimator/client/service.go resolveCluster), host 127.0.0.1, targetPort the server's port;
//   - a cluster without state gets a ClusterIP Service, which resolveCluster refuses at once ("unsupported
//     service type"): the cluster has no connection in the scheduler's estimator cache, so the accurate
//     estimator's call for it fails, exactly as for an estimator that cannot be reached. Without any
//     Service the client would dial <svc>.karmada-system.svc.cluster.local for 5 s per address instead,
//     with the same outcome, slowly.
func startEstimators(ctx context.Context, clusters []string, state map[string]member) (*estimators, error) {
	if !protoMessageTag {
		return nil, fmt.Errorf("karmada-scheduler-estimator needs the oracle built with -tags %s, as Karmada's hack/build.sh builds it (protomessage.go)", protoMessageBuildTag)
	}
	sorted := append([]string(nil), clusters...)
	sort.Strings(sorted)
	// The servers start at once, as the members' estimators run side by side: each start waits on
	// client-go's WaitForCacheSync, which polls every 100 ms.
	type started struct {
		addr string
		stop func()
		err  error
	}
	results := make([]started, len(sorted))
	var wg sync.WaitGroup
	for i, name := range sorted {
		m, ok := state[name]
		if !ok {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			addr, stop, err := serveEstimator(ctx, name, m)
			results[i] = started{addr, stop, err}
		}()
	}
	wg.Wait()
	e := &estimators{}
	var firstErr error
	for i, name := range sorted {
		svc := &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Namespace: estimatorServiceNamespace,
				Name: names.GenerateEstimatorServiceName(estimatorServicePrefix, name)},
			Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP,
				Ports: []corev1.ServicePort{{Port: estimatorPort, TargetPort: intstr.FromInt32(estimatorPort)}}},
		}
		r := results[i]
		if r.stop != nil {
			e.stops = append(e.stops, r.stop)
		}
		if r.err != nil && firstErr == nil {
			firstErr = fmt.Errorf("karmada-scheduler-estimator of cluster %s: %w", name, r.err)
		}
		if r.addr != "" && firstErr == nil {
			host, port, err := net.SplitHostPort(r.addr)
			if err != nil {
				firstErr = err
				continue
			}
			p, err := strconv.Atoi(port)
			if err != nil {
				firstErr = err
				continue
			}
			svc.Spec.Type = corev1.ServiceTypeExternalName
			svc.Spec.ExternalName = host
			svc.Spec.Ports[0].TargetPort = intstr.FromInt(p)
		}
		e.services = append(e.services, svc)
	}
	if firstErr != nil {
		e.stop()
		return nil, firstErr
	}
	return e, nil
}

// serveEstimator builds Karmada's AccurateSchedulerEstimatorServer (NewEstimatorServer, the release's own
// plugins and cache) over a fake clientset holding the member's Nodes and Pods, waits until its informers
// have synced, and serves its gRPC service on 127.0.0.1:0. It returns the address and the stop.
//
// The server's Start does exactly this but listens on ":<ServerPort>" (every interface, a fixed port);
// the informers it starts are unexported fields, so they are taken by reflection (fieldOf) and started
// here in Start's order, before the listener.
func serveEstimator(parent context.Context, cluster string, m member) (string, func(), error) {
	ctx, cancel := context.WithCancel(parent)
	kubeClient := kubefake.NewSimpleClientset(m.objects()...) //nolint:staticcheck // field management is not read
	filterTerminalPodLists(kubeClient)
	dynamicClient := newEstimatorDynamicClient()
	opts := options.NewOptions()
	opts.ClusterName = cluster
	opts.Parallelism = estimatorParallelism
	es, err := estimatorserver.NewEstimatorServer(ctx, kubeClient, dynamicClient, kubeClient.Discovery(), opts)
	if err != nil {
		cancel()
		return "", nil, err
	}
	factory, err := fieldOf[informers.SharedInformerFactory](es, "informerFactory")
	if err != nil {
		cancel()
		return "", nil, err
	}
	manager, err := fieldOf[genericmanager.SingleClusterInformerManager](es, "informerManager")
	if err != nil {
		cancel()
		return "", nil, err
	}
	factory.Start(ctx.Done())
	for typ, synced := range factory.WaitForCacheSync(ctx.Done()) {
		if !synced {
			cancel()
			return "", nil, fmt.Errorf("informer of %v did not sync", typ)
		}
	}
	manager.Start()
	if synced := manager.WaitForCacheSync(); synced == nil {
		cancel()
		return "", nil, fmt.Errorf("informer factory for cluster does not exist")
	}
	// WaitForCacheSync covers the informers' stores, not their handlers: Karmada's handlers
	// (eventhandlers.go) fill es.Cache asynchronously, and a request served before they are done estimates
	// on part of the member. A long-running estimator is past that point; so is this one before it serves.
	nodes, pods := m.cached()
	filled, stopWaiting := context.WithTimeout(ctx, schedulerDeadline)
	defer stopWaiting()
	if err := poll(filled, "the estimator's cache to hold the member's nodes and pods", func() bool {
		n, _ := es.Cache.PodCount()
		return es.Cache.NodeCount() == nodes && n == pods
	}); err != nil {
		cancel()
		return "", nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cancel()
		return "", nil, err
	}
	s, err := newEstimatorGRPCServer(es, cluster)
	if err != nil {
		cancel()
		_ = l.Close()
		return "", nil, err
	}
	estimatorservice.RegisterEstimatorServer(s, es)
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = s.Serve(l)
	}()
	stop := func() {
		s.Stop()
		<-served
		cancel()
	}
	return l.Addr().String(), stop, nil
}

// fieldOf reads the unexported field name of the struct obj points to. A release that renames it fails
// here, loudly, rather than running with what nobody started or closed.
func fieldOf[T any](obj any, name string) (T, error) {
	var zero T
	f := reflect.ValueOf(obj).Elem().FieldByName(name)
	if !f.IsValid() {
		return zero, fmt.Errorf("%T has no field %s", obj, name)
	}
	v, ok := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(T)
	if !ok {
		return zero, fmt.Errorf("%T.%s is a %s", obj, name, f.Type())
	}
	return v, nil
}

// closeEstimatorConnections closes the scheduler's gRPC connections to the estimators (its
// SchedulerEstimatorCache, which karmada-scheduler never closes: it lives as long as the process). A batch
// process runs hundreds of dry runs; each one's connections would otherwise keep redialling a stopped
// server.
func closeEstimatorConnections(sched *scheduler.Scheduler, clusters []string) error {
	cache, err := fieldOf[*estimatorclient.SchedulerEstimatorCache](sched, "schedulerEstimatorCache")
	if err != nil {
		return err
	}
	for _, c := range clusters {
		cache.DeleteCluster(c)
	}
	return nil
}

// The estimator's pod informer lists with the field selector status.phase!=Succeeded,status.phase!=Failed
// (server.go newPodInformer), which kube-apiserver applies; the fake clientset ignores field selectors, so
// this reactor applies that one (the only one the estimator sends) to pod lists.
func filterTerminalPodLists(c *kubefake.Clientset) {
	c.PrependReactor("list", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		list, ok := action.(clienttesting.ListAction)
		if !ok {
			return false, nil, nil
		}
		sel := list.GetListRestrictions().Fields
		if sel == nil || sel.Empty() {
			return false, nil, nil
		}
		obj, err := c.Tracker().List(corev1.SchemeGroupVersion.WithResource("pods"), corev1.SchemeGroupVersion.WithKind("Pod"), list.GetNamespace())
		if err != nil {
			return true, nil, err
		}
		pods := obj.(*corev1.PodList)
		kept := pods.Items[:0]
		for _, p := range pods.Items {
			if sel.Matches(podFields(&p)) {
				kept = append(kept, p)
			}
		}
		pods.Items = kept
		return true, pods, nil
	})
}

// newEstimatorDynamicClient is the dynamic client the estimator's single-cluster informer manager lists
// Deployments with (server.go supportedGVRs; read only by GetUnschedulableReplicas, the descheduler's).
func newEstimatorDynamicClient() *dynamicfake.FakeDynamicClient {
	gvr := appsv1.SchemeGroupVersion.WithResource("deployments")
	return dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{gvr: "DeploymentList"})
}

// podFields are the Pod fields kube-apiserver's field selectors read (k8s.io/kubernetes pkg/registry/core/pod
// ToSelectableFields: the ones the estimator's selector names, and the common ones).
func podFields(p *corev1.Pod) fields.Set {
	return fields.Set{
		"metadata.name":      p.Name,
		"metadata.namespace": p.Namespace,
		"spec.nodeName":      p.Spec.NodeName,
		"status.phase":       string(p.Status.Phase),
	}
}

// unregisterAccurateEstimator removes what estimatorclient.RegisterSchedulerEstimator added (the general
// estimator, registered by the package's init, stays).
func unregisterAccurateEstimator() {
	delete(estimatorclient.GetReplicaEstimators(), accurateEstimatorName)
	delete(estimatorclient.GetUnschedulableReplicaEstimators(), accurateEstimatorName)
}

// protoMessageBuildTag is the build tag of protomessage.go.
const protoMessageBuildTag = "kubernetes_protomessage_one_more_release"

// accurateEstimatorName is the key RegisterSchedulerEstimator uses (pkg/estimator/client/accurate.go).
const accurateEstimatorName = "scheduler-estimator"

// traceEnv, when set, makes each estimator print every call it answers to stderr (cluster, method,
// request, answer): what karmada-scheduler-estimator's klog lines at -v=4 say, for explaining a case.
const traceEnv = "KARMADA_ORACLE_ESTIMATOR_TRACE"

// newEstimatorGRPCServer is es.GrpcConfig.NewServer() (no TLS: the oracle sets no certificates), with
// the tracing interceptor when traceEnv is set.
func newEstimatorGRPCServer(es *estimatorserver.AccurateSchedulerEstimatorServer, cluster string) (*grpc.Server, error) {
	if os.Getenv(traceEnv) == "" {
		return es.GrpcConfig.NewServer()
	}
	return grpc.NewServer(grpc.UnaryInterceptor(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		resp, err := h(ctx, req)
		fmt.Fprintf(os.Stderr, "estimator %s %s: %v -> %v (error: %v)\n", cluster, path.Base(info.FullMethod), req, resp, err)
		return resp, err
	})), nil
}
