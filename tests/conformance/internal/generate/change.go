package generate

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// changeSalt separates a change's draws from the snapshot case it is derived from.
const changeSalt = 0xc4a1_6e00_0000_0001

// changeStream is the streams of packed change sub-cases: PCG(seed, changeStream|pack<<16|j), the pack's
// own from j = packSlot; the plain, snapshot and admission streams never meet them.
const changeStream = uint64(1) << 60

// GenerateChangePack is change pack number index of seed, with k sub-cases: one cluster snapshot and one
// flag of feature gates, each sub-case in two namespaces of its own (sJ-a, sJ-b), its
// ClusterPropagationPolicies named sJ-policy-I and selecting in those namespaces only, with no
// ClusterResourceBinding: so no sub-case's policy, deletion or preemption reaches another's templates
// (handlePolicyDeletion lists a selector's namespace; a PropagationPolicy claims only in its own).
func GenerateChangePack(seed uint64, index, k int) *Pack {
	base := changeStream | uint64(index)<<16
	pg := &gen{r: rand.New(rand.NewPCG(seed, base|packSlot))}
	pg.drawClusters()
	p := &Pack{Seed: seed, Index: index, Snapshot: true, Change: true, Clusters: pg.clustersFile()}
	p.Args = changeGates(pg.r, pg.chance(0.3), sideStream(seed, base|packSlot))
	for j := 0; j < k; j++ {
		g := &gen{r: rand.New(rand.NewPCG(seed, base|uint64(j))), side: sideStream(seed, base|uint64(j)), shapes: shapeStream(seed, base|uint64(j)),
			clusters: pg.clusters, packed: true, scopedCPP: true, claimsByLabel: true,
			namespaces: []string{fmt.Sprintf("s%d-a", j), fmt.Sprintf("s%d-b", j)}, idBase: 10 * j, rescheduleChance: 0.7}
		ch := rand.New(rand.NewPCG(seed^changeSalt, base|uint64(j)))
		c := &Case{Files: append([]*File{p.Clusters}, g.changeOf(ch)...), Args: p.Args}
		p.Subs = append(p.Subs, c)
	}
	return p
}

// changeGates is the --feature-gates flag of a change case: policy preemption often (a created or
// re-prioritised policy with preemption: Always takes claimed templates over), multi-component scheduling
// when asked, and now and then the general estimator without resource models.
func changeGates(r *rand.Rand, components bool, side *rand.Rand) []string {
	var gates []string
	if components {
		gates = append(gates, "MultiplePodTemplatesScheduling=true")
	}
	if r.Float64() < 0.4 {
		gates = append(gates, "PropagationPolicyPreemption=true")
	}
	gates = append(gates, modelGate(r)...)
	gates = append(gates, otherGates(side)...)
	if len(gates) == 0 {
		return nil
	}
	return []string{"--feature-gates=" + strings.Join(gates, ",")}
}

// changeOf draws the workloads, base policies and today's bindings (g's stream, as a plain case draws
// them), then the change from ch's stream. The change may:
//   - relabel templates (their app label becomes another workload's, or a name no policy selects) after
//     their bindings recorded a claim, so the holder no longer selects them and another policy may;
//   - take the claim off some bindings (and their templates): unclaimed in the base, as a policy deleted
//     earlier leaves them;
//   - per base policy: delete it, point one selector at another workload, replace it by a policy of the
//     other kind (another name, the same selectors), change its priority and preemption, change its
//     placement, change its labels only (the spec, and so the generation, stay), change what an UPDATE may
//     not (spec.schedulerName, the permanent-id label: denied, the base version stays), or keep it byte
//     for byte;
//     sometimes every base policy is deleted at once;
//   - create new policies of either kind.
func (g *gen) changeOf(ch *rand.Rand) []*File {
	g.drawWorkloads()
	files := g.claims()
	c := &gen{r: ch, clusters: g.clusters, workloads: g.workloads, namespaces: g.namespaces, packed: g.packed,
		scopedCPP: g.scopedCPP, idBase: g.idBase}
	var out []*File
	for _, f := range files {
		switch f.Name {
		case "bindings.yaml":
			f.Docs = oneBindingEach(f.Docs)
			for _, d := range f.Docs {
				if c.chance(0.15) {
					unclaim(d.Root)
				}
			}
		case "workloads.yaml":
			for _, d := range f.Docs {
				if c.chance(0.25) {
					c.relabel(d.Root)
				}
			}
		case "policies.yaml":
			out = append(out, &File{Name: "base/policies.yaml", Docs: f.Docs})
			f = &File{Name: "policies.yaml", Docs: c.change(f.Docs)}
		}
		out = append(out, f)
	}
	return out
}

