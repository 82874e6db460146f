#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# lint's wall time and peak memory on a large dry run, a baseline binary and a new one side by side in one
# run, on one corpus of tests/bench/gen_dry_run.py (CLUSTERS clusters, WORKLOADS policies claiming one
# Deployment each), with -o text, -o json and -o json --explain. The baseline's -o json runs on
# BASE_JSON_WORKLOADS workloads only, as its rows would not fit (before the explain rows became opt-in, -o json
# of 10,000 x 5,000 grew past 17 GiB).
#   BASE=path/to/old/karmada-policy-webhook tests/bench/lint_memory_bench.sh [CLUSTERS] [WORKLOADS] [BASE_JSON_WORKLOADS]
# NEW (default build/webhook/karmada-policy-webhook) is the binary under test; the two text outputs must be
# identical.
set -euo pipefail
cd "$(dirname "$0")/../.."
clusters=${1:-5000}
workloads=${2:-10000}
base_json=${3:-1000}
new=${NEW:-build/webhook/karmada-policy-webhook}
base=${BASE:?BASE=the baseline karmada-policy-webhook binary}
c=$(mktemp -d)
trap 'rm -rf "$c"' EXIT
python3 tests/bench/gen_dry_run.py "$c" --clusters "$clusters" --policies "$workloads"
python3 - "$c" "$base_json" <<'PY'
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
for name in ("policies", "workloads"):
    doc = json.load(open(f"{d}/{name}.json"))
    json.dump(dict(doc, items=doc["items"][:n]), open(f"{d}/small-{name}.json", "w"))
PY

# measure NAME BIN [lint args]: one run under GNU time (exit 0 or 1 is a run).
measure() {
  local name=$1 bin=$2 rc=0 load
  shift 2
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f '%e %M' -o "$c/time" "$bin" lint "$@" >"$c/out" 2>"$c/err" || rc=$?
  [ "$rc" -le 1 ] || { echo "$name: exit status $rc"; tail -n 5 "$c/err"; exit 1; }
  read -r wall rss < <(tail -n 1 "$c/time")
  printf '%-34s wall %7.2f s  peak RSS %8.1f MiB  output %8.1f MiB  load %s\n' "$name" "$wall" \
    "$(awk -v k="$rss" 'BEGIN{print k/1024}')" "$(awk -v b="$(stat -c %s "$c/out")" 'BEGIN{print b/1048576}')" "$load"
}

full=(--clusters "$c/clusters.json" --workloads "$c/workloads.json" "$c/policies.json")
small=(--clusters "$c/clusters.json" --workloads "$c/small-workloads.json" "$c/small-policies.json")
echo "corpus: $clusters clusters, $workloads workloads (small: $base_json)"
for run in base new; do
  bin=$base; [ $run = new ] && bin=$new
  measure "$run text $workloads" "$bin" "${full[@]}"
  mv "$c/out" "$c/$run-text.out"
  measure "$run json $base_json" "$bin" -o json "${small[@]}"
  measure "$run json --explain $base_json" "$bin" -o json --explain "${small[@]}"
done
measure "new json $workloads" "$new" -o json "${full[@]}"
if cmp -s "$c/base-text.out" "$c/new-text.out"; then
  echo "text output: identical"
else
  echo "text output: DIFFERS"; diff "$c/base-text.out" "$c/new-text.out" | head -n 20; exit 1
fi
