package live

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
	"karmada-policy-webhook/tests/e2e/internal/plane"
	"karmada-policy-webhook/tests/e2e/internal/proc"
)

// restartAPIServer stops the plane's kube-apiserver (SIGTERM; waited until its port refuses connections)
// and returns the function that starts it again with the same command line, environment and directory,
// and waits until it serves the Karmada APIs again. The plane package has no restart of its own (envtest
// started the process); the new process is recorded in the plane's pids file, so `control-plane.sh down`
// stops it, and envtest, finding its own process exited, leaves it alone. A plane without it fails the test.
func restartAPIServer(t *testing.T, e e2eenv.Env) func() {
	t.Helper()
	port := 0
	for _, c := range e.Components(t) {
		if c.Name == "kube-apiserver" {
			port = c.Ports["secure"]
		}
	}
	pid := 0
	recorded, err := proc.Recorded(plane.PidFile(e.Dir))
	if err != nil {
		t.Fatalf("the plane's pids file: %v", err)
	}
	for _, p := range recorded {
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		if err != nil {
			continue
		}
		a := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
		if filepath.Base(a[0]) == "kube-apiserver" && strings.Contains(string(cmdline), fmt.Sprintf("--secure-port=%d\x00", port)) {
			pid = p
		}
	}
	// The plane always has one: not finding it is a broken plane (or pids file), never a reason to skip.
	if pid == 0 || port == 0 {
		t.Fatalf("no running kube-apiserver on port %d among the plane's recorded processes %v (%s)", port,
			recorded, plane.PidFile(e.Dir))
	}
	// Not only its port: kube-apiserver closes its listener at once but keeps the open watches until its
	// graceful shutdown ends (about 60 s here); a client can only notice once the process is gone.
	stopped := e2eenv.Stop(t, "kube-apiserver", pid, syscall.SIGTERM, 3*time.Minute)
	restarted := false
	t.Cleanup(func() { // a failure before the restart must not leave the plane without its API server
		if !restarted {
			start(t, e, stopped)
		}
	})
	return func() {
		t.Helper()
		restarted = true
		start(t, e, stopped)
	}
}

// start starts kube-apiserver again as it ran, and waits until it serves the Karmada APIs again (the
// aggregated cluster.karmada.io too).
func start(t *testing.T, e e2eenv.Env, stopped e2eenv.Stopped) {
	t.Helper()
	process, _ := stopped.Start(t, e, "kube-apiserver-restarted.log")
	var last []byte
	e2eenv.WaitFor(t, "kube-apiserver to serve the Karmada APIs again", 3*time.Minute, func() bool {
		out, err := exec.Command(e.Kubectl, "--kubeconfig", e.Kubeconfig, "get", "clusters,resourcebindings", "-A",
			"-o", "name").CombinedOutput()
		last = out
		return err == nil && !bytes.Contains(out, []byte("error"))
	})
	t.Logf("kube-apiserver restarted (pid %d): %d objects listed", process.Pid, bytes.Count(last, []byte("\n")))
}
