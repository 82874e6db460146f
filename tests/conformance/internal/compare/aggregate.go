package compare

import (
	"regexp"
	"strings"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

// Render is one error entry as the user reads it: field.Error's "<field>: <body>"; an entry without a
// field or with the API server's own reason (BadRequest: a strict decoding error, whose text names the
// field itself) is its message alone.
func Render(e report.FieldError) string {
	if e.Field == "" || e.Reason == "BadRequest" {
		return e.Message
	}
	return e.Field + ": " + e.Message
}

// Aggregate renders error entries as field.ErrorList.ToAggregate().Error() does: messages already
// seen are dropped, one message is bare, several are "[m1, m2]", none is "".
func Aggregate(errs []report.FieldError) string {
	seen := map[string]bool{}
	var msgs []string
	for _, e := range errs {
		m := Render(e)
		if seen[m] {
			continue
		}
		seen[m] = true
		msgs = append(msgs, m)
	}
	switch len(msgs) {
	case 0:
		return ""
	case 1:
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// strictDecoding is the API server's text for a body with unknown or duplicate fields under
// fieldValidation=Strict (endpoints/handlers transformDecodeError around runtime.strictDecodingError).
var strictDecoding = regexp.MustCompile(`^(.* cannot be handled as a [A-Za-z]+: strict decoding error: )(.*)$`)

// LintMessage is the message `kubectl apply` would print for lint's errors: the strict decoding
// entries (lint gives one per field, each worded as if alone) joined into the one error the API server
// stops at, "<prefix>: strict decoding error: e1, e2" (no brackets, no deduplication, as
// strictDecodingError.Error()); otherwise the field errors' aggregate.
func LintMessage(errs []report.FieldError) string {
	prefix := ""
	var parts []string
	for _, e := range errs {
		if e.Reason != "BadRequest" {
			continue
		}
		m := strictDecoding.FindStringSubmatch(e.Message)
		if m == nil {
			continue
		}
		if prefix == "" {
			prefix = m[1]
		}
		parts = append(parts, m[2])
	}
	if prefix != "" {
		return prefix + strings.Join(parts, ", ")
	}
	return Aggregate(errs)
}

// invalidPrefix is the API server's wrapping of a field.ErrorList (apierrors.NewInvalid):
// `<Kind>.<group> "<name>" is invalid: <aggregate>`, the name quoted as Go's %q quotes it (a quote in
// the name is \", a backslash \\).
var invalidPrefix = regexp.MustCompile(`^[A-Za-z]+\.[a-z0-9.-]+ "(?:[^"\\]|\\.)*" is invalid: `)

// KarmadaMessage is the denial text the oracle reports, reduced to the field errors' aggregate: the
// admission message without the API server's "<Kind>.<group> "<name>" is invalid: " wrapping (the
// schema stage), or the aggregate of its errors when it printed no admission object.
func KarmadaMessage(r *Result) string {
	if r.Admission == nil {
		return Aggregate(r.Errors)
	}
	return invalidPrefix.ReplaceAllString(r.Admission.Message, "")
}
