//go:build karmada_v1_16

package admission

import (
	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
	"github.com/karmada-io/karmada/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validatePropagationSpec is Karmada v1.16's ValidatePropagationSpec(spec): it has no policy namespace
// and no resource-selector namespace check (added in v1.17.0, validate_spec_policy_namespace.go).
func validatePropagationSpec(spec policyv1alpha1.PropagationSpec, _ string) field.ErrorList {
	return validation.ValidatePropagationSpec(spec)
}
