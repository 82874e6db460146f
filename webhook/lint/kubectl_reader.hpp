// SPDX-License-Identifier: Apache-2.0
// kubectl's reader: how cli-runtime's builder (Unstructured(), the one kubectl apply uses) turns one
// document of a file into objects, and when it skips the document instead (the file's other documents are
// still sent). lint's policies and the
// dry run's --clusters, --workloads and --bindings all read files through it.
#pragma once

#include <optional>
#include <string>

#include "doc/value.hpp"
#include "lint/report.hpp"

namespace kpw::lint {

// A document with an "items" member is a list to kubectl, whatever its kind
// (apimachinery unstructuredJSONScheme.decode); its objects are the items (none when items is null).
bool is_kubectl_list(const doc::value& document);

// Reads `document` as kubectl does before it sends anything, in kubectl's order:
//  - unstructuredJSONScheme.Decode: a mapping; a list's items an array (or null) of objects; the document's
//    kind non-empty once its apiVersion parses as group/version ("a/b/c" does not, so it has no kind);
//  - decodeToList: an item with neither kind nor apiVersion takes the list's ("ClusterList" gives
//    "Cluster"); that is written into `document`, so what reads the items next sees what kubectl sends;
//  - metadataValidatingDecoder: the document's metadata (a list's own) decodes into ObjectMeta;
//  - FlattenListVisitor: no item is itself a list, and every item has a kind and a version.
// The refusal in kubectl's words at the node to edit, or nullopt.
std::optional<file_error> kubectl_refusal(doc::value& document, const std::string& file);

// kubectl apply -n NS (cli-runtime pkg/resource/visitor.go:665-683 RequireNamespace, which the builder adds
// when -n is given): a namespaced object that names another namespace is refused, and the file's other
// objects are still sent. Of the objects lint judges, PropagationPolicy is namespaced; a
// ClusterPropagationPolicy is not. kubectl's text at metadata.namespace, or nullopt.
std::optional<file_error> namespace_refusal(const doc::value& object, const std::string& file,
                                            const std::string& enforced_namespace);

} // namespace kpw::lint
