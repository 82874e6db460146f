package generate

import (
	"fmt"
	"math/rand/v2"
	"path"
	"strings"

	"karmada-policy-webhook/tests/conformance/internal/cases"
)

// Estimator packs (`fuzz --kind estimator`): a snapshot pack whose clusters also have member state, the
// Nodes and Pods karmada-scheduler-estimator reads (lint's and the oracle's --member-state), and whose
// workloads ask for what the estimator weighs: resource requests, a node selector, required node
// affinity, tolerations. PCG(seed, estimatorStream|pack<<16|j) for sub-case j, the pack's own draws
// (clusters, member state) from j = 0xffff; the other kinds' streams never meet these.
const estimatorStream = uint64(1) << 60

// MemberStateDir is the entry of a case directory (and of a pack) that becomes --member-state.
const MemberStateDir = cases.MemberStateDir

// GenerateEstimatorPack is estimator pack number index of seed, with k sub-cases (1..MaxPack).
func GenerateEstimatorPack(seed uint64, index, k int) *Pack {
	base := estimatorStream | uint64(index)<<16
	pg := &gen{r: rand.New(rand.NewPCG(seed, base|packSlot)), estimator: true}
	pg.drawClusters()
	clusters := pg.clustersFile()
	state := pg.memberState()
	p := &Pack{Seed: seed, Index: index, Snapshot: true, Estimator: true, Clusters: clusters, State: state}
	// Multi-component workloads go to MaxAvailableComponentSets with the gate on.
	var gates []string
	if pg.chance(0.3) {
		gates = append(gates, "MultiplePodTemplatesScheduling=true")
	}
	gates = append(gates, modelGate(pg.r)...)
	if gates = append(gates, otherGates(sideStream(seed, base|packSlot))...); len(gates) > 0 {
		p.Args = []string{"--feature-gates=" + strings.Join(gates, ",")}
	}
	for j := 0; j < k; j++ {
		g := &gen{r: rand.New(rand.NewPCG(seed, base|uint64(j))), side: sideStream(seed, base|uint64(j)), shapes: shapeStream(seed, base|uint64(j)),
			clusters: pg.clusters, packed: true, estimator: true,
			namespaces: []string{fmt.Sprintf("s%d-a", j), fmt.Sprintf("s%d-b", j)}, idBase: 10 * j, rescheduleChance: 0.3}
		g.drawWorkloads()
		files := append([]*File{clusters}, state...)
		p.Subs = append(p.Subs, &Case{Files: append(files, g.claims()...), Args: p.Args})
	}
	return p
}

// Node labels and taints the member state draws from; the workloads' node claims draw from the same.
var (
	nodeZones     = []string{"z1", "z2", "z3"}
	nodeDiskTypes = []string{"ssd", "hdd"}
	taintKeys     = []string{"dedicated", "gpu", "maintenance"}
	taintValues   = []string{"ml", "true", "infra"}
	taintEffects  = []string{"NoSchedule", "NoExecute", "PreferNoSchedule"}
	extended      = "nvidia.com/gpu"
)

// memberState is one file per cluster with state, member-state/<cluster>/state.yaml: most packs give
// every cluster an estimator, some leave one or more without (Karmada then drops every accurate answer
// of a binding whose clusters include one: pkg/scheduler/core/util.go calAvailableReplicas).
func (g *gen) memberState() []*File {
	without := 0.0
	if g.chance(0.3) {
		without = 0.35
	}
	var files []*File
	for _, c := range g.clusters {
		if g.chance(without) {
			continue
		}
		f := &File{Name: path.Join(MemberStateDir, c.name, "state.yaml")}
		var objs []*Node
		nodes := g.between(0, 5)
		if g.chance(0.05) {
			nodes = 0
		}
		var names []string
		for i := 0; i < nodes; i++ {
			name := fmt.Sprintf("%s-n%d", c.name, i)
			names = append(names, name)
			objs = append(objs, g.nodeObject(name))
		}
		for i, n := 0, g.between(0, 2*nodes+1); i < n; i++ {
			objs = append(objs, g.podObject(fmt.Sprintf("p%d", i), names))
		}
		if len(objs) == 0 {
			// An empty directory is a cluster with an estimator and no nodes; a file with no object is
			// kubectl's refusal, so the cluster gets one unbound pod instead.
			objs = append(objs, g.podObject("p0", nil))
		}
		if g.chance(0.5) {
			f.Docs = []*Doc{{Root: M("apiVersion", "v1", "kind", "List", "items", L(anys(objs)...))}}
		} else {
			for _, o := range objs {
				f.Docs = append(f.Docs, &Doc{Root: o})
			}
		}
		files = append(files, f)
	}
	return files
}

