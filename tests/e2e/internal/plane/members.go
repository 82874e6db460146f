package plane

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"karmada-policy-webhook/tests/e2e/internal/proc"
)

// Member is one member cluster of the plane (issue 39): its own kube-apiserver on the Karmada plane's
// etcd (a key prefix of its own), kube-controller-manager (Deployments -> ReplicaSets -> Pods, and the
// token controller `karmadactl join` waits for), kube-scheduler (pods onto nodes) and KWOK (the
// kubelets: nodes Ready with their capacity, pods Running). DIR/members.json lists them for the tests.
type Member struct {
	Name       string            `json:"name"`
	Labels     map[string]string `json:"labels"`
	Kubeconfig string            `json:"kubeconfig"`
	Server     string            `json:"server"` // the API endpoint `karmadactl join` writes into the Cluster
	// EstimatorPort is the gRPC port of the member's karmada-scheduler-estimator (0: none runs).
	EstimatorPort int `json:"estimatorPort,omitempty"`

	dir string
	api *envtest.APIServer
}

// MemberName and MemberLabels name the i-th member (0-based) as the seeds' drill wants them: even ones
// are the on-premises IDC, odd ones the public cloud, each numbered within its location (idc-1,
// cloud-1, idc-2, ...).
func MemberName(i int) string { return fmt.Sprintf("%s-%d", memberLocation(i), i/2+1) }

// MemberLabels are the labels the i-th member's Cluster gets.
func MemberLabels(i int) map[string]string { return map[string]string{"location": memberLocation(i)} }

func memberLocation(i int) string {
	if i%2 == 0 {
		return "idc"
	}
	return "cloud"
}

// MembersFile is where the plane lists its members.
func MembersFile(dir string) string { return filepath.Join(dir, "members.json") }

// startMembers starts every member's processes (not joined yet: join needs Karmada's controllers).
func (p *Plane) startMembers(ctx context.Context) error {
	stages, err := p.kwokStages()
	if err != nil {
		return err
	}
	for i := 0; i < p.cfg.Members; i++ {
		m := &Member{Name: MemberName(i), Labels: MemberLabels(i)}
		m.dir = filepath.Join(p.cfg.Dir, "members", m.Name)
		// Fresh every time: envtest makes the serving certificates (and tells their CA) only when
		// the directory has none (controlplane/apiserver.go populateAPIServerCerts).
		if err := os.RemoveAll(m.dir); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(m.dir, "pki"), 0o755); err != nil {
			return err
		}
		p.Members = append(p.Members, m)
		if err := p.startMemberAPIServer(m); err != nil {
			return err
		}
		for _, step := range []func(context.Context, *Member) error{p.startMemberControllerManager,
			p.startMemberScheduler} {
			if err := step(ctx, m); err != nil {
				return err
			}
		}
		if err := p.startKwok(ctx, m, stages); err != nil {
			return err
		}
	}
	return nil
}

// startMemberAPIServer runs the member's kube-apiserver through envtest (serving certificates, an admin
// client certificate, the service-account keys) on the plane's etcd under /members/NAME: one etcd for
// the whole plane, each API server in its own key space.
func (p *Plane) startMemberAPIServer(m *Member) error {
	log, err := os.Create(p.logFile(m.Name + "-kube-apiserver"))
	if err != nil {
		return err
	}
	m.api = &envtest.APIServer{Out: log, Err: log, CertDir: filepath.Join(m.dir, "pki"),
		Path: filepath.Join(p.cfg.Bin, "kube-apiserver"), EtcdURL: p.env.ControlPlane.Etcd.URL,
		StartTimeout: p.cfg.Timeout, StopTimeout: 30 * time.Second}
	m.api.Configure().Set("etcd-prefix", "/members/"+m.Name)
	before := map[int]bool{}
	for _, pid := range proc.Children() {
		before[pid] = true
	}
	startErr := m.api.Start()
	for _, pid := range proc.Children() { // the new child, so that `down` finds it after a crash
		if !before[pid] {
			_ = proc.AppendPid(PidFile(p.cfg.Dir), pid)
			p.Components = append(p.Components, Component{Name: m.Name + "/kube-apiserver", Pid: pid,
				Log: p.logFile(m.Name + "-kube-apiserver"), Ports: map[string]int{"secure": atoi(m.api.SecureServing.Port)}})
		}
	}
	if startErr != nil {
		return fmt.Errorf("%s's kube-apiserver: %w\n%s", m.Name, startErr, proc.TailFile(p.logFile(m.Name+"-kube-apiserver"), 20))
	}
	cp := &envtest.ControlPlane{APIServer: m.api}
	user, err := cp.AddUser(envtest.User{Name: "admin", Groups: []string{"system:masters"}}, &rest.Config{})
	if err != nil {
		return err
	}
	kc, err := user.KubeConfig()
	if err != nil {
		return err
	}
	m.Kubeconfig = filepath.Join(m.dir, "kubeconfig")
	m.Server = m.api.SecureServing.URL("https", "/").String()
	if err := os.WriteFile(m.Kubeconfig, kc, 0o600); err != nil {
		return err
	}
	// The serving CA: kube-controller-manager puts it into service-account token Secrets (ca.crt), which
	// `karmadactl join` copies into the Cluster's Secret for Karmada to verify the member with.
	return os.WriteFile(m.caFile(), m.api.SecureServing.CA, 0o644)
}

