// Package failure checks what a user sees when our webhook is down: with failurePolicy Fail (as shipped
// in manifests/karmada-apiserver) kube-apiserver refuses policy writes with its own "failed calling
// webhook" text, and accepts them again once serve is back with the same certificates and flags.
package failure

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
	"karmada-policy-webhook/tests/e2e/internal/proc"
)

const ours = "karmada-policy-webhook"

func TestServeDownFailsClosedThenRecovers(t *testing.T) {
	e := e2eenv.Get(t)
	e.DefaultReleaseOnly(t, "kube-apiserver's failurePolicy handling of our serve does not depend on Karmada's release")
	valid := filepath.Join(e.Repo, "manifests/examples/dc-groups.yaml")
	if out, code := e.KubectlRun(t, "apply", "--dry-run=server", "-f", valid); code != 0 {
		t.Fatalf("with serve up, the valid example is refused:\n%s", out)
	}
	comps := e.Components(t)
	i := -1
	for j, c := range comps {
		if c.Name == ours {
			i = j
		}
	}
	if i < 0 {
		t.Fatalf("no %s in components.json", ours)
	}
	c := comps[i]

	if err := syscall.Kill(c.Pid, syscall.SIGTERM); err != nil {
		t.Fatalf("stopping serve (pid %d): %v", c.Pid, err)
	}
	e2eenv.WaitFor(t, "serve to exit", 30*time.Second, func() bool { return syscall.Kill(c.Pid, 0) != nil })

	out, code := e.KubectlRun(t, "apply", "--dry-run=server", "-f", valid)
	if code == 0 {
		t.Fatalf("with serve down and failurePolicy Fail, the apply succeeded:\n%s", out)
	}
	if !strings.Contains(out, "failed calling webhook") || !strings.Contains(out, "policy-webhook.karmada.io") {
		t.Fatalf("the refusal is not kube-apiserver's \"failed calling webhook\" for our webhook:\n%s", out)
	}

	// Back with the same flags, certificates and ports; recorded for `control-plane.sh down`.
	log, err := os.OpenFile(c.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cmd := exec.Command(e.Lint, c.Args...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if err := proc.AppendPid(filepath.Join(e.Dir, "pids"), cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	comps[i].Pid = cmd.Process.Pid
	e.WriteComponents(t, comps)
	go func() { _ = cmd.Wait() }() // reaped if it ends while the test runs; it normally outlives the test
	e2eenv.WaitFor(t, "serve to be ready again", 30*time.Second, func() bool {
		resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(c.Ports["health"]) + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	e2eenv.WaitFor(t, "the apply to be admitted again", 30*time.Second, func() bool {
		_, code := e.KubectlRun(t, "apply", "--dry-run=server", "-f", valid)
		return code == 0
	})

	// The metrics count what kube-apiserver sent: one review per apply.
	metrics := "http://127.0.0.1:" + strconv.Itoa(c.Ports["metrics"]) + "/metrics"
	before := admitted(t, metrics)
	const applies = 5
	for range applies {
		if out, code := e.KubectlRun(t, "apply", "--dry-run=server", "-f", valid); code != 0 {
			t.Fatalf("apply refused after the restart:\n%s", out)
		}
	}
	if got := admitted(t, metrics) - before; got != applies {
		t.Errorf("serve counted %d admitted PropagationPolicy reviews for %d applies", got, applies)
	}
}

// admitted is serve's count of PropagationPolicy reviews answered 200.
func admitted(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "controller_runtime_webhook_requests_total{") &&
			strings.Contains(line, `code="200"`) && strings.Contains(line, `/validate-propagationpolicy"`) {
			n, err := strconv.Atoi(line[strings.LastIndex(line, " ")+1:])
			if err != nil {
				t.Fatalf("metrics line %q: %v", line, err)
			}
			return n
		}
	}
	return 0
}
