// Command livedata fills a karmada-apiserver with the objects of the live snapshot benchmark
// (tests/bench/live_snapshot_bench.sh): N Clusters with the status the cluster-status controller writes
// (Ready and CompleteAPIEnablements conditions, apiEnablements, resourceSummary, node summary, Kubernetes
// version), written through the status subresource as tests/e2e/scheduling does, and M ResourceBindings
// (work.karmada.io/v1alpha2) spread over namespaces, each with spec.resource, placement, replica
// requirements, 1-5 target clusters in spec.clusters and the status karmada-scheduler and the
// binding-status controller write (Scheduled and FullyApplied conditions, aggregatedStatus).
//
//	livedata --kubeconfig F [--clusters 5000] [--bindings 10000] [--namespaces 100] [--workers 16]
//
// Objects that exist already are left as they are (a re-run on the same plane creates only what is
// missing). Prints how long each kind took to stdout.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
)

var (
	clustersGVR   = schema.GroupVersionResource{Group: "cluster.karmada.io", Version: "v1alpha1", Resource: "clusters"}
	bindingsGVR   = schema.GroupVersionResource{Group: "work.karmada.io", Version: "v1alpha2", Resource: "resourcebindings"}
	namespacesGVR = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
)

var providers = []string{"onprem", "aws", "alibaba", "huaweicloud"}

// apiEnablements is what a member cluster of Kubernetes 1.35 with a few common add-ons reports: 23 group
// versions, 75 resources (a real member lists about this many; the Cluster's largest field).
func apiEnablements() []any {
	gv := func(groupVersion string, kinds ...string) map[string]any {
		var rs []any
		for i := 0; i+1 < len(kinds); i += 2 {
			rs = append(rs, map[string]any{"kind": kinds[i], "name": kinds[i+1]})
		}
		return map[string]any{"groupVersion": groupVersion, "resources": rs}
	}
	return []any{
		gv("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration", "mutatingwebhookconfigurations",
			"ValidatingAdmissionPolicy", "validatingadmissionpolicies", "ValidatingAdmissionPolicyBinding",
			"validatingadmissionpolicybindings", "ValidatingWebhookConfiguration", "validatingwebhookconfigurations"),
		gv("apiextensions.k8s.io/v1", "CustomResourceDefinition", "customresourcedefinitions"),
		gv("apiregistration.k8s.io/v1", "APIService", "apiservices"),
		gv("apps/v1", "ControllerRevision", "controllerrevisions", "DaemonSet", "daemonsets", "Deployment", "deployments",
			"ReplicaSet", "replicasets", "StatefulSet", "statefulsets"),
		gv("authentication.k8s.io/v1", "SelfSubjectReview", "selfsubjectreviews", "TokenReview", "tokenreviews"),
		gv("authorization.k8s.io/v1", "LocalSubjectAccessReview", "localsubjectaccessreviews", "SelfSubjectAccessReview",
			"selfsubjectaccessreviews", "SelfSubjectRulesReview", "selfsubjectrulesreviews", "SubjectAccessReview",
			"subjectaccessreviews"),
		gv("autoscaling/v1", "HorizontalPodAutoscaler", "horizontalpodautoscalers"),
		gv("autoscaling/v2", "HorizontalPodAutoscaler", "horizontalpodautoscalers"),
		gv("batch/v1", "CronJob", "cronjobs", "Job", "jobs"),
		gv("certificates.k8s.io/v1", "CertificateSigningRequest", "certificatesigningrequests"),
		gv("coordination.k8s.io/v1", "Lease", "leases"),
		gv("discovery.k8s.io/v1", "EndpointSlice", "endpointslices"),
		gv("events.k8s.io/v1", "Event", "events"),
		gv("flowcontrol.apiserver.k8s.io/v1", "FlowSchema", "flowschemas", "PriorityLevelConfiguration",
			"prioritylevelconfigurations"),
		gv("networking.k8s.io/v1", "IngressClass", "ingressclasses", "Ingress", "ingresses", "IPAddress", "ipaddresses",
			"NetworkPolicy", "networkpolicies", "ServiceCIDR", "servicecidrs"),
		gv("node.k8s.io/v1", "RuntimeClass", "runtimeclasses"),
		gv("policy/v1", "PodDisruptionBudget", "poddisruptionbudgets"),
		gv("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", "clusterrolebindings", "ClusterRole", "clusterroles",
			"RoleBinding", "rolebindings", "Role", "roles"),
		gv("resource.k8s.io/v1", "DeviceClass", "deviceclasses", "ResourceClaim", "resourceclaims",
			"ResourceClaimTemplate", "resourceclaimtemplates", "ResourceSlice", "resourceslices"),
		gv("scheduling.k8s.io/v1", "PriorityClass", "priorityclasses"),
		gv("storage.k8s.io/v1", "CSIDriver", "csidrivers", "CSINode", "csinodes", "CSIStorageCapacity",
			"csistoragecapacities", "StorageClass", "storageclasses", "VolumeAttachment", "volumeattachments"),
		gv("v1", "Binding", "bindings", "ComponentStatus", "componentstatuses", "ConfigMap", "configmaps", "Endpoints",
			"endpoints", "Event", "events", "LimitRange", "limitranges", "Namespace", "namespaces", "Node", "nodes",
			"PersistentVolumeClaim", "persistentvolumeclaims", "PersistentVolume", "persistentvolumes", "Pod", "pods",
			"PodTemplate", "podtemplates", "ReplicationController", "replicationcontrollers", "ResourceQuota",
			"resourcequotas", "Secret", "secrets", "ServiceAccount", "serviceaccounts", "Service", "services"),
		gv("metrics.k8s.io/v1beta1", "NodeMetrics", "nodes", "PodMetrics", "pods"),
	}
}

