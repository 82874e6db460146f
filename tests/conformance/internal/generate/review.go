package generate

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// Review is one POST to a validating webhook: what kube-apiserver sends `serve` and karmada-webhook.
type Review struct {
	Path        string
	ContentType string
	Body        []byte
}

// Validating webhook paths (karmada-webhook's, and serve's).
const (
	reviewPathPP  = "/validate-propagationpolicy"
	reviewPathCPP = "/validate-clusterpropagationpolicy"
)

// GenerateReview is review number index of the batch seeded with seed. Most are what kube-apiserver sends
// a validating webhook for a policy it has decoded, defaulted and mutated: CREATE (a third) or UPDATE (the
// rest) with the stored object as oldObject. The policy is the admission kind's (hostile fields included,
// so decoding fails as Karmada's decoder fails); an UPDATE changes or keeps schedulerName and the
// permanent-id label, the two fields Karmada's validateUpdate guards, and sometimes the whole spec. A
// tenth bend the envelope the way no kube-apiserver does but a client might: another review apiVersion,
// a review of the other kind or a namespace other than the object's, an oldObject that is null, absent
// or no object, no uid.
func GenerateReview(seed uint64, index int) Review {
	g := &gen{r: rand.New(rand.NewPCG(seed^reviewSalt, uint64(index)))}
	g.drawClusters()
	g.drawWorkloads()
	object, kind := g.reviewObject(0)
	path := reviewPathPP
	if kind == "ClusterPropagationPolicy" {
		path = reviewPathCPP
	}
	// kube-apiserver's request.name is the object's name as it decoded it ("" when that is no string).
	name, _, _ := unstructured.NestedString(object, "metadata", "name")
	req := map[string]any{
		"uid":       fmt.Sprintf("7d3c2b1a-%04x-4000-8000-%012x", index&0xffff, g.r.Uint64()&0xffffffffffff),
		"kind":      map[string]any{"group": "policy.karmada.io", "version": "v1alpha1", "kind": kind},
		"resource":  map[string]any{"group": "policy.karmada.io", "version": "v1alpha1", "resource": plural(kind)},
		"name":      name,
		"operation": "CREATE",
		"userInfo":  map[string]any{"username": "kubernetes-admin", "groups": []any{"system:masters", "system:authenticated"}},
		"object":    object,
		"dryRun":    g.chance(0.05),
		"options":   map[string]any{"kind": "CreateOptions", "apiVersion": "meta.k8s.io/v1", "fieldManager": "kubectl-client-side-apply"},
	}
	if ns, found, err := unstructured.NestedString(object, "metadata", "namespace"); found && err == nil && kind == "PropagationPolicy" {
		req["namespace"] = ns
	}
	if g.chance(0.65) {
		req["operation"] = "UPDATE"
		req["options"] = map[string]any{"kind": "UpdateOptions", "apiVersion": "meta.k8s.io/v1", "fieldManager": "kubectl-client-side-apply"}
		req["oldObject"] = g.oldObject(object, kind)
	}
	review := map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": req}
	if g.chance(0.1) {
		g.bendEnvelope(review, req, &path)
	}
	body, err := json.Marshal(review)
	if err != nil {
		panic(err) // maps of JSON values only
	}
	return Review{Path: path, ContentType: "application/json", Body: body}
}

// reviewSalt keeps review streams apart from the case streams of the same seed.
const reviewSalt = 0x7e51_e3a1_0000_0002

