// SPDX-License-Identifier: Apache-2.0
// Components of Karmada's third-party kinds, checked against realistic manifests of each operator.
#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "model/components.hpp"
#include "model/workload_decode.hpp"

using namespace kpw;

namespace {

model::workload_decoding decode(std::string_view text)
{
    auto docs = doc::load_yaml(text);
    REQUIRE(docs.ok());
    return model::decode_workload(docs->front().root, "default");
}

// The component decoder's own errors (decode_workload keeps the first as the template's components_failure).
struct component_decoding {
    std::vector<model::component> components;
    field::error_list errors;
};
component_decoding components_of(std::string_view text)
{
    auto docs = doc::load_yaml(text);
    REQUIRE(docs.ok());
    component_decoding out;
    out.components = model::decode_components(docs->front().root, out.errors);
    return out;
}

std::string text_of(const model::component& c, std::string_view name)
{
    for (const auto& [k, v] : c.request_text)
        if (k == name)
            return v;
    return "-";
}

std::int64_t units_of(const model::component& c, std::string_view name)
{
    for (const auto& [k, v] : c.request)
        if (k == name)
            return v;
    return -1;
}

bool mentions(const field::error_list& errors, std::string_view field, std::string_view words)
{
    for (const auto& e : errors)
        if (e.field == field && e.str().find(words) != std::string::npos)
            return true;
    return false;
}

} // namespace

TEST_CASE("a PyTorchJob has master and worker with summed pod requests, GPUs included")
{
    auto d = decode(R"(apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: bert-finetune, namespace: ml}
spec:
  pytorchReplicaSpecs:
    Worker:
      replicas: 3
      restartPolicy: OnFailure
      template:
        spec:
          containers:
          - name: pytorch
            image: docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727
            resources:
              requests: {cpu: "8", memory: 32Gi}
              limits: {nvidia.com/gpu: 2}
    Master:
      restartPolicy: OnFailure
      template:
        spec:
          containers:
          - name: pytorch
            image: docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727
            resources:
              requests: {cpu: 4, memory: 16Gi, nvidia.com/gpu: 1}
)");
    CHECK(d.errors.empty());
    CHECK(d.value.replicas == 0); // GetReplicas' side is unchanged: no top-level template
    REQUIRE(d.value.components.size() == 2);
    const auto& master = d.value.components[0];
    const auto& worker = d.value.components[1];
    CHECK(master.name == "master");
    CHECK(master.replicas == 1); // to_num(nil, 1)
    CHECK(worker.name == "worker");
    CHECK(worker.replicas == 3);
    CHECK(master.has_requirements);
    CHECK(units_of(master, "cpu") == 4000);
    CHECK(text_of(master, "cpu") == "4");
    CHECK(text_of(master, "memory") == "16Gi");
    CHECK(text_of(worker, "nvidia.com/gpu") == "2"); // the limit stands in for the request
    CHECK(units_of(worker, "memory") == 34359738368);
}

TEST_CASE("a TFJob lists its replica types in the script's fixed order")
{
    auto d = decode(R"(apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {name: mnist}
spec:
  tfReplicaSpecs:
    Chief:
      replicas: 1
      template: {spec: {containers: [{name: tensorflow, resources: {requests: {cpu: 500m}}}]}}
    Worker:
      replicas: 4
      template: {spec: {containers: [{name: tensorflow, resources: {requests: {cpu: "2"}}}]}}
    PS:
      replicas: "2"
      template: {spec: {containers: [{name: tensorflow, resources: {requests: {memory: 1536Mi}}}]}}
)");
    CHECK(d.errors.empty());
    REQUIRE(d.value.components.size() == 3);
    CHECK(d.value.components[0].name == "ps");
    CHECK(d.value.components[0].replicas == 2); // tonumber("2")
    CHECK(text_of(d.value.components[0], "memory") == "1536Mi");
    CHECK(d.value.components[1].name == "worker");
    CHECK(d.value.components[2].name == "chief");
    CHECK(text_of(d.value.components[2], "cpu") == "500m");
}

