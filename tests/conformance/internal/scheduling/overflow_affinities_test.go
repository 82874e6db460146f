//go:build !karmada_v1_16 && !karmada_v1_17

package scheduling

import policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"

// termWithEmptyLists is a cluster affinity term with every empty list a patch could drop: clusterNames
// and, from Karmada v1.18.0 (ClusterAffinityTerm.OverflowAffinities, pkg/apis/policy/v1alpha1),
// overflowAffinities, the one binding-empty-overflow-list is about.
func termWithEmptyLists(name string) policyv1alpha1.ClusterAffinityTerm {
	return policyv1alpha1.ClusterAffinityTerm{
		AffinityName:       name,
		ClusterAffinity:    policyv1alpha1.ClusterAffinity{ClusterNames: []string{}},
		OverflowAffinities: []policyv1alpha1.OverflowClusterAffinity{},
	}
}

func emptyListsKept(term policyv1alpha1.ClusterAffinityTerm) bool {
	return term.OverflowAffinities != nil && term.ClusterNames != nil
}
