// Package members runs against a plane with member clusters (issue 39: control-plane.sh up DIR --members 2
// --estimator, ./dev.sh e2e-members): kube-apiservers whose nodes and pods KWOK simulates, joined with
// karmadactl join, with karmada-controller-manager's default controllers and a karmada-scheduler-estimator
// per member. What the other packages write by hand (Cluster status) comes from Karmada here, and what
// they cannot see (Works executed on members, pods Running, aggregated status) is checked. Every test
// skips on a plane without members.
package members

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

var (
	clustersGVR = e2eenv.ClustersGVR
	bindingsGVR = schema.GroupVersionResource{Group: "work.karmada.io", Version: "v1alpha2", Resource: "resourcebindings"}
	worksGVR    = schema.GroupVersionResource{Group: "work.karmada.io", Version: "v1alpha1", Resource: "works"}
	deployGVR   = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
)

// shape is the KWOK nodes every test finds on a member of a location: the IDC small (the drill fills
// it), the cloud large.
type shape struct {
	count       int
	cpu, memory string
	pods        int
}

var shapes = map[string]shape{
	"idc":   {count: 2, cpu: "4", memory: "16Gi", pods: 110},
	"cloud": {count: 2, cpu: "8", memory: "32Gi", pods: 110},
}

func shapeOf(t *testing.T, m e2eenv.Member) shape {
	t.Helper()
	s, ok := shapes[m.Labels["location"]]
	if !ok {
		t.Fatalf("member %s: no node shape for location %q", m.Name, m.Labels["location"])
	}
	return s
}

// total is count times a per-node quantity.
func total(t *testing.T, q string, count int) resource.Quantity {
	t.Helper()
	per := resource.MustParse(q)
	var sum resource.Quantity
	for range count {
		sum.Add(per)
	}
	return sum
}

// ensureNodes gives every member its shape's nodes (applying them again changes nothing) and waits until
// they are Ready without taints on the member (after a member's API server was down, kube-controller-
// manager's node lifecycle controller taints nodes whose heartbeat it missed until KWOK's next one) and
// Karmada's cluster-status controller reports them: every node Ready and the allocatable sum.
func ensureNodes(t *testing.T, ctx context.Context, e e2eenv.Env, dyn dynamic.Interface, ms []e2eenv.Member) {
	t.Helper()
	for _, m := range ms {
		s := shapeOf(t, m)
		e.AddNodes(t, m, m.Name+"-node", s.count, s.cpu, s.memory, s.pods)
	}
	for _, m := range ms {
		s := shapeOf(t, m)
		e2eenv.WaitFor(t, m.Name+"'s nodes Ready and untainted", 2*time.Minute, func() bool {
			out, code := e.MemberKubectl(t, m, "", "get", "nodes", "-o",
				`jsonpath={range .items[*]}{.metadata.name} {.status.conditions[?(@.type=="Ready")].status} {.spec.taints}{"\n"}{end}`)
			if code != 0 {
				return false
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			for _, l := range lines {
				if f := strings.Fields(l); len(f) != 2 || f[1] != "True" {
					return false // not Ready, or tainted
				}
			}
			return len(lines) == s.count
		})
		want := total(t, s.cpu, s.count)
		e2eenv.WaitFor(t, m.Name+"'s "+fmt.Sprint(s.count)+" nodes in its Cluster status", time.Minute, func() bool {
			c, err := dyn.Resource(clustersGVR).Get(ctx, m.Name, metav1.GetOptions{})
			if err != nil {
				return false
			}
			ready, _, _ := unstructured.NestedInt64(c.Object, "status", "nodeSummary", "readyNum")
			cpu, _, _ := unstructured.NestedString(c.Object, "status", "resourceSummary", "allocatable", "cpu")
			q, err := resource.ParseQuantity(cpu)
			return err == nil && ready == int64(s.count) && q.Cmp(want) == 0
		})
	}
}

// condition is a status condition's status and reason ("" when absent).
func condition(obj map[string]any, typ string, path ...string) (status, reason string) {
	conds, _, _ := unstructured.NestedSlice(obj, append(path, "conditions")...)
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == typ {
			status, _ = m["status"].(string)
			reason, _ = m["reason"].(string)
			return status, reason
		}
	}
	return "", ""
}

