// SPDX-License-Identifier: Apache-2.0
// kube::reflector against the fake API server: initial sync, events applied, re-list on 410 and on a
// broken watch, an API server that goes away and comes back, coalesced bursts, a prompt stop().
#include "kube/reflector.hpp"

#include <doctest/doctest.h>

#include <mutex>
#include <vector>

#include "fake_apiserver.hpp"

using namespace kpw::kube;
using kpw::test::eventually;
using kpw::test::fake_apiserver;
using namespace std::chrono_literals;

namespace {

const api_resource clusters{"cluster.karmada.io", "v1alpha1", "clusters", "Cluster", false};
const api_resource deployments{"apps", "v1", "deployments", "Deployment", true};

std::string cluster(const std::string& name, const std::string& mode = "Push")
{
    return R"({"metadata":{"name":")" + name + R"("},"spec":{"syncMode":")" + mode + R"("}})";
}

// What the callbacks saw, for the assertions (the reflector calls them on its own thread).
struct recorder {
    mutable std::mutex m;
    std::vector<object_map> changes;
    std::vector<reflector_state> states;

    object_map last() const
    {
        std::lock_guard lock(m);
        return changes.empty() ? object_map{} : changes.back();
    }
    std::size_t count() const
    {
        std::lock_guard lock(m);
        return changes.size();
    }
    bool saw(reflector_state s) const
    {
        std::lock_guard lock(m);
        return std::find(states.begin(), states.end(), s) != states.end();
    }
};

struct fixture {
    fake_apiserver server;
    recorder seen;
    std::unique_ptr<reflector> r;

    fixture()
    {
        server.add_resource({"cluster.karmada.io", "v1alpha1", "clusters", "Cluster", false});
        server.add_resource({"apps", "v1", "deployments", "Deployment", true});
        server.start();
    }

    void start(const api_resource& res = clusters, const std::string& ns = {}, reflector_options o = fast())
    {
        rest_config config;
        config.server = server.url();
        config.ca_pem = server.ca_pem();
        client_options copts;
        copts.connect_timeout = 2s;
        r = std::make_unique<reflector>(
            config, copts, res, ns,
            [this](const object_map& m) {
                std::lock_guard lock(seen.m);
                seen.changes.push_back(m);
            },
            [this](const reflector_status& s) {
                std::lock_guard lock(seen.m);
                seen.states.push_back(s.state);
            },
            o);
        r->start();
    }

    static reflector_options fast()
    {
        reflector_options o;
        o.initial_backoff = 50ms;
        o.max_backoff = 400ms;
        o.coalesce = 50ms;
        return o;
    }
};

} // namespace

TEST_CASE("reflector: the first list is handed over whole and the state becomes synced")
{
    fixture f;
    f.server.put("clusters", cluster("member1"));
    f.server.put("clusters", cluster("member2"));
    f.start();
    REQUIRE(eventually([&] { return f.r->status().state == reflector_state::synced; }));
    REQUIRE(eventually([&] { return f.seen.count() >= 1; }));
    const auto first = f.seen.last();
    REQUIRE(first.size() == 2);
    CHECK(first.at("member1").starts_with(R"({"apiVersion":"cluster.karmada.io/v1alpha1","kind":"Cluster")"));
    const auto st = f.r->status();
    CHECK(st.objects == 2);
    CHECK(st.relists == 0);
    CHECK(st.last_error.empty());
    CHECK(st.last_sync > std::chrono::system_clock::time_point{});
    CHECK(f.seen.saw(reflector_state::synced));
}

TEST_CASE("reflector: added, modified and deleted objects are reflected, keyed namespace/name")
{
    fixture f;
    f.server.put("deployments", R"({"metadata":{"name":"a","namespace":"web"}})");
    f.start(deployments);
    REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));
    f.server.put("deployments", R"({"metadata":{"name":"b","namespace":"web"}})");
    f.server.put("deployments", R"({"metadata":{"name":"a","namespace":"web"},"spec":{"replicas":5}})");
    f.server.put("deployments", R"({"metadata":{"name":"a","namespace":"db"}})");
    f.server.remove("deployments", "web", "b");
    REQUIRE(eventually([&] {
        const auto m = f.seen.last();
        return m.size() == 2 && m.count("web/a") && m.count("db/a") && m.at("web/a").find("\"replicas\":5") != std::string::npos;
    }));
    CHECK(f.r->status().objects == 2);
    CHECK(f.r->status().relists == 0);
}

TEST_CASE("reflector: a burst of events is handed over in few rebuilds, the last one complete")
{
    fixture f;
    reflector_options o = fixture::fast();
    o.coalesce = 300ms;
    f.start(clusters, {}, o);
    REQUIRE(eventually([&] { return f.server.open_watches() == 1 && f.seen.count() == 1; }));
    for (int i = 0; i < 500; ++i)
        f.server.put("clusters", cluster(std::to_string(1000 + i)));
    REQUIRE(eventually([&] { return f.seen.last().size() == 500; }));
    CHECK(f.seen.count() <= 4); // the first list, then at most one per 300 ms window
}

