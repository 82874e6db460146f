// SPDX-License-Identifier: Apache-2.0
// kube::reflector against the fake API server: initial sync, events applied, a broken watch resumed from
// the last resourceVersion (no list) after growing delays, re-list on 410 and on a stream that does not
// decode, an API server that goes away and comes back, coalesced bursts, a prompt stop().
#include "kube/reflector.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <mutex>
#include <thread>
#include <vector>

#include "fake_apiserver.hpp"

using namespace kpw::kube;
using kpw::test::eventually;
using kpw::test::fake_apiserver;
using namespace std::chrono_literals;

namespace {

const api_resource clusters{"cluster.karmada.io", "v1alpha1", "clusters", "Cluster", false, {}};
const api_resource deployments{"apps", "v1", "deployments", "Deployment", true, {}};

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
        o.backoff.initial = 50ms;
        o.backoff.cap = 400ms;
        o.coalesce = 50ms;
        return o;
    }
};

// "c0", "c1", ... (appended: g++ 12 warns falsely on "c" + std::to_string(i) at -O3)
std::string numbered(int i)
{
    return std::string("c").append(std::to_string(i));
}

bool is_watch(const kpw::test::recorded_request& r)
{
    return r.query.count("watch") != 0;
}

std::size_t lists(const fake_apiserver& server)
{
    const auto r = server.requests();
    return static_cast<std::size_t>(std::count_if(r.begin(), r.end(), [](const auto& q) { return !is_watch(q); }));
}

std::size_t watches(const fake_apiserver& server)
{
    const auto r = server.requests();
    return static_cast<std::size_t>(std::count_if(r.begin(), r.end(), is_watch));
}

// The delays the reflector asked for, recorded instead of slept (a few ms each, so a loop cannot spin).
struct sleeper {
    std::mutex m;
    std::vector<std::chrono::milliseconds> delays;

    std::function<void(std::chrono::milliseconds)> hook()
    {
        return [this](std::chrono::milliseconds d) {
            {
                std::lock_guard lock(m);
                delays.push_back(d);
            }
            std::this_thread::sleep_for(2ms);
        };
    }
    std::vector<std::chrono::milliseconds> seen()
    {
        std::lock_guard lock(m);
        return delays;
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

TEST_CASE("reflector: a broken watch resumes from the last event's resourceVersion, without a list")
{
    for (const bool mid_event : {false, true}) {
        CAPTURE(mid_event);
        fixture f;
        f.server.put("clusters", cluster("member1"));
        f.start();
        REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));
        f.server.put("clusters", cluster("member2"));
        f.server.put("clusters", cluster("member1", "Pull"));
        const std::string last_event = f.server.resource_version();
        REQUIRE(eventually([&] { return f.seen.last().size() == 2 && f.seen.last().at("member1").find("Pull") != std::string::npos; }));
        REQUIRE(watches(f.server) == 1);

        f.server.break_watches("clusters", mid_event);
        REQUIRE(eventually([&] { return watches(f.server) == 2; }));
        const auto r = f.server.requests();
        CHECK(is_watch(r.back()));
        CHECK(r.back().query.at("resourceVersion") == last_event);
        CHECK(lists(f.server) == 1);
        CHECK(f.r->status().relists == 0);
        // Nothing is lost: a change made after the break arrives through the resumed watch.
        f.server.remove("clusters", "", "member2");
        REQUIRE(eventually([&] { return f.seen.last().size() == 1; }));
        CHECK(lists(f.server) == 1);
        CHECK(f.r->status().state == reflector_state::synced);
    }
}

TEST_CASE("reflector: a broken watch resumes from the last bookmark's resourceVersion")
{
    fixture f;
    f.start();
    REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));
    f.server.put("clusters", cluster("x"));
    REQUIRE(eventually([&] { return f.seen.last().size() == 1; }));
    f.server.put("deployments", R"({"metadata":{"name":"a","namespace":"web"}})"); // moves the server's version
    f.server.send_bookmark("clusters");
    const std::string bookmark = f.server.resource_version();
    // The bookmark changes nothing in the store: wait for it on the wire by the next watch instead.
    f.server.break_watches("clusters");
    REQUIRE(eventually([&] { return watches(f.server) == 2; }));
    CHECK(f.server.requests().back().query.at("resourceVersion") == bookmark);
    CHECK(lists(f.server) == 1);
}

TEST_CASE("reflector: repeated breaks are spaced by growing delays, client-go's 800 ms doubling")
{
    fixture f;
    sleeper slept;
    reflector_options o; // client-go's backoff
    o.coalesce = 10ms;
    o.sleep = slept.hook();
    f.start(clusters, {}, o);
    for (int i = 0; i < 5; ++i) {
        REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));
        f.server.put("clusters", cluster(numbered(i))); // each watch delivers an event, then breaks
        REQUIRE(eventually([&] { return f.seen.last().size() == static_cast<std::size_t>(i + 1); }));
        f.server.break_watches("clusters");
        REQUIRE(eventually([&] { return slept.seen().size() == static_cast<std::size_t>(i + 1); }));
    }
    const auto delays = slept.seen();
    REQUIRE(delays.size() == 5);
    for (std::size_t i = 0; i < delays.size(); ++i) {
        CAPTURE(i);
        const auto base = 800ms * (1 << i); // jitter 1.0: base .. 2 x base
        CHECK(delays[i] >= base);
        CHECK(delays[i] < 2 * base);
    }
    CHECK(lists(f.server) == 1);
    CHECK(f.r->status().relists == 0);
}

