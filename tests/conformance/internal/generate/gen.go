// Package generate writes seeded, reproducible conformance cases (policies, clusters, workloads, lint
// flags, and YAML-level hostile inputs), compares each, and keeps and shrinks the divergent ones.
package generate

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"karmada-policy-webhook/tests/conformance/internal/cases"
	"karmada-policy-webhook/tests/conformance/internal/compare"
)

// Case is one generated case: its files and the extra lint flags (the args file).
type Case struct {
	Files []*File
	Args  []string
}

// Write writes the case into dir (created), one file per File plus the args file.
func (c *Case) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	for _, f := range c.Files {
		// base/policies.yaml (change.go) and member-state/<cluster>/state.yaml (estimator.go) are files of
		// a subdirectory.
		path := filepath.Join(dir, f.Name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		if err := os.WriteFile(path, f.Bytes(), 0o644); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
	}
	if err := cases.WriteArgs(dir, c.Args); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	return nil
}

// Generate is case number index of the batch seeded with seed: the same pair gives the same case on
// every machine (math/rand/v2's PCG, and nothing else random is read).
func Generate(seed uint64, index int) *Case {
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(index))), side: sideStream(seed, uint64(index)),
		shapes: shapeStream(seed, uint64(index))}
	return g.generate()
}

// sideSalt separates the side stream from every main one: PCG(seed^sideSalt, stream).
const sideSalt = 0x5eed_51de_0000_0001

// sideStream is where draws added after a seed's cases were in use come from, so that the main stream,
// and with it every other byte those cases had, stays as it was.
func sideStream(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed^sideSalt, stream))
}

type gen struct {
	r         *rand.Rand
	side      *rand.Rand // sideStream: draws added later (rescheduleTriggeredAt); nil draws from r
	shapes    *rand.Rand // shapeStream: pod template shapes (pods.go); nil writes none
	clusters  []cluster
	workloads []workload
	anchors   int
	// A packed sub-case (pack.go): its own namespaces, PropagationPolicies only (a ClusterPropagationPolicy
	// could claim another sub-case's workloads), policy ids of its own, its share of day-two cases.
	namespaces       []string
	packed           bool
	idBase           int
	rescheduleChance float64
	// estimator: an estimator pack (estimator.go): workloads with node claims and varied requests.
	estimator bool
	pods      int // pods written so far (estimator.go podIndex)
	// Change cases (change.go): a packed sub-case may hold ClusterPropagationPolicies, named after the
	// sub-case and selecting only its own namespaces (scopedCPP); today's bindings also cover templates a
	// policy selects by label (claimsByLabel), so that relabelling one strands its claim.
	scopedCPP, claimsByLabel bool
}

type cluster struct{ name, region, zone, provider, tier string }

type workload struct {
	apiVersion, kind, namespace, name string
	components                        bool
	shape                             *kindShape // the kinds of kinds.go; nil for the others
}

var (
	regions   = []string{"cn-east", "cn-north", "us-west"}
	providers = []string{"aws", "alibaba", "huawei", "onprem"}
	tiers     = []string{"gold", "silver"}
)

func (g *gen) chance(p float64) bool  { return g.r.Float64() < p }
func (g *gen) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }
func pick[T any](g *gen, xs []T) T    { return xs[g.r.IntN(len(xs))] }

func (g *gen) generate() *Case {
	g.drawClusters()
	g.drawWorkloads()
	c := &Case{Files: append([]*File{g.clustersFile()}, g.claims()...)}
	if g.hasComponents() && g.chance(0.6) {
		c.Args = []string{cases.GateOn}
	}
	if g.chance(0.25) {
		for i, n := 0, g.between(1, 2); i < n; i++ {
			g.hostile(pick(g, c.Files))
		}
	}
	// A tenth of the plain cases give the policies on standard input (lint -): named "<stdin>" in both
	// reports, read after the other paths. From the side stream (a plain case only: a pack maps its
	// answers back by file name).
	if g.side != nil && g.side.Float64() < 0.1 {
		c.Args = append(c.Args, compare.StdinFrom+"./policies.yaml")
	}
	return c
}

// drawClusters picks the snapshot's 2-7 clusters.
func (g *gen) drawClusters() {
	for i, n := 0, g.between(2, 7); i < n; i++ {
		region := pick(g, regions)
		g.clusters = append(g.clusters, cluster{name: fmt.Sprintf("member%d", i+1), region: region,
			zone: region + "-" + pick(g, []string{"a", "b"}), provider: pick(g, providers), tier: pick(g, tiers)})
	}
}

