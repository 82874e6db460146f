// SPDX-License-Identifier: Apache-2.0
// Runs every fuzz target over its seeds and its regression corpus (past findings), in every build.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "doc/load.hpp"
#include "doc/value.hpp"
#include "schedule_mutator.hpp"
#include "seeds.hpp"
#include "stream_inputs.hpp"
#include "targets.hpp"

namespace {

namespace fs = std::filesystem;
using namespace kpw::fuzz;

int run_on(const target& t, const seed& s)
{
    return t.run(bytes(reinterpret_cast<const std::uint8_t*>(s.bytes.data()), s.bytes.size()));
}

const fs::path fuzz_root = fs::path(KPW_SOURCE_ROOT) / "tests" / "fuzz";

// tests/fuzz/committed_inputs.txt: "corpus/<target> N" and "regressions/<target> N" lines.
std::map<std::string, std::size_t> committed_inputs()
{
    std::ifstream in(fuzz_root / "committed_inputs.txt");
    REQUIRE_MESSAGE(in, "tests/fuzz/committed_inputs.txt is missing");
    std::map<std::string, std::size_t> out;
    std::string dir;
    for (std::size_t n = 0; in >> dir;) {
        if (dir.starts_with("#")) {
            std::getline(in, dir);
            continue;
        }
        const bool counted = static_cast<bool>(in >> n);
        REQUIRE_MESSAGE(counted, "no count after " << dir);
        out[dir] = n;
    }
    return out;
}

// The inputs of tests/fuzz/<dir>: the directory exists and holds at least the committed number.
std::vector<seed> committed_corpus(const std::string& dir, std::size_t committed)
{
    CAPTURE(dir);
    REQUIRE_MESSAGE(fs::is_directory(fuzz_root / dir), "missing directory tests/fuzz/" << dir);
    auto inputs = read_corpus(fuzz_root / dir);
    REQUIRE_MESSAGE(!inputs.empty(), "tests/fuzz/" << dir << " is empty");
    REQUIRE_MESSAGE(inputs.size() >= committed, "tests/fuzz/" << dir << " holds " << inputs.size()
                                                               << " inputs, " << committed << " are committed");
    return inputs;
}

} // namespace

TEST_CASE("every fuzz target has seeds built from the fixtures and accepts them")
{
    for (const target& t : all_targets()) {
        CAPTURE(t.name);
        const auto seeds = make_seeds(t.name, fixture_roots(KPW_SOURCE_ROOT));
        CHECK(seeds.size() >= 10);
        for (const seed& s : seeds) {
            CAPTURE(s.name);
            CHECK(run_on(t, s) == 0);
        }
    }
}

TEST_CASE("every schedule and reschedule seed fits the max_len their campaigns run with")
{
    // A longer seed would be cut by libFuzzer: a cut JSON List does not load, a cut YAML stream loses its policy.
    for (std::string_view target : {"schedule", "reschedule"}) {
        CAPTURE(target);
        std::ifstream options(fs::path(KPW_SOURCE_ROOT) / "tests" / "fuzz" / "options" / (std::string(target) + ".options"));
        std::string line, max_len;
        while (std::getline(options, line))
            if (line.starts_with("max_len = "))
                max_len = line.substr(10);
        REQUIRE(max_len == std::to_string(stream_max_len));
        for (const seed& s : make_seeds(target, fixture_roots(KPW_SOURCE_ROOT))) {
            CAPTURE(s.name);
            CHECK(s.bytes.size() <= stream_max_len);
        }
    }
}

TEST_CASE("a stream seed's JSON List reads as the same objects given one document each in YAML")
{
    // The seeds are JSON Lists (RapidJSON's path); lint reads a policy file's List items as policies
    // and the inventories take a List's items: the objects kept must not depend on the form.
    std::size_t with_policies = 0;
    for (const char* target : {"schedule", "reschedule"}) {
        for (const seed& s : make_seeds(target, fixture_roots(KPW_SOURCE_ROOT))) {
            CAPTURE(s.name);
            auto list = kpw::doc::parse_json(s.bytes);
            if (!list || !kpw::doc::list_items(*list))
                continue; // the raw-YAML snapshot seed
            std::string yaml;
            for (const kpw::doc::value& item : kpw::doc::list_items(*list)->items())
                yaml += "---\n" + kpw::doc::to_json(item) + "\n";
            const stream_limits limits{.policies = 4, .workloads = 8, .bindings = 4};
            stream_inputs from_json, from_yaml;
            REQUIRE(read_stream_inputs(s.bytes, limits, from_json));
            REQUIRE(read_stream_inputs(yaml, limits, from_yaml));
            CHECK(from_json.clusters.clusters().size() == from_yaml.clusters.clusters().size());
            CHECK(from_json.workloads.size() == from_yaml.workloads.size());
            CHECK(from_json.policies.size() == from_yaml.policies.size());
            CHECK(from_json.bindings.size() == from_yaml.bindings.size());
            with_policies += from_json.policies.empty() ? 0 : 1;
        }
    }
    CHECK(with_policies >= 50); // 77 today: most fixtures hold policies Karmada admits
}

TEST_CASE("every past finding of a fuzz target still runs cleanly")
{
    // tests/fuzz/regressions/<target>/: each file once crashed or hung its target (see RELIABILITY.md);
    // an invariant violation aborts this test, a sanitizer build reports memory errors.
    const auto committed = committed_inputs();
    std::size_t targets_with_findings = 0;
    for (const target& t : all_targets()) {
        CAPTURE(t.name);
        const auto it = committed.find("regressions/" + std::string(t.name));
        if (it == committed.end()) {
            CHECK_MESSAGE(!fs::exists(fuzz_root / "regressions" / t.name), "count its files in committed_inputs.txt");
            continue;
        }
        ++targets_with_findings;
        for (const seed& s : committed_corpus(it->first, it->second)) {
            CAPTURE(s.name);
            CHECK(run_on(t, s) == 0);
        }
    }
    CHECK(targets_with_findings >= 5);
}

