// Package plane starts a Karmada control plane on loopback from binaries built from Go modules: etcd and
// kube-apiserver through controller-runtime's envtest (which also provisions the admin user and installs
// Karmada's CRDs), karmada-aggregated-apiserver (cluster.karmada.io) behind the aggregation layer, then
// karmada-webhook and karmada-policy-webhook's serve, each registered the way its users register it
// (Karmada's artifacts/deploy/webhook-configuration.yaml, our manifests/karmada-apiserver), with
// certificates made by our `certs` command, and last karmada-scheduler and karmada-controller-manager.
package plane

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"karmada-policy-webhook/tests/e2e/internal/proc"
)

// Config says where everything is.
type Config struct {
	Dir        string        // state: kubeconfig, logs, pids, certificates (created)
	Bin        string        // etcd, kube-apiserver, kubectl and the karmada-* binaries
	KarmadaDir string        // the pinned Karmada module's source (CRDs, webhook configuration)
	Webhook    string        // the karmada-policy-webhook binary
	Repo       string        // the repository root (manifests/)
	Timeout    time.Duration // for each component to become ready
	// Release is the Karmada release of the components in Bin and of KarmadaDir, Default the default
	// release (tests/e2e/go.mod's). On an older release our serve is started with --karmada-version Release,
	// as an operator of that release configures it.
	Release, Default string
	// Members is how many member clusters to start and join (0: none, the Cluster status is the tests' to
	// write); Estimator runs karmada-scheduler-estimator for each and karmada-scheduler with
	// --enable-scheduler-estimator. KwokDir is the sigs.k8s.io/kwok module's source (its default stages).
	Members   int
	Estimator bool
	KwokDir   string
	// Failover turns on cluster failover as an operator does (with members only): the Failover gate and
	// NoExecute taint eviction in karmada-controller-manager (cmd/controller-manager/app/
	// controllermanager.go:297 and :828 in Karmada v1.18.2: the taint manager and the ClusterTaintPolicy
	// controller run only with the gate), and karmada-webhook admitting a ClusterTaintPolicy with a
	// NoExecute taint (--allow-no-execute-taint-policy).
	Failover bool
}

// Component is what the state directory's components.json says of one started component.
type Component struct {
	Name  string         `json:"name"`
	Pid   int            `json:"pid"`
	Log   string         `json:"log"`
	Args  []string       `json:"args"`
	Ports map[string]int `json:"ports"`
}

// Plane is a running control plane.
type Plane struct {
	cfg        Config
	env        *envtest.Environment
	procs      []*proc.Process
	Components []Component
	Members    []*Member
}

// PidFile records every pid started, for `down` after a crash.
func PidFile(dir string) string { return filepath.Join(dir, "pids") }

// Up starts everything and returns once each component is ready (the Karmada API aggregated, both webhooks
// answering through the API server, the scheduler and the controller-manager healthy). On error, whatever was started is stopped again.
func Up(ctx context.Context, cfg Config) (p *Plane, err error) {
	for _, d := range []string{cfg.Dir, filepath.Join(cfg.Dir, "logs"), filepath.Join(cfg.Dir, "pki")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	p = &Plane{cfg: cfg}
	defer func() {
		if err != nil {
			p.Down()
		}
	}()
	if err := p.startAPIServer(); err != nil {
		return p, err
	}
	steps := []func(context.Context) error{p.startAggregatedAPIServer, p.startKarmadaWebhook,
		p.startOurWebhook, p.waitAdmission}
	if cfg.Members > 0 {
		// The estimators' Services exist before karmada-scheduler starts and the Clusters after: the
		// scheduler dials an estimator when it first sees its Cluster (and retries a failed dial).
		steps = append(steps, p.startMembers)
		if cfg.Estimator {
			steps = append(steps, p.startEstimators)
		}
	}
	steps = append(steps, p.startScheduler, p.startControllerManager)
	if cfg.Members > 0 {
		steps = append(steps, p.joinMembers)
	}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return p, err
		}
	}
	if err := p.writeMembers(); err != nil {
		return p, err
	}
	return p, p.writeComponents()
}

func (p *Plane) logFile(name string) string { return filepath.Join(p.cfg.Dir, "logs", name+".log") }

// Kubeconfig is the admin kubeconfig's path.
func (p *Plane) Kubeconfig() string { return filepath.Join(p.cfg.Dir, "kubeconfig") }

