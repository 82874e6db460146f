package scheduling

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
)

// lifecycle is tests/data/lifecycle of the repository (README.md there).
func lifecycle(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs("../../../data/lifecycle")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// Each change of tests/data/lifecycle through Karmada's policy reconcilers: who claims web afterwards and
// where it runs, or that it is released and keeps its clusters.
func TestRunChange(t *testing.T) {
	d := lifecycle(t)
	tests := []struct {
		name               string
		workloads, binding string
		base, after        string
		policy             string // the new-side policy name that holds web, "" for none
		clusters           string
		released           string // "" when web is not released
	}{
		{"deleted and replaced", "workloads.yaml", "bindings.yaml", "base", "replace", "new", "member2:3", ""},
		{"deleted, nothing claims it", "workloads.yaml", "bindings.yaml", "base", "none", "", "", "PropagationPolicy default/old member1:3"},
		{"a cluster policy takes over", "workloads.yaml", "bindings.yaml", "base", "cluster-policy", "all-deployments", "member1:3 member2:3", ""},
		{"relabelled, holder changed", "relabel/workloads.yaml", "relabel/bindings.yaml", "relabel/base", "relabel/changed", "team-b", "member2:3", ""},
		{"relabelled, nothing changed", "relabel/workloads.yaml", "relabel/bindings.yaml", "relabel/base", "relabel/base", "team-a", "member1:3", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			after := admit(t, readObjects(t, filepath.Join(d, tt.after)))
			entries, released, err := RunChange(context.Background(), Input{
				Policies:  after,
				Clusters:  readObjects(t, filepath.Join(d, "clusters.yaml")),
				Workloads: readObjects(t, filepath.Join(d, tt.workloads)),
				Bindings:  readObjects(t, filepath.Join(d, tt.binding)),
			}, admit(t, readObjects(t, filepath.Join(d, tt.base))), nil)
			if err != nil {
				t.Fatal(err)
			}
			holder, where := "", ""
			for _, p := range after {
				for _, e := range entries[p.Index] {
					if e.Workload.Name == "web" {
						holder, where = p.Object.GetName(), placement(e.Clusters)
					}
				}
			}
			if holder != tt.policy || where != tt.clusters {
				t.Errorf("web held by %q on %q, want %q on %q", holder, where, tt.policy, tt.clusters)
			}
			got := ""
			for _, r := range released {
				got = r.After.ReleasedBy + " " + placement(r.After.Clusters)
			}
			if got != tt.released {
				t.Errorf("released %q, want %q", got, tt.released)
			}
		})
	}
}

// planChange: deleted base policies, created and changed new ones (a change keeps the permanent id), and
// an unchanged spec left alone.
func TestPlanChange(t *testing.T) {
	pp := func(name, cluster, id string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
			"metadata": map[string]any{"name": name, "namespace": "default",
				"labels": map[string]any{policyv1alpha1.PropagationPolicyPermanentIDLabel: id}},
			"spec": map[string]any{"resourceSelectors": []any{map[string]any{"apiVersion": "apps/v1", "kind": "Deployment"}},
				"placement": map[string]any{"clusterAffinity": map[string]any{"clusterNames": []any{cluster}}}},
		}}
		return u
	}
	world := func(ps ...*unstructured.Unstructured) *world {
		var in []Policy
		for i, p := range ps {
			in = append(in, Policy{Index: i, Object: p})
		}
		w, err := newWorld(Input{Policies: in})
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	relabelled := pp("relabelled", "m1", "id-relabelled")
	relabelled.SetLabels(map[string]string{"team": "a"})
	base := world(pp("kept", "m1", "id-kept"), pp("edited", "m1", "id-edited"), pp("gone", "m1", "id-gone"),
		pp("refused", "m1", "id-refused"), pp("relabelled", "m1", "id-relabelled"))
	after := world(pp("kept", "m1", "other"), pp("edited", "m2", "new-id"), pp("created", "m1", "id-created"), relabelled)
	// "refused": the new side's policy of that name was denied, so the base one stays.
	plan := planChange(base, after, []PolicyName{{Namespace: "default", Name: "refused"}})
	if len(plan.deleted) != 1 || plan.deleted[0].name != "gone" {
		t.Errorf("deleted = %v, want [gone]", plan.deleted)
	}
	var applied []string
	for _, p := range plan.applied {
		applied = append(applied, fmt.Sprintf("%s %s update=%t finalizers=%v", p.pp.Name,
			p.pp.Labels[policyv1alpha1.PropagationPolicyPermanentIDLabel], p.update, p.pp.Finalizers))
	}
	want := []string{
		"edited id-edited update=true finalizers=[karmada.io/propagation-policy-controller]",
		"created id-created update=false finalizers=[karmada.io/propagation-policy-controller]",
	}
	if !updateNeedsNewGeneration { // v1.16, v1.17: a change of labels alone is reconciled too
		want = append(want, "relabelled id-relabelled update=true finalizers=[karmada.io/propagation-policy-controller]")
	}
	if !reflect.DeepEqual(applied, want) {
		t.Errorf("applied = %q, want %q", applied, want)
	}
}
