// SPDX-License-Identifier: Apache-2.0
#include "kube/reflector.hpp"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <random>
#include <thread>

#include "kube/json_text.hpp"

namespace kpw::kube {

namespace {

using clock = std::chrono::steady_clock;

std::string key_of(const std::string& namespace_, const std::string& name)
{
    return namespace_.empty() ? name : namespace_ + "/" + name;
}

// The items of a List text (client::list's) into the store; false when it does not parse.
bool fill_store(const std::string& list_json, object_map& store)
{
    rapidjson::Document doc;
    std::string error;
    if (!detail::parse_json(doc, list_json, error))
        return false;
    const rapidjson::Value* items = detail::member(doc, "items");
    if (items == nullptr || !items->IsArray())
        return false;
    store.clear();
    for (const auto& item : items->GetArray()) {
        const rapidjson::Value* metadata = detail::member(item, "metadata");
        if (metadata == nullptr)
            continue;
        store[key_of(detail::string_member(*metadata, "namespace"), detail::string_member(*metadata, "name"))] =
            detail::to_json(item);
    }
    return true;
}

} // namespace

struct reflector::impl {
    rest_config config;
    client_options copts;
    api_resource resource;
    std::string namespace_;
    std::function<void(const object_map&)> on_change;
    std::function<void(const reflector_status&)> on_state;
    reflector_options options;

    mutable std::mutex mutex;
    std::condition_variable wake;
    reflector_status status; // under mutex
    std::atomic<bool> stopping{false};
    std::thread thread;

    // Only the reflector's thread touches these.
    object_map store;
    std::string resource_version;
    bool dirty = false;
    clock::time_point dirty_since;
    std::chrono::milliseconds backoff{0};
    std::minstd_rand jitter{std::random_device{}()};

    void run();
    bool list(client& c, bool first);
    void watch(client& c);
    void apply(const watch_event& e);
    void flush(bool force);
    void set_state(reflector_state s, const std::string& error);
    void wait_backoff();
};

void reflector::impl::set_state(reflector_state s, const std::string& error)
{
    reflector_status copy;
    bool changed = false;
    {
        std::lock_guard lock(mutex);
        changed = status.state != s;
        status.state = s;
        status.last_error = error;
        status.objects = store.size();
        if (s == reflector_state::synced)
            status.last_sync = std::chrono::system_clock::now();
        copy = status;
    }
    if (changed && on_state)
        on_state(copy);
}

// Sleeps the current backoff (with up to +20 % jitter), woken at once by stop(); then doubles it.
void reflector::impl::wait_backoff()
{
    const auto base = backoff.count() > 0 ? backoff : options.initial_backoff;
    const auto spread = std::uniform_int_distribution<long long>(0, base.count() / 5)(jitter);
    std::unique_lock lock(mutex);
    wake.wait_for(lock, base + std::chrono::milliseconds(spread), [this] { return stopping.load(); });
    backoff = std::min(base * 2, options.max_backoff);
}

bool reflector::impl::list(client& c, bool first)
{
    auto listed = c.list(resource, namespace_);
    if (!listed) {
        if (!stopping)
            set_state(reflector_state::retrying, listed.error().message);
        return false;
    }
    if (!fill_store(listed->json, store)) {
        set_state(reflector_state::retrying, "the list of " + resource.resource + " does not parse");
        return false;
    }
    resource_version = listed->resource_version;
    if (!first) {
        std::lock_guard lock(mutex);
        ++status.relists;
    }
    backoff = options.initial_backoff;
    set_state(reflector_state::synced, "");
    dirty = false;
    if (on_change)
        on_change(store);
    return true;
}

void reflector::impl::apply(const watch_event& e)
{
    if (!e.resource_version.empty())
        resource_version = e.resource_version;
    if (e.type == watch_event::kind::bookmark)
        return;
    const std::string key = key_of(e.namespace_, e.name);
    if (e.type == watch_event::kind::deleted)
        store.erase(key);
    else
        store[key] = e.object;
    {
        std::lock_guard lock(mutex);
        status.objects = store.size();
        status.last_sync = std::chrono::system_clock::now();
    }
    if (!dirty) {
        dirty = true;
        dirty_since = clock::now();
    }
    flush(false);
}

// Hands the store over when changes are pending and the coalescing window since the first has passed.
void reflector::impl::flush(bool force)
{
    if (!dirty || (!force && clock::now() - dirty_since < options.coalesce))
        return;
    dirty = false;
    if (on_change)
        on_change(store);
}

// Watches from the list's resourceVersion until a failure or stop; returns to re-list.
void reflector::impl::watch(client& c)
{
    for (;;) {
        bool delivered = false;
        auto w = c.watch(
            resource, namespace_, resource_version,
            [&](const watch_event& e) {
                delivered = true;
                apply(e);
            },
            stopping, [&] { flush(false); });
        flush(true);
        if (stopping)
            return;
        if (w && *w)
            continue; // the server ended the stream (its timeout): watch on from where it was
        if (!w && c.last_error_kind() == error_kind::gone)
            return; // 410: the resourceVersion is too old, re-list at once
        // A broken watch: re-list at once after one that carried events, after the backoff otherwise.
        if (!delivered)
            wait_backoff();
        return;
    }
}

void reflector::impl::run()
{
    client c(config, copts);
    c.interrupt_on(&stopping);
    bool first = true;
    while (!stopping) {
        if (!list(c, first)) {
            wait_backoff();
            continue;
        }
        first = false;
        watch(c);
    }
    c.interrupt_on(nullptr);
    set_state(reflector_state::stopped, "");
}

reflector::reflector(rest_config config, client_options copts, api_resource resource, std::string namespace_,
                     std::function<void(const object_map&)> on_change,
                     std::function<void(const reflector_status&)> on_state, reflector_options options)
    : impl_(std::make_unique<impl>())
{
    impl_->config = std::move(config);
    impl_->copts = std::move(copts);
    impl_->resource = std::move(resource);
    impl_->namespace_ = std::move(namespace_);
    impl_->on_change = std::move(on_change);
    impl_->on_state = std::move(on_state);
    impl_->options = options;
    impl_->backoff = options.initial_backoff;
}

reflector::~reflector()
{
    stop();
}

void reflector::start()
{
    if (impl_->thread.joinable() || impl_->stopping)
        return;
    impl_->thread = std::thread([this] { impl_->run(); });
}

void reflector::stop()
{
    {
        std::lock_guard lock(impl_->mutex);
        impl_->stopping = true;
    }
    impl_->wake.notify_all();
    if (impl_->thread.joinable())
        impl_->thread.join();
}

reflector_status reflector::status() const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->status;
}

} // namespace kpw::kube
