package members

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// webManifest is a small Deployment and a PropagationPolicy sending it to one member by name.
const webManifest = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: members-web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: registry.example.com/web:1.0
        resources: {requests: {cpu: 100m, memory: 128Mi}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: members-web}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {clusterNames: [MEMBER]}
`

// TestPropagation: a Deployment propagated by a PropagationPolicy to the cloud member becomes a Work in
// its execution namespace, applied there (the execution controller), three pods Running on its KWOK
// nodes, and the member's status comes back: the binding's aggregatedStatus (applied, Healthy) and the
// Deployment's status on Karmada (readyReplicas, availableReplicas) from the member's.
func TestPropagation(t *testing.T) {
	e := e2eenv.Get(t)
	ms := e.RequireMembers(t, 2)
	ctx := context.Background()
	dyn := e.Dynamic(t)
	ensureNodes(t, ctx, e, dyn, ms)
	target, other := byLocation(t, ms, "cloud"), byLocation(t, ms, "idc")

	e.EnsureNamespaces(t, "members-web")
	t.Cleanup(func() { deleteWorkload(t, e, "members-web", "web") })
	if out, code := kubectlIn(t, e, strings.ReplaceAll(webManifest, "MEMBER", target.Name), "apply", "-f", "-"); code != 0 {
		t.Fatal(out)
	}

	// The Work, applied on the member.
	workNS := "karmada-es-" + target.Name
	var work *unstructured.Unstructured
	e2eenv.WaitFor(t, "the web Work in "+workNS+" Applied", time.Minute, func() bool {
		list, err := dyn.Resource(worksGVR).Namespace(workNS).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false
		}
		for i, w := range list.Items {
			if manifestOf(&w, "Deployment", "members-web", "web") {
				if status, _ := condition(w.Object, "Applied", "status"); status == "True" {
					work = &list.Items[i]
					return true
				}
			}
		}
		return false
	})
	t.Logf("Work %s/%s applied on %s", work.GetNamespace(), work.GetName(), target.Name)

	// Pods Running on the member's KWOK nodes.
	e2eenv.WaitFor(t, "3 web pods Running on "+target.Name, time.Minute, func() bool {
		out, code := e.MemberKubectl(t, target, "", "get", "pods", "-n", "members-web", "-l", "app=web", "-o",
			`jsonpath={range .items[*]}{.status.phase} {.spec.nodeName}{"\n"}{end}`)
		if code != 0 {
			return false
		}
		running := 0
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "Running" && strings.HasPrefix(f[1], target.Name+"-node-") {
				running++
			}
		}
		return running == 3
	})

	// Aggregated status: the binding's, then the template's on Karmada.
	e2eenv.WaitFor(t, "web's binding aggregatedStatus and its Deployment status from "+target.Name, time.Minute, func() bool {
		rb, err := dyn.Resource(bindingsGVR).Namespace("members-web").Get(ctx, "web-deployment", metav1.GetOptions{})
		if err != nil {
			return false
		}
		items, _, _ := unstructured.NestedSlice(rb.Object, "status", "aggregatedStatus")
		if len(items) != 1 {
			return false
		}
		item, _ := items[0].(map[string]any)
		if item["clusterName"] != target.Name || item["applied"] != true || item["health"] != "Healthy" {
			return false
		}
		d, err := dyn.Resource(deployGVR).Namespace("members-web").Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false
		}
		ready, _, _ := unstructured.NestedInt64(d.Object, "status", "readyReplicas")
		avail, _, _ := unstructured.NestedInt64(d.Object, "status", "availableReplicas")
		return ready == 3 && avail == 3
	})

	// Nothing on the member the policy does not name.
	if out, code := e.MemberKubectl(t, other, "", "get", "deployment", "-n", "members-web", "web"); code == 0 || !strings.Contains(out, "NotFound") {
		t.Errorf("%s has web too (or kubectl failed otherwise): %s", other.Name, out)
	}
}

// byLocation is the first member labelled location=loc.
func byLocation(t *testing.T, ms []e2eenv.Member, loc string) e2eenv.Member {
	t.Helper()
	for _, m := range ms {
		if m.Labels["location"] == loc {
			return m
		}
	}
	t.Fatalf("no member with location=%s among %v", loc, ms)
	return e2eenv.Member{}
}

// manifestOf says whether the Work carries the object.
func manifestOf(w *unstructured.Unstructured, kind, ns, name string) bool {
	ws, _, _ := unstructured.NestedSlice(w.Object, "spec", "workload", "manifests")
	for _, m := range ws {
		o, _ := m.(map[string]any)
		u := unstructured.Unstructured{Object: o}
		if u.GetKind() == kind && u.GetNamespace() == ns && u.GetName() == name {
			return true
		}
	}
	return false
}

// kubectlIn runs the plane's kubectl with stdin.
func kubectlIn(t *testing.T, e e2eenv.Env, stdin string, args ...string) (string, int) {
	t.Helper()
	return e.MemberKubectl(t, e2eenv.Member{Kubeconfig: e.Kubeconfig}, stdin, args...)
}

// deleteWorkload deletes a test's policy and Deployment from Karmada, then its binding: no garbage
// collector runs on the Karmada plane (kube-controller-manager is not part of it), so the binding an
// owner reference ties to the Deployment stays unless deleted; Karmada's binding controller then removes
// its Works and the execution controller the objects on the members.
func deleteWorkload(t *testing.T, e e2eenv.Env, ns, name string) {
	t.Helper()
	for _, args := range [][]string{
		{"delete", "propagationpolicy", "-n", ns, name, "--ignore-not-found"},
		{"delete", "deployment", "-n", ns, name, "--ignore-not-found"},
		{"delete", "resourcebinding", "-n", ns, name + "-deployment", "--ignore-not-found"},
	} {
		if out, code := e.KubectlRun(t, args...); code != 0 {
			t.Errorf("cleanup: kubectl %s: %s", strings.Join(args, " "), out)
		}
	}
}
