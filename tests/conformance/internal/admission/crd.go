package admission

import (
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	runtimeschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/rest"
	"sigs.k8s.io/yaml"
)

// CRD file names under Karmada's charts/karmada/_crds/bases/policy.
const (
	propagationPolicyCRD        = "policy.karmada.io_propagationpolicies.yaml"
	clusterPropagationPolicyCRD = "policy.karmada.io_clusterpropagationpolicies.yaml"
)

// resource is one served version of a CRD as the apiextensions-apiserver's crdHandler builds its
// serving info: the structural schema (defaults pruned) and the registry strategy.
type resource struct {
	gvk        runtimeschema.GroupVersionKind
	namespaced bool
	plural     string
	structural *schema.Structural
	strategy   rest.RESTCreateStrategy
}

// loadResource reads a CRD manifest and builds its serving info for the storage version, as
// crdHandler.getOrCreateServingInfoFor does.
func loadResource(path string) (*resource, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading CRD: %w", err)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict(data, crd); err != nil {
		return nil, fmt.Errorf("decoding CRD %s: %w", path, err)
	}
	version, err := servedVersion(crd)
	if err != nil {
		return nil, fmt.Errorf("CRD %s: %w", path, err)
	}
	val, err := apihelpers.GetSchemaForVersion(crd, version.Name)
	if err != nil || val == nil {
		return nil, fmt.Errorf("CRD %s: no schema for %s: %v", path, version.Name, err)
	}
	internal := &apiextensionsinternal.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil); err != nil {
		return nil, fmt.Errorf("CRD %s: converting schema: %w", path, err)
	}
	structural, err := schema.NewStructural(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("CRD %s: structural schema: %w", path, err)
	}
	structural = structural.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(structural); err != nil {
		return nil, fmt.Errorf("CRD %s: pruning defaults: %w", path, err)
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("CRD %s: schema validator: %w", path, err)
	}
	gvk := runtimeschema.GroupVersionKind{Group: crd.Spec.Group, Version: version.Name, Kind: crd.Spec.Names.Kind}
	namespaced := crd.Spec.Scope == apiextensionsv1.NamespaceScoped
	if version.Subresources != nil && version.Subresources.Status != nil {
		return nil, fmt.Errorf("CRD %s: a status subresource is not modelled", path)
	}
	strategy := customresource.NewStrategy(crdserverscheme.NewUnstructuredObjectTyper(), namespaced, gvk,
		validator, nil, structural, nil, nil, version.SelectableFields)
	return &resource{gvk: gvk, namespaced: namespaced, plural: crd.Spec.Names.Plural, structural: structural, strategy: strategy}, nil
}

// servedVersion is the one version the policy CRDs serve and store.
func servedVersion(crd *apiextensionsv1.CustomResourceDefinition) (*apiextensionsv1.CustomResourceDefinitionVersion, error) {
	var found *apiextensionsv1.CustomResourceDefinitionVersion
	for i := range crd.Spec.Versions {
		v := &crd.Spec.Versions[i]
		if !v.Served {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("serves more than one version (%s, %s)", found.Name, v.Name)
		}
		found = v
	}
	if found == nil {
		return nil, fmt.Errorf("serves no version")
	}
	return found, nil
}

// loadResources reads both policy CRDs from dir (charts/karmada/_crds/bases/policy of the module).
func loadResources(dir string) (map[string]*resource, error) {
	out := map[string]*resource{}
	for _, name := range []string{propagationPolicyCRD, clusterPropagationPolicyCRD} {
		r, err := loadResource(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		out[r.gvk.Kind] = r
	}
	return out, nil
}
