package compare

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestKnownLedger(t *testing.T) {
	tests := []struct {
		name       string
		status     Status
		wantStatus Status
		wantKnown  int
		wantStale  int
		wantOutput string
	}{
		{"a listed case that differs is known", Differ, KnownDiffer, 1, 0, "KNOWN a: open bug"},
		{"a listed case that agrees is stale", Agree, Agree, 0, 1, "STALE a:"},
		{"a listed case the oracle could not run stays so", CouldNotRun, CouldNotRun, 0, 1, "STALE a:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := Known{"a": "open bug"}
			vs := []Verdict{{Status: tt.status}, {Status: Differ}}
			var out bytes.Buffer
			known, stale := k.Apply(&out, []Job{{Name: "a"}, {Name: "b"}}, vs)
			if known != tt.wantKnown || stale != tt.wantStale || vs[0].Status != tt.wantStatus {
				t.Fatalf("known %d stale %d status %v, want %d %d %v", known, stale, vs[0].Status,
					tt.wantKnown, tt.wantStale, tt.wantStatus)
			}
			if vs[1].Status != Differ {
				t.Fatalf("an unlisted case changed status: %v", vs[1].Status)
			}
			if !strings.Contains(out.String(), tt.wantOutput) {
				t.Fatalf("output %q lacks %q", out.String(), tt.wantOutput)
			}
			if Count(vs).Failed() != true {
				t.Fatal("the unlisted difference must still fail the run")
			}
		})
	}
}

func TestReadKnownNeedsAReason(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	os.WriteFile(good, []byte("# comment\n\ncase/a  lint lists schema errors where Karmada's decoder stops\n"), 0o644)
	k, err := ReadKnown(good)
	if err != nil || k["case/a"] != "lint lists schema errors where Karmada's decoder stops" {
		t.Fatalf("ReadKnown = %v, %v", k, err)
	}
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte("case/a\n"), 0o644)
	if _, err := ReadKnown(bad); err == nil {
		t.Fatal("a case without a reason must be refused")
	}
}
