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
			known, stale := k.Apply(&out, "v1.18.2", []Job{{Name: "a"}, {Name: "b"}}, vs)
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
	spaced := filepath.Join(dir, "spaced")
	os.WriteFile(spaced, []byte("x.yaml (gate on)@v1.17  Karmada v1.17 schedules it\nx.yaml\t(gate on) is not a name here\n"), 0o644)
	k, err = ReadKnown(spaced)
	if err != nil || k["x.yaml (gate on)@v1.17.1"] != "Karmada v1.17 schedules it" || k["x.yaml"] != "(gate on) is not a name here" {
		t.Fatalf("a name with a space ends at two spaces or a tab: ReadKnown = %v, %v", k, err)
	}
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte("case/a\n"), 0o644)
	if _, err := ReadKnown(bad); err == nil {
		t.Fatal("a case without a reason must be refused")
	}
}

func TestKnownPerRelease(t *testing.T) {
	dir := t.TempDir()
	ledger := filepath.Join(dir, "known")
	os.WriteFile(ledger, []byte("a@v1.16  v1.16 only\nb  every release\n"), 0o644)
	k, err := ReadKnown(ledger)
	if err != nil {
		t.Fatal(err)
	}
	jobs := []Job{{Name: "a"}, {Name: "b"}}
	for _, tt := range []struct {
		release    string
		wantStatus [2]Status
	}{
		{"v1.16.0", [2]Status{KnownDiffer, KnownDiffer}},
		{"v1.17.1", [2]Status{Differ, KnownDiffer}}, // a's entry is v1.16's: on v1.17 it is a plain difference
	} {
		vs := []Verdict{{Status: Differ}, {Status: Differ}}
		var out bytes.Buffer
		k.Apply(&out, tt.release, jobs, vs)
		if vs[0].Status != tt.wantStatus[0] || vs[1].Status != tt.wantStatus[1] {
			t.Errorf("%s: statuses %v %v, want %v", tt.release, vs[0].Status, vs[1].Status, tt.wantStatus)
		}
	}
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, []byte("a@v1.12  no such release\n"), 0o644)
	if _, err := ReadKnown(bad); err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Fatalf("an unsupported release must be refused, got %v", err)
	}
}
