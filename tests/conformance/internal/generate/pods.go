package generate

import "math/rand/v2"

// shapeSalt separates the pod-shape stream from the main and side streams: PCG(seed^shapeSalt, stream).
const shapeSalt = 0x5eed_9d5e_0000_0002

// shapeStream is where podShape draws from: a stream of its own, so a seed's other bytes (main and side
// stream alike) stay those it gave before pod shapes were drawn (session 30).
func shapeStream(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed^shapeSalt, stream))
}

// podShape bends a pod template's spec (one container "main" with its requests) into the shapes Karmada's
// replica requirements read and the generator never wrote before session 30: a request given by its limit
// only (AddPodTemplateRequest copies limits into missing requests), a second container (summed), init
// containers (their largest request per resource wins over the sum, a restartPolicy Always sidecar
// included: Karmada does not add it as Kubernetes' scheduler would), pod overhead (added), resources the
// clusters do not report (ephemeral-storage, hugepages, another extended resource), a zero request, and
// quantities spelt unusually ("0.5", "1e3m", "1G", "128974848"). A quarter of the templates, from
// g.shapes (nil: none, as in cases built without a seed).
func (g *gen) podShape(spec *Node) {
	r := g.shapes
	if r == nil || r.Float64() >= 0.25 {
		return
	}
	choose := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	q := func(xs ...string) *Node { return Raw(`"` + choose(xs...) + `"`) }
	cpu := func() *Node { return q("100m", "0.5", "1", "1500m", "1e3m", "2", "250m", "0") }
	mem := func() *Node { return q("128Mi", "1G", "1Gi", "128974848", "512Mi", "4Gi", "0") }
	containers := lookup(spec, "containers")
	main := containers.Items[0]
	resources := lookup(main, "resources")
	for n := 1 + r.IntN(2); n > 0; n-- {
		switch r.IntN(7) {
		case 0: // requests by their limits only, or partly
			requests := lookup(resources, "requests")
			if requests == nil {
				break
			}
			if r.Float64() < 0.5 {
				dropPair(resources, "requests")
				setPair(resources, "limits", requests)
			} else {
				setPair(resources, "limits", M("cpu", cpu(), "memory", mem()))
				dropPair(requests, choose("cpu", "memory"))
			}
		case 1: // a second container
			containers.Items = append(containers.Items, M("name", "second", "image", "registry.example/side:1",
				"resources", M("requests", M("cpu", cpu(), "memory", mem()))))
		case 2, 3: // init containers: one or two, a sidecar now and then
			inits := L()
			for i, k := 0, 1+r.IntN(2); i < k; i++ {
				c := M("name", choose("init", "warm")+string(rune('a'+i)), "image", "registry.example/init:1",
					"resources", M(choose("requests", "limits"), M("cpu", cpu(), "memory", mem())))
				if r.Float64() < 0.3 {
					setPair(c, "restartPolicy", Str("Always"))
				}
				inits.Items = append(inits.Items, c)
			}
			setPair(spec, "initContainers", inits)
		case 4: // pod overhead (a RuntimeClass's, as admission writes it)
			setPair(spec, "overhead", M("cpu", q("50m", "250m", "1"), "memory", q("64Mi", "120Mi", "1Gi")))
		case 5: // a resource the clusters' summaries do not report
			requests := lookup(resources, "requests")
			if requests == nil {
				requests = M()
				setPair(resources, "requests", requests)
			}
			setPair(requests, choose("ephemeral-storage", "hugepages-2Mi", "example.com/fpga"), q("1", "2Mi", "1Gi"))
		case 6: // a zero request, or none at all (best effort)
			if r.Float64() < 0.5 {
				dropPair(main, "resources")
			} else if requests := lookup(resources, "requests"); requests != nil {
				setPair(requests, choose("cpu", "memory"), Raw(`"0"`))
			}
		}
		if resources = lookup(main, "resources"); resources == nil { // best effort: nothing left to bend
			return
		}
	}
}
