// Package report holds the JSON shape that `karmada-policy-webhook lint -o json` prints, for the keys the
// oracle can produce from Karmada's own code. Field names and JSON keys follow
// webhook/lint/render_json.cpp; a key the oracle cannot know is left out, never guessed.
package report

// Output is one lint run: a result per policy document.
type Output struct {
	Results []Result `json:"results"`
	// Diff is lint --base's placement diff; the oracle writes only the entries of released workloads
	// (a binding the change left with no claim), the part of the diff Karmada's code decides.
	Diff []DiffEntry `json:"diff,omitempty"`
}

// DiffEntry is one workload of lint --base's diff (render_json.cpp), as far as the oracle fills it.
type DiffEntry struct {
	Workload DiffWorkload `json:"workload"`
	After    DiffSide     `json:"after"`
}

// DiffWorkload names the workload of a diff entry.
type DiffWorkload struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
}

// DiffSide is the after side of a released workload: no policy, the policy whose claim came off, and the
// clusters its binding keeps.
type DiffSide struct {
	Policy     *string         `json:"policy"`
	ReleasedBy string          `json:"releasedBy,omitempty"`
	Clusters   []TargetCluster `json:"clusters"`
}

// Result is one policy document as admission and the dry run see it.
type Result struct {
	File       string       `json:"file"`
	Document   int          `json:"document"`
	Kind       string       `json:"kind"`
	Namespace  string       `json:"namespace"`
	Name       string       `json:"name"`
	Allowed    bool         `json:"allowed"`
	Errors     []FieldError `json:"errors"`
	Scheduling []Scheduling `json:"scheduling"`
	// Admission is the verdict of Karmada's own handlers as an AdmissionResponse carries it (only the oracle
	// prints it; lint's errors[] aggregate to its message).
	Admission *Admission `json:"admission,omitempty"`
}

// FieldError is one field.Error: its wire reason ("FieldValueInvalid"), rendered path and full message.
type FieldError struct {
	Field   string `json:"field"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// Admission is what the API server would answer: allowed, the HTTP code and the message the user sees.
type Admission struct {
	Allowed bool   `json:"allowed"`
	Code    int32  `json:"code"`
	Message string `json:"message"`
	// Stage names the step that refused: "decode", "schema", "mutating" or "validating".
	Stage string `json:"stage,omitempty"`
	// Warnings are what the API server and the handlers return as warnings (kubectl prints them as
	// "Warning: ..."): the unknown fields under --validate=warn, for example.
	Warnings []string `json:"warnings,omitempty"`
}

// Workload names the resource template a scheduling entry is about.
type Workload struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
	Replicas   int64  `json:"replicas"`
}

// Component is one component's replicas inside a target cluster (multi-component workloads).
type Component struct {
	Name     string `json:"name"`
	Replicas int64  `json:"replicas"`
}

// TargetCluster is one entry of spec.clusters as the scheduler writes it.
type TargetCluster struct {
	Name       string      `json:"name"`
	Replicas   int64       `json:"replicas"`
	Components []Component `json:"components,omitempty"`
}

// Condition is the binding's Scheduled condition.
type Condition struct {
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// Scheduling is the scheduler's decision for one workload the policy claims.
type Scheduling struct {
	Workload     Workload        `json:"workload"`
	Scheduled    bool            `json:"scheduled"`
	AffinityName string          `json:"affinityName,omitempty"`
	Clusters     []TargetCluster `json:"clusters"`
	Condition    *Condition      `json:"condition,omitempty"`
	// Acted is set only when a binding was given: whether the scheduler patched it at all.
	Acted *bool `json:"acted,omitempty"`
	// Ignored (lint only): why karmada-scheduler never queues the new binding (another scheduler's name).
	Ignored string `json:"ignored,omitempty"`
}
