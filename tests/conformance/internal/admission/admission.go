// Package admission runs a PropagationPolicy or ClusterPropagationPolicy through what karmada-apiserver
// does on CREATE: the custom resource handler's decoding (field validation, pruning, defaulting),
// Karmada's mutating webhook handler and its JSON patch, the registry strategy's validation (ObjectMeta,
// OpenAPI schema, CEL rules) and Karmada's validating webhook handler. Every step is the apiserver's or
// Karmada's own code; only the glue between them is written here.
//
// The order is karmada-apiserver's: decode (strict decoding errors, pruning, CRD defaults), mutating
// webhook, registry validation (rest.BeforeCreate with customresource.NewStrategy), validating webhook.
// So an object the mutating handler cannot decode (a string where Karmada's Go type has an int32) is
// refused by that handler before the OpenAPI schema is ever checked, as a real apiserver refuses it.
//
// Not the apiserver's or kubectl's code, because theirs is unexported (each copy cites its original):
//   - coerce: apiextensions-apiserver customresource_handler.go unstructuredSchemaCoercer.apply, built
//     from the exported objectmeta, pruning and defaulting packages it calls;
//   - pruneNulls: kubectl pkg/cmd/apply pruneNullsFromMap;
//   - the create handler's sequence (endpoints/handlers/create.go) and the mutating dispatcher's patch
//     application (admission/plugin/webhook/mutating/dispatcher.go), as calls to the exported pieces.
//
// Not modelled: managedFields (the field manager runs before admission; Karmada's handlers ignore
// them), other admission plugins and webhooks of a real control plane, the registry's update strategy
// (an UPDATE runs the create steps with Operation UPDATE and the stored OldObject: Admit).
package admission

