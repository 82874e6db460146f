package generate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"karmada-policy-webhook/tests/conformance/internal/compare"
)

func render(c *Case) string {
	var b strings.Builder
	for _, f := range c.Files {
		b.WriteString("== " + f.Name + "\n")
		b.Write(f.Bytes())
	}
	b.WriteString("== args " + strings.Join(c.Args, " "))
	return b.String()
}

func TestGenerateSameSeedSameBytes(t *testing.T) {
	tests := []struct {
		name  string
		seed  uint64
		index int
	}{
		{"seed 1 case 0", 1, 0},
		{"seed 1 case 7", 1, 7},
		{"seed 42 case 1999", 42, 1999},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := render(Generate(tt.seed, tt.index)), render(Generate(tt.seed, tt.index))
			if a != b {
				t.Fatalf("two generations differ:\n%s\n---\n%s", a, b)
			}
			if other := render(Generate(tt.seed+1, tt.index)); other == a {
				t.Error("another seed gave the same case")
			}
		})
	}
}

func TestWriteWritesTheSameBytesTwice(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir()}
	for _, d := range dirs {
		if err := Generate(3, 5).Write(d); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"clusters.yaml", "policies.yaml", "workloads.yaml"} {
		a, err := os.ReadFile(filepath.Join(dirs[0], name))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(dirs[1], name))
		if !bytes.Equal(a, b) || len(a) == 0 {
			t.Errorf("%s: written differently or empty", name)
		}
	}
}

// The batch reaches the space the issue names; a generator that lost a feature fails here.
func TestGenerateReachesTheFeatures(t *testing.T) {
	want := []string{"clusterAffinities:", "overflowAffinities:", "spreadByField: region", "spreadByField: zone",
		"spreadByField: provider", "spreadByField: cluster", "spreadByLabel:", "staticWeightList:", "dynamicWeight: AvailableReplicas",
		"replicaDivisionPreference: Aggregated", "replicaSchedulingType: Duplicated", "taints:", "clusterTolerations:",
		"apiEnablements:", "resourceSummary:", "resourceModels:", "allocatableModelings:", "kind: PyTorchJob",
		"MultiplePodTemplatesScheduling=true", "priority:", "preemption:", "kind: ClusterPropagationPolicy",
		"\t# ", ":\t", "&a", "*a", "<<: *a", "...\n", "0x0A", "kind: List", "kind: ResourceBinding",
		"policy.karmada.io/applied-placement", "schedulerObservingAffinityName", "== bindings.yaml",
		"rescheduleTriggeredAt: \"2026-11-21T09:30:00Z\"", "rescheduleTriggeredAt: \"2026-11-20T08:00:01Z\"",
		"rescheduleTriggeredAt: \"2026-11-20T08:00:00Z\"", "rescheduleTriggeredAt: \"2026-11-19T23:59:59Z\"",
		"kind: StatefulSet", "kind: Job", "kind: Pod", "parallelism:", "status: \"Unknown\"", "status: \"False\"",
		"kind: TFJob", "kind: MPIJob", "kind: RayCluster", "kind: RayJob", "apiVersion: batch.volcano.sh/v1alpha1",
		"kind: FlinkDeployment", "kind: SparkApplication", "kind: CloneSet", "apiVersion: apps.kruise.io/v1beta1",
		"kind: UnitedDeployment", "kind: BroadcastJob", "kind: SidecarSet", "kind: Workflow", "kind: Notebook",
		"kind: RayService", "kind: DaemonSet", "kind: Rollout", "name: rayservices",
		// pod shapes (pods.go)
		"initContainers:", "restartPolicy: Always", "overhead:", "limits:", "name: second", "hugepages-2Mi:",
		"example.com/fpga:", "cpu: \"1e3m\"", "memory: \"1G\"", "cpu: \"0\"",
		"-canary\n"} // a binding recording another object (bindings.go recordedName)
	var all strings.Builder
	for i := 0; i < 600; i++ {
		all.WriteString(render(Generate(1, i)))
	}
	text := all.String()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("600 cases of seed 1 never contain %q", w)
		}
	}
}

