package generate

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Pack is K independent sub-cases that share one run of each binary: one cluster snapshot (clusters.yaml)
// and, per sub-case, its own policies, workloads and bindings in two namespaces of its own, claimed by
// PropagationPolicies only. A PropagationPolicy claims only templates of its namespace (and the detector
// lists a policy's bindings in that namespace), and karmada-scheduler decides each binding from the
// clusters and that binding alone (its AssigningResourceBindings cache is read only with the
// SchedulingOvercommitProtection or WorkloadAffinity gates, which packs never set), as lint does; so each
// sub-case gets the answer it would get alone. Sub-case j is also a plain case (Sub), replayable alone.
//
// An admission pack (Snapshot false) is K policy files without a snapshot: admission judges each object
// alone.
type Pack struct {
	Seed     uint64
	Index    int
	Snapshot bool
	Change   bool  // change sub-cases (change.go): each has base/policies.yaml, given as --base
	Clusters *File // the shared snapshot (nil for an admission pack)
	// Estimator: an estimator pack (estimator.go); State is its member state, shared like Clusters.
	Estimator bool
	State     []*File
	Args      []string
	Subs      []*Case // each sub-case as a plain case: clusters.yaml (shared), policies.yaml, workloads.yaml, bindings.yaml
}

// Sub-case streams: PCG(seed, packStream|index<<16|j) and the pack's own PCG(seed, packStream|index<<16|0xffff);
// plain cases use PCG(seed, i) with i < 2^62, so the streams never meet.
const (
	packStream      = uint64(1) << 62
	admissionStream = uint64(1) << 61
	packSlot        = 0xffff
)

// MaxPack is the largest K a pack takes (sub-case j is j < 2^16 - 1 in its stream).
const MaxPack = packSlot

// Name of sub-case j, as its kept directory is called: SEED-pINDEX-J (snapshot), SEED-eINDEX-J (estimator)
// or SEED-aINDEX-J (admission).
func (p *Pack) Name(j int) string {
	kind := "a"
	switch {
	case p.Estimator:
		kind = "e"
	case p.Change:
		kind = "c"
	case p.Snapshot:
		kind = "p"
	}
	return fmt.Sprintf("%d-%s%d-%d", p.Seed, kind, p.Index, j)
}

// workloadOf is the sub-case of a workload of a change pack's diff, whose entries name workloads rather
// than files: the one whose namespace it is in (sJ-a, sJ-b), or for a cluster-scoped one (clusterScoped)
// the one its name starts with (sJ-reader).
func (p *Pack) workloadOf(namespace, name string) (int, bool) {
	if namespace == "" {
		namespace = name
	}
	var j int
	var side string
	if n, err := fmt.Sscanf(namespace, "s%d-%s", &j, &side); n != 2 || err != nil || j < 0 || j >= len(p.Subs) {
		return 0, false
	}
	return j, true
}

// Rescheduled: sub-case j holds today's bindings (a day-two case).
func (p *Pack) Rescheduled(j int) bool {
	for _, f := range p.Subs[j].Files {
		if f.Name == "bindings.yaml" {
			return true
		}
	}
	return false
}

// GeneratePack is snapshot pack number index of seed, with k sub-cases (1..MaxPack).
func GeneratePack(seed uint64, index, k int) *Pack {
	base := packStream | uint64(index)<<16
	pg := &gen{r: rand.New(rand.NewPCG(seed, base|packSlot))}
	pg.drawClusters()
	clusters := pg.clustersFile()
	p := &Pack{Seed: seed, Index: index, Snapshot: true, Clusters: clusters}
	// The gates are one flag for the whole pack: multi-component scheduling, and policy preemption (a
	// policy with preemption: Always takes claimed templates over from the policy their binding names).
	var gates []string
	if pg.chance(0.3) {
		gates = append(gates, "MultiplePodTemplatesScheduling=true")
	}
	if pg.chance(0.25) {
		gates = append(gates, "PropagationPolicyPreemption=true")
	}
	gates = append(gates, modelGate(pg.r)...)
	gates = append(gates, otherGates(sideStream(seed, base|packSlot))...)
	if len(gates) > 0 {
		p.Args = []string{"--feature-gates=" + strings.Join(gates, ",")}
	}
	for j := 0; j < k; j++ {
		g := &gen{r: rand.New(rand.NewPCG(seed, base|uint64(j))), side: sideStream(seed, base|uint64(j)), shapes: shapeStream(seed, base|uint64(j)),
			clusters: pg.clusters, packed: true,
			namespaces: []string{fmt.Sprintf("s%d-a", j), fmt.Sprintf("s%d-b", j)}, idBase: 10 * j, rescheduleChance: 0.5}
		g.drawWorkloads()
		c := &Case{Files: append([]*File{clusters}, g.claims()...), Args: p.Args}
		p.Subs = append(p.Subs, c)
	}
	return p
}

