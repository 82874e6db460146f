package generate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"karmada-policy-webhook/tests/conformance/internal/compare"
)

func TestPacksAreReproducibleAndSeparate(t *testing.T) {
	for _, admission := range []bool{false, true} {
		gen := GeneratePack
		if admission {
			gen = GenerateAdmissionPack
		}
		a, b := gen(7, 3, 12), gen(7, 3, 12)
		for j := range a.Subs {
			for i, f := range a.Subs[j].Files {
				if !bytes.Equal(f.Bytes(), b.Subs[j].Files[i].Bytes()) {
					t.Fatalf("admission=%v: sub-case %d file %s differs between two generations", admission, j, f.Name)
				}
			}
			if admission {
				continue
			}
			// A snapshot sub-case: PropagationPolicies only, everything in its own namespaces.
			for _, f := range a.Subs[j].Files {
				if f.Name == "clusters.yaml" {
					continue
				}
				text := string(f.Bytes())
				if strings.Contains(text, "kind: ClusterPropagationPolicy") || strings.Contains(text, "kind: ClusterResourceBinding") {
					t.Errorf("sub-case %d %s holds a cluster-scoped claim", j, f.Name)
				}
				for _, ns := range []string{"namespace: default", "namespace: shop"} {
					if strings.Contains(text, ns) {
						t.Errorf("sub-case %d %s uses a shared namespace (%s)", j, f.Name, ns)
					}
				}
			}
		}
	}
}

func TestPackWriteLayout(t *testing.T) {
	dir := t.TempDir()
	p := GeneratePack(1, 0, 5)
	l, err := p.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.SubOf) != 5 || l.Args[0] != "--clusters" {
		t.Fatalf("layout %+v", l)
	}
	for file, j := range l.SubOf {
		got, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, p.Subs[j].Files[1].Bytes()) {
			t.Errorf("%s is not sub-case %d's policies.yaml", file, j)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "clusters.yaml")); err != nil {
		t.Error(err)
	}
	// A clone shrinks without touching the shared snapshot.
	c := p.Subs[0].clone()
	c.Files[0].Docs = nil
	if len(p.Subs[1].Files[0].Docs) == 0 {
		t.Error("shrinking a clone emptied the shared clusters.yaml")
	}
}

func TestSignatureBlursFieldsAndNumbers(t *testing.T) {
	v := func(path, l, k string) compare.Verdict {
		return compare.Verdict{Status: compare.Differ, Diffs: []compare.Diff{{Path: path, Lint: l, Karmada: k}}}
	}
	tests := []struct {
		name string
		a, b compare.Verdict
		same bool
	}{
		{"errors of two fields, one reason", v("errors[spec.a FieldValueRequired]", "present", "absent"),
			v("errors[spec.b[3].c FieldValueRequired]", "present", "absent"), true},
		{"errors of two reasons", v("errors[spec.a FieldValueRequired]", "present", "absent"),
			v("errors[spec.a FieldValueInvalid]", "present", "absent"), false},
		{"replicas of other clusters", v("scheduling[Deployment s1-a/web-0].clusters[member1]", "replicas 3", "absent"),
			v("scheduling[Deployment s7-b/web-2].clusters[member4]", "replicas 1", "absent"), true},
		{"a placed cluster against an absent one", v("scheduling[Deployment s1-a/web-0].clusters[member1]", "replicas 3", "absent"),
			v("scheduling[Deployment s1-a/web-0].clusters[member1]", "absent", "replicas 3"), false},
	}
	for _, tt := range tests {
		if got := Signature(tt.a) == Signature(tt.b); got != tt.same {
			t.Errorf("%s: same signature %v, want %v (%q, %q)", tt.name, got, tt.same, Signature(tt.a), Signature(tt.b))
		}
	}
}