func (p *Plane) startAPIServer() error {
	crds, err := filepath.Glob(filepath.Join(p.cfg.KarmadaDir, "charts/karmada/_crds/bases/*"))
	if err != nil || len(crds) == 0 {
		return fmt.Errorf("no Karmada CRDs under %s/charts/karmada/_crds/bases", p.cfg.KarmadaDir)
	}
	apiLog, err := os.Create(p.logFile("kube-apiserver"))
	if err != nil {
		return err
	}
	etcdLog, err := os.Create(p.logFile("etcd"))
	if err != nil {
		return err
	}
	p.env = &envtest.Environment{
		BinaryAssetsDirectory:    p.cfg.Bin,
		CRDDirectoryPaths:        crds,
		ErrorIfCRDPathMissing:    true,
		ControlPlaneStartTimeout: p.cfg.Timeout,
		ControlPlaneStopTimeout:  30 * time.Second,
	}
	p.env.ControlPlane.APIServer = &envtest.APIServer{Out: apiLog, Err: apiLog}
	fp, err := makeFrontProxy(filepath.Join(p.cfg.Dir, "pki"))
	if err != nil {
		return err
	}
	args := p.env.ControlPlane.APIServer.Configure()
	for k, v := range fp.apiServerArgs() {
		args.Set(k, v)
	}
	p.env.ControlPlane.Etcd = &envtest.Etcd{Out: etcdLog, Err: etcdLog}
	_, startErr := p.env.Start()
	for _, pid := range proc.Children() { // etcd and kube-apiserver, so that `down` finds them after a crash
		_ = proc.AppendPid(PidFile(p.cfg.Dir), pid)
	}
	if startErr != nil {
		return fmt.Errorf("etcd + kube-apiserver (envtest): %w\nkube-apiserver:\n%s\netcd:\n%s", startErr,
			proc.TailFile(p.logFile("kube-apiserver"), 20), proc.TailFile(p.logFile("etcd"), 20))
	}
	if err := os.WriteFile(p.Kubeconfig(), p.env.KubeConfig, 0o600); err != nil {
		return err
	}
	p.Components = append(p.Components, Component{Name: "kube-apiserver", Log: p.logFile("kube-apiserver"),
		Ports: map[string]int{"secure": atoi(p.env.ControlPlane.APIServer.SecureServing.Port)}})
	return nil
}

// makeCerts runs `karmada-policy-webhook certs` for a service and returns the directory and the base64
// CA bundle it printed.
func (p *Plane) makeCerts(service string) (string, string, error) {
	dir := filepath.Join(p.cfg.Dir, "pki", service)
	out, err := exec.Command(p.cfg.Webhook, "certs", "--service", service, "--namespace", "karmada-system",
		"--host", "127.0.0.1", "--out", dir).Output()
	if err != nil {
		return "", "", fmt.Errorf("certs for %s: %w", service, exitText(err))
	}
	return dir, strings.TrimSpace(string(out)), nil
}

// start starts a component and waits for its health URL.
func (p *Plane) start(ctx context.Context, c Component, path, healthURL, caFile string) error {
	pr := &proc.Process{Name: c.Name, Path: path, Args: c.Args, Log: c.Log}
	if err := pr.Start(PidFile(p.cfg.Dir)); err != nil {
		return err
	}
	p.procs = append(p.procs, pr)
	c.Pid = pr.Pid()
	p.Components = append(p.Components, c)
	wctx, cancel := context.WithTimeout(ctx, p.cfg.Timeout)
	defer cancel()
	if err := waitHTTP(wctx, healthURL, caFile, pr.Exited()); err != nil {
		return fmt.Errorf("%s did not become ready: %w; its log (%s):\n%s", c.Name, err, c.Log, pr.Tail(20))
	}
	return nil
}

func (p *Plane) startKarmadaWebhook(ctx context.Context) error {
	certDir, bundle, err := p.makeCerts("karmada-webhook")
	if err != nil {
		return err
	}
	ports, err := freePorts(2)
	if err != nil {
		return err
	}
	c := Component{Name: "karmada-webhook", Log: p.logFile("karmada-webhook"),
		Ports: map[string]int{"secure": ports[0], "health": ports[1]},
		Args: []string{"--kubeconfig", p.Kubeconfig(), "--bind-address", "127.0.0.1",
			"--secure-port", strconv.Itoa(ports[0]), "--cert-dir", certDir,
			"--health-probe-bind-address", fmt.Sprintf("127.0.0.1:%d", ports[1]), "--metrics-bind-address", "0"}}
	if p.cfg.Members > 0 && p.cfg.Failover {
		c.Args = append(c.Args, "--allow-no-execute-taint-policy=true")
	}
	// karmada-webhook adds no checks to its health probe server: its readiness is /readyz/ on the webhook
	// server itself (cmd/webhook/app/webhook.go), over TLS.
	if err := p.start(ctx, c, filepath.Join(p.cfg.Bin, "karmada-webhook"),
		fmt.Sprintf("https://127.0.0.1:%d/readyz/", ports[0]), filepath.Join(certDir, "ca.crt")); err != nil {
		return err
	}
	cfg, err := os.ReadFile(filepath.Join(p.cfg.KarmadaDir, "artifacts/deploy/webhook-configuration.yaml"))
	if err != nil {
		return err
	}
	return p.register(cfg, "https://karmada-webhook.karmada-system.svc:443", ports[0], bundle)
}

