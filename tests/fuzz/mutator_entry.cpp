// SPDX-License-Identifier: Apache-2.0
// libFuzzer custom mutator for a target with a structure-aware editor (KPW_FUZZ_MUTATOR names it):
// three times in four the document tree is edited, otherwise (and when the input does not load or
// the result is too long) libFuzzer's own byte mutations, dictionary included, run.
// KPW_FUZZ_BYTES_ONLY=1 in the environment turns the editor off (to measure what it adds).
#include <cstdlib>
#include <cstring>

#include "schedule_mutator.hpp"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed);

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed)
{
    static const bool bytes_only = std::getenv("KPW_FUZZ_BYTES_ONLY") != nullptr;
    if (!bytes_only && seed % 4 != 0) {
        const auto edited = kpw::fuzz::KPW_FUZZ_MUTATOR({reinterpret_cast<const char*>(data), size}, seed);
        if (edited && !edited->empty() && edited->size() <= max_size) {
            std::memcpy(data, edited->data(), edited->size());
            return edited->size();
        }
    }
    return LLVMFuzzerMutate(data, size, max_size);
}