TEST_CASE("reflector: a 410 re-lists, at once or when the resumed watch is too old")
{
    fixture f;
    f.server.put("clusters", cluster("member1"));
    f.start();
    REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));

    f.server.send_gone("clusters"); // an ERROR event with a 410 Status
    REQUIRE(eventually([&] { return f.r->status().relists == 1; }));
    CHECK(lists(f.server) == 2);
    REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));
    f.server.put("clusters", cluster("member2"));
    REQUIRE(eventually([&] { return f.seen.last().size() == 2; }));

    // Away while its history was compacted: the resumed watch gets a 410, then a list catches up.
    f.server.stop();
    REQUIRE(eventually([&] { return f.r->status().state == reflector_state::retrying; }));
    f.server.remove("clusters", "", "member1");
    f.server.put("clusters", cluster("member3"));
    f.server.compact();
    const std::size_t before = f.server.requests().size();
    f.server.start();
    REQUIRE(eventually([&] { return f.r->status().relists == 2; }));
    const auto r = f.server.requests();
    REQUIRE(r.size() > before + 1);
    CHECK(is_watch(r[before])); // resumed first ...
    CHECK_FALSE(is_watch(r[before + 1])); // ... and listed after its 410
    REQUIRE(eventually([&] {
        const auto m = f.seen.last();
        return m.size() == 2 && m.count("member2") && m.count("member3");
    }));
}

TEST_CASE("reflector: status.relists counts lists only: breaks resume, garbage and 410 re-list")
{
    fixture f;
    f.start();
    REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));
    for (int i = 0; i < 3; ++i) {
        f.server.put("clusters", cluster(numbered(i)));
        REQUIRE(eventually([&] { return f.seen.last().size() == static_cast<std::size_t>(i + 1); }));
        f.server.break_watches("clusters", i % 2 == 1);
        REQUIRE(eventually([&] { return watches(f.server) == static_cast<std::size_t>(i + 2) && f.server.open_watches() == 1; }));
    }
    CHECK(f.r->status().relists == 0);
    CHECK(lists(f.server) == 1);

    f.server.send_line("clusters", "this is not an event"); // client-go: a decode error, re-list
    REQUIRE(eventually([&] { return f.r->status().relists == 1; }));
    REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));
    f.server.send_gone("clusters");
    REQUIRE(eventually([&] { return f.r->status().relists == 2; }));
    CHECK(lists(f.server) == 3);
    REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));
    f.server.remove("clusters", "", "c0");
    REQUIRE(eventually([&] { return f.seen.last().size() == 2 && !f.seen.last().count("c0"); }));
}

TEST_CASE("reflector: a watch the server ends or drops at once, with no event, re-lists after the backoff")
{
    for (const bool dropped : {false, true}) {
        CAPTURE(dropped);
        fixture f;
        sleeper slept;
        reflector_options o = fixture::fast();
        o.sleep = slept.hook();
        f.start(clusters, {}, o);
        REQUIRE(eventually([&] { return f.server.open_watches() == 1; }));
        // Within a second of its start: client-go's VeryShortWatchError.
        if (dropped)
            f.server.break_watches("clusters");
        else
            f.server.end_watches("clusters");
        REQUIRE(eventually([&] { return f.r->status().relists == 1; }));
        CHECK(slept.seen().size() == 1);
    }
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
    // A watch that has delivered (one that broke at once with nothing would re-list: client-go's
    // VeryShortWatchError).
    f.server.put("clusters", cluster("member1", "Pull"));
    REQUIRE(eventually([&] { return f.seen.count() == 2; }));
    f.server.stop();
    REQUIRE(eventually([&] { return f.r->status().state == reflector_state::retrying; }));
    CHECK_FALSE(f.r->status().last_error.empty());
    // The watch was cut off first; each attempt to resume it is then refused.
    CHECK(eventually([&] { return f.r->status().last_error.find("cannot reach") != std::string::npos; }));
    f.server.put("clusters", cluster("member2")); // changed while it was away
    f.server.start();
    REQUIRE(eventually([&] { return f.r->status().state == reflector_state::synced; }));
    REQUIRE(eventually([&] { return f.seen.last().size() == 2; }));
    CHECK(f.r->status().last_error.empty());
    // Connection refused: the watch was retried from where it was (client-go's isWatchErrorRetriable), and
    // the server's watch cache replayed the change: no list.
    CHECK(f.r->status().relists == 0);
    CHECK(lists(f.server) == 1);
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
        o.backoff.initial = 20s;
        o.backoff.cap = 60s;
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
