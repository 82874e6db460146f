package scheduling

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// scenario is the part of a drill (karmada-policy-webhook.io/v1alpha1 Scenario) this plane can play: the
// steps whose Karmada side runs here. taint/untaint could too; clusterDown/clusterUp need the
// cluster-status and cluster controllers, which do not run (docs/e2e.md).
type scenario struct {
	Steps []struct {
		Name  string `json:"name"`
		Scale *struct {
			Workload string `json:"workload"`
			Replicas int64  `json:"replicas"`
		} `json:"scale"`
		SetResources *struct {
			Cluster   string            `json:"cluster"`
			Allocated map[string]string `json:"allocated"`
		} `json:"setResources"`
		Wait *struct {
			Duration string `json:"duration"`
		} `json:"wait"`
		Rebalance *struct {
			Workloads []string `json:"workloads"`
		} `json:"rebalance"`
	} `json:"steps"`
}

// simulation is `simulate -o json`: per step (0 = the initial placement), each workload's placement.
type simulation struct {
	Steps []struct {
		Name      string `json:"name"`
		Workloads []struct {
			Workload struct {
				Kind, Namespace, Name string
			} `json:"workload"`
			Scheduled    bool   `json:"scheduled"`
			AffinityName string `json:"affinityName"`
			Clusters     []struct {
				Name     string `json:"name"`
				Replicas int64  `json:"replicas"`
			} `json:"clusters"`
			Condition struct {
				Reason, Message string
			} `json:"condition"`
		} `json:"workloads"`
	} `json:"steps"`
}

// placements is one simulated step in the form the bindings are read in.
func (s simulation) placements(step int) map[string]placement {
	out := map[string]placement{}
	for _, w := range s.Steps[step].Workloads {
		var cs []string
		for _, c := range w.Clusters {
			cs = append(cs, fmt.Sprintf("%s=%d", c.Name, c.Replicas))
		}
		sort.Strings(cs)
		out[w.Workload.Kind+"/"+w.Workload.Namespace+"/"+w.Workload.Name] = placement{Scheduled: w.Scheduled,
			AffinityName: w.AffinityName, Clusters: strings.Join(cs, ","), Reason: w.Condition.Reason,
			Message: w.Condition.Message}
	}
	return out
}

