// SPDX-License-Identifier: Apache-2.0
#include "support/paths.hpp"

#include <cstdio>
#include <cstdlib>

namespace kpw::test {

namespace {

// The variable's value; a test run outside meson test (which sets it) stops here, saying so.
const char* required(const char* name)
{
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
        std::fprintf(stderr, "%s is not set: run the tests with `meson test -C BUILD_DIR` (tests/meson.build sets it)\n",
                     name);
        std::exit(2);
    }
    return value;
}

} // namespace

const char* source_root() { return required("KPW_SOURCE_ROOT"); }
const char* test_data() { return required("KPW_TEST_DATA"); }
const char* kpw_binary() { return required("KPW_BINARY"); }

} // namespace kpw::test
