package generate

import (
	"math/rand/v2"
	"strings"
)

// specExtras adds, to a fifth of the policies, the spec fields beside the placement that reach the
// binding the detector writes (BuildResourceBinding, detector.go): schedulerName (another scheduler's
// name keeps karmada-scheduler away from the binding: event_handler.go schedulerNameFilter), propagateDeps,
// failover, activationPreference (Lazy: a policy change reaches existing bindings only at the template's next
// change), suspension, conflictResolution and preserveResourcesOnDeletion. Drawn from the side stream, so a
// seed's other bytes stay those it gave before (issue 36: "their scheduling effect with a snapshot").
func (g *gen) specExtras(spec *Node) {
	r := g.side
	if r == nil {
		r = g.r
	}
	if r.Float64() >= 0.2 {
		return
	}
	choose := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	if r.Float64() < 0.4 {
		setPair(spec, "schedulerName", Str(choose("default-scheduler", "", "other-scheduler", "other-scheduler")))
	}
	if r.Float64() < 0.3 {
		setPair(spec, "propagateDeps", Raw(choose("true", "false")))
	}
	if r.Float64() < 0.3 {
		setPair(spec, "failover", failoverOf(r))
	}
	if r.Float64() < 0.4 {
		setPair(spec, "activationPreference", Str("Lazy"))
	}
	if r.Float64() < 0.3 {
		if r.Float64() < 0.5 {
			setPair(spec, "suspension", M("dispatching", true))
		} else if len(g.clusters) > 0 {
			setPair(spec, "suspension", M("dispatchingOnClusters", M("clusterNames", L(g.clusters[r.IntN(len(g.clusters))].name))))
		}
	}
	if r.Float64() < 0.2 {
		setPair(spec, "conflictResolution", Str(choose("Abort", "Overwrite")))
	}
	if r.Float64() < 0.2 {
		setPair(spec, "preserveResourcesOnDeletion", Raw(choose("true", "false")))
	}
	if r.Float64() < 0.2 { // read with PriorityBasedScheduling only; -low is never written (priorityClasses)
		setPair(spec, "schedulePriority", M("priorityClassSource", "KubePriorityClass",
			"priorityClassName", g.prefix()+choose("-high", "-low")))
	}
}

// prefix names the cluster-scoped objects of this case: its sub-case (sJ) in a pack, whose sub-cases share
// one cluster-wide name space, else "c".
func (g *gen) prefix() string {
	if g.namespaces != nil {
		return strings.TrimSuffix(g.namespaces[0], "-a")
	}
	return "c"
}

// clusterScoped are the cluster-scoped templates of a tenth of the cases, from the side stream: a
// PriorityClass PREFIX-high (what a schedulePriority names, PREFIX-low never exists), and now and then a
// ClusterRole and a Namespace with a ClusterPropagationPolicy PREFIX-cluster-objects that selects them by
// name (their bindings are ClusterResourceBindings; a name of the sub-case's own keeps packs apart).
func (g *gen) clusterScoped() (templates []*Node, policy *Node) {
	r := g.side
	if r == nil {
		r = g.r
	}
	if r.Float64() >= 0.1 {
		return nil, nil
	}
	p := g.prefix()
	templates = append(templates, M("apiVersion", "scheduling.k8s.io/v1", "kind", "PriorityClass",
		"metadata", M("name", p+"-high"), "value", 1000))
	if r.Float64() < 0.5 {
		return templates, nil
	}
	role := M("apiVersion", "rbac.authorization.k8s.io/v1", "kind", "ClusterRole", "metadata", M("name", p+"-reader"),
		"rules", L(M("apiGroups", L(""), "resources", L("pods"), "verbs", L("get"))))
	ns := M("apiVersion", "v1", "kind", "Namespace", "metadata", M("name", p+"-extra"))
	if r.Float64() < 0.3 { // a namespace in the manifest, which the API server does not keep
		setPair(lookup(role, "metadata"), "namespace", Str(g.namespaceList()[0]))
	}
	templates = append(templates, role, ns)
	selectors := L(M("apiVersion", "rbac.authorization.k8s.io/v1", "kind", "ClusterRole", "name", p+"-reader"),
		M("apiVersion", "v1", "kind", "Namespace", "name", p+"-extra"))
	placement := M("clusterAffinity", M("clusterNames", L(anys(g.someClusterNames(r))...)))
	policy = M("apiVersion", "policy.karmada.io/v1alpha1", "kind", "ClusterPropagationPolicy",
		"metadata", M("name", p+"-cluster-objects"), "spec", M("resourceSelectors", selectors, "placement", placement))
	return templates, policy
}

// someClusterNames are 1-3 of the case's clusters.
func (g *gen) someClusterNames(r *rand.Rand) []*Node {
	var names []*Node
	for _, c := range g.clusters {
		if r.Float64() < 0.5 || len(names) == 0 && c == g.clusters[len(g.clusters)-1] {
			names = append(names, Str(c.name))
		}
	}
	return names
}

// failoverOf is an application and/or cluster failover behaviour, with the purge modes Karmada admits (and
// Gracefully without gracePeriodSeconds now and then, which the webhook defaults or denies).
func failoverOf(r *rand.Rand) *Node {
	f := M()
	if r.Float64() < 0.7 {
		mode := []string{"Gracefully", "Directly", "Never"}[r.IntN(3)]
		app := M("decisionConditions", M("tolerationSeconds", 30+r.IntN(300)), "purgeMode", mode)
		if mode == "Gracefully" && r.Float64() < 0.8 {
			setPair(app, "gracePeriodSeconds", Raw(itoa(60+r.IntN(600))))
		}
		setPair(f, "application", app)
	}
	if r.Float64() < 0.5 || len(f.Pairs) == 0 {
		setPair(f, "cluster", M("purgeMode", []string{"Gracefully", "Directly"}[r.IntN(2)]))
	}
	return f
}