TEST_CASE("a Volcano Job counts task.minAvailable (default 1), not task.replicas, and names unnamed tasks")
{
    auto d = decode(R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: tf-dist}
spec:
  minAvailable: 4
  schedulerName: volcano
  tasks:
  - replicas: 2
    name: ps
    template: {spec: {containers: [{name: tf, image: tensorflow:2.15, resources: {requests: {cpu: "2", memory: 4Gi}}}]}}
  - replicas: 4
    name: worker
    minAvailable: 3
    template:
      spec:
        containers: [{name: tf, resources: {requests: {cpu: "4", memory: 8Gi}, limits: {nvidia.com/gpu: 1}}}]
  - replicas: 1
    template: {spec: {containers: [{name: eval}]}, metadata: {}}
)");
    CHECK(d.errors.empty());
    CHECK(d.value.replicas == 0); // not read as a batch/v1 Job
    REQUIRE(d.value.components.size() == 3);
    CHECK(d.value.components[0].replicas == 1);
    CHECK(d.value.components[1].replicas == 3);
    CHECK(d.value.components[2].name == "task-2");
    CHECK_FALSE(d.value.components[2].has_requirements);
}

TEST_CASE("an MPIJob names components by key; a worker without replicas has 0")
{
    auto d = decode(R"(apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: pi}
spec:
  slotsPerWorker: 1
  mpiReplicaSpecs:
    Worker:
      template: {spec: {containers: [{name: worker, image: mpioperator/mpi-pi:openmpi, resources: {limits: {cpu: "1"}}}]}}
    Launcher:
      replicas: 1
      template: {spec: {containers: [{name: launcher, image: mpioperator/mpi-pi:openmpi}]}}
)");
    REQUIRE(d.value.components.size() == 2);
    CHECK(d.value.components[0].name == "Launcher");
    CHECK(d.value.components[0].replicas == 1);
    CHECK(d.value.components[1].name == "Worker");
    CHECK(d.value.components[1].replicas == 0);
}

TEST_CASE("a RayCluster and a RayJob have ray-head plus their worker groups")
{
    const char* cluster_spec = R"(
    headGroupSpec:
      rayStartParams: {dashboard-host: 0.0.0.0}
      template: {spec: {containers: [{name: ray-head, image: rayproject/ray:2.9.0, resources: {requests: {cpu: "2", memory: 8Gi}}}]}}
    workerGroupSpecs:
    - groupName: gpu-group
      replicas: 2
      minReplicas: 1
      maxReplicas: 4
      template: {spec: {containers: [{name: ray-worker, resources: {limits: {cpu: "8", memory: 32Gi, nvidia.com/gpu: 1}}}]}}
    - replicas: 1
      template: {spec: {containers: [{name: ray-worker, resources: {requests: {cpu: "1"}}}]}}
)";
    auto c = decode(std::string("apiVersion: ray.io/v1\nkind: RayCluster\nmetadata: {name: rc}\nspec:") + cluster_spec);
    auto j = decode(std::string("apiVersion: ray.io/v1\nkind: RayJob\nmetadata: {name: rj}\nspec:\n"
                                "  entrypoint: python train.py\n  rayClusterSpec:") +
                    cluster_spec);
    for (const auto* d : {&c, &j}) {
        CHECK(d->errors.empty());
        REQUIRE(d->value.components.size() == 3);
        CHECK(d->value.components[0].name == "ray-head");
        CHECK(d->value.components[0].replicas == 1);
        CHECK(d->value.components[1].name == "gpu-group");
        CHECK(d->value.components[1].replicas == 2);
        CHECK(text_of(d->value.components[1], "nvidia.com/gpu") == "1");
        CHECK(d->value.components[2].name == "worker-2");
    }
}