// OurWebhookArgs are serve's flags here; the e2e tests restart it with the same ones.
func OurWebhookArgs(certDir string, secure, health, metrics int) []string {
	return []string{"serve", "--cert-dir", certDir, "--bind-address", "127.0.0.1",
		"--secure-port", strconv.Itoa(secure),
		"--health-probe-bind-address", fmt.Sprintf("127.0.0.1:%d", health),
		"--metrics-bind-address", fmt.Sprintf("127.0.0.1:%d", metrics)}
}

func (p *Plane) startOurWebhook(ctx context.Context) error {
	certDir, bundle, err := p.makeCerts("karmada-policy-webhook")
	if err != nil {
		return err
	}
	ports, err := freePorts(3)
	if err != nil {
		return err
	}
	args := OurWebhookArgs(certDir, ports[0], ports[1], ports[2])
	if p.cfg.Release != p.cfg.Default {
		args = append(args, "--karmada-version", p.cfg.Release)
	}
	c := Component{Name: "karmada-policy-webhook", Log: p.logFile("karmada-policy-webhook"),
		Ports: map[string]int{"secure": ports[0], "health": ports[1], "metrics": ports[2]}, Args: args}
	if err := p.start(ctx, c, p.cfg.Webhook, fmt.Sprintf("http://127.0.0.1:%d/readyz", ports[1]), ""); err != nil {
		return err
	}
	cfg, err := os.ReadFile(filepath.Join(p.cfg.Repo, "manifests/karmada-apiserver/validating-webhook-configuration.yaml"))
	if err != nil {
		return err
	}
	return p.register(cfg, OurServiceURL, ports[0], bundle)
}

// register applies a webhook configuration as its README says (caBundle filled in), with the in-cluster
// Service URL pointed at the loopback port the server listens on.
func (p *Plane) register(cfg []byte, serviceURL string, port int, bundle string) error {
	_, err := p.Kubectl(Registration(cfg, serviceURL, port, bundle), "apply", "-f", "-")
	return err
}

// Registration is a webhook configuration as its README has a user fill it in (caBundle), with the
// in-cluster Service URL pointed at a loopback port: the only edit the control plane makes.
func Registration(cfg []byte, serviceURL string, port int, bundle string) string {
	text := strings.ReplaceAll(string(cfg), "{{caBundle}}", bundle)
	return strings.ReplaceAll(text, serviceURL, fmt.Sprintf("https://127.0.0.1:%d", port))
}

// OurServiceURL is the in-cluster URL manifests/karmada-apiserver registers our webhook at.
const OurServiceURL = "https://karmada-policy-webhook.karmada-system.svc:443"

// Kubectl runs the control plane's kubectl with the admin kubeconfig; stdin is given to it.
func (p *Plane) Kubectl(stdin string, args ...string) (string, error) {
	cmd := exec.Command(filepath.Join(p.cfg.Bin, "kubectl"), append([]string{"--kubeconfig", p.Kubeconfig()}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("kubectl %s: %w: %s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// waitAdmission: the API server reads webhook configurations asynchronously; ready means a server-side
// dry run of a valid policy and a denial of an invalid one both come back through the webhooks.
func (p *Plane) waitAdmission(ctx context.Context) error {
	valid := filepath.Join(p.cfg.Repo, "manifests/examples/dc-groups.yaml")
	invalid := filepath.Join(p.cfg.Repo, "manifests/examples/broken/duplicate-affinity-names.yaml")
	wctx, cancel := context.WithTimeout(ctx, p.cfg.Timeout)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var last string
	for {
		_, okErr := p.Kubectl("", "apply", "--dry-run=server", "-f", valid)
		denied, _ := p.Kubectl("", "apply", "--dry-run=server", "-f", invalid)
		if okErr == nil && strings.Contains(denied, "policy-webhook.karmada.io") {
			return nil
		}
		last = denied
		if okErr != nil {
			last = okErr.Error()
		}
		select {
		case <-wctx.Done():
			return fmt.Errorf("the webhooks do not answer through kube-apiserver: %s", last)
		case <-tick.C:
		}
	}
}

func (p *Plane) writeComponents() error {
	b, err := json.MarshalIndent(p.Components, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(p.cfg.Dir, "components.json"), b, 0o644)
}

// Down stops the components, then the members' kube-apiservers, then kube-apiserver and etcd. The
// components stop together: each is a client of the API servers only, and some (the aggregated API
// server, the webhooks) take their whole grace period to drain, which one after the other made every
// `down` take half a minute.
func (p *Plane) Down() {
	var stopped sync.WaitGroup
	for _, c := range p.procs {
		stopped.Add(1)
		go func() {
			defer stopped.Done()
			c.Stop(10 * time.Second)
		}()
	}
	stopped.Wait()
	p.stopMembers()
	if p.env != nil {
		_ = p.env.Stop()
	}
}

func exitText(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
	}
	return err
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
