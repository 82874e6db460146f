package scheduling

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

// want is one expected scheduling entry.
type want struct {
	policy    int    // Policy.Index
	workload  string // Kind namespace/name
	replicas  int64
	scheduled bool
	affinity  string
	clusters  string // placement(): "name:replicas ..." sorted by name
	reason    string // Scheduled condition reason
	acted     *bool  // nil: no binding was given
}

func ptr(b bool) *bool { return &b }

func run(t *testing.T, in Input) map[int][]report.Scheduling {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	got, err := Run(ctx, in)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return got
}

func check(t *testing.T, got map[int][]report.Scheduling, wants []want) {
	t.Helper()
	n := 0
	for _, entries := range got {
		n += len(entries)
	}
	if n != len(wants) {
		out, _ := json.MarshalIndent(got, "", "  ")
		t.Fatalf("got %d entries, want %d:\n%s", n, len(wants), out)
	}
	seen := map[int]int{}
	for _, w := range wants {
		entries := got[w.policy]
		i := seen[w.policy]
		seen[w.policy]++
		if i >= len(entries) {
			t.Fatalf("policy %d: no entry for %s", w.policy, w.workload)
		}
		e := entries[i]
		name := e.Workload.Kind + " " + e.Workload.Namespace + "/" + e.Workload.Name
		if name != w.workload {
			t.Errorf("policy %d entry %d: workload %s, want %s", w.policy, i, name, w.workload)
		}
		if e.Workload.Replicas != w.replicas {
			t.Errorf("%s: replicas %d, want %d", name, e.Workload.Replicas, w.replicas)
		}
		if e.Scheduled != w.scheduled {
			t.Errorf("%s: scheduled %v, want %v (condition %+v)", name, e.Scheduled, w.scheduled, e.Condition)
		}
		if e.AffinityName != w.affinity {
			t.Errorf("%s: affinityName %q, want %q", name, e.AffinityName, w.affinity)
		}
		if p := placement(e.Clusters); p != w.clusters {
			t.Errorf("%s: clusters %q, want %q", name, p, w.clusters)
		}
		if e.Condition == nil || e.Condition.Reason != w.reason {
			t.Errorf("%s: condition %+v, want reason %q", name, e.Condition, w.reason)
		}
		switch {
		case w.acted == nil && e.Acted != nil:
			t.Errorf("%s: acted %v, want no acted (no binding given)", name, *e.Acted)
		case w.acted != nil && (e.Acted == nil || *e.Acted != *w.acted):
			t.Errorf("%s: acted %v, want %v", name, e.Acted, *w.acted)
		}
	}
}

// The seed examples (manifests/examples/*.yaml against clusters.yaml and workloads.yaml), first time: no
// binding exists yet. Each expectation was traced through Karmada v1.18.2's code (see the comments).
func TestExamplesFirstTime(t *testing.T) {
	ex := examples(t)
	clusters := readObjects(t, filepath.Join(ex, "clusters.yaml"))
	workloads := readObjects(t, filepath.Join(ex, "workloads.yaml"))
	tests := []struct {
		name   string
		policy string
		want   []want
	}{
		{
			// Duplicated (no replicaScheduling): group dc-shanghai names only "unavailable", which is not a
			// cluster, so ClusterAffinity filters all (FitError); scheduleResourceBindingWithClusterAffinities
			// goes on to dc-beijing, where member1 gets the full 3 (assignment.go, assignByDuplicatedStrategy).
			name: "dc-groups", policy: "dc-groups.yaml",
			want: []want{{policy: 0, workload: "Deployment default/nginx", replicas: 3, scheduled: true,
				affinity: "dc-beijing", clusters: "member1:3", reason: "Success"}},
		},
		{
			// Dynamic weight with overflow tiers: cluster1 (on-prem) is filled to its available replicas first,
			// the rest is divided over the public-cloud tier by available replicas.
			name: "overflow-onprem-cloud", policy: "overflow-onprem-cloud.yaml",
			want: []want{{policy: 0, workload: "Deployment default/nginx-overflow", replicas: 10, scheduled: true,
				affinity: "on-prem", clusters: "cluster1:4 cluster2:4 cluster3:2", reason: "Success"}},
		},
		{
			// idc-east-2 has an untolerated NoSchedule taint; idc-east-1 holds 6, the 4 left overflow to the
			// cloud tier, where cloud-east-1 (30 available) takes all 4 by Webster over 30:3.
			name: "checkout-local-idc", policy: "checkout-local-idc.yaml",
			want: []want{{policy: 0, workload: "Deployment production/checkout", replicas: 10, scheduled: true,
				affinity: "local-idc", clusters: "cloud-east-1:4 idc-east-1:6", reason: "Success"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, Input{
				Policies:  admit(t, readObjects(t, filepath.Join(ex, tt.policy))),
				Clusters:  clusters,
				Workloads: workloads,
			})
			check(t, got, tt.want)
		})
	}
}

