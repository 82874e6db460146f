package generate

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// binding is today's ResourceBinding of a workload the policy claims (lint --bindings): its previous
// placement and result, Steady or Fresh, with the affinity group it was observed in.
func (g *gen) binding(w workload, policy *Node, policyIndex int) *Node {
	placement := lookup(policy, "spec", "placement")
	if placement == nil {
		return nil
	}
	applied := cloneNode(placement)
	if g.chance(0.3) { // the policy changed since: the annotation holds an older placement
		applied = g.placement(w)
	}
	replicas := g.between(0, 12)
	clusters := L()
	left := replicas
	for _, c := range g.clusters {
		if !g.chance(0.4) {
			continue
		}
		n := g.between(0, left)
		left -= n
		clusters.Items = append(clusters.Items, M("name", c.name, "replicas", n))
	}
	generation := g.between(1, 9)
	observed := generation
	if g.chance(0.3) { // Fresh: the scheduler has not seen the latest generation
		observed = generation - 1
	}
	ns, policyNS := any(w.namespace), any(w.namespace)
	kind, claim := "ResourceBinding", "propagationpolicy.karmada.io/"
	if k := lookup(policy, "kind"); k != nil && k.Raw == "ClusterPropagationPolicy" {
		claim, policyNS = "clusterpropagationpolicy.karmada.io/", nil
		// A ClusterResourceBinding only for a cluster-scoped template (BuildClusterResourceBinding): these
		// workloads are namespaced. Until session 27 a tenth were written as ClusterResourceBindings, which no
		// Karmada writes for them, and seed 2707's plain case 275 (a CRB beside the template's own
		// ResourceBinding) compared lint and the oracle where neither answer means anything. The draw stays,
		// so a seed's other bytes are what they were.
		_ = !g.packed && g.chance(0.3)
	}
	status := M("conditions", L(M("type", "Scheduled", "status", Raw(`"True"`), "reason", "Success",
		"message", "Binding has been scheduled successfully.")),
		"lastScheduledTime", Raw(`"2026-11-20T08:00:00Z"`), "schedulerObservedGeneration", observed,
		"schedulerObservingAffinityName", g.maybe(0.5, pick(g, []string{"group-0", "group-1", "group-1-burst-0", "gone"})))
	// Sometimes the workload was deleted and created again before the garbage collector removed this
	// binding: its controller owner has another uid, the detector may not update it, and the scheduler
	// reads the placement it carries as written (no webhook defaults: a constraint without a field,
	// minGroups 0).
	var owners *Node
	if g.chance(0.15) {
		owners = L(M("apiVersion", w.apiVersion, "kind", w.kind, "name", w.name,
			"uid", fmt.Sprintf("99999999-0000-4000-8000-%012d", g.r.IntN(1000000)), "controller", true,
			"blockOwnerDeletion", true))
		if g.chance(0.3) {
			applied = g.unwebhooked(applied)
		}
	}
	// Sometimes the binding names no policy: written by another tool, or left after its policy was deleted
	// (the detector releases a claim whose policy is gone). The policy that claims the template now takes
	// it over (detector.go ApplyPolicy); until then karmada-scheduler ignores it.
	claimAnnotations := []any{claim + "name", plain(lookup(policy, "metadata", "name")), claim + "namespace", policyNS}
	claimLabels := M(claim+"permanent-id", fmt.Sprintf("3f0c1a2b-0000-4000-8000-%012d", g.idBase+policyIndex))
	if g.chance(0.1) {
		claimAnnotations, claimLabels = nil, nil
	}
	triggered := g.rescheduleTriggeredAt()
	recorded := g.recordedName(w)
	// Marshalled once the placement is final (it draws nothing, so the seeded stream is unchanged).
	annotation, err := json.Marshal(plain(applied))
	if err != nil {
		return nil
	}
	return M("apiVersion", "work.karmada.io/v1alpha2", "kind", kind,
		"metadata", M("name", w.name+"-"+strings.ToLower(w.kind), "namespace", ns, "generation", generation,
			"annotations", M(append([]any{"policy.karmada.io/applied-placement", string(annotation)}, claimAnnotations...)...),
			"labels", claimLabels,
			"ownerReferences", owners),
		"spec", M("clusters", clusters, "placement", applied, "replicas", replicas, "rescheduleTriggeredAt", triggered,
			"resource", M("apiVersion", w.apiVersion, "kind", w.kind, "name", recorded, "namespace", w.namespace,
				"resourceVersion", Raw(`"5120"`)), "schedulerName", "default-scheduler"),
		"status", status)
}

