package members

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
	"karmada-policy-webhook/tests/e2e/internal/plane"
	"karmada-policy-webhook/tests/e2e/internal/proc"
)

const failoverNS = "members-failover"

// notReadyTaint is the NoExecute taint the test's ClusterTaintPolicy puts on an IDC Cluster that is not
// Ready (and takes off once it is Ready again): in Karmada v1.18.2 the cluster controller itself taints a
// NotReady Cluster NoSchedule only (cluster.karmada.io/not-ready), which evicts nothing.
const notReadyTaint = "members.e2e.karmada.io/not-ready"

// notReadyTaintPolicy is the ClusterTaintPolicy an operator configures for cluster failover: an IDC
// Cluster that is not Ready gets the NoExecute taint notReadyTaint, which goes once it is Ready again.
const notReadyTaintPolicy = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterTaintPolicy
metadata: {name: members-e2e-not-ready}
spec:
  targetClusters: {labelSelector: {matchLabels: {location: idc}}}
  addOnConditions: [{conditionType: Ready, operator: NotIn, statusValues: ["True"]}]
  removeOnConditions: [{conditionType: Ready, operator: In, statusValues: ["True"]}]
  taints: [{key: ` + notReadyTaint + `, effect: NoExecute}]
`

const failoverManifests = notReadyTaintPolicy + `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: shop, namespace: members-failover}
spec:
  replicas: 2
  selector: {matchLabels: {app: shop}}
  template:
    metadata: {labels: {app: shop}}
    spec:
      containers:
      - name: shop
        image: registry.example.com/shop:1
        resources: {requests: {cpu: 100m, memory: 128Mi}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: shop, namespace: members-failover}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: shop}]
  placement:
    clusterAffinities:
    - affinityName: idc
      labelSelector: {matchLabels: {location: idc}}
    - affinityName: cloud
      labelSelector: {matchLabels: {location: cloud}}
