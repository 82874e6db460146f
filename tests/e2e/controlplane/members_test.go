package controlplane

import (
	"strings"
	"testing"
)

// TestMembersArguments: --members takes a count, --estimator needs members, members run on the default
// release only, and nodes needs a member name; each refused with exit 2 before anything is built or
// started.
func TestMembersArguments(t *testing.T) {
	for _, c := range []struct {
		name    string
		args    []string
		refusal string
	}{
		{"members not a number", []string{"up", "DIR", "--members", "two"}, `--members takes a number, not "two"`},
		{"members without a value", []string{"up", "DIR", "--members"}, "usage:"},
		{"estimator without members", []string{"up", "DIR", "--estimator"}, "--estimator needs --members N"},
		{"failover without members", []string{"up", "DIR", "--failover"}, "--failover needs --members N"},
		{"members on an older release", []string{"up", "DIR", "--members", "2", "--karmada-version", "v1.17"},
			"--members runs on the default release's plane (v1.18.2) only, not on v1.17.1"},
		{"nodes without a member", []string{"nodes", "DIR"}, "usage:"},
		{"nodes with an unknown flag", []string{"nodes", "DIR", "idc-1", "--gpus", "1"}, "usage:"},
		{"members on down", []string{"down", "DIR", "--members", "2"}, "usage:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string(nil), c.args...)
			args[1] = t.TempDir()
			_, stderr, code := run(t, args...)
			if code != 2 || !strings.Contains(stderr, c.refusal) {
				t.Errorf("control-plane.sh %s: exit %d, %q; want exit 2 with %q", strings.Join(c.args, " "), code, stderr, c.refusal)
			}
		})
	}
}
