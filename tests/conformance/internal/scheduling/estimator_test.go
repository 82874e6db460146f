package scheduling

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	estimatorclient "github.com/karmada-io/karmada/pkg/estimator/client"
)

// estimatorCase is the committed case whose clusters (resource summaries that take 100 one-CPU replicas
// each: any other split came from karmada-scheduler-estimator) and dynamic-weight policy (the split shows
// each cluster's answer) the table below reuses with member states of its own.
const estimatorCase = "../../cases/estimator-nodes-and-pods"

func estimatorWorkload(replicas int) string {
	return fmt.Sprintf(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, uid: 9d7c2a4e-0000-4000-8000-000000000001}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, resources: {requests: {cpu: "1", memory: 1Gi}}}]
`, replicas)
}

// node is a Ready node with the given CPUs and extra spec (unschedulable, taints).
func node(name, cpu, spec string) string {
	return fmt.Sprintf(`
apiVersion: v1
kind: Node
metadata: {name: %s, labels: {kubernetes.io/hostname: %s}}
spec: {%s}
status:
  allocatable: {cpu: "%s", memory: 64Gi, pods: "110"}
  conditions: [{type: Ready, status: "True"}]
`, name, name, spec, cpu)
}

// pod is a pod on nodeName requesting cpu, in the given phase.
func pod(name, nodeName, cpu, phase string) string {
	return fmt.Sprintf(`
apiVersion: v1
kind: Pod
metadata: {name: %s, namespace: default, uid: "uid-%s"}
spec:
  nodeName: "%s"
  containers: [{name: c, image: busybox, resources: {requests: {cpu: "%s"}}}]
