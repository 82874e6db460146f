package admission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	runtimeschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/warning"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

// createCall is one CREATE request through the apiserver's create handler (endpoints/handlers/create.go)
// and the generic registry's Store.Create.
type createCall struct {
	admitter   *Admitter
	res        *resource
	namespace  string
	validation Validation
	warnings   []string
	old        []byte // the stored object, JSON: an UPDATE (Admit)
}

func (c *createCall) run(ctx context.Context, body []byte) (Result, error) {
	dec, err := c.res.decodeBody(body, c.validation != Ignore)
	if err != nil {
		return c.refused(StageDecode, c.decodeError(err), nil), nil
	}
	if len(dec.strictErr) > 0 {
		strict := runtime.NewStrictDecodingError(dec.strictErr)
		if c.validation == Strict {
			return c.refused(StageDecode, c.decodeError(strict), c.strictErrors(dec.strictErr)), nil
		}
		for _, e := range dec.strictErr {
			c.warnings = append(c.warnings, e.Error())
		}
	}
	obj := dec.object
	rest.WipeObjectMetaSystemFields(obj)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(c.namespace, obj); err != nil {
		return c.refused(StageDecode, err, nil), nil
	}
	obj, refusal, err := c.mutate(ctx, obj)
	if err != nil || refusal != nil {
		return derefResult(refusal), err
	}
	if refusal := c.beforeCreate(ctx, obj); refusal != nil {
		return *refusal, nil
	}
	return c.validate(ctx, obj)
}

func derefResult(r *Result) Result {
	if r == nil {
		return Result{}
	}
	return *r
}

// decodeError is transformDecodeError of endpoints/handlers/rest.go for a body the decoder refused.
func (c *createCall) decodeError(err error) error {
	gvk := c.res.gvk
	return apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, gvk.Kind, err))
}

// strictErrors lists the strict decoding errors as lint does: one BadRequest per unknown or duplicate
// field, at its path, with the message the apiserver would give were it the only one.
func (c *createCall) strictErrors(errs []error) []report.FieldError {
	out := make([]report.FieldError, 0, len(errs))
	for _, e := range errs {
		path := fieldOf(e.Error())
		one := c.decodeError(runtime.NewStrictDecodingError([]error{e}))
		out = append(out, report.FieldError{Field: path, Reason: string(apierrors.ReasonForError(one)), Message: one.Error()})
	}
	return out
}

// fieldOf reads the path out of `unknown field "p"` / `duplicate field "p"`, which the apiserver
// formats with %s: the path may itself hold quotes.
func fieldOf(msg string) string {
	for _, prefix := range []string{`unknown field "`, `duplicate field "`} {
		if rest, ok := strings.CutPrefix(msg, prefix); ok {
			return strings.TrimSuffix(rest, `"`)
		}
	}
	return ""
}

// refused is a verdict the apiserver gave itself (not a webhook): its status code and message. Without
// field errors, the status is the one error entry.
func (c *createCall) refused(stage string, err error, errs []report.FieldError) Result {
	status := apierrors.APIStatus(nil)
	if !errors.As(err, &status) {
		status = apierrors.NewInternalError(err)
	}
	st := status.Status()
	if errs == nil {
		errs = []report.FieldError{{Reason: string(st.Reason), Message: st.Message}}
	}
	return Result{Errors: errs, Admission: report.Admission{Code: st.Code, Message: st.Message, Stage: stage,
		Warnings: c.warnings}}
}

// webhookRefused is a handler's denial, as the handler answered it.
func (c *createCall) webhookRefused(stage string, resp admission.Response, errs []report.FieldError) Result {
	var code int32
	var msg, reason string
	if resp.Result != nil {
		code, msg, reason = resp.Result.Code, resp.Result.Message, string(resp.Result.Reason)
	}
	if errs == nil {
		errs = []report.FieldError{{Reason: reason, Message: msg}}
	}
	return Result{Errors: errs, Admission: report.Admission{Code: code, Message: msg, Stage: stage,
		Warnings: append(c.warnings, resp.Warnings...)}}
}

