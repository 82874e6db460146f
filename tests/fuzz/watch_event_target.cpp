// SPDX-License-Identifier: Apache-2.0
// Fuzz target (9): a watch stream's bytes, split at newlines -> kube::decode_watch_event for every line,
// bare and with apiVersion/kind to fill in.
#include <rapidjson/document.h>

#include "kube/watch_event.hpp"
#include "targets.hpp"

namespace kpw::fuzz {
namespace {

constexpr std::string_view name = "watch_event";

bool is_json_object(const std::string& text)
{
    rapidjson::Document d;
    d.Parse(text.c_str(), text.size());
    return !d.HasParseError() && d.IsObject();
}

void check(const result<kube::watch_event>& e, std::string_view api_version, std::string_view kind)
{
    using k = kube::watch_event::kind;
    if (!e) {
        if (e.error().message.empty())
            invariant_failed(name, "a failure without a message");
        return;
    }
    const kube::watch_event& ev = *e;
    if (ev.type == k::added || ev.type == k::modified || ev.type == k::deleted) {
        if (ev.name.empty())
            invariant_failed(name, "an object event without a name");
        if (!is_json_object(ev.object))
            invariant_failed(name, "an object event whose object is not a JSON object");
        rapidjson::Document d;
        d.Parse(ev.object.c_str(), ev.object.size());
        if (!api_version.empty() && !(d.HasMember("apiVersion") && d.HasMember("kind")))
            invariant_failed(name, "apiVersion/kind asked for but not filled in");
        (void)kind;
    } else if (!ev.name.empty() || !ev.namespace_.empty())
        invariant_failed(name, "a bookmark or error with a name");
    if (ev.type != k::error && ev.code != 0)
        invariant_failed(name, "a code on an event that is not an error");
}

} // namespace

int watch_event(bytes data)
{
    const std::string_view text = as_text(data);
    std::size_t start = 0;
    while (start <= text.size()) {
        auto nl = text.find('\n', start);
        if (nl == std::string_view::npos)
            nl = text.size();
        const std::string_view line = text.substr(start, nl - start);
        check(kube::decode_watch_event(line), {}, {});
        check(kube::decode_watch_event(line, "cluster.karmada.io/v1alpha1", "Cluster"), "cluster.karmada.io/v1alpha1",
              "Cluster");
        start = nl + 1;
    }
    return 0;
}

} // namespace kpw::fuzz