// Day two (manifests/examples/day2/bindings.yaml): the detector applies each policy to the existing
// binding, and the scheduler re-schedules from it.
func TestExamplesDayTwo(t *testing.T) {
	ex := examples(t)
	got := run(t, Input{
		Policies: admit(t, readObjects(t, filepath.Join(ex, "overflow-onprem-cloud.yaml"),
			filepath.Join(ex, "dc-groups.yaml"), filepath.Join(ex, "checkout-local-idc.yaml"))),
		Clusters:  readObjects(t, filepath.Join(ex, "clusters.yaml")),
		Workloads: readObjects(t, filepath.Join(ex, "workloads.yaml")),
		Bindings:  readObjects(t, filepath.Join(ex, "day2", "bindings.yaml")),
	})
	check(t, got, []want{
		// replicas 6 -> 10 (IsBindingReplicasChanged): Steady scale-up from {cluster1:4, cluster2:2}.
		{policy: 0, workload: "Deployment default/nginx-overflow", replicas: 10, scheduled: true,
			affinity: "on-prem", clusters: "cluster1:8 cluster2:2", reason: "Success", acted: ptr(true)},
		// Duplicated always re-schedules; getAffinityIndex starts at the observed group dc-hongkong.
		{policy: 1, workload: "Deployment default/nginx", replicas: 3, scheduled: true,
			affinity: "dc-hongkong", clusters: "member2:3", reason: "Success", acted: ptr(true)},
		// The placement gained an overflow tier (placementChanged against applied-placement), and the
		// replicas went 6 -> 10. Tier local-idc's available replicas count the binding's own 6 on idc-east-1
		// (spreadconstraint/group_clusters.go: AvailableReplicas += AssignedReplicasForCluster), so the tier
		// takes all 10 (common.go assignWorkloadReplicas) and the Steady scale-up puts the 4 new ones on
		// idc-east-1 (idc-east-2 is tainted): nothing overflows to the cloud.
		{policy: 2, workload: "Deployment production/checkout", replicas: 10, scheduled: true,
			affinity: "local-idc", clusters: "idc-east-1:10", reason: "Success", acted: ptr(true)},
	})
}

// A binding whose placement, replicas and trigger are unchanged is left alone: doScheduleBinding finds no
// reason to schedule (placementChanged, IsBindingReplicasChanged, RescheduleRequired all false, Divided),
// so no Scheduled event is recorded and spec.clusters stays as it was.
func TestDayTwoNotActed(t *testing.T) {
	ex := examples(t)
	bindings := readObjects(t, filepath.Join(ex, "day2", "bindings.yaml"))[:1] // nginx-overflow
	b := bindings[0]
	if err := unstructured.SetNestedField(b.Object, int64(10), "spec", "replicas"); err != nil {
		t.Fatal(err)
	}
	clusters := []any{map[string]any{"name": "cluster1", "replicas": int64(8)}, map[string]any{"name": "cluster2", "replicas": int64(2)}}
	if err := unstructured.SetNestedSlice(b.Object, clusters, "spec", "clusters"); err != nil {
		t.Fatal(err)
	}
	got := run(t, Input{
		Policies:  admit(t, readObjects(t, filepath.Join(ex, "overflow-onprem-cloud.yaml"))),
		Clusters:  readObjects(t, filepath.Join(ex, "clusters.yaml")),
		Workloads: readObjects(t, filepath.Join(ex, "workloads.yaml")),
		Bindings:  bindings,
	})
	check(t, got, []want{{policy: 0, workload: "Deployment default/nginx-overflow", replicas: 10, scheduled: true,
		affinity: "on-prem", clusters: "cluster1:8 cluster2:2", reason: "Success", acted: ptr(false)}})
}