func (g *gen) quantity(xs ...string) *Node { return Raw(`"` + pick(g, xs) + `"`) }

func (g *gen) nodeObject(name string) *Node {
	alloc := M("cpu", g.quantity("0", "500m", "1", "2", "3500m", "4", "8", "16", "64"),
		"memory", g.quantity("0", "512Mi", "2Gi", "4Gi", "8Gi", "15Gi", "32Gi", "256Gi"),
		"pods", g.maybe(0.9, g.quantity("0", "1", "2", "3", "5", "10", "110")),
		"ephemeral-storage", g.maybe(0.3, g.quantity("10Gi", "100Gi")),
		extended, g.maybe(0.3, g.quantity("0", "1", "2", "4", "8")))
	labels := M("kubernetes.io/hostname", name, "topology.kubernetes.io/zone", g.maybe(0.8, pick(g, nodeZones)),
		"disktype", g.maybe(0.5, pick(g, nodeDiskTypes)), "cores", g.maybe(0.3, g.quantity("2", "8", "32")))
	spec := M("unschedulable", g.maybe(0.1, true))
	if g.chance(0.25) {
		taints := L()
		for i, n := 0, g.between(1, 2); i < n; i++ {
			taints.Items = append(taints.Items, M("key", pick(g, taintKeys), "value", g.maybe(0.7, pick(g, taintValues)),
				"effect", pick(g, taintEffects)))
		}
		spec.Pairs = append(spec.Pairs, &Pair{Key: "taints", Value: taints})
	}
	ready := pick(g, []string{"True", "True", "True", "False", "Unknown"})
	status := M("allocatable", alloc, "capacity", g.maybe(0.3, alloc),
		"conditions", g.maybe(0.9, L(M("type", "Ready", "status", Raw(`"`+ready+`"`)),
			M("type", "MemoryPressure", "status", g.quantity("False", "True")))))
	return M("apiVersion", "v1", "kind", "Node", "metadata", M("name", name, "labels", labels), "spec", spec, "status", status)
}

// podIndex numbers the pack's pods (their uids are unique across the pack's members).
func (g *gen) podIndex() int {
	g.pods++
	return g.pods
}

// podObject is a pod bound to one of nodes (or to none, or to a node that is not there), running,
// pending or finished, with requests.
func (g *gen) podObject(name string, nodes []string) *Node {
	nodeName := any(nil)
	switch {
	case len(nodes) > 0 && g.chance(0.8):
		nodeName = pick(g, nodes)
	case g.chance(0.2):
		nodeName = "gone-node"
	}
	containers := L()
	for i, n := 0, g.between(1, 2); i < n; i++ {
		requests := M("cpu", g.maybe(0.9, g.quantity("100m", "250m", "500m", "1", "2", "3")),
			"memory", g.maybe(0.8, g.quantity("64Mi", "512Mi", "1Gi", "4Gi")),
			extended, g.maybe(0.15, g.quantity("1", "2")))
		containers.Items = append(containers.Items, M("name", fmt.Sprintf("c%d", i), "image", "registry.example/app:1",
			"resources", M("requests", requests)))
	}
	spec := M("nodeName", nodeName, "containers", containers)
	if g.chance(0.1) {
		spec.Pairs = append(spec.Pairs, &Pair{Key: "initContainers", Value: L(M("name", "init", "image", "registry.example/init:1",
			"resources", M("requests", M("cpu", g.quantity("1", "4")))))})
	}
	phase := pick(g, []string{"Running", "Running", "Running", "Pending", "Succeeded", "Failed"})
	// Every pod has a uid, as kube-apiserver gives it and `kubectl get` writes it; the index keeps them
	// apart (the estimator's cache keys pods by uid).
	meta := M("name", name, "namespace", pick(g, []string{"default", "kube-system", "apps"}),
		"uid", fmt.Sprintf("00000000-0000-4000-9000-%03d%09d", g.podIndex(), g.r.IntN(1000000000)))
	return M("apiVersion", "v1", "kind", "Pod", "metadata", meta, "spec", spec, "status", M("phase", phase))
}

