// SPDX-License-Identifier: Apache-2.0
// kubectl's reader of a document: the documents kubectl skips (sending the file's others), and the list items it
// types from the list (cli-runtime's builder over apimachinery's unstructuredJSONScheme).
#include <optional>
#include <string>

#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "lint/kubectl_reader.hpp"

using kpw::lint::is_kubectl_list;
using kpw::lint::kubectl_refusal;

namespace {

struct read_result {
    kpw::doc::value document;
    std::optional<kpw::lint::file_error> refused;
};

read_result read(const std::string& yaml)
{
    auto docs = kpw::doc::load_yaml(yaml);
    REQUIRE(docs.ok());
    REQUIRE(docs->size() == 1);
    read_result r{std::move((*docs)[0].root), std::nullopt};
    r.refused = kubectl_refusal(r.document, "f.yaml");
    return r;
}

bool refused_with(const read_result& r, const std::string& text, int line)
{
    return r.refused && r.refused->message.find(text) != std::string::npos && r.refused->where.line == line &&
           r.refused->message.find("kubectl skips this document and applies the file's others") != std::string::npos;
}

} // namespace

TEST_CASE("an ordinary object and a List of objects are read")
{
    CHECK_FALSE(read("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n").refused);
    auto list = read("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: apps/v1, kind: Deployment}\n");
    CHECK_FALSE(list.refused);
    CHECK(is_kubectl_list(list.document));
}

TEST_CASE("a document with no kind, or an apiVersion that is no group/version, is refused")
{
    CHECK(refused_with(read("apiVersion: apps/v1\nmetadata: {name: a}\n"), "Object 'Kind' is missing", 1));
    CHECK(refused_with(read("apiVersion: apps/v1\nkind: 5\n"), "Object 'Kind' is missing", 1));
    // schema.ParseGroupVersion fails on two slashes, and the unstructured object's GVK is empty, kind and all.
    auto two_slashes = read("kind: Deployment\napiVersion: a/b/v1\n");
    CHECK(refused_with(two_slashes, "has more than one '/'", 2));
    CHECK(refused_with(read("- a\n- b\n"), "not a Kubernetes object", 1));
}

TEST_CASE("an apiVersion that is no string stops the document (metadataOnlyObject's TypeMeta)")
{
    CHECK(refused_with(read("apiVersion: 12\nkind: Cluster\nmetadata: {name: c}\n"),
                       "json: cannot unmarshal number into Go struct field metadataOnlyObject.TypeMeta.apiVersion of "
                       "type string",
                       1));
    CHECK(refused_with(read("kind: Deployment\napiVersion: {a: b}\nmetadata: {name: c}\n"), "cannot unmarshal object", 2));
    CHECK_FALSE(read("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: c}\n").refused);
}

TEST_CASE("an items member makes a list whatever the kind; its items must be objects")
{
    auto stray = read("apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nitems: []\n");
    CHECK_FALSE(stray.refused);
    CHECK(is_kubectl_list(stray.document)); // kubectl applies its (zero) items, not the policy
    CHECK_FALSE(read("apiVersion: v1\nkind: List\nitems: null\n").refused);
    CHECK(refused_with(read("apiVersion: v1\nkind: List\nitems: {a: 1}\n"), "items must be a sequence", 3));
    CHECK(refused_with(read("apiVersion: v1\nkind: List\nitems:\n- just a string\n"), "must be an object", 4));
}

TEST_CASE("FlattenListVisitor: every item needs a kind and a version, and none is a list itself")
{
    CHECK(refused_with(read("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: apps/v1, metadata: {name: a}}\n"),
                       "Object 'Kind' is missing in 'object has no kind field '", 4));
    CHECK(refused_with(read("apiVersion: v1\nkind: List\nitems:\n- {kind: Deployment, apiVersion: apps/}\n"),
                       "Object 'apiVersion' is missing", 4));
    CHECK(refused_with(read("apiVersion: v1\nkind: List\nitems:\n- {kind: List, apiVersion: v1, items: []}\n"),
                       "no Items field in this object", 4));
    // A List's own kind "List" gives its untyped items the kind "": refused like any item without one.
    CHECK(refused_with(read("apiVersion: v1\nkind: List\nitems:\n- {metadata: {name: a}}\n"), "Object 'Kind'", 4));
}

TEST_CASE("decodeToList: an item with neither kind nor apiVersion takes the list's")
{
    auto typed = read("apiVersion: cluster.karmada.io/v1alpha1\nkind: ClusterList\nitems:\n"
                      "- {metadata: {name: m1}}\n- null\n- {kind: Cluster, apiVersion: cluster.karmada.io/v1alpha1}\n");
    REQUIRE_FALSE(typed.refused);
    const auto& items = typed.document.find("items")->items();
    REQUIRE(items.size() == 3);
    for (const auto& item : items) {
        CHECK(item.string_at("kind") == "Cluster");
        CHECK(item.string_at("apiVersion") == "cluster.karmada.io/v1alpha1");
    }
    CHECK(items[0].find_path({"metadata", "name"})->text() == "m1");
    // One of the two is enough to keep the item as written (and then it needs both).
    CHECK(refused_with(read("apiVersion: v1\nkind: PodList\nitems:\n- {apiVersion: v1}\n"), "Object 'Kind'", 4));
}

TEST_CASE("the document's metadata must decode into ObjectMeta; a list's items' metadata is not kubectl's to check")
{
    CHECK(refused_with(read("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, labels: {n: 1}}\n"),
                       "cannot unmarshal number", 3));
    CHECK_FALSE(read("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {labels: {n: 1}}}\n")
                    .refused);
}
