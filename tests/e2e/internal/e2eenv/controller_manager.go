package e2eenv

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"karmada-policy-webhook/tests/e2e/internal/plane"
	"karmada-policy-webhook/tests/e2e/internal/proc"
)

// WithControllerManager restarts the plane's karmada-controller-manager with its command line changed by
// edit for the rest of the test, and with the plane's own flags again afterwards. One controller-manager
// at a time: each runs the resource detector, and two would race on every binding and template.
func WithControllerManager(t *testing.T, e Env, edit func(args []string) []string) {
	t.Helper()
	kubectl, err := os.Readlink(e.Kubectl)
	if err != nil {
		t.Fatal(err)
	}
	binary := filepath.Join(filepath.Dir(kubectl), "karmada-controller-manager")
	var planeArgs []string
	for _, c := range e.Components(t) {
		if c.Name == "karmada-controller-manager" {
			planeArgs = c.Args
		}
	}
	restartControllerManager(t, e, binary, edit(append([]string(nil), planeArgs...)))
	t.Cleanup(func() { restartControllerManager(t, e, binary, planeArgs) })
}

// restartControllerManager stops the running karmada-controller-manager and starts it with args; the new
// pid goes into components.json and the pid file, so that control-plane.sh down stops it.
func restartControllerManager(t *testing.T, e Env, binary string, args []string) {
	t.Helper()
	comps := e.Components(t)
	i := -1
	for j, c := range comps {
		if c.Name == "karmada-controller-manager" {
			i = j
		}
	}
	if i < 0 {
		t.Fatal("no karmada-controller-manager in components.json")
	}
	c := comps[i]
	if err := syscall.Kill(c.Pid, syscall.SIGTERM); err != nil {
		t.Fatalf("stopping karmada-controller-manager (pid %d): %v", c.Pid, err)
	}
	WaitFor(t, "karmada-controller-manager to exit", 30*time.Second, func() bool {
		return syscall.Kill(c.Pid, 0) != nil
	})
	log, err := os.OpenFile(c.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, args...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // it outlives the test, as the plane's did
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	log.Close()
	if err := proc.AppendPid(plane.PidFile(e.Dir), cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait() }() // reaped if it ends while the tests run
	comps[i].Pid, comps[i].Args = cmd.Process.Pid, args
	e.WriteComponents(t, comps)
	WaitFor(t, "karmada-controller-manager to be healthy", time.Minute, func() bool {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/healthz", c.Ports["health"]))
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
}
