package report

import (
	"encoding/json"
	"reflect"
	"sort"
	"testing"
)

// keys lists the JSON keys of v's encoding, sorted.
func keys(t *testing.T, v any) []string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// The keys lint's render_json.cpp writes for the same facts (result_json, error_json, scheduling_json).
func TestKeysAreLints(t *testing.T) {
	acted := true
	tests := []struct {
		name string
		v    any
		want []string
	}{
		{"result", Result{}, []string{"allowed", "document", "errors", "file", "kind", "name", "namespace", "scheduling"}},
		{"error", FieldError{}, []string{"field", "message", "reason"}},
		{"scheduling", Scheduling{AffinityName: "a", Condition: &Condition{}, Acted: &acted},
			[]string{"acted", "affinityName", "clusters", "condition", "scheduled", "workload"}},
		{"workload", Workload{}, []string{"apiVersion", "kind", "name", "namespace", "replicas"}},
		{"cluster", TargetCluster{Components: []Component{{}}}, []string{"components", "name", "replicas"}},
		{"condition", Condition{}, []string{"message", "reason", "status"}},
		{"admission", Admission{Stage: "schema", Warnings: []string{"w"}}, []string{"allowed", "code", "message", "stage", "warnings"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := keys(t, tt.v); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("keys = %v, want %v", got, tt.want)
			}
		})
	}
}
