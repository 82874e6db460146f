// SPDX-License-Identifier: Apache-2.0
#include "fake_apiserver.hpp"
