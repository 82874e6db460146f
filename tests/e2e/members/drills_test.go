package members

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

const (
	checkoutRef     = "Deployment/" + drillNS + "/checkout"
	checkoutBinding = "checkout-deployment"
	rebalancerName  = "members-seed-drill"
)

// scenarioStep is one step of a Scenario (karmada-policy-webhook.io/v1alpha1) as the test writes it: its
// name and its action, a YAML mapping entry ("scale: {workload: ..., replicas: 8}").
type scenarioStep struct {
	name, action string
}

func scaleTo(n int) string { return fmt.Sprintf("scale: {workload: %s, replicas: %d}", checkoutRef, n) }

// seedDrill is the seeds' drill on the member plane: the policy simulate is given, the flags of the
// plane's karmada-controller-manager it is given too, and what each step predicted and did.
type seedDrill struct {
	e        e2eenv.Env
	ctx      context.Context
	dyn      dynamic.Interface
	ms       []e2eenv.Member
	dir      string
	policy   string
	settings []string
	n        int      // exports written so far
	last     exports  // the last prediction's
	report   []string // per step: simulate's prediction and karmada-scheduler's binding
}

// TestSeedDrillsBySimulate plays the seeds' drills on the member clusters, Karmada's own controllers and
// karmada-scheduler-estimator doing what they do, and has `simulate` predict every step first, from what a
// user exports from the plane right before that step: `kubectl get clusters,clustertaintpolicies`, the
// templates and the bindings from Karmada, each member's `kubectl get nodes,pods -A -o yaml` as the
// scenario's memberState. The drill, checkout-local-idc.yaml's overflow on the members' location labels:
//
//  1. checkout created with 3 replicas (the IDC, partly taken by a batch job, holds them), then scaled to 8:
//     the IDC takes what it can, the next replicas overflow to the cloud tier;
//  2. scaled down to 5: the cloud tier gives its replicas back first;
//  3. the IDC member's kube-apiserver stops: Karmada marks the Cluster NotReady, taints it (the cluster
//     controller NoSchedule, the operator's ClusterTaintPolicy NoExecute) and the taint manager fails
//     checkout over to the cloud; the API server comes back: nothing fails back;
//  4. a WorkloadRebalancer: karmada-controller-manager's workloadRebalancer controller triggers a Fresh
//     re-schedule, and the IDC tier takes its replicas back.
//
// After each step the binding karmada-scheduler wrote (spec.clusters, schedulerObservingAffinityName, the
// Scheduled condition) must equal simulate's prediction, and each scenario's step 0 (the state it was
// exported from) must equal the binding as it was. simulate keeps a scenario's member state as at its
// start (docs/estimator.md), so each step has a scenario of its own, exported when the step starts; the
// clusterUp step is the exception (the member's nodes and pods cannot be exported while its API server is
// down), predicted by the failover's scenario as its second step. One scenario of the whole drill, from the
// start, is run as well and its steps logged next to the plane's: what the stale member state changes.
func TestSeedDrillsBySimulate(t *testing.T) {
	e := e2eenv.Get(t)
	ms := e.RequireMembers(t, 2)
	if !estimators(ms) {
		t.Skip("needs karmada-scheduler-estimator per member: control-plane.sh up DIR --members 2 --estimator --failover")
	}
	if !failoverOn(t, e) {
		t.Skip("needs cluster failover on: control-plane.sh up DIR --members 2 --estimator --failover")
	}
	d := &seedDrill{e: e, ctx: context.Background(), dyn: e.Dynamic(t), ms: ms, dir: t.TempDir(),
		settings: controllerFlags(t, e)}
	ensureNodes(t, d.ctx, e, d.dyn, ms)
	idc, cloud := byLocation(t, ms, "idc"), byLocation(t, ms, "cloud")

	if out, code := e.MemberKubectl(t, idc, batchFiller, "apply", "-f", "-"); code != 0 {
		t.Fatal(out)
	}
	t.Cleanup(func() { e.MemberKubectl(t, idc, "", "delete", "namespace", "batch", "--ignore-not-found") })
	if out, code := kubectlIn(t, e, notReadyTaintPolicy, "apply", "-f", "-"); code != 0 {
		t.Fatal(out)
	}
	t.Cleanup(func() { e.KubectlRun(t, "delete", "clustertaintpolicy", "members-e2e-not-ready", "--ignore-not-found") })
	e.EnsureNamespaces(t, drillNS)
	t.Cleanup(func() {
		deleteWorkload(t, e, drillNS, "checkout")
		for _, m := range ms { // the next test's members start without checkout's pods
			e2eenv.WaitFor(t, "checkout's pods gone from "+m.Name, 2*time.Minute, func() bool {
				out, code := e.MemberKubectl(t, m, "", "get", "pods", "-n", drillNS, "-o", "name")
				return code == 0 && strings.TrimSpace(out) == ""
			})
		}
	})
	t.Cleanup(func() { e.KubectlRun(t, "delete", "workloadrebalancer", rebalancerName, "--ignore-not-found") })
	t.Cleanup(func() {
		for _, line := range d.report {
			t.Log(line)
		}
	})
	d.policy = filepath.Join(d.dir, "policy.yaml")
	if err := os.WriteFile(d.policy, []byte(checkoutPolicy), 0o644); err != nil {
		t.Fatal(err)
	}

	down := scenarioStep{idc.Name + "'s API server stops: Ready=False, tainted, checkout fails over",
		fmt.Sprintf("clusterDown: {cluster: %s, status: \"False\"}", idc.Name)}
	up := scenarioStep{idc.Name + "'s API server is back: nothing fails back", fmt.Sprintf("clusterUp: {cluster: %s}", idc.Name)}
	rebalance := scenarioStep{"a WorkloadRebalancer for checkout: it fails back", fmt.Sprintf("rebalance: {workloads: [%s]}", checkoutRef)}
	drill := []scenarioStep{
		{"traffic peak: checkout scaled to 8, the next replicas overflow to the cloud", scaleTo(8)},
		{"traffic gone: checkout scaled to 5, the cloud tier gives back first", scaleTo(5)},
		down, up, rebalance,
	}

	// Step 0: checkout created with 3 replicas (the template not applied yet: the workloads file is it).
	template := filepath.Join(d.dir, "checkout-3.yaml")
	if err := os.WriteFile(template, []byte(fmt.Sprintf(checkoutDeployment, 3)), 0o644); err != nil {
		t.Fatal(err)
	}
	settle(t, d.ctx, e, d.dyn, ms)
	whole := d.predict(t, "the whole drill from the start", template, drill...)
	for i := 1; i < len(whole.Steps); i++ { // logged next to the plane's: what a stale member state predicts
		d.report = append(d.report, fmt.Sprintf("(one scenario from the start, member state as at the start) %s: simulate %s",
			whole.Steps[i].Name, short(predicted(d.step(t, whole, i).LintScheduling))))
	}
	want := d.step(t, whole, 0)
	if err := only("idc")(predicted(want.LintScheduling)); err != nil {
		t.Fatalf("checkout created with 3 replicas: the drill's premise does not hold on these members: %v (simulate: %s)", err, predicted(want.LintScheduling))
	}
	if out, code := kubectlIn(t, e, fmt.Sprintf(checkoutDeployment, 3)+"---\n"+checkoutPolicy, "apply", "-f", "-"); code != 0 {
		t.Fatal(out)
	}
	got := scheduledBinding(t, d.ctx, d.dyn, drillNS, checkoutBinding, 3)
	d.compare(t, "checkout created with 3 replicas", want, got)
	waitPlaced(t, e, ms, got)

	// 1 and 2: scaled up past the IDC, then down.
	premises := []func(before, p placement) error{
		func(_, p placement) error { return both("idc", "cloud")(p) },
		func(before, p placement) error { return givesBackFirst(before, p, "cloud", "idc") },
	}
	for i, n := range []int{8, 5} {
		st := drill[i]
		sim := d.predictNow(t, st.name, st)
		d.checkStart(t, st.name, sim)
		want := d.step(t, sim, 1)
		if err := premises[i](got, predicted(want.LintScheduling)); err != nil {
			t.Fatalf("%s: the drill's premise does not hold on these members: %v (before: %s, simulate: %s)", st.name, err, got, predicted(want.LintScheduling))
		}
		if out, code := e.KubectlRun(t, "scale", "deployment", "checkout", "-n", drillNS, "--replicas", fmt.Sprint(n)); code != 0 {
			t.Fatal(out)
		}
		got = scheduledBinding(t, d.ctx, d.dyn, drillNS, checkoutBinding, n)
		d.compare(t, st.name, want, got)
		waitPlaced(t, e, ms, got)
	}

	// 3: the IDC member goes away and comes back; one scenario for both (the member cannot be exported
	// while it is down).
	sim := d.predictNow(t, "the IDC member fails and comes back", down, up)
	d.checkStart(t, down.name, sim)
	failedOver, back := d.step(t, sim, 1), d.step(t, sim, 2)
	if err := only("cloud")(predicted(failedOver.LintScheduling)); err != nil ||
		!slices.ContainsFunc(failedOver.Evictions, func(ev simulatedEviction) bool { return ev.Cluster == idc.Name }) {
		t.Fatalf("%s: the drill's premise (evicted from %s, all on the cloud) does not hold: %v (simulate: %s, evictions %v)",
			down.name, idc.Name, err, predicted(failedOver.LintScheduling), failedOver.Evictions)
	}
	if back.Acted || predicted(back.LintScheduling).String() != predicted(failedOver.LintScheduling).String() {
		t.Fatalf("%s: the drill's premise (no fail-back) does not hold: simulate re-schedules (%s): %s",
			up.name, back.Trigger, predicted(back.LintScheduling))
	}
	rb := d.binding(t)
	generation := rb.GetGeneration()
	restart := killMemberAPIServer(t, e, idc)
	waitClusterDown(t, d.ctx, d.dyn, idc.Name)
	rb = handledBinding(t, d.ctx, d.dyn, drillNS, checkoutBinding, "after the eviction from "+idc.Name, func(rb *unstructured.Unstructured) bool {
		return rb.GetGeneration() > generation && !strings.Contains(clustersOf(rb)+",", idc.Name+"=")
	})
	got = placementOf(rb)
	d.compare(t, down.name, failedOver, got)
	e2eenv.WaitFor(t, "the taint manager's EvictWorkloadFromClusterSucceed event for "+idc.Name+" on "+checkoutBinding, time.Minute, func() bool {
		return evicted(t, e, drillNS, checkoutBinding, idc.Name)
	})
	waitPods(t, e, cloud, drillNS, "app=checkout", int(got.Replicas[cloud.Name]))
	waitEvictionDone(t, d.ctx, d.dyn, drillNS, checkoutBinding, idc.Name)
	rb = d.binding(t)
	generation, last := rb.GetGeneration(), lastScheduled(rb)

	restart()
	waitClusterBack(t, d.ctx, d.dyn, idc.Name)
	waitEvictedCopyGone(t, e, idc, drillNS)
	// The untaint is a Cluster event karmada-scheduler handles (pkg/scheduler/event_handler.go); by the
	// time the member's copy is gone it has. simulate said it leaves the binding alone: nothing of it may
	// have changed (pkg/scheduler/scheduler.go:395-458 in v1.18.2: an untaint is none of doScheduleBinding's triggers).
	rb = d.binding(t)
	got = placementOf(rb)
	d.compare(t, up.name, back, got)
	if rb.GetGeneration() != generation || lastScheduled(rb) != last {
		t.Errorf("%s: simulate says karmada-scheduler leaves checkout alone, but the binding changed: generation %d -> %d, lastScheduledTime %s -> %s",
			up.name, generation, rb.GetGeneration(), last, lastScheduled(rb))
	}

	// 4: fail back with a WorkloadRebalancer, predicted from the plane once the member is whole again.
	ensureNodes(t, d.ctx, e, d.dyn, ms) // the restarted member's nodes untainted again
	settle(t, d.ctx, e, d.dyn, ms)
	sim = d.predictNow(t, rebalance.name, rebalance)
	before := d.last
	d.checkStart(t, rebalance.name, sim)
	want = d.step(t, sim, 1)
	if p := predicted(want.LintScheduling); onLocation(p, "idc") <= onLocation(got, "idc") {
		t.Fatalf("%s: the drill's premise (the IDC takes replicas back) does not hold: before %s, simulate %s", rebalance.name, got, p)
	}
	waitClockPast(t, lastScheduled(rb))
	recorded := scheduleResults(t, d.e, rb.GetUID())
	rebalancer := fmt.Sprintf(`apiVersion: apps.karmada.io/v1alpha1
kind: WorkloadRebalancer
metadata: {name: %s}
spec:
  workloads: [{apiVersion: apps/v1, kind: Deployment, namespace: %s, name: checkout}]
`, rebalancerName, drillNS)
	if out, code := kubectlIn(t, e, rebalancer, "create", "-f", "-"); code != 0 {
		t.Fatal(out)
	}
	rb = handledBinding(t, d.ctx, d.dyn, drillNS, checkoutBinding, "after the WorkloadRebalancer", func(rb *unstructured.Unstructured) bool {
		at, _, _ := unstructured.NestedString(rb.Object, "spec", "rescheduleTriggeredAt")
		return at != "" && !after(t, at, lastScheduled(rb)) // util.RescheduleRequired no longer holds
	})
	got = placementOf(rb)
	if got.String() != predicted(want.LintScheduling).String() {
		want = d.secondPass(t, before, rebalance, rb, recorded, want, got)
	}
	d.compare(t, rebalance.name, want, got)
	e2eenv.WaitFor(t, "the WorkloadRebalancer's result for checkout", time.Minute, func() bool {
		out, code := e.KubectlRun(t, "get", "workloadrebalancer", rebalancerName, "-o", "jsonpath={.status.observedWorkloads[*].result}")
		return code == 0 && strings.TrimSpace(out) == "Successful"
	})
	waitPlaced(t, e, ms, got)
}

