package scheduling

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// exported is the state a user exports for lint: `kubectl get clusters`, `deployments -A` and
// `resourcebindings -A`, as YAML files.
type exported struct{ clusters, workloads, bindings string }

// step is one day-two change. edit makes it in the exported files (what the user expects to happen, given
// to lint before the step); apply makes it on the plane. caughtUp says when the binding an acting step
// re-schedules shows it; nil: karmada-scheduler has no reason to re-schedule anything, so after a barrier
// no binding of the examples may have changed at all (placement, generation, observed generation,
// lastScheduledTime, condition).
type step struct {
	name     string
	edit     func(t *testing.T, x *exported)
	apply    func(t *testing.T)
	caughtUp caughtUpFunc
	// rerun, for a rebalance: the workload karmada-scheduler may re-schedule a second time (see
	// secondPass).
	rerun string
}

// runStep predicts the step from the state exported just before it, makes it, and compares; it returns
// the number of bindings compared.
func runStep(t *testing.T, ctx context.Context, e e2eenv.Env, dyn dynamic.Interface, br *barrier,
	policies []string, st step) int {
	t.Helper()
	dir := t.TempDir()
	x := exported{clusters: export(t, e, "clusters", filepath.Join(dir, "clusters.yaml")),
		workloads: export(t, e, "deployments", filepath.Join(dir, "workloads.yaml")),
		bindings:  export(t, e, "resourcebindings", filepath.Join(dir, "bindings.yaml"))}
	st.edit(t, &x)
	want := predict(t, e, x.clusters, x.workloads, x.bindings, policies)
	if len(want) == 0 {
		t.Fatal("lint predicts nothing")
	}
	before := bindingStates(t, ctx, dyn)
	st.apply(t)
	if st.caughtUp == nil {
		br.pass(t, ctx)
		after := bindingStates(t, ctx, dyn)
		for w := range want {
			if before[w] != after[w] {
				t.Errorf("%s changed although karmada-scheduler had nothing to re-schedule:\n  before: %s\n  after:  %s",
					w, before[w], after[w])
			}
		}
	}
	got := scheduled(t, ctx, dyn, want, st.caughtUp, policies)
	if w := st.rerun; w != "" && got[w] != want[w] {
		want = secondPass(t, ctx, e, dyn, x, policies, w, want, got)
	}
	compare(t, want, got)
	for w, p := range want {
		t.Logf("%s: [%s] %s", w, p.Clusters, p.Reason)
	}
	return len(want)
}

// bindingStates is, per workload, everything a re-schedule would touch in its binding.
func bindingStates(t *testing.T, ctx context.Context, dyn dynamic.Interface) map[string]string {
	t.Helper()
	list, err := dyn.Resource(bindingsGVR).Namespace("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, rb := range list.Items {
		kind, _, _ := unstructured.NestedString(rb.Object, "spec", "resource", "kind")
		ns, _, _ := unstructured.NestedString(rb.Object, "spec", "resource", "namespace")
		name, _, _ := unstructured.NestedString(rb.Object, "spec", "resource", "name")
		observed, _, _ := unstructured.NestedInt64(rb.Object, "status", "schedulerObservedGeneration")
		last, _, _ := unstructured.NestedString(rb.Object, "status", "lastScheduledTime")
		affinity, _, _ := unstructured.NestedString(rb.Object, "status", "schedulerObservingAffinityName")
		conds, _, _ := unstructured.NestedSlice(rb.Object, "status", "conditions")
		cond := ""
		for _, c := range conds {
			if m, _ := c.(map[string]any); m["type"] == "Scheduled" {
				cond = fmt.Sprintf("%v/%v/%v/%v", m["status"], m["reason"], m["message"], m["lastTransitionTime"])
			}
		}
		out[kind+"/"+ns+"/"+name] = fmt.Sprintf("clusters=[%s] generation=%d observed=%d lastScheduledTime=%s affinity=%s condition=%s",
			clusterList(&rb), rb.GetGeneration(), observed, last, affinity, cond)
	}
	return out
}

