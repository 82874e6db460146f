// SPDX-License-Identifier: Apache-2.0
#include "kube/kubeconfig.hpp"
