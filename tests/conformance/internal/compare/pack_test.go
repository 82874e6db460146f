package compare

import (
	"testing"
)

func TestSplitRun(t *testing.T) {
	out := `{"results":[
{"file":"p/s0.yaml","document":0,"allowed":true,"scheduling":[{"scheduled":true}]},
{"file":"p/s1.yaml","document":0,"allowed":false,"scheduling":[]},
{"file":"p/s2.yaml","document":0,"allowed":true,"scheduling":[{"scheduled":true},{"scheduled":false}]},
{"file":"p/s0.yaml","document":1,"allowed":true,"scheduling":[]}],"summary":{"denied":1}}`
	subOf := map[string]int{"p/s0.yaml": 0, "p/s1.yaml": 1, "p/s2.yaml": 2, "p/s3.yaml": 3}
	runs, err := SplitRun(Run{Exit: 1, Stdout: []byte(out)}, subOf, nil, 4)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		exit    int
		results int
	}{{0, 2}, {1, 1}, {1, 1}, {0, 0}}
	for j, tt := range tests {
		o, err := ParseOutput(runs[j].Stdout)
		if err != nil {
			t.Fatal(err)
		}
		if runs[j].Exit != tt.exit || len(o.Results) != tt.results {
			t.Errorf("sub-case %d: exit %d with %d results, want %d with %d", j, runs[j].Exit, len(o.Results), tt.exit, tt.results)
		}
	}
	if _, err := SplitRun(Run{Stdout: []byte(`{"results":[{"file":"elsewhere.yaml"}]}`)}, subOf, nil, 4); err == nil {
		t.Error("a result outside the sub-cases' files was accepted")
	}
}