// predictNow is predict from the plane as it is: Karmada's templates are the workloads.
func (d *seedDrill) predictNow(t *testing.T, name string, steps ...scenarioStep) simulation {
	t.Helper()
	settle(t, d.ctx, d.e, d.dyn, d.ms)
	return d.predict(t, name, "", steps...)
}

// exports are what a user exports from the plane for simulate, in one directory.
type exports struct {
	dir, clusters, workloads, bindings string
}

// export writes clusters and ClusterTaintPolicies, the templates (unless a workloads file is given), the
// bindings and each member's nodes and pods (DIR/members/<member>/state.yaml) into a new directory.
func (d *seedDrill) export(t *testing.T, workloads string) exports {
	t.Helper()
	d.n++
	x := exports{dir: filepath.Join(d.dir, fmt.Sprintf("scenario%d", d.n)), workloads: workloads}
	exportMembers(t, d.e, d.ms, filepath.Join(x.dir, "members"))
	x.clusters = exportKarmada(t, d.e, "clusters,clustertaintpolicies", filepath.Join(x.dir, "clusters.yaml"))
	x.bindings = exportKarmada(t, d.e, "resourcebindings", filepath.Join(x.dir, "bindings.yaml"))
	if x.workloads == "" {
		x.workloads = exportKarmada(t, d.e, "deployments", filepath.Join(x.dir, "workloads.yaml"))
	}
	return x
}

