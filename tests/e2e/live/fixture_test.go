// Package live checks issue 27's live inputs against the loopback control plane: what `lint`,
// `simulate` and `plan` read from karmada-apiserver through --kubeconfig must give exactly what the same
// objects exported with kubectl give; `plan` must predict what karmada-scheduler then does; `serve
// --kubeconfig` must follow the Clusters as they change; a kubeconfig the server refuses must fail
// clearly, without printing its secret.
package live

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
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

// examples is the shipped examples' state on the plane: the Clusters of clusters.yaml (status written
// through the status subresource), the workloads and the three example policies, all scheduled.
type examples struct {
	e        e2eenv.Env
	dyn      dynamic.Interface
	dir      string   // manifests/examples
	policies []string // the example policy files
	clusters []string // the Clusters created
}

// exampleWorkloads are the Deployments of workloads.yaml the example policies claim.
var exampleWorkloads = []string{"Deployment/default/nginx", "Deployment/default/nginx-overflow", "Deployment/production/checkout"}

// setUp applies the examples to a plane holding none of them (what an earlier package or run left of them
// is deleted first) and waits until karmada-scheduler has scheduled every binding; the test's cleanup
// deletes them again, so that the scheduling package (which runs later) starts from a plane without them.
func setUp(t *testing.T, ctx context.Context) *examples {
	t.Helper()
	e := e2eenv.Get(t)
	e.DefaultReleaseOnly(t, "its fixture is the examples' overflow policies (overflowAffinities: Karmada v1.18.0 and later)")
	x := &examples{e: e, dyn: e.Dynamic(t), dir: filepath.Join(e.Repo, "manifests/examples")}
	for _, f := range []string{"dc-groups.yaml", "overflow-onprem-cloud.yaml", "checkout-local-idc.yaml"} {
		x.policies = append(x.policies, filepath.Join(x.dir, f))
	}
	x.tearDown(t, ctx)
	t.Cleanup(func() { x.tearDown(t, context.Background()) })
	e.EnsureNamespaces(t, "default", "production")
	x.clusters = createClusters(t, ctx, x.dyn, filepath.Join(x.dir, "clusters.yaml"))
	for _, f := range append(append([]string{}, x.policies...), filepath.Join(x.dir, "workloads.yaml")) {
		x.kubectl(t, "apply", "-f", f)
	}
	x.waitScheduled(t, ctx, nil)
	return x
}

// kubectl runs the plane's kubectl and fails the test when it fails.
func (x *examples) kubectl(t *testing.T, args ...string) string {
	t.Helper()
	out, code := x.e.KubectlRun(t, args...)
	if code != 0 {
		t.Fatalf("kubectl %s: %s", strings.Join(args, " "), out)
	}
	return out
}

// tearDown deletes the examples' policies, workloads, bindings and Clusters (and the Cluster the serve
// test adds), and waits until the bindings are gone: no garbage collector runs here, and a binding left
// behind would make the next first schedule a re-schedule.
func (x *examples) tearDown(t *testing.T, ctx context.Context) {
	t.Helper()
	for _, args := range [][]string{
		{"delete", "propagationpolicies", "-n", "default", "nginx", "nginx-overflow", "--ignore-not-found"},
		{"delete", "propagationpolicies", "-n", "production", "checkout-overflow", "--ignore-not-found"},
		{"delete", "-f", filepath.Join(x.dir, "workloads.yaml"), "--ignore-not-found"},
	} {
		x.kubectl(t, args...)
	}
	for _, w := range exampleWorkloads {
		parts := strings.Split(w, "/")
		name := parts[2] + "-" + strings.ToLower(parts[0])
		err := x.dyn.Resource(bindingsGVR).Namespace(parts[1]).Delete(ctx, name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Fatalf("deleting ResourceBinding %s/%s: %v", parts[1], name, err)
		}
	}
	e2eenv.WaitFor(t, "the examples' bindings to be deleted", time.Minute, func() bool {
		for _, w := range exampleWorkloads {
			parts := strings.Split(w, "/")
			_, err := x.dyn.Resource(bindingsGVR).Namespace(parts[1]).Get(ctx, parts[2]+"-"+strings.ToLower(parts[0]), metav1.GetOptions{})
			if !apierrors.IsNotFound(err) {
				return false
			}
		}
		return true
	})
	// The scheduling package's dr-failover drill runs the cluster controller for a while, which puts its
	// finalizer on every Cluster; no controller removes it afterwards, so the test does (a plane without
	// the examples is what it wants, whichever package ran first).
	names := append(exampleClusterNames(t, filepath.Join(x.dir, "clusters.yaml")), addedCluster)
	for _, name := range names {
		c, err := x.dyn.Resource(clustersGVR).Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(c.GetFinalizers()) > 0 {
			e2eenv.UpdateCluster(t, ctx, x.dyn, name, func(c *unstructured.Unstructured) { c.SetFinalizers(nil) })
		}
		if err := x.dyn.Resource(clustersGVR).Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Fatalf("deleting Cluster %s: %v", name, err)
		}
	}
	e2eenv.WaitFor(t, "the examples' Clusters to be deleted", time.Minute, func() bool {
		for _, name := range names {
			if _, err := x.dyn.Resource(clustersGVR).Get(ctx, name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				return false
			}
		}
		return true
	})
}

// placement is one binding as the comparisons see it.
type placement struct {
	Generation, Observed int64
	Scheduled            string // the Scheduled condition's status ("" when there is none)
	Clusters             string // spec.clusters as "name=replicas", sorted, comma separated
	// Holder is the policy the binding's claim names, as plan names it ("" for none). It is read from the
	// same object as the placement: the detector writes a new claim and its placement in one update, so
	// only together do they say whether the scheduler has acted on the new holder's placement.
	Holder string
	// PlacementApplied: karmada-scheduler has scheduled the binding's current spec.placement (its
	// policy.karmada.io/applied-placement annotation, written with spec.clusters, is that placement).
	PlacementApplied bool
}

