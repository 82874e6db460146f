package scheduling

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/karmada-io/karmada/pkg/apis/work/v1alpha2"
	karmadafake "github.com/karmada-io/karmada/pkg/generated/clientset/versioned/fake"
)

func TestPatchKeepsPlacement(t *testing.T) {
	placement := func() *policyv1alpha1.Placement {
		return &policyv1alpha1.Placement{ClusterAffinities: []policyv1alpha1.ClusterAffinityTerm{termWithEmptyLists("g0")}}
	}
	tests := []struct {
		name        string
		keep        bool   // keepPlacementOnPatch installed
		patch       string // merge patch
		subresource []string
		wantKept    bool // the empty lists survive the patch
		wantAnno    string
	}{
		{"annotation, kept", true, `{"metadata":{"annotations":{"a":"1"}}}`, nil, true, "1"},
		{"status, kept", true, `{"status":{"schedulerObservingAffinityName":"g0"}}`, []string{"status"}, true, ""},
		{"spec.clusters, kept", true, `{"spec":{"clusters":[{"name":"m1","replicas":1}]}}`, nil, true, ""},
		{"the tracker alone loses them", false, `{"metadata":{"annotations":{"a":"1"}}}`, nil, false, "1"},
		{"a patch of the placement is the tracker's", true, `{"spec":{"placement":{"clusterAffinities":[{"affinityName":"g0"}]}}}`, nil, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rb := &workv1alpha2.ResourceBinding{
				ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
				Spec:       workv1alpha2.ResourceBindingSpec{Placement: placement()},
			}
			c := karmadafake.NewSimpleClientset(rb)
			if tt.keep {
				keepPlacementOnPatch(c)
			}
			got, err := c.WorkV1alpha2().ResourceBindings("shop").Patch(context.Background(), "web", types.MergePatchType,
				[]byte(tt.patch), metav1.PatchOptions{}, tt.subresource...)
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			stored, err := c.WorkV1alpha2().ResourceBindings("shop").Get(context.Background(), "web", metav1.GetOptions{})
			if err != nil {
				t.Fatalf("Get: %v", err)
			}
			for _, b := range []*workv1alpha2.ResourceBinding{got, stored} {
				term := b.Spec.Placement.ClusterAffinities[0]
				kept := emptyListsKept(term)
				if kept != tt.wantKept {
					t.Errorf("empty lists kept = %v, want %v (%+v)", kept, tt.wantKept, term)
				}
				if a := b.Annotations["a"]; a != tt.wantAnno {
					t.Errorf("annotation a = %q, want %q", a, tt.wantAnno)
				}
			}
		})
	}
}

func TestPatchOfAClusterBindingKeepsPlacement(t *testing.T) {
	crb := &workv1alpha2.ClusterResourceBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: workv1alpha2.ResourceBindingSpec{Placement: &policyv1alpha1.Placement{
			SpreadConstraints: []policyv1alpha1.SpreadConstraint{}}},
	}
	c := karmadafake.NewSimpleClientset(crb)
	keepPlacementOnPatch(c)
	if _, err := c.WorkV1alpha2().ClusterResourceBindings().Patch(context.Background(), "web", types.MergePatchType,
		[]byte(`{"spec":{"clusters":[{"name":"m1"}]}}`), metav1.PatchOptions{}); err != nil {
		t.Fatalf("Patch: %v", err)
	}
	stored, err := c.WorkV1alpha2().ClusterResourceBindings().Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if stored.Spec.Placement.SpreadConstraints == nil || len(stored.Spec.Clusters) != 1 {
		t.Errorf("got placement %+v, clusters %+v; want the empty spreadConstraints kept and one cluster", stored.Spec.Placement, stored.Spec.Clusters)
	}
}
