// SPDX-License-Identifier: Apache-2.0
// libFuzzer entry point; compiled once per target with KPW_FUZZ_TARGET naming the function.
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return kpw::fuzz::KPW_FUZZ_TARGET(kpw::fuzz::bytes(data, size));
}
