package live

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lifecycleCase is one change a user makes to the examples: PATH as `plan` reads it, then the kubectl
// commands that make the change on the plane (kubectl apply, then the deletion --prune would do).
type lifecycleCase struct {
	name   string
	before [][]string        // kubectl arguments run before plan; the workloads they release are waited for
	files  map[string]string // PATH: file name -> content; "@NAME" copies manifests/examples/NAME
	prune  bool
	apply  [][]string        // kubectl arguments; "{dir}" is PATH
	extra  [][2]string       // objects the case creates, deleted afterwards: {kind, name} (kind with -n ns as "pp/ns")
	want   map[string]string // workload -> the holder plan must predict ("" released), for the ones it changes
}

const (
	replacement = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nginx-v2, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: nginx}]
  placement:
    clusterAffinity: {clusterNames: [member2]}
`
	narrowed = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nginx, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: nginx-canary}]
  placement:
    clusterAffinity: {clusterNames: [member1]}
`
	fallback = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nginx-fallback, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: nginx}]
  placement:
    clusterAffinity: {clusterNames: [member2]}
`
	clusterWide = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: every-nginx}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: nginx, namespace: default}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    replicaScheduling: {replicaSchedulingType: Duplicated}
`
)

var lifecycleCases = []lifecycleCase{
	{
		name:  "replaced: the new policy claims nginx once the old one is deleted, and moves it",
		files: map[string]string{"overflow.yaml": "@overflow-onprem-cloud.yaml", "checkout.yaml": "@checkout-local-idc.yaml", "nginx-v2.yaml": replacement},
		prune: true,
		apply: [][]string{{"apply", "-f", "{dir}/nginx-v2.yaml"}, {"delete", "propagationpolicy", "-n", "default", "nginx"}},
		extra: [][2]string{{"propagationpolicy/default", "nginx-v2"}},
		want:  map[string]string{"Deployment/default/nginx": "PropagationPolicy default/nginx-v2"},
	},
	{
		name:  "deleted with nothing in its place: nginx keeps its clusters, with no policy",
		files: map[string]string{"overflow.yaml": "@overflow-onprem-cloud.yaml", "checkout.yaml": "@checkout-local-idc.yaml"},
		prune: true,
		apply: [][]string{{"delete", "propagationpolicy", "-n", "default", "nginx"}},
		want:  map[string]string{"Deployment/default/nginx": ""},
	},
	{
		name:  "a ClusterPropagationPolicy takes nginx over once its PropagationPolicy is deleted",
		files: map[string]string{"overflow.yaml": "@overflow-onprem-cloud.yaml", "checkout.yaml": "@checkout-local-idc.yaml", "cpp.yaml": clusterWide},
		prune: true,
		apply: [][]string{{"apply", "-f", "{dir}/cpp.yaml"}, {"delete", "propagationpolicy", "-n", "default", "nginx"}},
		extra: [][2]string{{"clusterpropagationpolicy", "every-nginx"}},
		want:  map[string]string{"Deployment/default/nginx": "ClusterPropagationPolicy every-nginx"},
	},
	{
		name: "narrowed: nginx's policy stops selecting it while another policy selects it, which takes it over",
		files: map[string]string{"overflow.yaml": "@overflow-onprem-cloud.yaml", "checkout.yaml": "@checkout-local-idc.yaml",
			"dc.yaml": narrowed, "fallback.yaml": fallback},
		apply: [][]string{{"apply", "-f", "{dir}/fallback.yaml"}, {"apply", "-f", "{dir}/dc.yaml"}},
		extra: [][2]string{{"propagationpolicy/default", "nginx-fallback"}},
		want:  map[string]string{"Deployment/default/nginx": "PropagationPolicy default/nginx-fallback"},
	},
	{
		name:   "re-claimed: nginx is left unclaimed when its policy is deleted; a new policy claims it and moves it",
		before: [][]string{{"delete", "propagationpolicy", "-n", "default", "nginx"}},
		files:  map[string]string{"nginx-v2.yaml": replacement},
		apply:  [][]string{{"apply", "-f", "{dir}/nginx-v2.yaml"}},
		extra:  [][2]string{{"propagationpolicy/default", "nginx-v2"}},
		want:   map[string]string{"Deployment/default/nginx": "PropagationPolicy default/nginx-v2"},
	},
	{
		name: "scaled: the repository's nginx-overflow goes from 10 to 14 replicas beside its policies",
		files: map[string]string{"dc.yaml": "@dc-groups.yaml", "overflow.yaml": "@overflow-onprem-cloud.yaml",
			"checkout.yaml": "@checkout-local-idc.yaml", "workloads.yaml": "@workloads.yaml|nginx-overflow:14"},
		apply: [][]string{{"apply", "-f", "{dir}/workloads.yaml"}},
		want:  map[string]string{"Deployment/default/nginx-overflow": "PropagationPolicy default/nginx-overflow"},
	},
}

// TestPolicyLifecycle: each change is planned against the examples on the plane, then made with kubectl;
// every example binding must end where plan said, held by the policy plan said (issue 36).
func TestPolicyLifecycle(t *testing.T) {
	ctx := context.Background()
	for _, c := range lifecycleCases {
		t.Run(c.name, func(t *testing.T) { planThenApply(t, ctx, c) })
	}
}

