//go:build karmada_v1_16 || karmada_v1_17

package scheduling

import policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"

// termWithEmptyLists: before Karmada v1.18.0 a term has no overflowAffinities
// (overflow_affinities_test.go), so clusterNames is its one empty list.
func termWithEmptyLists(name string) policyv1alpha1.ClusterAffinityTerm {
	return policyv1alpha1.ClusterAffinityTerm{
		AffinityName:    name,
		ClusterAffinity: policyv1alpha1.ClusterAffinity{ClusterNames: []string{}},
	}
}

func emptyListsKept(term policyv1alpha1.ClusterAffinityTerm) bool {
	return term.ClusterNames != nil
}