func clusterName(i int) string { return fmt.Sprintf("member-%05d", i) }

func cluster(i int) (obj, status map[string]any) {
	region := fmt.Sprintf("region-%02d", i%20)
	zone := region + string(rune('a'+i%3))
	spec := map[string]any{
		"apiEndpoint": fmt.Sprintf("https://%s.k8s.example.internal:6443", clusterName(i)),
		"id":          fmt.Sprintf("8c3f%04x-1d2e-4b5a-9c8d-%012x", i%65536, i),
		"provider":    providers[i%4],
		"region":      region,
		"zones":       []any{zone},
		"syncMode":    []string{"Push", "Pull"}[i%2],
		"secretRef":   map[string]any{"namespace": "karmada-cluster", "name": clusterName(i)},
		"impersonatorSecretRef": map[string]any{
			"namespace": "karmada-cluster", "name": clusterName(i) + "-impersonator"},
	}
	if i%20 == 7 {
		spec["taints"] = []any{map[string]any{"key": "maintenance", "value": "planned", "effect": "NoSchedule"}}
	}
	obj = map[string]any{
		"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
		"metadata": map[string]any{"name": clusterName(i), "labels": map[string]any{
			"location":      []string{"idc", "cloud", "cloud", "cloud"}[i%4],
			"env":           []string{"staging", "prod", "prod"}[i%3],
			"team":          fmt.Sprintf("team-%02d", i%50),
			"capacity-tier": []string{"burst", "base", "base", "base", "base"}[i%5],
			"provider":      providers[i%4],
		}},
		"spec": spec,
	}
	nodes := 3 + i%40
	now := time.Now().UTC().Format(time.RFC3339)
	cpu := 16 * nodes
	status = map[string]any{
		"kubernetesVersion": "v1.35.3",
		"apiEnablements":    apiEnablements(),
		"conditions": []any{
			map[string]any{"type": "Ready", "status": "True", "reason": "ClusterReady",
				"message": "cluster is healthy and ready to accept workloads", "lastTransitionTime": now},
			map[string]any{"type": "CompleteAPIEnablements", "status": "True", "reason": "CompleteAPIEnablements",
				"message": "cluster has complete APIs enabled", "lastTransitionTime": now},
		},
		"nodeSummary": map[string]any{"totalNum": int64(nodes), "readyNum": int64(nodes)},
		"resourceSummary": map[string]any{
			"allocatable": map[string]any{"cpu": fmt.Sprint(cpu), "memory": fmt.Sprintf("%dGi", 64*nodes),
				"pods": fmt.Sprint(110 * nodes), "ephemeral-storage": fmt.Sprintf("%dGi", 100*nodes)},
			"allocating": map[string]any{"cpu": "0", "memory": "0", "pods": "0"},
			"allocated": map[string]any{"cpu": fmt.Sprintf("%dm", (cpu*1000*(20+i*7919%60))/100),
				"memory": fmt.Sprintf("%dMi", 64*nodes*1024*(15+i%50)/100), "pods": fmt.Sprint(i % (60 * nodes))},
			"allocatableModelings": []any{
				map[string]any{"grade": int64(0), "count": int64(i % 3)},
				map[string]any{"grade": int64(1), "count": int64(i % 4)},
				map[string]any{"grade": int64(2), "count": int64(1 + i%5)},
				map[string]any{"grade": int64(3), "count": int64(nodes / 2)},
				map[string]any{"grade": int64(4), "count": int64(nodes / 4)},
				map[string]any{"grade": int64(5), "count": int64(0)},
				map[string]any{"grade": int64(6), "count": int64(0)},
				map[string]any{"grade": int64(7), "count": int64(0)},
				map[string]any{"grade": int64(8), "count": int64(0)},
			},
		},
	}
	return obj, status
}

