// SPDX-License-Identifier: Apache-2.0
// reflector: a live copy of one collection, on its own thread, as client-go's reflector keeps an
// informer's store: list, then watch from the last resourceVersion seen (events and bookmarks); a watch
// the server ends is resumed at once, a broken one after a backoff delay; re-list only when resuming
// cannot work (410 Gone, an ERROR event, a stream that does not decode), after the delay too.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "kube/backoff.hpp"
#include "kube/client.hpp"

namespace kpw::kube {

struct reflector_options {
    // The delays between retries: client-go's (800 ms doubling to 30 s, jittered up to 2x, reset every 2 min).
    backoff_policy backoff;
    // Tests: called with each delay instead of waiting it out (it should return promptly: stop() cannot
    // cut it short).
    std::function<void(std::chrono::milliseconds)> sleep;
    // Changes arriving within this window are handed over once: a burst of 5,000 events is one rebuild.
    std::chrono::milliseconds coalesce{200};
    // More objects than this (0: no limit) and the store is emptied and the state is over_limit: the
    // list stops at the object after the limit, a watch adding it is left, and the collection is listed
    // again after the backoff (it may have shrunk). Memory stays bounded by the limit (issue 38).
    std::size_t max_objects = 0;
};

enum class reflector_state { starting, synced, retrying, over_limit, stopped };

struct reflector_status {
    reflector_state state = reflector_state::starting;
    std::chrono::system_clock::time_point last_sync{}; // last successful list or event (epoch: never)
    std::size_t objects = 0;
    std::size_t relists = 0;     // lists after the first (410 Gone, undecodable streams); not re-watches
    std::string last_error;      // empty when healthy; never holds a secret
};

// "namespace/name" (or "name") -> the object's JSON text as `kubectl get -o json` prints an item.
using object_map = std::map<std::string, std::string>;

// What the store keeps of one object when the caller decodes it: serve's live snapshot keeps the
// snapshot's own form of each object, decoded once as it arrives, instead of its JSON text (issue 38).
struct kept_object {
    virtual ~kept_object() = default;
};
using kept_map = std::map<std::string, std::shared_ptr<const kept_object>>;
// One object's JSON text (as `kubectl get -o json` prints an item; valid during the call) -> what is kept.
using object_decoder = std::function<std::shared_ptr<const kept_object>(std::string_view json)>;

class reflector {
public:
    // `on_change` runs on the reflector's thread after the first list and after each coalesced burst of
    // events, with the whole current store. `on_state` runs when reflector_state changes (log once per
    // change). Neither may block for long.
    reflector(rest_config config, client_options copts, api_resource resource, std::string namespace_,
              std::function<void(const object_map&)> on_change,
              std::function<void(const reflector_status&)> on_state = {}, reflector_options options = {});
    // The same, keeping `decode`'s form of each object: `on_change` gets the store itself (the objects
    // are shared, so keeping a copy of the map costs its keys, never the objects).
    reflector(rest_config config, client_options copts, api_resource resource, std::string namespace_,
              object_decoder decode, std::function<void(const kept_map&)> on_change,
              std::function<void(const reflector_status&)> on_state = {}, reflector_options options = {});
    ~reflector(); // stops and joins

    void start();
    void stop(); // interrupts a connect, a list or a watch within a second
    reflector_status status() const;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

} // namespace kpw::kube
