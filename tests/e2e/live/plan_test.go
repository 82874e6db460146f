package live

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// planOutput is what the test reads of `plan -o json`.
type planOutput struct {
	Diff []struct {
		Workload struct{ Kind, Namespace, Name string } `json:"workload"`
		Before   planPlacement                          `json:"before"`
		After    planPlacement                          `json:"after"`
	} `json:"diff"`
	Policies []struct {
		Action, Kind, Namespace, Name string
	} `json:"policies"`
}

type planPlacement struct {
	Policy   string `json:"policy"`
	Clusters []struct {
		Name     string `json:"name"`
		Replicas int64  `json:"replicas"`
	} `json:"clusters"`
}

// clusters is the placement as "name=replicas" sorted, comma separated, as clusterList writes a binding's.
func (p planPlacement) clusters() string {
	var cs []string
	for _, c := range p.Clusters {
		cs = append(cs, fmt.Sprintf("%s=%d", c.Name, c.Replicas))
	}
	sort.Strings(cs)
	return strings.Join(cs, ",")
}

// planPredictsTheEdit: `plan --kubeconfig manifests/examples/pr-edit` before the pull request's policy
// edit is applied; then `kubectl apply -f pr-edit`, and once karmada-scheduler has re-scheduled the
// bindings of the changed policies, every binding is where the plan said: the diff's `after` for the
// workloads it moves, where it was for the others (which must not have been touched at all).
func planPredictsTheEdit(t *testing.T, ctx context.Context, x *examples) {
	edit := filepath.Join(x.dir, "pr-edit")
	out := x.run(t, "plan", "-o", "json", "--kubeconfig", x.e.Kubeconfig, edit)
	var plan planOutput
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatalf("plan -o json: %v\n%s", err, out)
	}

	// The policy rows: the two edited policies change; the third file adds only a comment.
	wantActions := map[string]string{
		"PropagationPolicy/default/nginx":                "change",
		"PropagationPolicy/production/checkout-overflow": "change",
		"PropagationPolicy/default/nginx-overflow":       "unchanged",
	}
	gotActions := map[string]string{}
	changed := map[string]bool{} // "namespace/name" of the policies the apply changes
	for _, p := range plan.Policies {
		gotActions[p.Kind+"/"+p.Namespace+"/"+p.Name] = p.Action
		if p.Action == "change" {
			changed[p.Namespace+"/"+p.Name] = true
		}
	}
	if fmt.Sprint(gotActions) != fmt.Sprint(wantActions) {
		t.Errorf("plan's policy rows: got %v, want %v", gotActions, wantActions)
	}

	before := x.bindings(t, ctx)
	claims := x.claimingPolicies(t, ctx)
	predicted := map[string]string{} // workload -> the placement plan predicts
	for _, w := range exampleWorkloads {
		predicted[w] = before[w].Clusters
	}
	for _, d := range plan.Diff {
		w := d.Workload.Kind + "/" + d.Workload.Namespace + "/" + d.Workload.Name
		if got := d.Before.clusters(); got != before[w].Clusters {
			t.Errorf("%s: plan's before is [%s], the binding is at [%s]", w, got, before[w].Clusters)
		}
		predicted[w] = d.After.clusters()
	}
	if len(plan.Diff) == 0 {
		t.Errorf("plan predicts no move for the pull request's edit:\n%s", out)
	}

	for _, f := range []string{"dc-groups.yaml", "overflow-onprem-cloud.yaml", "checkout-local-idc.yaml"} {
		x.kubectl(t, "apply", "-f", filepath.Join(edit, f))
	}
	// The bindings of the changed policies get a new generation from the detector; the scheduler has
	// handled them once schedulerObservedGeneration caught up with it.
	after := x.waitScheduled(t, ctx, func(w string, p placement) bool {
		return !changed[claims[w]] || p.Generation > before[w].Generation
	})
	for _, w := range exampleWorkloads {
		if got := after[w].Clusters; got != predicted[w] {
			t.Errorf("%s (policy %s):\n  plan:              [%s]\n  karmada-scheduler: [%s]", w, claims[w], predicted[w], got)
		}
		t.Logf("%s: [%s] -> [%s] (plan: [%s])", w, before[w].Clusters, after[w].Clusters, predicted[w])
		if !changed[claims[w]] && after[w] != before[w] {
			t.Errorf("%s: its policy is unchanged, yet its binding went from %+v to %+v", w, before[w], after[w])
		}
	}
	t.Logf("%d bindings compared, %d moved as planned", len(exampleWorkloads), len(plan.Diff))
}

// binding is the ResourceBinding the detector keeps for example workload w ("Kind/namespace/name").
func (x *examples) binding(t *testing.T, ctx context.Context, w string) *unstructured.Unstructured {
	t.Helper()
	parts := strings.Split(w, "/")
	rb, err := x.dyn.Resource(bindingsGVR).Namespace(parts[1]).Get(ctx, parts[2]+"-"+strings.ToLower(parts[0]), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return rb
}

// claimingPolicies is each example workload's claiming policy, "namespace/name", as its binding records it.
func (x *examples) claimingPolicies(t *testing.T, ctx context.Context) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, w := range exampleWorkloads {
		a := x.binding(t, ctx, w).GetAnnotations()
		ns, name := a["propagationpolicy.karmada.io/namespace"], a["propagationpolicy.karmada.io/name"]
		if name == "" {
			t.Fatalf("binding of %s names no claiming policy: %v", w, a)
		}
		out[w] = ns + "/" + name
	}
	return out
}
