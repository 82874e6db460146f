// SPDX-License-Identifier: Apache-2.0
#include "lint/lint.hpp"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <thread>

#include "cli/exit_codes.hpp"
#include "doc/load.hpp"
#include "doc/locate.hpp"
#include "lint/kubectl_reader.hpp"
#include "lint/repeated_keys.hpp"
#include "model/decode.hpp"
#include "schema/object_meta.hpp"
#include "settings/karmada_release.hpp"

namespace kpw::lint {
namespace {

// The position is where a person fixes the error (error::locate_at), the field path Karmada's.
finding to_finding(const doc::value& object, const field::error& e)
{
    const std::string& at = e.locate_at.empty() ? e.field : e.locate_at;
    const position where = e.locate_key ? doc::locate_key(object, at) : doc::locate(object, at);
    return {std::string(field::wire_name(e.type)), e.field, e.body(), where};
}

finding to_finding(const doc::value& object, const field::warning& w)
{
    return {w.id, w.field, w.message, doc::locate(object, w.field)};
}

// kubectl apply's field validation (--validate). The API server decodes the object strictly before
// anything else looks at it: Strict refuses an unknown field with one BadRequest naming them all
// (one finding per field here, each at its key, each message the server's text for that field),
// Warn returns the server's warning for each, Ignore says nothing. validate_manifest reads unknown
// fields as Warn does; its unknown-field warnings are replaced by the mode's findings, which come
// first because decoding comes first. A refused object is still judged further (lint accumulates).
void apply_field_validation(policy_kind kind, const doc::value& object, schema::field_validation mode,
                            settings::karmada_release release, policy_result& r)
{
    std::erase_if(r.warnings, [](const finding& w) { return w.id == "unknown-field"; });
    const schema::node* crd = schema::crd_schema(kind_name(kind), release);
    if (mode == schema::field_validation::ignore || !crd)
        return;
    const std::string_view api_version = served_api_version(kind);
    const std::string_view version = api_version.substr(api_version.find('/') + 1);
    std::vector<finding> found;
    for (const auto& f : schema::unknown_fields(*crd, object)) {
        const position where = doc::locate_key(object, f.at.str());
        if (mode == schema::field_validation::strict)
            // The field as the API server's pruning renders it: a map key is a child (matchLabels.zone.x).
            found.push_back({"BadRequest", f.api_path, schema::strict_decoding_message(kind_name(kind), version, {f}),
                             where, true});
        else
            found.push_back({"unknown-field", f.at.str(), "unknown field \"" + f.api_path + "\"", where, true});
    }
    auto& into = mode == schema::field_validation::strict ? r.errors : r.warnings;
    into.insert(into.begin(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
}

// The API server decodes metadata into ObjectMeta before anything else reads the object: a value of the
// wrong JSON type there (a number as a label value in a List's item, which kubectl's own check does not
// reach) is a 400 BadRequest in encoding/json's words, whatever --validate says. It comes first, as
// decoding does; lint still judges the rest.
void apply_object_meta_decoding(policy_kind kind, const doc::value& object, policy_result& r)
{
    const doc::value* metadata = object.find("metadata");
    if (!metadata)
        return;
    const auto bad = schema::object_meta_type_check(*metadata, schema::meta_reader::api_server);
    if (!bad)
        return;
    const std::string_view api_version = served_api_version(kind);
    const std::string_view version = api_version.substr(api_version.find('/') + 1);
    r.errors.insert(r.errors.begin(),
                    // No field: the server's decode error names none (the message does); the position does.
                    finding{"BadRequest", "", schema::decode_error_message(kind_name(kind), version, bad->message),
                            doc::locate(object, bad->at.str()), true});
}

// What kubectl apply sends of a document's metadata: unstructured's GetAnnotations reads a null
// annotation value as "" and SetAnnotations writes it back (with the last-applied annotation), then
// pruneNullsFromMap drops every other null member, a null label value among them (kubectl pkg/cmd/apply).
doc::value as_kubectl_sends(const doc::value& object)
{
    doc::value sent = object;
    doc::value* metadata = sent.find("metadata");
    if (!metadata || !metadata->is_mapping())
        return sent;
    if (doc::value* annotations = metadata->find("annotations"); annotations && annotations->is_mapping())
        for (auto& m : annotations->members())
            if (m.second.is_null())
                m.second.assign_string("");
    if (doc::value* labels = metadata->find("labels"); labels && labels->is_mapping())
        std::erase_if(labels->members(), [](const doc::value::member& m) { return m.second.is_null(); });
    return sent;
}

// One file's share of the run: its report and, for the dry run, its admitted policies in typed form.
struct partial {
    report out;
    std::vector<typed_policy> typed; // result indexes are into out.results
};

policy_result lint_policy_typed(policy_kind kind, const doc::value& object, const std::string& file, int document,
                                const lint_options& options, std::vector<typed_policy>* typed, std::size_t index);

void lint_object(const doc::value& object, const std::string& file, int document, const lint_options& options,
                 bool enforce_namespace, partial& part)
{
    report& out = part.out;
    ++out.totals.documents;
    // kubectl's reader needs kind as a non-empty string (unstructured: "Object 'Kind' is missing"); a kind
    // or apiVersion of another type reads as missing (a repeated "kind" key keeps its last value).
    if (!object.is_mapping() || object.string_at("kind").empty() || object.string_at("apiVersion").empty()) {
        const char* what = object.is_mapping() ? "document has no apiVersion or kind: not a Kubernetes object"
                                               : "document is not a Kubernetes object (a mapping with apiVersion and kind)";
        out.file_errors.push_back({file, object.pos(), what});
        return;
    }
    const std::string_view api_version = object.string_at("apiVersion");
    const auto kind = policy_kind_of(api_version, object.string_at("kind"));
    // Each policy CRD serves one version: another is no policy kubectl could apply, and neither
    // skipping it nor linting it as the served one would say so.
    if (kind && api_version != served_api_version(*kind)) {
        out.file_errors.push_back({file, object.find("apiVersion")->pos(),
                                   "no matches for kind \"" + std::string(kind_name(*kind)) + "\" in version \"" +
                                       std::string(api_version) + "\": the policy CRDs serve only " +
                                       std::string(served_api_version(*kind)) + " (kubectl apply fails the same way)"});
        return;
    }
    if (!kind) {
        ++out.totals.skipped;
        const doc::value* metadata = object.find("metadata");
        out.skipped.push_back({file, document, object.pos(), std::string(object.string_at("kind")),
                               std::string(metadata ? metadata->string_at("name") : "")});
        return;
    }
    if (enforce_namespace)
        if (auto refused = namespace_refusal(object, file, options.default_namespace)) {
            out.file_errors.push_back(std::move(*refused));
            return;
        }
    out.results.push_back(
        lint_policy_typed(*kind, as_kubectl_sends(object), file, document, options, &part.typed, out.results.size()));
    const policy_result& r = out.results.back();
    ++out.totals.policies;
    out.totals.denied += r.allowed ? 0 : 1;
    out.totals.warnings += static_cast<int>(r.warnings.size());
}

// duplicate-key: a repeated key in a policy is that policy's warning; in any other object of the file, a
// warning about that object. `first_result`: the first of the document's results.
void warn_repeated_keys(const doc::document& d, const std::string& file, std::size_t first_result, report& out)
{
    for (const placed_repeat& p : place_repeated_keys(d)) {
        auto policy = std::find_if(out.results.begin() + static_cast<std::ptrdiff_t>(first_result), out.results.end(),
                                   [&](const policy_result& r) { return r.start == p.object->pos(); });
        if (policy != out.results.end())
            policy->warnings.push_back(repeated_key_finding(p));
        else
            out.snapshot_warnings.push_back(repeated_key_warning(p, file));
        ++out.totals.warnings;
    }
}

void lint_file(const input_file& in, const lint_options& options, partial& part)
{
    report& out = part.out;
    const bool enforce_namespace = options.enforce_namespace && !in.from_server;
    auto docs = doc::load_yaml(in.text);
    if (!docs) {
        out.file_errors.push_back({in.name, docs.error().where, docs.error().message});
        // kubectl has sent the documents before the one that does not parse: lint them too.
        docs = doc::documents_before_failure(in.text);
        if (docs->empty())
            return;
        out.file_errors.back().message += " (kubectl stops reading the file here; it applies the documents before)";
    }
    // A file with nothing in it is a mistake kubectl refuses too ("no objects passed to apply"); an
    // empty standard input is not (a pipeline that found nothing to lint).
    if (docs->empty() && !in.is_stdin) {
        out.file_errors.push_back({in.name, {1, 1}, "no objects in this file (it is empty or holds only comments "
                                                    "and document markers); kubectl apply would fail with \"no "
                                                    "objects passed to apply\""});
        return;
    }
    for (doc::document& d : *docs) {
        const std::size_t first_result = out.results.size();
        if (auto refused = kubectl_refusal(d.root, in.name)) {
            out.file_errors.push_back(std::move(*refused));
        } else if (!is_kubectl_list(d.root)) {
            lint_object(d.root, in.name, d.index, options, enforce_namespace, part);
        } else {
            for (const doc::value& item : d.root.find("items")->items())
                lint_object(item, in.name, d.index, options, enforce_namespace, part);
        }
        warn_repeated_keys(d, in.name, first_result, out);
    }
}

void merge_into(report& out, std::vector<typed_policy>& typed, partial&& whole)
{
    report& part = whole.out;
    for (auto& t : whole.typed) {
        t.result += out.results.size();
        typed.push_back(std::move(t));
    }
    out.totals.documents += part.totals.documents;
    out.totals.policies += part.totals.policies;
    out.totals.denied += part.totals.denied;
    out.totals.warnings += part.totals.warnings;
    out.totals.unschedulable += part.totals.unschedulable;
    out.totals.skipped += part.totals.skipped;
    std::move(part.results.begin(), part.results.end(), std::back_inserter(out.results));
    std::move(part.skipped.begin(), part.skipped.end(), std::back_inserter(out.skipped));
    std::move(part.file_errors.begin(), part.file_errors.end(), std::back_inserter(out.file_errors));
    std::move(part.snapshot_warnings.begin(), part.snapshot_warnings.end(), std::back_inserter(out.snapshot_warnings));
}

policy_result lint_policy_typed(policy_kind kind, const doc::value& object, const std::string& file, int document,
                                const lint_options& options, std::vector<typed_policy>* typed, std::size_t index)
{
    policy_result r;
    r.file = file;
    r.document = document;
    r.start = object.pos();
    r.kind = std::string(kind_name(kind));
    if (const doc::value* metadata = object.find("metadata"))
        r.name = std::string(metadata->string_at("name"));

    manifest_verdict verdict = validate_manifest(kind, object, options.default_namespace, options.validation);
    r.namespace_name = verdict.policy_namespace;
    for (const auto& e : verdict.errors)
        r.errors.push_back(to_finding(object, e));
    for (const auto& w : verdict.warnings)
        r.warnings.push_back(to_finding(object, w));
    if (!verdict.mutating_refusal.empty())
        // Karmada's admission.Errored(400, err): no field, and no reason (metav1.StatusReasonUnknown, "");
        // the API server prefixes `admission webhook "<name>" denied the request: `.
        r.errors.insert(r.errors.begin(), finding{"", "", verdict.mutating_refusal,
                                                  doc::locate(object, verdict.mutating_refusal_at), true});
    if (options.stored && verdict.mutating_refusal.empty())
        if (auto old = options.stored->find(key_of(r)); old != options.stored->end())
            if (auto refusal = update_refusal(kind, verdict.defaulted, old->second, options.stored_as_applied)) {
                // Karmada's admission.Denied: no field, reason Forbidden; placed at what changed.
                const bool scheduler = refusal->find("schedulerName") != std::string::npos;
                r.errors.push_back(finding{"Forbidden", "", std::move(*refusal),
                                           doc::locate(object, scheduler ? "spec.schedulerName" : "metadata.labels"),
                                           true});
            }
    apply_field_validation(kind, object, options.field_validation, options.validation.release, r);
    apply_object_meta_decoding(kind, object, r);
    r.allowed = r.errors.empty();
    // The dry run schedules admitted policies only: a denied one never reaches the scheduler.
    if (options.dry_run && r.allowed) {
        model::policy p = model::decode(verdict.defaulted);
        p.kind = r.kind;
        add_snapshot_warnings(*options.dry_run, p, object, r);
        if (typed)
            typed->push_back({index, std::move(p), object});
    }
    return r;
}

} // namespace

policy_result lint_policy(policy_kind kind, const doc::value& object, const std::string& file, int document,
                          const lint_options& options)
{
    return lint_policy_typed(kind, object, file, document, options, nullptr, 0);
}

report run_lint(const input_set& inputs, const lint_options& options)
{
    std::vector<typed_policy> admitted;
    return run_lint(inputs, options, admitted);
}

report run_lint(const input_set& inputs, const lint_options& options, std::vector<typed_policy>& admitted)
{
    // yaml-cpp's scanner dominates lint time, so files are linted in parallel; each file gets its
    // own partial report and the partials are merged in input order, keeping the output deterministic.
    std::vector<partial> partials(inputs.files.size());
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t i = next++; i < partials.size(); i = next++)
            lint_file(inputs.files[i], options, partials[i]);
    };
    const std::size_t n_threads = std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), partials.size());
    std::vector<std::thread> threads;
    for (std::size_t t = 1; t < n_threads; ++t)
        threads.emplace_back(worker);
    worker();
    for (auto& t : threads)
        t.join();

    report out;
    out.file_errors = inputs.errors;
    out.unschedulable_is_error = options.unschedulable_is_error;
    out.explain = options.explain;
    out.karmada_release = settings::release_name(options.validation.release);
    out.release_decided_by = options.release_decided_by;
    for (partial& part : partials)
        merge_into(out, admitted, std::move(part));
    if (options.dry_run) {
        // The snapshot files' own (duplicate-key), then what scheduling finds.
        out.snapshot_warnings.insert(out.snapshot_warnings.end(), options.dry_run->load_warnings.begin(),
                                     options.dry_run->load_warnings.end());
        out.totals.warnings += static_cast<int>(options.dry_run->load_warnings.size());
        schedule_workloads(*options.dry_run, admitted, out);
    }
    return out;
}

int exit_code(const report& r)
{
    if (!r.file_errors.empty())
        return cli::exit_usage;
    if (r.totals.denied > 0 || (r.unschedulable_is_error && r.totals.unschedulable > 0))
        return cli::exit_findings;
    return cli::exit_ok;
}

} // namespace kpw::lint
