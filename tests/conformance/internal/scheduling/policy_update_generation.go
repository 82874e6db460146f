//go:build !karmada_v1_16 && !karmada_v1_17

package scheduling

// updateNeedsNewGeneration: from v1.18.0, OnPropagationPolicyUpdate and OnClusterPropagationPolicyUpdate
// (pkg/detector/detector.go) skip an update whose metadata.generation is unchanged, so a policy whose
// labels or annotations alone changed is not reconciled (and releases no relabelled template).
const updateNeedsNewGeneration = true
