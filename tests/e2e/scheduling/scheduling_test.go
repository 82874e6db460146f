// Package scheduling checks the dry run against the real karmada-scheduler: the example Clusters
// (status written through the status subresource, as the cluster-status controller would), workloads
// and policies are applied to the loopback control plane; what `lint` predicted *before* the apply must
// be exactly what karmada-scheduler then writes into each ResourceBinding.
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

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

var (
	clustersGVR = schema.GroupVersionResource{Group: "cluster.karmada.io", Version: "v1alpha1", Resource: "clusters"}
	bindingsGVR = schema.GroupVersionResource{Group: "work.karmada.io", Version: "v1alpha2", Resource: "resourcebindings"}
)

// placement is one workload's scheduling outcome, in the form both sides are reduced to.
type placement struct {
	Scheduled    bool
	AffinityName string
	Clusters     string // "name=replicas" sorted, comma separated
	Reason       string // the Scheduled condition's reason
	Message      string
}

func (p placement) String() string {
	return fmt.Sprintf("scheduled=%v affinity=%q clusters=[%s] reason=%s message=%q", p.Scheduled, p.AffinityName,
		p.Clusters, p.Reason, p.Message)
}

// predict is lint's prediction, per workload "Kind/namespace/name": first-time without bindings, the
// re-schedule of today's bindings with them.
func predict(t *testing.T, e e2eenv.Env, clusters, workloads, bindings string, policies []string) map[string]placement {
	t.Helper()
	args := append([]string{"lint", "-o", "json", "--clusters", clusters, "--workloads", workloads}, e.ReleaseFlags()...)
	if e.Older() {
		// Applied with kubectl apply --validate=false there (applyPolicies): the API server drops what the
		// release's CRD does not define.
		args = append(args, "--validate", "ignore")
	}
	if bindings != "" {
		args = append(args, "--bindings", bindings)
	}
	args = append(args, policies...)
	out, code := e2eenv.Run(t, e.Lint, args...)
	if code > 1 {
		t.Fatalf("lint exited %d:\n%s", code, out)
	}
	var lo e2eenv.LintOutput
	if err := json.Unmarshal([]byte(out), &lo); err != nil {
		t.Fatalf("lint -o json: %v\n%s", err, out)
	}
	got := map[string]placement{}
	for _, r := range lo.Results {
		for _, s := range r.Scheduling {
			var cs []string
			for _, c := range s.Clusters {
				cs = append(cs, fmt.Sprintf("%s=%d", c.Name, c.Replicas))
			}
			sort.Strings(cs)
			got[s.Workload.Kind+"/"+s.Workload.Namespace+"/"+s.Workload.Name] = placement{Scheduled: s.Scheduled,
				AffinityName: s.AffinityName, Clusters: strings.Join(cs, ","), Reason: s.Condition.Reason,
				Message: s.Condition.Message}
		}
	}
	return got
}

// createClusters creates the example Clusters and writes each one's status as the cluster-status
// controller would (status is ignored on create).
func createClusters(t *testing.T, ctx context.Context, dyn dynamic.Interface, file string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Items []map[string]any `json:"items"`
	}
	if err := yaml.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, item := range list.Items {
		u := &unstructured.Unstructured{Object: item}
		status := item["status"]
		for _, f := range []string{"resourceVersion", "uid", "creationTimestamp", "generation", "finalizers"} {
			unstructured.RemoveNestedField(u.Object, "metadata", f)
		}
		created, err := dyn.Resource(clustersGVR).Create(ctx, u, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) { // made by an earlier test (or run): its taints as in the file
			created, err = dyn.Resource(clustersGVR).Get(ctx, u.GetName(), metav1.GetOptions{})
			if err == nil {
				taints, _, _ := unstructured.NestedSlice(u.Object, "spec", "taints")
				have, _, _ := unstructured.NestedSlice(created.Object, "spec", "taints")
				if fmt.Sprint(taints) != fmt.Sprint(have) {
					if taints == nil {
						unstructured.RemoveNestedField(created.Object, "spec", "taints")
					} else {
						_ = unstructured.SetNestedSlice(created.Object, taints, "spec", "taints")
					}
					created, err = dyn.Resource(clustersGVR).Update(ctx, created, metav1.UpdateOptions{})
				}
			}
		}
		if err != nil {
			t.Fatalf("creating Cluster %s: %v", u.GetName(), err)
		}
		created.Object["status"] = status
		if _, err := dyn.Resource(clustersGVR).UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("writing Cluster %s's status: %v", u.GetName(), err)
		}
		names = append(names, u.GetName())
	}
	return names
}