// reviewObject is a policy as kube-apiserver hands it to a validating webhook: the admission kind's
// policy (hostile in half of them), read as kubectl reads YAML, with what the server adds (uid,
// generation, the permanent-id label Karmada's mutating webhook sets, nearly always). A policy whose
// hostility leaves no object (a scalar where the document was) is drawn again without it.
func (g *gen) reviewObject(i int) (map[string]any, string) {
	for {
		p := g.policy(i)
		if g.chance(0.5) {
			for k, m := 0, g.between(1, 3); k < m; k++ {
				g.fieldHostile(p)
			}
		}
		f := &File{Docs: []*Doc{{Root: p}}}
		raw, err := yaml.YAMLToJSON(f.Bytes())
		var object map[string]any
		if err != nil || json.Unmarshal(raw, &object) != nil || object == nil {
			continue
		}
		kind, _ := object["kind"].(string)
		if kind != "PropagationPolicy" && kind != "ClusterPropagationPolicy" {
			kind = "PropagationPolicy"
		}
		// The resource's group, version and kind, as kube-apiserver sends every object it has decoded.
		object["apiVersion"], object["kind"] = "policy.karmada.io/v1alpha1", kind
		meta, ok := object["metadata"].(map[string]any)
		if !ok {
			meta = map[string]any{}
			object["metadata"] = meta
		}
		meta["uid"] = fmt.Sprintf("5b1e0c2d-0000-4000-8000-%012x", g.r.Uint64()&0xffffffffffff)
		meta["generation"] = int64(1)
		if kind == "PropagationPolicy" {
			if _, ok := meta["namespace"]; !ok {
				meta["namespace"] = "default" // kube-apiserver sets the request's namespace
			}
		}
		if g.chance(0.9) {
			labels, ok := meta["labels"].(map[string]any)
			if !ok {
				labels = map[string]any{}
				meta["labels"] = labels
			}
			labels[permanentIDLabel(kind)] = g.permanentID()
		}
		return object, kind
	}
}

func permanentIDLabel(kind string) string {
	if kind == "ClusterPropagationPolicy" {
		return "clusterpropagationpolicy.karmada.io/permanent-id"
	}
	return "propagationpolicy.karmada.io/permanent-id"
}

func (g *gen) permanentID() string {
	return fmt.Sprintf("9a8b7c6d-%04x-4000-8000-%012x", g.r.IntN(4), g.r.IntN(4))
}

func plural(kind string) string {
	if kind == "ClusterPropagationPolicy" {
		return "clusterpropagationpolicies"
	}
	return "propagationpolicies"
}

// oldObject is the stored version an UPDATE replaces: the new object with, drawn independently, another
// spec, schedulerName and permanent-id label; sometimes not decodable at all.
func (g *gen) oldObject(object map[string]any, kind string) any {
	old := runtime.DeepCopyJSON(object)
	if g.chance(0.25) {
		other, _ := g.reviewObject(1)
		old["spec"] = other["spec"]
	}
	spec, ok := old["spec"].(map[string]any)
	if !ok {
		spec = map[string]any{}
		old["spec"] = spec
	}
	switch x := g.r.Float64(); {
	case x < 0.15:
		delete(spec, "schedulerName")
	case x < 0.3:
		spec["schedulerName"] = pick(g, []string{"default-scheduler", "other-scheduler", ""})
	}
	meta, _ := old["metadata"].(map[string]any)
	if meta != nil {
		labels, _ := meta["labels"].(map[string]any)
		switch x := g.r.Float64(); {
		case x < 0.1 && labels != nil:
			delete(labels, permanentIDLabel(kind))
		case x < 0.2:
			if labels == nil {
				labels = map[string]any{}
				meta["labels"] = labels
			}
			labels[permanentIDLabel(kind)] = pick(g, []string{g.permanentID(), ""})
		}
	}
	switch x := g.r.Float64(); {
	case x < 0.03:
		return nil
	case x < 0.05:
		return pick(g, []any{"a string", []any{1}, 3})
	case x < 0.08:
		spec["priority"] = "high" // the stored object cannot decode into Karmada's type
	}
	return old
}

// bendEnvelope makes the review one kube-apiserver would not send (see GenerateReview).
func (g *gen) bendEnvelope(review, req map[string]any, path *string) {
	switch g.r.IntN(7) {
	case 0:
		review["apiVersion"] = "admission.k8s.io/v1beta1"
	case 1: // posted to the other kind's path
		if *path == reviewPathPP {
			*path = reviewPathCPP
		} else {
			*path = reviewPathPP
		}
	case 2: // the request names the other kind
		k := req["kind"].(map[string]any)
		if k["kind"] == "PropagationPolicy" {
			k["kind"] = "ClusterPropagationPolicy"
		} else {
			k["kind"] = "PropagationPolicy"
		}
	case 3:
		req["namespace"] = pick(g, []string{"other", "", "kube-system"})
	case 4:
		delete(req, "uid")
	case 5:
		if _, ok := req["oldObject"]; ok {
			delete(req, "oldObject")
		} else {
			req["operation"] = "UPDATE"
		}
	case 6:
		delete(req, "object")
	}
}
