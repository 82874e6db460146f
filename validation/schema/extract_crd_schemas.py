#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Maintenance step (not run by the build): writes karmada-policy-crd-schemas.json, the policy CRDs'
# schemas of every supported Karmada release, from the releases' own modules.
"""Usage: extract_crd_schemas.py OUTPUT.json VERSION...   (e.g. v1.16.0 v1.17.1 v1.18.2)

Each release's module is fetched through the Go module proxy (`go mod download -json
github.com/karmada-io/karmada@VERSION`, the source the conformance oracles are built from) and its
charts/karmada/_crds/bases/policy/policy.karmada.io_{propagationpolicies,clusterpropagationpolicies}.yaml
read. Descriptions are stripped (they are documentation, and most of the bytes); everything else is kept
as the CRD has it. Needs PyYAML (Debian: python3-yaml).
"""
import json
import subprocess
import sys

import yaml

KINDS = {"PropagationPolicy": "propagationpolicies", "ClusterPropagationPolicy": "clusterpropagationpolicies"}


def strip_descriptions(node):
    if isinstance(node, dict):
        return {k: strip_descriptions(v) for k, v in node.items() if k != "description"}
    if isinstance(node, list):
        return [strip_descriptions(v) for v in node]
    return node


def module_dir(version: str) -> tuple[str, str]:
    out = subprocess.run(["go", "mod", "download", "-json", f"github.com/karmada-io/karmada@{version}"],
                         check=True, capture_output=True, text=True, env=None)
    info = json.loads(out.stdout)
    return info["Dir"], info.get("Origin", {}).get("Hash", "")


def release(version: str) -> dict:
    directory, commit = module_dir(version)
    out = {"_source": f"karmada charts/karmada/_crds/bases/policy/policy.karmada.io_"
                      f"{{propagationpolicies,clusterpropagationpolicies}}.yaml @ {version}"
                      + (f" ({commit})" if commit else "") + " (descriptions stripped)"}
    for kind, plural in KINDS.items():
        with open(f"{directory}/charts/karmada/_crds/bases/policy/policy.karmada.io_{plural}.yaml",
                  encoding="utf-8") as f:
            crd = yaml.safe_load(f)
        served = [v for v in crd["spec"]["versions"] if v.get("served")]
        if len(served) != 1:
            raise SystemExit(f"{version} {kind}: expected one served version, found {len(served)}")
        out[kind] = {
            "scope": crd["spec"]["scope"],
            "group": crd["spec"]["group"],
            "plural": crd["spec"]["names"]["plural"],
            "version": served[0]["name"],
            "schema": strip_descriptions(served[0]["schema"]["openAPIV3Schema"]),
        }
    return out


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    data = {version: release(version) for version in sys.argv[2:]}
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