func TestBytesWritesBlockYAML(t *testing.T) {
	anchored := L("a", "b")
	anchored.Anchor = "x"
	root := M("kind", "Thing", "spec", M("names", anchored, "again", &Node{Kind: Alias, Raw: "x"},
		"items", L(M("name", "one", "n", 1), M()), "empty", L(), "yes", "yes"))
	f := &File{Name: "f.yaml", Docs: []*Doc{{Root: root}, {Root: M("b", true), End: true}}}
	want := `kind: Thing
spec:
  names: &x
  - a
  - b
  again: *x
  items:
  - name: one
    n: 1
  - {}
  empty: []
  yes: "yes"
---
b: true
...
`
	if got := string(f.Bytes()); got != want {
		t.Errorf("Bytes() =\n%s\nwant\n%s", got, want)
	}
}

func TestMinimiseKeepsWhatTheDivergenceNeeds(t *testing.T) {
	c := Generate(1, 3)
	// A stand-in divergence: the policies file still names kind PropagationPolicy or
	// ClusterPropagationPolicy somewhere.
	still := func(c *Case) bool {
		for _, f := range c.Files {
			if f.Name == "policies.yaml" && strings.Contains(string(f.Bytes()), "PropagationPolicy") {
				return true
			}
		}
		return false
	}
	before := len(render(c))
	spent := Minimise(c, 10000, still)
	if !still(c) {
		t.Fatal("minimised case lost the divergence")
	}
	after := render(c)
	if len(after) >= before || spent == 0 {
		t.Errorf("nothing removed (%d -> %d bytes, %d steps)", before, len(after), spent)
	}
	if strings.Contains(after, "placement") {
		t.Errorf("placement kept although not needed:\n%s", after)
	}
}

func TestSameDivergenceKeepsTheCause(t *testing.T) {
	exit := func(lint string) compare.Verdict {
		return compare.Verdict{Status: compare.Differ, Diffs: []compare.Diff{{Path: "exit", Lint: lint, Karmada: "exit 1"}}}
	}
	key := func(path string) compare.Verdict {
		return compare.Verdict{Status: compare.Differ, Diffs: []compare.Diff{{Path: path, Lint: "replicas 1", Karmada: "absent"}}}
	}
	tests := []struct {
		name     string
		was, now compare.Verdict
		want     bool
	}{
		{"same exit cause on another line", exit(`exit 2 (p.yaml:12:3: duplicate key "cpu" in mapping)`),
			exit(`exit 2 (p.yaml:4:3: duplicate key "cpu" in mapping)`), true},
		{"another exit cause", exit(`exit 2 (p.yaml:12:3: duplicate key "cpu" in mapping)`),
			exit(`exit 2 (w.yaml:1:1: Deployment <unnamed>: metadata.name: Required value)`), false},
		{"same key, other values", key("scheduling[Deployment default/web].clusters[m4]"),
			key("scheduling[Deployment default/web].clusters[m4]"), true},
		{"agreement is not the divergence", key("x"), compare.Verdict{Status: compare.Agree}, false},
		{"could not run for the same cause", compare.Verdict{Status: compare.CouldNotRun, Reason: "oracle timed out after 1m0s"},
			compare.Verdict{Status: compare.CouldNotRun, Reason: "oracle timed out after 1m0s"}, true},
		{"could not run for another cause", compare.Verdict{Status: compare.CouldNotRun,
			Reason: "oracle panicked: panic: failed to add object &{map[apiVersion:policy.karmada.io/v1alpha1 kind:PropagationPolicy"},
			compare.Verdict{Status: compare.CouldNotRun, Reason: "oracle panicked: panic: failed to add object &{map[kind:Deployment metadata:map[]]}"},
			false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameDivergence(tt.was, tt.now); got != tt.want {
				t.Errorf("sameDivergence() = %v, want %v", got, tt.want)
			}
		})
	}
}
