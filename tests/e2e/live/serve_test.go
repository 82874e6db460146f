package live

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// liveServe is a `serve --kubeconfig` of the test's own, registered nowhere: the test posts
// AdmissionReviews to it over TLS (trusting the development CA --self-signed writes) and reads /metrics.
type liveServe struct {
	cmd              *exec.Cmd
	exited           chan struct{}
	log              string
	webhook, metrics string // host:port
	health           string
	client           *http.Client
}

// startServe starts serve with --kubeconfig and the Deployments as live workloads; the test's cleanup
// stops it (SIGTERM, then SIGKILL after 10 s).
func startServe(t *testing.T, e e2eenv.Env) *liveServe {
	t.Helper()
	dir := t.TempDir()
	s := &liveServe{log: filepath.Join(dir, "serve.log"), exited: make(chan struct{})}
	logFile, err := os.Create(s.log)
	if err != nil {
		t.Fatal(err)
	}
	portFile := filepath.Join(dir, "ports")
	s.cmd = exec.Command(e.Lint, "serve", "--self-signed", "--cert-dir", filepath.Join(dir, "certs"),
		"--bind-address", "127.0.0.1", "--secure-port=0", "--port-file", portFile,
		"--health-probe-bind-address", "127.0.0.1:0", "--metrics-bind-address", "127.0.0.1:0",
		"--kubeconfig", e.Kubeconfig, "--live-workloads", "apps/v1/Deployment")
	s.cmd.Stdout, s.cmd.Stderr = logFile, logFile
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = s.cmd.Wait()
		logFile.Close()
		close(s.exited)
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-s.exited
		}
		if t.Failed() {
			t.Logf("serve's log:\n%s", s.tail())
		}
	})
	e2eenv.WaitFor(t, "serve to write its ports", 30*time.Second, func() bool {
		select {
		case <-s.exited:
			t.Fatalf("serve exited:\n%s", s.tail())
		default:
		}
		addrs, _ := e2eenv.ReadPortFile(portFile)
		s.webhook, s.metrics, s.health = addrs["webhook"], addrs["metrics"], addrs["health"]
		return s.webhook != "" && s.metrics != "" && s.health != ""
	})
	ca, err := os.ReadFile(filepath.Join(dir, "certs", "ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		t.Fatal("no certificate in serve's ca.crt")
	}
	s.client = &http.Client{Timeout: 10 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
	return s
}

func (s *liveServe) tail() string {
	b, _ := os.ReadFile(s.log)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	return strings.Join(lines, "\n")
}

// get is a plain-HTTP GET of the metrics or health port: the status code and the body.
func (s *liveServe) get(t *testing.T, hostPort, path string) (int, string) {
	t.Helper()
	res, err := http.Get("http://" + hostPort + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(b)
}

// metric says whether /metrics has this exact line.
func (s *liveServe) metric(t *testing.T, line string) bool {
	t.Helper()
	_, body := s.get(t, s.metrics, "/metrics")
	return strings.Contains(body, "\n"+line+"\n")
}

func watchState(resource, state string) string {
	return fmt.Sprintf(`karmada_policy_webhook_live_watch_state{resource=%q,state=%q} 1`, resource, state)
}

// warnings posts a CREATE review of the policy and returns the warnings of the (required) admission.
func (s *liveServe) warnings(t *testing.T, policy map[string]any) []string {
	t.Helper()
	review := map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
		"request": map[string]any{"uid": "e2e-live", "operation": "CREATE", "name": "nginx", "namespace": "default",
			"kind":     map[string]any{"group": "policy.karmada.io", "version": "v1alpha1", "kind": "PropagationPolicy"},
			"resource": map[string]any{"group": "policy.karmada.io", "version": "v1alpha1", "resource": "propagationpolicies"},
			"userInfo": map[string]any{"username": "e2e"}, "object": policy}}
	body, err := json.Marshal(review)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.client.Post("https://"+s.webhook+"/validate", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("POST /validate: %v", err)
	}
	defer res.Body.Close()
	var out struct {
		Response struct {
			Allowed  bool     `json:"allowed"`
			Warnings []string `json:"warnings"`
		} `json:"response"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("POST /validate: %d %v", res.StatusCode, err)
	}
	if !out.Response.Allowed {
		t.Fatalf("serve denied %v", policy)
	}
	return out.Response.Warnings
}

// mentions says whether one of the warnings holds part.
func mentions(warnings []string, part string) bool {
	for _, w := range warnings {
		if strings.Contains(w, part) {
			return true
		}
	}
	return false
}

// nginxPolicy is a PropagationPolicy for the example Deployment default/nginx with this placement, as
// Karmada's mutating webhook leaves it (the permanent-id label and the defaults set) before ours sees it.
func nginxPolicy(placement map[string]any) map[string]any {
	return map[string]any{"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
		"metadata": map[string]any{"name": "e2e-live", "namespace": "default", "labels": map[string]any{
			"propagationpolicy.karmada.io/permanent-id": "4f3c5a1e-0000-4000-8000-000000000027"}},
		"spec": map[string]any{
			"resourceSelectors": []any{map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
				"namespace": "default", "name": "nginx"}},
			"placement": placement, "schedulerName": "default-scheduler", "conflictResolution": "Abort",
			"preemption": "Never", "priority": 0}}
}

const addedCluster = "dc-shanghai-1" // the Cluster the serve test adds and deletes

// serveFollowsClusters: serve --kubeconfig's snapshot follows a Cluster added, a Cluster tainted NoSchedule
// and a Cluster deleted with kubectl, as the admission warnings show; then it survives a restart of
// kube-apiserver (admission answers from the last snapshot meanwhile, the watch resumes after).
func serveFollowsClusters(t *testing.T, ctx context.Context, x *examples) {
	s := startServe(t, x.e)
	const clusters, deployments = "clusters.cluster.karmada.io", "deployments.apps"
	e2eenv.WaitFor(t, "serve's watches to sync", time.Minute, func() bool {
		return s.metric(t, watchState(clusters, "synced")) && s.metric(t, watchState(deployments, "synced"))
	})
	if line := fmt.Sprintf(`karmada_policy_webhook_live_objects{resource=%q} %d`, clusters, len(x.liveClusters(t))); !s.metric(t, line) {
		t.Errorf("serve's /metrics lacks %q", line)
	}

	groups := nginxPolicy(map[string]any{"clusterAffinities": []any{
		map[string]any{"affinityName": "dc-shanghai", "clusterNames": []any{addedCluster}},
		map[string]any{"affinityName": "dc-beijing", "clusterNames": []any{"member1"}}}})
	onMember1 := nginxPolicy(map[string]any{"clusterAffinity": map[string]any{"clusterNames": []any{"member1"}}})
	const noCluster = "affinity group dc-shanghai matches no cluster"
	if w := s.warnings(t, groups); !mentions(w, noCluster) {
		t.Fatalf("before %s exists: warnings %q lack %q", addedCluster, w, noCluster)
	}
	if w := s.warnings(t, onMember1); mentions(w, "unschedulable") {
		t.Fatalf("member1 untainted: warnings %q say unschedulable", w)
	}

	// Added: a Cluster dc-shanghai-1 (member1's spec and status) appears, the warning goes.
	var member1 map[string]any
	for _, item := range clusterItems(t, filepath.Join(x.dir, "clusters.yaml")) {
		if (&unstructured.Unstructured{Object: item}).GetName() == "member1" {
			member1 = item
		}
	}
	added := &unstructured.Unstructured{Object: member1}
	added.SetName(addedCluster)
	createCluster(t, ctx, x.dyn, added)
	e2eenv.WaitFor(t, "serve to see "+addedCluster, 30*time.Second, func() bool {
		return !mentions(s.warnings(t, groups), "dc-shanghai")
	})

	// Tainted: member1 NoSchedule leaves nginx (a watched Deployment) unschedulable there.
	taint := map[string]any{"key": "e2e-live", "effect": "NoSchedule"}
	e2eenv.UpdateCluster(t, ctx, x.dyn, "member1", func(c *unstructured.Unstructured) {
		taints, _, _ := unstructured.NestedSlice(c.Object, "spec", "taints")
		_ = unstructured.SetNestedSlice(c.Object, append(taints, taint), "spec", "taints")
	})
	untaint := func() {
		e2eenv.UpdateCluster(t, ctx, x.dyn, "member1", func(c *unstructured.Unstructured) {
			taints, _, _ := unstructured.NestedSlice(c.Object, "spec", "taints")
			var kept []any
			for _, tn := range taints {
				if m, _ := tn.(map[string]any); m["key"] != taint["key"] {
					kept = append(kept, tn)
				}
			}
			if len(kept) == 0 {
				unstructured.RemoveNestedField(c.Object, "spec", "taints")
				return
			}
			_ = unstructured.SetNestedSlice(c.Object, kept, "spec", "taints")
		})
	}
	e2eenv.WaitFor(t, "serve to see member1's taint", 30*time.Second, func() bool {
		return mentions(s.warnings(t, onMember1), "unschedulable")
	})
	untaint()
	e2eenv.WaitFor(t, "serve to see member1's taint removed", 30*time.Second, func() bool {
		return !mentions(s.warnings(t, onMember1), "unschedulable")
	})

	// Deleted: dc-shanghai-1 goes, the warning is back.
	x.kubectl(t, "delete", "cluster", addedCluster)
	e2eenv.WaitFor(t, "serve to see "+addedCluster+" deleted", 30*time.Second, func() bool {
		return mentions(s.warnings(t, groups), noCluster)
	})

	t.Run("kube-apiserver restarted", func(t *testing.T) {
		restart := restartAPIServer(t, x.e)
		// Away: admission keeps answering from the last snapshot, /readyz stays 200, /metrics says so.
		e2eenv.WaitFor(t, "serve to notice kube-apiserver is gone", time.Minute, func() bool {
			return s.metric(t, watchState(clusters, "retrying"))
		})
		if w := s.warnings(t, groups); !mentions(w, noCluster) {
			t.Errorf("kube-apiserver away: warnings %q lack %q", w, noCluster)
		}
		if code, body := s.get(t, s.health, "/readyz"); code != http.StatusOK {
			t.Errorf("kube-apiserver away: /readyz %d %s", code, body)
		}
		restart()
		e2eenv.WaitFor(t, "serve's watches to sync again", 2*time.Minute, func() bool {
			return s.metric(t, watchState(clusters, "synced")) && s.metric(t, watchState(deployments, "synced"))
		})
		// Back: the watch follows a change made after the restart.
		createCluster(t, ctx, x.dyn, added)
		e2eenv.WaitFor(t, "serve to see "+addedCluster+" after the restart", 30*time.Second, func() bool {
			return !mentions(s.warnings(t, groups), "dc-shanghai")
		})
		x.kubectl(t, "delete", "cluster", addedCluster)
		e2eenv.WaitFor(t, "serve to see "+addedCluster+" deleted after the restart", 30*time.Second, func() bool {
			return mentions(s.warnings(t, groups), noCluster)
		})
	})
	if b, err := os.ReadFile(s.log); err == nil && strings.Contains(string(b), "BEGIN") {
		t.Errorf("serve's log holds key material")
	}
}

// liveClusters are the Clusters on the plane now.
func (x *examples) liveClusters(t *testing.T) []string {
	t.Helper()
	out := x.kubectl(t, "get", "clusters", "-o", "name")
	return strings.Fields(out)
}
