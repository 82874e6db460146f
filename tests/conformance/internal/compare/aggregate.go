package compare

import (
	"regexp"
	"strings"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

// Aggregate renders field errors as field.ErrorList.ToAggregate().Error() does: messages already seen
// are dropped, one message is bare, several are "[m1, m2]", none is "".
func Aggregate(errs []report.FieldError) string {
	seen := map[string]bool{}
	var msgs []string
	for _, e := range errs {
		if seen[e.Message] {
			continue
		}
		seen[e.Message] = true
		msgs = append(msgs, e.Message)
	}
	switch len(msgs) {
	case 0:
		return ""
	case 1:
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// invalidPrefix is the API server's wrapping of a field.ErrorList (apierrors.NewInvalid):
// `<Kind>.<group> "<name>" is invalid: <aggregate>`.
var invalidPrefix = regexp.MustCompile(`^[A-Za-z]+\.[a-z0-9.-]+ "[^"]*" is invalid: `)

// KarmadaMessage is the denial text the oracle reports, reduced to the field errors' aggregate: the
// admission message without the API server's "<Kind>.<group> "<name>" is invalid: " wrapping (the
// schema stage), or the aggregate of its errors when it printed no admission object.
func KarmadaMessage(r *Result) string {
	if r.Admission == nil {
		return Aggregate(r.Errors)
	}
	return invalidPrefix.ReplaceAllString(r.Admission.Message, "")
}
