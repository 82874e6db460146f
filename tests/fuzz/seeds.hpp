// SPDX-License-Identifier: Apache-2.0
// Seed inputs for every fuzz target, derived from the repository's fixture manifests.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kpw::fuzz {

struct seed {
    std::string name; // a file name: unique within one target
    std::string bytes;
};

// The fixture roots below the source root: tests/data, manifests/examples and tests/fuzz/policies
// (policies written to reach the rules no fixture exercises).
std::vector<std::filesystem::path> fixture_roots(const std::filesystem::path& source_root);

// The max_len of the targets that read a stream of clusters, workloads, bindings and policies
// (tests/fuzz/options/{schedule,reschedule}.options; a test keeps them equal): every seed of theirs fits.
inline constexpr std::size_t stream_max_len = 16384;

// Seeds for `target` (a name from all_targets()): for manifest the fixture files themselves and their
// documents as JSON; for admission_review each policy wrapped in v1/v1beta1 CREATE/UPDATE/DELETE
// reviews (with the permanent-id label Karmada's mutating webhook adds); for http_request those
// reviews as HTTP/1.1 requests (plain, chunked, 100-continue, pipelined) plus probe requests; for
// schedule each fixture with the example clusters it names and the example workloads; for reschedule
// each binding fixture with each policy document, the workloads and the clusters they name.
std::vector<seed> make_seeds(std::string_view target, const std::vector<std::filesystem::path>& roots);

// The files of a corpus directory (a target's regressions), sorted by name; missing directory: none.
std::vector<seed> read_corpus(const std::filesystem::path& dir);

} // namespace kpw::fuzz
