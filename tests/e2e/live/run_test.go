package live

import (
	"bytes"
	"errors"
	"os/exec"
	"testing"
)

// output is a command's stdout and stderr, apart: -o json goes to stdout, the reasons for exit 2 to stderr.
type output struct{ stdout, stderr string }

// runSplit runs a command and returns its output and exit code (a failure to start fails the test).
func runSplit(t *testing.T, name string, args ...string) (output, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	out := output{stdout.String(), stderr.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out, 0
	case errors.As(err, &ee):
		return out, ee.ExitCode()
	}
	t.Fatalf("%s: %v", name, err)
	return out, -1
}
