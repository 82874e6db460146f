package members

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

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

const drillNS = "members-drill"

// checkoutPolicy is checkout-local-idc.yaml's overflow with the members' labels for groups: the IDC
// first, the public cloud only for what the IDC cannot take.
const checkoutPolicy = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: checkout-overflow, namespace: members-drill}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: checkout}]
  placement:
    clusterAffinities:
    - affinityName: local-idc
      labelSelector: {matchLabels: {location: idc}}
      overflowAffinities:
      - affinityName: public-cloud
        labelSelector: {matchLabels: {location: cloud}}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference: {dynamicWeight: AvailableReplicas}
`

// checkoutDeployment is workloads.yaml's checkout (600m CPU and 1152Mi per replica over two
// containers) with the step's replicas.
const checkoutDeployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: checkout, namespace: members-drill, labels: {app: checkout}}
spec:
  replicas: %d
  selector: {matchLabels: {app: checkout}}
  template:
    metadata: {labels: {app: checkout}}
    spec:
      containers:
      - name: checkout
        image: registry.example.com/shop/checkout:4.12.0
        resources: {requests: {cpu: 500m, memory: 1Gi}, limits: {memory: 1Gi}}
      - name: envoy
        image: envoyproxy/envoy:v1.31.2
        resources: {requests: {cpu: 100m, memory: 128Mi}}
`

// batchFiller is another team's batch job on the IDC member itself (not through Karmada): it takes part
// of the IDC's nodes, as in the seeds' story, so the IDC holds fewer checkout replicas than its size says.
const batchFiller = `apiVersion: v1
kind: Namespace
metadata: {name: batch}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: batch, namespace: batch}
spec:
  replicas: 1
  selector: {matchLabels: {app: batch}}
  template:
    metadata: {labels: {app: batch}}
    spec:
      containers:
      - name: batch
        image: registry.example.com/batch:1
        resources: {requests: {cpu: "1", memory: 2Gi}}
`

// drillStep is one step of the drill: checkout scaled to replicas; where says where the drill expects
// the replicas (the drill's premise, checked on lint's prediction before anything is applied).
type drillStep struct {
	name     string
	replicas int
	where    func(p placement) error
}

