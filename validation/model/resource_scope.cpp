// SPDX-License-Identifier: Apache-2.0
#include "model/resource_scope.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace kpw::model {

namespace {

// k8s.io/api (v0.35) types registered with RESTScopeRoot, and Karmada's own; group "" is the core group.
constexpr std::array<std::pair<std::string_view, std::string_view>, 33> cluster_scoped_kinds{{
    {"", "Namespace"},
    {"", "Node"},
    {"", "PersistentVolume"},
    {"", "ComponentStatus"},
    {"rbac.authorization.k8s.io", "ClusterRole"},
    {"rbac.authorization.k8s.io", "ClusterRoleBinding"},
    {"storage.k8s.io", "StorageClass"},
    {"storage.k8s.io", "CSIDriver"},
    {"storage.k8s.io", "CSINode"},
    {"storage.k8s.io", "VolumeAttachment"},
    {"storage.k8s.io", "VolumeAttributesClass"},
    {"apiextensions.k8s.io", "CustomResourceDefinition"},
    {"scheduling.k8s.io", "PriorityClass"},
    {"networking.k8s.io", "IngressClass"},
    {"networking.k8s.io", "IPAddress"},
    {"networking.k8s.io", "ServiceCIDR"},
    {"node.k8s.io", "RuntimeClass"},
    {"admissionregistration.k8s.io", "MutatingWebhookConfiguration"},
    {"admissionregistration.k8s.io", "ValidatingWebhookConfiguration"},
    {"admissionregistration.k8s.io", "ValidatingAdmissionPolicy"},
    {"admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"},
    {"apiregistration.k8s.io", "APIService"},
    {"certificates.k8s.io", "CertificateSigningRequest"},
    {"certificates.k8s.io", "ClusterTrustBundle"},
    {"flowcontrol.apiserver.k8s.io", "FlowSchema"},
    {"flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration"},
    {"resource.k8s.io", "DeviceClass"},
    {"cluster.karmada.io", "Cluster"},
    {"policy.karmada.io", "ClusterPropagationPolicy"},
    {"policy.karmada.io", "ClusterOverridePolicy"},
    {"policy.karmada.io", "ClusterTaintPolicy"},
    {"work.karmada.io", "ClusterResourceBinding"},
    {"config.karmada.io", "ResourceInterpreterCustomization"},
}};

std::string_view group_of(std::string_view api_version)
{
    const auto slash = api_version.find('/');
    return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

} // namespace

bool cluster_scoped(std::string_view api_version, std::string_view kind)
{
    const std::pair<std::string_view, std::string_view> key{group_of(api_version), kind};
    return std::find(cluster_scoped_kinds.begin(), cluster_scoped_kinds.end(), key) != cluster_scoped_kinds.end();
}

} // namespace kpw::model
