package live

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// lifecycleCase is one change a user makes to the examples: PATH as `plan` reads it, then the kubectl
// commands that make the change on the plane (kubectl apply, then the deletion --prune would do).
type lifecycleCase struct {
	name    string
	gates   string            // karmada-controller-manager runs with --feature-gates GATES for the case; plan is told so
	setup   map[string]string // files `before` applies ("{setup}/NAME" in its arguments), not part of PATH
	before  []stage           // run before plan, one stage after the other
	files   map[string]string // PATH: file name -> content; "@NAME" copies manifests/examples/NAME
	prune   bool
	apply   [][]string        // kubectl arguments; "{dir}" is PATH
	extra   [][2]string       // objects the case creates, deleted afterwards: {kind, name} (kind with -n ns as "pp/ns")
	want    map[string]string // workload -> the holder plan must predict ("" released), for the ones it changes
	kept    []string          // workloads whose holder the change must leave as it is
	barrier [2]string         // {Deployment, holder}: see passBarrier
}

// stage is part of the state a case starts from: kubectl commands, then the holders they leave (each
// binding scheduled and held so before plan reads the plane).
type stage struct {
	kubectl [][]string
	held    map[string]string // workload -> holder ("" released)
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
	// nginx-first outranks nginx's policy and would take what that holds, if the detector preempts; it
	// also selects the barrier Deployment, which no policy holds.
	first = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nginx-first, namespace: default}
spec:
  priority: 10
  preemption: Always
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: nginx}
    - {apiVersion: apps/v1, kind: Deployment, name: lifecycle-barrier}
  placement:
    clusterAffinity: {clusterNames: [member2]}
`
	// nginx's own policy, now Lazy with another placement (member2; the examples put nginx on member1), and
	// selecting the barrier Deployment too.
	lazyNginx = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nginx, namespace: default}
spec:
  activationPreference: Lazy
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: nginx}
    - {apiVersion: apps/v1, kind: Deployment, name: lifecycle-barrier}
  placement:
    clusterAffinity: {clusterNames: [member2]}
`
	// nginx-by-app holds nginx by its label; nginx-by-app-v2 selects the label nginx is then given
	// (kubectl create deployment nginx-v2, the barrier, carries it too).
	byApp = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nginx-by-app, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, labelSelector: {matchLabels: {app: nginx}}}]
  placement:
    clusterAffinity: {clusterNames: [member2]}
`
	byAppV2 = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nginx-by-app-v2, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, labelSelector: {matchLabels: {app: nginx-v2}}}]
  placement:
    clusterAffinity: {clusterNames: [member1]}
`
)

// The holders the cases name.
const (
	nginx         = "Deployment/default/nginx"
	byAppHolder   = "PropagationPolicy default/nginx-by-app"
	byAppV2Holder = "PropagationPolicy default/nginx-by-app-v2"
)