// nodeClaim adds to a workload's pod spec what the estimator matches against nodes: a node selector,
// required node affinity, tolerations.
func (g *gen) nodeClaim(spec *Node) {
	if g.chance(0.3) {
		sel := M()
		if g.chance(0.7) {
			sel.Pairs = append(sel.Pairs, &Pair{Key: "topology.kubernetes.io/zone", Value: Str(pick(g, nodeZones))})
		}
		if g.chance(0.4) {
			sel.Pairs = append(sel.Pairs, &Pair{Key: "disktype", Value: Str(pick(g, nodeDiskTypes))})
		}
		spec.Pairs = append(spec.Pairs, &Pair{Key: "nodeSelector", Value: sel})
	}
	if g.chance(0.3) {
		terms := L()
		for i, n := 0, g.between(1, 2); i < n; i++ {
			exprs := L()
			for j, m := 0, g.between(1, 2); j < m; j++ {
				exprs.Items = append(exprs.Items, g.nodeRequirement())
			}
			terms.Items = append(terms.Items, M("matchExpressions", exprs))
		}
		spec.Pairs = append(spec.Pairs, &Pair{Key: "affinity", Value: M("nodeAffinity",
			M("requiredDuringSchedulingIgnoredDuringExecution", M("nodeSelectorTerms", terms)))})
	}
	if g.chance(0.35) {
		tols := L()
		for i, n := 0, g.between(1, 2); i < n; i++ {
			tol := M("key", g.maybe(0.9, pick(g, taintKeys)), "operator", pick(g, []string{"Equal", "Exists"}))
			if plain(lookup(tol, "operator")) == "Equal" {
				tol.Pairs = append(tol.Pairs, &Pair{Key: "value", Value: Str(pick(g, taintValues))})
			}
			if g.chance(0.6) {
				tol.Pairs = append(tol.Pairs, &Pair{Key: "effect", Value: Str(pick(g, taintEffects))})
			}
			tols.Items = append(tols.Items, tol)
		}
		if g.chance(0.1) {
			tols.Items = append(tols.Items, M("key", "node.kubernetes.io/unschedulable", "operator", "Exists", "effect", "NoSchedule"))
		}
		spec.Pairs = append(spec.Pairs, &Pair{Key: "tolerations", Value: tols})
	}
}

func (g *gen) nodeRequirement() *Node {
	switch g.r.IntN(4) {
	case 0:
		return M("key", "topology.kubernetes.io/zone", "operator", pick(g, []string{"In", "NotIn"}),
			"values", L(pick(g, nodeZones), g.maybe(0.5, pick(g, nodeZones))))
	case 1:
		return M("key", "disktype", "operator", pick(g, []string{"Exists", "DoesNotExist"}))
	case 2:
		return M("key", "cores", "operator", pick(g, []string{"Gt", "Lt"}), "values", L(g.quantity("4", "16")))
	default:
		return M("key", "kubernetes.io/hostname", "operator", "In", "values",
			L(fmt.Sprintf("%s-n%d", pick(g, g.clusters).name, g.between(0, 4))))
	}
}

// estimatorRequests are a workload container's requests: some best-effort (none), some with the extended
// resource or ephemeral storage.
func (g *gen) estimatorRequests() *Node {
	if g.chance(0.08) {
		return M()
	}
	return M("cpu", g.maybe(0.9, g.quantity("100m", "250m", "500m", "1", "1500m", "2", "4")),
		"memory", g.maybe(0.8, g.quantity("128Mi", "512Mi", "1Gi", "3Gi", "8Gi")),
		"ephemeral-storage", g.maybe(0.1, g.quantity("1Gi", "20Gi")),
		extended, g.maybe(0.15, g.between(1, 2)))
}