// namespaceList is where workloads and PropagationPolicies go: "default" and "shop", or a packed
// sub-case's own two namespaces.
func (g *gen) namespaceList() []string {
	if g.namespaces != nil {
		return g.namespaces
	}
	return []string{"default", "shop"}
}

// drawWorkloads picks 1-4 workloads: Deployments mostly, and every kind Karmada's native interpreter
// reads replicas of (StatefulSet, Job, Pod; pkg/resourceinterpreter/default/native/replica.go),
// PyTorchJob (a shipped third-party customization with components), and in 8 % the kinds of kinds.go
// (the other shipped customizations, and kinds without any replica interpreter).
func (g *gen) drawWorkloads() {
	for i, n := 0, g.between(1, 4); i < n; i++ {
		w := workload{apiVersion: "apps/v1", kind: "Deployment", namespace: pick(g, g.namespaceList()),
			name: fmt.Sprintf("web-%d", i)}
		switch x := g.r.Float64(); {
		case x < 0.12:
			w = workload{apiVersion: "kubeflow.org/v1", kind: "PyTorchJob", namespace: w.namespace,
				name: fmt.Sprintf("train-%d", i), components: true}
		case x < 0.2:
			k := &otherKinds[g.r.IntN(len(otherKinds))]
			w = workload{apiVersion: k.apiVersion, kind: k.kind, namespace: w.namespace,
				name: fmt.Sprintf("%s-%d", k.prefix, i), components: k.components, shape: k}
		case x < 0.3:
			w.kind, w.name = "StatefulSet", fmt.Sprintf("db-%d", i)
		case x < 0.38:
			w.apiVersion, w.kind, w.name = "batch/v1", "Job", fmt.Sprintf("job-%d", i)
		case x < 0.43:
			w.apiVersion, w.kind, w.name = "v1", "Pod", fmt.Sprintf("pod-%d", i)
		}
		g.workloads = append(g.workloads, w)
	}
}

// clustersFile is clusters.yaml: the clusters as one List or as one document each.
func (g *gen) clustersFile() *File {
	clusterDocs := make([]*Node, len(g.clusters))
	for i, cl := range g.clusters {
		clusterDocs[i] = g.clusterObject(cl)
	}
	clusters := &File{Name: "clusters.yaml"}
	if g.chance(0.5) {
		clusters.Docs = []*Doc{{Root: M("apiVersion", "v1", "kind", "List", "items", L(anys(clusterDocs)...))}}
	} else {
		for _, d := range clusterDocs {
			clusters.Docs = append(clusters.Docs, &Doc{Root: d})
		}
	}
	return clusters
}

// claims are policies.yaml, workloads.yaml and, for a day-two case, bindings.yaml.
func (g *gen) claims() []*File {
	workloads := &File{Name: "workloads.yaml"}
	for _, w := range g.workloads {
		workloads.Docs = append(workloads.Docs, &Doc{Root: g.workloadObject(w)})
	}
	policies := &File{Name: "policies.yaml"}
	for i, n := 0, g.between(1, 3); i < n; i++ {
		policies.Docs = append(policies.Docs, &Doc{Root: g.policy(i)})
	}
	templates, cpp := g.clusterScoped()
	for _, t := range templates {
		workloads.Docs = append(workloads.Docs, &Doc{Root: t})
	}
	if cpp != nil {
		policies.Docs = append(policies.Docs, &Doc{Root: cpp})
	}
	files := []*File{policies, workloads}
	if g.chance(g.bindingsChance()) { // day two: today's bindings of the claimed workloads
		bindings := &File{Name: "bindings.yaml"}
		bound := map[workload]bool{}
		for i, d := range policies.Docs {
			for _, w := range g.workloads {
				if g.selects(d.Root, w) && g.chance(0.7) {
					if bound[w] {
						// One binding per workload: lint refuses two (exit 2), which would stop a pack, and Karmada's
						// fake clientset cannot hold two of one name (the oracle could not run such a plain case).
						continue
					}
					bound[w] = true
					if b := g.binding(w, d.Root, i); b != nil {
						bindings.Docs = append(bindings.Docs, &Doc{Root: b})
					}
				}
			}
		}
		if len(bindings.Docs) > 0 {
			files = append(files, bindings)
		}
	}
	return files
}

func (g *gen) bindingsChance() float64 {
	if g.rescheduleChance > 0 {
		return g.rescheduleChance
	}
	return 0.3
}