// TestDrillHybridCloudOverflow plays manifests/examples/drills/hybrid-cloud-overflow.yaml on the plane,
// step by step, and compares every binding after each step with what `simulate` said, before anything was
// applied, that step would leave. The drill's workload and policy run in a namespace of their own, so
// that the other scheduling test's workloads are not touched. simulate assumes the members run what they
// are given (placed replicas are charged to the clusters' allocated resources between steps); with no
// member here, the test writes those charges into the Clusters' status as the cluster-status controller
// would report them.
func TestDrillHybridCloudOverflow(t *testing.T) {
	e := e2eenv.Get(t)
	ctx := context.Background()
	dyn := e.Dynamic(t)
	ex := filepath.Join(e.Repo, "manifests/examples")
	const ns = "drill-hybrid"
	dir := t.TempDir()
	workloads := inNamespace(t, filepath.Join(ex, "workloads.yaml"), filepath.Join(dir, "workloads.yaml"), "nginx-overflow", ns)
	policy := replaceIn(t, filepath.Join(ex, "overflow-onprem-cloud.yaml"), filepath.Join(dir, "policy.yaml"),
		"namespace: default", "namespace: "+ns)
	drill := replaceIn(t, filepath.Join(ex, "drills/hybrid-cloud-overflow.yaml"), filepath.Join(dir, "drill.yaml"),
		"Deployment/default/", "Deployment/"+ns+"/")
	clusters := filepath.Join(ex, "clusters.yaml")

	out, code := e2eenv.Run(t, e.Lint, "simulate", "-o", "json", "--clusters", clusters, "--workloads", workloads,
		"--scenario", drill, policy)
	if code > 1 {
		t.Fatalf("simulate exited %d:\n%s", code, out)
	}
	var sim simulation
	if err := json.Unmarshal([]byte(out), &sim); err != nil {
		t.Fatalf("simulate -o json: %v\n%s", err, out)
	}
	var sc scenario
	if b, err := os.ReadFile(drill); err != nil {
		t.Fatal(err)
	} else if err := yaml.Unmarshal(b, &sc); err != nil {
		t.Fatal(err)
	}
	if len(sim.Steps) != len(sc.Steps)+1 {
		t.Fatalf("simulate reports %d steps for a drill of %d (+ the initial placement)", len(sim.Steps), len(sc.Steps))
	}

	e.EnsureNamespaces(t, ns)
	createClusters(t, ctx, dyn, clusters)
	br := newBarrier(t, ctx, e, dyn, clusters)
	members := &members{workload: "Deployment/" + ns + "/nginx-overflow", request: requests(t, workloads),
		running: map[string]int64{}}
	ok := t.Run(sim.Steps[0].Name, func(t *testing.T) {
		for _, f := range []string{policy, workloads} {
			if out, code := e.KubectlRun(t, "apply", "-f", f); code != 0 {
				t.Fatalf("kubectl apply -f %s: %s", f, out)
			}
		}
		want := sim.placements(0)
		compare(t, want, scheduled(t, ctx, dyn, want, nil))
		members.run(t, ctx, dyn, br)
	})
	for i, st := range sc.Steps {
		if !ok {
			return // the next steps build on this one
		}
		ok = t.Run(st.Name, func(t *testing.T) {
			want := sim.placements(i + 1)
			before := bindingStates(t, ctx, dyn)
			var caughtUp caughtUpFunc
			switch {
			case st.Scale != nil:
				kind, wns, name := splitRef(t, st.Scale.Workload)
				if out, code := e.KubectlRun(t, "scale", strings.ToLower(kind), name, "-n", wns, "--replicas",
					fmt.Sprint(st.Scale.Replicas)); code != 0 {
					t.Fatalf("kubectl scale: %s", out)
				}
				caughtUp = func(w string, rb *unstructured.Unstructured) bool {
					n, _, _ := unstructured.NestedInt64(rb.Object, "spec", "replicas")
					return w != st.Scale.Workload || n == st.Scale.Replicas
				}
			case st.SetResources != nil:
				updateClusterStatus(t, ctx, dyn, st.SetResources.Cluster, func(c *unstructured.Unstructured) {
					for k, v := range st.SetResources.Allocated {
						_ = unstructured.SetNestedField(c.Object, v, "status", "resourceSummary", "allocated", k)
					}
				})
			case st.Wait != nil:
				// Time is not waited out: nothing in Karmada acts on this binding with time (no resync; no
				// eviction task or unschedulable binding pending), which the barrier below checks.
			case st.Rebalance != nil:
				caughtUp = rebalance(t, ctx, e, dyn, fmt.Sprintf("drill-%s-%d", ns, i), st.Rebalance.Workloads)
			default:
				t.Fatalf("step %q: a kind this plane cannot play", st.Name)
			}
			if caughtUp == nil { // nothing to re-schedule: after the barrier, nothing may have changed
				br.pass(t, ctx)
				after := bindingStates(t, ctx, dyn)
				for w := range want {
					if before[w] != after[w] {
						t.Errorf("%s changed:\n  before: %s\n  after:  %s", w, before[w], after[w])
					}
				}
			}
			compare(t, want, scheduled(t, ctx, dyn, want, caughtUp))
			for w, p := range want {
				t.Logf("%s: [%s] %s", w, p.Clusters, p.Reason)
			}
			members.run(t, ctx, dyn, br)
		})
	}
}

