// SPDX-License-Identifier: Apache-2.0
// -o sarif: SARIF 2.1.0 in the subset GitHub code scanning ingests, with the real line:column of every finding.
#include "lint/render.hpp"

#include <algorithm>
#include <cctype>
#include <ostream>
#include <string>
#include <vector>

#include "doc/value.hpp"
#include "version.hpp"
#include "rules/catalogue.hpp"

namespace kpw::lint {
namespace {

using doc::value;

// Rule metadata GitHub shows next to an alert. ruleIds are matched across runs: never rename one.
struct rule_text {
    std::string short_description, full_description, help;
};

// lint's own ids; every reason and warning id of the validation rules comes from rules/catalogue.hpp.
constexpr std::string_view lint_rules[][4] = {
    {"unschedulable", "a workload selected by the policy cannot be placed",
     "The dry-run scheduler could not place a workload selected by the policy on the given clusters.",
     "check the cluster affinities, spread constraints and replica counts against the clusters listed"},
    {"invalid-input", "a file is not valid YAML/JSON or not a Kubernetes object",
     "lint could not read a document; the run exits 2 whatever the other files say.",
     "fix the syntax at the position given"},
    // An error without a reason: Karmada's mutating webhook could not decode the policy into its Go types
    // (admission.Errored carries no metav1.StatusReason; SARIF needs a ruleId).
    {"webhook-decode", "Karmada's mutating webhook cannot decode the policy",
     "A value has another JSON type than Karmada's Go field (a string where an int32 is expected); the "
     "webhook refuses the policy with encoding/json's error before the CRD schema is checked.",
     "give the field the type the message names"},
};

// The SARIF rule of a finding: its reason, or webhook-decode for the one error that has none.
std::string_view rule_of(const finding& f) { return f.id.empty() ? std::string_view("webhook-decode") : f.id; }

std::string sentence(std::string_view s)
{
    std::string out(s);
    if (!out.empty())
        out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
    if (!out.empty() && out.back() != '.')
        out += '.';
    return out;
}

rule_text describe(std::string_view id)
{
    if (const rules::catalogue_entry* e = rules::find_catalogue_entry(id)) {
        // BadRequest is the API server's strict decoding error: Karmada's webhook never sees the object.
        const char* effect = !e->is_error          ? " A warning never denies."
                             : id == "BadRequest" ? " The API server refuses the policy before Karmada sees it."
                                                  : " Karmada denies the policy.";
        return {std::string(e->summary), sentence(e->summary) + effect, sentence(e->help)};
    }
    for (const auto& r : lint_rules)
        if (r[0] == id)
            return {std::string(r[1]), std::string(r[2]), sentence(r[3])};
    return {std::string(id), "A finding of karmada-policy-webhook lint.", "Read the message."};
}

value text_object(std::string_view text)
{
    value v = value::mapping();
    v.add("text", value::string(std::string(text)));
    return v;
}

value rule_json(std::string_view id, bool is_warning)
{
    const rule_text t = describe(id);
    value level = value::mapping();
    level.add("level", value::string(is_warning ? "warning" : "error"));
    value v = value::mapping();
    v.add("id", value::string(std::string(id)));
    v.add("shortDescription", text_object(t.short_description));
    v.add("fullDescription", text_object(t.full_description));
    v.add("help", text_object(t.help));
    v.add("defaultConfiguration", std::move(level));
    return v;
}

// artifactLocation.uri is a URI reference: keep unreserved characters and '/', percent-encode the rest.
// Repository files are relative ("manifests/pp.yaml"); a file outside the working directory becomes file:///...
std::string uri_of(std::string_view file)
{
    static constexpr char hex[] = "0123456789ABCDEF";
    const std::string path = ci_path(file);
    std::string out = path.starts_with('/') ? "file://" : "";
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
            out.push_back(static_cast<char>(c));
        } else {
            out.push_back('%');
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 0xf]);
        }
    }
    return out;
}

value location_json(const std::string& file, position where)
{
    value artifact = value::mapping();
    artifact.add("uri", value::string(uri_of(file)));
    value physical = value::mapping();
    physical.add("artifactLocation", std::move(artifact));
    // No invented line 1: a finding without a position keeps only the file (clang's "no location is legal").
    if (where.known()) {
        value region = value::mapping();
        region.add("startLine", value::integer(where.line));
        if (where.column > 0)
            region.add("startColumn", value::integer(where.column));
        physical.add("region", std::move(region));
    }
    value location = value::mapping();
    location.add("physicalLocation", std::move(physical));
    return location;
}

