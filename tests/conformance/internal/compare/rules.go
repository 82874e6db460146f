package compare

// Rule is one intentional difference (docs/conformance.md): a named, narrow test on one differing key.
type Rule struct {
	Name string
	// Flag is the lint flag (or behaviour) the difference belongs to.
	Flag string
	// Explains reports whether the rule covers this difference.
	Explains func(d Diff, ctx ruleContext) bool
}

// ruleContext is what a rule may look at besides the difference: both outputs (nil before parsing).
type ruleContext struct {
	lint, karmada *Output
}

// result finds the result of a difference in an output.
func (c ruleContext) result(out *Output, d Diff) *Result {
	if out == nil {
		return nil
	}
	for i := range out.Results {
		if out.Results[i].File == d.File && out.Results[i].Document == d.Document {
			return &out.Results[i]
		}
	}
	return nil
}

func explain(rules []Rule, d Diff, ctx ruleContext) string {
	for _, r := range rules {
		if r.Explains(d, ctx) {
			return r.Name
		}
	}
	return ""
}

// Intentional is the list of intentional differences the comparison accepts.
var Intentional = []Rule{}

// ComparedFlags are given to both binaries before every case's own arguments: Karmada's overflow rule
// (Divided + Aggregated allowed) instead of the seeds' stricter one, so the rule itself is compared.
var ComparedFlags = []string{"--allow-aggregated-overflow"}
