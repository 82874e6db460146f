// SPDX-License-Identifier: Apache-2.0
// live_serve_data: the API server of tests/bench/live_memory_bench.sh (issue 38). The tests' in-process
// fake API server (tests/webhook/kube/fake_apiserver, HTTPS, pages of `limit`, watches) holding N
// Clusters shaped as livedata (tests/bench/livedata) writes them on the loopback plane (labels, spec
// with karmada-webhook's default resource models, the status the cluster-status controller writes:
// conditions, 75 apiEnablements, resourceSummary with allocatableModelings, node summary) plus the
// managedFields the API server adds, and M Deployments over 100 namespaces (serve's --live-workloads).
//
//   live_serve_data --dir DIR [--clusters 5000] [--deployments 10000]
//
// Writes DIR/kubeconfig (a token user; the server's CA inline), prints "ready <url>" and then reads
// commands on standard input, one a line: "churn" rewrites every Cluster's status (a new
// lastTransitionTime and allocated figures: one burst of N MODIFIED events, as a status controller
// resync gives) and prints "churned"; end of input stops the server.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "../webhook/kube/fake_apiserver.hpp"

namespace {

const char* const providers[] = {"onprem", "aws", "alibaba", "huaweicloud"};

std::string cluster_name(int i)
{
    char b[32];
    std::snprintf(b, sizeof b, "member-%05d", i);
    return b;
}

std::string q(const std::string& s)
{
    return "\"" + s + "\"";
}

// What a Kubernetes 1.35 member with a few add-ons serves (livedata's apiEnablements): 23 group versions.
const std::string& api_enablements()
{
    static const std::string text = [] {
        const std::pair<const char*, const char*> gvs[] = {
            {"admissionregistration.k8s.io/v1",
             "MutatingWebhookConfiguration:mutatingwebhookconfigurations ValidatingAdmissionPolicy:validatingadmissionpolicies "
             "ValidatingAdmissionPolicyBinding:validatingadmissionpolicybindings ValidatingWebhookConfiguration:validatingwebhookconfigurations"},
            {"apiextensions.k8s.io/v1", "CustomResourceDefinition:customresourcedefinitions"},
            {"apiregistration.k8s.io/v1", "APIService:apiservices"},
            {"apps/v1", "ControllerRevision:controllerrevisions DaemonSet:daemonsets Deployment:deployments "
                        "ReplicaSet:replicasets StatefulSet:statefulsets"},
            {"authentication.k8s.io/v1", "SelfSubjectReview:selfsubjectreviews TokenReview:tokenreviews"},
            {"authorization.k8s.io/v1", "LocalSubjectAccessReview:localsubjectaccessreviews "
                                        "SelfSubjectAccessReview:selfsubjectaccessreviews SelfSubjectRulesReview:selfsubjectrulesreviews "
                                        "SubjectAccessReview:subjectaccessreviews"},
            {"autoscaling/v1", "HorizontalPodAutoscaler:horizontalpodautoscalers"},
            {"autoscaling/v2", "HorizontalPodAutoscaler:horizontalpodautoscalers"},
            {"batch/v1", "CronJob:cronjobs Job:jobs"},
            {"certificates.k8s.io/v1", "CertificateSigningRequest:certificatesigningrequests"},
            {"coordination.k8s.io/v1", "Lease:leases"},
            {"discovery.k8s.io/v1", "EndpointSlice:endpointslices"},
            {"events.k8s.io/v1", "Event:events"},
            {"flowcontrol.apiserver.k8s.io/v1", "FlowSchema:flowschemas PriorityLevelConfiguration:prioritylevelconfigurations"},
            {"networking.k8s.io/v1", "IngressClass:ingressclasses Ingress:ingresses IPAddress:ipaddresses "
                                     "NetworkPolicy:networkpolicies ServiceCIDR:servicecidrs"},
            {"node.k8s.io/v1", "RuntimeClass:runtimeclasses"},
            {"policy/v1", "PodDisruptionBudget:poddisruptionbudgets"},
            {"rbac.authorization.k8s.io/v1", "ClusterRoleBinding:clusterrolebindings ClusterRole:clusterroles "
                                             "RoleBinding:rolebindings Role:roles"},
            {"resource.k8s.io/v1", "DeviceClass:deviceclasses ResourceClaim:resourceclaims "
                                   "ResourceClaimTemplate:resourceclaimtemplates ResourceSlice:resourceslices"},
            {"scheduling.k8s.io/v1", "PriorityClass:priorityclasses"},
            {"storage.k8s.io/v1", "CSIDriver:csidrivers CSINode:csinodes CSIStorageCapacity:csistoragecapacities "
                                  "StorageClass:storageclasses VolumeAttachment:volumeattachments"},
            {"v1", "Binding:bindings ComponentStatus:componentstatuses ConfigMap:configmaps Endpoints:endpoints "
                   "Event:events LimitRange:limitranges Namespace:namespaces Node:nodes "
                   "PersistentVolumeClaim:persistentvolumeclaims PersistentVolume:persistentvolumes Pod:pods "
                   "PodTemplate:podtemplates ReplicationController:replicationcontrollers ResourceQuota:resourcequotas "
                   "Secret:secrets ServiceAccount:serviceaccounts Service:services"},
            {"metrics.k8s.io/v1beta1", "NodeMetrics:nodes PodMetrics:pods"},
        };
        std::string out = "[";
        for (const auto& [gv, kinds] : gvs) {
            out += std::string(out.size() > 1 ? "," : "") + R"({"groupVersion":")" + gv + R"(","resources":[)";
            std::string list = kinds;
            bool first = true;
            for (std::size_t at = 0; at < list.size();) {
                auto end = list.find(' ', at);
                if (end == std::string::npos)
                    end = list.size();
                const std::string pair = list.substr(at, end - at);
                const auto colon = pair.find(':');
                out += std::string(first ? "" : ",") + R"({"kind":")" + pair.substr(0, colon) + R"(","name":")" +
                       pair.substr(colon + 1) + "\"}";
                first = false;
                at = end + 1;
            }
            out += "]}";
        }
        return out + "]";
    }();
    return text;
}

