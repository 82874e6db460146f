package generate

import "fmt"

// kindShape is a workload kind beyond Deployment, StatefulSet, Job, Pod and PyTorchJob (issue 36: the
// generator wrote no other): every kind of Karmada's shipped third-party customizations with a
// componentResource or replicaResource script (pkg/resourceinterpreter/default/thirdparty/
// resourcecustomizations), and kinds no interpreter knows (a DaemonSet, an Argo Rollout with
// spec.replicas), which Karmada propagates with 0 replicas.
type kindShape struct {
	apiVersion, kind, resource, prefix string
	components                         bool // a componentResource script: spec.components with the gate on
	spec                               func(g *gen, pod func() *Node) *Node
}

var otherKinds = []kindShape{
	{"kubeflow.org/v1", "TFJob", "tfjobs", "tf", true, func(g *gen, pod func() *Node) *Node {
		specs := M("PS", M("replicas", g.between(1, 2), "template", pod()), "Worker", M("replicas", g.between(1, 4), "template", pod()))
		if g.chance(0.3) {
			specs.Pairs = append(specs.Pairs, &Pair{Key: "Chief", Value: M("replicas", 1, "template", pod())})
		}
		return M("tfReplicaSpecs", specs)
	}},
	{"kubeflow.org/v2beta1", "MPIJob", "mpijobs", "mpi", true, func(g *gen, pod func() *Node) *Node {
		specs := M("Worker", M("replicas", g.maybe(0.8, g.between(1, 4)), "template", pod()))
		if g.chance(0.5) {
			specs.Pairs = append([]*Pair{{Key: "Launcher", Value: M("replicas", 1, "template", pod())}}, specs.Pairs...)
		}
		return M("slotsPerWorker", 1, "mpiReplicaSpecs", specs)
	}},
	{"ray.io/v1", "RayCluster", "rayclusters", "ray", true, func(g *gen, pod func() *Node) *Node { return rayCluster(g, pod) }},
	{"ray.io/v1", "RayJob", "rayjobs", "rayjob", true, func(g *gen, pod func() *Node) *Node {
		return M("entrypoint", "python train.py", "rayClusterSpec", rayCluster(g, pod))
	}},
	{"batch.volcano.sh/v1alpha1", "Job", "jobs", "vcjob", true, func(g *gen, pod func() *Node) *Node {
		tasks := L()
		for i, n := 0, g.between(1, 2); i < n; i++ {
			tasks.Items = append(tasks.Items, M("name", g.maybe(0.8, fmt.Sprintf("task%d", i)), "replicas", g.between(1, 4),
				"minAvailable", g.maybe(0.5, g.between(0, 3)), "template", pod()))
		}
		return M("schedulerName", "volcano", "tasks", tasks)
	}},
	{"flink.apache.org/v1beta1", "FlinkDeployment", "flinkdeployments", "flink", true, func(g *gen, _ func() *Node) *Node {
		role := func() *Node {
			return M("resource", M("cpu", g.between(1, 4), "memory", pick(g, []string{"1Gi", "2Gi", "4096Mi"})))
		}
		tm := role()
		if g.chance(0.5) {
			tm.Pairs = append(tm.Pairs, &Pair{Key: "replicas", Value: node(g.between(1, 3))})
		}
		return M("flinkVersion", "v1_18", "flinkConfiguration", M("taskmanager.numberOfTaskSlots", Raw(fmt.Sprintf(`"%d"`, g.between(1, 4)))),
			"jobManager", M("replicas", 1, "resource", lookup(role(), "resource")), "taskManager", tm,
			"job", M("jarURI", "local:///opt/flink/job.jar", "parallelism", g.maybe(0.8, g.between(1, 8))))
	}},
	{"sparkoperator.k8s.io/v1beta2", "SparkApplication", "sparkapplications", "spark", true, func(g *gen, _ func() *Node) *Node {
		return M("type", "Scala", "mode", "cluster", "mainClass", "org.example.Main",
			"driver", M("cores", 1, "memory", pick(g, []string{"512m", "1g", "2g"})),
			"executor", M("cores", g.between(1, 2), "instances", g.maybe(0.8, g.between(1, 4)), "memory", pick(g, []string{"1g", "2g"})))
	}},
	{"apps.kruise.io/v1alpha1", "CloneSet", "clonesets", "cloneset", false, replicasAndTemplate},
	{"apps.kruise.io/v1beta1", "StatefulSet", "statefulsets", "asts", false, replicasAndTemplate},
	{"apps.kruise.io/v1alpha1", "UnitedDeployment", "uniteddeployments", "ud", false, func(g *gen, pod func() *Node) *Node {
		// The pod template sits one level deeper than the script reads (spec.template.cloneSetTemplate): Karmada
		// converts spec.template to an empty PodTemplateSpec, so no requirements.
		return M("replicas", g.maybe(0.9, g.between(0, 12)), "selector", M("matchLabels", M("app", "ud")),
			"template", M("cloneSetTemplate", M("spec", M("selector", M("matchLabels", M("app", "ud")), "template", pod()))))
	}},
	{"apps.kruise.io/v1alpha1", "BroadcastJob", "broadcastjobs", "bcj", false, func(g *gen, pod func() *Node) *Node {
		return M("parallelism", g.maybe(0.6, g.between(1, 6)), "template", pod())
	}},
	{"apps.kruise.io/v1alpha1", "SidecarSet", "sidecarsets", "sidecar", false, func(g *gen, _ func() *Node) *Node {
		return M("selector", M("matchLabels", M("app", "web")), "containers", L(M("name", "proxy", "image", "registry.example/proxy:1")))
	}},
	{"argoproj.io/v1alpha1", "Workflow", "workflows", "wf", false, func(g *gen, _ func() *Node) *Node {
		return M("entrypoint", "main", "parallelism", g.maybe(0.6, g.between(1, 6)),
			"nodeSelector", g.maybe(0.3, M("disktype", "ssd")),
			"tolerations", g.maybe(0.3, L(M("key", "dedicated", "operator", "Exists", "effect", "NoSchedule"))),
			"templates", L(M("name", "main", "container", M("image", "registry.example/app:1"))))
	}},
	{"kubeflow.org/v1", "Notebook", "notebooks", "nb", false, func(g *gen, pod func() *Node) *Node { return M("template", pod()) }},
	{"ray.io/v1", "RayService", "rayservices", "raysvc", false, func(g *gen, pod func() *Node) *Node {
		return M("serveConfigV2", "applications: []", "rayClusterConfig", rayCluster(g, pod))
	}},
	{"apps/v1", "DaemonSet", "daemonsets", "ds", false, func(g *gen, pod func() *Node) *Node {
		return M("selector", M("matchLabels", M("app", "ds")), "template", pod())
	}},
	{"argoproj.io/v1alpha1", "Rollout", "rollouts", "rollout", false, func(g *gen, pod func() *Node) *Node {
		s := replicasAndTemplate(g, pod)
		s.Pairs = append(s.Pairs, &Pair{Key: "strategy", Value: M("canary", M("steps", L(M("setWeight", 20))))})
		return s
	}},
}

// replicasAndTemplate is a Deployment-like spec (CloneSet, Advanced StatefulSet, Rollout): spec.replicas
// (absent in 10 %: the Kruise scripts then fail), a selector and spec.template.
func replicasAndTemplate(g *gen, pod func() *Node) *Node {
	return M("replicas", g.maybe(0.9, g.between(0, 12)), "selector", M("matchLabels", M("app", "x")), "template", pod())
}

// rayCluster is a RayCluster spec (also a RayJob's rayClusterSpec and a RayService's rayClusterConfig): a
// head with a template, 1-2 worker groups, named or not.
func rayCluster(g *gen, pod func() *Node) *Node {
	workers := L()
	for i, n := 0, g.between(1, 2); i < n; i++ {
		workers.Items = append(workers.Items, M("groupName", g.maybe(0.8, fmt.Sprintf("group%d", i)),
			"replicas", g.maybe(0.9, g.between(0, 4)), "minReplicas", 0, "maxReplicas", 8, "template", pod()))
	}
	return M("headGroupSpec", M("rayStartParams", M(), "template", pod()), "workerGroupSpecs", workers)
}
