// SPDX-License-Identifier: Apache-2.0
#include "kube/reflector.hpp"

#include <atomic>
#include <condition_variable>
#include <mutex>
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

// What follows a watch, as client-go's Reflector.watch and handleAnyWatch (tools/cache/reflector.go)
// decide it, with one difference: a broken stream is resumed after the backoff delay, not at once, so that
// a server that accepts watches and drops them is not hammered.
enum class next_step { watch_now, watch_after_backoff, list_after_backoff };

next_step after_watch(bool ended, error_kind failed, std::size_t events, clock::duration lasted)
{
    // handleAnyWatch's VeryShortWatchError: ended within a second with no event; a server (or a proxy)
    // that closes every watch at once would otherwise leave the store stale for good.
    const bool very_short = events == 0 && lasted < std::chrono::seconds(1);
    if (ended)
        return very_short ? next_step::list_after_backoff : next_step::watch_now; // the server's timeout
    switch (failed) {
    case error_kind::unreachable: // isWatchErrorRetriable: connection refused; resuming is still right
    case error_kind::throttled:   // ... and 429
        return next_step::watch_after_backoff;
    case error_kind::bad_reply: // cut off (reset, truncated): StreamWatcher closes the stream as at its end
        return very_short ? next_step::list_after_backoff : next_step::watch_after_backoff;
    default: // 410 (isExpiredError), other ERROR events and statuses (too large resourceVersion: 504), a
             // line that does not decode (StreamWatcher's InternalError): the stream cannot be trusted
        return next_step::list_after_backoff;
    }
}

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
    backoff delays;

    void run();
    bool list(client& c, bool first);
    void watch(client& c);
    void apply(const watch_event& e);
    void flush(bool force);
    void set_state(reflector_state s, const std::string& error);
    void watching();
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

// A watch is open (an event came, or the stream ticks): healthy again after a failure, but not while the
// collection is over the limit (the watch is ending then).
void reflector::impl::watching()
{
    if (over_limit)
        return;
    {
        std::lock_guard lock(mutex);
        if (status.state == reflector_state::synced)
            return;
    }
    set_state(reflector_state::synced, "");
}

// Sleeps the next backoff delay, woken at once by stop().
void reflector::impl::wait_backoff()
{
    const auto delay = delays.next();
    if (options.sleep) {
        options.sleep(delay);
        return;
    }
    std::unique_lock lock(mutex);
    wake.wait_for(lock, delay, [this] { return stopping.load(); });
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

// Watches from the last resourceVersion seen (the list's, then each event's and bookmark's), resuming
// there after each end or break; returns when a re-list is due, or on stop.
void reflector::impl::watch(client& c)
{
    while (!stopping) {
        std::size_t events = 0;
        const auto started = clock::now();
        auto w = c.watch(
            resource, namespace_, resource_version,
            [&](const watch_event& e) {
                ++events;
                watching();
                apply(e);
            },
            leave_watch,
            [&] {
                watching();
                flush(false);
            });
        flush(true);
        // stop(), or over the limit (run() lists again after the backoff: the collection may have shrunk).
        if (stopping || (w && !*w))
            return;
        const error_kind failed = w ? error_kind::server : c.last_error_kind();
        switch (after_watch(w.ok(), failed, events, clock::now() - started)) {
        case next_step::watch_now:
            continue;
        case next_step::watch_after_backoff:
            set_state(reflector_state::retrying, w.error().message);
            wait_backoff();
            continue;
        case next_step::list_after_backoff:
            if (!w && failed != error_kind::gone) // a 410 is routine: the re-list follows, no alarm
                set_state(reflector_state::retrying, w.error().message);
            return;
        }
    }
}

// client-go's RunWithContext: ListAndWatch, and the backoff delay before each list after the first.
void reflector::impl::run()
{
    client c(config, copts);
    c.interrupt_on(&stopping);
    bool first = true;
    while (!stopping) {
        if (list(c, first)) {
            first = false;
            watch(c);
        }
        if (!stopping)
            wait_backoff();
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
    impl_->delays = backoff(options.backoff);
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