// karmada-webhook's default resource models (pkg/webhook/cluster/mutating.go): nine grades of cpu and memory.
const std::string& resource_models()
{
    static const std::string text = [] {
        const char* const cpu[] = {"0", "1", "2", "4", "8", "16", "32", "64", "128", "9223372036854775807"};
        const char* const mem[] = {"0", "4Gi", "16Gi", "32Gi", "64Gi", "128Gi", "256Gi", "512Gi", "1Ti", "9223372036854775807"};
        std::string out = "[";
        for (int g = 0; g < 9; ++g)
            out += std::string(g ? "," : "") + R"({"grade":)" + std::to_string(g) + R"(,"ranges":[{"name":"cpu","min":")" +
                   cpu[g] + R"(","max":")" + cpu[g + 1] + R"("},{"name":"memory","min":")" + mem[g] + R"(","max":")" +
                   mem[g + 1] + R"("}]})";
        return out + "]";
    }();
    return text;
}

// The managedFields kube-apiserver keeps: the creator's Apply of spec and labels, the controller's status.
std::string managed_fields(const std::string& now)
{
    return R"([{"manager":"karmadactl","operation":"Update","apiVersion":"cluster.karmada.io/v1alpha1","time":")" + now +
           R"(","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:capacity-tier":{},"f:env":{},)"
           R"("f:location":{},"f:provider":{},"f:team":{}}},"f:spec":{".":{},"f:apiEndpoint":{},"f:id":{},)"
           R"("f:impersonatorSecretRef":{".":{},"f:name":{},"f:namespace":{}},"f:provider":{},"f:region":{},)"
           R"("f:resourceModels":{},"f:secretRef":{".":{},"f:name":{},"f:namespace":{}},"f:syncMode":{},"f:zones":{}}}},)"
           R"({"manager":"karmada-controller-manager","operation":"Update","apiVersion":"cluster.karmada.io/v1alpha1",)"
           R"("time":")" + now + R"(","fieldsType":"FieldsV1","fieldsV1":{"f:status":{".":{},"f:apiEnablements":{},)"
           R"("f:conditions":{".":{},"k:{\"type\":\"CompleteAPIEnablements\"}":{".":{},"f:lastTransitionTime":{},)"
           R"("f:message":{},"f:reason":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Ready\"}":{".":{},)"
           R"("f:lastTransitionTime":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}}},)"
           R"("f:kubernetesVersion":{},"f:nodeSummary":{".":{},"f:readyNum":{},"f:totalNum":{}},)"
           R"("f:resourceSummary":{".":{},"f:allocatable":{},"f:allocatableModelings":{},"f:allocated":{},"f:allocating":{}}}},)"
           R"("subresource":"status"}])";
}

std::string cluster(int i, int generation)
{
    char region[32], zone[48], id[64], stamp[48];
    std::snprintf(region, sizeof region, "region-%02d", i % 20);
    std::snprintf(zone, sizeof zone, "%s%c", region, 'a' + i % 3);
    std::snprintf(id, sizeof id, "8c3f%04x-1d2e-4b5a-9c8d-%012x", i % 65536, i);
    std::snprintf(stamp, sizeof stamp, "2026-12-04T%02d:%02d:%02dZ", generation / 3600 % 24, generation / 60 % 60, generation % 60);
    const std::string name = cluster_name(i), now = stamp;
    const char* const location[] = {"idc", "cloud", "cloud", "cloud"};
    const char* const env[] = {"staging", "prod", "prod"};
    const char* const tier[] = {"burst", "base", "base", "base", "base"};
    char team[32];
    std::snprintf(team, sizeof team, "team-%02d", i % 50);
    const int nodes = 3 + i % 40, cpu = 16 * nodes;
    std::string o = R"({"apiVersion":"cluster.karmada.io/v1alpha1","kind":"Cluster","metadata":{"name":")" + name +
                    R"(","uid":")" + id + R"(","generation":1,"creationTimestamp":"2026-12-01T08:00:00Z","labels":{)" +
                    R"("location":)" + q(location[i % 4]) + R"(,"env":)" + q(env[i % 3]) + R"(,"team":)" + q(team) +
                    R"(,"capacity-tier":)" + q(tier[i % 5]) + R"(,"provider":)" + q(providers[i % 4]) +
                    R"(},"managedFields":)" + managed_fields(now) + "},";
    o += R"("spec":{"apiEndpoint":"https://)" + name + R"(.k8s.example.internal:6443","id":")" + id + R"(","provider":)" +
         q(providers[i % 4]) + R"(,"region":)" + q(region) + R"(,"zones":[)" + q(zone) + R"(],"syncMode":)" +
         q(i % 2 ? "Pull" : "Push") + R"(,"secretRef":{"namespace":"karmada-cluster","name":")" + name +
         R"("},"impersonatorSecretRef":{"namespace":"karmada-cluster","name":")" + name + R"(-impersonator"},)" +
         R"("resourceModels":)" + resource_models();
    if (i % 20 == 7)
        o += R"(,"taints":[{"key":"maintenance","value":"planned","effect":"NoSchedule"}])";
    o += "},";
    const long allocated_cpu = static_cast<long>(cpu) * 1000 * (20 + (static_cast<long>(i) * 7919 + generation) % 60) / 100;
    o += R"("status":{"kubernetesVersion":"v1.35.3","apiEnablements":)" + api_enablements() +
         R"(,"conditions":[{"type":"Ready","status":"True","reason":"ClusterReady","message":"cluster is healthy and ready to accept workloads","lastTransitionTime":")" +
         now + R"("},{"type":"CompleteAPIEnablements","status":"True","reason":"CompleteAPIEnablements","message":"cluster has complete APIs enabled","lastTransitionTime":")" +
         now + R"("}],"nodeSummary":{"totalNum":)" + std::to_string(nodes) + R"(,"readyNum":)" + std::to_string(nodes) +
         R"(},"resourceSummary":{"allocatable":{"cpu":")" + std::to_string(cpu) + R"(","memory":")" +
         std::to_string(64 * nodes) + R"(Gi","pods":")" + std::to_string(110 * nodes) + R"(","ephemeral-storage":")" +
         std::to_string(100 * nodes) + R"(Gi"},"allocating":{"cpu":"0","memory":"0","pods":"0"},"allocated":{"cpu":")" +
         std::to_string(allocated_cpu) + R"(m","memory":")" + std::to_string(64L * nodes * 1024 * (15 + i % 50) / 100) +
         R"(Mi","pods":")" + std::to_string(i % (60 * nodes)) + R"("},"allocatableModelings":[)";
    const int counts[] = {i % 3, i % 4, 1 + i % 5, nodes / 2, nodes / 4, 0, 0, 0, 0};
    for (int g = 0; g < 9; ++g)
        o += std::string(g ? "," : "") + R"({"grade":)" + std::to_string(g) + R"(,"count":)" + std::to_string(counts[g]) + "}";
    return o + "]}}}";
}

