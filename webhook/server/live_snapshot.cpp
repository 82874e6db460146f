// SPDX-License-Identifier: Apache-2.0
#include "server/live_snapshot.hpp"

#include <cctype>

#include "snapshot/load.hpp"

namespace kpw::server {

namespace {

const char* state_name(kube::reflector_state s)
{
    switch (s) {
    case kube::reflector_state::starting: return "starting";
    case kube::reflector_state::synced: return "synced";
    case kube::reflector_state::retrying: return "retrying";
    case kube::reflector_state::stopped: return "stopped";
    }
    return "unknown";
}

std::string resource_label(const kube::api_resource& r)
{
    return r.group.empty() ? r.resource : r.resource + "." + r.group;
}

// The store as one `kubectl get -o json` List, for the loaders every other input goes through.
lint::input_set as_input(const std::string& name, const kube::object_map& objects)
{
    std::string json = R"({"apiVersion":"v1","kind":"List","items":[)";
    bool first = true;
    for (const auto& [key, object] : objects) {
        json += first ? "" : ",";
        json += object;
        first = false;
    }
    json += "]}";
    lint::input_set out;
    out.files.push_back({name, std::move(json), false});
    return out;
}

} // namespace

struct live_snapshot::watched {
    kube::api_resource resource;
    std::string label;
    kube::object_map objects;
    bool synced_once = false;
    std::unique_ptr<kube::reflector> reflector;
};

result<kube::api_resource> workload_resource(std::string_view api_version_kind)
{
    const auto slash = api_version_kind.rfind('/');
    if (slash == std::string_view::npos || slash == 0 || slash + 1 == api_version_kind.size())
        return failure{"--live-workloads " + std::string(api_version_kind) +
                           ": expected apiVersion/Kind, e.g. apps/v1/Deployment or batch/v1/Job",
                       {}};
    const std::string_view api_version = api_version_kind.substr(0, slash);
    kube::api_resource r;
    r.kind = std::string(api_version_kind.substr(slash + 1));
    const auto group_end = api_version.find('/');
    r.group = group_end == std::string_view::npos ? "" : std::string(api_version.substr(0, group_end));
    r.version = std::string(group_end == std::string_view::npos ? api_version : api_version.substr(group_end + 1));
    r.namespaced = true;
    std::string plural;
    for (char c : r.kind)
        plural += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (plural.ends_with('y'))
        plural = plural.substr(0, plural.size() - 1) + "ies";
    else if (plural.ends_with('s'))
        plural += "es";
    else
        plural += "s";
    r.resource = plural;
    return r;
}

live_snapshot::live_snapshot(kube::rest_config config, kube::client_options options,
                             const std::vector<std::string>& workload_kinds, std::shared_ptr<snapshot::holder> target,
                             metrics& stats, const logger& log)
    : target_(std::move(target)), stats_(stats), log_(log)
{
    std::vector<kube::api_resource> resources{{"cluster.karmada.io", "v1alpha1", "clusters", "Cluster", false}};
    for (const auto& k : workload_kinds)
        resources.push_back(*workload_resource(k)); // checked by the command line
    for (std::size_t i = 0; i < resources.size(); ++i) {
        auto w = std::make_unique<watched>();
        w->resource = resources[i];
        w->label = resource_label(resources[i]);
        w->reflector = std::make_unique<kube::reflector>(
            config, options, resources[i], std::string(),
            [this, i](const kube::object_map& objects) { changed(i, objects); },
            [this, i](const kube::reflector_status& status) { state_changed(i, status); });
        stats_.live_watch(w->label, "starting", 0, 0);
        watched_.push_back(std::move(w));
    }
}

live_snapshot::~live_snapshot()
{
    stop();
}

void live_snapshot::start()
{
    for (auto& w : watched_)
        w->reflector->start();
}

void live_snapshot::stop()
{
    for (auto& w : watched_)
        w->reflector->stop();
}

void live_snapshot::state_changed(std::size_t index, const kube::reflector_status& status)
{
    const watched& w = *watched_[index];
    const double last_sync = std::chrono::duration<double>(status.last_sync.time_since_epoch()).count();
    stats_.live_watch(w.label, state_name(status.state), status.objects, last_sync);
    const std::string fields = "resource=" + w.label + " state=" + state_name(status.state) +
                               " objects=" + std::to_string(status.objects) +
                               (status.last_error.empty() ? "" : " error=" + logger::quote(status.last_error));
    if (status.state == kube::reflector_state::retrying)
        log_.warning("karmada-apiserver watch interrupted; admission continues with the last snapshot, without "
                     "the warnings that need a newer one",
                     fields);
    else
        log_.info("karmada-apiserver watch state", fields);
}

void live_snapshot::changed(std::size_t index, const kube::object_map& objects)
{
    const std::lock_guard lock(mutex_);
    watched& w = *watched_[index];
    w.objects = objects;
    w.synced_once = true;
    rebuild();
}

// Called with mutex_ held. Publishes once every watched collection has listed: a snapshot without the
// workloads would warn about nothing, one without the Clusters about everything.
void live_snapshot::rebuild()
{
    for (const auto& w : watched_)
        if (!w->synced_once)
            return;
    std::optional<lint::input_set> workloads;
    if (watched_.size() > 1) {
        workloads.emplace();
        for (std::size_t i = 1; i < watched_.size(); ++i) {
            auto set = as_input(watched_[i]->label, watched_[i]->objects);
            workloads->files.push_back(std::move(set.files.front()));
        }
    }
    auto next = std::make_shared<snapshot::state>();
    std::vector<lint::file_error> errors;
    snapshot::load(*next, as_input(watched_[0]->label, watched_[0]->objects), workloads, "default", errors);
    if (!errors.empty()) {
        // As with --clusters files: a snapshot that does not decode whole is not used.
        stats_.snapshot_reload(false);
        log_.warning("the live snapshot does not decode; keeping the previous one",
                     "error=" + logger::quote(errors.front().str()) + " errors=" + std::to_string(errors.size()));
        return;
    }
    const auto clusters = next->clusters.size();
    const auto known = next->workloads.size();
    target_->replace(std::move(next));
    stats_.snapshot_loaded(clusters, known);
    stats_.snapshot_reload(true);
    log_.info("live snapshot updated", "clusters=" + std::to_string(clusters) + " workloads=" + std::to_string(known));
}

} // namespace kpw::server
