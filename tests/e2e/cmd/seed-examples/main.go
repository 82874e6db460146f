// Command seed-examples puts the shipped examples on a running control plane, as the e2e tests start
// from them, so that a person can try `lint --kubeconfig`, `plan` and `simulate --kubeconfig` by hand:
// the Clusters of manifests/examples/clusters.yaml with their status written through the status
// subresource (no member clusters run here to report it), the example workloads and policies, and then
// it waits until karmada-scheduler has scheduled a binding for every example workload.
//
//	seed-examples --kubeconfig DIR/kubeconfig --kubectl DIR/bin/kubectl --examples manifests/examples
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"
)

var (
	clustersGVR = schema.GroupVersionResource{Group: "cluster.karmada.io", Version: "v1alpha1", Resource: "clusters"}
	bindingsGVR = schema.GroupVersionResource{Group: "work.karmada.io", Version: "v1alpha2", Resource: "resourcebindings"}
)

// The example policies and the bindings karmada-scheduler makes for the workloads they claim.
var (
	policies = []string{"dc-groups.yaml", "overflow-onprem-cloud.yaml", "checkout-local-idc.yaml"}
	bindings = []struct{ namespace, name string }{
		{"default", "nginx-deployment"}, {"default", "nginx-overflow-deployment"}, {"production", "checkout-deployment"},
	}
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "the control plane's admin kubeconfig")
	kubectl := flag.String("kubectl", "kubectl", "the kubectl to apply the examples with")
	examples := flag.String("examples", "manifests/examples", "the shipped examples directory")
	timeout := flag.Duration("timeout", 2*time.Minute, "how long karmada-scheduler may take")
	flag.Parse()
	if *kubeconfig == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*kubeconfig, *kubectl, *examples, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "seed-examples:", err)
		os.Exit(1)
	}
}

func run(kubeconfig, kubectl, examples string, timeout time.Duration) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	apply := func(args ...string) error {
		cmd := exec.Command(kubectl, append([]string{"--kubeconfig", kubeconfig}, args...)...)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		return cmd.Run()
	}
	namespaces := schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	ns := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": "production"}}}
	if _, err := dyn.Resource(namespaces).Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating namespace production: %w", err)
	}
	if err := createClusters(ctx, dyn, filepath.Join(examples, "clusters.yaml")); err != nil {
		return err
	}
	for _, f := range append(append([]string{}, policies...), "workloads.yaml") {
		if err := apply("apply", "-f", filepath.Join(examples, f)); err != nil {
			return fmt.Errorf("kubectl apply -f %s: %w", f, err)
		}
	}
	return waitScheduled(ctx, dyn)
}

// createClusters creates the Clusters of the file (status is ignored on create) and writes each one's
// status as the cluster-status controller would. A Cluster that exists keeps its spec; its status is
// written again.
func createClusters(ctx context.Context, dyn dynamic.Interface, file string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var list struct {
		Items []map[string]any `json:"items"`
	}
	if err := yaml.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	for _, item := range list.Items {
		u := &unstructured.Unstructured{Object: item}
		status := u.Object["status"]
		for _, f := range []string{"resourceVersion", "uid", "creationTimestamp", "generation", "finalizers"} {
			unstructured.RemoveNestedField(u.Object, "metadata", f)
		}
		c, err := dyn.Resource(clustersGVR).Create(ctx, u, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			c, err = dyn.Resource(clustersGVR).Get(ctx, u.GetName(), metav1.GetOptions{})
		}
		if err != nil {
			return fmt.Errorf("creating Cluster %s: %w", u.GetName(), err)
		}
		c.Object["status"] = status
		if _, err := dyn.Resource(clustersGVR).UpdateStatus(ctx, c, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("writing Cluster %s's status: %w", u.GetName(), err)
		}
		fmt.Printf("cluster.cluster.karmada.io/%s created with its status\n", u.GetName())
	}
	return nil
}

// waitScheduled waits until every example binding exists, has a Scheduled condition and
// karmada-scheduler has observed its generation.
func waitScheduled(ctx context.Context, dyn dynamic.Interface) error {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		pending := ""
		for _, b := range bindings {
			if !scheduled(ctx, dyn, b.namespace, b.name) {
				pending = b.namespace + "/" + b.name
				break
			}
		}
		if pending == "" {
			fmt.Println("every example binding is scheduled")
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("ResourceBinding %s not scheduled in time: %w", pending, ctx.Err())
		case <-tick.C:
		}
	}
}

func scheduled(ctx context.Context, dyn dynamic.Interface, namespace, name string) bool {
	rb, err := dyn.Resource(bindingsGVR).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return false
	}
	observed, _, _ := unstructured.NestedInt64(rb.Object, "status", "schedulerObservedGeneration")
	conditions, _, _ := unstructured.NestedSlice(rb.Object, "status", "conditions")
	for _, c := range conditions {
		if m, _ := c.(map[string]any); m["type"] == "Scheduled" {
			return observed >= rb.GetGeneration()
		}
	}
	return false
}
