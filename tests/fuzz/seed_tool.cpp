// SPDX-License-Identifier: Apache-2.0
// fuzz_seeds TARGET OUT_DIR SOURCE_ROOT: writes TARGET's seed corpus (from the fixtures) into OUT_DIR.
#include <cstdio>
#include <fstream>

#include "seeds.hpp"
#include "targets.hpp"

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: fuzz_seeds TARGET OUT_DIR SOURCE_ROOT\n");
        return 2;
    }
    const std::filesystem::path out = argv[2];
    std::filesystem::create_directories(out);
    const auto seeds = kpw::fuzz::make_seeds(argv[1], kpw::fuzz::fixture_roots(argv[3]));
    if (seeds.empty()) {
        std::fprintf(stderr, "fuzz_seeds: no seeds for target %s\n", argv[1]);
        return 1;
    }
    for (const auto& s : seeds)
        std::ofstream(out / s.name, std::ios::binary) << s.bytes;
    return 0;
}
