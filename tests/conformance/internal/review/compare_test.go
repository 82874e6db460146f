package review

import (
	"testing"
)

func TestCompare(t *testing.T) {
	denied := `{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","response":{"uid":"u","allowed":false,"status":{"metadata":{},"message":"m","reason":"Forbidden","code":403}}}`
	tests := []struct {
		name           string
		serve, karmada Answer
		diffs          []string
	}{
		{"same answer", Answer{200, []byte(denied)}, Answer{200, []byte(denied)}, nil},
		{"another message", Answer{200, []byte(denied)},
			Answer{200, []byte(`{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","response":{"uid":"u","allowed":false,"status":{"metadata":{},"message":"n","reason":"Forbidden","code":403}}}`)},
			[]string{"response.status.message"}},
		{"serve's own warnings beside", Answer{200, []byte(`{"apiVersion":"v","response":{"uid":"u","allowed":true,"warnings":["ours"]}}`)},
			Answer{200, []byte(`{"apiVersion":"v","response":{"uid":"u","allowed":true}}`)}, nil},
		{"a warning of Karmada's missing", Answer{200, []byte(`{"apiVersion":"v","response":{"uid":"u","allowed":true,"warnings":["ours"]}}`)},
			Answer{200, []byte(`{"apiVersion":"v","response":{"uid":"u","allowed":true,"warnings":["theirs"]}}`)}, []string{"response.warnings"}},
		{"an envelope both refuse, in other words",
			Answer{200, []byte(`{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","response":{"uid":"","allowed":false,"status":{"metadata":{},"message":"ours","code":400}}}`)},
			Answer{200, []byte(`{"response":{"uid":"","allowed":false,"status":{"metadata":{},"message":"theirs","code":400}}}`)}, nil},
		{"an envelope serve admits",
			Answer{200, []byte(`{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","response":{"uid":"","allowed":true,"status":{"metadata":{},"code":200}}}`)},
			Answer{200, []byte(`{"response":{"uid":"","allowed":false,"status":{"metadata":{},"message":"theirs","code":400}}}`)},
			[]string{"response.allowed", "response.status.code"}},
		{"another HTTP status", Answer{404, []byte("x")}, Answer{200, []byte("x")}, []string{"status"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range Compare(tt.serve, tt.karmada) {
				got = append(got, d.Path)
			}
			if len(got) != len(tt.diffs) {
				t.Fatalf("diffs %v, want %v", got, tt.diffs)
			}
			for i := range got {
				if got[i] != tt.diffs[i] {
					t.Fatalf("diffs %v, want %v", got, tt.diffs)
				}
			}
		})
	}
}

func TestBodyClasses(t *testing.T) {
	tests := []struct {
		body             string
		notJSON, repeats bool
	}{
		{`{"a":1}`, false, false},
		{`  {"a":{"b":1,"b":2}}`, false, true},
		{`{"a":[{"k":1},{"k":2}]}`, false, false},
		{`{"a":1,"c":{"a":2},"a":3}`, false, true},
		{"   ", true, false},
		{"apiVersion: v1", true, false},
		{"", false, false},
	}
	for _, tt := range tests {
		if got := NotJSON([]byte(tt.body)); got != tt.notJSON {
			t.Errorf("NotJSON(%q) = %v", tt.body, got)
		}
		if got := RepeatedKeys([]byte(tt.body)); got != tt.repeats {
			t.Errorf("RepeatedKeys(%q) = %v", tt.body, got)
		}
	}
}

func TestJudge(t *testing.T) {
	const (
		v1       = `"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1",`
		refused  = `{` + v1 + `"response":{"uid":"","allowed":false,"status":{"metadata":{},"message":"ours","code":400}}}`
		allowed  = `{` + v1 + `"response":{"uid":"u","allowed":true,"status":{"metadata":{},"code":200}}}`
		warned   = `{` + v1 + `"response":{"uid":"u","allowed":true,"status":{"metadata":{},"code":200},"warnings":["ours"]}}`
		untyped  = `{"response":{"uid":"","allowed":false,"status":{"metadata":{},"message":"theirs","code":400}}}`
		panicked = `{` + v1 + `"response":{"uid":"u","allowed":false,"status":{"metadata":{},"message":"panic: nil [recovered]","code":500}}}`
		denied   = `{` + v1 + `"response":{"uid":"u","allowed":false,"status":{"metadata":{},"message":"m","reason":"Forbidden","code":403}}}`
	)
	tests := []struct {
		name           string
		body           string
		serve, karmada string
		want           Judgement
	}{
		{"YAML body serve refuses", "request: {}", refused, allowed, Judgement{Class: NotJSONBody}},
		{"YAML body serve admits", "request: {}", allowed, refused, Judgement{Class: Differ}},
		{"DELETE serve allows", `{"request":{"operation":"DELETE"}}`, allowed, refused, Judgement{Class: DeleteOrConnect}},
		{"Karmada panics, serve denies", `{"request":{}}`, denied, panicked, Judgement{Class: KarmadaPanicked}},
		{"both refuse an envelope", `{"request":3}`, refused, untyped, Judgement{Outcome: Refused, Envelope: true}},
		{"serve warns beside", `{"request":{}}`, warned, allowed, Judgement{Outcome: Allowed, OwnWarnings: true}},
		{"differ on repeated keys", `{"request":{"a":1,"a":2}}`, allowed, denied, Judgement{Class: RepeatedKeysDiffer}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Judge([]byte(tt.body), Answer{200, []byte(tt.serve)}, Answer{200, []byte(tt.karmada)})
			if got.Class != tt.want.Class || got.Outcome != tt.want.Outcome || got.Envelope != tt.want.Envelope ||
				got.OwnWarnings != tt.want.OwnWarnings {
				t.Fatalf("Judge = %+v, want %+v", got, tt.want)
			}
			if (got.Class == Differ || got.Class == RepeatedKeysDiffer) != (len(got.Diffs) > 0) {
				t.Fatalf("diffs %v for class %d", got.Diffs, got.Class)
			}
		})
	}
}