`

// TestClusterFailover: the IDC member's kube-apiserver is killed. Karmada's cluster-status controller
// marks the Cluster Ready=False (after --cluster-failure-threshold, 30 s), its cluster controller taints
// it cluster.karmada.io/not-ready:NoSchedule, the ClusterTaintPolicy adds a NoExecute taint, the taint
// manager (Failover gate, --enable-no-execute-taint-eviction) evicts the binding from it gracefully and
// karmada-scheduler moves the workload to the next clusterAffinities term, the cloud member, where its
// pods run. The API server is started again: the Cluster becomes Ready, both taints go, Karmada removes
// the evicted copy from the member, and the binding stays on the cloud (Karmada does not fail back).
func TestClusterFailover(t *testing.T) {
	e := e2eenv.Get(t)
	ms := e.RequireMembers(t, 2)
	if !failoverOn(t, e) {
		t.Skip("needs cluster failover on: control-plane.sh up DIR --members 2 --failover")
	}
	ctx := context.Background()
	dyn := e.Dynamic(t)
	ensureNodes(t, ctx, e, dyn, ms)
	idc, cloud := byLocation(t, ms, "idc"), byLocation(t, ms, "cloud")

	e.EnsureNamespaces(t, failoverNS)
	t.Cleanup(func() {
		deleteWorkload(t, e, failoverNS, "shop")
		e.KubectlRun(t, "delete", "clustertaintpolicy", "members-e2e-not-ready", "--ignore-not-found")
	})
	if out, code := kubectlIn(t, e, failoverManifests, "apply", "-f", "-"); code != 0 {
		t.Fatal(out)
	}
	const rb = "shop-deployment"
	waitBinding(t, ctx, dyn, rb, "idc", idc.Name+"=2")
	waitPods(t, e, idc, failoverNS, "app=shop", 2)

	restart := killMemberAPIServer(t, e, idc)
	waitClusterDown(t, ctx, dyn, idc.Name)
	waitBinding(t, ctx, dyn, rb, "cloud", cloud.Name+"=2")
	// The taint manager's event (recorded asynchronously: the scheduler may have acted on the eviction first).
	e2eenv.WaitFor(t, "the taint manager's EvictWorkloadFromClusterSucceed event for "+idc.Name+" on "+rb, time.Minute, func() bool {
		return evicted(t, e, failoverNS, rb, idc.Name)
	})
	waitPods(t, e, cloud, failoverNS, "app=shop", 2)
	waitEvictionDone(t, ctx, dyn, failoverNS, rb, idc.Name)

	restart()
	waitClusterBack(t, ctx, dyn, idc.Name)
	waitEvictedCopyGone(t, e, idc, failoverNS)
	// No fail-back: the untaint is a Cluster event karmada-scheduler handles (pkg/scheduler/
	// event_handler.go); by the time the member's copy is gone it has, and the binding is where the
	// failover put it.
	b, err := dyn.Resource(bindingsGVR).Namespace(failoverNS).Get(ctx, rb, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := clustersOf(b); got != cloud.Name+"=2" {
		t.Errorf("after %s came back the binding is on %s, want %s=2 (no fail-back)", idc.Name, got, cloud.Name)
	}
}

// waitClusterDown waits until Karmada's cluster-status controller has marked the Cluster Ready=False
// (after --cluster-failure-threshold, 30 s), its cluster controller has tainted it
// cluster.karmada.io/not-ready:NoSchedule and the ClusterTaintPolicy notReadyTaint:NoExecute.
func waitClusterDown(t *testing.T, ctx context.Context, dyn dynamic.Interface, name string) {
	t.Helper()
	e2eenv.WaitFor(t, name+" Ready=False and tainted NoSchedule (Karmada) and NoExecute (the policy)", 3*time.Minute, func() bool {
		c, err := dyn.Resource(clustersGVR).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false
		}
		status, _ := condition(c.Object, "Ready", "status")
		taints := taintsOf(c)
		return status == "False" && slices.Contains(taints, "cluster.karmada.io/not-ready:NoSchedule") &&
			slices.Contains(taints, notReadyTaint+":NoExecute")
	})
}

// waitClusterBack waits until the Cluster is Ready again and both taints are gone.
func waitClusterBack(t *testing.T, ctx context.Context, dyn dynamic.Interface, name string) {
	t.Helper()
	e2eenv.WaitFor(t, name+" Ready again and both taints gone", 3*time.Minute, func() bool {
		c, err := dyn.Resource(clustersGVR).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false
		}
		status, _ := condition(c.Object, "Ready", "status")
		return status == "True" && len(taintsOf(c)) == 0
	})
}

// waitEvictionDone waits until the graceful eviction task the taint manager left on the binding for the
// cluster is gone: the gracefulEviction controller removes it once the new clusters' replicas are healthy,
// not after --graceful-eviction-timeout (10 min).
func waitEvictionDone(t *testing.T, ctx context.Context, dyn dynamic.Interface, ns, rb, cluster string) {
	t.Helper()
	e2eenv.WaitFor(t, "the binding's graceful eviction task for "+cluster+" to be done", 2*time.Minute, func() bool {
		b, err := dyn.Resource(bindingsGVR).Namespace(ns).Get(ctx, rb, metav1.GetOptions{})
		if err != nil {
			return false
		}
		tasks, _, _ := unstructured.NestedSlice(b.Object, "spec", "gracefulEvictionTasks")
		return len(tasks) == 0
	})
}

// waitEvictedCopyGone waits until Karmada has removed the evicted copy from a member that came back: its
// Work was deleted while the member was away, and the execution controller keeps a Work's finalizer while
// its cluster is not Ready (pkg/controllers/execution/execution_controller.go:178-186 in Karmada
// v1.18.2), so once the member is back Karmada deletes the Deployment there and the member's garbage
// collector its pods.
func waitEvictedCopyGone(t *testing.T, e e2eenv.Env, m e2eenv.Member, ns string) {
	t.Helper()
	e2eenv.WaitFor(t, "Karmada to remove the evicted copy in "+ns+" from "+m.Name+" once it is back", 3*time.Minute, func() bool {
		out, code := e.MemberKubectl(t, m, "", "get", "deployments,pods", "-n", ns, "-o", "name")
		return code == 0 && strings.TrimSpace(out) == ""
	})
}

// failoverOn says whether the plane's karmada-controller-manager runs with the Failover gate.
func failoverOn(t *testing.T, e e2eenv.Env) bool {
	t.Helper()
	for _, c := range e.Components(t) {
		if c.Name == "karmada-controller-manager" {
			return strings.Contains(strings.Join(c.Args, " "), "Failover=true")
		}
	}
	return false
}

func taintsOf(c *unstructured.Unstructured) []string {
	ts, _, _ := unstructured.NestedSlice(c.Object, "spec", "taints")
	var out []string
	for _, t := range ts {
		m, _ := t.(map[string]any)
		out = append(out, fmt.Sprintf("%v:%v", m["key"], m["effect"]))
	}
	return out
}

func clustersOf(rb *unstructured.Unstructured) string {
	cs, _, _ := unstructured.NestedSlice(rb.Object, "spec", "clusters")
	var out []string
	for _, c := range cs {
		m, _ := c.(map[string]any)
		out = append(out, fmt.Sprintf("%v=%v", m["name"], m["replicas"]))
	}
	slices.Sort(out)
	return strings.Join(out, ",")
}

// waitBinding waits until karmada-scheduler has placed the binding on clusters in the affinity term.
func waitBinding(t *testing.T, ctx context.Context, dyn dynamic.Interface, name, affinity, clusters string) {
	t.Helper()
	e2eenv.WaitFor(t, fmt.Sprintf("binding %s on [%s] in term %s", name, clusters, affinity), 3*time.Minute, func() bool {
		b, err := dyn.Resource(bindingsGVR).Namespace(failoverNS).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false
		}
		observed, _, _ := unstructured.NestedInt64(b.Object, "status", "schedulerObservedGeneration")
		a, _, _ := unstructured.NestedString(b.Object, "status", "schedulerObservingAffinityName")
		return observed >= b.GetGeneration() && a == affinity && clustersOf(b) == clusters
	})
}

// waitPods waits until n pods of the selector run on the member's nodes.
func waitPods(t *testing.T, e e2eenv.Env, m e2eenv.Member, ns, selector string, n int) {
	t.Helper()
	e2eenv.WaitFor(t, fmt.Sprintf("%d pods %s Running on %s", n, selector, m.Name), 2*time.Minute, func() bool {
		out, code := e.MemberKubectl(t, m, "", "get", "pods", "-n", ns, "-l", selector, "-o",
			`jsonpath={range .items[*]}{.status.phase}{"\n"}{end}`)
		return code == 0 && strings.Count(out, "Running") == n
	})
}

// evicted says whether the taint manager recorded evicting the binding from the cluster (its event,
// pkg/util/helper/binding.go:501 in Karmada v1.18.2).
func evicted(t *testing.T, e e2eenv.Env, ns, rb, cluster string) bool {
	t.Helper()
	out, code := e.KubectlRun(t, "get", "events", "-n", ns, "--field-selector",
		"involvedObject.kind=ResourceBinding,involvedObject.name="+rb+",reason=EvictWorkloadFromClusterSucceed",
		"-o", "jsonpath={.items[*].message}")
	return code == 0 && strings.Contains(out, "Evict from cluster "+cluster+" succeed")
}

// killMemberAPIServer kills the member's kube-apiserver (SIGKILL: the member is gone at once, as when
// its network or machine fails) and returns the function that starts it again with the same command
// line, environment and directory (on the same etcd prefix: the member's objects are still there),
// records the new pid for `down` and in components.json, and waits until it answers. A test that fails
// before calling it still gets the member back (cleanup).
func killMemberAPIServer(t *testing.T, e e2eenv.Env, m e2eenv.Member) func() {
	t.Helper()
	name := m.Name + "/kube-apiserver"
	cs := e.Components(t)
	i := slices.IndexFunc(cs, func(c e2eenv.Component) bool { return c.Name == name })
	recorded, err := proc.Recorded(plane.PidFile(e.Dir))
	if err != nil {
		t.Fatal(err)
	}
	if i < 0 || !slices.Contains(recorded, cs[i].Pid) {
		t.Fatalf("no running %s among the plane's recorded processes %v", name, recorded)
	}
	stopped := e2eenv.Stop(t, name, cs[i].Pid, syscall.SIGKILL, 30*time.Second)
	restarted := false
	start := func() {
		t.Helper()
		restarted = true
		process, log := stopped.Start(t, e, m.Name+"-kube-apiserver-restarted.log")
		cs := e.Components(t)
		if j := slices.IndexFunc(cs, func(c e2eenv.Component) bool { return c.Name == name }); j >= 0 {
			cs[j].Pid, cs[j].Log = process.Pid, log
			e.WriteComponents(t, cs)
		}
		e2eenv.WaitFor(t, name+" to answer again", 2*time.Minute, func() bool {
			_, code := e.MemberKubectl(t, m, "", "get", "--raw", "/readyz")
			return code == 0
		})
		t.Logf("%s restarted (pid %d)", name, process.Pid)
	}
	t.Cleanup(func() {
		if !restarted {
			start()
		}
	})
	return start
}