// bindings reads the examples' bindings, per workload "Kind/namespace/name".
func (x *examples) bindings(t *testing.T, ctx context.Context) map[string]placement {
	t.Helper()
	list, err := x.dyn.Resource(bindingsGVR).Namespace("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]placement{}
	for _, rb := range list.Items {
		kind, _, _ := unstructured.NestedString(rb.Object, "spec", "resource", "kind")
		ns, _, _ := unstructured.NestedString(rb.Object, "spec", "resource", "namespace")
		name, _, _ := unstructured.NestedString(rb.Object, "spec", "resource", "name")
		p := placement{Generation: rb.GetGeneration(), Clusters: clusterList(&rb), PlacementApplied: placementApplied(&rb),
			Holder: holderOf(&rb)}
		p.Observed, _, _ = unstructured.NestedInt64(rb.Object, "status", "schedulerObservedGeneration")
		conds, _, _ := unstructured.NestedSlice(rb.Object, "status", "conditions")
		for _, c := range conds {
			if m, _ := c.(map[string]any); m["type"] == "Scheduled" {
				p.Scheduled, _ = m["status"].(string)
			}
		}
		out[kind+"/"+ns+"/"+name] = p
	}
	return out
}

// waitScheduled waits until karmada-scheduler has handled the binding of every example workload: it
// exists, has a Scheduled condition and its schedulerObservedGeneration has caught up; after(w, p), when
// given, must also hold (the detector has written a step's change).
func (x *examples) waitScheduled(t *testing.T, ctx context.Context, after func(string, placement) bool) map[string]placement {
	t.Helper()
	var got map[string]placement
	e2eenv.WaitFor(t, "karmada-scheduler to schedule every example binding", 2*time.Minute, func() bool {
		got = x.bindings(t, ctx)
		for _, w := range exampleWorkloads {
			p, ok := got[w]
			if !ok || p.Scheduled == "" || p.Observed < p.Generation || (after != nil && !after(w, p)) {
				return false
			}
		}
		return true
	})
	return got
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

// exampleClusterNames are the Clusters of clusters.yaml.
func exampleClusterNames(t *testing.T, file string) []string {
	t.Helper()
	var names []string
	for _, item := range clusterItems(t, file) {
		names = append(names, (&unstructured.Unstructured{Object: item}).GetName())
	}
	return names
}

func clusterItems(t *testing.T, file string) []map[string]any {
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
	return list.Items
}

// createClusters creates the Clusters of the file and writes each one's status as the cluster-status
// controller would (status is ignored on create).
func createClusters(t *testing.T, ctx context.Context, dyn dynamic.Interface, file string) []string {
	t.Helper()
	var names []string
	for _, item := range clusterItems(t, file) {
		u := &unstructured.Unstructured{Object: item}
		names = append(names, u.GetName())
		createCluster(t, ctx, dyn, u)
	}
	return names
}

// createCluster creates one Cluster with the status it carries.
func createCluster(t *testing.T, ctx context.Context, dyn dynamic.Interface, u *unstructured.Unstructured) {
	t.Helper()
	status := u.Object["status"]
	for _, f := range []string{"resourceVersion", "uid", "creationTimestamp", "generation", "finalizers"} {
		unstructured.RemoveNestedField(u.Object, "metadata", f)
	}
	created, err := dyn.Resource(clustersGVR).Create(ctx, u, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating Cluster %s: %v", u.GetName(), err)
	}
	created.Object["status"] = status
	if _, err := dyn.Resource(clustersGVR).UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("writing Cluster %s's status: %v", u.GetName(), err)
	}
}

// export writes `kubectl get ARGS -o yaml` to dir/name, as a user exports today's state for lint.
func (x *examples) export(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	file := filepath.Join(dir, name)
	out := x.kubectl(t, append(append([]string{"get"}, args...), "-o", "yaml")...)
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// run runs our binary; an exit code above 1 (usage, I/O or API error) fails the test.
func (x *examples) run(t *testing.T, args ...string) string {
	t.Helper()
	out, code := runSplit(t, x.e.Lint, args...)
	if code > 1 {
		t.Fatalf("karmada-policy-webhook %s: exit %d\n%s", strings.Join(args, " "), code, out.stderr)
	}
	return out.stdout
}

// field decodes one top-level field of a JSON document as generic JSON re-encoded canonically (map keys
// sorted), for comparisons that must not depend on the order of keys.
func field(t *testing.T, doc, name string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, doc)
	}
	raw, ok := m[name]
	if !ok {
		t.Fatalf("no %q in %s", name, doc)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// placementApplied: the placement karmada-scheduler last scheduled (scheduler.go
// patchScheduleResultForResourceBinding writes it as the policy.karmada.io/applied-placement annotation
// with spec.clusters) is the binding's spec.placement, compared as JSON values.
func placementApplied(rb *unstructured.Unstructured) bool {
	applied := rb.GetAnnotations()["policy.karmada.io/applied-placement"]
	spec, found, err := unstructured.NestedMap(rb.Object, "spec", "placement")
	if applied == "" || !found || err != nil {
		return false
	}
	b, err := json.Marshal(spec)
	if err != nil {
		return false
	}
	var want, got any
	return json.Unmarshal(b, &want) == nil && json.Unmarshal([]byte(applied), &got) == nil && reflect.DeepEqual(want, got)
}
