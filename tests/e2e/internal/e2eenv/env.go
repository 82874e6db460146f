// Package e2eenv is what the e2e tests share: the running control plane (KPW_E2E_DIR), its kubectl and a
// dynamic client on its admin kubeconfig, and our binary (KPW_BINARY).
package e2eenv

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"karmada-policy-webhook/tests/e2e/internal/plane"
)

// Env is the control plane under test.
type Env struct {
	Dir, Kubeconfig, Kubectl, Lint, Repo string
	// Release is the Karmada release the plane runs (control-plane.sh up --karmada-version), Default the
	// default one (tests/e2e/go.mod's): DIR/karmada-release.json, written by `up`.
	Release, Default string
}

// Older says whether the plane runs an older Karmada release than the default.
func (e Env) Older() bool { return e.Release != e.Default }

// ReleaseFlags are lint's flags that make it answer for the plane's release: --karmada-version on an older
// plane, none on the default's (lint's default answers for it).
func (e Env) ReleaseFlags() []string {
	if e.Older() {
		return []string{"--karmada-version", e.Release}
	}
	return nil
}

// DefaultReleaseOnly skips a test on an older release's plane: it covers what runs on the default
// release's plane only (./dev.sh e2e). The skip names both releases, so that it is not read as a pass.
func (e Env) DefaultReleaseOnly(t *testing.T, why string) {
	t.Helper()
	if e.Older() {
		t.Skipf("not on Karmada %s's plane: runs on the default release's (%s) only: %s", e.Release, e.Default, why)
	}
}

// Get returns the control plane of ./dev.sh e2e, or skips the test when there is none (a plain
// `go test ./...`); dev.sh always sets KPW_E2E_DIR, so under it a missing plane is a failure of `up`.
func Get(t *testing.T) Env {
	t.Helper()
	dir := os.Getenv("KPW_E2E_DIR")
	if dir == "" {
		t.Skip("KPW_E2E_DIR is not set: run through ./dev.sh e2e, which starts the control plane")
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(wd, "../../..") // tests/e2e/<package>
	lint := os.Getenv("KPW_BINARY")
	if lint == "" {
		lint = filepath.Join(repo, "build/webhook/karmada-policy-webhook")
	}
	var release struct{ Version, Default string }
	b, err := os.ReadFile(filepath.Join(dir, "karmada-release.json"))
	if err == nil {
		err = json.Unmarshal(b, &release)
	}
	if err != nil || release.Version == "" || release.Default == "" {
		t.Fatalf("the plane's Karmada release (%s/karmada-release.json, written by control-plane.sh up): %v %s", dir, err, b)
	}
	return Env{Dir: dir, Kubeconfig: filepath.Join(dir, "kubeconfig"), Kubectl: filepath.Join(dir, "bin/kubectl"),
		Lint: lint, Repo: repo, Release: release.Version, Default: release.Default}
}

// Dynamic is a dynamic client on the admin kubeconfig.
func (e Env) Dynamic(t *testing.T) dynamic.Interface {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", e.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	c, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Run runs a command and returns its combined output and exit code (a failure to start fails the test).
func Run(t *testing.T, name string, args ...string) (string, int) {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	return string(out), exitCode(t, name, err)
}

// RunSplit runs a command and returns its stdout and stderr apart (-o json goes to stdout, the reasons for
// exit 2 to stderr) and its exit code (a failure to start fails the test).
func RunSplit(t *testing.T, name string, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr strings.Builder
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), exitCode(t, name, err)
}

// exitCode is a finished command's exit code; a command that could not run fails the test.
func exitCode(t *testing.T, name string, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatalf("%s: %v", name, err)
	return -1
}

// KubectlRun runs the plane's kubectl with the admin kubeconfig.
func (e Env) KubectlRun(t *testing.T, args ...string) (string, int) {
	t.Helper()
	return Run(t, e.Kubectl, append([]string{"--kubeconfig", e.Kubeconfig}, args...)...)
}

// EnsureNamespaces creates the namespaces (those that exist are fine): karmada-apiserver, unlike lint,
// refuses a namespaced object whose namespace does not exist.
func (e Env) EnsureNamespaces(t *testing.T, names ...string) {
	t.Helper()
	for _, ns := range names {
		if ns == "" {
			continue
		}
		if out, code := e.KubectlRun(t, "create", "namespace", ns); code != 0 && !strings.Contains(out, "AlreadyExists") {
			t.Fatalf("kubectl create namespace %s: %s", ns, out)
		}
	}
}

// Component is one entry of the plane's components.json.
type Component = plane.Component

// Components reads the plane's components.json.
func (e Env) Components(t *testing.T) []Component {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(e.Dir, "components.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cs []Component
	if err := json.Unmarshal(b, &cs); err != nil {
		t.Fatal(err)
	}
	return cs
}

// WriteComponents writes components.json back (after a test restarted a component).
func (e Env) WriteComponents(t *testing.T, cs []Component) {
	t.Helper()
	b, err := json.MarshalIndent(cs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.Dir, "components.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// WaitFor polls cond (a foreign process or a remote server: there is nothing to block on) every 50 ms
// until it holds; the test fails after limit.
func WaitFor(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", limit, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