// Collects results and the rules they reference (in order of first use; ruleIndex points into it).
class sarif_builder {
public:
    void add(std::string_view id, bool is_warning, std::string message, const std::string& file, position where)
    {
        value r = value::mapping();
        r.add("ruleId", value::string(std::string(id)));
        r.add("ruleIndex", value::integer(rule_index(id, is_warning)));
        r.add("level", value::string(is_warning ? "warning" : "error"));
        r.add("message", text_object(message));
        value& locations = r.add("locations", value::sequence());
        locations.push_back(location_json(file, where));
        results_.push_back(std::move(r));
    }
    value take_rules() { return std::move(rules_); }
    value take_results() { return std::move(results_); }

private:
    std::int64_t rule_index(std::string_view id, bool is_warning)
    {
        const auto it = std::find(ids_.begin(), ids_.end(), id);
        if (it != ids_.end())
            return it - ids_.begin();
        ids_.emplace_back(id);
        rules_.push_back(rule_json(id, is_warning));
        return static_cast<std::int64_t>(ids_.size() - 1);
    }

    std::vector<std::string> ids_;
    value rules_ = value::sequence();
    value results_ = value::sequence();
};

void add_policy(sarif_builder& b, const policy_result& p)
{
    const std::string label = policy_label(p) + ": ";
    for (const auto& e : p.errors)
        b.add(rule_of(e), false, label + e.str(), p.file, e.where.known() ? e.where : p.start);
    for (const auto& w : p.warnings)
        b.add(w.id, true, label + w.str(), p.file, w.where.known() ? w.where : p.start);
    for (const auto& s : p.scheduling) {
        if (!s.unschedulable())
            continue;
        std::string message = label + s.workload.kind + ' ' + s.workload.namespace_name + '/' + s.workload.name +
                              " (" + std::to_string(s.workload.replicas) + " replicas) is unschedulable";
        if (!s.message.empty())
            message += ": " + s.message;
        b.add("unschedulable", false, std::move(message), p.file, p.start);
    }
}

// Findings about snapshot objects (bindings karmada-scheduler crashes on), at the object.
void add_snapshot_warnings(sarif_builder& b, const report& r)
{
    for (const auto& w : r.snapshot_warnings)
        b.add(w.id, true, w.message, w.file, w.where);
}

// Input that could not be linted: a result where it has a position, always a tool notification.
value invocation_json(const report& r, sarif_builder& b)
{
    value notifications = value::sequence();
    for (const auto& e : r.file_errors) {
        if (e.where.known())
            b.add("invalid-input", false, e.message, e.file, e.where);
        value n = value::mapping();
        n.add("level", value::string("error"));
        n.add("message", text_object(e.str()));
        value& locations = n.add("locations", value::sequence());
        locations.push_back(location_json(e.file, e.where));
        notifications.push_back(std::move(n));
    }
    value invocation = value::mapping();
    invocation.add("executionSuccessful", value::boolean(r.file_errors.empty()));
    invocation.add("toolExecutionNotifications", std::move(notifications));
    value invocations = value::sequence();
    invocations.push_back(std::move(invocation));
    return invocations;
}

value driver_json(value rules)
{
    value driver = value::mapping();
    driver.add("name", value::string("karmada-policy-webhook"));
    driver.add("version", value::string(KPW_VERSION));
    driver.add("semanticVersion", value::string(KPW_VERSION));
    driver.add("rules", std::move(rules));
    return driver;
}

} // namespace

void render_sarif(const report& r, std::ostream& out)
{
    sarif_builder b;
    value invocations = invocation_json(r, b);
    add_snapshot_warnings(b, r);
    for (const auto& p : r.results)
        add_policy(b, p);

    value tool = value::mapping();
    tool.add("driver", driver_json(b.take_rules()));
    value run = value::mapping();
    run.add("tool", std::move(tool));
    run.add("invocations", std::move(invocations));
    run.add("results", b.take_results()); // always present, even empty: upload-sarif rejects a missing array
    value runs = value::sequence();
    runs.push_back(std::move(run));

    value root = value::mapping();
    root.add("$schema", value::string("https://json.schemastore.org/sarif-2.1.0.json"));
    root.add("version", value::string("2.1.0"));
    root.add("runs", std::move(runs));
    out << doc::to_json(root) << '\n';
}

} // namespace kpw::lint