// selects: the policy's first resource selector names the workload (with claimsByLabel, or selects it by
// its app label).
func (g *gen) selects(policy *Node, w workload) bool {
	sel := lookup(policy, "spec", "resourceSelectors")
	if sel == nil || len(sel.Items) == 0 {
		return false
	}
	name, kind := lookup(sel.Items[0], "name"), lookup(sel.Items[0], "kind")
	if g.claimsByLabel && name == nil {
		name = lookup(sel.Items[0], "labelSelector", "matchLabels", "app")
	}
	return name != nil && kind != nil && plain(name) == w.name && plain(kind) == w.kind
}

func anys(ns []*Node) []any {
	out := make([]any, len(ns))
	for i, n := range ns {
		out[i] = n
	}
	return out
}

func (g *gen) hasComponents() bool {
	for _, w := range g.workloads {
		if w.components {
			return true
		}
	}
	return false
}

func (g *gen) maybe(p float64, v any) any {
	if g.chance(p) {
		return v
	}
	return nil
}

func (g *gen) clusterObject(c cluster) *Node {
	labels := M("region", g.maybe(0.8, c.region), "zone", g.maybe(0.6, c.zone), "provider", g.maybe(0.7, c.provider),
		"tier", c.tier, "env", g.maybe(0.5, pick(g, []string{"prod", "staging"})))
	spec := M("apiEndpoint", "https://"+c.name+".example:6443", "syncMode", "Push",
		"region", g.maybe(0.85, c.region), "provider", g.maybe(0.8, c.provider))
	if g.chance(0.7) {
		spec.Pairs = append(spec.Pairs, &Pair{Key: "zones", Value: L(c.zone)})
	} else if g.chance(0.3) {
		spec.Pairs = append(spec.Pairs, &Pair{Key: "zone", Value: Str(c.zone)})
	}
	if g.chance(0.25) {
		taints := L()
		for i, n := 0, g.between(1, 2); i < n; i++ {
			taints.Items = append(taints.Items, M("key", pick(g, []string{"maintenance", "dedicated", "gpu"}),
				"value", g.maybe(0.6, pick(g, []string{"planned", "ml", "true"})),
				"effect", pick(g, []string{"NoSchedule", "NoExecute", "PreferNoSchedule"})))
		}
		spec.Pairs = append(spec.Pairs, &Pair{Key: "taints", Value: taints})
	}
	var models *modelShape
	if g.chance(0.3) {
		models = g.modelShape()
		spec.Pairs = append(spec.Pairs, &Pair{Key: "resourceModels", Value: models.resourceModels()})
	}
	return M("apiVersion", "cluster.karmada.io/v1alpha1", "kind", "Cluster",
		"metadata", M("name", c.name, "labels", labels), "spec", spec, "status", g.clusterStatus(models))
}

// modelShape is a cluster's resource models: the grade of each of the three models in spec order and the
// allocatableModelings entries (grade, count) the status reports.
type modelShape struct {
	grades    [3]int
	modelings [][2]int
	lastMax   bool // the last model's maxima are MaxInt64, as Karmada's validation asks
}

// modelShape: mostly grades 0, 1, 2 with one entry each, as the cluster-status controller writes them;
// otherwise the shapes Karmada's validation admits or a hand-written Cluster holds (session 29: lint read
// them differently): grades out of order, a grade repeated apart (v1.18 uses its last model), fewer
// entries than models (v1.16/v1.17's scheduler panics), an entry of a grade no model has, one grade
// reported twice (summed), a negative count (v1.18 falls back to the summary).
func (g *gen) modelShape() *modelShape {
	m := &modelShape{grades: [3]int{0, 1, 2}, lastMax: g.chance(0.5)}
	for i := 0; i < 3; i++ {
		m.modelings = append(m.modelings, [2]int{i, g.between(0, 6)})
	}
	if !g.chance(0.35) {
		return m
	}
	switch g.r.IntN(6) {
	case 0:
		m.grades = [3]int{2, 0, 1}
	case 1:
		m.grades = [3]int{0, 1, 0}
	case 2:
		m.modelings = m.modelings[:g.between(1, 2)]
	case 3:
		m.modelings[1][0] = 5
	case 4:
		m.modelings[2][0] = 1
	case 5:
		m.modelings[g.r.IntN(3)][1] = -1
	}
	return m
}

