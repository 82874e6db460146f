package main

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
)

func policy(name string, priority int32, selector policyv1alpha1.ResourceSelector) *policyv1alpha1.PropagationPolicy {
	p := &policyv1alpha1.PropagationPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec:       policyv1alpha1.PropagationSpec{Priority: &priority, ResourceSelectors: []policyv1alpha1.ResourceSelector{selector}},
	}
	defaultPolicy(p)
	return p
}

func TestHighestPriorityPolicyFollowsTheDetector(t *testing.T) {
	deployment := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "default", "labels": map[string]any{"app": "web"}},
	}}
	byName := policyv1alpha1.ResourceSelector{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}
	byLabel := policyv1alpha1.ResourceSelector{APIVersion: "apps/v1", Kind: "Deployment",
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}
	byKind := policyv1alpha1.ResourceSelector{APIVersion: "apps/v1", Kind: "Deployment"}
	other := policyv1alpha1.ResourceSelector{APIVersion: "apps/v1", Kind: "Deployment", Name: "db"}
	for _, tc := range []struct {
		name     string
		policies []*policyv1alpha1.PropagationPolicy
		want     string
	}{
		{"none matches", []*policyv1alpha1.PropagationPolicy{policy("a", 0, other)}, ""},
		{"name beats label beats kind", []*policyv1alpha1.PropagationPolicy{policy("a", 0, byKind), policy("b", 0, byLabel), policy("c", 0, byName)}, "c"},
		{"explicit priority first", []*policyv1alpha1.PropagationPolicy{policy("a", 0, byName), policy("b", 5, byKind)}, "b"},
		{"tie: smallest name", []*policyv1alpha1.PropagationPolicy{policy("z", 0, byName), policy("m", 0, byName)}, "m"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if p := highestPriorityPolicy(tc.policies, deployment); p != nil {
				got = p.Name
			}
			if got != tc.want {
				t.Errorf("claimed by %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAffinityIndexStartsAtTheObservedTerm(t *testing.T) {
	terms := []policyv1alpha1.ClusterAffinityTerm{{AffinityName: "a"}, {AffinityName: "b"}}
	for observed, want := range map[string]int{"": 0, "a": 0, "b": 1, "gone": 0} {
		if got := affinityIndex(terms, observed); got != want {
			t.Errorf("affinityIndex(%q) = %d, want %d", observed, got, want)
		}
	}
}