func (m *Member) caFile() string { return filepath.Join(m.dir, "pki", "serving-ca.crt") }

// startMemberControllerManager runs kube-controller-manager with its default controllers: the
// ReplicaSet and Deployment controllers make the pods Karmada's Works ask for, the service-account and
// token controllers fill the token Secret `karmadactl join` creates and waits for
// (pkg/util/serviceaccount.go:92 WaitForServiceAccountSecretCreation in Karmada v1.18.2).
func (p *Plane) startMemberControllerManager(ctx context.Context, m *Member) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	name := m.Name + "/kube-controller-manager"
	c := Component{Name: name, Log: p.logFile(m.Name + "-kube-controller-manager"), Ports: map[string]int{"secure": port},
		Args: []string{"--kubeconfig", m.Kubeconfig, "--authentication-kubeconfig", m.Kubeconfig,
			"--authorization-kubeconfig", m.Kubeconfig, "--leader-elect=false",
			"--bind-address", "127.0.0.1", "--secure-port", strconv.Itoa(port),
			"--cert-dir", filepath.Join(m.dir, "kcm-certs"),
			"--service-account-private-key-file", filepath.Join(m.dir, "pki", "sa-signer.key"),
			"--root-ca-file", m.caFile(), "--use-service-account-credentials=false"}}
	return p.start(ctx, c, filepath.Join(p.cfg.Bin, "kube-controller-manager"),
		fmt.Sprintf("https://127.0.0.1:%d/healthz", port), insecureLoopback)
}

// startMemberScheduler runs kube-scheduler: KWOK simulates kubelets, not scheduling, and both the
// cluster-status controller (allocated vs allocating) and karmada-scheduler-estimator count a pod on
// its node only once it has one.
func (p *Plane) startMemberScheduler(ctx context.Context, m *Member) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	c := Component{Name: m.Name + "/kube-scheduler", Log: p.logFile(m.Name + "-kube-scheduler"), Ports: map[string]int{"secure": port},
		Args: []string{"--kubeconfig", m.Kubeconfig, "--authentication-kubeconfig", m.Kubeconfig,
			"--authorization-kubeconfig", m.Kubeconfig, "--leader-elect=false",
			"--bind-address", "127.0.0.1", "--secure-port", strconv.Itoa(port),
			"--cert-dir", filepath.Join(m.dir, "scheduler-certs")}}
	return p.start(ctx, c, filepath.Join(p.cfg.Bin, "kube-scheduler"),
		fmt.Sprintf("https://127.0.0.1:%d/healthz", port), insecureLoopback)
}

// writeMembers writes DIR/members.json.
func (p *Plane) writeMembers() error {
	members := p.Members
	if members == nil {
		members = []*Member{} // [] on a plane without members, which the tests read as such
	}
	b, err := json.MarshalIndent(members, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(MembersFile(p.cfg.Dir), b, 0o644)
}

// stopMembers stops the members' API servers (their other processes are in p.procs).
func (p *Plane) stopMembers() {
	var stopped sync.WaitGroup
	for _, m := range p.Members {
		if m.api != nil {
			stopped.Add(1)
			go func() {
				defer stopped.Done()
				_ = m.api.Stop()
			}()
		}
	}
	stopped.Wait()
}