func (m *modelShape) resourceModels() *Node {
	cpu := []string{"0", "1", "4", "16"}
	mem := []string{"0", "4Gi", "16Gi", "64Gi"}
	if m.lastMax {
		cpu[3], mem[3] = "9223372036854775807", "9223372036854775807"
	}
	grades := L()
	for i := 0; i < 3; i++ {
		grades.Items = append(grades.Items, M("grade", m.grades[i], "ranges", L(
			M("name", "cpu", "min", Raw(`"`+cpu[i]+`"`), "max", Raw(`"`+cpu[i+1]+`"`)),
			M("name", "memory", "min", Raw(`"`+mem[i]+`"`), "max", Raw(`"`+mem[i+1]+`"`)))))
	}
	return grades
}

// enable adds kind to the apiEnablements entry of its groupVersion, or a new entry.
func enable(enablements *Node, groupVersion, kind, resource string) {
	for _, e := range enablements.Items {
		if plain(lookup(e, "groupVersion")) == groupVersion {
			rs := lookup(e, "resources")
			rs.Items = append(rs.Items, M("kind", kind, "name", resource))
			return
		}
	}
	enablements.Items = append(enablements.Items, M("groupVersion", groupVersion, "resources", L(M("kind", kind, "name", resource))))
}

func (g *gen) clusterStatus(models *modelShape) *Node {
	status := M()
	if g.chance(0.9) {
		apps := L(M("kind", "Deployment", "name", "deployments"))
		if g.chance(0.1) {
			apps = L(M("kind", "StatefulSet", "name", "statefulsets"))
		} else if g.chance(0.5) {
			apps.Items = append(apps.Items, M("kind", "StatefulSet", "name", "statefulsets"))
		}
		enablements := L(M("groupVersion", "apps/v1", "resources", apps))
		if g.chance(0.5) {
			enablements.Items = append(enablements.Items, M("groupVersion", "kubeflow.org/v1",
				"resources", L(M("kind", "PyTorchJob", "name", "pytorchjobs"))))
		}
		if g.chance(0.6) {
			enablements.Items = append(enablements.Items, M("groupVersion", "batch/v1", "resources", L(M("kind", "Job", "name", "jobs"))))
		}
		if g.chance(0.6) { // with the cluster-scoped kinds of clusterScoped (no draw of their own)
			enablements.Items = append(enablements.Items, M("groupVersion", "v1", "resources",
				L(M("kind", "Pod", "name", "pods"), M("kind", "Namespace", "name", "namespaces"))),
				M("groupVersion", "rbac.authorization.k8s.io/v1", "resources", L(M("kind", "ClusterRole", "name", "clusterroles"))))
		}
		if g.chance(0.4) {
			for i := range otherKinds {
				if k := &otherKinds[i]; g.chance(0.4) {
					enable(enablements, k.apiVersion, k.kind, k.resource)
				}
			}
		}
		status.Pairs = append(status.Pairs, &Pair{Key: "apiEnablements", Value: enablements})
	}
	// Ready True mostly; False, Unknown (the cluster-status controller lost the member) or no Ready
	// condition at all (a cluster just joined) otherwise (issue 36: the generator wrote True or False only).
	ready := "True"
	switch x := g.r.Float64(); {
	case x < 0.06:
		ready = "False"
	case x < 0.09:
		ready = "Unknown"
	case x < 0.12:
		ready = ""
	}
	if ready != "" {
		status.Pairs = append(status.Pairs, &Pair{Key: "conditions", Value: L(M("type", "Ready", "status", Raw(`"`+ready+`"`),
			"reason", "ClusterReady", "lastTransitionTime", Raw(`"2026-11-20T08:00:00Z"`)))})
	}
	if g.chance(0.85) {
		cpu := g.between(2, 64)
		mem := g.between(4, 256)
		// Now and then a pod count past int32 (session 29: maxAvailableReplicas returns int32(), which wraps,
		// and 2^32-1 wraps to -1, the UnauthenticReplica calAvailableReplicas skips).
		pods := "110"
		if g.chance(0.02) {
			pods = pick(g, []string{"2147483648", "4294967295", "4294967299"})
		}
		summary := M("allocatable", M("cpu", Raw(fmt.Sprintf(`"%d"`, cpu)), "memory", fmt.Sprintf("%dGi", mem),
			"pods", Raw(`"`+pods+`"`), "nvidia.com/gpu", g.maybe(0.2, Raw(fmt.Sprintf(`"%d"`, g.between(0, 16))))),
			"allocated", M("cpu", fmt.Sprintf("%dm", g.between(0, cpu*1000)), "memory", fmt.Sprintf("%dGi", g.between(0, mem)),
				"pods", Raw(fmt.Sprintf(`"%d"`, g.between(0, 110)))),
			"allocating", g.maybe(0.2, M("cpu", fmt.Sprintf("%dm", g.between(0, 2000)))))
		if models != nil {
			modelings := L()
			for _, e := range models.modelings {
				modelings.Items = append(modelings.Items, M("grade", e[0], "count", e[1]))
			}
			summary.Pairs = append(summary.Pairs, &Pair{Key: "allocatableModelings", Value: modelings})
		}
		status.Pairs = append(status.Pairs, &Pair{Key: "resourceSummary", Value: summary})
	}
	return status
}

