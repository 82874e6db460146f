package admission

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	admissionv1 "k8s.io/api/admission/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
	"github.com/karmada-io/karmada/pkg/util/gclient"
	"github.com/karmada-io/karmada/pkg/webhook/clusterpropagationpolicy"
	"github.com/karmada-io/karmada/pkg/webhook/propagationpolicy"
)

// hooks are Karmada's two handlers for one kind, wrapped as karmada-webhook registers them
// (cmd/webhook/app/webhook.go: hookServer.Register(path, &webhook.Admission{Handler: ...})).
type hooks struct {
	mutating   *admission.Webhook
	validating *admission.Webhook
}

// newDecoder is karmada-webhook's decoder: admission.NewDecoder over gclient.NewSchema().
func newDecoder() admission.Decoder {
	return admission.NewDecoder(gclient.NewSchema())
}

func newHooks(decoder admission.Decoder) map[string]hooks {
	return map[string]hooks{
		"PropagationPolicy": {
			mutating:   &admission.Webhook{Handler: propagationpolicy.NewMutatingHandler(decoder)},
			validating: &admission.Webhook{Handler: &propagationpolicy.ValidatingAdmission{Decoder: decoder}},
		},
		"ClusterPropagationPolicy": {
			mutating:   &admission.Webhook{Handler: clusterpropagationpolicy.NewMutatingHandler(decoder)},
			validating: &admission.Webhook{Handler: &clusterpropagationpolicy.ValidatingAdmission{Decoder: decoder}},
		},
	}
}

// createOptions is what kubectl apply sends with a create, as the AdmissionRequest carries it.
func createOptions(v Validation) ([]byte, error) {
	directive := map[Validation]string{Strict: metav1.FieldValidationStrict, Warn: metav1.FieldValidationWarn,
		Ignore: metav1.FieldValidationIgnore}[v]
	opts := metav1.CreateOptions{
		TypeMeta:        metav1.TypeMeta{Kind: "CreateOptions", APIVersion: "meta.k8s.io/v1"},
		FieldManager:    "kubectl-client-side-apply",
		FieldValidation: directive,
	}
	return encodeJSON(&opts)
}

// request is the AdmissionRequest the apiserver sends for a CREATE (webhook/request CreateV1AdmissionReview),
// or an UPDATE with the stored object as OldObject when the call has one,
// as controller-runtime hands it to a handler after decoding the review.
func (c *createCall) request(name string, object []byte) (admission.Request, error) {
	options, err := createOptions(c.validation)
	if err != nil {
		return admission.Request{}, fmt.Errorf("encoding CreateOptions: %w", err)
	}
	gvk := metav1.GroupVersionKind{Group: c.res.gvk.Group, Version: c.res.gvk.Version, Kind: c.res.gvk.Kind}
	gvr := metav1.GroupVersionResource{Group: c.res.gvk.Group, Version: c.res.gvk.Version, Resource: c.res.plural}
	dryRun := false
	operation := admissionv1.Create
	if c.old != nil {
		operation = admissionv1.Update
	}
	return admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{
		OldObject:       runtime.RawExtension{Raw: c.old},
		UID:             types.UID(uuid.NewString()),
		Kind:            gvk,
		Resource:        gvr,
		RequestKind:     &gvk,
		RequestResource: &gvr,
		Name:            name,
		Namespace:       c.namespace,
		Operation:       operation,
		UserInfo:        authenticationv1.UserInfo{Username: "kubernetes-admin", Groups: []string{"system:masters", "system:authenticated"}},
		Object:          runtime.RawExtension{Raw: object},
		Options:         runtime.RawExtension{Raw: options},
		DryRun:          &dryRun,
	}}, nil
}

// specErrors is the field.ErrorList of the validation function Karmada's validating handlers call
// (pkg/util/validation ValidatePropagationSpec), on the object the handler decoded, in the namespace it
// passes (req.Namespace for both kinds).
func (a *Admitter) specErrors(req admission.Request, kind string) (field.ErrorList, error) {
	switch kind {
	case "PropagationPolicy":
		p := &policyv1alpha1.PropagationPolicy{}
		if err := a.decoder.DecodeRaw(req.Object, p); err != nil {
			return nil, fmt.Errorf("decoding the policy: %w", err)
		}
		return validatePropagationSpec(p.Spec, req.Namespace), nil
	case "ClusterPropagationPolicy":
		p := &policyv1alpha1.ClusterPropagationPolicy{}
		if err := a.decoder.DecodeRaw(req.Object, p); err != nil {
			return nil, fmt.Errorf("decoding the policy: %w", err)
		}
		return validatePropagationSpec(p.Spec, req.Namespace), nil
	}
	return nil, fmt.Errorf("no policy kind %q", kind)
}

// call runs one of Karmada's handlers as controller-runtime's webhook.Admission does (Handle + Complete).
func call(ctx context.Context, hook *admission.Webhook, req admission.Request) admission.Response {
	return hook.Handle(ctx, req)
}
