// Package operations does to a live webhook what an operator does, while kubectl applies run through the
// real kube-apiserver: the certificate rotation manifests/README.md describes, then the drain of a
// replica. Not one apply may fail, and the replicas' own counts must add up to exactly the reviews
// kube-apiserver sent.
//
// The replicas sit behind a stand-in for the Kubernetes Service (internal/service: one endpoint chosen
// per connection, as kube-proxy does), so that the registration's URL stays the same while the replica
// behind it changes, as in a cluster.
package operations

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
	"karmada-policy-webhook/tests/e2e/internal/plane"
	"karmada-policy-webhook/tests/e2e/internal/service"
)

const (
	loopNS, loopName   = "default", "e2e-rotation"
	probeNS, probeName = "e2e-rotation-probe", "e2e-rotation-probe"
	probeConfig        = "karmada-policy-webhook-rotation-probe"
	workers            = 3 // concurrent kubectl loops: kube-apiserver keeps several connections open
)

// policy is a valid PropagationPolicy that does not exist on the plane: each apply of it is a CREATE.
func policy(ns, name string) string {
	return fmt.Sprintf(`apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: %s
  namespace: %s
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      name: %s
  placement:
    clusterAffinity:
      clusterNames: [member1]
`, name, ns, name)
}

func write(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// bundle is what manifests/README.md has the user compute: `cat a/ca.crt b/ca.crt | base64 -w0`.
func bundle(t *testing.T, caFiles ...string) string {
	t.Helper()
	var all []byte
	for _, f := range caFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return base64.StdEncoding.EncodeToString(all)
}

func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// fixture is what both tests share: the plane, the shipped configuration, the policies the loop and the
// probe apply, the Service with replica 1 (the plane's certificate mounted as a Secret volume) registered
// behind it and answering.
type fixture struct {
	e                   e2eenv.Env
	shipped             []byte
	dir                 string
	loopFile, probeFile string
	oldPKI, oldBundle   string
	svc                 *service.Service
	r1                  *replica
}

// newFixture sets it up (what it starts is stopped when the test ends); cleanup registers the plane's
// serve again, for the tests after this one.
func newFixture(t *testing.T, verbosity string) (*fixture, func()) {
	t.Helper()
	f := &fixture{e: e2eenv.Get(t), dir: t.TempDir()}
	f.e.DefaultReleaseOnly(t, "certificate rotation and drain of our serve do not depend on Karmada's release")
	var ours e2eenv.Component
	for _, c := range f.e.Components(t) {
		if c.Name == "karmada-policy-webhook" {
			ours = c
		}
	}
	f.oldPKI = flagValue(ours.Args, "--cert-dir")
	if f.oldPKI == "" {
		t.Fatal("no karmada-policy-webhook with --cert-dir in components.json")
	}
	var err error
	f.shipped, err = os.ReadFile(filepath.Join(f.e.Repo, "manifests/karmada-apiserver/validating-webhook-configuration.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	f.loopFile = write(t, filepath.Join(f.dir, "loop.yaml"), policy(loopNS, loopName))
	f.probeFile = write(t, filepath.Join(f.dir, "probe.yaml"), policy(probeNS, probeName))
	f.e.EnsureNamespaces(t, probeNS)
	f.oldBundle = bundle(t, filepath.Join(f.oldPKI, "ca.crt"))

	f.svc, err = service.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.svc.Close() })
	secret1 := filepath.Join(f.dir, "secret-1")
	mountSecret(t, secret1, f.oldPKI, "1")
	f.r1 = startReplica(t, f.e, "serve-replica-1", secret1, verbosity)
	t.Cleanup(f.r1.stop)
	f.svc.SetEndpoints(f.r1.addr())
	f.register(t, f.svc.Port(), f.oldBundle)
	cleanup := func() {
		restore(t, f.e, ours, f.probeFile, func() { f.register(t, ours.Ports["secure"], f.oldBundle) })
	}
	// In effect once kube-apiserver sends a review through the Service.
	waitReviewed(t, f.e, f.probeFile, f.r1)
	return f, cleanup
}

func (f *fixture) kubectlApply(t *testing.T, what, text string) {
	t.Helper()
	file := write(t, filepath.Join(f.dir, "apply.yaml"), text)
	if out, code := f.e.KubectlRun(t, "apply", "-f", file); code != 0 {
		t.Fatalf("applying %s: %s", what, out)
	}
}

// register is step 4 of manifests/README.md: the shipped configuration with the bundle filled in (the URL
// pointed at a loopback port, as everywhere on this plane).
func (f *fixture) register(t *testing.T, port int, caBundle string) {
	t.Helper()
	f.kubectlApply(t, "the webhook configuration", plane.Registration(f.shipped, plane.OurServiceURL, port, caBundle))
}

func TestRotationAndDrainUnderApplies(t *testing.T) {
	f, cleanup := newFixture(t, "1")
	defer cleanup()
	e, svc, r1, dir := f.e, f.svc, f.r1, f.dir
	oldCA := filepath.Join(f.oldPKI, "ca.crt")
	register := func(port int, caBundle string) { f.register(t, port, caBundle) }
	shipped, probeFile := f.shipped, f.probeFile

	loop := startApplies(e, f.loopFile, workers)
	halted := false
	defer func() {
		if !halted {
			loop.halt()
		}
	}()
	var phases []string
	progress := func(phase string) { // the loop has moved on by a few applies since the phase began
		t.Helper()
		start, _ := loop.counts()
		e2eenv.WaitFor(t, "applies during: "+phase, 60*time.Second, func() bool {
			ok, failed := loop.counts()
			if failed > 0 {
				_, f := loop.halt()
				halted = true
				t.Fatalf("an apply failed during %q: %s%s", phase, f[0], hint(f[0]))
			}
			return ok >= start+workers
		})
		ok, _ := loop.counts()
		phases = append(phases, fmt.Sprintf("%s: %d", phase, ok-start))
	}
	progress("replica 1, the plane's certificate")

	// Rotation, as manifests/README.md tells it: a new CA and certificate (step 2 again), the new CA
	// appended to the old in the caBundle (step 4), ...
	newPKI := filepath.Join(dir, "pki-2")
	if out, code := e2eenv.Run(t, e.Lint, "certs", "--service", "karmada-policy-webhook", "--namespace",
		"karmada-system", "--host", "127.0.0.1", "--out", newPKI); code != 0 {
		t.Fatalf("certs: %s", out)
	}
	newCA := filepath.Join(newPKI, "ca.crt")
	both := bundle(t, oldCA, newCA)
	register(svc.Port(), both)
	// ... and before the Secret changes, proof that kube-apiserver trusts the new CA: replica 2 presents
	// only the new certificate and gets a review through a second configuration (the probe's namespace
	// only, same bundle) created after the update. kube-apiserver reads webhook configurations from one
	// informer, in order: once it calls the second one, it has the first one's new caBundle.
	secret2 := filepath.Join(dir, "secret-2")
	mountSecret(t, secret2, newPKI, "1")
	r2 := startReplica(t, e, "serve-replica-2", secret2, "1")
	defer r2.stop()
	f.kubectlApply(t, "the probe configuration", probeRegistration(t, shipped, r2.secure, both))
	waitReviewed(t, e, probeFile, r2)
	if out, code := e.KubectlRun(t, "delete", "validatingwebhookconfiguration", probeConfig); code != 0 {
		t.Fatalf("deleting the probe configuration: %s", out)
	}
	progress("caBundle = old + new CA")

	// The Secret replaced (replica 1's files swapped as the kubelet swaps them); serve reloads them.
	mountSecret(t, filepath.Join(dir, "secret-1"), newPKI, "2")
	e2eenv.WaitFor(t, "replica 1 to present the new certificate", 30*time.Second, func() bool {
		return r1.serves(t, newCA)
	})
	progress("replica 1 on the new certificate")
	// Step 4 again with the new CA alone: the old one is trusted no more. Neither replica presents a
	// certificate the old CA signed: a client trusting only it fails the handshake (unknown authority),
	// one trusting the new CA completes it.
	register(svc.Port(), bundle(t, newCA))
	progress("caBundle = new CA")
	for _, r := range []*replica{r1, r2} {
		r.refuses(t, oldCA)
		if !r.serves(t, newCA) {
			t.Errorf("%s: a TLS client trusting only the new CA fails the handshake: %v", r.name, r.handshake(t, newCA))
		}
	}

	// Drain: replica 2 becomes the Service's endpoint and replica 1's is removed (its pod terminating),
	// then replica 1 gets SIGTERM while the applies go on: it finishes what is in flight, closes its idle
	// connections and exits; kube-apiserver's next connection goes to replica 2.
	svc.SetEndpoints(r2.addr())
	r2Before := r2.admitted(t)
	r1.stop()
	if err := r1.proc.ExitError(); err != nil {
		t.Errorf("replica 1 did not exit cleanly after SIGTERM: %v\n%s", err, r1.proc.Tail(10))
	}
	progress("replica 1 drained, replica 2 alone")
	e2eenv.WaitFor(t, "applies answered by replica 2", 60*time.Second, func() bool {
		return r2.reviews(t, loopNS+"/"+loopName) >= workers
	})

	ok, failed := loop.halt()
	halted = true
	if len(failed) > 0 {
		t.Errorf("%d of %d applies failed; the first:\n%s%s", len(failed), ok+len(failed), failed[0], hint(failed[0]))
	}
	n1, n2 := r1.reviews(t, loopNS+"/"+loopName), r2.reviews(t, loopNS+"/"+loopName)
	if n1+n2 != ok {
		t.Errorf("the replicas answered %d + %d reviews for %d admitted applies", n1, n2, ok)
	}
	if got := r2.admitted(t) - r2Before; got != n2 {
		t.Errorf("replica 2's metrics count %d admitted reviews since it took over, its log %d", got, n2)
	}
	t.Logf("%d applies, %d failed; reviews: replica 1 %d, replica 2 %d; connections through the Service: "+
		"replica 1 %d, replica 2 %d; per phase: %s", ok, len(failed), n1, n2, svc.Opened(r1.addr()),
		svc.Opened(r2.addr()), strings.Join(phases, ", "))
	t.Logf("replica 1's drain: %s", drainLine(t, r1.log))
}

// probeRegistration is our PropagationPolicy webhook alone, as a second configuration limited to the
// probe's namespace, pointed at port with caBundle.
func probeRegistration(t *testing.T, shipped []byte, port int, caBundle string) string {
	t.Helper()
	var cfg map[string]any
	if err := yaml.Unmarshal([]byte(plane.Registration(shipped, plane.OurServiceURL, port, caBundle)), &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["metadata"].(map[string]any)["name"] = probeConfig
	hook := cfg["webhooks"].([]any)[0].(map[string]any)
	hook["namespaceSelector"] = map[string]any{"matchLabels": map[string]any{"kubernetes.io/metadata.name": probeNS}}
	cfg["webhooks"] = []any{hook}
	out, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// waitReviewed applies the probe policy until r has answered a review of it.
func waitReviewed(t *testing.T, e e2eenv.Env, probeFile string, r *replica) {
	t.Helper()
	e2eenv.WaitFor(t, r.name+" to answer kube-apiserver", 30*time.Second, func() bool {
		e.KubectlRun(t, "apply", "--dry-run=server", "-f", probeFile)
		return r.reviews(t, probeNS+"/"+probeName) > 0
	})
}

// restore registers the plane's own serve again (with its CA) and waits until kube-apiserver calls it,
// for the tests that run after this one.
func restore(t *testing.T, e e2eenv.Env, ours e2eenv.Component, probeFile string, register func()) {
	register()
	url := fmt.Sprintf("http://127.0.0.1:%d/metrics", ours.Ports["metrics"])
	before := admitted(t, url)
	e2eenv.WaitFor(t, "the plane's serve to answer again", 30*time.Second, func() bool {
		e.KubectlRun(t, "apply", "--dry-run=server", "-f", probeFile)
		return admitted(t, url) > before
	})
}

// drainLine is serve's "shutting down" line (how many connections were open at SIGTERM).
func drainLine(t *testing.T, log string) string {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "shutting down") {
			return line
		}
	}
	return "(none)"
}