// A cluster that is not Ready is filtered through its taint: the cluster controller marks a Ready=False
// cluster with cluster.karmada.io/not-ready:NoSchedule, and the TaintToleration filter rejects it. The
// scheduler itself never reads the Ready condition (core/generic_scheduler.go findClustersThatFit: "DO NOT
// filter unhealthy cluster", it walks Snapshot.GetClusters, not GetReadyClusters), so Ready=False without
// the taint still receives replicas.
func TestNotReadyClusterIsFiltered(t *testing.T) {
	ex := examples(t)
	clusters := readObjects(t, filepath.Join(ex, "clusters.yaml"))
	notReady := func(taint bool) []*unstructured.Unstructured {
		var out []*unstructured.Unstructured
		for _, c := range clusters {
			c = c.DeepCopy()
			if c.GetName() == "member1" {
				conds, _, _ := unstructured.NestedSlice(c.Object, "status", "conditions")
				for _, cond := range conds {
					if m := cond.(map[string]any); m["type"] == "Ready" {
						m["status"], m["reason"], m["message"] = "False", "ClusterNotReady", "cluster is not reachable"
					}
				}
				if err := unstructured.SetNestedSlice(c.Object, conds, "status", "conditions"); err != nil {
					t.Fatal(err)
				}
				if taint {
					taints := []any{map[string]any{"key": "cluster.karmada.io/not-ready", "effect": "NoSchedule"}}
					if err := unstructured.SetNestedSlice(c.Object, taints, "spec", "taints"); err != nil {
						t.Fatal(err)
					}
				}
			}
			out = append(out, c)
		}
		return out
	}
	policy := decodeAll(t, []byte(`
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nginx, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: nginx}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
`))
	tests := []struct {
		name     string
		clusters []*unstructured.Unstructured
		want     want
	}{
		{"both ready", clusters, want{workload: "Deployment default/nginx", replicas: 3, scheduled: true,
			clusters: "member1:3 member2:3", reason: "Success"}},
		{"member1 not ready, tainted by the cluster controller", notReady(true), want{workload: "Deployment default/nginx",
			replicas: 3, scheduled: true, clusters: "member2:3", reason: "Success"}},
		{"member1 not ready, no taint yet", notReady(false), want{workload: "Deployment default/nginx",
			replicas: 3, scheduled: true, clusters: "member1:3 member2:3", reason: "Success"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, Input{
				Policies:  admit(t, policy),
				Clusters:  tt.clusters,
				Workloads: only(readObjects(t, filepath.Join(ex, "workloads.yaml")), "Deployment"),
			})
			check(t, got, []want{tt.want})
		})
	}
}

// With every cluster of the only group tainted, the scheduler answers with a FitError: Scheduled=False,
// reason NoClusterFit, no clusters.
func TestNoClusterFits(t *testing.T) {
	ex := examples(t)
	policy := decodeAll(t, []byte(`
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nginx, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: nginx}]
  placement:
    clusterAffinity: {clusterNames: [idc-east-2]}
`))
	got := run(t, Input{
		Policies:  admit(t, policy),
		Clusters:  readObjects(t, filepath.Join(ex, "clusters.yaml")),
		Workloads: only(readObjects(t, filepath.Join(ex, "workloads.yaml")), "Deployment"),
	})
	check(t, got, []want{{workload: "Deployment default/nginx", replicas: 3, scheduled: false, clusters: "",
		reason: "NoClusterFit"}})
	if msg := got[0][0].Condition.Message; !strings.HasPrefix(msg, "0/9 clusters are available: ") {
		t.Errorf("condition message %q, want Karmada's FitError text", msg)
	}
}

