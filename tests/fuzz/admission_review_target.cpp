// SPDX-License-Identifier: Apache-2.0
// Fuzz target (1): AdmissionReview bytes -> serve_review (envelope, decode, validate) -> encoded reply.
#include <array>
#include <optional>

#include "admission/policy_handler.hpp"
#include "admission/response.hpp"
#include "admission/review_endpoint.hpp"
#include "doc/load.hpp"
#include "targets.hpp"

namespace kpw::fuzz {
namespace {

constexpr std::string_view name = "admission_review";

admission::policy_handler make_handler(bool require_permanent_id, std::optional<policy_kind> only)
{
    admission::policy_handler_options o;
    o.require_permanent_id = require_permanent_id;
    o.only_kind = only;
    o.validation.allow_aggregated_overflow = !require_permanent_id;
    return admission::policy_handler(std::move(o));
}

// The four ways serve configures handlers: /validate with and without the permanent-id check,
// and the kind-specific paths.
const admission::policy_handler& pick_handler(std::size_t selector)
{
    static const std::array<admission::policy_handler, 4> handlers = {
        make_handler(false, std::nullopt), make_handler(true, std::nullopt),
        make_handler(false, policy_kind::propagation_policy),
        make_handler(true, policy_kind::cluster_propagation_policy)};
    return handlers[selector % handlers.size()];
}

std::size_t utf8_chars(std::string_view s)
{
    std::size_t n = 0;
    for (const char c : s)
        n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

void check_warnings(const doc::value& response)
{
    const doc::value* warnings = response.find("warnings");
    if (!warnings)
        return;
    if (!warnings->is_sequence() || warnings->items().size() > admission::max_warnings)
        invariant_failed(name, "response.warnings is not a short array");
    for (const doc::value& w : warnings->items()) {
        if (!w.is_string() || w.text().empty() || utf8_chars(w.text()) > admission::max_warning_chars)
            invariant_failed(name, "a warning is empty or longer than max_warning_chars characters");
        for (const char c : w.text())
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
                invariant_failed(name, "a warning holds a control character");
    }
}

// The envelope's apiVersion and kind when the body is a JSON object with string ones; nullopt otherwise.
std::optional<std::pair<std::string, std::string>> request_type(std::string_view body)
{
    auto parsed = doc::parse_json(body);
    if (!parsed || !parsed->is_mapping())
        return std::nullopt;
    for (const char* key : {"apiVersion", "kind"})
        if (const doc::value* v = parsed->find(key); v && !v->is_null() && !v->is_string())
            return std::nullopt;
    return std::pair{std::string(parsed->string_at("apiVersion")), std::string(parsed->string_at("kind"))};
}

// What kube-apiserver needs of every reply: a well-formed AdmissionReview echoing the uid, no patch. Its
// apiVersion and kind are the request's as controller-runtime echoes them (a v1 AdmissionReview for none, or
// for a body that is no review).
void check_reply(std::string_view body, const admission::review_outcome& out)
{
    auto parsed = doc::parse_json(out.body);
    if (!parsed)
        invariant_failed(name, "the reply is not valid JSON: " + parsed.error().message);
    const doc::value& root = *parsed;
    auto expected = request_type(body);
    if (!expected || (expected->first.empty() && expected->second.empty()))
        expected = {std::string(admission::review_v1), "AdmissionReview"};
    if (root.string_at("apiVersion") != expected->first || root.string_at("kind") != expected->second)
        invariant_failed(name, "the reply's apiVersion and kind are not the request's");
    const doc::value* response = root.find("response");
    if (!response || !response->is_mapping() || response->string_at("uid") != out.uid)
        invariant_failed(name, "the reply does not echo request.uid");
    if (response->find("patch") || response->find("patchType"))
        invariant_failed(name, "the reply carries a patch");
    const doc::value* allowed = response->find("allowed");
    const doc::value* code = response->find_path({"status", "code"});
    if (!allowed || !allowed->is_bool() || !code || !code->is_int() || code->as_int() != out.res.code)
        invariant_failed(name, "response.allowed / status.code missing or not what was decided");
    if (out.res.code == 500)
        invariant_failed(name, "a validator threw: " + out.res.message);
    if (allowed->as_bool() != (out.res.code == 200))
        invariant_failed(name, "allowed does not match the status code");
    check_warnings(*response);
}

} // namespace

int admission_review(bytes data)
{
    const auto& handler = pick_handler(data.size());
    check_reply(as_text(data), admission::serve_review(handler, "application/json", as_text(data)));
    return 0;
}

} // namespace kpw::fuzz
