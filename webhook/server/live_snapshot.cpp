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
    case kube::reflector_state::over_limit: return "over_limit";
    case kube::reflector_state::stopped: return "stopped";
    }
    return "unknown";
}

std::string resource_label(const kube::api_resource& r)
{
    return r.group.empty() ? r.resource : r.resource + "." + r.group;
}

// What the reflectors keep of each object: the snapshot's own form, decoded once as the object arrives
// (issue 38); a rebuild copies the decoded objects, never decodes them again.
struct decoded final : kube::kept_object {
    explicit decoded(snapshot::decoded_object o) : object(std::move(o)) {}
    snapshot::decoded_object object;
};

} // namespace

struct live_snapshot::watched {
    kube::api_resource resource;
    std::string label;
    kube::kept_map objects; // shared with the reflector's store: a copy costs the keys
    bool synced_once = false; // since the start, or since the collection was over the limit
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
                             metrics& stats, const logger& log, std::size_t max_objects)
    : target_(std::move(target)), stats_(stats), log_(log), max_objects_(max_objects)
{
    kube::reflector_options reflector_options;
    reflector_options.max_objects = max_objects;
    std::vector<kube::api_resource> resources{{"cluster.karmada.io", "v1alpha1", "clusters", "Cluster", false}};
    for (const auto& k : workload_kinds)
        resources.push_back(*workload_resource(k)); // checked by the command line
    for (std::size_t i = 0; i < resources.size(); ++i) {
        auto w = std::make_unique<watched>();
        w->resource = resources[i];
        w->label = resource_label(resources[i]);
        kube::object_decoder decode = [label = w->label, i](std::string_view json) {
            return std::make_shared<const decoded>(i == 0 ? snapshot::decode_cluster_object(json, label)
                                                           : snapshot::decode_workload_object(json, "default", label));
        };
        w->reflector = std::make_unique<kube::reflector>(
            config, options, resources[i], std::string(), std::move(decode),
            [this, i](const kube::kept_map& objects) { changed(i, objects); },
            [this, i](const kube::reflector_status& status) { state_changed(i, status); }, reflector_options);
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
    if (status.state == kube::reflector_state::over_limit) {
        degrade(index, fields);
        return;
    }
    if (status.state == kube::reflector_state::retrying)
        log_.warning("karmada-apiserver watch interrupted; admission continues with the last snapshot, without "
                     "the warnings that need a newer one",
                     fields);
    else
        log_.info("karmada-apiserver watch state", fields);
}

// A collection over --live-max-objects: its objects are gone, so is the snapshot (a snapshot without
// them would warn about what is not so); admission answers on, without the snapshot's warnings, until
// a list fits again.
void live_snapshot::degrade(std::size_t index, const std::string& fields)
{
    const std::lock_guard lock(mutex_);
    watched& w = *watched_[index];
    w.objects.clear();
    w.synced_once = false;
    target_->replace(nullptr);
    stats_.snapshot_loaded(0, 0);
    log_.warning("karmada-apiserver holds more objects than --live-max-objects=" + std::to_string(max_objects_) +
                     "; the live snapshot is dropped and admission continues without the warnings that need it",
                 fields);
}

void live_snapshot::changed(std::size_t index, const kube::kept_map& objects)
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
    std::vector<const snapshot::decoded_object*> cluster_objects;
    cluster_objects.reserve(watched_[0]->objects.size());
    for (const auto& [key, kept] : watched_[0]->objects)
        cluster_objects.push_back(&static_cast<const decoded&>(*kept).object);
    std::vector<const snapshot::decoded_object*> workload_objects;
    for (std::size_t i = 1; i < watched_.size(); ++i)
        for (const auto& [key, kept] : watched_[i]->objects)
            workload_objects.push_back(&static_cast<const decoded&>(*kept).object);
    auto next = std::make_shared<snapshot::state>();
    std::vector<lint::file_error> errors;
    snapshot::load(*next, cluster_objects, watched_.size() > 1 ? &workload_objects : nullptr, errors);
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