TEST_CASE("every input of the committed corpus runs cleanly through its target")
{
    // tests/fuzz/corpus/<target>/: the minimised corpus the long campaigns grew (RELIABILITY.md).
    // Every target has one; a missing, empty or shrunken directory fails rather than replaying nothing.
    const auto committed = committed_inputs();
    for (const target& t : all_targets()) {
        CAPTURE(t.name);
        const auto it = committed.find("corpus/" + std::string(t.name));
        REQUIRE_MESSAGE(it != committed.end(), "no corpus/" << t.name << " line in committed_inputs.txt");
        for (const seed& s : committed_corpus(it->first, it->second)) {
            CAPTURE(s.name);
            CHECK(run_on(t, s) == 0);
        }
    }
}

TEST_CASE("the schedule editor gives loadable documents that differ from seed to seed")
{
    const auto seeds = make_seeds("schedule", fixture_roots(KPW_SOURCE_ROOT));
    REQUIRE(!seeds.empty());
    const target& schedule = *std::find_if(all_targets().begin(), all_targets().end(),
                                           [](const target& t) { return t.name == "schedule"; });
    std::set<std::string> distinct;
    for (std::uint32_t k = 1; k <= 40; ++k) {
        const seed& s = seeds[k % seeds.size()];
        CAPTURE(s.name);
        CAPTURE(k);
        const auto edited = edit_schedule_input(s.bytes, k);
        REQUIRE(edited.has_value());
        // One JSON List: what the target reads through RapidJSON rather than the YAML scanner.
        const auto list = kpw::doc::parse_json(*edited);
        REQUIRE(static_cast<bool>(list));
        CHECK(kpw::doc::list_items(*list) != nullptr);
        CHECK(run_on(schedule, {s.name, *edited}) == 0);
        distinct.insert(*edited);
    }
    CHECK(distinct.size() >= 30);
    CHECK_FALSE(edit_schedule_input("", 1).has_value());
}

TEST_CASE("the schedule editor edits a remembered input as it edits the same input loaded afresh")
{
    const auto seeds = make_seeds("schedule", fixture_roots(KPW_SOURCE_ROOT));
    REQUIRE(!seeds.empty());
    for (std::uint32_t k = 1; k <= 60; ++k) {
        const seed& s = seeds[k % seeds.size()];
        // libFuzzer's seeds are random 32-bit words: small consecutive ones would pick the same edits.
        const std::uint32_t edit = k * 2654435761u, next = edit ^ 0x9e3779b9u;
        CAPTURE(s.name);
        CAPTURE(edit);
        forget_loaded_inputs();
        const auto first = edit_schedule_input(s.bytes, edit);
        REQUIRE(first.has_value());
        // Loaded once: the same bytes again, and the output (remembered as edited) edited once more,
        // the way libFuzzer chains mutations.
        const auto again = edit_schedule_input(s.bytes, edit);
        const auto chained = edit_schedule_input(*first, next);
        CHECK(again == first);
        forget_loaded_inputs();
        CHECK(chained == edit_schedule_input(*first, next));
        forget_loaded_inputs();
        CHECK(again == edit_schedule_input(s.bytes, edit));
    }
}

TEST_CASE("the smallest inputs run cleanly through every target")
{
    const std::string inputs[] = {"", "\n", "{", "---", std::string(1, '\0'), "POST / HTTP/1.1\r\n\r\n", "[[[[[[[[", "a: *b"};
    for (const target& t : all_targets())
        for (const std::string& in : inputs) {
            CAPTURE(t.name);
            CHECK(run_on(t, {"tiny", in}) == 0);
        }
}

TEST_CASE("finding: bytes that are not UTF-8 are encoded as U+FFFD, as Go's encoding/json does")
{
    // fuzz_http_request: a Content-Type of "applicatio\xee/json" was echoed into the 400 message, and
    // the reply was not valid JSON. Every JSON string the webhook writes now goes through this rule.
    std::string out;
    kpw::doc::append_json_string(out, "a\xee/b\xc3\x28 \xed\xa0\x80 \xe2\x80\xa8 \xc3\xa9");
    CHECK(out == R"("a\ufffd/b\ufffd( \ufffd\ufffd\ufffd \u2028 )" "\xc3\xa9\"");
}

TEST_CASE("finding: a \\u escape of a lone surrogate decodes to U+FFFD, as Go's encoding/json does")
{
    // fuzz_admission_review (campaign, 7.6M executions): request.uid "a\udfffb" was decoded into the
    // surrogate's bytes ED BF BF, which the encoder wrote back as three U+FFFD: the reply's uid was not
    // the request's. Go decodes the escape as one U+FFFD; so does parse_json now, in keys too.
    const auto parsed = kpw::doc::parse_json(R"({"uid":"a\udfffb","k\udc00":"\ud83d\ude00"})");
    REQUIRE(parsed);
    CHECK(parsed->string_at("uid") == "a\xef\xbf\xbd" "b");
    CHECK(parsed->string_at("k\xef\xbf\xbd") == "\xf0\x9f\x98\x80");
    CHECK(kpw::doc::to_json(*parsed) == "{\"uid\":\"a\xef\xbf\xbd" "b\",\"k\xef\xbf\xbd\":\"\xf0\x9f\x98\x80\"}");
}
