// SPDX-License-Identifier: Apache-2.0
// --karmada-version: which Karmada release lint, simulate, plan and serve answer for, and how it was
// decided (the flag, the server's policy CRD, or the default).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "base/result.hpp"
#include "settings/karmada_release.hpp"

namespace kpw::kube {
class client;
}

namespace kpw::cli {

struct karmada_version_choice {
    settings::karmada_release release = settings::newest_karmada_release;
    std::string decided_by; // "--karmada-version v1.17", "the server: ...", "" for the default
};

// Adds --karmada-version to `sub`, its value kept in `flag`.
void add_karmada_version_flag(CLI::App& sub, std::string& flag);

// The flag's release, or the default (newest) when it is empty. A value that names no supported release
// is a failure listing the supported ones.
result<karmada_version_choice> karmada_version_of(const std::string& flag);

// With a live client: the flag wins; without it, the server's policy CRD decides (schema::release_of_crd).
// A flag that disagrees with the server, a server that cannot be read (RBAC: get
// customresourcedefinitions) or a newer Karmada than the newest supported: a warning on stderr naming
// `command`, never a failure.
karmada_version_choice karmada_version_with_server(const std::string& flag, kube::client& client, const char* command);

} // namespace kpw::cli