// oneBindingEach keeps the first binding of each name: two policies that select one workload each get a
// binding of it in a plain case, and two stored objects of one name cannot exist (the fake client the
// oracle loads them into refuses the second).
func oneBindingEach(docs []*Doc) []*Doc {
	seen := map[string]bool{}
	var out []*Doc
	for _, d := range docs {
		k := fmt.Sprint(plainOr(lookup(d.Root, "metadata", "namespace")), "/", plainOr(lookup(d.Root, "metadata", "name")))
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, d)
	}
	return out
}

func plainOr(n *Node) any {
	if n == nil {
		return ""
	}
	return plain(n)
}

// unclaim removes a binding's claim labels and annotations (the applied placement stays).
func unclaim(b *Node) {
	meta := lookup(b, "metadata")
	var keep []*Pair
	for _, p := range meta.Pairs {
		if p.Key == "labels" {
			continue
		}
		if p.Key == "annotations" {
			a := &Node{Kind: Map}
			for _, q := range p.Value.Pairs {
				if !strings.Contains(q.Key, "propagationpolicy.karmada.io/") {
					a.Pairs = append(a.Pairs, q)
				}
			}
			p = &Pair{Key: p.Key, Value: a}
		}
		keep = append(keep, p)
	}
	meta.Pairs = keep
}

// relabel gives a template another app label: another workload's (a policy that selects that one by label
// now selects this one too) or one no policy selects.
func (g *gen) relabel(t *Node) {
	app := lookup(t, "metadata", "labels", "app")
	if app == nil {
		return
	}
	other := pick(g, g.workloads).name
	if g.chance(0.3) {
		other = "moved"
	}
	*app = *Str(other)
}

// change derives the new side's policy documents from the base's.
func (g *gen) change(base []*Doc) []*Doc {
	var out []*Doc
	deleteAll := g.chance(0.1)
	cut, kept, below := -1, -1, 0
	if !deleteAll && g.chance(0.08) {
		cut, kept, below = g.priorityCut(base)
	}
	for i, d := range base {
		if i == cut {
			p := cloneNode(d.Root)
			if below > 0 && g.chance(0.7) {
				setPair(lookup(p, "spec"), "priority", node(g.between(0, below-1)))
			} else {
				dropPair(lookup(p, "spec"), "priority")
			}
			out = append(out, &Doc{Root: p})
			continue
		}
		if i == kept {
			out = append(out, d)
			continue
		}
		x := g.r.Float64()
		switch {
		case deleteAll || x < 0.2: // deleted
		case x < 0.35:
			out = append(out, &Doc{Root: g.narrow(cloneNode(d.Root))})
		case x < 0.45: // replaced by the other kind
			out = append(out, &Doc{Root: g.otherKind(d.Root, i)})
		case x < 0.55:
			out = append(out, &Doc{Root: g.reprioritise(cloneNode(d.Root))})
		case x < 0.62:
			p := cloneNode(d.Root)
			setPair(lookup(p, "spec"), "placement", g.placement(pick(g, g.workloads)))
			out = append(out, &Doc{Root: p})
		case x < 0.67: // metadata only: kubectl apply writes it, the generation stays
			p := cloneNode(d.Root)
			setPair(lookup(p, "metadata"), "labels", M("team", "platform"))
			out = append(out, &Doc{Root: p})
		case x < 0.71: // an UPDATE Karmada's validating webhook refuses (validating.go validateUpdate)
			p := cloneNode(d.Root)
			if g.chance(0.6) {
				setPair(lookup(p, "spec"), "schedulerName", Raw("other-scheduler"))
			} else {
				label := "propagationpolicy.karmada.io/permanent-id"
				if plain(lookup(p, "kind")) == "ClusterPropagationPolicy" {
					label = "clusterpropagationpolicy.karmada.io/permanent-id"
				}
				setPair(lookup(p, "metadata"), "labels", M(label, "rewritten-id"))
			}
			out = append(out, &Doc{Root: p})
		default:
			out = append(out, d) // unchanged: the same bytes
		}
	}
	for i, n := 0, g.between(0, 2); i < n || len(out) == 0; i++ {
		out = append(out, &Doc{Root: g.policy(len(base) + 10 + i)}) // names no base policy has
	}
	return out
}