// editList rewrites a `kubectl get -o yaml` List with edit applied to each item; it returns the new file.
func editList(t *testing.T, in, out string, edit func(item *unstructured.Unstructured)) string {
	t.Helper()
	b, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var list map[string]any
	if err := yaml.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	items, _ := list["items"].([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		edit(&unstructured.Unstructured{Object: m})
	}
	b, err = yaml.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// onCluster applies f to the named Cluster only (for editList).
func onCluster(name string, f func(c *unstructured.Unstructured)) func(*unstructured.Unstructured) {
	return func(c *unstructured.Unstructured) {
		if c.GetName() == name {
			f(c)
		}
	}
}

var maintenance = map[string]any{"key": "e2e-maintenance", "effect": "NoSchedule"}

func addTaint(c *unstructured.Unstructured) {
	taints, _, _ := unstructured.NestedSlice(c.Object, "spec", "taints")
	_ = unstructured.SetNestedSlice(c.Object, append(taints, maintenance), "spec", "taints")
}

func removeTaint(c *unstructured.Unstructured) {
	taints, _, _ := unstructured.NestedSlice(c.Object, "spec", "taints")
	var kept []any
	for _, tn := range taints {
		if m, _ := tn.(map[string]any); m["key"] != maintenance["key"] {
			kept = append(kept, tn)
		}
	}
	if len(kept) == 0 {
		unstructured.RemoveNestedField(c.Object, "spec", "taints")
		return
	}
	_ = unstructured.SetNestedSlice(c.Object, kept, "spec", "taints")
}

// scarce takes most of a cluster's free CPU: allocated 15 of its 16 (cluster3's allocatable).
func scarce(c *unstructured.Unstructured) {
	_ = unstructured.SetNestedField(c.Object, "15", "status", "resourceSummary", "allocated", "cpu")
}

// dayTwoOperations are the operations after the pull request's edit: cluster2 (public cloud) tainted
// NoSchedule, a scale-up that must avoid it, cluster3's CPU made scarce, the taint removed, and a
// WorkloadRebalancer. The taint, the status edit and the untaint make karmada-scheduler move nothing
// (nginx-overflow is Divided and targets neither cluster2 before nor the changed fields matter; status
// changes enqueue nothing at all); the scale-up and the rebalancer re-schedule. It returns the steps run
// and the bindings compared.
func dayTwoOperations(t *testing.T, ctx context.Context, e e2eenv.Env, dyn dynamic.Interface,
	clustersFile string, policies []string) (int, int) {
	t.Helper()
	const workload = "Deployment/default/nginx-overflow"
	br := newBarrier(t, ctx, e, dyn, clustersFile)
	rebalancer := filepath.Join(t.TempDir(), "rebalancer.yaml")
	if err := os.WriteFile(rebalancer, []byte(`apiVersion: apps.karmada.io/v1alpha1
kind: WorkloadRebalancer
metadata:
  name: e2e-nginx-overflow
spec:
  workloads:
    - apiVersion: apps/v1
      kind: Deployment
      name: nginx-overflow
      namespace: default
`), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []step{
		{name: "taint cluster2 NoSchedule",
			edit: func(t *testing.T, x *exported) {
				x.clusters = editList(t, x.clusters, x.clusters+".next", onCluster("cluster2", addTaint))
			},
			apply: func(t *testing.T) { e2eenv.UpdateCluster(t, ctx, dyn, "cluster2", addTaint) }},
		{name: "scale nginx-overflow to 30 with cluster2 tainted",
			edit: func(t *testing.T, x *exported) {
				x.workloads = editList(t, x.workloads, x.workloads+".next", func(d *unstructured.Unstructured) {
					if d.GetName() == "nginx-overflow" {
						_ = unstructured.SetNestedField(d.Object, int64(30), "spec", "replicas")
					}
				})
			},
			apply: func(t *testing.T) {
				if out, code := e.KubectlRun(t, "scale", "deployment", "nginx-overflow", "-n", "default", "--replicas", "30"); code != 0 {
					t.Fatalf("kubectl scale: %s", out)
				}
			},
			caughtUp: func(w string, rb *unstructured.Unstructured) bool {
				n, _, _ := unstructured.NestedInt64(rb.Object, "spec", "replicas")
				return w != workload || n == 30
			}},
		{name: "cluster3's CPU scarce (status.resourceSummary)",
			edit: func(t *testing.T, x *exported) {
				x.clusters = editList(t, x.clusters, x.clusters+".next", onCluster("cluster3", scarce))
			},
			apply: func(t *testing.T) { e2eenv.UpdateClusterStatus(t, ctx, dyn, "cluster3", scarce) }},
		{name: "cluster2's taint removed",
			edit: func(t *testing.T, x *exported) {
				x.clusters = editList(t, x.clusters, x.clusters+".next", onCluster("cluster2", removeTaint))
			},
			apply: func(t *testing.T) { e2eenv.UpdateCluster(t, ctx, dyn, "cluster2", removeTaint) }},
		{name: "WorkloadRebalancer for nginx-overflow",
			// The controller sets the binding's spec.rescheduleTriggeredAt to the rebalancer's creation
			// time, which must be after status.lastScheduledTime (both at one-second precision) for a Fresh
			// re-schedule: wait until the clock has passed the last schedule's second, then predict with the
			// trigger set to now.
			edit: func(t *testing.T, x *exported) {
				x.bindings = editList(t, x.bindings, x.bindings+".next", func(rb *unstructured.Unstructured) {
					if name, _, _ := unstructured.NestedString(rb.Object, "spec", "resource", "name"); name != "nginx-overflow" {
						return
					}
					last, _, _ := unstructured.NestedString(rb.Object, "status", "lastScheduledTime")
					waitClockPast(t, last)
					now := time.Now().UTC().Truncate(time.Second).Format(time.RFC3339)
					_ = unstructured.SetNestedField(rb.Object, now, "spec", "rescheduleTriggeredAt")
				})
			},
			apply: func(t *testing.T) {
				if out, code := e.KubectlRun(t, "apply", "-f", rebalancer); code != 0 {
					t.Fatalf("kubectl apply the WorkloadRebalancer: %s", out)
				}
			},
			caughtUp: func(w string, rb *unstructured.Unstructured) bool {
				at, _, _ := unstructured.NestedString(rb.Object, "spec", "rescheduleTriggeredAt")
				return w != workload || at != ""
			},
			rerun: workload},
	}
	done, compared := 0, 0
	for _, st := range steps {
		if !t.Run(st.name, func(t *testing.T) { compared += runStep(t, ctx, e, dyn, br, policies, st) }) {
			break // the next steps build on this one
		}
		done++
	}
	return done, compared
}
