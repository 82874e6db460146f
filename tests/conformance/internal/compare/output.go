// Package compare runs lint and karmada-oracle on the same case and compares their -o json field by
// field: exit code, each policy's verdict and denial message, and each workload's scheduling decision.
package compare

import (
	"encoding/json"
	"fmt"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

// Output is what either binary prints with -o json: report.Output plus the keys only lint prints that
// the comparison reads (the FitError alternatives, the tie flag, the warnings that stand for the API
// server's).
type Output struct {
	Results []Result `json:"results"`
	// lint --base's placement diff; the oracle's holds the released workloads only (released.go).
	Diff []report.DiffEntry `json:"diff"`
}

// Result is one policy document.
type Result struct {
	File       string              `json:"file"`
	Document   int                 `json:"document"`
	Kind       string              `json:"kind"`
	Namespace  string              `json:"namespace"`
	Name       string              `json:"name"`
	Allowed    bool                `json:"allowed"`
	Errors     []report.FieldError `json:"errors"`
	Warnings   []Warning           `json:"warnings"` // lint only (the oracle's are Admission.Warnings)
	Scheduling []Scheduling        `json:"scheduling"`
	Admission  *report.Admission   `json:"admission,omitempty"`
}

// Warning is one of lint's warnings (render_json.cpp): its catalogue id and message.
type Warning struct {
	ID      string `json:"id"`
	Message string `json:"message"`
}

// Scheduling is one workload's decision.
type Scheduling struct {
	Workload     report.Workload        `json:"workload"`
	Scheduled    bool                   `json:"scheduled"`
	AffinityName string                 `json:"affinityName,omitempty"`
	Clusters     []report.TargetCluster `json:"clusters"`
	Condition    *report.Condition      `json:"condition,omitempty"`
	Acted        *bool                  `json:"acted,omitempty"`
	// lint only: the outcome depends on Karmada's random tie-breaker.
	Tie bool `json:"tie"`
	// lint only, with reason NoClusterFit: the FitError text in one Go map order of the filter
	// plugins, and the texts of the other orders.
	Diagnosis             string   `json:"diagnosis,omitempty"`
	DiagnosisAlternatives []string `json:"diagnosis_alternatives,omitempty"`
}

// ParseOutput reads one -o json document.
func ParseOutput(data []byte) (*Output, error) {
	var out Output
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("reading -o json: %w", err)
	}
	return &out, nil
}

// resultKeys identifies each result of o: the file, the document index within it, and the result's
// place among those of the same document (the items of a List share their document's index; both
// tools report them in the list's order).
func resultKeys(o *Output) []string {
	keys := make([]string, len(o.Results))
	seen := map[string]int{}
	for i := range o.Results {
		doc := fmt.Sprintf("%s#%d", o.Results[i].File, o.Results[i].Document)
		keys[i] = fmt.Sprintf("%s#%d", doc, seen[doc])
		seen[doc]++
	}
	return keys
}

// workloadKey identifies a scheduling entry within a result.
func workloadKey(w report.Workload) string {
	return fmt.Sprintf("%s %s/%s", w.Kind, w.Namespace, w.Name)
}
