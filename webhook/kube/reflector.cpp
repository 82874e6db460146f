// SPDX-License-Identifier: Apache-2.0
#include "kube/reflector.hpp"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <random>
#include <thread>

namespace kpw::kube {

namespace {

using clock = std::chrono::steady_clock;

std::string key_of(std::string_view namespace_, std::string_view name)
{
    return namespace_.empty() ? std::string(name) : std::string(namespace_) + "/" + std::string(name);
}

// The plain constructor's kept form: the object's JSON text.
struct kept_text final : kept_object {
    explicit kept_text(std::string_view j) : json(j) {}
    std::string json;
};

} // namespace

struct reflector::impl {
    rest_config config;
    client_options copts;
    api_resource resource;
    std::string namespace_;
    object_decoder decode;
    std::function<void(const kept_map&)> on_change;
    std::function<void(const reflector_status&)> on_state;
    reflector_options options;

    mutable std::mutex mutex;
    std::condition_variable wake;
    reflector_status status; // under mutex
    std::atomic<bool> stopping{false};
    std::atomic<bool> leave_watch{false}; // stop() or over the limit: the watch in progress ends
    std::thread thread;

    // Only the reflector's thread touches these.
    kept_map store;
    bool over_limit = false; // more than options.max_objects: the store is empty until a list fits
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
    void drop_over_limit();
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

// Empties the store and says why (once per state change): more objects than the limit.
void reflector::impl::drop_over_limit()
{
    over_limit = true;
    leave_watch = true;
    store.clear();
    dirty = false;
    set_state(reflector_state::over_limit, "more than " + std::to_string(options.max_objects) + " " +
                                               resource.resource + ", the limit of objects kept; none is kept");
}

bool reflector::impl::list(client& c, bool first)
{
    // Each object decoded as its page is read; the store is replaced only by a whole list.
    kept_map fresh;
    auto listed = c.list_each(
        resource, namespace_, {},
        [&](const client::list_item& item) {
            if (options.max_objects != 0 && fresh.size() >= options.max_objects)
                return false;
            if (item.has_metadata)
                fresh[key_of(item.namespace_, item.name)] = decode(item.json);
            return true;
        },
        [&] { fresh.clear(); });
    if (!listed) {
        if (!stopping)
            set_state(reflector_state::retrying, listed.error().message);
        return false;
    }
    if (listed->stopped) {
        drop_over_limit();
        return false;
    }
    if (over_limit) {
        over_limit = false;
        leave_watch = stopping.load(); // stop() sets both; the client's interrupt covers a race here
    }
    store = std::move(fresh);
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
    if (over_limit)
        return; // nothing is kept until a list fits again
    const std::string key = key_of(e.namespace_, e.name);
    if (e.type == watch_event::kind::deleted)
        store.erase(key);
    else
        store[key] = decode(e.object);
    if (options.max_objects != 0 && store.size() > options.max_objects) {
        drop_over_limit();
        return;
    }
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
            leave_watch, [&] { flush(false); });
        flush(true);
        if (stopping)
            return;
        if (over_limit) {
            wait_backoff(); // then list again: the collection may have shrunk
            return;
        }
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
    : reflector(
          std::move(config), std::move(copts), std::move(resource), std::move(namespace_),
          [](std::string_view json) { return std::make_shared<const kept_text>(json); },
          [on_change = std::move(on_change)](const kept_map& store) {
              if (!on_change)
                  return;
              object_map texts;
              for (const auto& [key, kept] : store)
                  texts.emplace(key, static_cast<const kept_text&>(*kept).json);
              on_change(texts);
          },
          std::move(on_state), options)
{
}

reflector::reflector(rest_config config, client_options copts, api_resource resource, std::string namespace_,
                     object_decoder decode, std::function<void(const kept_map&)> on_change,
                     std::function<void(const reflector_status&)> on_state, reflector_options options)
    : impl_(std::make_unique<impl>())
{
    impl_->config = std::move(config);
    impl_->copts = std::move(copts);
    impl_->resource = std::move(resource);
    impl_->namespace_ = std::move(namespace_);
    impl_->decode = std::move(decode);
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
        impl_->leave_watch = true;
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
