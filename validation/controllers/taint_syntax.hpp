// SPDX-License-Identifier: Apache-2.0
// `karmadactl taint` / `kubectl taint` syntax: "KEY[=VALUE]:EFFECT" adds, "KEY[:EFFECT]-" removes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "model/cluster.hpp"

namespace kpw::controllers {

// One parsed taint argument. For a removal, an empty effect removes every taint with the key.
struct taint_change {
    bool remove = false;
    model::taint taint;
};

// karmada pkg/util/lifted/taint.go ParseTaints/parseTaint (lifted from kubectl's taint utils): a
// trailing "-" removes; the rest splits on ':' into key[=value] and effect; the effect must be
// NoSchedule, PreferNoSchedule or NoExecute; the key must be a qualified name and the value a label
// value; adding needs an effect. Failures carry kubectl's texts, e.g. "invalid taint spec: a=b=c:NoSchedule"
// or "invalid taint effect: Never, unsupported taint effect".
result<taint_change> parse_taint_spec(std::string_view spec);

// taint.ToString(): "key=value:Effect", "key:Effect", "key=value:" or "key".
std::string taint_spec_string(const model::taint& taint);

// The cluster's taints after `karmadactl taint clusters <name> <spec>` (pkg/karmadactl/taint/taint.go,
// no --overwrite) and the API server's handling of the update:
// * adding a taint whose key and effect exist fails with
//   "cluster <name> already has <key> taint(s) with same effect(s) and --overwrite is false";
// * the new taint comes first, the old ones follow in order (reorganizeTaints);
// * removing a taint that is not there fails with `taint "<spec>" not found`;
// * the Cluster validation rejects effects other than NoSchedule/NoExecute
//   (`spec.taints[0].effect: Unsupported value: "PreferNoSchedule": supported values: "NoSchedule", "NoExecute"`,
//   pkg/util/lifted/validateclustertaints.go);
// * a NoExecute taint without timeAdded gets `now` (pkg/apis/cluster/mutation mutateClusterTaints).
result<std::vector<model::taint>> apply_taint_change(const model::cluster& cluster, const taint_change& change,
                                                    model::timestamp now);

} // namespace kpw::controllers