TEST_CASE("reflector: a 410 ERROR and a broken watch re-list and keep the store right")
{
    fixture f;
    f.server.put("clusters", cluster("member1"));
    f.start();
    REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));

    f.server.send_gone("clusters");
    REQUIRE(eventually([&] { return f.r->status().relists == 1; }));
    REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));
    f.server.put("clusters", cluster("member2"));
    REQUIRE(eventually([&] { return f.seen.last().size() == 2; }));

    f.server.break_watches("clusters", true);
    REQUIRE(eventually([&] { return f.r->status().relists == 2; }));
    CHECK(f.r->status().state == reflector_state::synced);
    // The garbage must reach a watch: wait until the re-listed reflector is watching again.
    REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));

    f.server.send_line("clusters", "this is not an event");
    REQUIRE(eventually([&] { return f.r->status().relists == 3; }));
    REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));
    f.server.remove("clusters", "", "member1");
    REQUIRE(eventually([&] { return f.seen.last().size() == 1 && f.seen.last().count("member2"); }));
}

TEST_CASE("reflector: bookmarks move the resourceVersion the next watch starts from")
{
    fixture f;
    f.start();
    REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));
    f.server.put("clusters", cluster("x"));
    f.server.remove("clusters", "", "x");
    f.server.send_bookmark("clusters");
    const std::string rv = f.server.resource_version();
    REQUIRE(eventually([&] { return f.seen.count() >= 2; }));
    f.server.end_watches("clusters"); // a clean end: watch again from the bookmark
    REQUIRE(eventually([&] {
        const auto r = f.server.requests();
        return r.back().query.count("watch") && r.back().query.at("resourceVersion") == rv;
    }));
    CHECK(f.r->status().relists == 0);
}

TEST_CASE("reflector: survives the API server stopping and restarting on the same port")
{
    fixture f;
    f.server.put("clusters", cluster("member1"));
    f.start();
    REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));
    f.server.stop();
    REQUIRE(eventually([&] { return f.r->status().state == reflector_state::retrying; }));
    CHECK_FALSE(f.r->status().last_error.empty());
    CHECK(f.r->status().last_error.find("cannot reach") != std::string::npos);
    f.server.put("clusters", cluster("member2")); // changed while it was away
    f.server.start();
    REQUIRE(eventually([&] { return f.r->status().state == reflector_state::synced; }));
    REQUIRE(eventually([&] { return f.seen.last().size() == 2; }));
    CHECK(f.r->status().last_error.empty());
    CHECK(f.r->status().relists >= 1);
    std::lock_guard lock(f.seen.m);
    const auto& s = f.seen.states;
    REQUIRE(s.size() >= 3);
    CHECK(s[0] == reflector_state::synced);
    CHECK(s[1] == reflector_state::retrying);
    CHECK(s.back() == reflector_state::synced);
}

TEST_CASE("reflector: stop() is prompt while watching, while backing off and while a request hangs")
{
    SUBCASE("watching")
    {
        fixture f;
        f.start();
        REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));
        const auto t0 = std::chrono::steady_clock::now();
        f.r->stop();
        CHECK(std::chrono::steady_clock::now() - t0 < 1s);
        CHECK(f.r->status().state == reflector_state::stopped);
    }
    SUBCASE("backing off")
    {
        fixture f;
        f.server.stop();
        reflector_options o = fixture::fast();
        o.initial_backoff = 20s;
        o.max_backoff = 60s;
        f.start(clusters, {}, o);
        REQUIRE(eventually([&] { return f.r->status().state == reflector_state::retrying; }));
        const auto t0 = std::chrono::steady_clock::now();
        f.r->stop();
        CHECK(std::chrono::steady_clock::now() - t0 < 1s);
    }
    SUBCASE("a list that never gets a reply")
    {
        fixture f;
        f.server.stall("/apis/cluster.karmada.io/v1alpha1/clusters");
        f.start();
        REQUIRE(eventually([&] { return f.server.requests().size() == 1; }));
        const auto t0 = std::chrono::steady_clock::now();
        f.r->stop();
        CHECK(std::chrono::steady_clock::now() - t0 < 1s);
        CHECK(f.seen.count() == 0);
    }
}

// Issue 38: memory bounded by max_objects, on the list and on the watch; back once the collection fits.
TEST_CASE("reflector: more objects than max_objects are not kept (list or watch), and a list that fits syncs again")
{
    fixture f;
    for (const char* name : {"a", "b", "c", "d"})
        f.server.put("clusters", cluster(name));
    auto o = fixture::fast();
    o.max_objects = 3;
    f.start(clusters, {}, o);
    // The list stops at the 4th object: nothing kept, nothing handed over, the state says why.
    REQUIRE(eventually([&] { return f.r->status().state == reflector_state::over_limit; }));
    CHECK(f.r->status().objects == 0);
    CHECK(f.r->status().last_error.find("more than 3 clusters") != std::string::npos);
    CHECK(f.seen.count() == 0);
    // Listed again after the backoff; with 3 it fits.
    f.server.remove("clusters", "", "d");
    REQUIRE(eventually([&] { return f.r->status().state == reflector_state::synced; }));
    REQUIRE(eventually([&] { return f.seen.last().size() == 3; }));
    // A watch event that makes 4: dropped again, the watch left, and back when it fits.
    f.server.put("clusters", cluster("e"));
    REQUIRE(eventually([&] { return f.r->status().state == reflector_state::over_limit; }));
    CHECK(f.r->status().objects == 0);
    f.server.remove("clusters", "", "e");
    REQUIRE(eventually([&] { return f.r->status().state == reflector_state::synced && f.r->status().objects == 3; }));
}