// scheduled reads what karmada-scheduler wrote, once it has handled every binding of the workloads
// (schedulerObservedGeneration caught up and a Scheduled condition present). Every binding claimed by one of
// the policies (files lint was given) must be accounted for: a binding of a workload lint predicted nothing
// for fails the test, naming it.
func scheduled(t *testing.T, ctx context.Context, dyn dynamic.Interface, want map[string]placement, caughtUp caughtUpFunc,
	policies []string) map[string]placement {
	t.Helper()
	scope := policiesIn(t, policies)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		got, pending, unpredicted := readBindings(t, ctx, dyn, want, caughtUp, scope)
		missing := 0
		for k := range want {
			if _, ok := got[k]; !ok {
				missing++
			}
		}
		if pending == 0 && missing == 0 {
			for _, u := range unpredicted {
				t.Errorf("%s: karmada-scheduler made a binding for a workload lint predicted nothing for", u)
			}
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("karmada-scheduler has not handled every binding after 2 minutes (%d pending, %d workloads without a binding); have %v",
				pending, missing, got)
		}
		time.Sleep(200 * time.Millisecond) // polling the API server for a condition
	}
}

// caughtUpFunc says whether the detector has already written a step's change into a binding (nil: no
// step, every binding counts).
type caughtUpFunc func(workload string, rb *unstructured.Unstructured) bool

