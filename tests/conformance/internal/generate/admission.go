package generate

import "strings"

// admissionCase is a policy file alone (no snapshot): 1-3 policies, most made hostile at the field level
// (wrong values, enums, selectors, names, unknown and missing fields) so that the CRD schema, its CEL
// rules, Karmada's mutating and validating webhooks and the API server's metadata checks all get work.
// The YAML stays readable (YAML-level hostility is the plain cases'), so a pack of them is read by both
// binaries in one run.
func (g *gen) admissionCase() *Case {
	g.drawClusters()
	g.drawWorkloads()
	policies := &File{Name: "policies.yaml"}
	for i, n := 0, g.between(1, 3); i < n; i++ {
		p := g.policy(i)
		if g.chance(0.3) {
			g.anyKind(p)
		}
		for k, m := 0, g.between(0, 3); k < m; k++ {
			g.fieldHostile(p)
		}
		policies.Docs = append(policies.Docs, &Doc{Root: p})
	}
	if g.chance(0.1) {
		g.alias(policies.Docs[0].Root)
	} else if g.chance(0.1) {
		g.merge(policies.Docs[0].Root, collectMaps(policies.Docs[0].Root))
	}
	return &Case{Files: []*File{policies}}
}

// anyKind switches a policy between PropagationPolicy and ClusterPropagationPolicy (keeping or dropping
// its namespace), so each kind meets the other's shape.
func (g *gen) anyKind(p *Node) {
	kind := lookup(p, "kind")
	if kind.Raw == "PropagationPolicy" {
		kind.Raw = "ClusterPropagationPolicy"
	} else {
		kind.Raw = "PropagationPolicy"
	}
	if g.chance(0.5) {
		meta := lookup(p, "metadata")
		if ns := lookup(meta, "namespace"); ns == nil {
			meta.Pairs = append(meta.Pairs, &Pair{Key: "namespace", Value: Str(pick(g, g.namespaceList()))})
		} else {
			dropKey(meta, "namespace")
		}
	}
}

func dropKey(m *Node, key string) {
	for i, p := range m.Pairs {
		if p.Key == key {
			m.Pairs = append(m.Pairs[:i:i], m.Pairs[i+1:]...)
			return
		}
	}
}

// setPath sets (adding the mappings on the way) the value at keys under n.
func setPath(n *Node, v *Node, keys ...string) {
	for i, k := range keys {
		var next *Node
		for _, p := range n.Pairs {
			if p.Key == k {
				next = p.Value
			}
		}
		if i == len(keys)-1 {
			for _, p := range n.Pairs {
				if p.Key == k {
					p.Value = v
					return
				}
			}
			n.Pairs = append(n.Pairs, &Pair{Key: k, Value: v})
			return
		}
		if next == nil || next.Kind != Map {
			next = M()
			dropKey(n, k)
			n.Pairs = append(n.Pairs, &Pair{Key: k, Value: next})
		}
		n = next
	}
}

// hostileValues are values that are wrong somewhere (or right in a surprising way) for the key they go to.
var hostileValues = []string{`-1`, `0`, `2147483648`, `"x"`, `""`, `[]`, `{}`, `null`, `1.5`, `true`, `"Bad_Name"`,
	`"a.b"`, `"-lead"`, `"` + strings.Repeat("n", 64) + `"`, `"` + strings.Repeat("n", 254) + `"`, `[a, b]`, `{a: b}`, `"*"`}

