package cases

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFromDirMapsTheLayoutToFlags(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string // with "D" for the directory
	}{
		{"policies only", map[string]string{"b.yaml": "", "a.yml": "", "notes.md": ""}, []string{"D/a.yml", "D/b.yaml"}},
		{"snapshot files and args", map[string]string{"clusters.yaml": "", "workloads.json": "", "bindings.yml": "", "p.yaml": "",
			"args": "# gate\n--feature-gates=MultiplePodTemplatesScheduling=true\n-n shop\n"},
			[]string{"--clusters", "D/clusters.yaml", "--workloads", "D/workloads.json", "--bindings", "D/bindings.yml",
				"--feature-gates=MultiplePodTemplatesScheduling=true", "-n", "shop", "D/p.yaml"}},
		{"snapshot directories and policy directories", map[string]string{"clusters/a.yaml": "", "workloads/w.yaml": "",
			"policies/p.yaml": ""}, []string{"--clusters", "D/clusters", "--workloads", "D/workloads", "D/policies"}},
		{"args paths inside the case", map[string]string{"p.yaml": "", "old.yaml": "", "args": "--base=./old.yaml\n"},
			[]string{"--base=D/old.yaml", "D/old.yaml", "D/p.yaml"}},
		{"a base directory is the policies before a change", map[string]string{"clusters.yaml": "", "workloads.yaml": "",
			"base/old.yaml": "", "new.yaml": ""},
			[]string{"--clusters", "D/clusters.yaml", "--workloads", "D/workloads.yaml", "--base", "D/base", "D/new.yaml"}},
		{"a policy file on standard input: '-' in its place, after the other paths", map[string]string{"a.yaml": "",
			"p.yaml": "", "z.yaml": "", "args": "--stdin-from=./p.yaml\n"},
			[]string{"--stdin-from=D/p.yaml", "D/a.yaml", "D/z.yaml", "-"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, tt.files)
			c, err := FromDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, strings.ReplaceAll(w, "D/", dir+"/"))
			}
			if !reflect.DeepEqual(c.Args, want) {
				t.Errorf("Args = %q, want %q", c.Args, want)
			}
		})
	}
}

func TestFromDirRefusesACaseWithoutPolicies(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"clusters.yaml": ""})
	if _, err := FromDir(dir); err == nil {
		t.Error("FromDir accepted a directory with only clusters.yaml")
	}
}

func TestFromDirOnAFileIsThatFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"p.yaml": ""})
	c, err := FromDir(filepath.Join(dir, "p.yaml"))
	if err != nil || !reflect.DeepEqual(c.Args, []string{filepath.Join(dir, "p.yaml")}) {
		t.Errorf("FromDir(file) = %v, %v", c, err)
	}
}

// The default set maps the repository's own directories (run from tests/conformance/internal/cases).
func TestDefaultsCoverTheShippedInputs(t *testing.T) {
	root := "../../../.."
	list, skipped, err := Defaults(root, Options{CorpusLimit: 2})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string][]string{}
	for _, c := range list {
		names[c.Name] = c.Args
	}
	ex := filepath.Join(root, "manifests/examples")
	for _, want := range []string{
		ex + " (seed scenarios)", ex + " (seed scenarios, day2 bindings)", filepath.Join(ex, "pr-edit"),
		filepath.Join(ex, "ai/policies/keep-together.yaml") + " (gate on)", filepath.Join(ex, "broken/overflow-duplicated.yaml"),
		filepath.Join(root, "tests/data/lint/cases/overflow-aggregated.yaml"),
	} {
		if _, ok := names[want]; !ok {
			t.Errorf("default set lacks %s", want)
		}
	}
	gate := names[filepath.Join(ex, "ai/policies/keep-together.yaml")+" (gate on)"]
	if len(gate) == 0 || gate[len(gate)-2] != GateOn {
		t.Errorf("gate-on case args %q", gate)
	}
	if len(skipped) == 0 {
		t.Error("no skipped sources reported")
	}
}

func TestFromDirReadsTheReleasesACaseHoldsFor(t *testing.T) {
	tests := []struct {
		name     string
		releases *string // nil: no releases file
		want     []string
		forV116  bool
		err      string
	}{
		{name: "no file: every release", want: nil, forV116: true},
		{name: "minors, a comment, another line", releases: ptr("# overflowAffinities exists from v1.18.0\nv1.18\n"),
			want: []string{"v1.18.2"}, forV116: false},
		{name: "full versions map to the pinned ones", releases: ptr("v1.17.5 v1.16.0"),
			want: []string{"v1.16.0", "v1.17.1"}, forV116: true},
		{name: "an unsupported release", releases: ptr("v1.15"), err: "releases: karmada version \"v1.15\" is not supported"},
		{name: "an empty file", releases: ptr("# nothing\n"), err: "releases names no release"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"p.yaml": ""}
			if tt.releases != nil {
				files["releases"] = *tt.releases
			}
			write(t, dir, files)
			c, err := FromDir(dir)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("FromDir = %v, want an error with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Releases, tt.want) || c.For("v1.16.0") != tt.forV116 || !reflect.DeepEqual(c.Args, []string{filepath.Join(dir, "p.yaml")}) {
				t.Fatalf("FromDir = %+v; want releases %v, For(v1.16.0) %v, and the releases file not a policy", c, tt.want, tt.forV116)
			}
		})
	}
}

func ptr(s string) *string { return &s }
