// Package controlplane tests tests/e2e/control-plane.sh itself, without a plane: `down` stops only the
// processes `up` (or a test) recorded, never whoever has since been given a recorded pid.
package controlplane

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"karmada-policy-webhook/tests/e2e/internal/plane"
	"karmada-policy-webhook/tests/e2e/internal/proc"
)

// sleeper is a `sleep` in a process group of its own (so that a group signal from `down` would reach it
// too), reaped as soon as it ends: a zombie would still answer kill -0.
type sleeper struct {
	cmd    *exec.Cmd
	exited chan struct{}
}

func startSleeper(t *testing.T) *sleeper {
	t.Helper()
	s := &sleeper{cmd: exec.Command("sleep", "300"), exited: make(chan struct{})}
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.cmd.Wait(); close(s.exited) }()
	t.Cleanup(func() {
		_ = s.cmd.Process.Kill()
		<-s.exited
	})
	return s
}

func (s *sleeper) pid() int { return s.cmd.Process.Pid }

func (s *sleeper) alive() bool {
	select {
	case <-s.exited:
		return false
	default:
		return true
	}
}

// TestDownLeavesForeignProcesses: a pids file a crashed run left behind names a pid the kernel has since
// given to another process (a `sleep` here, recorded with another start time, and once more in the old
// format without one), and the plane's own pid file names it too; `down` must leave it running and say so,
// and still stop the process recorded with its own start time.
func TestDownLeavesForeignProcesses(t *testing.T) {
	script, err := filepath.Abs("../control-plane.sh")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	foreign, own := startSleeper(t), startSleeper(t)
	start, err := proc.StartTime(foreign.pid())
	if err != nil {
		t.Fatal(err)
	}
	ticks, err := strconv.ParseInt(start, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	// The process that had this pid when the file was written started earlier.
	stale := strconv.Itoa(foreign.pid()) + " " + strconv.FormatInt(ticks-1, 10) + "\n"
	oldFormat := strconv.Itoa(foreign.pid()) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "pid"), []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plane.PidFile(dir), []byte(stale+oldFormat), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := proc.AppendPid(plane.PidFile(dir), own.pid()); err != nil {
		t.Fatal(err)
	}

	out, err := exec.Command("bash", script, "down", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("control-plane.sh down: %v\n%s", err, out)
	}
	select {
	case <-own.exited:
	case <-time.After(30 * time.Second):
		t.Errorf("the recorded process (pid %d) is still running after down", own.pid())
	}
	if !foreign.alive() {
		t.Fatalf("down signalled pid %d, which its pids file recorded with another start time (not the plane's "+
			"process):\n%s", foreign.pid(), out)
	}
	if want := "pid " + strconv.Itoa(foreign.pid()); !strings.Contains(string(out), want) ||
		!strings.Contains(string(out), "left alone") {
		t.Errorf("down does not say that it left %s alone:\n%s", want, out)
	}
	for _, f := range []string{"pid", "pids"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
			t.Errorf("down left %s behind (%v)", f, err)
		}
	}
}
