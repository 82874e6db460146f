package generate

// Minimise shrinks c in place while still(c) holds: it drops the extra flags, whole documents, list
// items and mapping pairs, largest first, and starts over after each success. It spends at most budget
// calls of still and returns how many it spent.
func Minimise(c *Case, budget int, still func(*Case) bool) int {
	spent := 0
	// After a success the edits are enumerated again from the one that succeeded: those before it
	// failed and mostly still would; one more pass from the start confirms nothing is left.
	for start, progress := 0, true; spent < budget && (progress || start > 0); {
		if !progress {
			start = 0
		}
		progress = false
		list := edits(c)
		for i := start; i < len(list) && spent < budget; i++ {
			list[i].apply()
			spent++
			if still(c) {
				progress, start = true, i
				break // the edit list is stale: enumerate again
			}
			list[i].undo()
		}
		if !progress && start == 0 {
			break
		}
	}
	return spent
}

type edit struct{ apply, undo func() }

// edits lists every single removal, outermost first.
func edits(c *Case) []edit {
	var out []edit
	if len(c.Args) > 0 {
		args := c.Args
		out = append(out, edit{func() { c.Args = nil }, func() { c.Args = args }})
	}
	for _, f := range c.Files {
		if len(f.Docs) > 1 {
			for i := range f.Docs {
				out = append(out, removeAt(&f.Docs, i))
			}
		}
	}
	for _, f := range c.Files {
		for _, d := range f.Docs {
			out = append(out, nodeEdits(d.Root)...)
		}
	}
	return out
}

func nodeEdits(n *Node) []edit {
	var out []edit
	switch n.Kind {
	case Map:
		for i := range n.Pairs {
			out = append(out, removeAt(&n.Pairs, i))
		}
		for _, p := range n.Pairs {
			out = append(out, nodeEdits(p.Value)...)
		}
	case List:
		for i := range n.Items {
			out = append(out, removeAt(&n.Items, i))
		}
		for _, it := range n.Items {
			out = append(out, nodeEdits(it)...)
		}
	}
	return out
}

func removeAt[T any](s *[]T, i int) edit {
	var saved []T
	return edit{
		apply: func() {
			saved = append([]T{}, *s...)
			*s = append(append([]T{}, (*s)[:i]...), (*s)[i+1:]...)
		},
		undo: func() { *s = saved },
	}
}