std::string namespace_name(int i)
{
    char b[32];
    std::snprintf(b, sizeof b, "bench-%03d", i);
    return b;
}

// A Deployment as kubectl create + the deployment controller leave it (no managedFields: serve prunes
// nothing of a workload that kubectl's export would not also hold).
std::string deployment(int i)
{
    char app[32];
    std::snprintf(app, sizeof app, "app-%05d", i);
    const std::string ns = namespace_name(i % 100);
    const int replicas = 2 * (1 + i % 4);
    return R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":")" + std::string(app) + R"(","namespace":")" +
           ns + R"(","labels":{"app":")" + app + R"(","team":"team-)" + std::to_string(i % 50) +
           R"("},"annotations":{"deployment.kubernetes.io/revision":"1"},"generation":1},"spec":{"replicas":)" +
           std::to_string(replicas) + R"(,"selector":{"matchLabels":{"app":")" + app +
           R"("}},"template":{"metadata":{"labels":{"app":")" + app +
           R"("}},"spec":{"containers":[{"name":"main","image":"registry.example.internal/team/)" + app +
           R"(:1.4.2","ports":[{"containerPort":8080,"protocol":"TCP"}],"resources":{"requests":{"cpu":")" +
           std::to_string(100 * (1 + i % 8)) + R"(m","memory":")" + std::to_string(128 * (1 + i % 6)) +
           R"(Mi"},"limits":{"memory":")" + std::to_string(256 * (1 + i % 6)) +
           R"(Mi"}}}],"nodeSelector":{"kubernetes.io/os":"linux"}}}},"status":{"replicas":)" + std::to_string(replicas) +
           R"(,"readyReplicas":)" + std::to_string(replicas) + R"(,"availableReplicas":)" + std::to_string(replicas) + "}}";
}

