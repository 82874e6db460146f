// SPDX-License-Identifier: Apache-2.0
// AdmissionReview decoding (on doc::parse_json) and encoding (Go encoding/json field order).
#include "admission/review_codec.hpp"

#include "doc/load.hpp"
#include "field/error.hpp"

namespace kpw::admission {
namespace {

// The first member of `m` named `key` whose value is not a string (and not null), or nullptr.
const char* bad_string_member(const doc::value& m, std::initializer_list<const char*> keys)
{
    for (const char* key : keys) {
        const doc::value* v = m.find(key);
        if (v && !v->is_string() && !v->is_null())
            return key;
    }
    return nullptr;
}

std::string read_kind(const doc::value& req, group_version_kind& out)
{
    const doc::value* kind = req.find("kind");
    if (!kind || kind->is_null())
        return {};
    if (!kind->is_mapping())
        return "request.kind must be an object";
    if (const char* bad = bad_string_member(*kind, {"group", "version", "kind"}))
        return std::string("request.kind.") + bad + " must be a string";
    out = {std::string(kind->string_at("group")), std::string(kind->string_at("version")),
           std::string(kind->string_at("kind"))};
    return {};
}

std::string read_request(doc::value& req, request& out)
{
    if (!req.is_mapping())
        return "request must be an object";
    // controller-runtime does not require a uid (it echoes what it got, "" for none); kube-apiserver always
    // sends one and refuses an answer whose uid is not its own.
    const doc::value* uid = req.find("uid");
    if (uid && !uid->is_null() && !uid->is_string())
        return "request.uid must be a string";
    out.uid = uid ? uid->text() : std::string();
    if (const char* bad = bad_string_member(req, {"operation", "name", "namespace"}))
        return std::string("request.") + bad + " must be a string";
    out.operation = req.string_at("operation");
    out.name = req.string_at("name");
    out.ns = req.string_at("namespace");
    if (const doc::value* dry = req.find("dryRun"); dry && !dry->is_null()) {
        if (!dry->is_bool())
            return "request.dryRun must be a boolean";
        out.dry_run = dry->as_bool();
    }
    if (doc::value* o = req.find("object"))
        out.object = std::move(*o);
    if (doc::value* o = req.find("oldObject"))
        out.old_object = std::move(*o);
    return read_kind(req, out.kind);
}

// controller-runtime decodes the body into a type its scheme does not register (http.go
// unversionedAdmissionReview), so apimachinery's json serializer takes any apiVersion and kind, and the
// reply carries them back (writeResponseTyped); a review without request is an empty one, which the
// handler then finds without an object. kube-apiserver sends admission.k8s.io/v1 or v1beta1 with a request.
std::string read_envelope(doc::value& root, request& out)
{
    if (!root.is_mapping())
        return "the AdmissionReview must be a JSON object";
    if (const char* bad = bad_string_member(root, {"apiVersion", "kind"}))
        return std::string("the AdmissionReview's ") + bad + " must be a string";
    out.review_api_version = root.string_at("apiVersion");
    out.review_kind = root.string_at("kind");
    doc::value* req = root.find("request");
    if (!req || req->is_null())
        return {};
    return read_request(*req, out);
}

void append_status(std::string& out, const response& r)
{
    // metav1.Status field order: metadata, message, reason, code (empty ones omitted).
    out += R"("status":{"metadata":{})";
    if (!r.message.empty()) {
        out += R"(,"message":)";
        doc::append_json_string(out, r.message);
    }
    if (!r.reason.empty()) {
        out += R"(,"reason":)";
        doc::append_json_string(out, r.reason);
    }
    out += R"(,"code":)";
    out += std::to_string(r.code == 0 ? 200 : r.code);
    out += '}';
}

// Members of a review that nothing here reads, not stored (about a third of a typical review's nodes,
// more for objects with many field managers). Validation decodes metadata's name, namespace, labels,
// annotations, ... but never managedFields; the request's kind is read, its resource, user and options not.
constexpr doc::json_prune metadata_prune[] = {{"managedFields", {}}};
constexpr doc::json_prune object_prune[] = {{"metadata", metadata_prune}};
constexpr doc::json_prune request_prune[] = {
    {"object", object_prune},  {"oldObject", object_prune}, {"userInfo", {}},
    {"resource", {}},          {"requestKind", {}},         {"requestResource", {}},
    {"subResource", {}},       {"requestSubResource", {}},  {"options", {}},
};
constexpr doc::json_prune review_prune[] = {{"request", request_prune}};

} // namespace

decoded_review decode_review(std::string_view body)
{
    decoded_review out;
    auto parsed = doc::parse_json(body, {}, review_prune);
    if (!parsed) {
        const auto& f = parsed.error();
        out.error = "couldn't decode the AdmissionReview: " + f.message;
        if (out.error.ends_with('.')) // RapidJSON's texts end in a period; a position follows
            out.error.pop_back();
        if (f.where.known())
            out.error += " at line " + std::to_string(f.where.line) + ", column " + std::to_string(f.where.column);
        return out;
    }
    out.error = read_envelope(*parsed, out.req);
    return out;
}

std::string encode_review(const response& r, std::string_view api_version, std::string_view kind, std::string_view uid)
{
    if (api_version.empty() && kind.empty()) {
        api_version = review_v1;
        kind = "AdmissionReview";
    }
    std::string out;
    out.reserve(160 + r.message.size() + r.warnings.size() * 64);
    out += '{';
    if (!kind.empty()) { // metav1.TypeMeta: kind, then apiVersion, each omitted when empty
        out += R"("kind":)";
        doc::append_json_string(out, kind);
        out += ',';
    }
    if (!api_version.empty()) {
        out += R"("apiVersion":)";
        doc::append_json_string(out, api_version);
        out += ',';
    }
    out += R"("response":{"uid":)";
    doc::append_json_string(out, uid);
    out += r.allowed ? R"(,"allowed":true,)" : R"(,"allowed":false,)";
    append_status(out, r);
    if (!r.warnings.empty()) {
        out += R"(,"warnings":[)";
        for (std::size_t i = 0; i < r.warnings.size(); ++i) {
            if (i)
                out += ',';
            doc::append_json_string(out, r.warnings[i]);
        }
        out += ']';
    }
    out += "}}";
    return out;
}

} // namespace kpw::admission
