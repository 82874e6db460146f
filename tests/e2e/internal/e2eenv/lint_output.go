package e2eenv

// LintOutput is the part of `karmada-policy-webhook lint -o json` the e2e tests compare with what
// karmada-scheduler wrote: each policy's scheduling entries.
type LintOutput struct {
	Results []struct {
		Scheduling []LintScheduling `json:"scheduling"`
	} `json:"results"`
}

// LintScheduling is one workload's predicted placement.
type LintScheduling struct {
	Workload struct {
		Kind, Namespace, Name string
	} `json:"workload"`
	Scheduled    bool   `json:"scheduled"`
	AffinityName string `json:"affinityName"`
	Clusters     []struct {
		Name     string `json:"name"`
		Replicas int64  `json:"replicas"`
	} `json:"clusters"`
	Condition struct {
		Status, Reason, Message string
	} `json:"condition"`
}
