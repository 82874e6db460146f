package compare

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Run is one execution of lint or the oracle.
type Run struct {
	Exit   int    // 0, 1 or 2 when the binary ended normally
	Failed string // why the binary could not answer (timeout, signal, panic, odd exit code); "" if it did
	Stdout []byte
	Stderr []byte
}

// Binary runs one of the two programs: `<Path> lint -o json <args>`.
type Binary struct {
	Path    string
	Timeout time.Duration
	Dir     string // working directory; "" is the current one
	// Pool, when set, answers through long-lived `batch` processes instead of one process per run.
	Pool *Pool
	// Flags go before every case's arguments for this binary only: `--karmada-version V`, which lint
	// takes once it models several releases and which the oracle checks against its own build.
	Flags []string
}

// StdinFrom is the case argument --stdin-from=FILE: FILE's bytes are the binary's standard input (the
// case gives "-" among its paths). The runner takes it out; neither binary sees it.
const StdinFrom = "--stdin-from="

// stdinOf splits the StdinFrom argument off args and reads its file.
func stdinOf(args []string) ([]string, []byte, error) {
	var rest []string
	var stdin []byte
	for _, a := range args {
		if file, ok := strings.CutPrefix(a, StdinFrom); ok {
			data, err := os.ReadFile(file)
			if err != nil {
				return nil, nil, err
			}
			stdin = data
			continue
		}
		rest = append(rest, a)
	}
	return rest, stdin, nil
}

// Run executes the binary on args and classifies how it ended.
func (b Binary) Run(ctx context.Context, args []string) Run {
	args, stdin, err := stdinOf(args)
	if err != nil {
		return Run{Failed: fmt.Sprintf("cannot read the standard input of the case: %v", err)}
	}
	if len(b.Flags) > 0 {
		args = append(append([]string{}, b.Flags...), args...)
	}
	if b.Pool != nil {
		return b.Pool.Run(ctx, args, stdin, b.Timeout)
	}
	ctx, cancel := context.WithTimeout(ctx, b.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.Path, append([]string{"lint", "-o", "json"}, args...)...)
	cmd.Dir = b.Dir
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	r := Run{Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	switch {
	case ctx.Err() != nil:
		r.Failed = fmt.Sprintf("timed out after %s", b.Timeout)
	case err == nil:
		r.Exit = 0
	default:
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			r.Failed = fmt.Sprintf("cannot run %s: %v", b.Path, err)
			break
		}
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			r.Failed = fmt.Sprintf("killed by signal %s", ws.Signal())
			break
		}
		r.Exit = exit.ExitCode()
	}
	if r.Failed == "" {
		r.Failed = classifyExit(r.Exit, r.Stderr)
	}
	return r
}

// classifyExit names an abnormal end: an exit code lint's contract does not have, or a Go panic (which
// exits 2, the code of a refused input).
func classifyExit(code int, stderr []byte) string {
	if code < 0 || code > 2 {
		return fmt.Sprintf("exit code %d: %s", code, FirstLine(stderr))
	}
	if code == 2 && (bytes.HasPrefix(stderr, []byte("panic:")) || bytes.Contains(stderr, []byte("\ngoroutine "))) {
		return "panicked: " + FirstLine(stderr)
	}
	return ""
}

// FirstLine is the first non-empty line of a program's stderr, for reports.
func FirstLine(b []byte) string {
	for _, line := range strings.Split(string(b), "\n") {
		if s := strings.TrimSpace(line); s != "" {
			if len(s) > 240 {
				s = s[:240] + "..."
			}
			return s
		}
	}
	return "(no stderr)"
}
