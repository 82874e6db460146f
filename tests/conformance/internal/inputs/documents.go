package inputs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/unstructuredscheme"
	"k8s.io/apimachinery/pkg/runtime"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// Document is one object of a file: lint's 0-based document index and the object kubectl decoded.
// The items of a `kind: List` are Documents with the list's index.
type Document struct {
	File   string
	Index  int
	Object *unstructured.Unstructured
}

// bufferSize is the look-ahead of cli-runtime's StreamVisitor (yaml.NewYAMLOrJSONDecoder(r, 4096)).
const bufferSize = 4096

// ErrNoObjects is kubectl's refusal of a file that holds no object ("no objects passed to apply").
var ErrNoObjects = errors.New("no objects passed to apply")

// Decode reads the objects of f as kubectl apply's resource builder visits them (cli-runtime v0.35.3
// pkg/resource/visitor.go): StreamVisitor.Visit (:590-618) decodes the documents one by one, empty and
// null ones skipped, each other one decoded as an unstructured object (lists flattened). The builder
// runs with ContinueOnError, so EagerVisitorList (:238-256) records a document's decoding error and the
// visit goes on with the next document, while a document that does not parse ends the file there
// ("error parsing"); kubectl apply then applies every object visited (pkg/cmd/apply/apply.go:516-531).
// So Decode returns the objects kubectl applies and the first error it prints; a file with no object is
// ErrNoObjects unless it is stdin.
func Decode(f File) ([]Document, error) {
	raws, parseErr := rawDocuments(f.Data)
	if parseErr != nil {
		parseErr = fmt.Errorf("error parsing %s: %w", f.Name, parseErr)
	}
	if len(raws) == 0 && !f.Stdin && parseErr == nil {
		return nil, fmt.Errorf("%s: %w", f.Name, ErrNoObjects)
	}
	indexes := documentIndexes(f.Data, len(raws))
	var docs []Document
	var first error
	for i, raw := range raws {
		objs, err := decodeObject(raw)
		if err != nil {
			if first == nil {
				first = fmt.Errorf("unable to decode %q: %w", f.Name, err)
			}
			continue
		}
		for _, o := range objs {
			docs = append(docs, Document{File: f.Name, Index: indexes[i], Object: o})
		}
	}
	if first == nil {
		first = parseErr
	}
	return docs, first
}

// rawDocuments is StreamVisitor.Visit's loop: the JSON of every document that is neither empty nor null,
// up to the first that does not parse (returned with the error).
func rawDocuments(data []byte) ([][]byte, error) {
	d := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), bufferSize)
	var out [][]byte
	for {
		ext := runtime.RawExtension{}
		if err := d.Decode(&ext); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		ext.Raw = bytes.TrimSpace(ext.Raw)
		if len(ext.Raw) == 0 || bytes.Equal(ext.Raw, []byte("null")) {
			continue
		}
		out = append(out, ext.Raw)
	}
}

// metadataOnlyObject is what cli-runtime's metadataValidatingDecoder (pkg/resource/metadata_decoder.go,
// unexported, used by the builder's Unstructured()) decodes a document into before it returns it.
type metadataOnlyObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// flatten is cli-runtime's FlattenListVisitor over a decoded list: an item that is itself a list (an
// "items" array) cannot be extracted from an Unstructured, and every item needs a kind and a version
// (unstructuredscheme's ObjectKinds, the builder's typer for Unstructured()). Any failure refuses the
// whole list (its items' errors are collected first); the file's other documents are still applied.
func flatten(list *unstructured.UnstructuredList) ([]*unstructured.Unstructured, error) {
	out := make([]*unstructured.Unstructured, 0, len(list.Items))
	var errs []error
	for i := range list.Items {
		item := &list.Items[i]
		if item.IsList() {
			if _, err := meta.ExtractList(item); err != nil {
				return nil, err
			}
		}
		if _, _, err := unstructuredscheme.NewUnstructuredObjectTyper().ObjectKinds(item); err != nil {
			errs = append(errs, fmt.Errorf("unable to get type info from the object %q: %v", reflect.TypeOf(item), err))
			continue
		}
		out = append(out, item)
	}
	if len(errs) > 0 {
		return nil, utilerrors.NewAggregate(errs)
	}
	return out, nil
}

// decodeObject is the mapper's decode (unstructured.UnstructuredJSONScheme wrapped by the
// metadataValidatingDecoder: metadata that does not decode into ObjectMeta refuses the file) followed by
// the FlattenListVisitor: a list gives its items.
func decodeObject(raw []byte) ([]*unstructured.Unstructured, error) {
	obj, _, err := unstructured.UnstructuredJSONScheme.Decode(raw, nil, nil)
	if err != nil {
		return nil, err
	}
	if err := utiljson.Unmarshal(raw, &metadataOnlyObject{}); err != nil {
		return nil, err
	}
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		return []*unstructured.Unstructured{o}, nil
	case *unstructured.UnstructuredList:
		return flatten(o)
	}
	return nil, fmt.Errorf("decoded %T, not an object", obj)
}
