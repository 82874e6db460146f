// SPDX-License-Identifier: Apache-2.0
// The floor under any review: RapidJSON reading the review with a handler that stores nothing, in
// the mode doc::parse_json uses (in situ on a private copy, numbers as strings, SSE2 string scan).
// No decoder built on RapidJSON can answer a review faster than this; serve_bench.sh prints it next
// to review_bench to show how much of the review is the parser itself.
//   json_scan_bench REVIEW.json [ITERATIONS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#if defined(__SSE2__) && !defined(RAPIDJSON_SSE2)
#define RAPIDJSON_SSE2
#endif
#include <rapidjson/reader.h>

namespace {

// Touches every event so that nothing is optimised away.
struct counting_handler : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, counting_handler> {
    std::size_t events = 0;
    bool Default()
    {
        ++events;
        return true;
    }
    bool String(const char*, rapidjson::SizeType, bool) { return Default(); }
    bool Key(const char*, rapidjson::SizeType, bool) { return Default(); }
    bool RawNumber(const char*, rapidjson::SizeType, bool) { return Default(); }
};

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: json_scan_bench REVIEW.json [ITERATIONS]\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    const long iterations = argc > 2 ? std::atol(argv[2]) : 200000;

    std::string buffer;
    buffer.reserve(text.size() + 16); // RapidJSON's SSE2 scan may read up to 15 bytes past the end
    std::size_t events = 0;
    bool ok = true;
    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < iterations; ++i) {
        buffer.assign(text);
        rapidjson::InsituStringStream stream(buffer.data());
        rapidjson::Reader reader;
        counting_handler handler;
        constexpr unsigned flags =
            rapidjson::kParseInsituFlag | rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseStopWhenDoneFlag;
        ok = ok && !reader.Parse<flags>(stream, handler).IsError();
        events += handler.events;
    }
    const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
    std::printf("%ld RapidJSON scans of %zu B (no tree): %.2f us/scan, %zu events each%s\n", iterations, text.size(),
                took.count() / static_cast<double>(iterations), events / static_cast<std::size_t>(iterations),
                ok ? "" : ", PARSE ERROR");
    return ok ? 0 : 1;
}
