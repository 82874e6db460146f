// SPDX-License-Identifier: Apache-2.0
#include "lint/kubectl_reader.hpp"

#include "doc/locate.hpp"
#include "field/error.hpp"
#include "schema/object_meta.hpp"

namespace kpw::lint {
namespace {

// cli-runtime's builder runs with ContinueOnError: EagerVisitorList (pkg/resource/visitor.go:238-256)
// records a document's decoding error and StreamVisitor reads on, so kubectl apply sends the file's other
// documents (pkg/cmd/apply/apply.go:516-531) and exits 1.
constexpr std::string_view refuses = " (kubectl skips this document and applies the file's others)";

// schema.ParseGroupVersion: "" and "/" are the empty group/version, one '/' splits group from version,
// more than one is an error, and then unstructured's GroupVersionKind() is empty, kind and all.
struct group_version {
    std::string_view version;
    bool valid = true;
};

group_version parse_group_version(std::string_view gv)
{
    if (gv.empty() || gv == "/")
        return {};
    const auto slash = gv.find('/');
    if (slash == std::string_view::npos)
        return {gv};
    if (gv.find('/', slash + 1) != std::string_view::npos)
        return {{}, false};
    return {gv.substr(slash + 1)};
}

// The kind kubectl's unstructured object reports: GetKind() (a non-string reads as ""), but nothing when
// apiVersion is no group/version.
std::string_view kind_of(const doc::value& object)
{
    return parse_group_version(object.string_at("apiVersion")).valid ? object.string_at("kind") : std::string_view();
}

file_error refusal(const std::string& file, position where, std::string message);

// Why `object` has no kind to kubectl, at the node to edit: no kind string, or an apiVersion that is no
// group/version (then the kind written is lost too).
file_error missing_kind(const std::string& file, const doc::value& object, std::string_view go_error)
{
    const doc::value* api_version = object.find("apiVersion");
    if (!object.string_at("kind").empty() && api_version != nullptr)
        return refusal(file, api_version->pos(),
                       "apiVersion " + field::go_quote(api_version->text()) +
                           " has more than one '/', so it is no group/version and kubectl's object has no kind "
                           "(kubectl: " + std::string(go_error) + ")");
    return refusal(file, object.pos(),
                   "document has no kind: not a Kubernetes object (kubectl: " + std::string(go_error) + ")");
}

file_error refusal(const std::string& file, position where, std::string message)
{
    return {file, where, "unable to decode \"" + file + "\": " + message + std::string(refuses)};
}

// decodeToList's "hacky" step: an item with neither kind nor apiVersion gets the list's kind without its
// "List" suffix and the list's apiVersion. A null item becomes an object holding just those two.
void inherit_type(doc::value& item, const doc::value& list)
{
    if (!item.string_at("kind").empty() || !item.string_at("apiVersion").empty())
        return;
    std::string_view kind = list.string_at("kind");
    if (kind.ends_with("List"))
        kind.remove_suffix(4);
    if (item.is_null())
        item = doc::value::mapping(item.pos());
    item.set("kind", doc::value::string(std::string(kind), item.pos()));
    item.set("apiVersion", doc::value::string(std::string(list.string_at("apiVersion")), item.pos()));
}

// The objects of a list as decodeToList reads them: an array (or null) of mappings (or nulls).
std::optional<file_error> decode_items(doc::value& list, const std::string& file)
{
    doc::value& items = *list.find("items");
    if (items.is_null())
        return std::nullopt;
    if (!items.is_sequence())
        return refusal(file, items.pos(),
                       "items must be a sequence of objects (json: cannot unmarshal into Go struct field "
                       "decodeList.items of type []json.RawMessage)");
    for (doc::value& item : items.items()) {
        if (!item.is_mapping() && !item.is_null())
            return refusal(file, item.pos(),
                           "an item of a list must be an object (json: cannot unmarshal into Go value of type "
                           "map[string]interface {})");
        inherit_type(item, list);
    }
    return std::nullopt;
}

// FlattenListVisitor: meta.ExtractList cannot take an item that is a list itself, and the typer of
// Unstructured() wants a kind and a version on every item.
std::optional<file_error> flatten_items(const doc::value& list, const std::string& file)
{
    for (const doc::value& item : list.find("items")->items()) {
        if (const doc::value* nested = item.find("items"); nested && nested->is_sequence())
            return refusal(file, nested->key_pos(),
                           "an item of a list is a list itself, which kubectl does not unpack "
                           "(*unstructured.Unstructured is not a list: no Items field in this object)");
        const std::string prefix = "unable to get type info from the object \"*unstructured.Unstructured\": ";
        if (kind_of(item).empty())
            return missing_kind(file, item, prefix + "Object 'Kind' is missing in 'object has no kind field '");
        if (parse_group_version(item.string_at("apiVersion")).version.empty())
            return refusal(file, item.pos(),
                           "an item of a list has no apiVersion (kubectl: " + prefix +
                               "Object 'apiVersion' is missing in 'object has no apiVersion field')");
    }
    return std::nullopt;
}

} // namespace

bool is_kubectl_list(const doc::value& document) { return document.is_mapping() && document.find("items"); }

std::optional<file_error> kubectl_refusal(doc::value& document, const std::string& file)
{
    if (!document.is_mapping())
        return refusal(file, document.pos(), "document is not a Kubernetes object (a mapping with apiVersion and kind)");
    const bool list = is_kubectl_list(document);
    if (list)
        if (auto refused = decode_items(document, file))
            return refused;
    if (kind_of(document).empty())
        return missing_kind(file, document, "Object 'Kind' is missing");
    // The metadataOnlyObject decode reads TypeMeta too: an apiVersion that is no string stops the document
    // (read as "" it would pass for a kindless object, and the snapshot readers would skip it unsaid).
    if (const doc::value* api_version = document.find("apiVersion"); api_version && !api_version->is_null() &&
                                                                    !api_version->is_string())
        return refusal(file, api_version->pos(),
                       "json: cannot unmarshal " + schema::json_value_word(*api_version, false) +
                           " into Go struct field metadataOnlyObject.TypeMeta.apiVersion of type string");
    if (const doc::value* metadata = document.find("metadata"))
        if (auto bad = schema::object_meta_type_check(*metadata))
            return refusal(file, doc::locate(document, bad->at.str()), bad->message);
    if (list)
        return flatten_items(document, file);
    return std::nullopt;
}

std::optional<file_error> namespace_refusal(const doc::value& object, const std::string& file,
                                            const std::string& enforced_namespace)
{
    if (object.string_at("kind") != "PropagationPolicy")
        return std::nullopt;
    const doc::value* metadata = object.find("metadata");
    const doc::value* ns = metadata ? metadata->find("namespace") : nullptr;
    if (!ns || !ns->is_string() || ns->text().empty() || ns->text() == enforced_namespace)
        return std::nullopt;
    const std::string& given = ns->text();
    return file_error{file, ns->pos(),
                      "the namespace from the provided object \"" + given + "\" does not match the namespace \"" +
                          enforced_namespace + "\". You must pass '--namespace=" + given +
                          "' to perform this operation. (kubectl apply -n " + enforced_namespace +
                          " refuses this policy and applies the file's other objects; drop -n, or the policy's "
                          "metadata.namespace, to apply it)"};
}

} // namespace kpw::lint