// TestOverflowDrill is the seeds' first drill on real members: the IDC's KWOK nodes, partly taken by a
// batch job, hold the first checkout replicas; scaled up, the next replicas overflow to the cloud member.
// Before each step lint predicts the placement from what a user exports (kubectl get clusters, the
// bindings, each member's `kubectl get nodes,pods -A -o yaml` for --member-state); after it, the binding
// karmada-scheduler wrote (with karmada-scheduler-estimator per member) must be exactly that.
func TestOverflowDrill(t *testing.T) {
	e := e2eenv.Get(t)
	ms := e.RequireMembers(t, 2)
	if !estimators(ms) {
		t.Skip("needs karmada-scheduler-estimator per member: control-plane.sh up DIR --members 2 --estimator")
	}
	ctx := context.Background()
	dyn := e.Dynamic(t)
	ensureNodes(t, ctx, e, dyn, ms)
	idc := byLocation(t, ms, "idc")

	if out, code := e.MemberKubectl(t, idc, batchFiller, "apply", "-f", "-"); code != 0 {
		t.Fatal(out)
	}
	t.Cleanup(func() { e.MemberKubectl(t, idc, "", "delete", "namespace", "batch", "--ignore-not-found") })
	e.EnsureNamespaces(t, drillNS)
	t.Cleanup(func() { deleteWorkload(t, e, drillNS, "checkout") })

	dir := t.TempDir()
	policy := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(policy, []byte(checkoutPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []drillStep{
		{"checkout with 3 replicas: the IDC holds them", 3, only("idc")},
		{"traffic peak, scale to 8: the next replicas overflow to the cloud", 8, both("idc", "cloud")},
	}
	const workload = "Deployment/" + drillNS + "/checkout"
	grantProxyReads(t, e, ms, policy)
	for i, s := range steps {
		settle(t, ctx, e, dyn, ms)
		sdir := filepath.Join(dir, fmt.Sprintf("step%d", i+1))
		state := exportMembers(t, e, ms, filepath.Join(sdir, "members"))
		clusters := exportKarmada(t, e, "clusters", filepath.Join(sdir, "clusters.yaml"))
		workloads := filepath.Join(sdir, "workloads.yaml")
		if err := os.WriteFile(workloads, []byte(fmt.Sprintf(checkoutDeployment, s.replicas)), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"lint", "-o", "json", "--clusters", clusters, "--workloads", workloads, "--member-state", state}
		if i > 0 {
			args = append(args, "--bindings", exportKarmada(t, e, "resourcebindings", filepath.Join(sdir, "bindings.yaml")))
		}
		want, ok := predict(t, e, append(args, policy))[workload]
		if !ok {
			t.Fatalf("step %d (%s): lint predicted nothing for %s", i+1, s.name, workload)
		}
		t.Logf("step %d (%s): lint predicts %s", i+1, s.name, want)
		// The same members read live through karmada-aggregated-apiserver's cluster proxy (impersonating the
		// admin on each member) instead of kubectl's exports: the same prediction.
		live := withoutFlag(args, "--member-state")
		live = append(live, "--kubeconfig", e.Kubeconfig, "--members-through-proxy", policy)
		if got, ok := predict(t, e, live)[workload]; !ok || got.String() != want.String() {
			t.Errorf("step %d (%s): lint --members-through-proxy predicts %s, with --member-state %s", i+1, s.name, got, want)
		}
		if err := s.where(want); err != nil {
			t.Fatalf("step %d (%s): the drill's premise does not hold on these members: %v (lint: %s; exports in %s)",
				i+1, s.name, err, want, sdir)
		}

		if out, code := kubectlIn(t, e, fmt.Sprintf(checkoutDeployment, s.replicas)+"---\n"+checkoutPolicy, "apply", "-f", "-"); code != 0 {
			t.Fatal(out)
		}
		got := scheduledBinding(t, ctx, dyn, drillNS, "checkout-deployment", s.replicas)
		if got.String() != want.String() {
			t.Errorf("step %d (%s):\n  lint:              %s\n  karmada-scheduler: %s", i+1, s.name, want, got)
		}
		waitPlaced(t, e, ms, got)
	}
}

func estimators(ms []e2eenv.Member) bool {
	for _, m := range ms {
		if m.EstimatorPort == 0 {
			return false
		}
	}
	return true
}

// only: every replica on members of the location.
func only(loc string) func(placement) error {
	return func(p placement) error {
		if !p.Scheduled || len(p.Replicas) == 0 {
			return fmt.Errorf("not scheduled")
		}
		for c := range p.Replicas {
			if !strings.HasPrefix(c, loc+"-") {
				return fmt.Errorf("replicas on %s, expected %s members only", c, loc)
			}
		}
		return nil
	}
}

// both: replicas on members of both locations.
func both(a, b string) func(placement) error {
	return func(p placement) error {
		seen := map[string]bool{}
		for c, n := range p.Replicas {
			if n > 0 {
				seen[strings.SplitN(c, "-", 2)[0]] = true
			}
		}
		if !p.Scheduled || !seen[a] || !seen[b] {
			return fmt.Errorf("expected replicas on %s and on %s members", a, b)
		}
		return nil
	}
}

// settle waits until what a user exports is what Karmada schedules with: on every member each pod not
// finished is bound to a node and Running, and the member's Cluster status (the cluster-status
// controller, every --cluster-status-update-frequency, 10 s by default) has allocated exactly their
// requests.
func settle(t *testing.T, ctx context.Context, e e2eenv.Env, dyn dynamic.Interface, ms []e2eenv.Member) {
	t.Helper()
	for _, m := range ms {
		e2eenv.WaitFor(t, m.Name+"'s pods bound and Running and its Cluster's allocated resources up to date", 2*time.Minute, func() bool {
			cpu, ok := runningRequests(t, e, m)
			if !ok {
				return false
			}
			c, err := dyn.Resource(clustersGVR).Get(ctx, m.Name, metav1.GetOptions{})
			if err != nil {
				return false
			}
			s, _, _ := unstructured.NestedString(c.Object, "status", "resourceSummary", "allocated", "cpu")
			if s == "" {
				s = "0"
			}
			q, err := resource.ParseQuantity(s)
			return err == nil && q.Cmp(cpu) == 0
		})
	}
}

// runningRequests is the CPU requested by the member's pods; ok is false while one is pending.
func runningRequests(t *testing.T, e e2eenv.Env, m e2eenv.Member) (resource.Quantity, bool) {
	t.Helper()
	var sum resource.Quantity
	out, code := e.MemberKubectl(t, m, "", "get", "pods", "-A", "-o", "json")
	if code != 0 {
		return sum, false
	}
	var list struct {
		Items []struct {
			Spec struct {
				NodeName   string `json:"nodeName"`
				Containers []struct {
					Resources struct {
						Requests map[string]resource.Quantity `json:"requests"`
					} `json:"resources"`
				} `json:"containers"`
			} `json:"spec"`
			Status struct {
				Phase string `json:"phase"`
			} `json:"status"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("pods of %s: %v", m.Name, err)
	}
	for _, p := range list.Items {
		if p.Status.Phase == "Succeeded" || p.Status.Phase == "Failed" {
			continue
		}
		if p.Spec.NodeName == "" || p.Status.Phase != "Running" {
			return sum, false
		}
		for _, c := range p.Spec.Containers {
			if q, ok := c.Resources.Requests["cpu"]; ok {
				sum.Add(q)
			}
		}
	}
	return sum, true
}

// waitPlaced waits until each member runs the replicas the binding gives it (Works executed, pods Running
// on KWOK nodes): the next step's exports then see them.
func waitPlaced(t *testing.T, e e2eenv.Env, ms []e2eenv.Member, p placement) {
	t.Helper()
	for _, m := range ms {
		want := p.Replicas[m.Name]
		e2eenv.WaitFor(t, fmt.Sprintf("%d checkout pods Running on %s", want, m.Name), 2*time.Minute, func() bool {
			out, code := e.MemberKubectl(t, m, "", "get", "pods", "-n", drillNS, "-l", "app=checkout", "-o",
				`jsonpath={range .items[*]}{.status.phase}{"\n"}{end}`)
			if code != 0 {
				return false
			}
			return strings.Count(out, "Running") == int(want) && strings.Count(strings.TrimSpace(out), "\n")+1 >= int(want)
		})
	}
}

// exportMembers writes each member's `kubectl get nodes,pods -A -o yaml` into DIR/<member>/state.yaml,
// the layout --member-state reads (docs/estimator.md).
func exportMembers(t *testing.T, e e2eenv.Env, ms []e2eenv.Member, dir string) string {
	t.Helper()
	for _, m := range ms {
		out, code := e.MemberKubectl(t, m, "", "get", "nodes,pods", "-A", "-o", "yaml")
		if code != 0 {
			t.Fatalf("kubectl get nodes,pods on %s: %s", m.Name, out)
		}
		if err := os.MkdirAll(filepath.Join(dir, m.Name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, m.Name, "state.yaml"), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// exportKarmada writes `kubectl get KIND -A -o yaml` from Karmada, as a user exports it for lint.
func exportKarmada(t *testing.T, e e2eenv.Env, kind, file string) string {
	t.Helper()
	out, code := e.KubectlRun(t, "get", kind, "-A", "-o", "yaml")
	if code != 0 {
		t.Fatalf("kubectl get %s: %s", kind, out)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// placement is a workload's scheduling outcome as both sides are reduced to.
type placement struct {
	Scheduled    bool
	AffinityName string
	Replicas     map[string]int64
	Reason       string
	Message      string
}

func (p placement) String() string {
	var cs []string
	for c, n := range p.Replicas {
		cs = append(cs, fmt.Sprintf("%s=%d", c, n))
	}
	sort.Strings(cs)
	return fmt.Sprintf("scheduled=%v affinity=%q clusters=[%s] reason=%s message=%q", p.Scheduled, p.AffinityName,
		strings.Join(cs, ","), p.Reason, p.Message)
}

// predict runs lint -o json and returns its placements per "Kind/namespace/name".
func predict(t *testing.T, e e2eenv.Env, args []string) map[string]placement {
	t.Helper()
	stdout, stderr, code := e2eenv.RunSplit(t, e.Lint, args...)
	if code > 1 {
		t.Fatalf("lint exited %d:\n%s%s", code, stdout, stderr)
	}
	var lo e2eenv.LintOutput
	if err := json.Unmarshal([]byte(stdout), &lo); err != nil {
		t.Fatalf("lint -o json: %v\n%s", err, stdout)
	}
	out := map[string]placement{}
	for _, r := range lo.Results {
		for _, s := range r.Scheduling {
			out[s.Workload.Kind+"/"+s.Workload.Namespace+"/"+s.Workload.Name] = predicted(s)
		}
	}
	return out
}

// predicted is one scheduling entry of lint (or of a simulate step) as a placement.
func predicted(s e2eenv.LintScheduling) placement {
	p := placement{Scheduled: s.Scheduled, AffinityName: s.AffinityName, Replicas: map[string]int64{},
		Reason: s.Condition.Reason, Message: s.Condition.Message}
	for _, c := range s.Clusters {
		p.Replicas[c.Name] = c.Replicas
	}
	return p
}

// scheduledBinding waits until karmada-scheduler has handled the binding at the step's replicas
// (spec.replicas from the detector, schedulerObservedGeneration caught up with its generation, a
// Scheduled condition) and returns what it wrote.
func scheduledBinding(t *testing.T, ctx context.Context, dyn dynamic.Interface, ns, name string, replicas int) placement {
	t.Helper()
	return placementOf(handledBinding(t, ctx, dyn, ns, name, "at "+fmt.Sprint(replicas)+" replicas", func(rb *unstructured.Unstructured) bool {
		r, _, _ := unstructured.NestedInt64(rb.Object, "spec", "replicas")
		return r == int64(replicas)
	}))
}

// handledBinding waits until the binding is as the step makes it (done) and karmada-scheduler has handled
// it since (schedulerObservedGeneration caught up with its generation, a Scheduled condition), and returns it.
func handledBinding(t *testing.T, ctx context.Context, dyn dynamic.Interface, ns, name, what string,
	done func(rb *unstructured.Unstructured) bool) *unstructured.Unstructured {
	t.Helper()
	var rb *unstructured.Unstructured
	e2eenv.WaitFor(t, "karmada-scheduler to handle "+ns+"/"+name+" "+what, 2*time.Minute, func() bool {
		var err error
		rb, err = dyn.Resource(bindingsGVR).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false
		}
		observed, _, _ := unstructured.NestedInt64(rb.Object, "status", "schedulerObservedGeneration")
		status, _ := condition(rb.Object, "Scheduled", "status")
		return done(rb) && observed >= rb.GetGeneration() && status != ""
	})
	return rb
}

// placementOf is what karmada-scheduler wrote into a binding: spec.clusters,
// status.schedulerObservingAffinityName and the Scheduled condition.
func placementOf(rb *unstructured.Unstructured) placement {
	p := placement{Replicas: map[string]int64{}}
	conds, _, _ := unstructured.NestedSlice(rb.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == "Scheduled" {
			p.Scheduled = m["status"] == "True"
			p.Reason, _ = m["reason"].(string)
			p.Message, _ = m["message"].(string)
		}
	}
	p.AffinityName, _, _ = unstructured.NestedString(rb.Object, "status", "schedulerObservingAffinityName")
	clusters, _, _ := unstructured.NestedSlice(rb.Object, "spec", "clusters")
	for _, c := range clusters {
		m, _ := c.(map[string]any)
		n, _ := m["replicas"].(int64)
		p.Replicas[fmt.Sprint(m["name"])] = n
	}
	return p
}

// withoutFlag is args without `flag` and its value.
func withoutFlag(args []string, flag string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		if args[i] == flag {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// The reads lint --members-through-proxy makes, granted as an operator grants them, with the shipped
// roles (docs/estimator.md): ClusterRole karmada-policy-webhook:plan in karmada-apiserver (it holds get
// clusters/proxy; Karmada's unified-auth controller then lets the members' karmada-impersonator act as
// its subjects) and karmada-policy-webhook:member-state on each member, both bound to the plane's admin.
const (
	planRoles        = "manifests/karmada-apiserver/live-snapshot-rbac.yaml"
	memberStateRoles = "manifests/member-cluster/member-state-rbac.yaml"
)

// bindToAdmin is a ClusterRoleBinding of the ClusterRole role to the user admin.
func bindToAdmin(role string) string {
	return fmt.Sprintf(`apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: "kpw-e2e-admin:%[1]s"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "%[1]s"}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: admin}]
`, role)
}

// shippedWithBinding is the shipped manifest file rel and a binding of its ClusterRole role to admin.
func shippedWithBinding(t *testing.T, e e2eenv.Env, rel, role string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(e.Repo, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n---\n" + bindToAdmin(role)
}

// grantProxyReads applies both grants and waits until lint reads every member through the proxy (no
// "note: member cluster" on its stderr: the unified-auth controller has synced the impersonation rules).
func grantProxyReads(t *testing.T, e e2eenv.Env, ms []e2eenv.Member, policy string) {
	t.Helper()
	karmada := shippedWithBinding(t, e, planRoles, "karmada-policy-webhook:plan")
	if out, code := kubectlIn(t, e, karmada, "apply", "-f", "-"); code != 0 {
		t.Fatal(out)
	}
	member := shippedWithBinding(t, e, memberStateRoles, "karmada-policy-webhook:member-state")
	for _, m := range ms {
		if out, code := e.MemberKubectl(t, m, member, "apply", "-f", "-"); code != 0 {
			t.Fatalf("%s: %s", m.Name, out)
		}
	}
	last := ""
	e2eenv.WaitFor(t, "lint --members-through-proxy to read every member (karmada-impersonator's rules synced)",
		time.Minute, func() bool {
			_, stderr, _ := e2eenv.RunSplit(t, e.Lint, "lint", "-o", "json", "--kubeconfig", e.Kubeconfig,
				"--members-through-proxy", policy)
			if blocked := strings.Contains(stderr, "note: member cluster"); blocked && stderr != last {
				t.Logf("not yet: %s", stderr)
				last = stderr
			} else if !blocked {
				return true
			}
			return false
		})
}
