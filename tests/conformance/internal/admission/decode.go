package admission

import (
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	runtimeschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
)

// unstructuredCreator is the crdHandler's creator: every kind is an Unstructured.
type unstructuredCreator struct{}

func (unstructuredCreator) New(kind runtimeschema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(kind)
	return u, nil
}

// serializer is the crdHandler's application/json serializer; strict for fieldValidation Strict and
// Warn (the create handler picks StrictSerializer then), lenient otherwise.
func serializer(strict bool) *json.Serializer {
	return json.NewSerializerWithOptions(json.DefaultMetaFactory, unstructuredCreator{},
		crdserverscheme.NewUnstructuredObjectTyper(), json.SerializerOptions{Strict: strict})
}

// coerce is apiextensions-apiserver's unstructuredSchemaCoercer.apply (customresource_handler.go), which
// is unexported: ObjectMeta read and re-set, pruning (with the pruned paths when asked), non-nullable nulls
// dropped, embedded ObjectMeta coerced. It returns the unknown field paths when returnUnknown is set.
func coerce(u *unstructured.Unstructured, s *schema.Structural, gk runtimeschema.GroupKind, returnUnknown bool) ([]string, error) {
	kind, foundKind, err := unstructured.NestedString(u.Object, "kind")
	if err != nil {
		return nil, err
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(u.Object, "apiVersion")
	if err != nil {
		return nil, err
	}
	objectMeta, foundObjectMeta, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object,
		schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: returnUnknown})
	if err != nil {
		return nil, err
	}
	gv, err := runtimeschema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	if gv.Group == gk.Group && kind == gk.Kind {
		opts := schema.UnknownFieldPathOptions{TrackUnknownFieldPaths: returnUnknown}
		unknown = append(unknown, structuralpruning.PruneWithOptions(u.Object, s, true, opts)...)
		structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, s)
		ferr, paths := schemaobjectmeta.CoerceWithOptions(nil, u.Object, s, false,
			schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: returnUnknown})
		if ferr != nil {
			return nil, ferr
		}
		unknown = append(unknown, paths...)
	}
	if foundKind {
		u.SetKind(kind)
	}
	if foundAPIVersion {
		u.SetAPIVersion(apiVersion)
	}
	if foundObjectMeta {
		if err := schemaobjectmeta.SetObjectMeta(u.Object, objectMeta); err != nil {
			return nil, err
		}
	}
	return unknown, nil
}

// decodeResult is the request body after the create handler's decoder: the object, and the strict
// decoding errors (duplicate and unknown fields) when the serializer was strict.
type decodeResult struct {
	object    *unstructured.Unstructured
	strictErr []error
}

// decodeBody is the crdHandler's DecoderToVersion chain for one body: the JSON serializer, the schema
// coercing decoder (schemaCoercingDecoder.Decode) and the unstructured defaulter of the versioning codec.
// A non-strict error is returned as err (the handler answers 400 with it).
func (r *resource) decodeBody(body []byte, strict bool) (decodeResult, error) {
	gvk := r.gvk
	obj, _, err := serializer(strict).Decode(body, &gvk, &unstructured.Unstructured{})
	var strictErrs []error
	if err != nil {
		se, ok := runtime.AsStrictDecodingError(err)
		if !ok || obj == nil {
			return decodeResult{}, err
		}
		strictErrs = se.Errors()
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return decodeResult{}, fmt.Errorf("decoded %T, not an Unstructured", obj)
	}
	unknown, err := coerce(u, r.structural, r.gvk.GroupKind(), strict)
	if err != nil {
		return decodeResult{}, err
	}
	if strict {
		for _, f := range unknown {
			strictErrs = append(strictErrs, fmt.Errorf(`unknown field "%s"`, f))
		}
	}
	defaultObject(u, r)
	return decodeResult{object: u, strictErr: strictErrs}, nil
}

// defaultObject is the unstructuredDefaulter: the structural schema's defaults.
func defaultObject(u *unstructured.Unstructured, r *resource) {
	structuraldefaulting.Default(u.Object, r.structural)
}