// TestMembersJoin: karmadactl join made each Cluster (Push mode, the member's endpoint, its credentials in
// karmada-cluster/NAME) and Karmada's cluster-status controller, not the test, wrote its status: Ready,
// the member's API enablements, its KWOK nodes in nodeSummary and resourceSummary (allocatable summed
// over the nodes, allocatable modelings for the default resource models).
func TestMembersJoin(t *testing.T) {
	e := e2eenv.Get(t)
	ms := e.RequireMembers(t, 1)
	ctx := context.Background()
	dyn := e.Dynamic(t)
	ensureNodes(t, ctx, e, dyn, ms)
	for _, m := range ms {
		t.Run(m.Name, func(t *testing.T) {
			c, err := dyn.Resource(clustersGVR).Get(ctx, m.Name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			s := shapeOf(t, m)
			str := func(path ...string) string {
				v, _, _ := unstructured.NestedString(c.Object, path...)
				return v
			}
			checks := []struct {
				what, got, want string
			}{
				{"spec.syncMode", str("spec", "syncMode"), "Push"},
				{"spec.apiEndpoint", str("spec", "apiEndpoint"), trimSlash(m.Server)},
				{"spec.secretRef", str("spec", "secretRef", "namespace") + "/" + str("spec", "secretRef", "name"), "karmada-cluster/" + m.Name},
				{"label location", c.GetLabels()["location"], m.Labels["location"]},
				{"nodeSummary", fmt.Sprint(nested(c, "status", "nodeSummary", "totalNum"), "/", nested(c, "status", "nodeSummary", "readyNum")),
					fmt.Sprint(s.count, "/", s.count)},
			}
			for _, ck := range checks {
				if ck.got != ck.want {
					t.Errorf("%s: %q, want %q", ck.what, ck.got, ck.want)
				}
			}
			if status, reason := condition(c.Object, "Ready", "status"); status != "True" || reason != "ClusterReady" {
				t.Errorf("Ready condition %s/%s, want True/ClusterReady", status, reason)
			}
			if str("status", "kubernetesVersion") == "" {
				t.Error("no status.kubernetesVersion")
			}
			for res, want := range map[string]resource.Quantity{"cpu": total(t, s.cpu, s.count),
				"memory": total(t, s.memory, s.count), "pods": *resource.NewQuantity(int64(s.pods*s.count), resource.DecimalSI)} {
				got, err := resource.ParseQuantity(str("status", "resourceSummary", "allocatable", res))
				if err != nil || got.Cmp(want) != 0 {
					t.Errorf("resourceSummary.allocatable.%s = %q, want %s", res, str("status", "resourceSummary", "allocatable", res), want.String())
				}
			}
			if mods, _, _ := unstructured.NestedSlice(c.Object, "status", "resourceSummary", "allocatableModelings"); len(mods) == 0 {
				t.Error("no resourceSummary.allocatableModelings (the default resource models' counts)")
			}
			if !enabled(c, "apps/v1", "Deployment") {
				t.Error("status.apiEnablements lacks apps/v1 Deployment")
			}
		})
	}
}

func trimSlash(s string) string {
	for len(s) > 0 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}

func nested(u *unstructured.Unstructured, path ...string) any {
	v, _, _ := unstructured.NestedFieldNoCopy(u.Object, path...)
	return v
}

// enabled says whether the Cluster's apiEnablements list the kind in the group version.
func enabled(c *unstructured.Unstructured, gv, kind string) bool {
	ens, _, _ := unstructured.NestedSlice(c.Object, "status", "apiEnablements")
	for _, en := range ens {
		m, _ := en.(map[string]any)
		if m["groupVersion"] != gv {
			continue
		}
		rs, _ := m["resources"].([]any)
		for _, r := range rs {
			if rm, _ := r.(map[string]any); rm["kind"] == kind {
				return true
			}
		}
	}
	return false
}