import (
	"context"
	"encoding/json"
	"fmt"

	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubectl/pkg/util"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

// Validation is kubectl's --validate: the fieldValidation the request asks for.
type Validation string

// The three field validation directives (metav1.FieldValidationStrict, ...), by kubectl's names.
const (
	Strict Validation = "strict"
	Warn   Validation = "warn"
	Ignore Validation = "ignore"
)

// ParseValidation reads a --validate value; kubectl also takes true (strict) and false (ignore).
func ParseValidation(s string) (Validation, error) {
	switch s {
	case "strict", "true":
		return Strict, nil
	case "warn":
		return Warn, nil
	case "ignore", "false":
		return Ignore, nil
	}
	return "", fmt.Errorf(`invalid --validate %q: want "strict", "warn" or "ignore"`, s)
}

// Stages of the create path, as report.Admission.Stage names the one that refused.
const (
	StageDecode     = "decode"
	StageMutating   = "mutating"
	StageSchema     = "schema"
	StageValidating = "validating"
)

// Result is the verdict on one policy.
type Result struct {
	Allowed   bool
	Errors    []report.FieldError
	Admission report.Admission
	// Object is the stored object (after defaults and Karmada's mutation) when Allowed.
	Object *unstructured.Unstructured
}

// Admitter holds the two policy resources and Karmada's handlers for them.
type Admitter struct {
	resources map[string]*resource
	hooks     map[string]hooks
	decoder   admission.Decoder
}

// New builds an Admitter from the directory holding Karmada's policy CRDs
// (charts/karmada/_crds/bases/policy of the Karmada module).
func New(crdDir string) (*Admitter, error) {
	resources, err := loadResources(crdDir)
	if err != nil {
		return nil, err
	}
	decoder := newDecoder()
	return &Admitter{resources: resources, hooks: newHooks(decoder), decoder: decoder}, nil
}

// Handles reports whether kind is one of the policy kinds the Admitter serves.
func (a *Admitter) Handles(kind string) bool {
	_, ok := a.resources[kind]
	return ok
}

// Namespaced reports whether kind is namespace-scoped.
func (a *Admitter) Namespaced(kind string) bool {
	r, ok := a.resources[kind]
	return ok && r.namespaced
}

// RequestNamespace is the namespace kubectl sends obj to: its own, else defaultNamespace (kubectl's
// -n); none for a cluster-scoped kind.
func (a *Admitter) RequestNamespace(obj *unstructured.Unstructured, defaultNamespace string) string {
	if !a.Namespaced(obj.GetKind()) {
		return ""
	}
	if ns := obj.GetNamespace(); ns != "" {
		return ns
	}
	return defaultNamespace
}

// Admit runs obj (as kubectl read it) through a CREATE, sent to RequestNamespace(obj, defaultNamespace),
// or, when old (the object the server stores under that name) is given, through the same steps as an
// UPDATE as far as Karmada's handlers see one: kubectl apply's patch keeps the labels it never applied,
// so obj keeps old's permanent-id label when it has none, and both webhooks get Operation UPDATE with
// old as OldObject (the validating handler's validateUpdate: schedulerName and the permanent-id label
// cannot change). The registry's update strategy is not run (its ValidateUpdate adds only ObjectMeta
// immutables that a policy of the same kind, namespace and name cannot break).
// An error means the oracle itself failed, never a verdict.
func (a *Admitter) Admit(ctx context.Context, obj *unstructured.Unstructured, defaultNamespace string, v Validation,
	old *unstructured.Unstructured) (Result, error) {
	r, ok := a.resources[obj.GetKind()]
	if !ok {
		return Result{}, fmt.Errorf("no policy kind %q", obj.GetKind())
	}
	namespace := a.RequestNamespace(obj, defaultNamespace)
	body, err := applyBody(obj, old)
	if err != nil {
		return Result{}, fmt.Errorf("encoding request body: %w", err)
	}
	c := createCall{admitter: a, res: r, namespace: namespace, validation: v}
	if old != nil {
		if c.old, err = runtime.Encode(serializer(false), old); err != nil {
			return Result{}, fmt.Errorf("encoding the stored object: %w", err)
		}
	}
	return c.run(ctx, body)
}

// appliedPermanentID: the stored object's last-applied-configuration (kubectl's record of its last apply)
// holds a permanent-id label, which kubectl's three-way merge then deletes when the new version lacks it.
func appliedPermanentID(stored *unstructured.Unstructured) bool {
	last, ok := stored.GetAnnotations()["kubectl.kubernetes.io/last-applied-configuration"]
	if !ok {
		return false
	}
	var applied unstructured.Unstructured
	if err := applied.UnmarshalJSON([]byte(last)); err != nil {
		return false
	}
	labels := applied.GetLabels()
	_, pp := labels[policyv1alpha1.PropagationPolicyPermanentIDLabel]
	_, cpp := labels[policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel]
	return pp || cpp
}

// applyBody is the body `kubectl apply` sends to create obj (kubectl pkg/cmd/apply ApplyOptions.applyOneObject):
// the last-applied-configuration annotation added, null members pruned, encoded as JSON. For an update
// (old given) the object as kubectl's three-way merge patches it: the stored permanent-id label stays
// unless obj sets its own or the last apply wrote it (then the merge deletes it); the annotation records
// obj as written.
func applyBody(obj, old *unstructured.Unstructured) ([]byte, error) {
	obj = obj.DeepCopy()
	if err := util.CreateApplyAnnotation(obj, unstructured.UnstructuredJSONScheme); err != nil {
		return nil, fmt.Errorf("creating the last-applied-configuration annotation: %w", err)
	}
	if old != nil && !appliedPermanentID(old) {
		CopyPermanentID(obj, old, false)
	}
	pruneNulls(obj.Object)
	return json.Marshal(obj.Object)
}

// pruneNulls is kubectl apply's pruneNullsFromMap (unexported): members whose value is null are dropped,
// in nested maps and in the maps of lists.
func pruneNulls(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
			} else {
				pruneNulls(e)
			}
		}
	case []any:
		for _, e := range v {
			pruneNulls(e)
		}
	}
}

// fieldErrors converts a field.ErrorList into lint's error entries.
func fieldErrors(errs field.ErrorList) []report.FieldError {
	out := make([]report.FieldError, 0, len(errs))
	for _, e := range errs {
		out = append(out, report.FieldError{Field: e.Field, Reason: string(e.Type), Message: e.ErrorBody()})
	}
	return out
}

// CopyPermanentID sets on dst Karmada's permanent-id label of src, if src has one; unless overwrite, only
// where dst has none. Without overwrite: kubectl apply's three-way merge leaves the labels it never
// applied, so an object written without the label keeps the stored one's. With it: an object that
// stands for what the server already holds (lint --base) keeps the id written on it, which a CREATE
// would have drawn anew (mutating.go:87-88).
func CopyPermanentID(dst, src *unstructured.Unstructured, overwrite bool) {
	for _, key := range []string{policyv1alpha1.PropagationPolicyPermanentIDLabel, policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel} {
		v, ok := src.GetLabels()[key]
		if _, mine := dst.GetLabels()[key]; !ok || (mine && !overwrite) {
			continue
		}
		labels := dst.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels[key] = v
		dst.SetLabels(labels)
	}
}