func (g *gen) requests() *Node {
	return M("cpu", pick(g, []string{"100m", "250m", "500m", "1", "2", "4"}),
		"memory", pick(g, []string{"128Mi", "512Mi", "1Gi", "4Gi", "16Gi"}),
		"nvidia.com/gpu", g.maybe(0.1, g.between(1, 2)))
}

func (g *gen) workloadObject(w workload) *Node {
	meta := M("name", w.name, "namespace", w.namespace, "labels", M("app", w.name, "tier", pick(g, tiers)),
		"uid", g.maybe(0.5, fmt.Sprintf("00000000-0000-4000-8000-%012d", g.r.IntN(1000000))))
	pod := func() *Node {
		if g.estimator {
			spec := M("containers", L(M("name", "main", "image", "registry.example/app:1", "resources", M("requests", g.estimatorRequests()))))
			g.nodeClaim(spec)
			g.podShape(spec)
			return M("metadata", M("labels", M("app", w.name)), "spec", spec)
		}
		spec := M("containers", L(M("name", "main", "image", "registry.example/app:1", "resources", M("requests", g.requests()))))
		g.podShape(spec)
		return M("metadata", M("labels", M("app", w.name)), "spec", spec)
	}
	if w.shape != nil {
		return M("apiVersion", w.apiVersion, "kind", w.kind, "metadata", meta, "spec", w.shape.spec(g, pod))
	}
	if w.components {
		return M("apiVersion", w.apiVersion, "kind", w.kind, "metadata", meta, "spec", M("pytorchReplicaSpecs", M(
			"Master", M("replicas", 1, "template", pod()),
			"Worker", M("replicas", g.between(1, 4), "template", pod()))))
	}
	switch w.kind {
	case "Pod": // one replica, its own spec the pod template's
		return M("apiVersion", w.apiVersion, "kind", w.kind, "metadata", meta, "spec", lookup(pod(), "spec"))
	case "Job": // replicas from parallelism (1 when unset), bounded by the completions left
		return M("apiVersion", w.apiVersion, "kind", w.kind, "metadata", meta, "spec", M(
			"parallelism", g.maybe(0.8, g.between(0, 8)), "completions", g.maybe(0.4, g.between(1, 10)),
			"template", pod()))
	}
	return M("apiVersion", w.apiVersion, "kind", w.kind, "metadata", meta, "spec", M(
		"replicas", g.maybe(0.95, g.between(0, 12)),
		"selector", M("matchLabels", M("app", w.name)), "template", pod()))
}

func (g *gen) policy(i int) *Node {
	target := pick(g, g.workloads)
	cluster := g.chance(0.2) && (!g.packed || g.scopedCPP)
	return g.policyOf(cluster, g.policyName(i, cluster), target, g.selectors(target, cluster))
}

// policyName is policy-I; a scoped ClusterPropagationPolicy of a packed sub-case is sJ-policy-I (cluster
// policies share one name space across the pack).
func (g *gen) policyName(i int, cluster bool) string {
	if cluster && g.scopedCPP {
		return strings.TrimSuffix(g.namespaceList()[0], "-a") + "-policy-" + itoa(i)
	}
	return fmt.Sprintf("policy-%d", i)
}

