//go:build !karmada_v1_16

package admission

import (
	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
	"github.com/karmada-io/karmada/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validatePropagationSpec is Karmada's ValidatePropagationSpec. From v1.17.0 it takes the policy's
// namespace, for the resource-selector namespace check (pkg/util/validation/validation.go
// validateResourceSelectors: "namespace of resource selector must be the same as the namespace of the
// policy"); v1.16 (validate_spec_v1_16.go) has neither.
func validatePropagationSpec(spec policyv1alpha1.PropagationSpec, namespace string) field.ErrorList {
	return validation.ValidatePropagationSpec(spec, namespace)
}