// recordedName is the template the binding's spec.resource names: w's own, or now and then (session 30) another
// object's while the binding keeps w's name (GenerateBindingName), so the detector still finds it by name for
// w; w then has no claim recorded anywhere and its ranked winner, not the binding's claim keys, writes the
// binding (case binding-named-after-template-records-another). From the side stream.
func (g *gen) recordedName(w workload) string {
	r := g.side
	if r == nil {
		r = g.r
	}
	if r.Float64() >= 0.04 {
		return w.name
	}
	if r.Float64() < 0.5 && len(g.workloads) > 1 {
		return g.workloads[r.IntN(len(g.workloads))].name
	}
	return w.name + "-canary"
}

// rescheduleTriggeredAt is the binding's spec.rescheduleTriggeredAt, what a WorkloadRebalancer writes,
// against the status's lastScheduledTime 2026-11-20T08:00:00Z: after it (RescheduleRequired: a Fresh
// division, and the clusterAffinities walk still starting at the observed group), one second after
// (the comparison is strict at one-second precision), equal or before it (no trigger), or none (nil).
// From the side stream: a seed's other bytes are those it gave before this field was written.
func (g *gen) rescheduleTriggeredAt() any {
	r := g.side
	if r == nil {
		r = g.r
	}
	switch p := r.Float64(); {
	case p < 0.4:
		return nil
	case p < 0.6:
		return Raw(`"2026-11-21T09:30:00Z"`)
	case p < 0.75:
		return Raw(`"2026-11-20T08:00:01Z"`)
	case p < 0.85:
		return Raw(`"2026-11-20T08:00:00Z"`)
	default:
		return Raw(`"2026-11-19T23:59:59Z"`)
	}
}

// unwebhooked is a copy of placement edited the way only a binding written without Karmada's webhook can
// be (the webhook denies or re-encodes each of these): a repeated affinityName, clusterAffinity beside
// clusterAffinities, an empty clusterAffinities or overflowAffinities list, no division preference.
func (g *gen) unwebhooked(placement *Node) *Node {
	p := cloneNode(placement)
	terms := lookup(p, "clusterAffinities")
	switch g.r.IntN(5) {
	case 0:
		if terms != nil && terms.Kind == List && len(terms.Items) > 1 && terms.Items[1].Kind == Map {
			if name := lookup(terms.Items[0], "affinityName"); name != nil {
				setPath(terms.Items[1], cloneNode(name), "affinityName")
			}
		}
	case 1:
		setPath(p, M("clusterNames", L(pick(g, g.clusters).name)), "clusterAffinity")
	case 2:
		setPath(p, L(), "clusterAffinities")
	case 3:
		if terms != nil && terms.Kind == List && len(terms.Items) > 0 && terms.Items[0].Kind == Map {
			setPath(terms.Items[0], L(), "overflowAffinities")
		}
	case 4:
		if rs := lookup(p, "replicaScheduling"); rs != nil && rs.Kind == Map {
			setPath(rs, Str("Divided"), "replicaSchedulingType")
			kept := rs.Pairs[:0]
			for _, pair := range rs.Pairs {
				if pair.Key != "replicaDivisionPreference" {
					kept = append(kept, pair)
				}
			}
			rs.Pairs = kept
		}
	}
	return p
}

// lookup follows mapping keys from n; nil when a key is missing.
func lookup(n *Node, keys ...string) *Node {
	for _, k := range keys {
		if n == nil || n.Kind != Map {
			return nil
		}
		var next *Node
		for _, p := range n.Pairs {
			if p.Key == k {
				next = p.Value
			}
		}
		n = next
	}
	return n
}

// plain is a tree without hostile parts as Go values, for json.Marshal.
func plain(n *Node) any {
	switch n.Kind {
	case Map:
		m := map[string]any{}
		for _, p := range n.Pairs {
			m[p.Key] = plain(p.Value)
		}
		return m
	case List:
		l := make([]any, len(n.Items))
		for i, it := range n.Items {
			l[i] = plain(it)
		}
		return l
	}
	if strings.HasPrefix(n.Raw, `"`) {
		var s string
		if json.Unmarshal([]byte(n.Raw), &s) == nil {
			return s
		}
	}
	if i, err := strconv.Atoi(n.Raw); err == nil {
		return i
	}
	switch n.Raw {
	case "true":
		return true
	case "false":
		return false
	}
	return n.Raw
}