func namespaceName(i int) string { return fmt.Sprintf("bench-%03d", i) }

func binding(i, nClusters, nNamespaces int) (obj, status map[string]any) {
	ns := namespaceName(i % nNamespaces)
	app := fmt.Sprintf("app-%05d", i)
	targets := 1 + i%5
	replicas := 2 * targets * (1 + i%4)
	var names, clusters, aggregated []any
	for k := 0; k < targets; k++ {
		c := clusterName((i*37 + k*101) % nClusters)
		names = append(names, c)
		clusters = append(clusters, map[string]any{"name": c, "replicas": int64(replicas / targets)})
		aggregated = append(aggregated, map[string]any{"clusterName": c, "applied": true, "health": "Healthy",
			"status": map[string]any{"replicas": int64(replicas / targets), "readyReplicas": int64(replicas / targets),
				"availableReplicas": int64(replicas / targets), "updatedReplicas": int64(replicas / targets),
				"observedGeneration": int64(1 + i%7)}})
	}
	placement := map[string]any{
		"clusterAffinity": map[string]any{"clusterNames": names},
		"clusterTolerations": []any{map[string]any{"key": "cluster.karmada.io/not-ready", "operator": "Exists",
			"effect": "NoExecute", "tolerationSeconds": int64(300)}},
		"replicaScheduling": map[string]any{"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Weighted",
			"weightPreference": map[string]any{"dynamicWeight": "AvailableReplicas"}},
	}
	policyName := fmt.Sprintf("policy-%04d", i%1000)
	uid := fmt.Sprintf("5b1e%04x-7c2d-4e6f-8a9b-%012x", i%65536, i)
	now := time.Now().UTC().Format(time.RFC3339)
	obj = map[string]any{
		"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
		"metadata": map[string]any{
			"name": app + "-deployment", "namespace": ns,
			"labels": map[string]any{
				"propagationpolicy.karmada.io/permanent-id": fmt.Sprintf("9a7b%04x-0000-4000-8000-%012x", i%1000, i%1000),
				"resourcebinding.karmada.io/permanent-id":   fmt.Sprintf("2c4d%04x-1111-4000-8000-%012x", i%65536, i)},
			"annotations": map[string]any{
				"propagationpolicy.karmada.io/name":      policyName,
				"propagationpolicy.karmada.io/namespace": ns,
				"policy.karmada.io/applied-placement": `{"clusterAffinity":{"clusterNames":["` + names[0].(string) +
					`"]},"replicaScheduling":{"replicaSchedulingType":"Divided","replicaDivisionPreference":"Weighted",` +
					`"weightPreference":{"dynamicWeight":"AvailableReplicas"}}}`},
			"ownerReferences": []any{map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": app,
				"uid": uid, "controller": true, "blockOwnerDeletion": true}},
		},
		"spec": map[string]any{
			"resource": map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": app, "namespace": ns,
				"uid": uid, "resourceVersion": fmt.Sprint(100000 + i)},
			"replicas": int64(replicas),
			"replicaRequirements": map[string]any{"resourceRequest": map[string]any{
				"cpu": fmt.Sprintf("%dm", 100*(1+i%8)), "memory": fmt.Sprintf("%dMi", 128*(1+i%6))}},
			"placement":          placement,
			"clusters":           clusters,
			"schedulerName":      "default-scheduler",
			"conflictResolution": "Abort",
		},
	}
	status = map[string]any{
		"schedulerObservedGeneration": int64(1),
		"lastScheduledTime":           now,
		"conditions": []any{
			map[string]any{"type": "Scheduled", "status": "True", "reason": "Success",
				"message": "Binding has been scheduled successfully.", "lastTransitionTime": now},
			map[string]any{"type": "FullyApplied", "status": "True", "reason": "FullyAppliedSuccess",
				"message": "All works have been successfully applied", "lastTransitionTime": now},
		},
		"aggregatedStatus": aggregated,
	}
	return obj, status
}

