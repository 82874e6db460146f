// SPDX-License-Identifier: Apache-2.0
#include "server/live_snapshot.hpp"

#include <algorithm>
#include <cctype>

#include "kube/backoff.hpp"
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
    kube::api_resource resource; // resource (the plural) empty until discovery names it
    std::string label;
    std::string api_version_kind; // as --live-workloads gave it ("" for the Clusters)
    kube::kept_map objects; // shared with the reflector's store: a copy costs the keys
    bool synced_once = false; // since the start, or since the collection was over the limit
    bool unserved = false; // discovery says the server does not serve it: the snapshot does not wait for it
    std::unique_ptr<kube::reflector> reflector; // set once resolved (by the constructor or the discovery thread)
};

result<kube::api_resource> workload_resource(std::string_view api_version_kind)
{
    // Only the characters an API group (DNS subdomain), version and Kind can hold: the value also ends up
    // in a /metrics label and a log line.
    const auto is = [](std::string_view s, std::string_view allowed_punctuation) {
        return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || allowed_punctuation.find(c) != std::string_view::npos;
        });
    };
    const auto slash = api_version_kind.rfind('/');
    const auto first_slash = api_version_kind.find('/');
    if (slash == std::string_view::npos || slash == 0 || slash + 1 == api_version_kind.size() ||
        !is(api_version_kind.substr(0, first_slash), first_slash == slash ? "" : ".-") ||
        (first_slash != slash && !is(api_version_kind.substr(first_slash + 1, slash - first_slash - 1), "")) ||
        !is(api_version_kind.substr(slash + 1), "") || !std::isalpha(static_cast<unsigned char>(api_version_kind[slash + 1])))
        return failure{"--live-workloads " + std::string(api_version_kind) +
                           ": expected apiVersion/Kind, e.g. apps/v1/Deployment or batch/v1/Job",
                       {}};
    const std::string_view api_version = api_version_kind.substr(0, slash);
    kube::api_resource r;
    r.kind = std::string(api_version_kind.substr(slash + 1));
    const auto group_end = api_version.find('/');
    r.group = group_end == std::string_view::npos ? "" : std::string(api_version.substr(0, group_end));
    r.version = std::string(group_end == std::string_view::npos ? api_version : api_version.substr(group_end + 1));
    return r;
}

live_snapshot::live_snapshot(kube::rest_config config, kube::client_options options,
                             const std::vector<std::string>& workload_kinds, std::shared_ptr<snapshot::holder> target,
                             metrics& stats, const logger& log, live_snapshot_options o)
    : target_(std::move(target)), stats_(stats), log_(log), config_(std::move(config)),
      client_options_(std::move(options)), options_(o)
{
    // Karmada's own CRD: its plural is part of its API, not a guess.
    auto clusters = std::make_unique<watched>();
    clusters->resource = {"cluster.karmada.io", "v1alpha1", "clusters", "Cluster", false, {}};
    watched_.push_back(std::move(clusters));
    start_reflector(0, false);
    for (const auto& k : workload_kinds) {
        auto w = std::make_unique<watched>();
        w->resource = *workload_resource(k); // the syntax is checked by the command line
        w->api_version_kind = k;
        w->label = k;
        watched_.push_back(std::move(w));
    }
}

live_snapshot::~live_snapshot()
{
    stop();
}

// Makes the reflector of a resolved collection, and starts it when asked (the snapshot is running).
void live_snapshot::start_reflector(std::size_t i, bool run)
{
    watched& w = *watched_[i];
    w.label = resource_label(w.resource);
    kube::reflector_options reflector_options;
    reflector_options.max_objects = options_.max_objects;
    kube::object_decoder decode = [label = w.label, i](std::string_view json) {
        return std::make_shared<const decoded>(i == 0 ? snapshot::decode_cluster_object(json, label)
                                                       : snapshot::decode_workload_object(json, "default", label));
    };
    w.reflector = std::make_unique<kube::reflector>(
        config_, client_options_, w.resource, std::string(), std::move(decode),
        [this, i](const kube::kept_map& objects) { changed(i, objects); },
        [this, i](const kube::reflector_status& status) { state_changed(i, status); }, reflector_options);
    stats_.live_watch(w.label, "starting", 0, 0);
    if (run)
        w.reflector->start();
}

void live_snapshot::start()
{
    if (resolver_.joinable() || stopping_)
        return;
    watched_[0]->reflector->start();
    // Discovery on a thread of its own: the constructor and start() never wait for the API server.
    resolver_ = std::thread([this] { resolve_kinds(); });
}

// Resolves each workload kind by discovery (a fresh client each round: client::resolve caches), retrying
// with backoff while discovery fails and every `rediscover` while a kind is not served.
void live_snapshot::resolve_kinds()
{
    kube::backoff delays(options_.discovery_backoff);
    std::string last_failure;
    for (;;) {
        bool failed = false, pending = false;
        {
            kube::client c(config_, client_options_);
            c.interrupt_on(&stopping_);
            for (std::size_t i = 1; i < watched_.size() && !stopping_; ++i) {
                watched& w = *watched_[i];
                if (w.reflector)
                    continue;
                auto found = c.resolve(w.resource.api_version(), w.resource.kind);
                if (!found) {
                    failed = pending = true;
                    if (found.error().message != last_failure && !stopping_)
                        log_.warning("cannot ask karmada-apiserver which resource serves a --live-workloads kind; "
                                     "retrying, the live snapshot waits for it",
                                     "kind=" + w.api_version_kind + " error=" + logger::quote(found.error().message));
                    last_failure = found.error().message;
                    break;
                }
                const std::lock_guard lock(mutex_);
                if (!*found) {
                    pending = true;
                    if (!w.unserved) {
                        const std::string group = w.resource.group.empty() ? "''" : w.resource.group;
                        const auto ms = options_.rediscover.count();
                        const std::string every = ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms";
                        log_.error("karmada-apiserver does not serve this --live-workloads kind; the live snapshot is "
                                   "published without its workloads, and discovery is asked again",
                                   "kind=" + w.api_version_kind + " retry_every=" + every + " hint=" +
                                       logger::quote("give apiVersion/Kind as `kubectl api-resources --api-group=" +
                                                     group + "` lists it (the Kind spelled as there), or install "
                                                     "the CRD that serves it"));
                        w.unserved = true;
                        stats_.live_kind(w.api_version_kind, false);
                        rebuild(); // the Clusters may be waiting for this kind only
                    }
                    continue;
                }
                w.resource = **found;
                w.unserved = false;
                w.synced_once = false;
                stats_.live_kind(w.api_version_kind, true);
                log_.info("karmada-apiserver serves a --live-workloads kind",
                          "kind=" + w.api_version_kind + " resource=" + resource_label(w.resource));
                start_reflector(i, true);
            }
            c.interrupt_on(nullptr);
        }
        if (!pending || stopping_)
            return;
        if (!failed)
            last_failure.clear();
        std::unique_lock lock(resolver_mutex_);
        resolver_wake_.wait_for(lock, failed ? delays.next() : options_.rediscover, [this] { return stopping_.load(); });
        if (stopping_)
            return;
    }
}

void live_snapshot::stop()
{
    {
        const std::lock_guard lock(resolver_mutex_);
        stopping_ = true;
    }
    resolver_wake_.notify_all();
    if (resolver_.joinable())
        resolver_.join();
    for (auto& w : watched_)
        if (w->reflector)
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
    log_.warning("karmada-apiserver holds more objects than --live-max-objects=" + std::to_string(options_.max_objects) +
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
        if (!w->synced_once && !w->unserved)
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
