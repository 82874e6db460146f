package scheduling

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
	"github.com/karmada-io/karmada/pkg/webhook/clusterpropagationpolicy"
	"github.com/karmada-io/karmada/pkg/webhook/propagationpolicy"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

func TestMain(m *testing.M) {
	// The scheduler and detector log every step at V(0); keep the test output to the tests.
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)
	os.Exit(m.Run())
}

// examples is manifests/examples of the repository.
func examples(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs("../../../../manifests/examples")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// readObjects reads every object of a YAML or JSON file or directory (multi-document, kind: List expanded).
func readObjects(t testing.TB, paths ...string) []*unstructured.Unstructured {
	t.Helper()
	var out []*unstructured.Unstructured
	for _, p := range paths {
		var files []string
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if info.IsDir() {
			err = filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml") || strings.HasSuffix(path, ".json")) {
					files = append(files, path)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(files)
		} else {
			files = []string{p}
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, decodeAll(t, data)...)
		}
	}
	return out
}

func decodeAll(t testing.TB, data []byte) []*unstructured.Unstructured {
	t.Helper()
	var out []*unstructured.Unstructured
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			if errors.Is(err, io.EOF) {
				return out
			}
			t.Fatal(err)
		}
		if m == nil {
			continue
		}
		u := &unstructured.Unstructured{Object: m}
		if u.IsList() {
			list, err := u.ToList()
			if err != nil {
				t.Fatal(err)
			}
			for i := range list.Items {
				out = append(out, &list.Items[i])
			}
			continue
		}
		out = append(out, u)
	}
}

// admit runs a policy through Karmada's mutating handler as a CREATE (the CRD's defaults are not applied:
// test policies spell out what they need). Other objects pass through.
func admit(t testing.TB, objs []*unstructured.Unstructured) []Policy {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := policyv1alpha1.Install(scheme); err != nil {
		t.Fatal(err)
	}
	decoder := admission.NewDecoder(scheme)
	var out []Policy
	for _, u := range objs {
		var handler admission.Handler
		ns := ""
		switch u.GetKind() {
		case "PropagationPolicy":
			handler = &propagationpolicy.MutatingAdmission{Decoder: decoder}
			ns = u.GetNamespace()
			if ns == "" {
				ns = "default"
				u.SetNamespace(ns)
			}
		case "ClusterPropagationPolicy":
			handler = &clusterpropagationpolicy.MutatingAdmission{Decoder: decoder}
		default:
			continue
		}
		raw, err := json.Marshal(u.Object)
		if err != nil {
			t.Fatal(err)
		}
		resp := handler.Handle(context.Background(), admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{
			Operation: admissionv1.Create, Namespace: ns, Name: u.GetName(), Object: runtime.RawExtension{Raw: raw},
		}})
		if !resp.Allowed {
			t.Fatalf("mutating %s %s: %v", u.GetKind(), u.GetName(), resp.Result)
		}
		patchJSON, err := json.Marshal(resp.Patches)
		if err != nil {
			t.Fatal(err)
		}
		patch, err := jsonpatch.DecodePatch(patchJSON)
		if err != nil {
			t.Fatal(err)
		}
		mutated, err := patch.Apply(raw)
		if err != nil {
			t.Fatal(err)
		}
		obj := &unstructured.Unstructured{}
		if err := json.Unmarshal(mutated, &obj.Object); err != nil {
			t.Fatal(err)
		}
		out = append(out, Policy{Index: len(out), Object: obj})
	}
	return out
}

// only keeps the objects of the given kinds.
func only(objs []*unstructured.Unstructured, kinds ...string) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	for _, o := range objs {
		for _, k := range kinds {
			if o.GetKind() == k {
				out = append(out, o)
			}
		}
	}
	return out
}

// placement renders spec.clusters as "name:replicas ..." sorted by name.
func placement(clusters []report.TargetCluster) string {
	parts := make([]string, 0, len(clusters))
	for _, c := range clusters {
		parts = append(parts, fmt.Sprintf("%s:%d", c.Name, c.Replicas))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}
