package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// connectProxy is an HTTP CONNECT proxy of the test's own on 127.0.0.1: it relays each tunnel and counts
// them, per target, so that the test knows our binary's connections went through it.
type connectProxy struct {
	url      string
	server   *http.Server
	mu       sync.Mutex
	tunnels  map[string]int // CONNECT target -> tunnels opened
	refusals int            // requests that were not CONNECT
}

func startConnectProxy(t *testing.T) *connectProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &connectProxy{url: "http://" + ln.Addr().String(), tunnels: map[string]int{}}
	p.server = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(p.serve)}
	go func() {
		if err := p.server.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("proxy: %v", err)
		}
	}()
	t.Cleanup(func() { _ = p.server.Close() })
	return p
}

func (p *connectProxy) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodConnect {
		p.mu.Lock()
		p.refusals++
		p.mu.Unlock()
		http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
		return
	}
	upstream, err := net.DialTimeout("tcp", r.Host, 10*time.Second)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	hijacker, ok := w.(http.Hijacker)
	if !ok {
		upstream.Close()
		http.Error(w, "cannot hijack", http.StatusInternalServerError)
		return
	}
	client, buffered, err := hijacker.Hijack()
	if err != nil {
		upstream.Close()
		return
	}
	p.mu.Lock()
	p.tunnels[r.Host]++
	p.mu.Unlock()
	_, _ = client.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
	go func() {
		// What the client sent after its CONNECT (a TLS ClientHello) may already be buffered.
		_, _ = io.Copy(upstream, buffered)
		upstream.(*net.TCPConn).CloseWrite()
	}()
	go func() {
		_, _ = io.Copy(client, upstream)
		client.Close()
		upstream.Close()
	}()
}

// count is the number of tunnels opened to target so far.
func (p *connectProxy) count(target string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tunnels[target]
}

func (p *connectProxy) report() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return fmt.Sprintf("tunnels %v, refused requests %d", p.tunnels, p.refusals)
}

// proxiedKubeconfig writes a copy of the plane's kubeconfig whose clusters have proxy-url set, and returns
// it with the API server's host:port (the CONNECT target the proxy must see).
func proxiedKubeconfig(t *testing.T, e e2eenv.Env, proxyURL string) (string, string) {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(e.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	if err := clientcmd.ResolveLocalPaths(cfg); err != nil { // the copy lives elsewhere
		t.Fatal(err)
	}
	target := ""
	for _, c := range cfg.Clusters {
		c.ProxyURL = proxyURL
		target = strings.TrimPrefix(c.Server, "https://")
	}
	if len(cfg.Clusters) != 1 {
		t.Fatalf("the plane's kubeconfig has %d clusters, want 1", len(cfg.Clusters))
	}
	file := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, file); err != nil {
		t.Fatal(err)
	}
	return file, target
}

// TestLiveThroughProxy (issue 38): lint, plan and serve reach the plane through an HTTP CONNECT proxy the
// kubeconfig's proxy-url names, and answer what they answer without it. The plane's address is
// 127.0.0.1, which the environment's HTTPS_PROXY never proxies (Go's rule): only proxy-url can.
func TestLiveThroughProxy(t *testing.T) {
	ctx := context.Background()
	x := setUp(t, ctx)
	proxy := startConnectProxy(t)
	proxied, target := proxiedKubeconfig(t, x.e, proxy.url)

	t.Run("lint --kubeconfig", func(t *testing.T) {
		before := proxy.count(target)
		args := append([]string{"lint", "-o", "json"}, x.policies...)
		direct := x.run(t, append(args, "--kubeconfig", x.e.Kubeconfig)...)
		through := x.run(t, append(args, "--kubeconfig", proxied)...)
		if proxy.count(target) == before {
			t.Fatalf("lint made no connection through the proxy (%s)", proxy.report())
		}
		if d, p := field(t, direct, "results"), field(t, through, "results"); d != p {
			t.Errorf("results differ\ndirect:\n%s\nthrough the proxy:\n%s", d, p)
		}
		if d, p := claimed(t, direct), claimed(t, through); d != p || d == "null" {
			t.Errorf("claims differ or are empty\ndirect:\n%s\nthrough the proxy:\n%s", d, p)
		}
	})

	t.Run("plan --kubeconfig", func(t *testing.T) {
		before := proxy.count(target)
		edit := filepath.Join(x.dir, "pr-edit")
		direct := x.run(t, "plan", "-o", "json", "--kubeconfig", x.e.Kubeconfig, edit)
		through := x.run(t, "plan", "-o", "json", "--kubeconfig", proxied, edit)
		if proxy.count(target) == before {
			t.Fatalf("plan made no connection through the proxy (%s)", proxy.report())
		}
		for _, name := range []string{"policies", "diff"} {
			if d, p := field(t, direct, name), field(t, through, name); d != p {
				t.Errorf("%s differ\ndirect:\n%s\nthrough the proxy:\n%s", name, d, p)
			}
		}
	})

	t.Run("serve --kubeconfig", func(t *testing.T) {
		before := proxy.count(target)
		viaProxy := x.e
		viaProxy.Kubeconfig = proxied
		direct, through := startServe(t, x.e), startServe(t, viaProxy)
		const clusters, deployments = "clusters.cluster.karmada.io", "deployments.apps"
		for _, s := range []*liveServe{direct, through} {
			e2eenv.WaitFor(t, "serve's watches to sync", time.Minute, func() bool {
				return s.metric(t, watchState(clusters, "synced")) && s.metric(t, watchState(deployments, "synced"))
			})
		}
		// Two watches (Clusters, Deployments) at least, each its own connection, all through the proxy.
		if n := proxy.count(target) - before; n < 2 {
			t.Fatalf("serve opened %d tunnels through the proxy, want at least 2 (%s)", n, proxy.report())
		}
		line := fmt.Sprintf(`karmada_policy_webhook_live_objects{resource=%q} %d`, clusters, len(x.liveClusters(t)))
		if !through.metric(t, line) {
			t.Errorf("serve through the proxy: /metrics lacks %q", line)
		}
		for _, policy := range []map[string]any{
			nginxPolicy(map[string]any{"clusterAffinities": []any{
				map[string]any{"affinityName": "dc-shanghai", "clusterNames": []any{addedCluster}},
				map[string]any{"affinityName": "dc-beijing", "clusterNames": []any{"member1"}}}}),
			nginxPolicy(map[string]any{"clusterAffinity": map[string]any{"clusterNames": []any{"member1"}}}),
		} {
			d, p := direct.warnings(t, policy), through.warnings(t, policy)
			if strings.Join(d, "\n") != strings.Join(p, "\n") {
				t.Errorf("warnings differ\ndirect: %q\nthrough the proxy: %q", d, p)
			}
		}
	})
	t.Logf("proxy: %s", proxy.report())
}
