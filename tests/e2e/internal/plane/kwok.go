package plane

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// kwokStageFiles are KWOK's default stages, as kwokctl gives its kwok-controller (pkg/kwokctl/runtime/
// cluster.go in sigs.k8s.io/kwok v0.8.0): nodes initialised (Ready, the capacity they were created with,
// else 1k CPU / 1Ti) and kept Ready by a heartbeat; pods Running and Ready once on a node, Succeeded when
// their containers would end, deleted when asked. The kwok binary has no built-in stages: without a
// config it refuses to start ("no stages found").
var kwokStageFiles = []string{
	"kustomize/stage/node/fast/node-initialize.yaml",
	"kustomize/stage/node/heartbeat/node-heartbeat.yaml",
	"kustomize/stage/pod/fast/pod-ready.yaml",
	"kustomize/stage/pod/fast/pod-complete.yaml",
	"kustomize/stage/pod/fast/pod-delete.yaml",
}

// kwokStages writes the stages from the kwok module's source into one config file and returns its path.
func (p *Plane) kwokStages() (string, error) {
	var docs []string
	for _, f := range kwokStageFiles {
		b, err := os.ReadFile(filepath.Join(p.cfg.KwokDir, f))
		if err != nil {
			return "", fmt.Errorf("KWOK's default stages (--kwok, the sigs.k8s.io/kwok module): %w", err)
		}
		docs = append(docs, strings.TrimSpace(string(b)))
	}
	path := filepath.Join(p.cfg.Dir, "kwok-stages.yaml")
	return path, os.WriteFile(path, []byte(strings.Join(docs, "\n---\n")+"\n"), 0o644)
}

// KwokNodeAnnotation marks the nodes KWOK manages (`--manage-nodes-with-annotation-selector`): only
// nodes made by KwokNodes, so that a node of another origin is never faked.
const KwokNodeAnnotation = "kwok.x-k8s.io/node"

// startKwok runs KWOK's controller for the member's nodes and pods; its server (logs, exec, metrics:
// nothing the tests use) and health endpoint on a loopback port.
func (p *Plane) startKwok(ctx context.Context, m *Member, stages string) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	c := Component{Name: m.Name + "/kwok", Log: p.logFile(m.Name + "-kwok"), Ports: map[string]int{"server": port},
		Args: []string{"--config", stages, "--kubeconfig", m.Kubeconfig,
			"--manage-all-nodes=false", "--manage-nodes-with-annotation-selector", KwokNodeAnnotation + "=fake",
			"--server-address", fmt.Sprintf("127.0.0.1:%d", port), "--node-ip", "127.0.0.1",
			"--node-lease-duration-seconds", "0"}}
	return p.start(ctx, c, filepath.Join(p.cfg.Bin, "kwok"), fmt.Sprintf("http://127.0.0.1:%d/healthz", port), "")
}

// kwokNode is a Node as KWOK's documentation has one made: the annotation KWOK manages it by, the status
// capacity and allocatable it keeps (node-initialize.yaml copies them), no taint (the Deployments Karmada
// propagates carry no toleration for one).
const kwokNode = `apiVersion: v1
kind: Node
metadata:
  name: %s
  annotations:
    %s: fake
  labels:
    type: kwok
    kubernetes.io/hostname: %s
    kubernetes.io/os: linux
    kubernetes.io/arch: amd64
status:
  allocatable: {cpu: "%s", memory: "%s", pods: "%d"}
  capacity: {cpu: "%s", memory: "%s", pods: "%d"}
`

// KwokNodes are count nodes named PREFIX-1..count with the given capacity (Kubernetes quantities), as one
// multi-document manifest for `kubectl apply -f -` on a member.
func KwokNodes(prefix string, count int, cpu, memory string, pods int) string {
	var docs []string
	for i := 1; i <= count; i++ {
		name := fmt.Sprintf("%s-%d", prefix, i)
		docs = append(docs, fmt.Sprintf(kwokNode, name, KwokNodeAnnotation, name, cpu, memory, pods, cpu, memory, pods))
	}
	return strings.Join(docs, "---\n")
}
