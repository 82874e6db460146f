package e2eenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"karmada-policy-webhook/tests/e2e/internal/plane"
	"karmada-policy-webhook/tests/e2e/internal/proc"
)

// Stopped is a plane process a test stopped, with what it takes to start it again as it ran.
type Stopped struct {
	Name    string
	Args    []string
	Environ []string
	Dir     string
}

// Stop reads process pid's command line, environment and working directory from /proc, sends it sig and
// waits (up to limit) until it is gone or a zombie: a client notices only then (kube-apiserver closes its
// listener at once but keeps its watches until its graceful shutdown ends).
func Stop(t *testing.T, name string, pid int, sig syscall.Signal, limit time.Duration) Stopped {
	t.Helper()
	cmdline, err1 := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	environ, err2 := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	cwd, err3 := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pid))
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatalf("reading %s's process %d: %v %v %v", name, pid, err1, err2, err3)
	}
	if err := syscall.Kill(pid, sig); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, name+" to exit", limit, func() bool {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		return err != nil || strings.Contains(string(stat), ") Z ")
	})
	t.Logf("%s (pid %d) stopped", name, pid)
	split := func(b []byte) []string { return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00") }
	return Stopped{Name: name, Args: split(cmdline), Environ: split(environ), Dir: cwd}
}

// Start starts the process again as it ran, logging to the plane's logs/<logName>, in its own process group
// and without a death signal (it outlives this test binary until `down`), and records its pid in the
// plane's pids file. It returns the new process and its log's path.
func (s Stopped) Start(t *testing.T, e Env, logName string) (*os.Process, string) {
	t.Helper()
	log, err := os.Create(filepath.Join(e.Dir, "logs", logName))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cmd := exec.Command(s.Args[0], s.Args[1:]...)
	cmd.Env, cmd.Dir = s.Environ, s.Dir
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if err := proc.AppendPid(plane.PidFile(e.Dir), cmd.Process.Pid); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait() }() // reaped while this test binary runs; init's afterwards
	return cmd.Process, log.Name()
}
