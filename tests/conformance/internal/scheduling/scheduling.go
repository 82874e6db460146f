// Package scheduling runs Karmada's own resource detector, resource interpreter and scheduler over the
// objects lint reads, and reports what the scheduler wrote, in lint's JSON shape.
package scheduling

import (
	"context"
	"errors"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

// Policy is one admitted policy document: the object after the CRD's defaults and Karmada's mutating
// handler, and the index of its entry in report.Output.Results.
type Policy struct {
	Index  int
	Object *unstructured.Unstructured
}

// Input is everything a dry run reads: admitted policies, Cluster objects, resource templates and
// existing ResourceBindings / ClusterResourceBindings.
type Input struct {
	Policies     []Policy
	Clusters     []*unstructured.Unstructured
	Workloads    []*unstructured.Unstructured
	Bindings     []*unstructured.Unstructured
	FeatureGates string // as --feature-gates: "A=true,B=false"
}

// Run returns, per Policy.Index, the scheduling entries of the workloads that policy claims.
func Run(ctx context.Context, in Input) (map[int][]report.Scheduling, error) {
	_ = ctx
	_ = in
	return nil, errors.New("scheduling: not built yet")
}
