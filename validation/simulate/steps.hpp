// SPDX-License-Identifier: Apache-2.0
// Applying one scenario step to the world: the change a person or the environment makes, before the
// controllers react (settle.hpp).
#pragma once

#include <string>

#include "simulate/engine.hpp"
#include "simulate/settle.hpp"

namespace kpw::simulate {

// Applies `s` at w.now and records what it enqueues for the scheduler and what it did in `log`
// (e.g. karmadactl's refusal of a taint that is already there). `inputs` holds the objects of the
// step's files (addCluster, applyPolicy); `gates` are the detector's (how it reads templates).
void apply_step(world& w, const step& s, const step_inputs& inputs, const settings::feature_gates& gates,
                step_log& log);

// The step's name, or "<action> <what>" when it has none ("scale Deployment/default/web to 30").
std::string step_label(const step& s);

} // namespace kpw::simulate
