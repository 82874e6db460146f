package plane

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// joinMembers registers every member in Push mode as an operator does, with Karmada's own
// `karmadactl join NAME --kubeconfig KARMADA --cluster-kubeconfig MEMBER` (pkg/karmadactl/join/join.go:
// a ServiceAccount with a cluster-admin-like ClusterRole on the member, its token Secret copied into
// karmada-cluster/NAME, the Cluster with the member's API endpoint and that Secret), then labels the
// Cluster (join has no labels flag) and waits until Karmada's cluster-status controller reports it Ready.
func (p *Plane) joinMembers(ctx context.Context) error {
	for _, m := range p.Members {
		cmd := exec.CommandContext(ctx, filepath.Join(p.cfg.Bin, "karmadactl"), "join", m.Name,
			"--kubeconfig", p.Kubeconfig(), "--cluster-kubeconfig", m.Kubeconfig)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("karmadactl join %s: %w\n%s", m.Name, err, out)
		}
		args := []string{"label", "--overwrite", "clusters.cluster.karmada.io", m.Name}
		keys := make([]string, 0, len(m.Labels))
		for k := range m.Labels {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			args = append(args, k+"="+m.Labels[k])
		}
		if _, err := p.Kubectl("", args...); err != nil {
			return err
		}
	}
	for _, m := range p.Members {
		// A member starts without nodes (the tests make them, with the capacity they need), so there is
		// no resource summary to wait for yet: Ready is the cluster-status controller's health probe.
		err := p.until(ctx, "Cluster "+m.Name+" Ready (karmada-controller-manager's cluster-status controller)", func() error {
			out, err := p.Kubectl("", "get", "clusters.cluster.karmada.io", m.Name, "-o",
				`jsonpath={.status.conditions[?(@.type=="Ready")].status}`)
			if err != nil {
				return err
			}
			if strings.TrimSpace(out) != "True" {
				return fmt.Errorf("Ready is %q", out)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