TEST_CASE("a FlinkDeployment: taskmanagers from parallelism and slots, memory through getResourceQuantity")
{
    auto d = decode(R"(apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: basic-example}
spec:
  image: flink:1.17
  flinkVersion: v1_17
  flinkConfiguration: {taskmanager.numberOfTaskSlots: "2"}
  serviceAccount: flink
  jobManager: {resource: {memory: "2048m", cpu: 1}}
  taskManager: {resource: {memory: "4Gi", cpu: 0.5}}
  job: {jarURI: "local:///opt/flink/examples/streaming/StateMachineExample.jar", parallelism: 5, upgradeMode: stateless}
)");
    CHECK(d.errors.empty());
    REQUIRE(d.value.components.size() == 2);
    const auto& jm = d.value.components[0];
    const auto& tm = d.value.components[1];
    CHECK(jm.name == "jobmanager");
    CHECK(jm.replicas == 1);
    CHECK(tm.replicas == 3); // ceil(5 / 2)
    // Flink's "2048m" (MB to Flink) is 2.048 bytes to Karmada, as its own test data shows.
    CHECK(text_of(jm, "memory") == "2048m");
    CHECK(units_of(jm, "memory") == 3);
    // A float64 back from Lua: decimal notation, whatever the suffix was.
    CHECK(text_of(tm, "memory") == "4294967296");
    CHECK(text_of(tm, "cpu") == "500m");
    // With the gate off Karmada reads GetReplicas instead: 1 + 3 replicas of the larger cpu and memory.
    CHECK(d.value.replicas == 4);
    CHECK(d.value.has_requirements);
    CHECK(d.value.request == model::replica_request{{"cpu", 1000}, {"memory", 4294967296}});
}

TEST_CASE("FlinkDeployment fallbacks: no slots or zero slots give 1 taskmanager, parallelism 0 gives 0")
{
    auto with = [](std::string conf, std::string job) {
        return decode("apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {name: f}\nspec:\n"
                      "  flinkConfiguration: " + conf + "\n  job: " + job +
                      "\n  jobManager: {resource: {memory: 1Gi, cpu: 1}}\n  taskManager: {resource: {cpu: 1}}\n");
    };
    CHECK(with("{}", "{parallelism: 8}").value.components.at(1).replicas == 1);
    CHECK(with("{taskmanager.numberOfTaskSlots: \"0\"}", "{parallelism: 8}").value.components.at(1).replicas == 1);
    CHECK(with("{taskmanager.numberOfTaskSlots: \"3\"}", "{parallelism: 8}").value.components.at(1).replicas == 3);
    auto zero = with("{taskmanager.numberOfTaskSlots: \"2\"}", "{parallelism: 0}");
    CHECK(zero.errors.empty());
    CHECK(zero.value.components.at(1).replicas == 0);
}

TEST_CASE("a SparkApplication: driver and executor memory with the JVM overhead, executor GPUs")
{
    auto d = decode(R"(apiVersion: sparkoperator.k8s.io/v1beta2
kind: SparkApplication
metadata: {name: spark-pi, namespace: spark}
spec:
  type: Scala
  mode: cluster
  image: spark:3.5.0
  mainClass: org.apache.spark.examples.SparkPi
  mainApplicationFile: local:///opt/spark/examples/jars/spark-examples.jar
  sparkVersion: 3.5.0
  driver: {cores: 1, memory: 512m, serviceAccount: spark-operator-spark}
  executor: {cores: 2, instances: 3, memory: 4g, gpu: {name: nvidia.com/gpu, quantity: 1}}
)");
    CHECK(d.errors.empty());
    REQUIRE(d.value.components.size() == 2);
    const auto& driver = d.value.components[0];
    const auto& executor = d.value.components[1];
    CHECK(driver.replicas == 1);
    CHECK(text_of(driver, "memory") == "896Mi"); // 512Mi + max(51.2Mi, 384Mi)
    CHECK(executor.replicas == 3);
    // 4096Mi + 409.6Mi: a fractional byte count, stored as decimal thousandths.
    CHECK(text_of(executor, "memory") == "4724464025600m");
    CHECK(text_of(executor, "nvidia.com/gpu") == "1");
    CHECK(text_of(executor, "cpu") == "2");
}

TEST_CASE("Spark dynamic allocation raises the executors to initialExecutors and minExecutors")
{
    auto d = decode(R"(apiVersion: sparkoperator.k8s.io/v1beta2
kind: SparkApplication
metadata: {name: etl}
spec:
  type: Python
  executor: {instances: 2, memory: 2g}
  dynamicAllocation: {enabled: true, initialExecutors: 5, minExecutors: 3, maxExecutors: 10}
)");
    REQUIRE(d.value.components.size() == 2);
    CHECK(d.value.components[1].replicas == 5);
    // 1g + max(0.4g, 384Mi) = 1433.6Mi: not a whole byte count, stored as decimal thousandths.
    CHECK(text_of(d.value.components[0], "memory") == "1503238553600m");
    CHECK(text_of(d.value.components[1], "memory") == "3006477107200m"); // 2048Mi + 819.2Mi
}