// selectors are 1-2 resource selectors, the first of target, by name or by its app label; a scoped
// ClusterPropagationPolicy's name each workload's namespace.
func (g *gen) selectors(target workload, cluster bool) *Node {
	selectors := L()
	for j, n := 0, g.between(1, 2); j < n; j++ {
		w := target
		if j > 0 {
			w = pick(g, g.workloads)
		}
		var ns any
		if cluster && g.scopedCPP || !cluster && g.chance(0.2) {
			// A PropagationPolicy's selector may name a namespace too: its own, or (the second selector's
			// workload) another one, which v1.17+ denies and v1.16 admits.
			ns = w.namespace
		}
		switch x := g.r.Float64(); {
		case x < 0.7:
			selectors.Items = append(selectors.Items, M("apiVersion", w.apiVersion, "kind", w.kind, "namespace", ns, "name", w.name))
		case x < 0.9:
			selectors.Items = append(selectors.Items, M("apiVersion", w.apiVersion, "kind", w.kind, "namespace", ns,
				"labelSelector", M("matchLabels", M("app", w.name))))
		default: // set-based: In the app, NotIn another's (a template without the label matches too), Exists
			expr := M("key", "app", "operator", "In", "values", L(w.name))
			switch g.r.IntN(3) {
			case 1:
				expr = M("key", "app", "operator", "NotIn", "values", L(pick(g, g.workloads).name))
			case 2:
				expr = M("key", "app", "operator", "Exists")
			}
			selectors.Items = append(selectors.Items, M("apiVersion", w.apiVersion, "kind", w.kind, "namespace", ns,
				"labelSelector", M("matchExpressions", L(expr))))
		}
	}
	return selectors
}

// policyOf is a policy of either kind with the given selectors and a placement drawn for target.
func (g *gen) policyOf(cluster bool, name string, target workload, selectors *Node) *Node {
	kind, ns := "PropagationPolicy", any(target.namespace)
	if cluster {
		kind, ns = "ClusterPropagationPolicy", nil
	}
	spec := M("resourceSelectors", selectors, "priority", g.maybe(0.3, g.between(0, 10)),
		"preemption", g.maybe(0.2, pick(g, []string{"Always", "Never"})), "placement", g.placement(target))
	g.specExtras(spec)
	return M("apiVersion", "policy.karmada.io/v1alpha1", "kind", kind,
		"metadata", M("name", name, "namespace", ns), "spec", spec)
}

func (g *gen) placement(target workload) *Node {
	p := M()
	add := func(k string, v *Node) { p.Pairs = append(p.Pairs, &Pair{Key: k, Value: v}) }
	overflow := false
	switch x := g.r.Float64(); {
	case x < 0.35:
		add("clusterAffinity", g.affinity())
	case x < 0.9:
		groups := L()
		for i, n := 0, g.between(1, 3); i < n; i++ {
			term := g.affinity()
			name := fmt.Sprintf("group-%d", i)
			if g.chance(0.04) {
				name = "group-0"
			}
			term.Pairs = append([]*Pair{{Key: "affinityName", Value: Str(name)}}, term.Pairs...)
			if g.chance(0.3) {
				overflow = true
				tiers := L()
				for j, m := 0, g.between(1, 2); j < m; j++ {
					t := g.affinity()
					t.Pairs = append([]*Pair{{Key: "affinityName", Value: Str(fmt.Sprintf("%s-burst-%d", name, j))}}, t.Pairs...)
					tiers.Items = append(tiers.Items, t)
				}
				term.Pairs = append(term.Pairs, &Pair{Key: "overflowAffinities", Value: tiers})
			}
			groups.Items = append(groups.Items, term)
		}
		add("clusterAffinities", groups)
	}
	if g.chance(0.3) {
		tol := L()
		for i, n := 0, g.between(1, 2); i < n; i++ {
			if g.chance(0.5) {
				tol.Items = append(tol.Items, M("key", pick(g, []string{"maintenance", "dedicated", "gpu"}), "operator", "Exists",
					"effect", g.maybe(0.5, pick(g, []string{"NoSchedule", "NoExecute"}))))
			} else {
				tol.Items = append(tol.Items, M("key", pick(g, []string{"maintenance", "dedicated"}), "operator", "Equal",
					"value", pick(g, []string{"planned", "ml"}), "effect", pick(g, []string{"NoSchedule", "NoExecute"}),
					"tolerationSeconds", g.maybe(0.2, g.between(0, 300))))
			}
		}
		add("clusterTolerations", tol)
	}
	if target.components && g.chance(0.6) {
		add("spreadConstraints", L(M("spreadByField", "cluster", "minGroups", 1, "maxGroups", 1)))
	} else if g.chance(0.3) {
		add("spreadConstraints", g.spread())
	}
	if g.chance(0.85) {
		add("replicaScheduling", g.replicaScheduling(overflow))
	}
	return p
}

