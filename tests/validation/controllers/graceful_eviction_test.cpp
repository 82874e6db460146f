// SPDX-License-Identifier: Apache-2.0
// The graceful-eviction controller's rules (day2-semantics §4.6), one test per rule.
#include <doctest/doctest.h>

#include "controllers/graceful_eviction.hpp"

using namespace kpw;
using controllers::task_fate;

namespace {

model::graceful_eviction_task task(std::string from, std::optional<model::timestamp> created)
{
    model::graceful_eviction_task t;
    t.from_cluster = std::move(from);
    t.purge_mode = "Gracefully";
    t.creation_timestamp = created;
    return t;
}

model::binding with_tasks(std::vector<model::graceful_eviction_task> tasks)
{
    model::binding b;
    b.generation = 5;
    b.scheduler_observed_generation = 5;
    b.clusters = {{"cloud-east-1", 4, {}}};
    b.graceful_eviction_tasks = std::move(tasks);
    return b;
}

const settings::controller_settings defaults;

} // namespace

TEST_CASE("a task without creationTimestamp is stamped now and kept; it ends by now + 10m")
{
    auto b = with_tasks({task("idc", std::nullopt)});
    auto out = controllers::run_graceful_eviction(b, defaults, 1000);
    REQUIRE(out.tasks.size() == 1);
    CHECK(out.tasks[0].fate == task_fate::stamped);
    CHECK(out.tasks[0].ends_by == 1600);
    CHECK(b.graceful_eviction_tasks[0].creation_timestamp == 1000);
    CHECK(out.changed);
    CHECK(b.generation == 6);
}

TEST_CASE("suppressDeletion true keeps the task untimed; false removes it at once")
{
    auto held = task("idc", 0);
    held.suppress_deletion = true;
    auto released = task("dr", 0);
    released.suppress_deletion = false;
    auto b = with_tasks({held, released});
    auto out = controllers::run_graceful_eviction(b, defaults, 100000);
    CHECK(out.tasks[0].fate == task_fate::suppressed);
    CHECK_FALSE(out.tasks[0].ends_by.has_value());
    CHECK(out.tasks[1].fate == task_fate::released);
    REQUIRE(b.graceful_eviction_tasks.size() == 1);
    CHECK(b.graceful_eviction_tasks[0].from_cluster == "idc");
    CHECK(out.events == std::vector<std::string>{"Evict from cluster dr succeed."});
}

TEST_CASE("timeout: gracePeriodSeconds, else --graceful-eviction-timeout; strictly after creation + timeout")
{
    auto own = task("idc", 1000);
    own.grace_period_seconds = 60;
    auto b = with_tasks({own, task("dr", 1000)});
    b.aggregated_status.clear();
    auto at_limit = controllers::run_graceful_eviction(b, defaults, 1060);
    CHECK(at_limit.tasks[0].fate == task_fate::waiting);
    CHECK_FALSE(at_limit.changed);
    auto out = controllers::run_graceful_eviction(b, defaults, 1061);
    CHECK(out.tasks[0].fate == task_fate::timed_out);
    CHECK(out.tasks[1].fate == task_fate::waiting);
    CHECK(out.tasks[1].ends_by == 1600);
    auto s = defaults;
    s.graceful_eviction_timeout = 30;
    auto b2 = with_tasks({task("dr", 1000)});
    CHECK(controllers::run_graceful_eviction(b2, s, 1031).tasks[0].fate == task_fate::timed_out);
}

TEST_CASE("healthy targets end the task only when scheduled and every target reports Healthy")
{
    auto b = with_tasks({task("idc", 1000)});
    b.aggregated_status = {{"cloud-east-1", "Healthy"}};
    CHECK(controllers::run_graceful_eviction(b, defaults, 1001).tasks[0].fate == task_fate::targets_healthy);
    CHECK(b.graceful_eviction_tasks.empty());

    auto stale = with_tasks({task("idc", 1000)});
    stale.aggregated_status = {{"cloud-east-1", "Healthy"}};
    stale.scheduler_observed_generation = 4;
    CHECK(controllers::run_graceful_eviction(stale, defaults, 1001).tasks[0].fate == task_fate::waiting);

    auto unknown = with_tasks({task("idc", 1000)});
    unknown.aggregated_status = {{"cloud-east-1", "Unknown"}};
    CHECK(controllers::run_graceful_eviction(unknown, defaults, 1001).tasks[0].fate == task_fate::waiting);

    auto vacuous = with_tasks({task("idc", 1000)});
    vacuous.clusters.clear();
    CHECK(controllers::run_graceful_eviction(vacuous, defaults, 1001).tasks[0].fate == task_fate::targets_healthy);
}

TEST_CASE("purgeMode is not consulted, and a binding being deleted is skipped")
{
    auto directly = task("idc", 0);
    directly.purge_mode = "Directly";
    auto b = with_tasks({directly});
    CHECK(controllers::run_graceful_eviction(b, defaults, 601).tasks[0].fate == task_fate::timed_out);
    auto deleting = with_tasks({task("idc", 0)});
    deleting.deleting = true;
    CHECK(controllers::run_graceful_eviction(deleting, defaults, 601).tasks.empty());
    CHECK(deleting.graceful_eviction_tasks.size() == 1);
}