// modelGate turns CustomizedClusterResourceModeling off in 15 % of packs (snapshot, estimator and change):
// the general estimator then reads the resource summary only, whatever models the clusters carry (a gate
// lint ignored until session 26). One draw from r either way.
func modelGate(r *rand.Rand) []string {
	if r.Float64() < 0.15 {
		return []string{"CustomizedClusterResourceModeling=false"}
	}
	return nil
}

// otherGates are the gates the scheduler, detector and controllers read beside the three above, each away
// from its default in a tenth of the packs (snapshot, estimator and change): Failover and GracefulEviction
// (the controllers behind failover and eviction), PropagateDeps, PriorityBasedScheduling (the scheduler's
// queue order; a policy's schedulePriority only with it) and ControllerPriorityQueue. None should change one
// binding's schedule: the oracle is what says so. From the pack's side stream (seeds keep their bytes).
// WorkloadAffinity and SchedulingOvercommitProtection make one binding's schedule depend on others': lint
// warns that it does not predict them (packs keep them off, see Pack).
func otherGates(side *rand.Rand) []string {
	var gates []string
	for _, g := range []struct {
		gate string
		p    float64
	}{
		{"Failover=true", 0.1}, {"GracefulEviction=false", 0.1}, {"PropagateDeps=false", 0.1},
		{"PriorityBasedScheduling=true", 0.1}, {"ControllerPriorityQueue=false", 0.05},
	} {
		if side.Float64() < g.p {
			gates = append(gates, g.gate)
		}
	}
	return gates
}

// GenerateAdmissionPack is admission pack number index of seed: k policy files, no snapshot.
func GenerateAdmissionPack(seed uint64, index, k int) *Pack {
	base := admissionStream | uint64(index)<<16
	p := &Pack{Seed: seed, Index: index}
	// kubectl's field validation is one flag for the whole pack: strict (its default) in most, warn in a
	// fifth (unknown fields become the API server's warnings, compared with lint's), ignore in a tenth.
	pg := &gen{r: rand.New(rand.NewPCG(seed, base|packSlot))}
	switch x := pg.r.Float64(); {
	case x < 0.2:
		p.Args = []string{"--validate=warn"}
	case x < 0.3:
		p.Args = []string{"--validate=ignore"}
	}
	// kubectl apply -n in a tenth of the packs: a policy without a namespace takes it, a PropagationPolicy of
	// the other namespace is refused (cli-runtime's RequireNamespace), the file's other objects still sent.
	if pg.chance(0.1) {
		p.Args = append(p.Args, "-n", pick(pg, []string{"default", "shop"}))
	}
	for j := 0; j < k; j++ {
		g := &gen{r: rand.New(rand.NewPCG(seed, base|uint64(j)))}
		c := g.admissionCase()
		c.Args = append(append([]string{}, p.Args...), c.Args...)
		p.Subs = append(p.Subs, c)
	}
	return p
}

// Layout is where a written pack's parts are: the lint arguments (after ComparedFlags) and, per policy
// file, the sub-case it belongs to.
type Layout struct {
	Args  []string
	SubOf map[string]int // policy file path as given to both binaries -> sub-case index
	// Common is Args without the policy files; Policy[j] is sub-case j's policy file.
	Common []string
	Policy []string
	Base   []string // change packs: sub-case j's base policy file, given as --base with its policy file
}

// Subset is the arguments of a run over the given sub-cases only (the snapshot stays whole).
func (l Layout) Subset(subs []int) []string {
	args := append([]string{}, l.Common...)
	for _, j := range subs {
		if l.Base != nil {
			args = append(args, "--base", l.Base[j])
		}
	}
	for _, j := range subs {
		args = append(args, l.Policy[j])
	}
	return args
}