int usage()
{
    std::cerr << "usage: live_serve_data --dir DIR [--clusters N] [--deployments M]\n";
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    std::filesystem::path dir;
    int clusters = 5000, deployments = 10000;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--dir")
            dir = argv[i + 1];
        else if (flag == "--clusters")
            clusters = std::stoi(argv[i + 1]);
        else if (flag == "--deployments")
            deployments = std::stoi(argv[i + 1]);
        else
            return usage();
    }
    if (dir.empty() || argc % 2 == 0)
        return usage();

    kpw::test::fake_apiserver api;
    api.add_resource({"cluster.karmada.io", "v1alpha1", "clusters", "Cluster", false});
    api.add_resource({"apps", "v1", "deployments", "Deployment", true});
    api.add_resource({"", "v1", "namespaces", "Namespace", false});
    for (int i = 0; i < 100; ++i)
        api.put("namespaces", R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + namespace_name(i) + "\"}}");
    for (int i = 0; i < clusters; ++i)
        api.put("clusters", cluster(i, 0));
    for (int i = 0; i < deployments; ++i)
        api.put("deployments", deployment(i));
    api.compact(); // a watch from before now would replay the creates; serve lists first anyway
    api.require_token("bench-token");
    api.start();

    std::filesystem::create_directories(dir);
    std::string ca = api.ca_pem(), ca64;
    {
        // base64 of the CA for certificate-authority-data.
        static const char* const t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        std::size_t i = 0;
        for (; i + 2 < ca.size(); i += 3) {
            const unsigned n = (static_cast<unsigned char>(ca[i]) << 16) | (static_cast<unsigned char>(ca[i + 1]) << 8) |
                               static_cast<unsigned char>(ca[i + 2]);
            ca64 += {t[n >> 18], t[(n >> 12) & 63], t[(n >> 6) & 63], t[n & 63]};
        }
        if (i + 1 == ca.size()) {
            const unsigned n = static_cast<unsigned char>(ca[i]) << 16;
            ca64 += {t[n >> 18], t[(n >> 12) & 63], '=', '='};
        } else if (i + 2 == ca.size()) {
            const unsigned n = (static_cast<unsigned char>(ca[i]) << 16) | (static_cast<unsigned char>(ca[i + 1]) << 8);
            ca64 += {t[n >> 18], t[(n >> 12) & 63], t[(n >> 6) & 63], '='};
        }
    }
    std::ofstream(dir / "kubeconfig") << "apiVersion: v1\nkind: Config\ncurrent-context: bench\nclusters:\n- name: bench\n"
                                         "  cluster:\n    server: " << api.url() << "\n    certificate-authority-data: " << ca64
                                      << "\ncontexts:\n- name: bench\n  context:\n    cluster: bench\n    user: bench\n"
                                         "users:\n- name: bench\n  user:\n    token: bench-token\n";
    std::cout << "ready " << api.url() << std::endl;
    int generation = 0;
    for (std::string line; std::getline(std::cin, line);) {
        if (line == "churn") {
            ++generation;
            for (int i = 0; i < clusters; ++i)
                api.put("clusters", cluster(i, generation));
            std::cout << "churned" << std::endl;
        } else {
            std::cerr << "live_serve_data: unknown command " << line << " (churn)\n";
        }
    }
    api.stop();
    return 0;
}