// narrow points one resource selector of the policy at another workload (by name, or by the app label a
// workload's template carries), sometimes at a name no template has.
func (g *gen) narrow(p *Node) *Node {
	sel := lookup(p, "spec", "resourceSelectors")
	if sel == nil || len(sel.Items) == 0 {
		return p
	}
	s := pick(g, sel.Items)
	w := pick(g, g.workloads) // a copy: the case's workloads stay as drawn
	name := w.name
	if g.chance(0.3) {
		name += "-gone"
	}
	setPair(s, "apiVersion", Str(w.apiVersion))
	setPair(s, "kind", Str(w.kind))
	if lookup(s, "name") != nil {
		setPair(s, "name", Str(name))
	} else {
		setPair(s, "labelSelector", M("matchLabels", M("app", name)))
	}
	// A cluster policy of a pack selects in its sub-case's namespaces only; clusterScoped's selects its
	// cluster-scoped objects by name, without a namespace, which a namespaced workload then needs.
	if lookup(s, "namespace") != nil || g.scopedCPP && plain(lookup(p, "kind")) == "ClusterPropagationPolicy" {
		setPair(s, "namespace", Str(w.namespace))
	}
	return p
}

// otherKind replaces a policy by one of the other kind with the same selectors (another name: the
// old one is deleted), a placement drawn afresh, and its own priority and preemption.
func (g *gen) otherKind(p *Node, i int) *Node {
	cluster := plain(lookup(p, "kind")) != "ClusterPropagationPolicy"
	selectors := cloneNode(lookup(p, "spec", "resourceSelectors"))
	target := pick(g, g.workloads)
	for _, s := range selectors.Items {
		for _, w := range g.workloads {
			if n := lookup(s, "name"); n != nil && plain(n) == w.name {
				target = w
			}
		}
		if !cluster {
			dropPair(s, "namespace") // a PropagationPolicy's selectors are in its namespace
		} else if g.scopedCPP {
			setPair(s, "namespace", Str(target.namespace))
		}
	}
	name := g.policyName(i, cluster) + "-" + map[bool]string{true: "cpp", false: "pp"}[cluster]
	return g.policyOf(cluster, name, target, selectors)
}

// priorityCut prepares a cut of priority (found missing by seed 2503's c92-26): in the base, one policy gets a
// high priority and another of its kind (and namespace, for PropagationPolicies) a priority below it and
// preemption Always; the change then lowers the first below the second (returned: the first's index, the
// second's, and the second's priority) and keeps the second byte for byte. Karmada re-queues the second
// (preemption.go HandleDeprioritized*: strictly between the new and the old priority), which may then take
// what the first holds. -1, -1 when no two base policies share a scope.
func (g *gen) priorityCut(base []*Doc) (int, int, int) {
	for tries := 0; tries < 4 && len(base) > 1; tries++ {
		i, j := g.r.IntN(len(base)), g.r.IntN(len(base))
		a, b := base[i].Root, base[j].Root
		if i == j || plain(lookup(a, "kind")) != plain(lookup(b, "kind")) ||
			plainOr(lookup(a, "metadata", "namespace")) != plainOr(lookup(b, "metadata", "namespace")) {
			continue
		}
		high := g.between(6, 10)
		mid := g.between(1, high-1)
		setPair(lookup(a, "spec"), "priority", node(high))
		setPair(lookup(b, "spec"), "priority", node(mid))
		setPair(lookup(b, "spec"), "preemption", Str("Always"))
		return i, j, mid
	}
	return -1, -1, 0
}

// reprioritise draws the policy's priority and preemption again (the rest of its spec stays).
func (g *gen) reprioritise(p *Node) *Node {
	spec := lookup(p, "spec")
	if g.chance(0.8) {
		setPair(spec, "priority", node(g.between(0, 10)))
	} else {
		dropPair(spec, "priority")
	}
	switch x := g.r.Float64(); {
	case x < 0.5:
		setPair(spec, "preemption", Str("Always"))
	case x < 0.7:
		setPair(spec, "preemption", Str("Never"))
	default:
		dropPair(spec, "preemption")
	}
	return p
}

// setPair sets key in the mapping m (appended when absent).
func setPair(m *Node, key string, v *Node) {
	for _, p := range m.Pairs {
		if p.Key == key {
			p.Value = v
			return
		}
	}
	m.Pairs = append(m.Pairs, &Pair{Key: key, Value: v})
}

func dropPair(m *Node, key string) {
	var keep []*Pair
	for _, p := range m.Pairs {
		if p.Key != key {
			keep = append(keep, p)
		}
	}
	m.Pairs = keep
}