status: {phase: %s}
`, name, name, nodeName, cpu, phase)
}

// TestAccurateEstimator runs karmada-scheduler with karmada-scheduler-estimator servers (one per cluster with
// member state, Karmada's own server on fake clientsets, reached over gRPC by the scheduler's own client).
func TestAccurateEstimator(t *testing.T) {
	docs := func(parts ...string) []*unstructured.Unstructured {
		return decodeAll(t, []byte(strings.Join(parts, "\n---\n")))
	}
	tests := []struct {
		name     string
		replicas int
		state    map[string][]*unstructured.Unstructured // nil: no --member-state
		want     want
	}{
		{"nodes bound both clusters", 6, map[string][]*unstructured.Unstructured{
			"m1": docs(node("a", "2", "")), "m2": docs(node("b", "4", ""))},
			want{workload: "Deployment default/web", replicas: 6, scheduled: true, clusters: "m1:2 m2:4", reason: "Success"}},
		// Without the flag the general estimator alone: 100 and 100 (this case runs after one with member
		// state, so it also proves the accurate estimator is unregistered between dry runs).
		{"no member state", 6, nil,
			want{workload: "Deployment default/web", replicas: 6, scheduled: true, clusters: "m1:3 m2:3", reason: "Success"}},
		{"a running pod takes its request", 5, map[string][]*unstructured.Unstructured{
			"m1": docs(node("a", "2", ""), pod("busy", "a", "1", "Running")), "m2": docs(node("b", "4", ""))},
			want{workload: "Deployment default/web", replicas: 5, scheduled: true, clusters: "m1:1 m2:4", reason: "Success"}},
		// The estimator's pod informer lists status.phase!=Succeeded,status.phase!=Failed: finished pods
		// free their requests (the fake clientset's reactor applies that field selector).
		{"succeeded and failed pods take nothing", 6, map[string][]*unstructured.Unstructured{
			"m1": docs(node("a", "2", ""), pod("done", "a", "1", "Succeeded"), pod("crashed", "a", "1", "Failed")),
			"m2": docs(node("b", "4", ""))},
			want{workload: "Deployment default/web", replicas: 6, scheduled: true, clusters: "m1:2 m2:4", reason: "Success"}},
		// A pod not bound to a node is not in the estimator's cache (eventhandlers.go assignedPod).
		{"a pending pod takes nothing", 6, map[string][]*unstructured.Unstructured{
			"m1": docs(node("a", "2", ""), pod("pending", "", "1", "Pending")), "m2": docs(node("b", "4", ""))},
			want{workload: "Deployment default/web", replicas: 6, scheduled: true, clusters: "m1:2 m2:4", reason: "Success"}},
		{"an unschedulable node counts for nothing", 4, map[string][]*unstructured.Unstructured{
			"m1": docs(node("a", "2", "unschedulable: true")), "m2": docs(node("b", "4", ""))},
			want{workload: "Deployment default/web", replicas: 4, scheduled: true, clusters: "m2:4", reason: "Success"}},
		{"a NoSchedule taint the workload does not tolerate", 4, map[string][]*unstructured.Unstructured{
			"m1": docs(node("a", "2", "taints: [{key: dedicated, value: gpu, effect: NoSchedule}]")), "m2": docs(node("b", "4", ""))},
			want{workload: "Deployment default/web", replicas: 4, scheduled: true, clusters: "m2:4", reason: "Success"}},
		{"a cluster without nodes has room for none", 4, map[string][]*unstructured.Unstructured{
			"m1": nil, "m2": docs(node("b", "4", ""))},
			want{workload: "Deployment default/web", replicas: 4, scheduled: true, clusters: "m2:4", reason: "Success"}},
		// m2 has no estimator: the client's call for it fails, MaxAvailableReplicas returns the aggregate
		// error, and calAvailableReplicas (pkg/scheduler/core/util.go) drops the accurate answer for every
		// cluster, m1's too: the general one alone decides.
		{"one cluster without an estimator discards every accurate answer", 6, map[string][]*unstructured.Unstructured{
			"m1": docs(node("a", "2", ""))},
			want{workload: "Deployment default/web", replicas: 6, scheduled: true, clusters: "m1:3 m2:3", reason: "Success"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, Input{
				Policies:    admit(t, readObjects(t, filepath.Join(estimatorCase, "policy.yaml"))),
				Clusters:    readObjects(t, filepath.Join(estimatorCase, "clusters.yaml")),
				Workloads:   docs(estimatorWorkload(tt.replicas)),
				MemberState: tt.state,
			})
			check(t, got, []want{tt.want})
			if _, registered := estimatorclient.GetReplicaEstimators()[accurateEstimatorName]; registered {
				t.Errorf("the accurate estimator is still registered after the dry run")
			}
		})
	}
}

// TestMemberStateKinds: the estimator lists Nodes and Pods only; anything else in a member's state is refused.
func TestMemberStateKinds(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		wantErr string
	}{
		{"node", node("a", "1", ""), ""},
		{"pod", pod("p", "a", "1", "Running"), ""},
		{"configmap", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n", "only v1 Node and Pod objects"},
		{"node of another version", "apiVersion: v2\nkind: Node\nmetadata: {name: x}\n", `apiVersion "v2"`},
		{"pod without a uid", "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n", "metadata.uid: Required value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := newMembers(map[string][]*unstructured.Unstructured{"m1": decodeAll(t, []byte(tt.doc))})
			if tt.wantErr == "" && err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

// TestMemberStateRefused: member state that no member's kube-apiserver could serve is refused (as lint
// refuses it), never estimated on.
func TestMemberStateRefused(t *testing.T) {
	docs := func(s string) []*unstructured.Unstructured { return decodeAll(t, []byte(s)) }
	tests := []struct {
		name    string
		state   map[string][]*unstructured.Unstructured
		wantErr string
	}{
		{"a directory of no Cluster", map[string][]*unstructured.Unstructured{"m9": docs(node("a", "1", ""))},
			"no Cluster m9 in the snapshot"},
		{"a node twice", map[string][]*unstructured.Unstructured{"m1": docs(node("a", "1", "") + "\n---\n" + node("a", "2", ""))},
			"Node /a is there twice"},
		{"two pods of one uid", map[string][]*unstructured.Unstructured{"m1": docs(pod("p", "a", "1", "Running") + "\n---\n" +
			strings.Replace(pod("p", "a", "1", "Running"), "name: p,", "name: q,", 1))}, "uid uid-p is another pod's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Run(context.Background(), Input{
				Policies:    admit(t, readObjects(t, filepath.Join(estimatorCase, "policy.yaml"))),
				Clusters:    readObjects(t, filepath.Join(estimatorCase, "clusters.yaml")),
				Workloads:   docs(estimatorWorkload(2)),
				MemberState: tt.state,
			})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}