// predict exports the plane now and returns simulate's answer for a scenario of the steps over it.
func (d *seedDrill) predict(t *testing.T, name, workloads string, steps ...scenarioStep) simulation {
	t.Helper()
	d.last = d.export(t, workloads)
	return d.simulate(t, d.last, name, steps...)
}

// simulate writes a scenario of the steps whose memberState is the members' export and returns
// `simulate -o json`'s answer over the exports, run with the plane's karmada-controller-manager flags.
// The files stay in the test's directory.
func (d *seedDrill) simulate(t *testing.T, x exports, name string, steps ...scenarioStep) simulation {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: karmada-policy-webhook.io/v1alpha1\nkind: Scenario\nmetadata: {name: seed-drill-%d}\n", d.n)
	fmt.Fprintf(&b, "description: %q\nmemberState: members\nsteps:\n", name)
	for _, s := range steps {
		fmt.Fprintf(&b, "- name: %q\n  %s\n", s.name, s.action)
	}
	scenario, err := os.CreateTemp(x.dir, "scenario-*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scenario.WriteString(b.String()); err != nil {
		t.Fatal(err)
	}
	scenario.Close()
	args := append([]string{"simulate", "-o", "json", "--clusters", x.clusters, "--workloads", x.workloads,
		"--bindings", x.bindings, "--scenario", scenario.Name()}, d.settings...)
	stdout, stderr, code := e2eenv.RunSplit(t, d.e.Lint, append(args, d.policy)...)
	if code > 1 {
		t.Fatalf("simulate (%s) exited %d:\n%s%s", scenario.Name(), code, stdout, stderr)
	}
	var out simulation
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("simulate -o json (%s): %v\n%s", scenario.Name(), err, stdout)
	}
	if len(out.Steps) != len(steps)+1 {
		t.Fatalf("simulate (%s) reports %d steps for a scenario of %d (+ the start)", scenario.Name(), len(out.Steps), len(steps))
	}
	return out
}

