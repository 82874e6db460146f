// SPDX-License-Identifier: Apache-2.0
// Paths the tests read, given at run time by meson test's environment (tests/meson.build, test setup
// "paths") rather than compiled in: a compile command holding an absolute path differs per clone, so
// ccache missed every test object of a clone at a new path (CI's clean clones; RELIABILITY.md, session
// 24). Every test source sees this header through -include; KPW_SOURCE_ROOT, KPW_TEST_DATA and
// KPW_BINARY are calls of these functions.
#pragma once

namespace kpw::test {

const char* source_root(); // the repository (KPW_SOURCE_ROOT)
const char* test_data();   // tests/data (KPW_TEST_DATA)
const char* kpw_binary();  // build/webhook/karmada-policy-webhook (KPW_BINARY)

} // namespace kpw::test
