package failure

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
	"karmada-policy-webhook/tests/e2e/internal/plane"
)

// shippedHook is the part of manifests/karmada-apiserver's configuration this test reads.
type shippedHook struct {
	Webhooks []struct {
		Name           string `json:"name"`
		FailurePolicy  string `json:"failurePolicy"`
		TimeoutSeconds int    `json:"timeoutSeconds"`
	} `json:"webhooks"`
}

// TestStalledWebhookTimesOutByFailurePolicy: our serve stalled (SIGSTOP: its listener still completes TCP
// handshakes, nothing answers), so it is slower than the configuration's timeoutSeconds. kube-apiserver must
// give up after exactly that timeout (it sends it as ?timeout=Ns and reports the deadline) and then apply
// the failurePolicy as configured: the shipped Fail refuses the write naming our webhook; the same
// configuration with Ignore admits it, once the timeout has passed. serve is resumed (SIGCONT) and the
// shipped configuration restored, whatever happens.
func TestStalledWebhookTimesOutByFailurePolicy(t *testing.T) {
	e := e2eenv.Get(t)
	e.DefaultReleaseOnly(t, "kube-apiserver's timeoutSeconds handling of our serve does not depend on Karmada's release")
	valid := filepath.Join(e.Repo, "manifests/examples/dc-groups.yaml")
	shipped, err := os.ReadFile(filepath.Join(e.Repo, "manifests/karmada-apiserver/validating-webhook-configuration.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg shippedHook
	if err := yaml.Unmarshal(shipped, &cfg); err != nil {
		t.Fatal(err)
	}
	hook := cfg.Webhooks[0] // the PropagationPolicy webhook, which dc-groups.yaml goes through
	if hook.Name != "propagationpolicy.policy-webhook.karmada.io" || hook.FailurePolicy != "Fail" || hook.TimeoutSeconds == 0 {
		t.Fatalf("the shipped configuration's first webhook is %+v: want our PropagationPolicy webhook with "+
			"failurePolicy Fail and a timeoutSeconds", hook)
	}
	timeout := time.Duration(hook.TimeoutSeconds) * time.Second

	var serve e2eenv.Component
	for _, c := range e.Components(t) {
		if c.Name == ours {
			serve = c
		}
	}
	certDir := ""
	for i, a := range serve.Args {
		if a == "--cert-dir" && i+1 < len(serve.Args) {
			certDir = serve.Args[i+1]
		}
	}
	if serve.Pid == 0 || certDir == "" {
		t.Fatalf("no karmada-policy-webhook with a pid and --cert-dir in components.json: %+v", serve)
	}
	ca, err := os.ReadFile(filepath.Join(certDir, "ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	register := func(text string) {
		t.Helper()
		f := filepath.Join(dir, "registration.yaml")
		reg := plane.Registration([]byte(text), plane.OurServiceURL, serve.Ports["secure"], base64.StdEncoding.EncodeToString(ca))
		if err := os.WriteFile(f, []byte(reg), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, code := e.KubectlRun(t, "apply", "-f", f); code != 0 {
			t.Fatalf("registering our webhook: %s", out)
		}
	}
	apply := func() (string, int, time.Duration) {
		start := time.Now()
		out, code := e.KubectlRun(t, "apply", "--dry-run=server", "-f", valid)
		return out, code, time.Since(start)
	}
	if out, code, _ := apply(); code != 0 {
		t.Fatalf("with serve answering, the valid example is refused:\n%s", out)
	}
	_, _, baseline := apply() // kubectl's own time (start, discovery), for the upper bound below

	if err := syscall.Kill(serve.Pid, syscall.SIGSTOP); err != nil {
		t.Fatalf("stalling serve (pid %d): %v", serve.Pid, err)
	}
	stalled := true
	resume := func() {
		if stalled {
			if err := syscall.Kill(serve.Pid, syscall.SIGCONT); err != nil {
				t.Errorf("resuming serve (pid %d): %v", serve.Pid, err)
			}
			stalled = false
		}
	}
	t.Cleanup(func() {
		resume()
		register(string(shipped))
		e2eenv.WaitFor(t, "the shipped registration to admit the valid example again", time.Minute, func() bool {
			_, code, _ := apply()
			return code == 0
		})
	})
	// The deadline is the configuration's: kube-apiserver sends it as the request's timeout parameter, and
	// the call ends with it. Slack for kubectl's own time only, far below the 10 s default timeout.
	bound := timeout + baseline + 5*time.Second
	deadline := fmt.Sprintf("?timeout=%ds", hook.TimeoutSeconds)

	// failurePolicy: Fail (shipped): refused, by kube-apiserver, for our webhook, after the timeout.
	out, code, took := apply()
	switch {
	case code == 0:
		t.Fatalf("serve stalled, failurePolicy Fail: the apply succeeded after %s:\n%s", took, out)
	case !strings.Contains(out, `failed calling webhook "`+hook.Name+`"`) || !strings.Contains(out, deadline) ||
		!strings.Contains(out, "context deadline exceeded"):
		t.Fatalf("the refusal is not kube-apiserver's timeout of %q after timeoutSeconds %d (%s and "+
			"\"context deadline exceeded\"):\n%s", hook.Name, hook.TimeoutSeconds, deadline, out)
	case took < timeout || took > bound:
		t.Errorf("the refusal came after %s: want the configuration's timeoutSeconds (%s) and at most %s", took,
			timeout, bound)
	}
	t.Logf("failurePolicy Fail: refused after %s (timeoutSeconds %d, an answered apply takes %s)", took,
		hook.TimeoutSeconds, baseline)

	// The same configuration with failurePolicy: Ignore: admitted, once the timeout has passed (the API
	// server reads configurations asynchronously: until it has this one, applies are still refused).
	register(strings.ReplaceAll(string(shipped), "failurePolicy: Fail", "failurePolicy: Ignore"))
	e2eenv.WaitFor(t, "failurePolicy Ignore to admit the apply with serve stalled", time.Minute, func() bool {
		out, code, took = apply()
		return code == 0
	})
	if took < timeout || took > bound {
		t.Errorf("with failurePolicy Ignore the apply was admitted after %s: want after timeoutSeconds (%s) "+
			"and at most %s\n%s", took, timeout, bound, out)
	}
	t.Logf("failurePolicy Ignore: admitted after %s", took)

	// Back to Fail, then serve resumed: admitted again (the cleanup's wait).
	register(string(shipped))
	e2eenv.WaitFor(t, "failurePolicy Fail to refuse again with serve stalled", time.Minute, func() bool {
		_, code, _ := apply()
		return code != 0
	})
	resume()
}
