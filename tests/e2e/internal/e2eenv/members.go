package e2eenv

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"testing"

	"karmada-policy-webhook/tests/e2e/internal/plane"
)

// Member is one member cluster of the plane (control-plane.sh up --members N): DIR/members.json.
type Member = plane.Member

// Members are the plane's member clusters; none on a plane started without --members (members.json is
// [] there, and absent on a plane an older control-plane.sh started).
func (e Env) Members(t *testing.T) []Member {
	t.Helper()
	b, err := os.ReadFile(plane.MembersFile(e.Dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var ms []Member
	if err := json.Unmarshal(b, &ms); err != nil {
		t.Fatalf("%s: %v", plane.MembersFile(e.Dir), err)
	}
	return ms
}

// RequireMembers skips the test on a plane with fewer than n member clusters, naming how to get them
// (./dev.sh e2e-members), and returns the members.
func (e Env) RequireMembers(t *testing.T, n int) []Member {
	t.Helper()
	ms := e.Members(t)
	if len(ms) < n {
		t.Skipf("needs a plane with %d member cluster(s), this one has %d: ./dev.sh e2e-members "+
			"(control-plane.sh up DIR --members 2 --estimator --failover) runs this package", n, len(ms))
	}
	return ms
}

// MemberKubectl runs the plane's kubectl against a member cluster (its admin kubeconfig); stdin is given
// to it. It returns the combined output and the exit code.
func (e Env) MemberKubectl(t *testing.T, m Member, stdin string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(e.Kubectl, append([]string{"--kubeconfig", m.Kubeconfig}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	return string(out), exitCode(t, e.Kubectl, err)
}

// AddNodes applies KWOK nodes PREFIX-1..count of that capacity on a member (as control-plane.sh nodes
// does); applying the same nodes again changes nothing.
func (e Env) AddNodes(t *testing.T, m Member, prefix string, count int, cpu, memory string, pods int) {
	t.Helper()
	if out, code := e.MemberKubectl(t, m, plane.KwokNodes(prefix, count, cpu, memory, pods), "apply", "-f", "-"); code != 0 {
		t.Fatalf("KWOK nodes on %s: %s", m.Name, out)
	}
}
