// SPDX-License-Identifier: Apache-2.0
// The front door: the serve pipeline (stage 4 only) and the lint pipeline (stages 1-4), rules §1.
#include "validate.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "model/decode.hpp"
#include "model/defaults.hpp"
#include "model/encode.hpp"
#include "model/kubectl_apply.hpp"
#include "model/typed_decode.hpp"
#include "rules/rules.hpp"
#include "schema/schema.hpp"

namespace kpw {
namespace {

constexpr std::string_view no_content = "there is no content to decode";

bool is_pp(policy_kind k) { return k == policy_kind::propagation_policy; }

admission_verdict undecodable(std::string message)
{
    admission_verdict v;
    v.result = admission_verdict::outcome::undecodable;
    v.message = std::move(message);
    return v;
}

admission_verdict denied(std::string message, field::error_list errors = {})
{
    admission_verdict v;
    v.result = admission_verdict::outcome::denied;
    v.message = std::move(message);
    v.errors = std::move(errors);
    return v;
}

// "json: cannot unmarshal W into Go struct field S.a.Embedded.b of type T" without the embedded structs'
// names (an upper-case path segment after S), as the sigs.k8s.io/json of releases before
// settings::changes::json_embedded_field_names words it.
std::string without_embedded_names(const std::string& message)
{
    constexpr std::string_view struct_field = " into Go struct field ";
    const auto start = message.find(struct_field);
    const auto end = message.rfind(" of type ");
    if (start == std::string::npos || end == std::string::npos || end < start)
        return message;
    const std::string_view path = std::string_view(message).substr(start + struct_field.size(),
                                                                    end - start - struct_field.size());
    std::string kept;
    for (std::size_t at = 0, n = 0; at <= path.size(); ++n) {
        const auto dot = std::min(path.find('.', at), path.size());
        const std::string_view part = path.substr(at, dot - at);
        if (n == 0 || part.empty() || part[0] < 'A' || part[0] > 'Z')
            kept.append(kept.empty() ? "" : ".").append(part);
        at = dot + 1;
    }
    return message.substr(0, start + struct_field.size()) + kept + message.substr(end);
}

// Decodes an admission object; `error` is set when Go could not decode it. One named result, built
// in place (an optional<policy> cost a move of the whole policy per review).
// karmada-webhook's decoder reads apiVersion and kind before the fields (model/typed_decode.hpp); a null or
// absent object is a RawExtension without bytes.
model::policy decode_admission(policy_kind kind, const doc::value& object, settings::karmada_release release,
                               std::string& error)
{
    if (object.is_null()) {
        error = no_content;
        return {};
    }
    const model::typed_refusal refusal = model::typed_decode_refusal(object, kind_name(kind), release);
    if (!refusal.message.empty() && !refusal.after_fields) {
        error = refusal.message;
        return {};
    }
    // The release's Go types have no field a later release added: encoding/json skips it, a type error in it
    // included, so an older release reads the object as its CRD (generated from those types) prunes it.
    // An object without a kind is the target's (gvkWithDefaults): its type errors name that Go struct.
    const doc::value* read = &object;
    doc::value copy;
    const auto copied = [&]() -> doc::value& {
        if (read != &copy) {
            copy = object;
            read = &copy;
        }
        return copy;
    };
    if (release != settings::newest_karmada_release)
        if (const schema::node* crd = schema::crd_schema(kind_name(kind), release))
            schema::prune_unknown_fields(*crd, copied());
    if (object.string_at("kind").empty())
        copied().set("kind", doc::value::string(std::string(kind_name(kind))));
    // As the handler's decoder reads it: an explicit `[]` is a non-nil slice (model/go_collection.hpp).
    model::policy p = model::decode(*read, &error, model::empty_collections::kept);
    if (!error.empty() && !settings::has(release, settings::changes::json_embedded_field_names))
        error = without_embedded_names(error);
    if (error.empty())
        error = refusal.message;
    p.kind = kind_name(kind);
    return p;
}

// metadata as the API server checks it on CREATE: after Karmada's mutating webhook appended its controller
// finalizer (karmada: pkg/webhook/propagationpolicy/mutating.go controllerutil.AddFinalizer), so a finalizer
// error lists it too, as karmada-apiserver's does.
model::object_meta created_meta(policy_kind kind, model::object_meta meta)
{
    const std::string_view finalizer = is_pp(kind) ? model::pp_finalizer : model::cpp_finalizer;
    if (std::find(meta.finalizers.begin(), meta.finalizers.end(), finalizer) == meta.finalizers.end())
        meta.finalizers.emplace_back(finalizer);
    return meta;
}

// kube-apiserver calls the validating webhooks only after the object passed its own checks (metadata,
// schema): when those deny, Karmada's webhook never runs, and the denial the user sees holds the
// server's errors alone. What Karmada's webhook would deny next is kept as warnings, so it is not lost.
void defer_webhook_errors(const field::error_list& webhook_errors, field::warning_list& warnings)
{
    constexpr std::string_view note = " (Karmada's webhook denies this once the errors above are fixed; the API "
                                      "server stops before calling it)";
    // A warning is positioned by its field: where the error points elsewhere (locate_at), the warning takes
    // that path and the message keeps Karmada's field.
    for (const auto& e : webhook_errors)
        warnings.push_back({"denied-after-schema", e.locate_at.empty() ? e.field : e.locate_at,
                            (e.locate_at.empty() ? e.body() : e.str()) + std::string(note)});
}

// The schema errors of the document as written that the mutating webhook's round trip makes go away (a
// required field re-emitted as "" / 0 / {}, an omitempty "" dropped so the default applies): the API
// server never sees them, so they do not deny; lint keeps them as warnings. An error that the round trip
// only moves (a missing spec becomes a missing spec.resourceSelectors) is still an error there.
bool survives(const field::error& e, const field::error_list& mutated)
{
    return std::any_of(mutated.begin(), mutated.end(), [&](const field::error& m) {
        const std::string_view f = m.field;
        return f.starts_with(e.field) && (f.size() == e.field.size() || f[e.field.size()] == '.' ||
                                          f[e.field.size()] == '[');
    });
}

void masked_to_warnings(const field::error_list& as_written, const field::error_list& mutated,
                        field::warning_list& warnings)
{
    for (const auto& e : as_written) {
        if (survives(e, mutated))
            continue;
        if (e.type == field::reason::required)
            warnings.push_back({"required-masked", e.field,
                                "Required value: a live Karmada accepts the omission (its mutating webhook "
                                "re-emits an empty value), set it explicitly"});
        else
            warnings.push_back({"value-masked", e.field,
                                e.body() + " (a live Karmada admits this: its mutating webhook re-encodes the "
                                           "value through Karmada's Go types, which drop it, before the schema "
                                           "runs)"});
    }
}

// A field the chosen release's CRD does not define but a later release added: Karmada's own answer is the
// API server's (a strict decoding error, or the field silently pruned), which does not say why. This says
// it, whatever --validate is: with validation off the field is dropped and the policy spreads as if it
// were not there.
void fields_of_later_releases(const schema::node& crd, const doc::value& object, settings::karmada_release release,
                              field::warning_list& warnings)
{
    for (const auto& f : schema::unknown_fields(crd, object)) {
        const settings::karmada_change* c = settings::change_adding_field(f.api_path);
        if (!c || settings::has(release, *c))
            continue;
        warnings.push_back({"field-of-later-release", f.at.str(),
                            "added in Karmada " + std::string(c->introduced) + "; Karmada " +
                                std::string(settings::release_name(release)) +
                                " (--karmada-version) does not define it: kubectl apply refuses the policy (strict "
                                "field validation) or the API server drops the field and karmada-scheduler never "
                                "sees it. Upgrade Karmada to " +
                                std::string(c->introduced.substr(0, c->introduced.rfind('.'))) +
                                " or later, or remove the field"});
    }
}

// Errors the API server would report but never reaches, because Karmada's mutating webhook refused to
// decode the object first: its 400 is the whole answer. The schema's type errors say what the decode
// error says and are left out.
void defer_after_refusal(const field::error_list& errors, field::warning_list& warnings)
{
    for (const auto& e : errors)
        if (e.type != field::reason::type_invalid)
            warnings.push_back({"denied-after-decode", e.field,
                                e.body() + " (the API server denies this too once Karmada's mutating webhook "
                                           "can decode the object)"});
}

// Go keeps a JSON [] as an empty, non-nil slice, which a field without omitempty re-encodes as []; the
// model has no nil, so to_value wrote null there. Those fields (propagation_types.go: resourceSelectors,
// statePreservation.rules) get their [] back, for the schema's "at least 1 items".
void keep_empty_lists(doc::value& stored, const doc::value& written)
{
    using keys = std::initializer_list<std::string_view>;
    for (keys path : {keys{"spec", "resourceSelectors"}, keys{"spec", "failover", "application", "statePreservation", "rules"},
                      keys{"spec", "failover", "cluster", "statePreservation", "rules"}}) {
        const doc::value* was = written.find_path(path);
        if (!was || !was->is_sequence() || !was->items().empty())
            continue;
        doc::value* at = &stored;
        for (auto k = path.begin(); at && k + 1 != path.end(); ++k)
            at = at->find(*k);
        if (at && at->is_mapping())
            if (doc::value* list = at->find(*(path.end() - 1)); list && list->is_null())
                *list = doc::value::sequence();
    }
}

// Stage 2 (mutating webhook) and its round trip: mutating defaults, Go re-encoding (which drops
// unknown fields and empty lists), CRD defaults again on the patched object.
doc::value mutate(const schema::node* crd, model::policy& p, const doc::value& original, std::string_view ns)
{
    model::apply_mutating_defaults(p, ns);
    doc::value stored = model::to_value(p);
    keep_empty_lists(stored, original);
    if (const doc::value* meta = original.find("metadata"); meta && meta->is_mapping()) {
        doc::value m = *meta; // keep everything the API server keeps in metadata
        if (!ns.empty())
            m.set("namespace", doc::value::string(std::string(ns)));
        stored.set("metadata", std::move(m));
    }
    if (crd)
        schema::apply_defaults(*crd, stored);
    p = model::decode(stored);
    return stored;
}

// encoding/json decodes the JSON the API server sends the webhook: the unstructured object re-encoded,
// so every mapping's keys in byte order. Go keeps the first type error it meets, so that order decides
// which one Karmada reports.
void sort_keys(doc::value& v)
{
    if (v.is_sequence())
        for (auto& item : v.items())
            sort_keys(item);
    if (!v.is_mapping())
        return;
    for (auto& m : v.members())
        sort_keys(m.second);
    std::stable_sort(v.members().begin(), v.members().end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
}

// Whether `v` is of the JSON type encoding/json names in "cannot unmarshal <word> into": "string",
// "number" (or "number 1.5"), "bool", "array", "object".
bool is_json_word(const doc::value& v, std::string_view word)
{
    return word.starts_with("number") ? v.is_number()
           : word == "string"         ? v.is_string()
           : word == "bool"           ? v.is_bool()
           : word == "array"          ? v.is_sequence()
                                      : word == "object" && v.is_mapping();
}

// The rendered path of the value encoding/json refused: at dotted Go field path `keys` (no indices) of
// `v`, of JSON type `word`, searching lists in order; the element of a string map or list the path ends
// at when that is the value Go refused.
std::optional<std::string> refused_at(const doc::value& v, const std::vector<std::string_view>& keys, std::size_t i,
                                      const std::string& at, std::string_view word)
{
    if (v.is_sequence()) {
        for (std::size_t n = 0; n < v.items().size(); ++n)
            if (auto found = refused_at(v.items()[n], keys, i, at + "[" + std::to_string(n) + "]", word))
                return found;
        if (i == keys.size() && is_json_word(v, word))
            return at;
        return std::nullopt;
    }
    if (i == keys.size()) {
        if (is_json_word(v, word))
            return at;
        for (const auto& [key, item] : v.members())
            if (is_json_word(item, word))
                return at + "." + key;
        return std::nullopt;
    }
    const doc::value* child = v.find(keys[i]);
    if (!child)
        return std::nullopt;
    return refused_at(*child, keys, i + 1, at.empty() ? std::string(keys[i]) : at + "." + std::string(keys[i]), word);
}

// Where encoding/json's "json: cannot unmarshal W into Go struct field S.a.b.c of type T" points in the
// document: the value of type W at a.b.c, with the indices of the elements that hold it; spec when the
// text names no such value.
std::string go_error_path(const doc::value& object, std::string_view message)
{
    constexpr std::string_view prefix = "json: cannot unmarshal ", struct_field = " into Go struct field ";
    const auto start = message.find(struct_field);
    const auto end = message.rfind(" of type ");
    if (!message.starts_with(prefix) || start == std::string_view::npos || end == std::string_view::npos || end < start)
        return "spec";
    const std::string_view word = message.substr(prefix.size(), start - prefix.size());
    const std::string_view qualified = message.substr(start + struct_field.size(), end - start - struct_field.size());
    std::vector<std::string_view> keys;
    for (std::string_view rest = qualified.substr(qualified.find('.') + 1); !rest.empty();) {
        const auto next = rest.find('.');
        if (const std::string_view key = rest.substr(0, next); key.empty() || key[0] < 'A' || key[0] > 'Z')
            keys.push_back(key); // not an embedded struct's Go name (ClusterAffinity): no JSON key
        rest = next == std::string_view::npos ? std::string_view() : rest.substr(next + 1);
    }
    return refused_at(object, keys, 0, "", word).value_or("spec");
}

// karmada: pkg/webhook/{propagationpolicy,clusterpropagationpolicy}/mutating.go Handle, whose first step
// is a.Decoder.Decode(req, policy) -> admission.Errored(http.StatusBadRequest, err). metadata is left
// out: the API server decoded it into ObjectMeta itself and sends its own encoding (a type error there
// is the API server's 400, schema/object_meta).
std::string mutating_decode_error(const doc::value& written)
{
    doc::value sent = written;
    sent.erase("metadata");
    sort_keys(sent);
    std::string error;
    model::decode(sent, &error);
    return error;
}

} // namespace

std::optional<policy_kind> policy_kind_of(std::string_view api_version, std::string_view kind)
{
    if (api_version.substr(0, api_version.find('/')) != "policy.karmada.io")
        return std::nullopt;
    if (kind == "PropagationPolicy")
        return policy_kind::propagation_policy;
    if (kind == "ClusterPropagationPolicy")
        return policy_kind::cluster_propagation_policy;
    return std::nullopt;
}

std::string_view kind_name(policy_kind k)
{
    return is_pp(k) ? model::kind_propagation_policy : model::kind_cluster_propagation_policy;
}

std::string_view served_api_version(policy_kind k)
{
    return schema::crd_api_version(kind_name(k));
}

// karmada: pkg/webhook/{propagationpolicy,clusterpropagationpolicy}/validating.go Handle
admission_verdict validate_admission(policy_kind kind, admission_operation op, const doc::value& object,
                                     const doc::value* old_object, std::string_view request_namespace,
                                     bool require_permanent_id, const validation_options& options)
{
    std::string error;
    const model::policy now = decode_admission(kind, object, options.release, error);
    if (!error.empty())
        return undecodable(std::move(error));
    if (op == admission_operation::update) {
        const model::policy old = decode_admission(kind, old_object ? *old_object : doc::value(), options.release, error);
        if (!error.empty())
            return undecodable(std::move(error));
        if (auto msg = rules::validate_update(now, old))
            return denied(std::move(*msg));
    }
    if (require_permanent_id)
        if (auto msg = rules::validate_permanent_id(now))
            return denied(std::move(*msg));
    // Both handlers validate the spec in the request's namespace (validating.go: ValidatePropagationSpec(spec,
    // req.Namespace)), which kube-apiserver sets to a PropagationPolicy's own and leaves empty for a cluster one.
    const rules::options opts{request_namespace, options.allow_aggregated_overflow, options.release};
    field::error_list errors = rules::validate_propagation_spec(now.spec, opts);
    admission_verdict v;
    if (!errors.empty()) {
        std::string message = field::aggregate(errors);
        v = denied(std::move(message), std::move(errors));
    }
    v.warnings = rules::spec_warnings(now.spec);
    return v;
}

std::optional<std::string> update_refusal(policy_kind kind, const doc::value& defaulted, const model::policy& stored,
                                          bool stored_as_applied)
{
    model::policy now = model::decode(defaulted);
    now.kind = std::string(kind_name(kind));
    const std::string label(rules::permanent_id_label(now.kind));
    // kubectl apply's three-way merge deletes a label its last apply wrote and this one does not, and
    // keeps one it never wrote (the id Karmada's mutating webhook drew on create).
    const auto last = stored.metadata.annotations.find(std::string(model::last_applied_annotation));
    const bool applied = last != stored.metadata.annotations.end()
                             ? last->second.find('"' + label + '"') != std::string::npos
                             : stored_as_applied && stored.metadata.labels.contains(label);
    if (auto kept = stored.metadata.labels.find(label);
        kept != stored.metadata.labels.end() && !applied && !now.metadata.labels.contains(label))
        now.metadata.labels.insert(*kept);
    return rules::validate_update(now, stored);
}

manifest_verdict validate_manifest(policy_kind kind, const doc::value& object, std::string_view default_namespace,
                                   const validation_options& options)
{
    manifest_verdict v;
    const schema::node* crd = schema::crd_schema(kind_name(kind), options.release);
    // Stage 1: structural pruning of nulls and CRD defaults on the document as written.
    doc::value written = object;
    if (crd)
        schema::apply_defaults(*crd, written);
    // The schema on the document as written: its warnings (unknown fields), and the errors the round
    // trip masks.
    field::error_list as_written;
    if (crd) {
        schema::check(*crd, written, field::path(), as_written, v.warnings);
        fields_of_later_releases(*crd, written, options.release, v.warnings);
    }
    // The API server prunes the fields its CRD does not define before any webhook sees the object: a
    // field of a newer release (overflowAffinities on v1.17) never reaches that release's webhook or
    // scheduler. (The newest release's Go types drop the same fields in the round trip.)
    if (crd)
        schema::prune_unknown_fields(*crd, written);
    model::policy p = model::decode(written);
    p.kind = kind_name(kind);
    if (is_pp(kind))
        v.policy_namespace = p.metadata.ns.empty() ? std::string(default_namespace) : p.metadata.ns;
    // Stage 2, Karmada's mutating webhook, runs before the API server validates anything: its decode
    // error is the whole answer (reported apart: it is no field error).
    v.mutating_refusal = mutating_decode_error(written);
    if (!v.mutating_refusal.empty() && !settings::has(options.release, settings::changes::json_embedded_field_names))
        v.mutating_refusal = without_embedded_names(v.mutating_refusal);
    // Stage 2's round trip: Karmada's mutating defaults and its Go re-encoding, CRD defaults again.
    v.defaulted = mutate(crd, p, written, v.policy_namespace);
    p.kind = kind_name(kind);
    const rules::options opts{v.policy_namespace, options.allow_aggregated_overflow, options.release};
    auto spec_errors = rules::validate_propagation_spec(p.spec, opts);
    if (!v.mutating_refusal.empty()) {
        v.mutating_refusal_at = go_error_path(written, v.mutating_refusal);
        field::error_list server_errors;
        rules::validate_object_meta(created_meta(kind, p.metadata), is_pp(kind), server_errors, options.release);
        server_errors.insert(server_errors.end(), as_written.begin(), as_written.end());
        defer_after_refusal(server_errors, v.warnings);
    } else {
        // Stage 3 on the object the mutating webhook returned: object metadata, then the CRD schema
        // (apiserver order).
        rules::validate_object_meta(created_meta(kind, p.metadata), is_pp(kind), v.errors, options.release);
        field::warning_list none; // the round trip left no unknown field
        if (crd)
            schema::check(*crd, v.defaulted, field::path(), v.errors, none);
        masked_to_warnings(as_written, v.errors, v.warnings);
    }
    // Stage 4: Karmada's validating webhook (no permanent-id check), called only when stages 2 and 3 passed.
    if (v.errors.empty() && v.mutating_refusal.empty())
        v.errors.insert(v.errors.end(), spec_errors.begin(), spec_errors.end());
    else
        defer_webhook_errors(spec_errors, v.warnings);
    auto spec_warnings = rules::spec_warnings(p.spec);
    v.warnings.insert(v.warnings.end(), spec_warnings.begin(), spec_warnings.end());
    return v;
}

} // namespace kpw
