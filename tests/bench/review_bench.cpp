// SPDX-License-Identifier: Apache-2.0
// In-process cost of one admission review, transport aside: the same admission::serve_review call
// the server makes per POST (envelope, JSON parse, decode, validation, encode), without TLS or HTTP.
// Used by serve_bench.sh to split serve's per-request time; run under callgrind for a profile.
//   review_bench REVIEW.json [ITERATIONS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "admission/policy_handler.hpp"
#include "admission/review_endpoint.hpp"

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: review_bench REVIEW.json [ITERATIONS]\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    const std::string body{std::istreambuf_iterator<char>(in), {}};
    const long iterations = argc > 2 ? std::atol(argv[2]) : 20000;
    const kpw::admission::policy_handler handler{kpw::admission::policy_handler_options{}};

    std::size_t bytes = 0;
    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < iterations; ++i)
        bytes += kpw::admission::serve_review(handler, "application/json", body).body.size();
    const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
    const auto last = kpw::admission::serve_review(handler, "application/json", body);
    std::printf("%ld reviews of %zu B: %.2f us/review (%.0f reviews/s on one core), reply %zu B, allowed=%s\n",
                iterations, body.size(), took.count() / static_cast<double>(iterations),
                static_cast<double>(iterations) / took.count() * 1e6, bytes / static_cast<std::size_t>(iterations),
                last.res.allowed ? "true" : "false");
}
