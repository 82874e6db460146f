//go:build karmada_v1_16 || karmada_v1_17

package scheduling

// updateNeedsNewGeneration: before v1.18.0, OnPropagationPolicyUpdate and OnClusterPropagationPolicyUpdate
// (pkg/detector/detector.go) enqueue every update of a policy, so one whose labels or annotations alone
// changed (kubectl apply writes it; the generation stays) is reconciled too: HandlePropagationPolicy-
// CreationOrUpdate releases the templates it no longer selects.
const updateNeedsNewGeneration = false