TEST_CASE("bad component input gets errors with field paths, never a crash")
{
    auto volcano = components_of("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: v}\nspec:\n"
                          "  tasks:\n  - name: a-task-name-far-longer-than-thirty-two-bytes\n"
                          "    template: {spec: {}}\n  - name: b\n");
    CHECK(mentions(volcano.errors, "spec.tasks[0].name", "32"));
    CHECK(mentions(volcano.errors, "spec.tasks[1].template", "Required"));
    CHECK(volcano.components.empty());

    auto flink = components_of("apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata: {name: f}\nspec:\n"
                        "  jobManager: {resource: {memory: 2g, cpu: 1}}\n");
    CHECK(mentions(flink.errors, "spec.jobManager.resource.memory", "getResourceQuantity"));
    CHECK(flink.components.empty());

    auto pytorch = components_of("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: p}\nspec:\n"
                          "  pytorchReplicaSpecs:\n    Master: {replicas: 1.5}\n    Worker:\n      replicas: -2\n"
                          "      template: {spec: {containers: [{name: w, resources: {requests: {memory: 1e40}}}]}}\n");
    CHECK(mentions(pytorch.errors, "spec.pytorchReplicaSpecs.Master.replicas", "int32"));
    CHECK(mentions(pytorch.errors, "spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].resources.requests[memory]",
                   "lint computes with at most"));
    REQUIRE(pytorch.components.size() == 1);
    CHECK(pytorch.components[0].replicas == -2); // the binding has no minimum: Karmada keeps it

    auto spark = components_of("apiVersion: sparkoperator.k8s.io/v1beta2\nkind: SparkApplication\nmetadata: {name: s}\n"
                        "spec:\n  driver: {memory: \"512\"}\n");
    CHECK(mentions(spark.errors, "spec.type", "lower"));
    auto spark_unit = components_of("apiVersion: sparkoperator.k8s.io/v1beta2\nkind: SparkApplication\nmetadata: {name: s}\n"
                             "spec:\n  type: Java\n  driver: {memory: \"512\"}\n");
    CHECK(mentions(spark_unit.errors, "spec.driver.memory", "Java memory"));

    auto unknown = decode("apiVersion: kubeflow.org/v1\nkind: XGBoostJob\nmetadata: {name: x}\nspec: {}\n");
    CHECK(unknown.errors.empty());
    CHECK(unknown.value.components.empty());
}

TEST_CASE("scalar resource names follow lifted.IsScalarResourceName")
{
    CHECK(model::is_scalar_resource_name("nvidia.com/gpu"));
    CHECK(model::is_scalar_resource_name("hugepages-2Mi"));
    CHECK(model::is_scalar_resource_name("kubernetes.io/batch-cpu"));
    CHECK_FALSE(model::is_scalar_resource_name("cpu"));
    CHECK_FALSE(model::is_scalar_resource_name("example"));
    CHECK_FALSE(model::is_scalar_resource_name("requests.example.com/foo"));
}

TEST_CASE("what fails Karmada's component script is the template's components_failure, not an error of the file")
{
    auto volcano = decode("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: v}\nspec:\n"
                          "  tasks:\n  - name: b\n");
    CHECK(volcano.errors.empty());
    REQUIRE(volcano.value.components_failure.has_value());
    CHECK(volcano.value.components_failure->message.find("spec.tasks[0].template") == 0);
    CHECK(volcano.value.components_failure->where.line == 6);
    // lint's own limit is not Karmada's failure: the file cannot be predicted (exit 2).
    auto huge = decode("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: p}\nspec:\n"
                       "  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n"
                       "      template: {spec: {containers: [{name: w, resources: {requests: {memory: 1e40}}}]}}\n");
    REQUIRE(huge.errors.size() == 1);
    CHECK(huge.errors[0].str().find("lint computes with at most") != std::string::npos);
    CHECK_FALSE(huge.value.components_failure.has_value());
}