// heldByApp: nginx's own policy deleted, nginx-by-app holds nginx by its label.
var heldByApp = stage{
	kubectl: [][]string{{"delete", "propagationpolicy", "-n", "default", "nginx"}, {"apply", "-f", "{setup}/by-app.yaml"}},
	held:    map[string]string{nginx: byAppHolder},
}

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
		before: []stage{{kubectl: [][]string{{"delete", "propagationpolicy", "-n", "default", "nginx"}}, held: map[string]string{nginx: ""}}},
		files:  map[string]string{"nginx-v2.yaml": replacement},
		apply:  [][]string{{"apply", "-f", "{dir}/nginx-v2.yaml"}},
		extra:  [][2]string{{"propagationpolicy/default", "nginx-v2"}},
		want:   map[string]string{nginx: "PropagationPolicy default/nginx-v2"},
	},
	{
		name: "scaled: the repository's nginx-overflow goes from 10 to 14 replicas beside its policies",
		files: map[string]string{"dc.yaml": "@dc-groups.yaml", "overflow.yaml": "@overflow-onprem-cloud.yaml",
			"checkout.yaml": "@checkout-local-idc.yaml", "workloads.yaml": "@workloads.yaml|nginx-overflow:14"},
		apply: [][]string{{"apply", "-f", "{dir}/workloads.yaml"}},
		want:  map[string]string{"Deployment/default/nginx-overflow": "PropagationPolicy default/nginx-overflow"},
	},
	{
		name:    "priority without the preemption gate: a policy of higher priority leaves nginx with its holder",
		files:   map[string]string{"first.yaml": first},
		apply:   [][]string{{"apply", "-f", "{dir}/first.yaml"}},
		extra:   [][2]string{{"propagationpolicy/default", "nginx-first"}},
		kept:    []string{nginx},
		barrier: [2]string{"lifecycle-barrier", "PropagationPolicy default/nginx-first"},
	},
	{
		name:  "priority with the preemption gate: a policy of higher priority with preemption Always takes nginx and moves it",
		gates: "PropagationPolicyPreemption=true",
		files: map[string]string{"first.yaml": first},
		apply: [][]string{{"apply", "-f", "{dir}/first.yaml"}},
		extra: [][2]string{{"propagationpolicy/default", "nginx-first"}},
		want:  map[string]string{nginx: "PropagationPolicy default/nginx-first"},
	},
	{
		// The policy's reconcile queues nginx with ResourceChangeByKarmada, so ApplyPolicy skips its binding;
		// the barrier, a new template, is queued without and gets its binding from the new version.
		name:    "Lazy: nginx's policy moves to member2 with activationPreference Lazy; nginx stays until its template changes",
		files:   map[string]string{"dc.yaml": lazyNginx},
		apply:   [][]string{{"apply", "-f", "{dir}/dc.yaml"}},
		kept:    []string{nginx},
		barrier: [2]string{"lifecycle-barrier", "PropagationPolicy default/nginx"},
	},
	{
		name:    "relabelled: nginx's label no longer matches its holder, which keeps it while unchanged",
		setup:   map[string]string{"by-app.yaml": byApp},
		before:  []stage{heldByApp},
		files:   map[string]string{"v2.yaml": byAppV2, "workloads.yaml": "@workloads.yaml|nginx:app=nginx-v2"},
		apply:   [][]string{{"apply", "-f", "{dir}/v2.yaml"}, {"apply", "-f", "{dir}/workloads.yaml"}},
		extra:   [][2]string{{"propagationpolicy/default", "nginx-by-app"}, {"propagationpolicy/default", "nginx-by-app-v2"}},
		kept:    []string{nginx},
		barrier: [2]string{"nginx-v2", byAppV2Holder},
	},
	{
		name:  "relabelled, then its holder changed: the holder releases nginx and the policy matching its label takes it",
		setup: map[string]string{"by-app.yaml": byApp, "v2.yaml": byAppV2},
		before: []stage{heldByApp, {
			kubectl: [][]string{{"apply", "-f", "{setup}/v2.yaml"}, {"label", "deployment", "-n", "default", "nginx", "app=nginx-v2", "--overwrite"}},
			held:    map[string]string{nginx: byAppHolder},
		}},
		files: map[string]string{"by-app.yaml": strings.Replace(byApp, "[member2]", "[member1, member2]", 1)},
		apply: [][]string{{"apply", "-f", "{dir}/by-app.yaml"}},
		extra: [][2]string{{"propagationpolicy/default", "nginx-by-app"}, {"propagationpolicy/default", "nginx-by-app-v2"}},
		want:  map[string]string{nginx: byAppV2Holder},
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
	if c.gates != "" {
		e2eenv.WithControllerManager(t, x.e, func(args []string) []string {
			return append(args, "--feature-gates", c.gates)
		})
	}
	// Not t.TempDir(): its path holds the subtest's name, and kubectl's -f splits a path at commas.
	dir, setup := tempDir(t), tempDir(t)
	for d, files := range map[string]map[string]string{dir: c.files, setup: c.setup} {
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(d, name), []byte(x.content(t, content)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, s := range c.before {
		for _, a := range s.kubectl {
			x.kubectl(t, substitute(a, "{setup}", setup)...)
		}
		x.waitScheduled(t, ctx, func(w string, p placement) bool {
			holder, ok := s.held[w]
			return !ok || p.Holder == holder
		})
	}
	args := []string{"plan", "-o", "json", "--kubeconfig", x.e.Kubeconfig}
	if c.prune {
		args = append(args, "--prune")
	}
	if c.gates != "" {
		args = append(args, "--feature-gates", c.gates)
	}
	out := x.run(t, append(args, dir)...)
	var plan planOutput
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatalf("plan -o json: %v\n%s", err, out)
	}

	before := x.bindings(t, ctx)
	predicted, predictedHolder := map[string]string{}, map[string]string{}
	for _, w := range exampleWorkloads {
		predicted[w], predictedHolder[w] = before[w].Clusters, before[w].Holder
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
	for _, w := range c.kept {
		if predictedHolder[w] != before[w].Holder {
			t.Errorf("%s: plan says %q holds it afterwards, the case expects it to stay with %q\n%s", w, predictedHolder[w], before[w].Holder, out)
		}
	}

	for _, a := range c.apply {
		x.kubectl(t, substitute(a, "{dir}", dir)...)
	}
	if c.barrier[0] != "" {
		x.passBarrier(t, ctx, c.barrier[0], c.barrier[1])
	}
	// The plane has made the change when each workload the case changes is held as the case says (not as
	// plan says: a wrong plan must fail the comparison below, not time out) and, unless released, its binding
	// has a newer generation the scheduler has observed, and the scheduler has scheduled its new placement
	// (with a controller-manager restarted for the case, an earlier write may already have raised the
	// generation: measured once under load, the preemption case compared before the scheduler had acted).
	// The holder comes from the same object as the placement: read apart, a claim
	// the detector had just written passed for a binding whose placement the scheduler had not yet seen.
	after := x.waitScheduled(t, ctx, func(w string, p placement) bool {
		holder, changed := c.want[w]
		return !changed || (p.Holder == holder && (holder == "" || p.Generation > before[w].Generation && p.PlacementApplied))
	})
	for _, w := range exampleWorkloads {
		now := after[w].Holder
		if now != predictedHolder[w] {
			t.Errorf("%s: plan says %q holds it, Karmada's detector gave it to %q", w, predictedHolder[w], now)
		}
		if got := after[w].Clusters; got != predicted[w] {
			t.Errorf("%s:\n  plan:              [%s] held by %q\n  karmada-scheduler: [%s] held by %q", w, predicted[w],
				predictedHolder[w], got, now)
		}
		t.Logf("%s: [%s] -> [%s] held by %q (plan: [%s] held by %q)", w, before[w].Clusters, after[w].Clusters, now,
			predicted[w], predictedHolder[w])
	}
}

// passBarrier is how a case that moves nothing knows the detector has seen its change: it creates a
// Deployment that only the case's new policy selects and waits until that policy holds it and
// karmada-scheduler has scheduled it. The detector handles a policy's creation and the templates it
// selects through the same informers and queue, so by then it has also handled the example templates
// the policy selects (and, for a relabelled one, its update); a wrong prediction of "nothing moves"
// shows as a holder or binding that changed before the comparison.
func (x *examples) passBarrier(t *testing.T, ctx context.Context, name, holder string) {
	t.Helper()
	binding := name + "-deployment"
	t.Cleanup(func() {
		x.kubectl(t, "delete", "deployment", "-n", "default", name, "--ignore-not-found")
		// No garbage collector runs on the plane: the binding goes by hand (as tearDown's do).
		err := x.dyn.Resource(bindingsGVR).Namespace("default").Delete(context.Background(), binding, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting ResourceBinding default/%s: %v", binding, err)
		}
	})
	x.kubectl(t, "create", "deployment", name, "-n", "default", "--image", "nginx:1.27")
	e2eenv.WaitFor(t, "the barrier Deployment "+name+" to be held by "+holder+" and scheduled", 2*time.Minute, func() bool {
		rb, err := x.dyn.Resource(bindingsGVR).Namespace("default").Get(ctx, binding, metav1.GetOptions{})
		if err != nil {
			return false
		}
		observed, _, _ := unstructured.NestedInt64(rb.Object, "status", "schedulerObservedGeneration")
		return holderOf(rb) == holder && observed >= rb.GetGeneration() && clusterList(rb) != ""
	})
}

// substitute is args with every "{NAME}" (placeholder) replaced by value.
func substitute(args []string, placeholder, value string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(a, placeholder, value)
	}
	return out
}

func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "kpw-lifecycle-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// content is a PATH file: literal YAML, "@NAME" for manifests/examples/NAME, "@NAME|WORKLOAD:N" for that
// file with the Deployment WORKLOAD scaled to N replicas (the repository's edit), or
// "@NAME|WORKLOAD:KEY=VALUE" with the Deployment's own label KEY set to VALUE (a relabelled template).
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
	workload, change, _ := strings.Cut(edit, ":")
	prefix, line := "  replicas: ", "  replicas: "+change // the Deployment's spec.replicas
	if key, value, ok := strings.Cut(change, "="); ok {
		prefix, line = "    "+key+": ", "    "+key+": "+value // metadata.labels[KEY], before the pod template's
	}
	docs := strings.Split(string(b), "\n---")
	for i, d := range docs {
		if strings.Contains(d, "kind: Deployment") && strings.Contains(d, "\n  name: "+workload+"\n") {
			lines := strings.Split(d, "\n")
			for j, l := range lines {
				if strings.HasPrefix(l, prefix) {
					lines[j] = line
					break
				}
			}
			docs[i] = strings.Join(lines, "\n")
			return strings.Join(docs, "\n---")
		}
	}
	t.Fatalf("no Deployment %s in %s", workload, name)
	return ""
}

// holderOf is the policy a binding's claim names, as plan names it ("" for none).
func holderOf(rb *unstructured.Unstructured) string {
	a, l := rb.GetAnnotations(), rb.GetLabels()
	switch {
	case l["propagationpolicy.karmada.io/permanent-id"] != "":
		return fmt.Sprintf("PropagationPolicy %s/%s", a["propagationpolicy.karmada.io/namespace"], a["propagationpolicy.karmada.io/name"])
	case l["clusterpropagationpolicy.karmada.io/permanent-id"] != "":
		return "ClusterPropagationPolicy " + a["clusterpropagationpolicy.karmada.io/name"]
	}
	return ""
}
