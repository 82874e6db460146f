package compare

import (
	"encoding/json"
	"strings"
)

// Karmada's own code panics on some inputs its webhook would deny but that reach it some other way
// (karmada-scheduler v1.18.2 on a binding whose cluster spread constraint has maxGroups < 0). The
// oracle then has no answer, but Karmada's behaviour is known: the crash. lint predicts it (warning
// binding-crashes-scheduler, or karmadaPanic on a scheduling entry) with Go's runtime error.

// runtimePanic is the Go runtime error of an oracle that panicked inside Karmada's code ("runtime error:
// slice bounds out of range [:-1]"), or "" for any other failure.
func runtimePanic(failed string) string {
	const prefix = "panicked: panic: "
	if !strings.HasPrefix(failed, prefix) {
		return ""
	}
	msg := strings.TrimPrefix(failed, prefix)
	if !strings.HasPrefix(msg, "runtime error: ") {
		return ""
	}
	// Go appends " [recovered]" (and ", repanicked") when a deferred recover re-panics.
	if i := strings.Index(msg, " [recovered"); i >= 0 {
		msg = msg[:i]
	}
	return msg
}

// predictedPanics are the Go runtime errors lint's JSON says Karmada's code panics with.
func predictedPanics(lintStdout []byte) []string {
	var out struct {
		SnapshotWarnings []struct {
			ID      string `json:"id"`
			Message string `json:"message"`
		} `json:"snapshotWarnings"`
		Results []struct {
			Scheduling []struct {
				KarmadaPanic string `json:"karmadaPanic"`
			} `json:"scheduling"`
		} `json:"results"`
	}
	if json.Unmarshal(lintStdout, &out) != nil {
		return nil
	}
	var panics []string
	for _, w := range out.SnapshotWarnings {
		if w.ID == "binding-crashes-scheduler" {
			panics = append(panics, w.Message)
		}
	}
	for _, r := range out.Results {
		for _, s := range r.Scheduling {
			if s.KarmadaPanic != "" {
				panics = append(panics, s.KarmadaPanic)
			}
		}
	}
	return panics
}

// predictsPanic: lint named the runtime error the oracle's run of Karmada's code panicked with.
func predictsPanic(lint Run, oracleFailed string) bool {
	want := runtimePanic(oracleFailed)
	if want == "" || lint.Failed != "" {
		return false
	}
	for _, p := range predictedPanics(lint.Stdout) {
		if strings.Contains(p, want) {
			return true
		}
	}
	return false
}