// readBindings reads the bindings of want's workloads the scheduler is done with; one the detector has not
// caught up with yet counts as pending (the barrier's binding, which a FitError leaves behind its
// generation, is not looked at). A binding of a workload want lacks, claimed by a policy of scope, is
// returned as unpredicted ("workload (claimed by policy)").
func readBindings(t *testing.T, ctx context.Context, dyn dynamic.Interface, want map[string]placement,
	caughtUp caughtUpFunc, scope map[string]bool) (map[string]placement, int, []string) {
	t.Helper()
	list, err := dyn.Resource(bindingsGVR).Namespace("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, pending, unpredicted := map[string]placement{}, 0, []string(nil)
	for _, rb := range list.Items {
		kind, _, _ := unstructured.NestedString(rb.Object, "spec", "resource", "kind")
		ns, _, _ := unstructured.NestedString(rb.Object, "spec", "resource", "namespace")
		name, _, _ := unstructured.NestedString(rb.Object, "spec", "resource", "name")
		observed, _, _ := unstructured.NestedInt64(rb.Object, "status", "schedulerObservedGeneration")
		conds, _, _ := unstructured.NestedSlice(rb.Object, "status", "conditions")
		if _, ok := want[kind+"/"+ns+"/"+name]; !ok {
			if policy := claimedBy(&rb); scope[policy] {
				unpredicted = append(unpredicted, fmt.Sprintf("%s/%s/%s (binding %s/%s, claimed by %s)", kind, ns, name,
					rb.GetNamespace(), rb.GetName(), policy))
			}
			continue
		}
		var p placement
		found := false
		for _, c := range conds {
			m, _ := c.(map[string]any)
			if m["type"] == "Scheduled" {
				found = true
				p.Scheduled = m["status"] == "True"
				p.Reason, _ = m["reason"].(string)
				p.Message, _ = m["message"].(string)
			}
		}
		// karmada-scheduler sets schedulerObservedGeneration only when a schedule succeeds ("Postpone setting
		// observed generation until schedule succeed": pkg/scheduler/scheduler.go patchBindingStatusCondition,
		// :905 v1.16.0, :913 v1.17.1, :1010 v1.18.2): on the first schedule (no step), a binding never scheduled
		// whose Scheduled condition is False has been handled (only the scheduler writes that condition).
		handled := observed >= rb.GetGeneration() || (caughtUp == nil && observed == 0 && found && !p.Scheduled)
		if !found || !handled || (caughtUp != nil && !caughtUp(kind+"/"+ns+"/"+name, &rb)) {
			pending++
			continue
		}
		p.AffinityName, _, _ = unstructured.NestedString(rb.Object, "status", "schedulerObservingAffinityName")
		p.Clusters = clusterList(&rb)
		got[kind+"/"+ns+"/"+name] = p
	}
	sort.Strings(unpredicted)
	return got, pending, unpredicted
}

// claimedBy is the policy a binding's annotations name (the detector writes them when a policy claims the
// template; Karmada's policyv1alpha1 well-known constants): "PropagationPolicy/namespace/name" or
// "ClusterPropagationPolicy//name" ("" when neither).
func claimedBy(rb *unstructured.Unstructured) string {
	a := rb.GetAnnotations()
	if name := a["propagationpolicy.karmada.io/name"]; name != "" {
		return "PropagationPolicy/" + a["propagationpolicy.karmada.io/namespace"] + "/" + name
	}
	if name := a["clusterpropagationpolicy.karmada.io/name"]; name != "" {
		return "ClusterPropagationPolicy//" + name
	}
	return ""
}

// policiesIn are the policies of the files, in claimedBy's form.
func policiesIn(t *testing.T, files []string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range strings.Split(string(b), "\n---") {
			var obj map[string]any
			if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			u := unstructured.Unstructured{Object: obj}
			switch u.GetKind() {
			case "PropagationPolicy":
				out["PropagationPolicy/"+u.GetNamespace()+"/"+u.GetName()] = true
			case "ClusterPropagationPolicy":
				out["ClusterPropagationPolicy//"+u.GetName()] = true
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no policies in %v", files)
	}
	return out
}

// clusterList is a binding's spec.clusters as "name=replicas" sorted, comma separated.
func clusterList(rb *unstructured.Unstructured) string {
	clusters, _, _ := unstructured.NestedSlice(rb.Object, "spec", "clusters")
	var cs []string
	for _, c := range clusters {
		m, _ := c.(map[string]any)
		replicas, _ := m["replicas"].(int64)
		cs = append(cs, fmt.Sprintf("%v=%d", m["name"], replicas))
	}
	sort.Strings(cs)
	return strings.Join(cs, ",")
}

// compare reports every workload of want whose binding differs.
func compare(t *testing.T, want, got map[string]placement) {
	t.Helper()
	for k, w := range want {
		if g := got[k]; g != w {
			t.Errorf("%s:\n  lint:              %s\n  karmada-scheduler: %s", k, w, g)
		}
	}
	t.Logf("%d bindings compared", len(want))
}

// export writes `kubectl get KIND -A -o yaml`, as a user exports today's state for lint.
func export(t *testing.T, e e2eenv.Env, kind, file string) string {
	t.Helper()
	out, code := e.KubectlRun(t, "get", kind, "-A", "-o", "yaml")
	if code != 0 {
		t.Fatalf("kubectl get %s: %s", kind, out)
	}
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// scaled is the workloads file with one Deployment's replicas changed.
func scaled(t *testing.T, from, to, name string, replicas int64) string {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var docs []string
	for _, doc := range strings.Split(string(b), "\n---\n") {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatal(err)
		}
		if obj == nil {
			continue
		}
		u := unstructured.Unstructured{Object: obj}
		if u.GetKind() == "Deployment" && u.GetName() == name {
			if err := unstructured.SetNestedField(u.Object, replicas, "spec", "replicas"); err != nil {
				t.Fatal(err)
			}
		}
		out, err := yaml.Marshal(u.Object)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(out))
	}
	if err := os.WriteFile(to, []byte(strings.Join(docs, "---\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return to
}

// TestSchedulingIsLintsPrediction: the first schedule of the examples, then day two step by step; before
// each step lint predicts from the state exported as a user would export it, and after it
// karmada-scheduler's bindings must be exactly that.
func TestSchedulingIsLintsPrediction(t *testing.T) {
	e := e2eenv.Get(t)
	ctx := context.Background()
	dyn := e.Dynamic(t)
	ex := filepath.Join(e.Repo, "manifests/examples")
	policies := []string{filepath.Join(ex, "dc-groups.yaml"), filepath.Join(ex, "overflow-onprem-cloud.yaml"),
		filepath.Join(ex, "checkout-local-idc.yaml")}
	workloads := filepath.Join(ex, "workloads.yaml")

	ok := t.Run("first schedule", func(t *testing.T) {
		want := predict(t, e, filepath.Join(ex, "clusters.yaml"), workloads, "", policies) // before anything is applied
		if len(want) == 0 {
			t.Fatal("lint predicted no scheduling at all for the examples")
		}
		namespaces := map[string]bool{}
		for k := range want {
			namespaces[strings.Split(k, "/")[1]] = true
		}
		for ns := range namespaces {
			e.EnsureNamespaces(t, ns)
		}
		createClusters(t, ctx, dyn, filepath.Join(ex, "clusters.yaml"))
		applyPolicies(t, e, policies)
		if out, code := e.KubectlRun(t, "apply", "-f", workloads); code != 0 {
			t.Fatalf("kubectl apply -f %s: %s", workloads, out)
		}
		compare(t, want, scheduled(t, ctx, dyn, want, nil, policies))
	})
	if !ok {
		return
	}
	if e.Older() {
		t.Run("day two", func(t *testing.T) {
			e.DefaultReleaseOnly(t, "the day-two steps tier nginx-overflow's replicas with overflowAffinities (Karmada v1.18.0 and later)")
		})
		return
	}

	// Day two: nginx-overflow (10 replicas over the on-prem tier) scaled past on-prem into the cloud tier
	// and back, each step predicted from `kubectl get clusters,rb` exported just before it.
	const workload = "Deployment/default/nginx-overflow"
	for _, step := range []int64{40, 4} {
		t.Run(fmt.Sprintf("scale nginx-overflow to %d", step), func(t *testing.T) {
			dir := t.TempDir()
			clusters := export(t, e, "clusters", filepath.Join(dir, "clusters.yaml"))
			bindings := export(t, e, "resourcebindings", filepath.Join(dir, "bindings.yaml"))
			next := scaled(t, workloads, filepath.Join(dir, "workloads.yaml"), "nginx-overflow", step)
			want := predict(t, e, clusters, next, bindings, policies)
			if _, found := want[workload]; !found {
				t.Fatalf("lint predicts nothing for %s: %v", workload, want)
			}
			if out, code := e.KubectlRun(t, "apply", "-f", next); code != 0 {
				t.Fatalf("kubectl apply: %s", out)
			}
			// Every binding, the scaled one once the detector has its replicas: the others as lint
			// re-schedules them from the export.
			compare(t, want, scheduled(t, ctx, dyn, want, func(w string, rb *unstructured.Unstructured) bool {
				n, _, _ := unstructured.NestedInt64(rb.Object, "spec", "replicas")
				return w != workload || n == step
			}, policies))
		})
	}

	// A pull request's policy edit (manifests/examples/pr-edit/: checkout loses cloud-east-1, nginx's
	// groups reordered) applied: what `lint --bindings` predicted is what the scheduler does.
	edit := filepath.Join(ex, "pr-edit")
	edited := []string{filepath.Join(edit, "dc-groups.yaml"), filepath.Join(edit, "overflow-onprem-cloud.yaml"),
		filepath.Join(edit, "checkout-local-idc.yaml")}
	ok = t.Run("apply the pr-edit policies", func(t *testing.T) {
		dir := t.TempDir()
		clusters := export(t, e, "clusters", filepath.Join(dir, "clusters.yaml"))
		bindings := export(t, e, "resourcebindings", filepath.Join(dir, "bindings.yaml"))
		workloads := export(t, e, "deployments", filepath.Join(dir, "workloads.yaml"))
		want := predict(t, e, clusters, workloads, bindings, edited)
		before := generations(t, ctx, dyn)
		for _, f := range edited {
			if out, code := e.KubectlRun(t, "apply", "-f", f); code != 0 {
				t.Fatalf("kubectl apply -f %s: %s", f, out)
			}
		}
		// The two edited policies' bindings get a new generation from the detector.
		moved := map[string]bool{"Deployment/production/checkout": true, "Deployment/default/nginx": true}
		compare(t, want, scheduled(t, ctx, dyn, want, func(w string, rb *unstructured.Unstructured) bool {
			return !moved[w] || rb.GetGeneration() > before[w]
		}, edited))
	})
	if !ok {
		return
	}

	// Operations on the clusters and a rebalance, with the edited policies in force.
	steps, compared := dayTwoOperations(t, ctx, e, dyn, filepath.Join(ex, "clusters.yaml"), edited)
	t.Logf("day-two operations: %d steps, %d binding comparisons", steps, compared)
}

// applyPolicies applies the example policies as a user of the plane's release can: with kubectl's default
// strict field validation on the default release; on an older one with --validate=false, so that the API
// server drops overflowAffinities (v1.18.0 and later) instead of refusing the policy, and karmada-scheduler
// schedules what is left (what lint --validate ignore predicts: the issue's "spreads in a way nobody
// planned").
func applyPolicies(t *testing.T, e e2eenv.Env, files []string) {
	t.Helper()
	for _, f := range files {
		args := []string{"apply", "-f", f}
		if e.Older() {
			args = append(args, "--validate=false")
		}
		if out, code := e.KubectlRun(t, args...); code != 0 {
			t.Fatalf("kubectl %s: %s", strings.Join(args, " "), out)
		}
	}
}

// generations are the bindings' metadata.generation per workload.
func generations(t *testing.T, ctx context.Context, dyn dynamic.Interface) map[string]int64 {
	t.Helper()
	list, err := dyn.Resource(bindingsGVR).Namespace("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, rb := range list.Items {
		kind, _, _ := unstructured.NestedString(rb.Object, "spec", "resource", "kind")
		ns, _, _ := unstructured.NestedString(rb.Object, "spec", "resource", "namespace")
		name, _, _ := unstructured.NestedString(rb.Object, "spec", "resource", "name")
		out[kind+"/"+ns+"/"+name] = rb.GetGeneration()
	}
	return out
}
