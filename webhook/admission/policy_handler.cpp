// SPDX-License-Identifier: Apache-2.0
// Operation and kind dispatch around kpw::validate_admission, verdict -> admission response.
#include "admission/policy_handler.hpp"

#include <algorithm>
#include <string>

#include "admission/response.hpp"
#include "field/error.hpp"
#include "model/decode.hpp"
#include "model/well_known.hpp"
#include "snapshot/policy_warnings.hpp"

namespace kpw::admission {
namespace {

std::optional<policy_kind> kind_of(const request& req)
{
    if (!req.kind.kind.empty()) {
        const std::string api = req.kind.group.empty() ? req.kind.version : req.kind.group + "/" + req.kind.version;
        return policy_kind_of(api, req.kind.kind);
    }
    if (req.object.is_mapping())
        return policy_kind_of(req.object.string_at("apiVersion"), req.object.string_at("kind"));
    return std::nullopt;
}

std::string describe_kind(const request& req)
{
    if (!req.kind.kind.empty())
        return field::go_quote(req.kind.group + "/" + req.kind.version + ", Kind=" + req.kind.kind);
    return "an object without apiVersion/kind";
}

// Why a denial happened, for the denials-by-reason metric: the field error reasons, or for the
// short-circuiting update/label checks (no field errors) which of them fired.
std::vector<std::string> denial_causes(const admission_verdict& v)
{
    std::vector<std::string> out;
    for (const auto& e : v.errors) {
        std::string r(field::wire_name(e.type));
        if (std::find(out.begin(), out.end(), r) == out.end())
            out.push_back(std::move(r));
    }
    if (out.empty()) {
        const bool immutable = v.message.find("is immutable") != std::string::npos ||
                               v.message.find("should not be updated") != std::string::npos;
        const bool label = v.message.find("permanent-id is required") != std::string::npos;
        out.push_back(immutable ? "Immutable" : label ? "PermanentIdMissing" : "Denied");
    }
    return out;
}

response bad_request(std::string message)
{
    response r = errored(400, std::move(message));
    r.causes = {"BadRequest"};
    return r;
}

response to_response(const admission_verdict& v)
{
    std::vector<std::string> warnings;
    warnings.reserve(v.warnings.size());
    for (const auto& w : v.warnings)
        warnings.push_back(w.str());
    switch (v.result) {
    case admission_verdict::outcome::allowed:
        return with_warnings(allowed(), warnings);
    case admission_verdict::outcome::undecodable:
        return with_warnings(bad_request(v.message), warnings);
    case admission_verdict::outcome::denied:
        break;
    }
    response r = with_warnings(denied(v.message), warnings);
    r.causes = denial_causes(v);
    return r;
}

// The snapshot's warnings for an admitted policy. Whatever goes wrong here must not change the
// verdict: an exception (allocation) just means no snapshot warnings.
std::vector<std::string> snapshot_warnings(const snapshot::holder* known, const request& req)
{
    if (!known)
        return {};
    const auto current = known->current();
    if (!current)
        return {};
    try {
        const model::policy p = model::decode(req.object);
        const bool cluster_scoped = p.kind == model::kind_cluster_propagation_policy;
        // kube-apiserver has set metadata.namespace from the request by now; request.namespace is the fallback.
        const std::string_view ns = cluster_scoped ? std::string_view() : !p.metadata.ns.empty() ? p.metadata.ns : req.ns;
        return snapshot::policy_warnings(*current, p, ns);
    } catch (const std::exception&) {
        return {};
    }
}

} // namespace

response policy_handler::handle(const request& req) const
{
    // karmada: pkg/webhook/propagationpolicy/validating.go — registered for CREATE and UPDATE only;
    // answering DELETE/CONNECT with "allowed" keeps a broader registration harmless.
    // Any other operation is validated as Karmada's handlers do: everything but UPDATE as a create.
    if (req.operation == "DELETE" || req.operation == "CONNECT")
        return allowed();
    // Karmada's paths are one handler each, which decodes the object into its own type whatever request.kind
    // says (validating.go Decoder.Decode); /validate picks the handler by request.kind (or the object's).
    const auto kind = options_.only_kind ? options_.only_kind : kind_of(req);
    if (!kind)
        return bad_request("this webhook validates PropagationPolicy or ClusterPropagationPolicy of policy.karmada.io, "
                           "got " + describe_kind(req));
    const bool update = req.operation == "UPDATE";
    const auto verdict = validate_admission(*kind, update ? admission_operation::update : admission_operation::create,
                                            req.object, update ? &req.old_object : nullptr, req.ns,
                                            options_.require_permanent_id, options_.validation);
    response r = to_response(verdict);
    if (verdict.result == admission_verdict::outcome::allowed)
        r = with_warnings(std::move(r), snapshot_warnings(options_.cluster_snapshot.get(), req));
    return r;
}

} // namespace kpw::admission
