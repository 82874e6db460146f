// Package proc runs the control plane's components as child processes: each with its own log file, its
// pid recorded so that `control-plane.sh down` (or the next `up` after a crash) can stop what is left.
package proc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Process is one component: a binary, its flags and the file its output goes to.
type Process struct {
	Name string
	Path string
	Args []string
	Log  string // file for stdout and stderr

	cmd    *exec.Cmd
	exited chan struct{}
	err    error
}

// Start starts the process in its own process group and records its pid in pidFile (appended).
func (p *Process) Start(pidFile string) error {
	logFile, err := os.OpenFile(p.Log, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("%s: %w", p.Name, err)
	}
	p.cmd = exec.Command(p.Path, p.Args...)
	p.cmd.Stdout, p.cmd.Stderr = logFile, logFile
	// A group of its own (Stop signals the group), and SIGKILL should the control plane die first.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := p.cmd.Start(); err != nil {
		logFile.Close()
		return fmt.Errorf("starting %s (%s): %w", p.Name, p.Path, err)
	}
	p.exited = make(chan struct{})
	go func() {
		p.err = p.cmd.Wait()
		logFile.Close()
		close(p.exited)
	}()
	return AppendPid(pidFile, p.cmd.Process.Pid)
}

// Exited is closed when the process has ended.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// ExitError is how the process ended (valid once Exited is closed).
func (p *Process) ExitError() error { return p.err }

// Stop sends SIGTERM to the process group, then SIGKILL after grace.
func (p *Process) Stop(grace time.Duration) {
	if p.cmd == nil || p.cmd.Process == nil {
		return
	}
	pgid := -p.cmd.Process.Pid
	_ = syscall.Kill(pgid, syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(grace):
		_ = syscall.Kill(pgid, syscall.SIGKILL)
		<-p.exited
	}
}

// Tail is the last n lines of the process's log, for error messages.
func (p *Process) Tail(n int) string { return TailFile(p.Log, n) }

// TailFile is the last n lines of a file ("" when unreadable).
func TailFile(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "  | " + strings.Join(lines, "\n  | ")
}

// Children are the pids of this process's direct children (/proc/self/task/*/children): envtest starts
// etcd and kube-apiserver without telling their pids.
func Children() []int {
	var out []int
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}

var pidMu sync.Mutex

// AppendPid records a pid and its start time ("PID START", one per line): `control-plane.sh down` signals
// a recorded pid only while it still names the process started then, never one the kernel has since given
// to someone else.
func AppendPid(pidFile string, pid int) error {
	start, err := StartTime(pid)
	if err != nil {
		return err
	}
	pidMu.Lock()
	defer pidMu.Unlock()
	f, err := os.OpenFile(pidFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = fmt.Fprintln(f, pid, start)
	return err
}

// StartTime is a process's start time in clock ticks after boot (field 22 of /proc/PID/stat, counted after
// the command name's closing parenthesis, since the name may hold spaces).
func StartTime(pid int) (string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", err
	}
	i := strings.LastIndexByte(string(b), ')')
	fields := strings.Fields(string(b[i+1:]))
	if i < 0 || len(fields) < 20 {
		return "", fmt.Errorf("/proc/%d/stat: no start time in %q", pid, b)
	}
	return fields[19], nil
}

// Recorded are the pids of pidFile whose processes are still the ones recorded (same start time).
func Recorded(pidFile string) ([]int, error) {
	b, err := os.ReadFile(pidFile)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		pid, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		if start, err := StartTime(pid); err == nil && start == f[1] {
			out = append(out, pid)
		}
	}
	return out, nil
}

// Pid is the process's pid (0 before Start).
func (p *Process) Pid() int {
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}