// mutate sends obj to Karmada's mutating handler and applies its patch as the apiserver's mutating
// webhook dispatcher does: JSON patch on the encoded object, decoded again, defaulted, then converted
// to the hub version through the schema-coercing converter (pruning once more).
func (c *createCall) mutate(ctx context.Context, obj *unstructured.Unstructured) (*unstructured.Unstructured, *Result, error) {
	objJS, err := runtime.Encode(serializer(false), obj)
	if err != nil {
		return nil, nil, fmt.Errorf("encoding object for the mutating webhook: %w", err)
	}
	req, err := c.request(obj.GetName(), objJS)
	if err != nil {
		return nil, nil, err
	}
	resp := call(ctx, c.admitter.hooks[c.res.gvk.Kind].mutating, req)
	c.warnings = append(c.warnings, resp.Warnings...)
	if !resp.Allowed {
		r := c.webhookRefused(StageMutating, resp, nil)
		return nil, &r, nil
	}
	if len(resp.Patch) == 0 {
		return obj, nil, nil
	}
	patch, err := jsonpatch.DecodePatch(resp.Patch)
	if err != nil {
		return nil, nil, fmt.Errorf("mutating webhook patch: %w", err)
	}
	patched, err := patch.Apply(objJS)
	if err != nil {
		return nil, nil, fmt.Errorf("applying the mutating webhook patch: %w", err)
	}
	out := &unstructured.Unstructured{}
	if _, _, err := serializer(false).Decode(patched, nil, out); err != nil {
		return nil, nil, fmt.Errorf("decoding the patched object: %w", err)
	}
	if _, err := c.res.defaultAndCoerce(out); err != nil {
		return nil, nil, fmt.Errorf("converting the patched object: %w", err)
	}
	return out, nil, nil
}

// beforeCreate is Store.Create up to the validating admission: system fields filled, then
// rest.BeforeCreate (PrepareForCreate, the strategy's Validate: ObjectMeta, OpenAPI schema, embedded
// resources, list types, CEL rules; then the generic ObjectMeta validation).
func (c *createCall) beforeCreate(ctx context.Context, obj *unstructured.Unstructured) *Result {
	rest.FillObjectMetaSystemFields(obj)
	ctx = request.WithNamespace(ctx, c.namespace)
	ctx = warning.WithWarningRecorder(ctx, (*recorder)(&c.warnings))
	err := rest.BeforeCreate(c.res.strategy, ctx, obj)
	if err == nil {
		return nil
	}
	var errs []report.FieldError
	var status apierrors.APIStatus
	if errors.As(err, &status) && status.Status().Details != nil && status.Status().Code == http.StatusUnprocessableEntity {
		for _, cause := range status.Status().Details.Causes {
			errs = append(errs, report.FieldError{Field: cause.Field, Reason: string(cause.Type), Message: cause.Message})
		}
	}
	r := c.refused(StageSchema, err, errs)
	return &r
}

// recorder collects the warnings the registry adds to the request context (strategy.WarningsOnCreate).
type recorder []string

func (r *recorder) AddWarning(_, text string) {
	*r = append(*r, text)
}

// validate sends the object to Karmada's validating handler. A denial's errors are those of the
// validation function the handler calls, when its aggregate is the handler's message.
func (c *createCall) validate(ctx context.Context, obj *unstructured.Unstructured) (Result, error) {
	objJS, err := runtime.Encode(serializer(false), obj)
	if err != nil {
		return Result{}, fmt.Errorf("encoding object for the validating webhook: %w", err)
	}
	req, err := c.request(obj.GetName(), objJS)
	if err != nil {
		return Result{}, err
	}
	resp := call(ctx, c.admitter.hooks[c.res.gvk.Kind].validating, req)
	if !resp.Allowed {
		errs, err := c.admitter.specErrors(req, c.res.gvk.Kind)
		if err != nil {
			return Result{}, err
		}
		if errs.ToAggregate() == nil || resp.Result == nil || errs.ToAggregate().Error() != resp.Result.Message {
			return c.webhookRefused(StageValidating, resp, nil), nil
		}
		return c.webhookRefused(StageValidating, resp, fieldErrors(errs)), nil
	}
	var code int32
	var msg string
	if resp.Result != nil {
		code, msg = resp.Result.Code, resp.Result.Message
	}
	return Result{Allowed: true, Errors: []report.FieldError{}, Object: obj, Admission: report.Admission{
		Allowed: true, Code: code, Message: msg, Warnings: append(c.warnings, resp.Warnings...)}}, nil
}

// defaultAndCoerce is the dispatcher's Default followed by the schema-coercing converter.
func (r *resource) defaultAndCoerce(u *unstructured.Unstructured) ([]string, error) {
	defaultObject(u, r)
	return coerce(u, r.structural, runtimeschema.GroupKind{Group: r.gvk.Group, Kind: r.gvk.Kind}, false)
}

// encodeJSON is encoding/json for the few values that are not runtime.Objects.
func encodeJSON(v any) ([]byte, error) {
	return json.Marshal(v)
}
