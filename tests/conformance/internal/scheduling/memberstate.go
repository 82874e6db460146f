package scheduling

import (
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// newMembers reads lint's --member-state objects (cluster name -> its Nodes and Pods) as the member
// clusters' kube-apiservers would serve them to karmada-scheduler-estimator. Anything but a v1 Node or Pod
// is refused: the estimator lists nothing else.
func newMembers(state map[string][]*unstructured.Unstructured) (map[string]member, error) {
	out := map[string]member{}
	for cluster, objs := range state {
		var m member
		seen, uids := map[string]bool{}, map[types.UID]bool{}
		for _, o := range objs {
			// One object per name, as one kube-apiserver holds them (the fake clientset refuses a second).
			id := o.GetKind() + " " + o.GetNamespace() + "/" + o.GetName()
			if o.GetKind() == "Pod" && o.GetNamespace() == "" {
				id = "Pod default/" + o.GetName()
			}
			if seen[id] {
				return nil, fmt.Errorf("member state of %s: %s is there twice", cluster, id)
			}
			seen[id] = true
			if o.GetAPIVersion() != "v1" {
				return nil, fmt.Errorf("member state of %s: %s %s: apiVersion %q: only v1 Node and Pod objects", cluster, o.GetKind(), o.GetName(), o.GetAPIVersion())
			}
			switch o.GetKind() {
			case "Node":
				n := &corev1.Node{}
				if err := fromUnstructured(o, n); err != nil {
					return nil, fmt.Errorf("member state of %s: %w", cluster, err)
				}
				m.nodes = append(m.nodes, n)
			case "Pod":
				p := &corev1.Pod{}
				if err := fromUnstructured(o, p); err != nil {
					return nil, fmt.Errorf("member state of %s: %w", cluster, err)
				}
				if p.Namespace == "" {
					p.Namespace = "default" // as kubectl apply would place it
				}
				// The estimator's cache keys pods by uid and skips a pod without one
				// (pkg/util/lifted/scheduler/framework/types.go GetPodKey); kube-apiserver gives every pod
				// one, so `kubectl get` never writes a pod without: such a file is not a member's state
				// (lint refuses it too).
				if p.UID == "" {
					return nil, fmt.Errorf("member state of %s: Pod %s/%s: metadata.uid: Required value", cluster, p.Namespace, p.Name)
				}
				if uids[p.UID] {
					return nil, fmt.Errorf("member state of %s: Pod %s/%s: uid %s is another pod's", cluster, p.Namespace, p.Name, p.UID)
				}
				uids[p.UID] = true
				m.pods = append(m.pods, p)
			default:
				return nil, fmt.Errorf("member state of %s: %s %s: only v1 Node and Pod objects", cluster, o.GetKind(), o.GetName())
			}
		}
		out[cluster] = m
	}
	return out, nil
}

// checkMembers: every member with state is a Cluster of the snapshot (--member-state names each
// subdirectory after its Cluster; lint refuses another name as well).
func (w *world) checkMembers() error {
	known := map[string]bool{}
	for _, c := range w.clusters {
		known[c.Name] = true
	}
	for name := range w.members {
		if !known[name] {
			return fmt.Errorf("--member-state: no Cluster %s in the snapshot", name)
		}
	}
	return nil
}

// clusterNames are the names of the snapshot's clusters, sorted.
func (w *world) clusterNames() []string {
	out := make([]string, 0, len(w.clusters))
	for _, c := range w.clusters {
		out = append(out, c.Name)
	}
	sort.Strings(out)
	return out
}
