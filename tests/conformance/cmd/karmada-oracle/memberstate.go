package main

import (
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// memberState reads --member-state DIR: each subdirectory is a member cluster, named as its Cluster
// object, and holds that cluster's Nodes and Pods (*.yaml, *.yml, *.json; a v1 List as `kubectl get
// nodes,pods -A -o yaml` writes it, or several documents), read as the snapshot files are. Plain files
// directly in DIR belong to no cluster: they are skipped.
func memberState(dir string) (map[string][]*unstructured.Unstructured, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string][]*unstructured.Unstructured{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		objs, err := objects([]string{filepath.Join(dir, e.Name())}, nil)
		if err != nil {
			return nil, fmt.Errorf("cluster %s: %w", e.Name(), err)
		}
		out[e.Name()] = objs
	}
	return out, nil
}
