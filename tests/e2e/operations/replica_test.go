package operations

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
	"karmada-policy-webhook/tests/e2e/internal/plane"
	"karmada-policy-webhook/tests/e2e/internal/proc"
)

// replica is one `serve` the test starts (a pod of the Deployment, in manifests/base terms), with the
// plane's flags plus --v 1 or more, so that its log has a line for every review it answers.
type replica struct {
	name                    string
	proc                    *proc.Process
	secure, health, metrics int
	log                     string
}

func startReplica(t *testing.T, e e2eenv.Env, name, certDir, verbosity string) *replica {
	t.Helper()
	// Ports 0 and --port-file: ports picked beforehand could be taken by another process before serve
	// binds them ("Address already in use" under a busy machine).
	r := &replica{name: name, log: filepath.Join(e.Dir, "logs", name+".log")}
	portFile := filepath.Join(e.Dir, "logs", name+".ports")
	_ = os.Remove(portFile) // a replica of the same name started earlier left its own
	args := append(plane.OurWebhookArgs(certDir, 0, 0, 0), "--v", verbosity, "--port-file", portFile)
	r.proc = &proc.Process{Name: name, Path: e.Lint, Args: args, Log: r.log}
	if err := r.proc.Start(plane.PidFile(e.Dir)); err != nil { // recorded for control-plane.sh down
		t.Fatal(err)
	}
	exited := func() {
		select {
		case <-r.proc.Exited():
			t.Fatalf("%s exited: %v\n%s", name, r.proc.ExitError(), r.proc.Tail(20))
		default:
		}
	}
	e2eenv.WaitFor(t, name+" to write its ports", 30*time.Second, func() bool {
		exited()
		addrs, ok := e2eenv.ReadPortFile(portFile)
		r.secure, r.health, r.metrics = e2eenv.Port(addrs["webhook"]), e2eenv.Port(addrs["health"]), e2eenv.Port(addrs["metrics"])
		return ok && r.secure != 0 && r.health != 0 && r.metrics != 0
	})
	e2eenv.WaitFor(t, name+" to be ready", 30*time.Second, func() bool {
		exited()
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/readyz", r.health))
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return r
}

// addr is the replica's webhook endpoint ("pod IP:port").
func (r *replica) addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(r.secure)) }

// stop sends SIGTERM and waits for the exit (SIGKILL after the grace period, which counts as a failure
// of the drain).
func (r *replica) stop() { r.proc.Stop(40 * time.Second) }

// reviews counts the admitted reviews of one object ("namespace/name") in the replica's log.
func (r *replica) reviews(t *testing.T, object string) int {
	t.Helper()
	b, err := os.ReadFile(r.log)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, " msg=admission ") && strings.Contains(line, " object="+object+" ") &&
			strings.Contains(line, " allowed=true ") {
			n++
		}
	}
	return n
}

// admitted is the replica's controller_runtime_webhook_requests_total for PropagationPolicy reviews
// answered 200.
func (r *replica) admitted(t *testing.T) int {
	t.Helper()
	return admitted(t, fmt.Sprintf("http://127.0.0.1:%d/metrics", r.metrics))
}

func admitted(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "controller_runtime_webhook_requests_total{") &&
			strings.Contains(line, `code="200"`) && strings.Contains(line, `/validate-propagationpolicy"`) {
			n, err := strconv.Atoi(line[strings.LastIndex(line, " ")+1:])
			if err != nil {
				t.Fatalf("metrics line %q: %v", line, err)
			}
			return n
		}
	}
	return 0
}

// serves reports whether a TLS handshake with the replica succeeds trusting only caFile: it presents a
// certificate that CA signed, for 127.0.0.1.
func (r *replica) serves(t *testing.T, caFile string) bool {
	t.Helper()
	return r.handshake(t, caFile) == nil
}

// refuses checks that a client trusting only caFile cannot complete a handshake with the replica because
// its certificate is signed by another authority (not because the replica is unreachable or the handshake
// failed for another reason).
func (r *replica) refuses(t *testing.T, caFile string) {
	t.Helper()
	err := r.handshake(t, caFile)
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) {
		t.Errorf("%s: a TLS client trusting only %s: want x509's unknown authority, got %v", r.name, caFile, err)
	}
}

// handshake is a TLS handshake with the replica trusting only caFile, for the name 127.0.0.1.
func (r *replica) handshake(t *testing.T, caFile string) error {
	t.Helper()
	pem, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatalf("no certificate in %s", caFile)
	}
	c, err := tls.DialWithDialer(&net.Dialer{Timeout: 2 * time.Second}, "tcp", r.addr(),
		&tls.Config{RootCAs: pool, ServerName: "127.0.0.1"})
	if err != nil {
		return err
	}
	return c.Close()
}

// mountSecret puts src's ca.crt, tls.crt and tls.key into dir as the kubelet updates a Secret volume
// (its atomic writer): the files in a new hidden directory, the ..data link switched to it by one rename,
// the file names links through ..data, the previous directory removed.
func mountSecret(t *testing.T, dir, src, version string) {
	t.Helper()
	files := []string{"ca.crt", "tls.crt", "tls.key"}
	target := "..v" + version
	if err := os.MkdirAll(filepath.Join(dir, target), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, target, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(dir, "..data")
	previous, _ := os.Readlink(data)
	tmp := filepath.Join(dir, "..data_tmp")
	_ = os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, data); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		link := filepath.Join(dir, f)
		if _, err := os.Lstat(link); err == nil {
			continue
		}
		if err := os.Symlink(filepath.Join("..data", f), link); err != nil {
			t.Fatal(err)
		}
	}
	if previous != "" && previous != target {
		if err := os.RemoveAll(filepath.Join(dir, previous)); err != nil {
			t.Fatal(err)
		}
	}
}