// secondPass accounts for a race in karmada-scheduler (v1.18.2) after a WorkloadRebalancer, the one the
// scheduling package's day-two tests meet too (docs/e2e.md, "Waiting for karmada-scheduler without
// sleeping"). A Fresh pass patches the binding's spec (pkg/scheduler/scheduler.go:676,
// patchScheduleResultForResourceBinding :683-700: a new generation, which the update handler queues
// again, event_handler.go:203-215) before its status (lastScheduledTime: patchBindingStatusCondition
// :1005-1021, deferred in scheduleResourceBinding :571-580). When the worker pops the binding before the
// informer has that status, spec.rescheduleTriggeredAt is still after the stale lastScheduledTime (:435)
// and a second Fresh pass runs on the first one's placement, whose replicas it counts as available again
// (core/spreadconstraint/group_clusters.go:369-371: available = estimate + assigned).
//
// So a binding that is not simulate's one-pass prediction must be exactly simulate's prediction for that
// second pass: the same exports (the members do not run the first pass's replicas yet), the binding with
// the first pass's spec.clusters and the live spec.rescheduleTriggeredAt, its status as exported (the
// stale lastScheduledTime); and since the rebalancer (recorded: the results counted before it) the
// binding's ScheduleBindingSucceed events must add exactly the first pass's result and the second's, one
// each (the binding ends on the second). It returns what the binding is to be compared with.
func (d *seedDrill) secondPass(t *testing.T, x exports, st scenarioStep, live *unstructured.Unstructured,
	recorded map[string]int64, first simulated, got placement) simulated {
	t.Helper()
	at, _, _ := unstructured.NestedString(live.Object, "spec", "rescheduleTriggeredAt")
	b, err := os.ReadFile(x.bindings)
	if err != nil {
		t.Fatal(err)
	}
	var list map[string]any
	if err := yaml.Unmarshal(b, &list); err != nil {
		t.Fatalf("%s: %v", x.bindings, err)
	}
	items, _ := list["items"].([]any)
	edited := false
	for _, item := range items {
		rb := &unstructured.Unstructured{Object: item.(map[string]any)}
		if rb.GetNamespace() != drillNS || rb.GetName() != checkoutBinding {
			continue
		}
		var clusters []any
		for _, c := range first.Clusters {
			clusters = append(clusters, map[string]any{"name": c.Name, "replicas": c.Replicas})
		}
		_ = unstructured.SetNestedSlice(rb.Object, clusters, "spec", "clusters")
		_ = unstructured.SetNestedField(rb.Object, at, "spec", "rescheduleTriggeredAt")
		edited = true
	}
	if !edited {
		t.Fatalf("%s has no binding %s/%s", x.bindings, drillNS, checkoutBinding)
	}
	out, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	x.bindings += ".second-pass.json"
	if err := os.WriteFile(x.bindings, out, 0o644); err != nil {
		t.Fatal(err)
	}
	second := d.step(t, d.simulate(t, x, "the rebalance's second pass", st), 0)
	if predicted(second.LintScheduling).String() != got.String() {
		return first // neither one pass nor two: compare reports it against the one-pass prediction
	}
	one, two := clusterList(predicted(first.LintScheduling)), clusterList(got)
	var added map[string]int64
	// The events are recorded asynchronously: wait until both passes are there.
	e2eenv.WaitFor(t, fmt.Sprintf("checkout's events to show the first pass [%s] and the second [%s]", one, two), 30*time.Second, func() bool {
		added = map[string]int64{}
		for r, n := range scheduleResults(t, d.e, live.GetUID()) {
			if n != recorded[r] {
				added[r] = n - recorded[r]
			}
		}
		return len(added) == 2 && added[one] == 1 && added[two] == 1
	})
	t.Logf("%s: karmada-scheduler re-scheduled twice (the rebalancer's trigger still after a stale lastScheduledTime): [%s], then [%s], each as simulate predicts",
		st.name, one, two)
	d.report = append(d.report, fmt.Sprintf("%s: simulate's one pass [%s], then its second pass on that placement [%s]", st.name, one, two))
	return second
}