// TestPrintExamples prints Run's JSON for the shipped examples (go test -run TestPrintExamples -v; with
// ORACLE_PRINT_DIR=DIR also into DIR/NAME.json), for a side-by-side look at lint's scheduling[]: the key is
// the policy's position among the files, as lint's results[] index.
func TestPrintExamples(t *testing.T) {
	ex := examples(t)
	cases := []struct {
		name     string
		policies []string
		clusters string
		loads    string
		bindings string
		gates    string
		noLoads  bool // no --workloads
	}{
		{name: "dc-groups", policies: []string{"dc-groups.yaml"}},
		{name: "overflow-onprem-cloud", policies: []string{"overflow-onprem-cloud.yaml"}},
		{name: "checkout-local-idc", policies: []string{"checkout-local-idc.yaml"}},
		{name: "day2", policies: []string{"overflow-onprem-cloud.yaml", "dc-groups.yaml", "checkout-local-idc.yaml"},
			bindings: "day2/bindings.yaml"},
		{name: "day2-no-workloads", policies: []string{"overflow-onprem-cloud.yaml", "dc-groups.yaml", "checkout-local-idc.yaml"},
			bindings: "day2/bindings.yaml", noLoads: true},
		{name: "ai-keep-together", policies: []string{"ai/policies/keep-together.yaml"}, clusters: "ai/clusters.yaml",
			loads: "ai/workloads", gates: "MultiplePodTemplatesScheduling=true"},
		{name: "ai-no-spread", policies: []string{"ai/policies/no-spread.yaml"}, clusters: "ai/clusters.yaml",
			loads: "ai/workloads", gates: "MultiplePodTemplatesScheduling=true"},
		{name: "ai-keep-together-gate-off", policies: []string{"ai/policies/keep-together.yaml"}, clusters: "ai/clusters.yaml",
			loads: "ai/workloads"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.clusters == "" {
				c.clusters = "clusters.yaml"
			}
			if c.loads == "" {
				c.loads = "workloads.yaml"
			}
			var paths []string
			for _, p := range c.policies {
				paths = append(paths, filepath.Join(ex, p))
			}
			in := Input{
				Policies:     admit(t, readObjects(t, paths...)),
				Clusters:     readObjects(t, filepath.Join(ex, c.clusters)),
				Workloads:    readObjects(t, filepath.Join(ex, c.loads)),
				FeatureGates: c.gates,
			}
			if c.bindings != "" {
				in.Bindings = readObjects(t, filepath.Join(ex, c.bindings))
			}
			if c.noLoads {
				in.Workloads = nil
			}
			got := run(t, in)
			out, err := json.MarshalIndent(got, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s:\n%s", c.name, out)
			if dir := os.Getenv("ORACLE_PRINT_DIR"); dir != "" {
				if err := os.WriteFile(filepath.Join(dir, c.name+".json"), out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// Karmada's own nondeterminism is kept: a template without metadata.uid gets a random one (as
// kube-apiserver gives it), and the Webster tie-break between equal static weights follows the uid's
// hash parity (helper/binding.go tieBreakerByUID). 3 replicas over weights 1:1 split 2:1 one way or the
// other; with the template's uid fixed, every run gives the same split.
func TestTieBreakFollowsUID(t *testing.T) {
	ex := examples(t)
	policy := decodeAll(t, []byte(`
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nginx, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: nginx}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - {targetCluster: {clusterNames: [member1]}, weight: 1}
          - {targetCluster: {clusterNames: [member2]}, weight: 1}
`))
	clusters := readObjects(t, filepath.Join(ex, "clusters.yaml"))
	nginx := only(readObjects(t, filepath.Join(ex, "workloads.yaml")), "Deployment")
	// runs until two different placements have been seen, at most runs times.
	outcomes := func(workloads []*unstructured.Unstructured, runs int) map[string]int {
		seen := map[string]int{}
		for i := 0; i < runs && len(seen) < 2; i++ {
			got := run(t, Input{Policies: admit(t, policy), Clusters: clusters, Workloads: workloads})
			for _, e := range got[0] {
				if e.Workload.Name == "nginx" {
					seen[placement(e.Clusters)]++
				}
			}
		}
		return seen
	}
	allowed := map[string]bool{"member1:2 member2:1": true, "member1:1 member2:2": true}

	random := outcomes(nginx, 40)
	for p := range random {
		if !allowed[p] {
			t.Errorf("without uid: placement %q is not one Karmada's tie-break can give", p)
		}
	}
	if len(random) != 2 {
		t.Errorf("without uid: 40 runs gave %v, want both splits (a random uid per run)", random)
	}

	var fixed []*unstructured.Unstructured
	for _, w := range nginx {
		w = w.DeepCopy()
		w.SetUID("0b3f4c1e-5d6a-4e2b-9c8d-7f6e5d4c3b2a")
		fixed = append(fixed, w)
	}
	pinned := outcomes(fixed, 6)
	if len(pinned) != 1 {
		t.Errorf("with a uid: 6 runs gave %v, want one split", pinned)
	}
	for p := range pinned {
		if !allowed[p] {
			t.Errorf("with a uid: placement %q is not one Karmada's tie-break can give", p)
		}
	}
}

// The gates reach Karmada's features.FeatureGate: with PriorityBasedScheduling the scheduler uses its
// priority queue (the sentinels go last by priority), and the answer is the same.
func TestFeatureGates(t *testing.T) {
	ex := examples(t)
	for _, gates := range []string{"", "PriorityBasedScheduling=true", "SchedulingOvercommitProtection=true,WorkloadAffinity=true"} {
		t.Run("gates="+gates, func(t *testing.T) {
			got := run(t, Input{
				Policies:     admit(t, readObjects(t, filepath.Join(ex, "dc-groups.yaml"))),
				Clusters:     readObjects(t, filepath.Join(ex, "clusters.yaml")),
				Workloads:    readObjects(t, filepath.Join(ex, "workloads.yaml")),
				FeatureGates: gates,
			})
			check(t, got, []want{{policy: 0, workload: "Deployment default/nginx", replicas: 3, scheduled: true,
				affinity: "dc-beijing", clusters: "member1:3", reason: "Success"}})
		})
	}
	for _, bad := range []string{"NoSuchGate=true", "PriorityBasedScheduling", "PriorityBasedScheduling=maybe"} {
		if _, err := Run(context.Background(), Input{FeatureGates: bad}); err == nil {
			t.Errorf("Run accepted --feature-gates=%s", bad)
		}
	}
	// A refused value leaves the gates usable.
	if _, err := Run(context.Background(), Input{FeatureGates: "PriorityBasedScheduling=false"}); err != nil {
		t.Errorf("after a refused value: %v", err)
	}
}

// Claims are the detector's: a PropagationPolicy before any ClusterPropagationPolicy, then the higher
// spec.priority, then the better selector (name > labelSelector > kind), then the smaller name
// (detector/compare.go); a claimed template keeps its policy unless a policy with preemption: Always and a
// higher priority takes it with the PolicyPreemption gate (detector/preemption.go).
func TestClaims(t *testing.T) {
	ex := examples(t)
	pp := func(name string, priority int, selector, extra string) string {
		return fmt.Sprintf(`
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: %s, namespace: default}
spec:
  priority: %d
  resourceSelectors: [%s]
  placement: {clusterAffinity: {clusterNames: [member1]}}
%s---`, name, priority, selector, extra)
	}
	byName := "{apiVersion: apps/v1, kind: Deployment, name: nginx}"
	byLabel := "{apiVersion: apps/v1, kind: Deployment, labelSelector: {matchLabels: {app: nginx}}}"
	byKind := "{apiVersion: apps/v1, kind: Deployment}"
	cpp := `
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: everything}
spec:
  priority: 100
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: nginx, namespace: default}]
  placement: {clusterAffinity: {clusterNames: [member2]}}
---`
	// A binding of nginx held by PropagationPolicy default/old (claims are sticky).
	held := decodeAll(t, []byte(`
apiVersion: work.karmada.io/v1alpha2
kind: ResourceBinding
metadata:
  name: nginx-deployment
  namespace: default
  labels: {propagationpolicy.karmada.io/permanent-id: 11111111-2222-4333-8444-555555555555}
  annotations: {propagationpolicy.karmada.io/name: old, propagationpolicy.karmada.io/namespace: default}
spec:
  replicas: 3
  clusters: [{name: member1, replicas: 3}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
  resource: {apiVersion: apps/v1, kind: Deployment, name: nginx, namespace: default}
`))
	tests := []struct {
		name     string
		policies string
		bindings []*unstructured.Unstructured
		gates    string
		winner   int // Policy.Index holding nginx
	}{
		{"name beats kind", pp("a-kind", 0, byKind, "") + pp("b-name", 0, byName, ""), nil, "", 1},
		{"label beats kind", pp("a-kind", 0, byKind, "") + pp("b-label", 0, byLabel, ""), nil, "", 1},
		{"priority beats selector", pp("a-name", 0, byName, "") + pp("b-kind", 1, byKind, ""), nil, "", 1},
		{"smaller name on a tie", pp("b-name", 0, byName, "") + pp("a-name", 0, byName, ""), nil, "", 1},
		{"PropagationPolicy before ClusterPropagationPolicy", cpp + pp("z-kind", 0, byKind, ""), nil, "", 1},
		{"sticky claim", pp("old", 0, byKind, "") + pp("new", 10, byName, "  preemption: Always\n"), held, "", 0},
		{"preempted with the gate", pp("old", 0, byKind, "") + pp("new", 10, byName, "  preemption: Always\n"), held,
			"PropagationPolicyPreemption=true", 1},
		{"not preempted by a lower priority", pp("old", 5, byKind, "") + pp("new", 1, byName, "  preemption: Always\n"), held,
			"PropagationPolicyPreemption=true", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, Input{
				Policies:     admit(t, decodeAll(t, []byte(tt.policies))),
				Clusters:     readObjects(t, filepath.Join(ex, "clusters.yaml")),
				Workloads:    only(readObjects(t, filepath.Join(ex, "workloads.yaml")), "Deployment"),
				Bindings:     tt.bindings,
				FeatureGates: tt.gates,
			})
			holders := []int{}
			for idx, entries := range got {
				for _, e := range entries {
					if e.Workload.Name == "nginx" {
						holders = append(holders, idx)
					}
				}
			}
			if len(holders) != 1 || holders[0] != tt.winner {
				out, _ := json.MarshalIndent(got, "", "  ")
				t.Fatalf("nginx held by policies %v, want [%d]:\n%s", holders, tt.winner, out)
			}
		})
	}
}

// The FitError text depends on the Go map order of the filter plugins: NewFramework lists them by ranging
// over the plugin registry map (framework/runtime/framework.go:78), and RunFilterPlugins stops at a
// cluster's first failure (framework.go:99-101), so a cluster failing two plugins is counted under
// whichever comes first in this scheduler's list: the same input gives either text.
// Group dc-shanghai matches no cluster; idc-east-2 also has an untolerated taint.
func TestFitErrorFollowsPluginOrder(t *testing.T) {
	ex := examples(t)
	policy := decodeAll(t, []byte(`
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nginx, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: nginx}]
  placement:
    clusterAffinities:
      - {affinityName: dc-shanghai, clusterNames: [unavailable]}
      - {affinityName: idc, clusterNames: [idc-east-2]}
`))
	texts := map[string]bool{
		"0/9 clusters are available: 1 cluster(s) had untolerated taint {maintenance=planned:NoSchedule}, 8 cluster(s) did not match the placement cluster affinity constraint.": true,
		"0/9 clusters are available: 9 cluster(s) did not match the placement cluster affinity constraint.":                                                                      true,
	}
	// A small Go map iterates from a random slot, so a given order may come up as rarely as 1 run in 8:
	// run until both texts have been seen (at most 200 runs: a false failure has odds below 1e-11).
	seen := map[string]int{}
	for i := 0; i < 200 && len(seen) < 2; i++ {
		got := run(t, Input{
			Policies:  admit(t, policy),
			Clusters:  readObjects(t, filepath.Join(ex, "clusters.yaml")),
			Workloads: only(readObjects(t, filepath.Join(ex, "workloads.yaml")), "Deployment"),
		})
		check(t, got, []want{{workload: "Deployment default/nginx", replicas: 3, scheduled: false, clusters: "",
			reason: "NoClusterFit"}})
		// Every group failed: the condition carries the first group's FitError.
		seen[got[0][0].Condition.Message]++
	}
	for msg := range seen {
		if !texts[msg] {
			t.Errorf("FitError text %q is not one of the two plugin orders'", msg)
		}
	}
	if len(seen) != 2 {
		t.Errorf("200 runs gave %v, want both plugin orders' texts", seen)
	}
}

// TestRunFiles runs Run on any files, as lint's command line would take them, and prints the JSON: a stand-in
// for cmd/karmada-oracle while it does not exist. Skipped unless ORACLE_POLICIES is set; each variable is a
// colon-separated list of files or directories:
//
//	ORACLE_POLICIES=a.yaml ORACLE_CLUSTERS=c.yaml ORACLE_WORKLOADS=w.yaml ORACLE_BINDINGS=b.yaml \
//	ORACLE_GATES=MultiplePodTemplatesScheduling=true go test -run TestRunFiles -v ./internal/scheduling/
//
// The policies get Karmada's mutating handler only (no CRD defaults: spell them out).
func TestRunFiles(t *testing.T) {
	policies := os.Getenv("ORACLE_POLICIES")
	if policies == "" {
		t.Skip("ORACLE_POLICIES is not set")
	}
	paths := func(env string) []string {
		if v := os.Getenv(env); v != "" {
			return strings.Split(v, ":")
		}
		return nil
	}
	in := Input{
		Policies:     admit(t, readObjects(t, paths("ORACLE_POLICIES")...)),
		Clusters:     readObjects(t, paths("ORACLE_CLUSTERS")...),
		Workloads:    readObjects(t, paths("ORACLE_WORKLOADS")...),
		Bindings:     readObjects(t, paths("ORACLE_BINDINGS")...),
		FeatureGates: os.Getenv("ORACLE_GATES"),
	}
	out, err := json.MarshalIndent(run(t, in), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(string(out))
}

// A template as kube-apiserver stores it: a Deployment without spec.replicas has 1, a Job without
// parallelism and completions has 1 and 1 (Karmada's interpreter reads the stored object).
func TestAPIServerDefaults(t *testing.T) {
	ex := examples(t)
	loads := decodeAll(t, []byte(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx, resources: {requests: {cpu: 100m}}}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: once, namespace: default}
spec:
  template:
    spec: {restartPolicy: Never, containers: [{name: once, image: busybox, resources: {requests: {cpu: 100m}}}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: wide, namespace: default}
spec:
  parallelism: 4
  template:
    spec: {restartPolicy: Never, containers: [{name: wide, image: busybox, resources: {requests: {cpu: 100m}}}]}
`))
	policy := decodeAll(t, []byte(`
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: all, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}, {apiVersion: batch/v1, kind: Job}]
  placement:
    clusterAffinity: {clusterNames: [member1]}
    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Aggregated}
`))
	got := run(t, Input{Policies: admit(t, policy), Clusters: readObjects(t, filepath.Join(ex, "clusters.yaml")), Workloads: loads})
	check(t, got, []want{
		{workload: "Deployment default/web", replicas: 1, scheduled: true, clusters: "member1:1", reason: "Success"},
		{workload: "Job default/once", replicas: 1, scheduled: true, clusters: "member1:1", reason: "Success"},
		{workload: "Job default/wide", replicas: 4, scheduled: true, clusters: "member1:4", reason: "Success"},
	})
}

// A template without metadata.namespace lands in Input.Namespace (lint's -n), "default" when unset.
func TestTemplateNamespace(t *testing.T) {
	ex := examples(t)
	load := decodeAll(t, []byte(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
`))
	policy := func(ns string) []*unstructured.Unstructured {
		return decodeAll(t, []byte(`
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`))
	}
	for _, ns := range []string{"", "shop"} {
		t.Run("namespace="+ns, func(t *testing.T) {
			stored := ns
			if stored == "" {
				stored = "default"
			}
			got := run(t, Input{Policies: admit(t, policy(stored)), Clusters: readObjects(t, filepath.Join(ex, "clusters.yaml")),
				Workloads: load, Namespace: ns})
			check(t, got, []want{{workload: "Deployment " + stored + "/web", replicas: 2, scheduled: true,
				clusters: "member1:2", reason: "Success"}})
		})
	}
}
