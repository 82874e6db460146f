package scheduling

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// A barrier proves that karmada-scheduler has handled every Cluster event up to now, for the steps after
// which nothing may change (a status edit enqueues no binding; a taint on a cluster no binding targets
// re-schedules none): "nothing changed" means something only once the scheduler is known to have seen the
// step.
//
// It is a sentinel Cluster no example policy selects (it is named by none) and a sentinel ConfigMap whose
// policy selects clusters labelled e2e-barrier=on. pass() flips the sentinel Cluster's label and waits
// until the sentinel binding shows the flip (placed there, or cleared by a FitError). Why that is enough:
// the scheduler receives Cluster events from one informer, in order, and hands them to one cluster worker
// (FIFO), which pushes the affected bindings onto its queue, FIFO at equal priority; one scheduling worker
// pops them. So the label flip, made after the step, is enqueued after the bindings the step enqueued, and
// the sentinel's new placement is written only after they were scheduled (or found to need nothing).
type barrier struct {
	dyn dynamic.Interface
	on  bool
}

const (
	barrierName  = "e2e-barrier" // the Cluster, the namespace, the ConfigMap and its policy
	barrierLabel = "e2e-barrier"
)

// newBarrier creates the sentinel Cluster (member2's status from clusters.yaml, written through the
// status subresource) and the sentinel ConfigMap and policy, or takes them over from an earlier test, and
// waits for the scheduler's decision on them.
func newBarrier(t *testing.T, ctx context.Context, e e2eenv.Env, dyn dynamic.Interface, clustersFile string) *barrier {
	t.Helper()
	b, err := os.ReadFile(clustersFile)
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Items []map[string]any `json:"items"`
	}
	if err := yaml.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	var model map[string]any
	for _, item := range list.Items {
		if u := (unstructured.Unstructured{Object: item}); u.GetName() == "member2" {
			model = item
		}
	}
	if model == nil {
		t.Fatalf("no member2 in %s", clustersFile)
	}
	c := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
		"metadata": map[string]any{"name": barrierName, "labels": map[string]any{barrierLabel: "off"}},
		"spec":     map[string]any{"syncMode": "Push", "apiEndpoint": "https://127.0.0.1:1"},
	}}
	created, err := dyn.Resource(clustersGVR).Create(ctx, c, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) { // made by an earlier test of the package
		created, err = dyn.Resource(clustersGVR).Get(ctx, barrierName, metav1.GetOptions{})
	}
	if err != nil {
		t.Fatal(err)
	}
	br := &barrier{dyn: dyn, on: created.GetLabels()[barrierLabel] == "on"}
	created.Object["status"] = model["status"]
	if _, err := dyn.Resource(clustersGVR).UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	e.EnsureNamespaces(t, barrierName)
	manifest := filepath.Join(t.TempDir(), "barrier.yaml")
	if err := os.WriteFile(manifest, []byte(fmt.Sprintf(`apiVersion: v1
kind: ConfigMap
metadata:
  name: %[1]s
  namespace: %[1]s
data:
  purpose: the e2e tests' scheduling barrier
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: %[1]s
  namespace: %[1]s
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
      name: %[1]s
  placement:
    clusterAffinity:
      labelSelector:
        matchLabels:
          %[2]s: "on"
`, barrierName, barrierLabel)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := e.KubectlRun(t, "apply", "-f", manifest); code != 0 {
		t.Fatalf("kubectl apply the barrier: %s", out)
	}
	br.wait(t, ctx)
	return br
}

// pass flips the sentinel Cluster's label and waits until the scheduler has acted on it.
func (b *barrier) pass(t *testing.T, ctx context.Context) {
	t.Helper()
	b.on = !b.on
	value := map[bool]string{true: "on", false: "off"}[b.on]
	e2eenv.UpdateCluster(t, ctx, b.dyn, barrierName, func(c *unstructured.Unstructured) {
		labels := c.GetLabels()
		labels[barrierLabel] = value
		c.SetLabels(labels)
	})
	b.wait(t, ctx)
}

// wait polls the sentinel binding until its placement is what the label says: on the sentinel Cluster
// (Scheduled=True) when on, cleared by a FitError (Scheduled=False, NoClusterFit) when off.
func (b *barrier) wait(t *testing.T, ctx context.Context) {
	t.Helper()
	want := map[bool]string{true: "True " + barrierName + "=0", false: "False "}[b.on]
	var got string
	e2eenv.WaitFor(t, "the scheduler to act on the barrier (want "+want+")", 2*time.Minute, func() bool {
		rb, err := b.dyn.Resource(bindingsGVR).Namespace(barrierName).Get(ctx, barrierName+"-configmap", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false
		}
		if err != nil {
			t.Fatal(err)
		}
		got = scheduledStatus(rb) + " " + clusterList(rb)
		return got == want
	})
}

// scheduledStatus is the Scheduled condition's status ("" when there is none).
func scheduledStatus(rb *unstructured.Unstructured) string {
	conds, _, _ := unstructured.NestedSlice(rb.Object, "status", "conditions")
	for _, c := range conds {
		if m, _ := c.(map[string]any); m["type"] == "Scheduled" {
			s, _ := m["status"].(string)
			return s
		}
	}
	return ""
}
