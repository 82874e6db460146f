#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The floor of live_snapshot_bench.sh: every page of each list `lint --kubeconfig` reads (limit 500,
# following continue), fetched as lint asks for them (HTTP/1.1, JSON, no gzip) into a scratch file: the
# API servers' time to serve the pages, and nothing decoded.
#   tests/bench/live_floor.sh SERVER CA_FILE CERT_FILE KEY_FILE SCRATCH_DIR
# The User-Agent is not curl's: kube-apiserver indents its replies to curl.
set -euo pipefail
[ $# -eq 5 ] || { echo "usage: $0 SERVER CA_FILE CERT_FILE KEY_FILE SCRATCH_DIR" >&2; exit 2; }
server=$1 ca=$2 cert=$3 key=$4 page=$5/page.json
for path in /apis/cluster.karmada.io/v1alpha1/clusters /apis/policy.karmada.io/v1alpha1/clustertaintpolicies \
  /apis/work.karmada.io/v1alpha2/resourcebindings /apis/work.karmada.io/v1alpha2/clusterresourcebindings; do
  token=""
  while :; do
    url="$server$path?limit=500"
    [ -z "$token" ] || url="$url&continue=$token"
    curl -sf --http1.1 -A kpw-live-floor --cacert "$ca" --cert "$cert" --key "$key" "$url" -o "$page"
    # The continue token: in the metadata, which the aggregated API server writes first, kube-apiserver
    # (custom resources) last.
    token=$( (head -c 4096 "$page"; tail -c 4096 "$page") | grep -o '"continue":"[^"]*"' | head -n 1 | cut -d'"' -f4 || true)
    [ -n "$token" ] || break
  done
done
