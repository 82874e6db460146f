package inputs

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
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

// Decode reads the objects of f as kubectl's StreamVisitor does: documents decoded one by one,
// empty and null ones skipped, every other one decoded as an unstructured object (lists flattened).
// A file kubectl refuses is an error; a file with no object is ErrNoObjects unless it is stdin.
func Decode(f File) ([]Document, error) {
	raws, err := rawDocuments(f.Data)
	if err != nil {
		return nil, fmt.Errorf("error parsing %s: %w", f.Name, err)
	}
	if len(raws) == 0 && !f.Stdin {
		return nil, fmt.Errorf("%s: %w", f.Name, ErrNoObjects)
	}
	indexes := documentIndexes(f.Data, len(raws))
	var docs []Document
	for i, raw := range raws {
		objs, err := decodeObject(raw)
		if err != nil {
			return nil, fmt.Errorf("unable to decode %q: %w", f.Name, err)
		}
		for _, o := range objs {
			docs = append(docs, Document{File: f.Name, Index: indexes[i], Object: o})
		}
	}
	return docs, nil
}

// rawDocuments is StreamVisitor.Visit's loop: the JSON of every document that is neither empty nor null.
func rawDocuments(data []byte) ([][]byte, error) {
	d := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), bufferSize)
	var out [][]byte
	for {
		ext := runtime.RawExtension{}
		if err := d.Decode(&ext); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, err
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
		out := make([]*unstructured.Unstructured, 0, len(o.Items))
		for i := range o.Items {
			out = append(out, &o.Items[i])
		}
		return out, nil
	}
	return nil, fmt.Errorf("decoded %T, not an object", obj)
}