func (g *gen) spread() *Node {
	out := L()
	fields := []string{"cluster", "region", "zone", "provider"}
	for i, n := 0, g.between(1, 2); i < n; i++ {
		minG := g.between(0, 3)
		c := M("minGroups", g.maybe(0.9, minG), "maxGroups", g.maybe(0.8, minG+g.between(-1, 2)))
		switch x := g.r.Float64(); {
		case x < 0.8:
			c.Pairs = append([]*Pair{{Key: "spreadByField", Value: Str(pick(g, fields))}}, c.Pairs...)
		case x < 0.92:
			c.Pairs = append([]*Pair{{Key: "spreadByLabel", Value: Str(pick(g, []string{"tier", "env"}))}}, c.Pairs...)
		} // else neither: the webhook defaults spreadByField cluster; a binding carries it without one
		out.Items = append(out.Items, c)
	}
	return out
}

func (g *gen) replicaScheduling(overflow bool) *Node {
	x := g.r.Float64()
	if overflow && g.chance(0.7) {
		x = 0.95
	}
	switch {
	case x < 0.2:
		return M("replicaSchedulingType", "Duplicated")
	case x < 0.4:
		return M("replicaSchedulingType", "Divided", "replicaDivisionPreference", "Aggregated")
	case x < 0.65:
		weights := L()
		for i, n := 0, g.between(1, 3); i < n; i++ {
			weights.Items = append(weights.Items, M("targetCluster", g.affinity(), "weight", g.between(1, 5)))
		}
		return M("replicaSchedulingType", "Divided", "replicaDivisionPreference", "Weighted",
			"weightPreference", M("staticWeightList", weights))
	case x < 0.7:
		return M("replicaSchedulingType", "Divided")
	}
	return M("replicaSchedulingType", "Divided", "replicaDivisionPreference", "Weighted",
		"weightPreference", M("dynamicWeight", "AvailableReplicas"))
}

// affinity is a cluster affinity term: names, a label selector, a field selector, exclusions.
func (g *gen) affinity() *Node {
	t := M()
	add := func(k string, v *Node) { t.Pairs = append(t.Pairs, &Pair{Key: k, Value: v}) }
	if g.chance(0.6) {
		var names []string
		for _, c := range g.clusters {
			if g.chance(0.5) {
				names = append(names, c.name)
			}
		}
		if g.chance(0.08) {
			names = append(names, "member99")
		}
		add("clusterNames", node(names))
	}
	if g.chance(0.3) {
		if g.chance(0.6) {
			add("labelSelector", M("matchLabels", M(pick(g, []string{"region", "provider", "tier"}),
				pick(g, append(append(regions[:1:1], providers[:2]...), tiers...)))))
		} else {
			add("labelSelector", M("matchExpressions", L(M("key", pick(g, []string{"region", "tier", "env"}),
				"operator", pick(g, []string{"In", "NotIn", "Exists", "DoesNotExist"}), "values", g.maybe(0.8, []string{pick(g, tiers)})))))
		}
	}
	if g.chance(0.2) {
		key := pick(g, []string{"provider", "region", "zone"})
		vals := map[string][]string{"provider": providers, "region": regions, "zone": {"cn-east-a", "us-west-b"}}[key]
		add("fieldSelector", M("matchExpressions", L(M("key", key, "operator", pick(g, []string{"In", "NotIn"}),
			"values", []string{pick(g, vals)}))))
	}
	if g.chance(0.15) {
		add("exclude", node([]string{pick(g, g.clusters).name}))
	}
	return t
}

// hostile rewrites one file the way real YAML goes wrong or gets clever.
func (g *gen) hostile(f *File) {
	d := pick(g, f.Docs)
	maps := collectMaps(d.Root)
	switch g.r.IntN(8) {
	case 0: // a duplicate key
		m := pick(g, maps)
		if len(m.Pairs) > 0 {
			p := pick(g, m.Pairs)
			m.Pairs = append(m.Pairs, &Pair{Key: p.Key, Value: cloneNode(p.Value)})
		}
	case 1: // an anchor on a collection, an alias to it later
		g.alias(d.Root)
	case 2: // a merge key
		g.merge(d.Root, maps)
	case 3: // a tab-indented comment line
		m := pick(g, maps)
		if len(m.Pairs) > 0 {
			pick(g, m.Pairs).Comment = "\t# " + pick(g, []string{"note", "status: old"})
		}
	case 4: // a tab between key and value
		m := pick(g, maps)
		if len(m.Pairs) > 0 {
			pick(g, m.Pairs).TabSep = true
		}
	case 5, 6: // an odd scalar
		g.oddScalar(d.Root)
	case 7: // document markers
		f.Start, f.EmptyFirst, f.BOM = g.chance(0.5), g.chance(0.3), g.chance(0.2)
		d.End = g.chance(0.5)
	}
}

