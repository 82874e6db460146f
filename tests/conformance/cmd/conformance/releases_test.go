package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"karmada-policy-webhook/tests/conformance/internal/cases"
	"karmada-policy-webhook/tests/conformance/internal/compare"
)

// script writes an executable shell script standing in for lint or an oracle.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestHelpListsTheFlagOnly(t *testing.T) {
	for _, tc := range []struct {
		help string
		want bool
	}{
		{"  --karmada-version TEXT   Karmada release", true},
		{"  -k,--karmada-version=v1.18", true},
		{"  --karmada-version", true},
		{"  --karmada-versions TEXT", false},
		{"  --validate TEXT  as kubectl; see --karmada-version-x", false},
		{"", false},
	} {
		if got := helpLists(tc.help, lintFlag); got != tc.want {
			t.Errorf("helpLists(%q) = %v, want %v", tc.help, got, tc.want)
		}
	}
}

func TestParseVersion(t *testing.T) {
	if v, err := parseVersion([]byte("karmada: v1.16.0\ncrd-dir: /x\n")); err != nil || v != "v1.16.0" {
		t.Errorf("parseVersion = %q, %v", v, err)
	}
	if _, err := parseVersion([]byte("usage: karmada-oracle lint\n")); err == nil {
		t.Error("an output without a karmada line must be refused")
	}
}

func TestToJobsTakesTheCasesMarkedForTheRelease(t *testing.T) {
	list := []cases.Case{
		{Name: "every", Args: []string{"a.yaml"}},
		{Name: "v1.18 only", Args: []string{"b.yaml"}, Releases: []string{"v1.18.2"}},
	}
	names := func(release string) []string {
		var out []string
		for _, j := range toJobs(list, release) {
			out = append(out, j.Name)
		}
		return out
	}
	if got := names("v1.16.0"); !reflect.DeepEqual(got, []string{"every"}) {
		t.Errorf("v1.16.0: %v", got)
	}
	if got := names("v1.18.2"); !reflect.DeepEqual(got, []string{"every", "v1.18 only"}) {
		t.Errorf("v1.18.2: %v", got)
	}
}

func TestTargets(t *testing.T) {
	dir := t.TempDir()
	oldLint := script(t, dir, "old-lint", `echo "Options:"; echo "  --validate TEXT"`)
	newLint := script(t, dir, "new-lint", `echo "Options:"; echo "  --karmada-version TEXT  release"`)
	base := filepath.Join(dir, "karmada-oracle")
	for _, r := range []string{"v1.16.0", "v1.17.1", "v1.18.2"} {
		script(t, dir, "karmada-oracle-"+r, `echo "karmada: `+r+`"`)
	}
	script(t, dir, "karmada-oracle", `echo "karmada: v1.18.2"`)
	// An oracle under a release's name that is another release's.
	wrong := filepath.Join(t.TempDir(), "karmada-oracle")
	script(t, filepath.Dir(wrong), "karmada-oracle-v1.17.1", `echo "karmada: v1.16.0"`)

	type want struct {
		release string
		lint    []string
	}
	for _, tc := range []struct {
		name    string
		lint    string
		oracle  string
		release string
		want    []want
		stdout  string
		err     string
	}{
		{name: "lint with the flag: every release, each with the flag", lint: newLint, oracle: base,
			want: []want{{"v1.16.0", []string{"--karmada-version", "v1.16.0"}}, {"v1.17.1", []string{"--karmada-version", "v1.17.1"}},
				{"v1.18.2", []string{"--karmada-version", "v1.18.2"}}}},
		{name: "lint without the flag: the default release only", lint: oldLint, oracle: base,
			want: []want{{"v1.18.2", nil}}, stdout: "answers as Karmada v1.18.2 only"},
		{name: "lint without the flag, v1.16 asked for: a dry run", lint: oldLint, oracle: base, release: "v1.16",
			want: []want{{"v1.16.0", nil}}, stdout: "a dry run of its v1.18.2 answers against Karmada v1.16.0's oracle"},
		{name: "one release asked for", lint: newLint, oracle: base, release: "v1.17.1",
			want: []want{{"v1.17.1", []string{"--karmada-version", "v1.17.1"}}}},
		{name: "an unsupported release", lint: newLint, oracle: base, release: "v1.15", err: "--karmada-version: karmada version \"v1.15\" is not supported"},
		{name: "no oracle built", lint: newLint, oracle: filepath.Join(t.TempDir(), "karmada-oracle"), release: "v1.16", err: "no oracle for Karmada v1.16.0"},
		{name: "an oracle of another release", lint: newLint, oracle: wrong, release: "v1.17", err: "karmada-oracle-v1.17.1 is v1.16.0's"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := common{lint: tc.lint, oracle: tc.oracle, release: tc.release}
			var stdout bytes.Buffer
			got, err := c.targets(context.Background(), &stdout)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("targets = %v, %v; want an error with %q", got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var have []want
			for _, g := range got {
				have = append(have, want{g.release, g.lint})
				if g.oracle != base+"-"+g.release {
					t.Errorf("%s's oracle is %s", g.release, g.oracle)
				}
			}
			if !reflect.DeepEqual(have, tc.want) {
				t.Errorf("targets = %+v, want %+v", have, tc.want)
			}
			if !strings.Contains(stdout.String(), tc.stdout) {
				t.Errorf("stdout %q lacks %q", stdout.String(), tc.stdout)
			}
		})
	}
}

func TestJudgeReleases(t *testing.T) {
	ok := compare.Run{Exit: 0, Stdout: []byte(`{"results":[{"file":"p.yaml","document":0,"kind":"PropagationPolicy","namespace":"default","name":"p","allowed":true}]}`)}
	denied := compare.Run{Exit: 1, Stdout: []byte(`{"results":[{"file":"p.yaml","document":0,"kind":"PropagationPolicy","namespace":"default","name":"p","allowed":false}]}`)}
	panicA := compare.Run{Exit: 2, Failed: "panicked: panic: runtime error: integer divide by zero"}
	panicB := compare.Run{Exit: 2, Failed: "panicked: panic: runtime error: slice bounds out of range [:-1]"}
	timeout := compare.Run{Failed: "timed out after 1m0s"}
	for _, tc := range []struct {
		name       string
		def, other compare.Run
		want       compare.Status
	}{
		{"the same answer", ok, ok, compare.Agree},
		{"a verdict changes", ok, denied, compare.Differ},
		{"both panic alike", panicA, panicA, compare.Agree},
		{"the default panics, the other answers", panicA, ok, compare.Differ},
		{"they panic differently", panicA, panicB, compare.Differ},
		{"an oracle times out", ok, timeout, compare.CouldNotRun},
	} {
		if got := judgeReleases(tc.def, tc.other); got.Status != tc.want {
			t.Errorf("%s: %v (%+v), want %v", tc.name, got.Status, got, tc.want)
		}
	}
}
