package generate

import (
	"bytes"
	"fmt"
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
				if strings.Contains(text, "kind: ClusterResourceBinding") {
					t.Errorf("sub-case %d %s holds a cluster-scoped claim", j, f.Name)
				}
				// The only cluster policy: clusterScoped's, selecting the sub-case's own cluster-scoped objects.
				for _, d := range strings.Split(text, "---\n") {
					prefix := fmt.Sprintf("s%d-", j)
					if strings.Contains(d, "kind: ClusterPropagationPolicy") &&
						(!strings.Contains(d, "name: "+prefix+"cluster-objects") || !ownSelectors(d, prefix)) {
						t.Errorf("sub-case %d %s holds a cluster policy of another sub-case's objects:\n%s", j, f.Name, d)
					}
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

// A change pack's sub-cases are reproducible and cannot reach each other: cluster policies named after
// the sub-case and selecting only in its namespaces, no ClusterResourceBinding, a base file each, and
// every kind of change drawn somewhere in a few packs.
func TestChangePacksAreSeparate(t *testing.T) {
	seen := map[string]bool{}
	for index := 0; index < 6; index++ {
		a, b := GenerateChangePack(3, index, 20), GenerateChangePack(3, index, 20)
		for j, sub := range a.Subs {
			prefix := fmt.Sprintf("s%d-", j)
			var base, after string
			for i, f := range sub.Files {
				if !bytes.Equal(f.Bytes(), b.Subs[j].Files[i].Bytes()) {
					t.Fatalf("pack %d sub-case %d file %s differs between two generations", index, j, f.Name)
				}
				switch f.Name {
				case "base/policies.yaml":
					base = string(f.Bytes())
				case "policies.yaml":
					after = string(f.Bytes())
				case "bindings.yaml":
					if strings.Contains(string(f.Bytes()), "kind: ClusterResourceBinding") {
						t.Errorf("pack %d sub-case %d has a ClusterResourceBinding", index, j)
					}
				}
			}
			if base == "" || after == "" {
				t.Fatalf("pack %d sub-case %d: no base or no change", index, j)
			}
			for _, text := range []string{base, after} {
				for _, d := range strings.Split(text, "---\n") {
					if !strings.Contains(d, "kind: ClusterPropagationPolicy") {
						continue
					}
					seen["cluster policy"] = true
					if !strings.Contains(d, "name: "+prefix+"policy-") && !strings.Contains(d, "name: "+prefix+"cluster-objects") {
						t.Errorf("pack %d sub-case %d: a cluster policy not named after it:\n%s", index, j, d)
					}
					if !ownSelectors(d, prefix) {
						t.Errorf("pack %d sub-case %d: a cluster policy selects outside its namespaces:\n%s", index, j, d)
					}
				}
			}
			if strings.Contains(after, "-cpp\n") || strings.Contains(after, "-pp\n") {
				seen["other kind"] = true
			}
			if strings.Contains(after, "team: platform") {
				seen["labels only"] = true
			}
			if base == after {
				seen["unchanged"] = true
			}
		}
	}
	for _, want := range []string{"cluster policy", "other kind", "labels only"} {
		if !seen[want] {
			t.Errorf("6 packs of 20 drew no %s", want)
		}
	}
}

// Every packed kind turns the resource-model gate off in some packs (a region lint got wrong until session 26).
func TestPacksTurnTheModelGateOff(t *testing.T) {
	tests := []struct {
		name string
		pack func(index int) *Pack
	}{
		{"snapshot", func(i int) *Pack { return GeneratePack(1, i, 1) }},
		{"estimator", func(i int) *Pack { return GenerateEstimatorPack(1, i, 1) }},
		{"change", func(i int) *Pack { return GenerateChangePack(1, i, 1) }},
	}
	for _, tc := range tests {
		off := 0
		for i := 0; i < 100; i++ {
			if strings.Contains(strings.Join(tc.pack(i).Args, " "), "CustomizedClusterResourceModeling=false") {
				off++
			}
		}
		if off == 0 || off == 100 {
			t.Errorf("%s packs: the model gate is off in %d of 100", tc.name, off)
		}
	}
}

// ownSelectors: every resource selector of the policy document d names a namespace of the sub-case
// (namespace: PREFIX...) or one of its cluster-scoped objects (name: PREFIX...).
func ownSelectors(d, prefix string) bool {
	in := false
	var selector []string
	own := func() bool {
		if selector == nil {
			return true
		}
		text := strings.Join(selector, "\n")
		return strings.Contains(text, "namespace: "+prefix) || strings.Contains(text, "name: "+prefix)
	}
	for _, line := range strings.Split(d, "\n") {
		switch {
		case strings.HasPrefix(line, "  resourceSelectors:"):
			in = true
		case in && strings.HasPrefix(line, "  - "):
			if !own() {
				return false
			}
			selector = []string{line}
		case in && strings.HasPrefix(line, "    "):
			selector = append(selector, line)
		case in:
			return own()
		}
	}
	return own()
}

// Many change packs, every change applied: no cluster policy of a sub-case selects outside it (seed 2709's
// c91-12 narrowed clusterScoped's policy to a Deployment without a namespace, in every sub-case at once).
func TestChangedClusterPoliciesStayInTheirSubCase(t *testing.T) {
	for index := 0; index < 300; index++ {
		p := GenerateChangePack(2709, index, 40)
		for j, sub := range p.Subs {
			prefix := fmt.Sprintf("s%d-", j)
			for _, f := range sub.Files {
				if f.Name != "policies.yaml" && f.Name != "base/policies.yaml" {
					continue
				}
				for _, d := range strings.Split(string(f.Bytes()), "---\n") {
					if strings.Contains(d, "kind: ClusterPropagationPolicy") && !ownSelectors(d, prefix) {
						t.Fatalf("pack %d sub-case %d: a cluster policy selects outside it:\n%s", index, j, d)
					}
				}
			}
		}
	}
}
