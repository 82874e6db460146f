// SPDX-License-Identifier: Apache-2.0
// Fuzz target (11): the first line is a --karmada-version value, the rest a CustomResourceDefinition or a
// policy (YAML or JSON) -> settings::parse_karmada_version, schema::release_of_crd, and validate_manifest
// under every supported release.
#include <string>

#include "doc/load.hpp"
#include "schema/crd_release.hpp"
#include "schema/schema.hpp"
#include "settings/karmada_release.hpp"
#include "targets.hpp"
#include "validate.hpp"

namespace kpw::fuzz {
namespace {

constexpr std::string_view name = "karmada_release";

void check_version(std::string_view text)
{
    auto r = settings::parse_karmada_version(text);
    if (r) {
        // The release named must be of the minor asked for: "v1.17.x" never answers as v1.18.2.
        const std::string_view release = settings::release_name(*r);
        const std::string_view minor = release.substr(1, release.rfind('.') - 1); // "1.17"
        std::string_view asked = text.starts_with('v') ? text.substr(1) : text;
        if (!asked.starts_with(minor) || (asked.size() > minor.size() && asked[minor.size()] != '.'))
            invariant_failed(name, "a version answered as a release of another minor");
    } else if (r.error().message.find("v1.16 (v1.16.0), v1.17 (v1.17.1), v1.18 (v1.18.2)") == std::string::npos) {
        invariant_failed(name, "a refused version whose message does not list the supported releases");
    }
}

void check_crd(const doc::value& crd)
{
    const schema::crd_release got = schema::release_of_crd(crd);
    if (got.reason.empty())
        invariant_failed(name, "a release read off a CRD without saying why");
    if (got.newer_than_newest && got.release != settings::newest_karmada_release)
        invariant_failed(name, "a newer Karmada answered as an older release");
}

// Under each release, the object Karmada would store holds no field that release's CRD lacks: the tiers of
// v1.18 never reach a v1.17 scheduler.
void check_policy(const doc::value& object)
{
    const auto kind = policy_kind_of(object.string_at("apiVersion"), object.string_at("kind"));
    if (!kind)
        return;
    for (auto release : settings::supported_karmada_releases()) {
        validation_options options;
        options.release = release;
        const manifest_verdict v = validate_manifest(*kind, object, "default", options);
        const schema::node* crd = schema::crd_schema(kind_name(*kind), release);
        if (!crd)
            invariant_failed(name, "a release without the policy CRD");
        for (const auto& f : schema::unknown_fields(*crd, v.defaulted))
            if (!f.api_path.starts_with("metadata") && settings::change_adding_field(f.api_path))
                invariant_failed(name, "a field of a later release survived into the stored object");
    }
}

} // namespace

int karmada_release(bytes data)
{
    const std::string_view text = as_text(data);
    const auto newline = text.find('\n');
    check_version(text.substr(0, newline));
    if (newline == std::string_view::npos)
        return 0;
    auto docs = doc::load_yaml(text.substr(newline + 1));
    if (!docs)
        return 0;
    for (const auto& d : *docs) {
        if (!d.root.is_mapping())
            continue;
        if (d.root.string_at("kind") == "CustomResourceDefinition")
            check_crd(d.root);
        else
            check_policy(d.root);
    }
    return 0;
}

} // namespace kpw::fuzz
