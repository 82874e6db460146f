// SPDX-License-Identifier: Apache-2.0
// The doctest main, linked into every test executable; tests live in the executables themselves.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
