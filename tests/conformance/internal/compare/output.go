// Package compare runs lint and karmada-oracle on the same case and compares their -o json field by
// field: exit code, each policy's verdict and denial message, and each workload's scheduling decision.
package compare

import (
	"encoding/json"
	"fmt"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

// Output is what either binary prints with -o json: report.Output plus the keys only lint prints that
// the comparison reads (the FitError alternatives and the tie flag). Warnings are not read: Karmada has
// none.
type Output struct {
	Results []Result `json:"results"`
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
	Scheduling []Scheduling        `json:"scheduling"`
	Admission  *report.Admission   `json:"admission,omitempty"`
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

// key identifies a result: the file and the document index within it.
func (r *Result) key() string { return fmt.Sprintf("%s#%d", r.File, r.Document) }

// workloadKey identifies a scheduling entry within a result.
func workloadKey(w report.Workload) string {
	return fmt.Sprintf("%s %s/%s", w.Kind, w.Namespace, w.Name)
}