// scheduleResults counts the placements of the binding's ScheduleBindingSucceed events ("Binding has been
// scheduled successfully. Result: {idc-1:4, cloud-1:1}"), as "name=replicas" lists. The event recorder
// folds an event equal to an earlier one of the same object into it (count, lastTimestamp at one-second
// precision), so counts, not order, say what happened since a point.
func scheduleResults(t *testing.T, e e2eenv.Env, uid types.UID) map[string]int64 {
	t.Helper()
	out, code := e.KubectlRun(t, "get", "events", "-n", drillNS, "--field-selector",
		"involvedObject.kind=ResourceBinding,involvedObject.name="+checkoutBinding+",involvedObject.uid="+string(uid)+
			",reason=ScheduleBindingSucceed", "-o", "json")
	if code != 0 {
		t.Fatalf("kubectl get events: %s", out)
	}
	var list struct {
		Items []struct {
			Count   int64  `json:"count"`
			Message string `json:"message"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	results := map[string]int64{}
	for _, ev := range list.Items {
		if result, ok := e2eenv.ScheduleResult(ev.Message); ok {
			results[result] += max(ev.Count, 1)
		}
	}
	return results
}

// clusterList is a placement's clusters as "name=replicas", sorted.
func clusterList(p placement) string {
	var cs []string
	for c, n := range p.Replicas {
		cs = append(cs, fmt.Sprintf("%s=%d", c, n))
	}
	sort.Strings(cs)
	return strings.Join(cs, ",")
}

// step is checkout's outcome at step i of a simulation.
func (d *seedDrill) step(t *testing.T, sim simulation, i int) simulated {
	t.Helper()
	for _, w := range sim.Steps[i].Workloads {
		if w.Key() == checkoutRef {
			return w
		}
	}
	t.Fatalf("simulate's step %d (%s) says nothing of %s", i, sim.Steps[i].Name, checkoutRef)
	return simulated{}
}

// checkStart: the scenario starts from the binding as Karmada has it (its step 0 neither re-schedules nor
// moves anything).
func (d *seedDrill) checkStart(t *testing.T, name string, sim simulation) {
	t.Helper()
	w := d.step(t, sim, 0)
	if got := placementOf(d.binding(t)); w.Acted || predicted(w.LintScheduling).String() != got.String() {
		t.Errorf("%s: the scenario's start is not the plane's binding:\n  simulate step 0 (acted=%v %s): %s\n  karmada-scheduler:                %s",
			name, w.Acted, w.Trigger, predicted(w.LintScheduling), got)
	}
}

// compare: the binding karmada-scheduler wrote is exactly simulate's prediction.
func (d *seedDrill) compare(t *testing.T, name string, want simulated, got placement) {
	t.Helper()
	p := predicted(want.LintScheduling)
	d.report = append(d.report, fmt.Sprintf("%s: simulate %s; karmada-scheduler %s", name, short(p), short(got)))
	if p.String() != got.String() {
		t.Errorf("%s:\n  simulate:          %s\n  karmada-scheduler: %s", name, p, got)
	}
}

func (d *seedDrill) binding(t *testing.T) *unstructured.Unstructured {
	t.Helper()
	rb, err := d.dyn.Resource(bindingsGVR).Namespace(drillNS).Get(d.ctx, checkoutBinding, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return rb
}

// short is a placement's clusters, group and condition reason.
func short(p placement) string {
	return fmt.Sprintf("[%s] in %s (%s)", clusterList(p), p.AffinityName, p.Reason)
}

// onLocation is the replicas a placement gives the members of a location.
func onLocation(p placement, loc string) int64 {
	var n int64
	for c, r := range p.Replicas {
		if strings.HasPrefix(c, loc+"-") {
			n += r
		}
	}
	return n
}

// givesBackFirst: on a scale down, the tier `first` gives replicas back while `kept` keeps all of its own.
func givesBackFirst(before, p placement, first, kept string) error {
	if onLocation(p, kept) != onLocation(before, kept) || onLocation(p, first) >= onLocation(before, first) {
		return fmt.Errorf("expected the %s members to give replicas back and the %s members to keep theirs", first, kept)
	}
	return nil
}

// controllerFlags are the flags of the plane's karmada-controller-manager that simulate takes too, as the
// plane runs them: the drill is predicted with the controllers' settings it runs with.
func controllerFlags(t *testing.T, e e2eenv.Env) []string {
	t.Helper()
	valued := []string{"--feature-gates", "--no-execute-taint-eviction-purge-mode", "--graceful-eviction-timeout"}
	boolean := []string{"--enable-no-execute-taint-eviction", "--enable-taint-manager"}
	for _, c := range e.Components(t) {
		if c.Name != "karmada-controller-manager" {
			continue
		}
		var out []string
		for i := 0; i < len(c.Args); i++ {
			name, value, hasValue := strings.Cut(c.Args[i], "=")
			switch {
			case slices.Contains(boolean, name):
				out = append(out, c.Args[i])
			case slices.Contains(valued, name) && hasValue:
				out = append(out, name, value)
			case slices.Contains(valued, name) && i+1 < len(c.Args):
				out = append(out, name, c.Args[i+1])
				i++
			}
		}
		return out
	}
	t.Fatal("no karmada-controller-manager in the plane's components.json")
	return nil
}

func lastScheduled(rb *unstructured.Unstructured) string {
	s, _, _ := unstructured.NestedString(rb.Object, "status", "lastScheduledTime")
	return s
}

// after says whether RFC3339 time a is after b (b "" is the zero time).
func after(t *testing.T, a, b string) bool {
	t.Helper()
	ta, err := time.Parse(time.RFC3339, a)
	if err != nil {
		t.Fatalf("time %q: %v", a, err)
	}
	if b == "" {
		return true
	}
	tb, err := time.Parse(time.RFC3339, b)
	if err != nil {
		t.Fatalf("time %q: %v", b, err)
	}
	return ta.After(tb)
}

// waitClockPast waits until the wall clock's second is after an RFC3339 time: the workloadRebalancer
// controller's trigger is the rebalancer's creation time, and Karmada re-schedules Fresh only if it is
// strictly after status.lastScheduledTime, both at one-second precision.
func waitClockPast(t *testing.T, when string) {
	t.Helper()
	e2eenv.WaitFor(t, "the clock to pass "+when, 5*time.Second, func() bool {
		return after(t, time.Now().UTC().Truncate(time.Second).Format(time.RFC3339), when)
	})
}

// simulation is the part of `karmada-policy-webhook simulate -o json` the e2e tests compare with what
// Karmada did: per step (steps[0] is the initial placement, then one per scenario step), each workload's
// binding as the step leaves it (webhook/simulate/render_json.cpp).
type simulation struct {
	Steps []simulatedStep `json:"steps"`
}

// simulatedStep is one step of a drill.
type simulatedStep struct {
	Name      string      `json:"name"`
	Events    []string    `json:"events"`
	Workloads []simulated `json:"workloads"`
	Warnings  []struct {
		ID, Workload, Message string
	} `json:"warnings"`
}

// simulated is one workload's binding after a step: the fields lint's scheduling entry has
// (simulate's condition has no status: Scheduled says it), whether karmada-scheduler ran for it in the
// step, and the old copies graceful eviction keeps.
type simulated struct {
	e2eenv.LintScheduling
	Acted     bool                `json:"acted"`
	Trigger   string              `json:"trigger"`
	Evictions []simulatedEviction `json:"evictions"`
}

// simulatedEviction is an old copy graceful eviction keeps on the cluster a workload was evicted from.
type simulatedEviction struct {
	Cluster   string `json:"cluster"`
	Replicas  int64  `json:"replicas"`
	PurgeMode string `json:"purgeMode"`
}

// Key is the workload as "Kind/namespace/name".
func (w simulated) Key() string {
	return w.Workload.Kind + "/" + w.Workload.Namespace + "/" + w.Workload.Name
}
