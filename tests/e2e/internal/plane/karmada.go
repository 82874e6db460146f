package plane

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"time"
)

// aggregatedAPIService registers karmada-aggregated-apiserver as Karmada's own deployment does
// (artifacts/deploy/karmada-aggregated-apiserver-apiservice.yaml: an ExternalName Service), with the
// name pointed at localhost and the APIService's port at the one the server listens on. kube-apiserver
// verifies the serving certificate for karmada-aggregated-apiserver.karmada-system.svc, which `certs`
// puts in the certificate.
const aggregatedAPIService = `apiVersion: v1
kind: Namespace
metadata:
  name: karmada-system
---
apiVersion: v1
kind: Service
metadata:
  name: karmada-aggregated-apiserver
  namespace: karmada-system
spec:
  type: ExternalName
  externalName: localhost
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: v1alpha1.cluster.karmada.io
spec:
  caBundle: %s
  group: cluster.karmada.io
  groupPriorityMinimum: 2000
  service:
    name: karmada-aggregated-apiserver
    namespace: karmada-system
    port: %d
  version: v1alpha1
  versionPriority: 10
`

// startAggregatedAPIServer serves cluster.karmada.io (Clusters are not a CRD) from the same etcd.
func (p *Plane) startAggregatedAPIServer(ctx context.Context) error {
	certDir, bundle, err := p.makeCerts("karmada-aggregated-apiserver")
	if err != nil {
		return err
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	kc := p.Kubeconfig()
	c := Component{Name: "karmada-aggregated-apiserver", Log: p.logFile("karmada-aggregated-apiserver"),
		Ports: map[string]int{"secure": port},
		Args: []string{"--kubeconfig", kc, "--authentication-kubeconfig", kc, "--authorization-kubeconfig", kc,
			"--etcd-servers", p.env.ControlPlane.Etcd.URL.String(),
			"--tls-cert-file", filepath.Join(certDir, "tls.crt"), "--tls-private-key-file", filepath.Join(certDir, "tls.key"),
			"--bind-address", "127.0.0.1", "--secure-port", strconv.Itoa(port)}}
	if err := p.start(ctx, c, filepath.Join(p.cfg.Bin, "karmada-aggregated-apiserver"),
		fmt.Sprintf("https://127.0.0.1:%d/readyz", port), filepath.Join(certDir, "ca.crt")); err != nil {
		return err
	}
	if _, err := p.Kubectl(fmt.Sprintf(aggregatedAPIService, bundle, port), "apply", "-f", "-"); err != nil {
		return err
	}
	// The aggregator marks the APIService Available once it has reached the server.
	return p.until(ctx, "the cluster.karmada.io API (APIService v1alpha1.cluster.karmada.io)", func() error {
		_, err := p.Kubectl("", "get", "clusters.cluster.karmada.io")
		return err
	})
}

// startScheduler runs karmada-scheduler with its defaults (no scheduler-estimator, as the oracle; with
// members and Estimator, --enable-scheduler-estimator: estimator.go) and no leader election (one replica).
func (p *Plane) startScheduler(ctx context.Context) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	args := []string{"--kubeconfig", p.Kubeconfig(), "--leader-elect=false", "--metrics-bind-address", "0",
		"--health-probe-bind-address", fmt.Sprintf("127.0.0.1:%d", port)}
	path := filepath.Join(p.cfg.Bin, "karmada-scheduler")
	if p.cfg.Members > 0 && p.cfg.Estimator {
		// Built with the tag that lets it encode the estimator's gRPC messages (control-plane.sh
		// build_members).
		path = filepath.Join(p.cfg.Bin, "estimator", "karmada-scheduler")
		args = append(args, "--enable-scheduler-estimator")
	}
	c := Component{Name: "karmada-scheduler", Log: p.logFile("karmada-scheduler"),
		Ports: map[string]int{"health": port}, Args: args}
	return p.start(ctx, c, path, fmt.Sprintf("http://127.0.0.1:%d/healthz", port), "")
}

// ControllerManagerControllers are the controllers run without member clusters: the resource detector
// (always on) turns policies and templates into bindings; binding and bindingStatus make Works; the
// graceful-eviction and rebalancer controllers finish what the scheduler starts. Left out: clusterStatus
// (it would overwrite the Cluster status the tests write, as no member answers), cluster (its Ready ->
// taint rule is not needed by most tests; the dr-failover drill restarts the controller-manager with it),
// execution and workStatus (they talk to members), and the rest (networking, HPA, quotas). With member
// clusters (Config.Members) the controller-manager runs Karmada's default set instead (no --controllers):
// Cluster status, resource summaries, API enablements, Works executed on the members and their status
// aggregated all come from Karmada.
var ControllerManagerControllers = "binding,bindingStatus,gracefulEviction,workloadRebalancer,namespace"

func (p *Plane) startControllerManager(ctx context.Context) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	args := []string{"--kubeconfig", p.Kubeconfig(), "--leader-elect=false", "--metrics-bind-address", "0",
		"--health-probe-bind-address", fmt.Sprintf("127.0.0.1:%d", port)}
	if p.cfg.Members == 0 {
		args = append(args, "--controllers", ControllerManagerControllers)
	} else if p.cfg.Failover {
		args = append(args, "--feature-gates", "Failover=true", "--enable-no-execute-taint-eviction=true")
	}
	c := Component{Name: "karmada-controller-manager", Log: p.logFile("karmada-controller-manager"),
		Ports: map[string]int{"health": port}, Args: args}
	return p.start(ctx, c, filepath.Join(p.cfg.Bin, "karmada-controller-manager"), fmt.Sprintf("http://127.0.0.1:%d/healthz", port), "")
}

// until retries f every 100 ms until it succeeds or the component timeout passes.
func (p *Plane) until(ctx context.Context, what string, f func() error) error {
	wctx, cancel := context.WithTimeout(ctx, p.cfg.Timeout)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		err := f()
		if err == nil {
			return nil
		}
		select {
		case <-wctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, err)
		case <-tick.C:
		}
	}
}
