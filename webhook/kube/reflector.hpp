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
};

enum class reflector_state { starting, synced, retrying, stopped };

struct reflector_status {
    reflector_state state = reflector_state::starting;
    std::chrono::system_clock::time_point last_sync{}; // last successful list or event (epoch: never)
    std::size_t objects = 0;
    std::size_t relists = 0;     // lists after the first (410 Gone, undecodable streams); not re-watches
    std::string last_error;      // empty when healthy; never holds a secret
};

// "namespace/name" (or "name") -> the object's JSON text as `kubectl get -o json` prints an item.
using object_map = std::map<std::string, std::string>;

class reflector {
public:
    // `on_change` runs on the reflector's thread after the first list and after each coalesced burst of
    // events, with the whole current store. `on_state` runs when reflector_state changes (log once per
    // change). Neither may block for long.
    reflector(rest_config config, client_options copts, api_resource resource, std::string namespace_,
              std::function<void(const object_map&)> on_change,
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
