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

// scenario is the part of a drill (karmada-policy-webhook.io/v1alpha1 Scenario) this plane can play (not
// addCluster, removeCluster or the NoExecute eviction, whose taint manager needs the Failover gate).
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
		Taint       *clusterTaint `json:"taint"`
		Untaint     *clusterTaint `json:"untaint"`
		ClusterDown *struct {
			Cluster string `json:"cluster"`
			Status  string `json:"status"`
		} `json:"clusterDown"`
		ClusterUp *struct {
			Cluster string `json:"cluster"`
		} `json:"clusterUp"`
	} `json:"steps"`
}

type clusterTaint struct {
	Cluster string `json:"cluster"`
	Taint   string `json:"taint"`
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
			Acted        bool   `json:"acted"`
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

// acted says, per workload, whether simulate has karmada-scheduler re-schedule it at this step.
func (s simulation) acted(step int) map[string]bool {
	out := map[string]bool{}
	for _, w := range s.Steps[step].Workloads {
		out[w.Workload.Kind+"/"+w.Workload.Namespace+"/"+w.Workload.Name] = w.Acted
	}
	return out
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

// drills are the shipped drills played here: each in a namespace of its own (its workload and policy
// copied there), so that the other tests' workloads are not touched. dr-failover needs the cluster
// controller (Ready=False -> the not-ready taint), which the plane runs for it alone.
var drills = []struct {
	name, policy, workload, namespace string
	clusterController                 bool
}{
	{"hybrid-cloud-overflow", "overflow-onprem-cloud.yaml", "nginx-overflow", "drill-hybrid", false},
	{"dr-failover", "dc-groups.yaml", "nginx", "drill-dr", true},
}

// TestDrills plays manifests/examples/drills/ on the plane, step by step, and compares every binding after
// each step with what `simulate` said, before anything was applied, that step would leave. simulate
// assumes the members run what they are given (placed replicas are charged to the clusters' allocated
// resources between steps); with no member here, the test writes those charges into the Clusters' status
// as the cluster-status controller would report them, and it writes the Ready condition of clusterDown
// and clusterUp as that controller would after its debounce.
func TestDrills(t *testing.T) {
	e := e2eenv.Get(t)
	e.DefaultReleaseOnly(t, "the drills' policies tier replicas with overflowAffinities (Karmada v1.18.0 and later)")
	for _, d := range drills {
		t.Run(d.name, func(t *testing.T) {
			playDrill(t, e, d.name, d.policy, d.workload, d.namespace, d.clusterController)
		})
	}
}

func playDrill(t *testing.T, e e2eenv.Env, name, policyFile, workload, ns string, clusterController bool) {
	ctx := context.Background()
	dyn := e.Dynamic(t)
	ex := filepath.Join(e.Repo, "manifests/examples")
	dir := t.TempDir()
	workloads := inNamespace(t, filepath.Join(ex, "workloads.yaml"), filepath.Join(dir, "workloads.yaml"), workload, ns)
	policy := replaceIn(t, filepath.Join(ex, policyFile), filepath.Join(dir, "policy.yaml"),
		"namespace: default", "namespace: "+ns)
	drill := replaceIn(t, filepath.Join(ex, "drills", name+".yaml"), filepath.Join(dir, "drill.yaml"),
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
	t.Cleanup(func() { createClusters(t, ctx, dyn, clusters) }) // taints and status as the file has them
	if clusterController {
		withClusterController(t, e)
	}
	br := newBarrier(t, ctx, e, dyn, clusters)
	members := &members{workload: "Deployment/" + ns + "/" + workload, request: requests(t, workloads),
		running: map[string]int64{}}
	ok := t.Run(sim.Steps[0].Name, func(t *testing.T) {
		for _, f := range []string{policy, workloads} {
			if out, code := e.KubectlRun(t, "apply", "-f", f); code != 0 {
				t.Fatalf("kubectl apply -f %s: %s", f, out)
			}
		}
		want := sim.placements(0)
		compare(t, want, scheduled(t, ctx, dyn, want, nil, []string{policy}))
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
			var x exported     // a rebalance's starting state, for lint's prediction of a second pass
			var rerun []string // the workloads karmada-scheduler may re-schedule twice (secondPass)
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
				e2eenv.UpdateClusterStatus(t, ctx, dyn, st.SetResources.Cluster, func(c *unstructured.Unstructured) {
					for k, v := range st.SetResources.Allocated {
						_ = unstructured.SetNestedField(c.Object, v, "status", "resourceSummary", "allocated", k)
					}
				})
			case st.Taint != nil:
				taint := parseTaint(t, st.Taint.Taint)
				e2eenv.UpdateCluster(t, ctx, dyn, st.Taint.Cluster, func(c *unstructured.Unstructured) {
					taints, _, _ := unstructured.NestedSlice(c.Object, "spec", "taints")
					_ = unstructured.SetNestedSlice(c.Object, append(taints, taint), "spec", "taints")
				})
			case st.Untaint != nil:
				e2eenv.UpdateCluster(t, ctx, dyn, st.Untaint.Cluster, func(c *unstructured.Unstructured) {
					untaint(t, c, st.Untaint.Taint)
				})
			case st.ClusterDown != nil:
				status := st.ClusterDown.Status
				if status == "" {
					status = "False"
				}
				setReady(t, ctx, dyn, st.ClusterDown.Cluster, status)
			case st.ClusterUp != nil:
				setReady(t, ctx, dyn, st.ClusterUp.Cluster, "True")
			case st.Wait != nil:
				// Time is not waited out: nothing in Karmada acts on these bindings with time here (no
				// resync; no eviction task or unschedulable binding pending), which the barrier checks.
			case st.Rebalance != nil:
				dir := t.TempDir()
				x = exported{clusters: export(t, e, "clusters", filepath.Join(dir, "clusters.yaml")),
					workloads: export(t, e, "deployments", filepath.Join(dir, "workloads.yaml")),
					bindings:  export(t, e, "resourcebindings", filepath.Join(dir, "bindings.yaml"))}
				caughtUp = rebalance(t, ctx, e, dyn, fmt.Sprintf("drill-%s-%d", ns, i), st.Rebalance.Workloads)
				rerun = st.Rebalance.Workloads
			default:
				t.Fatalf("step %q: a kind this plane cannot play", st.Name)
			}
			if caughtUp == nil { // the scheduler has seen the step once the barrier passes
				br.pass(t, ctx)
				after := bindingStates(t, ctx, dyn)
				for w, acted := range sim.acted(i + 1) {
					if !acted && before[w] != after[w] { // simulate says Karmada leaves it alone
						t.Errorf("%s changed:\n  before: %s\n  after:  %s", w, before[w], after[w])
					}
				}
			}
			got := scheduled(t, ctx, dyn, want, caughtUp, []string{policy})
			for _, w := range rerun {
				if got[w] != want[w] { // the day-two tests' bounded tolerance: exactly lint's second pass, or a failure
					want = secondPass(t, ctx, e, dyn, triggered(t, ctx, dyn, x, w), []string{policy}, w, want, got)
				}
			}
			compare(t, want, got)
			for w, p := range want {
				t.Logf("%s: [%s] %s", w, p.Clusters, p.Reason)
			}
			members.run(t, ctx, dyn, br)
		})
	}
}

// withClusterController restarts the plane's karmada-controller-manager with the cluster controller
// added to its --controllers for the rest of the test (it taints a cluster whose Ready condition is not
// True, cluster.karmada.io/not-ready or unreachable with NoSchedule, and leaves Push clusters' health
// alone).
func withClusterController(t *testing.T, e e2eenv.Env) {
	t.Helper()
	e2eenv.WithControllerManager(t, e, func(args []string) []string {
		for i := range args {
			if args[i] == "--controllers" && i+1 < len(args) {
				args[i+1] += ",cluster"
			}
		}
		return args
	})
}

// setReady writes a cluster's Ready condition as the cluster-status controller does once its debounce has
// passed, then waits until the cluster controller has put the matching not-ready taint on or off.
func setReady(t *testing.T, ctx context.Context, dyn dynamic.Interface, cluster, status string) {
	t.Helper()
	texts, ok := map[string][2]string{ // pkg/controllers/status/cluster_status_controller.go
		"True":    {"ClusterReady", "cluster is healthy and ready to accept workloads"},
		"False":   {"ClusterNotReachable", "cluster is not reachable"},
		"Unknown": {"ClusterStatusUnknown", "Cluster status controller stopped posting cluster status."},
	}[status]
	if !ok {
		t.Fatalf("Ready status %q", status)
	}
	reason, message := texts[0], texts[1]
	e2eenv.UpdateClusterStatus(t, ctx, dyn, cluster, func(c *unstructured.Unstructured) {
		conds, _, _ := unstructured.NestedSlice(c.Object, "status", "conditions")
		for i, x := range conds {
			if m, _ := x.(map[string]any); m["type"] == "Ready" && m["status"] != status {
				m["status"], m["reason"], m["message"] = status, reason, message
				m["lastTransitionTime"] = time.Now().UTC().Format(time.RFC3339)
				conds[i] = m
			}
		}
		_ = unstructured.SetNestedSlice(c.Object, conds, "status", "conditions")
	})
	key := map[string]string{"True": "", "False": "cluster.karmada.io/not-ready", "Unknown": "cluster.karmada.io/unreachable"}[status]
	e2eenv.WaitFor(t, "the cluster controller's taints on "+cluster+" for Ready="+status, time.Minute, func() bool {
		c, err := dyn.Resource(clustersGVR).Get(ctx, cluster, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		taints, _, _ := unstructured.NestedSlice(c.Object, "spec", "taints")
		has := map[string]bool{}
		for _, x := range taints {
			m, _ := x.(map[string]any)
			has[fmt.Sprint(m["key"])] = true
		}
		for _, k := range []string{"cluster.karmada.io/not-ready", "cluster.karmada.io/unreachable"} {
			if has[k] != (k == key) {
				return false
			}
		}
		return true
	})
}

// parseTaint reads kubectl taint's key[=value]:Effect.
func parseTaint(t *testing.T, s string) map[string]any {
	t.Helper()
	i := strings.LastIndex(s, ":")
	if i < 0 {
		t.Fatalf("taint %q has no effect", s)
	}
	key, value, _ := strings.Cut(s[:i], "=")
	m := map[string]any{"key": key, "effect": s[i+1:]}
	if value != "" {
		m["value"] = value
	}
	return m
}

// untaint applies kubectl taint's removal form, key- or key:Effect-.
func untaint(t *testing.T, c *unstructured.Unstructured, s string) {
	t.Helper()
	if !strings.HasSuffix(s, "-") {
		t.Fatalf("untaint %q does not end in -", s)
	}
	key, effect, _ := strings.Cut(strings.TrimSuffix(s, "-"), ":")
	taints, _, _ := unstructured.NestedSlice(c.Object, "spec", "taints")
	var kept []any
	for _, x := range taints {
		m, _ := x.(map[string]any)
		if m["key"] == key && (effect == "" || m["effect"] == effect) {
			continue
		}
		kept = append(kept, x)
	}
	if len(kept) == 0 {
		unstructured.RemoveNestedField(c.Object, "spec", "taints")
		return
	}
	_ = unstructured.SetNestedSlice(c.Object, kept, "spec", "taints")
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

// triggered is x with the workload's exported binding carrying the rebalancer's trigger as the live
// binding has it (spec.rescheduleTriggeredAt), which the export made before the rebalancer lacks.
func triggered(t *testing.T, ctx context.Context, dyn dynamic.Interface, x exported, workload string) exported {
	t.Helper()
	_, ns, name := splitRef(t, workload)
	live, err := dyn.Resource(bindingsGVR).Namespace(ns).Get(ctx, name+"-deployment", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	at, _, _ := unstructured.NestedString(live.Object, "spec", "rescheduleTriggeredAt")
	if at == "" {
		t.Fatalf("%s's binding has no spec.rescheduleTriggeredAt after the rebalance", workload)
	}
	x.bindings = editList(t, x.bindings, x.bindings+".triggered", func(rb *unstructured.Unstructured) {
		if key(rb) == workload {
			_ = unstructured.SetNestedField(rb.Object, at, "spec", "rescheduleTriggeredAt")
		}
	})
	return x
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
		e2eenv.UpdateClusterStatus(t, ctx, dyn, c, func(cl *unstructured.Unstructured) {
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
