// SPDX-License-Identifier: Apache-2.0
#include "targets.hpp"

namespace kpw::fuzz {

int kubeconfig(bytes) { return 0; }

} // namespace kpw::fuzz
