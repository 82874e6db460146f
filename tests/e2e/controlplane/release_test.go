package controlplane

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// run runs control-plane.sh with args and returns its stdout, stderr and exit code.
func run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	script, err := filepath.Abs("../control-plane.sh")
	if err != nil {
		t.Fatal(err)
	}
	return e2eenv.RunSplit(t, script, args...)
}

const supported = "v1.16.0 v1.17.1 v1.18.2"

// TestKarmadaVersionArgument: a minor, with or without v, or any patch release of it runs as the pinned
// release of the minor (the modfiles: go.mod's and each go.<release>.mod); anything else is a usage error
// (exit 2) that lists the supported releases.
func TestKarmadaVersionArgument(t *testing.T) {
	for _, c := range []struct{ in, want, refusal string }{
		{"v1.16", "v1.16.0", ""},
		{"1.16", "v1.16.0", ""},
		{"v1.17", "v1.17.1", ""},
		{"v1.17.5", "v1.17.1", ""},
		{"v1.18", "v1.18.2", ""},
		{"v1.18.2", "v1.18.2", ""},
		{"v1.15.9", "", "Karmada v1.15.9 is not supported here: supported releases are " + supported},
		{"v1.19", "", "Karmada v1.19 is not supported here: supported releases are " + supported},
		{"latest", "", `"latest" is not a Karmada version (v1.17, 1.17 or v1.17.1); supported releases: ` + supported},
		{"1.17.x", "", `"1.17.x" is not a Karmada version`},
	} {
		t.Run(c.in, func(t *testing.T) {
			stdout, stderr, code := run(t, "release", c.in)
			if c.refusal == "" {
				if code != 0 || strings.TrimSpace(stdout) != c.want {
					t.Errorf("release %s: exit %d, %q (stderr %q); want %s", c.in, code, stdout, stderr, c.want)
				}
				return
			}
			if code != 2 || stdout != "" || !strings.Contains(stderr, c.refusal) {
				t.Errorf("release %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.in, code, stdout, stderr, c.refusal)
			}
		})
	}
}

// TestUpRefusesAnUnknownRelease: `up --karmada-version` with a release not supported stops before building
// or starting anything: exit 2, the supported releases named, nothing recorded in DIR.
func TestUpRefusesAnUnknownRelease(t *testing.T) {
	dir := t.TempDir()
	_, stderr, code := run(t, "up", dir, "--karmada-version", "v1.19")
	if code != 2 || !strings.Contains(stderr, "supported releases are "+supported) {
		t.Fatalf("up --karmada-version v1.19: exit %d, stderr %q; want exit 2 naming %s", code, stderr, supported)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("up left %d entries in %s (want none): %v", len(entries), dir, entries)
	}
	if _, stderr, code := run(t, "up", dir, "--karmada-version"); code != 2 || !strings.Contains(stderr, "usage:") {
		t.Errorf("up DIR --karmada-version without a value: exit %d, %q; want the usage (exit 2)", code, stderr)
	}
}
