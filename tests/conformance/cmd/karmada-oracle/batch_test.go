package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// Each batch answer is what the one-shot process prints for the same arguments, requests do not leak
// into each other, and a malformed line is answered, not fatal.
func TestBatchAnswersAsOneShot(t *testing.T) {
	snapshot := []string{"--clusters", filepath.Join(examples, "clusters.yaml"), "--workloads", filepath.Join(examples, "workloads.yaml")}
	requests := [][]string{
		{"-o", "json", filepath.Join(examples, "broken")},
		append(append([]string{"-o", "json"}, snapshot...), filepath.Join(examples, "dc-groups.yaml")),
		{"-o", "json", filepath.Join(examples, "dc-groups.yaml")},
		{"-o", "json", filepath.Join(t.TempDir(), "missing.yaml")},
		{"-o", "yaml", filepath.Join(examples, "dc-groups.yaml")},
	}
	var in bytes.Buffer
	for _, args := range requests {
		line, _ := json.Marshal(BatchRequest{Args: args})
		in.Write(append(line, '\n'))
	}
	in.WriteString("not json\n\n")
	var out, stderr bytes.Buffer
	if code := run(context.Background(), []string{"batch"}, &in, &out, &stderr); code != exitOK {
		t.Fatalf("batch exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(requests)+1 {
		t.Fatalf("%d answers for %d requests:\n%s", len(lines), len(requests)+1, out.String())
	}
	for i, args := range requests {
		var got BatchResponse
		if err := json.Unmarshal([]byte(lines[i]), &got); err != nil {
			t.Fatalf("answer %d: %v", i, err)
		}
		var o, e bytes.Buffer
		want := run(context.Background(), append([]string{"lint"}, args...), strings.NewReader(""), &o, &e)
		if got.Exit != want || got.Stdout != o.String() || got.Stderr != e.String() {
			t.Errorf("request %v: batch (%d, %q, %q), one-shot (%d, %q, %q)", args, got.Exit, got.Stdout, got.Stderr, want, o.String(), e.String())
		}
	}
	var bad BatchResponse
	if err := json.Unmarshal([]byte(lines[len(requests)]), &bad); err != nil || bad.Exit != exitUsage || bad.Stderr == "" {
		t.Errorf("malformed request answered %+v (%v)", bad, err)
	}
}
