// SPDX-License-Identifier: Apache-2.0
// reflector: a live copy of one collection (list, then watch from its resourceVersion; re-list on 410;
// reconnect with capped backoff), on its own thread, as client-go's reflector keeps an informer's store.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "kube/client.hpp"

namespace kpw::kube {

struct reflector_options {
    std::chrono::milliseconds initial_backoff{500};
    std::chrono::milliseconds max_backoff{30'000};
    // Changes arriving within this window are handed over once: a burst of 5,000 events is one rebuild.
    std::chrono::milliseconds coalesce{200};
};

enum class reflector_state { starting, synced, retrying, stopped };

struct reflector_status {
    reflector_state state = reflector_state::starting;
    std::chrono::system_clock::time_point last_sync{}; // last successful list or event (epoch: never)
    std::size_t objects = 0;
    std::size_t relists = 0;     // lists after the first (410 Gone, broken watches)
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