func collectMaps(n *Node) []*Node {
	var out []*Node
	var walk func(*Node)
	walk = func(n *Node) {
		switch n.Kind {
		case Map:
			out = append(out, n)
			for _, p := range n.Pairs {
				walk(p.Value)
			}
		case List:
			for _, it := range n.Items {
				walk(it)
			}
		}
	}
	walk(n)
	return out
}

// slots are the pairs of a tree in document order.
func slots(n *Node) []*Pair {
	var out []*Pair
	var walk func(*Node)
	walk = func(n *Node) {
		switch n.Kind {
		case Map:
			for _, p := range n.Pairs {
				out = append(out, p)
				walk(p.Value)
			}
		case List:
			for _, it := range n.Items {
				walk(it)
			}
		}
	}
	walk(n)
	return out
}

func contains(tree, n *Node) bool {
	if tree == n {
		return true
	}
	for _, p := range tree.Pairs {
		if contains(p.Value, n) {
			return true
		}
	}
	for _, it := range tree.Items {
		if contains(it, n) {
			return true
		}
	}
	return false
}

func (g *gen) anchor(n *Node) string {
	if n.Anchor == "" {
		g.anchors++
		n.Anchor = fmt.Sprintf("a%d", g.anchors)
	}
	return n.Anchor
}

// alias anchors a pair's value and replaces a later pair's value (not inside it) with an alias to it;
// a same-named pair is preferred, so the result is often still a valid object.
func (g *gen) alias(root *Node) {
	ps := slots(root)
	for try := 0; try < 20 && len(ps) > 1; try++ {
		i := g.r.IntN(len(ps) - 1)
		j := i + 1 + g.r.IntN(len(ps)-i-1)
		src, dst := ps[i], ps[j]
		if contains(src.Value, dst.Value) || dst.Value.Kind == Alias || (try < 15 && src.Key != dst.Key) {
			continue
		}
		dst.Value = &Node{Kind: Alias, Raw: g.anchor(src.Value)}
		return
	}
}

// merge anchors a mapping and merges it into a later one with "<<: *anchor".
func (g *gen) merge(root *Node, maps []*Node) {
	if len(maps) < 2 {
		return
	}
	i := g.r.IntN(len(maps) - 1)
	for j := i + 1; j < len(maps); j++ {
		if !contains(maps[i], maps[j]) {
			maps[j].Pairs = append([]*Pair{{Key: "<<", Value: &Node{Kind: Alias, Raw: g.anchor(maps[i])}}}, maps[j].Pairs...)
			return
		}
	}
}

// oddForms are scalars YAML readers disagree on, or that are easy to misread.
var oddForms = []string{"0x0A", "0o17", "017", "1_000", "+3", "3.0", "1e1", "!!str 3", `"3"`, "'3'", "yes", "no", "on", "off",
	"~", "null", "Null", `""`, ".inf", "-.Inf", ".nan", "True", "FALSE", "2026-12-01", "!!binary aGk=", "! 3", "'it''s'",
	`"tab\there"`, `"\u00e9t\u00e9"`, "-", "012345678901234567890", "9223372036854775808", "-0", "0.", "1:2", "#x"}

func (g *gen) oddScalar(root *Node) {
	var scalars []*Pair
	for _, p := range slots(root) {
		if p.Value.Kind == Scalar {
			scalars = append(scalars, p)
		}
	}
	if len(scalars) == 0 {
		return
	}
	p := pick(g, scalars)
	form := pick(g, oddForms)
	if strings.HasPrefix(form, "#") {
		form = p.Value.Raw + " " + form // a comment right after a value
	}
	p.Value = Raw(form)
}

func cloneNode(n *Node) *Node {
	c := *n
	c.Anchor = ""
	c.Items = make([]*Node, len(n.Items))
	for i, it := range n.Items {
		c.Items[i] = cloneNode(it)
	}
	c.Pairs = make([]*Pair, len(n.Pairs))
	for i, p := range n.Pairs {
		cp := *p
		cp.Value = cloneNode(p.Value)
		c.Pairs[i] = &cp
	}
	return &c
}
