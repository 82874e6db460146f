package live

import (
	"testing"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// output is a command's stdout and stderr, apart: -o json goes to stdout, the reasons for exit 2 to stderr.
type output struct{ stdout, stderr string }

// runSplit runs a command and returns its output and exit code (a failure to start fails the test).
func runSplit(t *testing.T, name string, args ...string) (output, int) {
	t.Helper()
	stdout, stderr, code := e2eenv.RunSplit(t, name, args...)
	return output{stdout, stderr}, code
}
