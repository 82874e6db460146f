package e2eenv

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"
)

// ClustersGVR is Karmada's Cluster resource (served by karmada-aggregated-apiserver).
var ClustersGVR = schema.GroupVersionResource{Group: "cluster.karmada.io", Version: "v1alpha1", Resource: "clusters"}

// UpdateCluster changes a live Cluster's spec or metadata (retried on conflict).
func UpdateCluster(t *testing.T, ctx context.Context, dyn dynamic.Interface, name string, f func(c *unstructured.Unstructured)) {
	t.Helper()
	if err := changeCluster(ctx, dyn, name, f, false); err != nil {
		t.Fatalf("updating Cluster %s: %v", name, err)
	}
}

// UpdateClusterStatus changes a live Cluster's status through the status subresource, as the
// cluster-status controller would (retried on conflict).
func UpdateClusterStatus(t *testing.T, ctx context.Context, dyn dynamic.Interface, name string, f func(c *unstructured.Unstructured)) {
	t.Helper()
	if err := changeCluster(ctx, dyn, name, f, true); err != nil {
		t.Fatalf("writing Cluster %s's status: %v", name, err)
	}
}

func changeCluster(ctx context.Context, dyn dynamic.Interface, name string, f func(c *unstructured.Unstructured), status bool) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		c, err := dyn.Resource(ClustersGVR).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		f(c)
		if status {
			_, err = dyn.Resource(ClustersGVR).UpdateStatus(ctx, c, metav1.UpdateOptions{})
		} else {
			_, err = dyn.Resource(ClustersGVR).Update(ctx, c, metav1.UpdateOptions{})
		}
		return err
	})
}