func planThenApply(t *testing.T, ctx context.Context, c lifecycleCase) {
	x := setUp(t, ctx)
	for _, o := range c.extra {
		o := o
		t.Cleanup(func() {
			args := []string{"delete", o[0], o[1], "--ignore-not-found"}
			if kind, ns, ok := strings.Cut(o[0], "/"); ok {
				args = []string{"delete", kind, "-n", ns, o[1], "--ignore-not-found"}
			}
			x.kubectl(t, args...)
		})
	}
	if len(c.before) > 0 {
		for _, a := range c.before {
			x.kubectl(t, a...)
		}
		// The detector has released what the commands deleted the policy of: no claim left on its binding.
		x.waitScheduled(t, ctx, func(w string, _ placement) bool {
			_, deleted := c.want[w]
			return !deleted || x.holders(t, ctx)[w] == ""
		})
	}
	// Not t.TempDir(): its path holds the subtest's name, and kubectl's -f splits a path at commas.
	dir, err := os.MkdirTemp("", "kpw-lifecycle-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for name, content := range c.files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(x.content(t, content)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"plan", "-o", "json", "--kubeconfig", x.e.Kubeconfig}
	if c.prune {
		args = append(args, "--prune")
	}
	out := x.run(t, append(args, dir)...)
	var plan planOutput
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatalf("plan -o json: %v\n%s", err, out)
	}

	before := x.bindings(t, ctx)
	holders := x.holders(t, ctx)
	predicted, predictedHolder := map[string]string{}, map[string]string{}
	for _, w := range exampleWorkloads {
		predicted[w], predictedHolder[w] = before[w].Clusters, holders[w]
	}
	for _, d := range plan.Diff {
		w := d.Workload.Kind + "/" + d.Workload.Namespace + "/" + d.Workload.Name
		if got := d.Before.clusters(); got != before[w].Clusters {
			t.Errorf("%s: plan's before is [%s], the binding is at [%s]", w, got, before[w].Clusters)
		}
		predicted[w], predictedHolder[w] = d.After.clusters(), d.After.Policy
	}
	for w, holder := range c.want {
		if predictedHolder[w] != holder {
			t.Errorf("%s: plan says %q holds it afterwards, the case expects %q\n%s", w, predictedHolder[w], holder, out)
		}
	}

	for _, a := range c.apply {
		for i := range a {
			a[i] = strings.ReplaceAll(a[i], "{dir}", dir)
		}
		x.kubectl(t, a...)
	}
	// The plane has made the change when each workload the case changes is held as the case says (not as
	// plan says: a wrong plan must fail the comparison below, not time out) and, unless released, its binding
	// has a newer generation the scheduler has observed.
	var now map[string]string
	after := x.waitScheduled(t, ctx, func(w string, p placement) bool {
		now = x.holders(t, ctx)
		holder, changed := c.want[w]
		return !changed || (now[w] == holder && (holder == "" || p.Generation > before[w].Generation))
	})
	for _, w := range exampleWorkloads {
		if now[w] != predictedHolder[w] {
			t.Errorf("%s: plan says %q holds it, Karmada's detector gave it to %q", w, predictedHolder[w], now[w])
		}
		if got := after[w].Clusters; got != predicted[w] {
			t.Errorf("%s:\n  plan:              [%s] held by %q\n  karmada-scheduler: [%s] held by %q", w, predicted[w],
				predictedHolder[w], got, now[w])
		}
		t.Logf("%s: [%s] -> [%s] held by %q (plan: [%s] held by %q)", w, before[w].Clusters, after[w].Clusters, now[w],
			predicted[w], predictedHolder[w])
	}
}

// content is a PATH file: literal YAML, "@NAME" for manifests/examples/NAME, or "@NAME|WORKLOAD:N" for
// that file with the Deployment WORKLOAD scaled to N replicas (the repository's edit).
func (x *examples) content(t *testing.T, spec string) string {
	t.Helper()
	if !strings.HasPrefix(spec, "@") {
		return spec
	}
	name, edit, _ := strings.Cut(spec[1:], "|")
	b, err := os.ReadFile(filepath.Join(x.dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if edit == "" {
		return string(b)
	}
	workload, replicas, _ := strings.Cut(edit, ":")
	docs := strings.Split(string(b), "\n---")
	for i, d := range docs {
		if strings.Contains(d, "kind: Deployment") && strings.Contains(d, "\n  name: "+workload+"\n") {
			lines := strings.Split(d, "\n")
			for j, l := range lines {
				if strings.HasPrefix(l, "  replicas: ") {
					lines[j] = "  replicas: " + replicas
				}
			}
			docs[i] = strings.Join(lines, "\n")
			return strings.Join(docs, "\n---")
		}
	}
	t.Fatalf("no Deployment %s in %s", workload, name)
	return ""
}

// holders is the policy holding each example workload's binding, as plan names it ("" for none).
func (x *examples) holders(t *testing.T, ctx context.Context) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, w := range exampleWorkloads {
		rb := x.binding(t, ctx, w)
		a, l := rb.GetAnnotations(), rb.GetLabels()
		switch {
		case l["propagationpolicy.karmada.io/permanent-id"] != "":
			out[w] = fmt.Sprintf("PropagationPolicy %s/%s", a["propagationpolicy.karmada.io/namespace"], a["propagationpolicy.karmada.io/name"])
		case l["clusterpropagationpolicy.karmada.io/permanent-id"] != "":
			out[w] = "ClusterPropagationPolicy " + a["clusterpropagationpolicy.karmada.io/name"]
		default:
			out[w] = ""
		}
	}
	return out
}
