// SPDX-License-Identifier: Apache-2.0
// `--version` through the real binary: parseable, and naming the Karmada version tests/conformance/go.mod pins.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "support/process.hpp"

namespace {

std::vector<std::string> words_of(const std::string& line)
{
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string w; in >> w;)
        words.push_back(w);
    return words;
}

// The version of github.com/karmada-io/karmada that go.mod requires, read here independently of the
// build's own reading (both `require M v` and the block form); "" when there is none.
std::string karmada_in_go_mod()
{
    std::ifstream in(std::string(KPW_SOURCE_ROOT) + "/tests/conformance/go.mod");
    REQUIRE(in);
    bool in_require = false;
    for (std::string line; std::getline(in, line);) {
        const auto w = words_of(line.substr(0, line.find("//")));
        if (w.size() == 2 && w[0] == "require" && w[1] == "(")
            in_require = true;
        else if (w.size() == 1 && w[0] == ")")
            in_require = false;
        else if (in_require && w.size() == 2 && w[0] == "github.com/karmada-io/karmada")
            return w[1];
        else if (w.size() == 3 && w[0] == "require" && w[1] == "github.com/karmada-io/karmada")
            return w[2];
    }
    return "";
}

} // namespace

TEST_CASE("--version prints name and version first, then the Karmada version go.mod pins")
{
    const std::string pinned = karmada_in_go_mod();
    REQUIRE(pinned.starts_with("v"));
    const auto r = kpw::test::run_process({KPW_BINARY, "--version"});
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    const auto w = words_of(r.out);
    REQUIRE(w.size() >= 6);
    CHECK(w[0] == "karmada-policy-webhook");
    CHECK(w[1].find_first_not_of("0123456789.") == std::string::npos); // semantic version, no prefix
    // The default release is the one go.mod pins; --karmada-version lists every release, the pinned one last.
    CHECK(r.out == "karmada-policy-webhook " + w[1] + " (conforms to Karmada " + pinned +
                       "; --karmada-version: v1.16.0, v1.17.1, " + pinned + ")\n");
}