// Write writes the pack into dir (created): clusters.yaml, and per sub-case policies/sJ.yaml,
// workloads/sJ.yaml and bindings/sJ.yaml; an admission pack is policies/sJ.yaml only.
func (p *Pack) Write(dir string) (Layout, error) {
	l := Layout{SubOf: map[string]int{}}
	sub := func(d string) string { return filepath.Join(dir, d) }
	for _, d := range []string{"policies", "workloads", "bindings", "base"} {
		if err := os.MkdirAll(sub(d), 0o755); err != nil {
			return l, fmt.Errorf("generate: %w", err)
		}
	}
	var bindings bool
	for j, c := range p.Subs {
		for _, f := range c.Files {
			var target string
			if strings.HasPrefix(f.Name, MemberStateDir+"/") {
				continue // the pack's State, written once below
			}
			switch f.Name {
			case "clusters.yaml":
				continue
			case "policies.yaml":
				target = filepath.Join(sub("policies"), fmt.Sprintf("s%04d.yaml", j))
				l.SubOf[target] = j
			case "workloads.yaml":
				target = filepath.Join(sub("workloads"), fmt.Sprintf("s%04d.yaml", j))
			case "bindings.yaml":
				target = filepath.Join(sub("bindings"), fmt.Sprintf("s%04d.yaml", j))
				bindings = true
			case "base/policies.yaml":
				target = filepath.Join(sub("base"), fmt.Sprintf("s%04d.yaml", j))
			default:
				return l, fmt.Errorf("generate: pack file %s", f.Name)
			}
			if err := os.WriteFile(target, f.Bytes(), 0o644); err != nil {
				return l, fmt.Errorf("generate: %w", err)
			}
		}
	}
	if p.Snapshot {
		cl := sub("clusters.yaml")
		if err := os.WriteFile(cl, p.Clusters.Bytes(), 0o644); err != nil {
			return l, fmt.Errorf("generate: %w", err)
		}
		l.Args = append(l.Args, "--clusters", cl, "--workloads", sub("workloads"))
		if bindings {
			l.Args = append(l.Args, "--bindings", sub("bindings"))
		}
		if p.Estimator {
			for _, f := range p.State {
				target := filepath.Join(dir, f.Name)
				if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
					return l, fmt.Errorf("generate: %w", err)
				}
				if err := os.WriteFile(target, f.Bytes(), 0o644); err != nil {
					return l, fmt.Errorf("generate: %w", err)
				}
			}
			// The directory exists even when no cluster has state: every cluster then has no estimator.
			if err := os.MkdirAll(sub(MemberStateDir), 0o755); err != nil {
				return l, fmt.Errorf("generate: %w", err)
			}
			l.Args = append(l.Args, "--member-state", sub(MemberStateDir))
		}
	}
	l.Args = append(l.Args, p.Args...)
	l.Common = append([]string{}, l.Args...)
	all := make([]int, len(p.Subs))
	for j := range p.Subs {
		all[j] = j
		l.Policy = append(l.Policy, filepath.Join(sub("policies"), fmt.Sprintf("s%04d.yaml", j)))
		if p.Change {
			l.Base = append(l.Base, filepath.Join(sub("base"), fmt.Sprintf("s%04d.yaml", j)))
		}
	}
	l.Args = l.Subset(all)
	return l, nil
}

// clone is a deep copy of the case (a packed sub-case shares clusters.yaml with the others; shrinking
// must not touch it).
func (c *Case) clone() *Case {
	out := &Case{Args: append([]string(nil), c.Args...)}
	for _, f := range c.Files {
		nf := *f
		nf.Docs = make([]*Doc, len(f.Docs))
		for i, d := range f.Docs {
			nd := *d
			nd.Root = copyTree(d.Root)
			nf.Docs[i] = &nd
		}
		out.Files = append(out.Files, &nf)
	}
	return out
}

// copyTree is a deep copy that keeps anchors (cloneNode drops them: it makes a second, unanchored value).
func copyTree(n *Node) *Node {
	c := *n
	c.Items = make([]*Node, len(n.Items))
	for i, it := range n.Items {
		c.Items[i] = copyTree(it)
	}
	c.Pairs = make([]*Pair, len(n.Pairs))
	for i, p := range n.Pairs {
		cp := *p
		cp.Value = copyTree(p.Value)
		c.Pairs[i] = &cp
	}
	return &c
}
