// SPDX-License-Identifier: Apache-2.0
#include "targets.hpp"

namespace kpw::fuzz {

int watch_event(bytes) { return 0; }

} // namespace kpw::fuzz