// fieldHostile makes one field-level change to a policy.
func (g *gen) fieldHostile(p *Node) {
	switch g.r.IntN(16) {
	case 0: // any scalar gets a hostile value
		var scalars []*Pair
		for _, s := range slots(p) {
			if s.Value.Kind == Scalar && s.Key != "apiVersion" && s.Key != "kind" {
				scalars = append(scalars, s)
			}
		}
		if len(scalars) > 0 {
			pick(g, scalars).Value = Raw(pick(g, hostileValues))
		}
	case 1: // an unknown field somewhere
		m := pick(g, collectMaps(p))
		m.Pairs = append(m.Pairs, &Pair{Key: pick(g, []string{"clusterAfinity", "replica", "extra", "Spec", "names"}), Value: Raw("1")})
	case 2: // a field dropped (not the document's apiVersion or kind: both binaries refuse such a file)
		m := pick(g, collectMaps(p))
		if len(m.Pairs) > 0 && m != p {
			m.Pairs = append(m.Pairs[:0:0], m.Pairs...)
			i := g.r.IntN(len(m.Pairs))
			m.Pairs = append(m.Pairs[:i], m.Pairs[i+1:]...)
		}
	case 3: // an enum out of its set
		key := pick(g, []string{"replicaSchedulingType", "replicaDivisionPreference", "operator", "effect", "spreadByField",
			"preemption", "dynamicWeight", "conflictResolution", "activationPreference", "schedulePriority"})
		val := Raw(pick(g, []string{"Split", "weighted", "Near", "Sometimes", "rack", "Maybe", "Available", "", "Overwrite", "Lazy"}))
		var hit []*Pair
		for _, s := range slots(p) {
			if s.Key == key {
				hit = append(hit, s)
			}
		}
		if len(hit) > 0 {
			pick(g, hit).Value = val
		} else {
			setPath(p, val, "spec", key)
		}
	case 4: // metadata names and labels
		meta := lookup(p, "metadata")
		switch g.r.IntN(4) {
		case 0:
			setPath(meta, Raw(pick(g, []string{`"Bad_Name"`, `""`, `"a..b"`, `"` + strings.Repeat("p", 254) + `"`, `"ok-name"`})), "name")
		case 1:
			setPath(meta, M(pick(g, []string{"bad key/x/y", "app", "-x", strings.Repeat("k", 64)}),
				Raw(pick(g, []string{`"v"`, `"bad value!"`, `""`, `"` + strings.Repeat("v", 64) + `"`}))), "labels")
		case 2:
			setPath(meta, M("note", Raw(`"x"`)), "annotations")
		case 3:
			setPath(meta, Raw(pick(g, []string{`"Bad_NS"`, `"default"`, `""`})), "namespace")
		}
	case 5: // resource selectors
		sel := lookup(p, "spec", "resourceSelectors")
		if sel == nil {
			return
		}
		switch g.r.IntN(5) {
		case 0:
			setPath(p, L(), "spec", "resourceSelectors")
		case 1:
			sel.Items = append(sel.Items, M("kind", "Deployment"))
		case 2:
			sel.Items = append(sel.Items, M("apiVersion", "apps/v1", "kind", "Deployment", "namespace", pick(g, []string{"other", "default", "shop"})))
		case 3:
			sel.Items = append(sel.Items, M("apiVersion", "apps/v1", "kind", "Deployment", "name", "x",
				"labelSelector", M("matchLabels", M("app", "x"))))
		case 4:
			sel.Items = append(sel.Items, M("apiVersion", "v1", "kind", "Namespace", "name", "shop"))
		}
	case 6: // label selector expressions
		op := pick(g, []string{"In", "NotIn", "Exists", "DoesNotExist", "Gt"})
		expr := M("key", pick(g, []string{"region", "bad key!", ""}), "operator", op)
		if g.chance(0.5) {
			expr.Pairs = append(expr.Pairs, &Pair{Key: "values", Value: node(pick(g, [][]string{{}, {"a"}, {"a", "bad value!"}}))})
		}
		setPath(p, M("matchExpressions", L(expr)), "spec", "placement", "clusterAffinity", "labelSelector")
	case 7: // tolerations
		tol := M("key", pick(g, []string{"gpu", "", "bad key!"}), "operator", pick(g, []string{"Exists", "Equal", "In"}),
			"value", g.maybe(0.5, pick(g, []string{"x", "bad value!"})), "effect", g.maybe(0.7, pick(g, []string{"NoSchedule", "NoExecute", "PreferNoSchedule", "Never"})),
			"tolerationSeconds", g.maybe(0.3, g.between(-5, 60)))
		setPath(p, L(tol), "spec", "placement", "clusterTolerations")
	case 8: // spread constraints
		c := M("spreadByField", g.maybe(0.7, pick(g, []string{"cluster", "region", "zone", "provider", "rack"})),
			"spreadByLabel", g.maybe(0.3, pick(g, []string{"tier", "bad key!"})),
			"minGroups", g.maybe(0.8, g.between(-1, 4)), "maxGroups", g.maybe(0.8, g.between(-1, 4)))
		list := L(c)
		if g.chance(0.3) {
			list.Items = append(list.Items, M("spreadByField", pick(g, []string{"cluster", "region"}), "maxGroups", 1))
		}
		setPath(p, list, "spec", "placement", "spreadConstraints")
	case 9: // weights
		w := L(M("targetCluster", M("clusterNames", L(pick(g, []string{"member1", "member2"}))), "weight", g.between(-1, 3)))
		if g.chance(0.3) {
			w.Items = append(w.Items, M("targetCluster", M(), "weight", 1))
		}
		setPath(p, M("replicaSchedulingType", "Divided", "replicaDivisionPreference", "Weighted",
			"weightPreference", M("staticWeightList", w, "dynamicWeight", g.maybe(0.4, "AvailableReplicas"))), "spec", "placement", "replicaScheduling")
	case 10: // affinity groups: duplicates, empty names, both forms
		groups := L()
		for i, n := 0, g.between(0, 3); i < n; i++ {
			groups.Items = append(groups.Items, M("affinityName", pick(g, []string{"g0", "g0", "g1", "", "Bad Name"}),
				"clusterNames", L("member1")))
		}
		setPath(p, groups, "spec", "placement", "clusterAffinities")
		if g.chance(0.4) {
			setPath(p, M("clusterNames", L("member2")), "spec", "placement", "clusterAffinity")
		}
	case 11: // priorities and preemption
		setPath(p, Raw(pick(g, []string{"-1", "0", "1000", "2147483647", `"5"`})), "spec", "priority")
		if g.chance(0.5) {
			setPath(p, Raw(pick(g, []string{"Always", "Never", "always"})), "spec", "preemption")
		}
	case 12: // failover and eviction; every purgeMode of the CRD enum, the deprecated Immediately and Graciously too
		setPath(p, M("application", M("decisionConditions", M("tolerationSeconds", g.between(-1, 600)),
			"purgeMode", g.maybe(0.7, pick(g, []string{"Directly", "Gracefully", "Never", "Immediately", "Graciously", "Bad"})),
			"gracePeriodSeconds", g.maybe(0.5, g.between(-1, 600)),
			"statePreservation", g.maybe(0.3, M("rules", L(M("aliasLabelName", pick(g, []string{"a", ""}), "jsonPath", pick(g, []string{"{.x}", "", "x"})))))),
			"cluster", g.maybe(0.3, M("purgeMode", pick(g, []string{"Directly", "Gracefully", "Immediately", "Bad"})))), "spec", "failover")
	case 13: // the other spec switches
		key := pick(g, []string{"propagateDeps", "conflictResolution", "activationPreference", "suspension", "schedulerName",
			"dependentOverrides", "preserveResourcesOnDeletion", "association"})
		val := map[string]*Node{
			"propagateDeps": Raw(pick(g, []string{"true", "false", `"yes"`})), "conflictResolution": Raw(pick(g, []string{"Abort", "Overwrite", "Merge"})),
			"activationPreference": Raw(pick(g, []string{"Lazy", "", "Eager"})), "suspension": M("dispatching", g.chance(0.5), "dispatchingOnClusters", g.maybe(0.5, M("clusterNames", L("member1")))),
			"schedulerName": Raw(pick(g, []string{"default-scheduler", "", "other"})), "dependentOverrides": L(pick(g, []string{"ov-1", ""})),
			"preserveResourcesOnDeletion": Raw(pick(g, []string{"true", "1"})), "association": Raw("true"),
		}[key]
		setPath(p, val, "spec", key)
	case 14: // spec or placement of the wrong shape
		switch g.r.IntN(4) {
		case 0:
			setPath(p, L("x"), "spec", "placement")
		case 1:
			setPath(p, Raw(`"x"`), "spec", "resourceSelectors")
		case 2:
			dropKey(p, "spec")
		case 3:
			setPath(p, Raw("null"), "spec", "placement", "replicaScheduling")
		}
	case 15: // the apiVersion
		setPath(p, Raw(pick(g, []string{"policy.karmada.io/v1alpha1", "apps/v1"})), "apiVersion")
	}
}