// fill creates the n objects not in have (and writes each one's status) with the given number of workers.
func fill(ctx context.Context, workers, n int, make func(int) (map[string]any, map[string]any),
	ri func(ns string) dynamic.ResourceInterface, have map[string]bool) (created int64, err error) {
	var next, made atomic.Int64
	var once sync.Once
	var firstErr error
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				obj, status := make(i)
				u := &unstructured.Unstructured{Object: obj}
				if have[u.GetNamespace()+"/"+u.GetName()] {
					continue
				}
				r := ri(u.GetNamespace())
				got, err := r.Create(ctx, u, metav1.CreateOptions{})
				if apierrors.IsAlreadyExists(err) {
					continue
				}
				if err == nil {
					got.Object["status"] = status
					_, err = r.UpdateStatus(ctx, got, metav1.UpdateOptions{})
				}
				if err != nil {
					once.Do(func() { firstErr = fmt.Errorf("%s: %w", u.GetName(), err) })
					return
				}
				made.Add(1)
			}
		}()
	}
	wg.Wait()
	return made.Load(), firstErr
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of karmada-apiserver")
	nClusters := flag.Int("clusters", 5000, "Clusters")
	nBindings := flag.Int("bindings", 10000, "ResourceBindings")
	nNamespaces := flag.Int("namespaces", 100, "namespaces the ResourceBindings are spread over")
	workers := flag.Int("workers", 16, "concurrent requests")
	flag.Parse()
	if *kubeconfig == "" || *nClusters < 1 || *nNamespaces < 1 {
		flag.Usage()
		os.Exit(2)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, "livedata:", err)
		os.Exit(1)
	}
	cfg.QPS, cfg.Burst = -1, 0 // no client-side rate limit: the API server's own limits apply
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "livedata:", err)
		os.Exit(1)
	}
	ctx := context.Background()
	for i := 0; i < *nNamespaces; i++ {
		ns := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace",
			"metadata": map[string]any{"name": namespaceName(i)}}}
		if _, err := dyn.Resource(namespacesGVR).Create(ctx, ns, metav1.CreateOptions{}); err != nil &&
			!apierrors.IsAlreadyExists(err) {
			fmt.Fprintln(os.Stderr, "livedata: namespace:", err)
			os.Exit(1)
		}
	}
	step := func(what string, n int, make func(int) (map[string]any, map[string]any),
		ri func(string) dynamic.ResourceInterface) {
		// What a previous run made (a plane used again): one list, so that no create is sent for it.
		have := map[string]bool{}
		list, err := ri("").List(ctx, metav1.ListOptions{ResourceVersion: "0"})
		if err != nil {
			fmt.Fprintf(os.Stderr, "livedata: listing %s: %v\n", what, err)
			os.Exit(1)
		}
		for _, item := range list.Items {
			have[item.GetNamespace()+"/"+item.GetName()] = true
		}
		t0 := time.Now()
		made, err := fill(ctx, *workers, n, make, ri, have)
		d := time.Since(t0).Seconds()
		if err != nil {
			fmt.Fprintf(os.Stderr, "livedata: %s: %v\n", what, err)
			os.Exit(1)
		}
		fmt.Printf("created %d %s (+ status) in %.1f s (%.0f objects/s, %d workers; %d existed)\n",
			made, what, d, float64(made)/d, *workers, int64(n)-made)
	}
	step("Clusters", *nClusters, cluster, func(string) dynamic.ResourceInterface {
		return dyn.Resource(clustersGVR)
	})
	step("ResourceBindings", *nBindings, func(i int) (map[string]any, map[string]any) {
		return binding(i, *nClusters, *nNamespaces)
	}, func(ns string) dynamic.ResourceInterface { return dyn.Resource(bindingsGVR).Namespace(ns) })
}