// rebalance creates a WorkloadRebalancer for workloads ("Kind/namespace/name") once the clock has passed
// each binding's lastScheduledTime second (the controller's trigger is the rebalancer's creation time,
// which Karmada compares strictly at one-second precision), and says when the bindings carry the trigger.
func rebalance(t *testing.T, ctx context.Context, e e2eenv.Env, dyn dynamic.Interface, name string, workloads []string) caughtUpFunc {
	t.Helper()
	var refs []string
	for _, w := range workloads {
		kind, ns, n := splitRef(t, w)
		if kind != "Deployment" {
			t.Fatalf("rebalance of %s: only Deployments here", w)
		}
		rb, err := dyn.Resource(bindingsGVR).Namespace(ns).Get(ctx, n+"-deployment", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		last, _, _ := unstructured.NestedString(rb.Object, "status", "lastScheduledTime")
		waitClockPast(t, last)
		refs = append(refs, fmt.Sprintf("    - {apiVersion: apps/v1, kind: Deployment, namespace: %s, name: %s}\n", ns, n))
	}
	f := filepath.Join(t.TempDir(), "rebalancer.yaml")
	if err := os.WriteFile(f, []byte(fmt.Sprintf(`apiVersion: apps.karmada.io/v1alpha1
kind: WorkloadRebalancer
metadata:
  name: %s
spec:
  workloads:
%s`, name, strings.Join(refs, ""))), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := e.KubectlRun(t, "apply", "-f", f); code != 0 {
		t.Fatalf("kubectl apply the WorkloadRebalancer: %s", out)
	}
	return func(w string, rb *unstructured.Unstructured) bool {
		at, _, _ := unstructured.NestedString(rb.Object, "spec", "rescheduleTriggeredAt")
		for _, x := range workloads {
			if w == x {
				return at != ""
			}
		}
		return true
	}
}

// waitClockPast waits until the wall clock's second is after an RFC3339 time.
func waitClockPast(t *testing.T, when string) {
	t.Helper()
	at, err := time.Parse(time.RFC3339, when)
	if err != nil {
		t.Fatalf("lastScheduledTime %q: %v", when, err)
	}
	e2eenv.WaitFor(t, "the clock to pass "+when, 5*time.Second, func() bool {
		return time.Now().Truncate(time.Second).After(at)
	})
}

func splitRef(t *testing.T, ref string) (kind, ns, name string) {
	t.Helper()
	parts := strings.Split(ref, "/")
	if len(parts) != 3 {
		t.Fatalf("workload %q is not Kind/namespace/name", ref)
	}
	return parts[0], parts[1], parts[2]
}

// replaceIn copies a file with one text replaced (which must occur).
func replaceIn(t *testing.T, from, to, old, new string) string {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q", from, old)
	}
	if err := os.WriteFile(to, []byte(strings.ReplaceAll(string(b), old, new)), 0o644); err != nil {
		t.Fatal(err)
	}
	return to
}

// inNamespace writes the one Deployment of a workloads file, moved to namespace ns.
func inNamespace(t *testing.T, from, to, name, ns string) string {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range strings.Split(string(b), "\n---\n") {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatal(err)
		}
		u := unstructured.Unstructured{Object: obj}
		if obj == nil || u.GetKind() != "Deployment" || u.GetName() != name {
			continue
		}
		u.SetNamespace(ns)
		out, err := yaml.Marshal(u.Object)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return to
	}
	t.Fatalf("no Deployment %s in %s", name, from)
	return ""
}

// members stands in for the member clusters and the cluster-status controller for one workload: what
// they run follows the binding's spec.clusters, and each change is charged to the cluster's
// status.resourceSummary.allocated (the workload's requests per replica, and one pod).
type members struct {
	workload string
	request  map[string]resource.Quantity
	running  map[string]int64
}

// run brings the members to the binding's placement, charges the clusters, and passes a barrier so that
// the scheduler's cache has the new status before the next step.
func (m *members) run(t *testing.T, ctx context.Context, dyn dynamic.Interface, br *barrier) {
	t.Helper()
	_, ns, name := splitRef(t, m.workload)
	rb, err := dyn.Resource(bindingsGVR).Namespace(ns).Get(ctx, name+"-deployment", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{}
	clusters, _, _ := unstructured.NestedSlice(rb.Object, "spec", "clusters")
	for _, c := range clusters {
		mc, _ := c.(map[string]any)
		n, _ := mc["replicas"].(int64)
		want[mc["name"].(string)] += n
	}
	names := map[string]bool{}
	for c := range want {
		names[c] = true
	}
	for c := range m.running {
		names[c] = true
	}
	charged := false
	for c := range names {
		delta := want[c] - m.running[c]
		if delta == 0 {
			continue
		}
		updateClusterStatus(t, ctx, dyn, c, func(cl *unstructured.Unstructured) {
			for res, per := range m.request {
				add(t, cl, res, per, delta)
			}
			add(t, cl, "pods", resource.MustParse("1"), delta)
		})
		charged = true
	}
	m.running = want
	if charged {
		br.pass(t, ctx)
	}
}

// add charges delta × per to a cluster's allocated res.
func add(t *testing.T, c *unstructured.Unstructured, res string, per resource.Quantity, delta int64) {
	t.Helper()
	cur, _, _ := unstructured.NestedString(c.Object, "status", "resourceSummary", "allocated", res)
	q := resource.MustParse("0")
	if cur != "" {
		q = resource.MustParse(cur)
	}
	amount := per.DeepCopy()
	amount.SetMilli(per.MilliValue() * delta)
	q.Add(amount)
	_ = unstructured.SetNestedField(c.Object, q.String(), "status", "resourceSummary", "allocated", res)
}

// requests are the per-replica requests of the one Deployment in a workloads file (its containers').
func requests(t *testing.T, file string) map[string]resource.Quantity {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Spec struct {
			Template struct {
				Spec struct {
					Containers []struct {
						Resources struct {
							Requests map[string]string `json:"requests"`
						} `json:"resources"`
					} `json:"containers"`
				} `json:"spec"`
			} `json:"template"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	out := map[string]resource.Quantity{}
	for _, c := range d.Spec.Template.Spec.Containers {
		for res, v := range c.Resources.Requests {
			q := out[res]
			q.Add(resource.MustParse(v))
			out[res] = q
		}
	}
	return out
}
