#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Dry-run scheduling benchmark.
#  1. schedule_bench (in-process, no YAML): claim + schedule of P policies (one workload each) over N
#     generated clusters, best of RUNS; three cluster counts at 1,000 policies and three policy counts at
#     5,000 clusters, so growth in clusters x workloads shows (target: 5,000 x 1,000 in <= 1 s).
#  2. lint end to end on the same shapes generated as files (gen_dry_run.py): validation only, then with
#     --clusters, then with --clusters --workloads; the differences are snapshot loading and the dry run.
#   tests/bench/schedule_bench.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-3}
build=${BUILD_DIR:-build} # the build directory to benchmark (BUILD_DIR=build-x to use another)
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
ninja -C "$build" webhook/karmada-policy-webhook tests/bench/schedule_bench >/dev/null
bench=$build/tests/bench/schedule_bench
bin=$build/webhook/karmada-policy-webhook

echo "== in-process dry run (claim + schedule), best of $runs =="
for n in 1250 2500 5000; do "$bench" "$n" 1000 "$runs"; done
for p in 250 500; do "$bench" 5000 "$p" "$runs"; done

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
python3 tests/bench/gen_dry_run.py "$corpus" --clusters 5000 --policies 1000
best() { # best wall time of $runs runs of "$@"; lint's exit 1 (findings) is a run, anything else stops the benchmark
  local b="" rc
  for _ in $(seq "$runs"); do
    local s e
    rc=0
    s=$(date +%s.%N); "$@" >/dev/null 2>"$corpus/stderr.txt" || rc=$?; e=$(date +%s.%N)
    if [ "$rc" -gt 1 ]; then
      { echo "$*: exit status $rc (expected 0 or 1); stderr:"; tail -n 5 "$corpus/stderr.txt"; } >&2
      return 1
    fi
    b=$(awk -v b="$b" -v t="$(awk -v s="$s" -v e="$e" 'BEGIN{print e-s}')" 'BEGIN{print (b=="" || t<b) ? t : b}')
  done
  echo "$b"
}
echo "== lint end to end: 5,000 clusters ($(( $(stat -c %s "$corpus/clusters.json") / 1024 )) KiB JSON), 1,000 policies + workloads =="
t0=$(best "$bin" lint -o json "$corpus/policies.json")
t1=$(best "$bin" lint -o json --clusters "$corpus/clusters.json" "$corpus/policies.json")
t2=$(best "$bin" lint -o json --clusters "$corpus/clusters.json" --workloads "$corpus/workloads.json" "$corpus/policies.json")
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN{
  printf "validation only                         %6.3f s\n", a
  printf "+ --clusters (load snapshot, warnings)  %6.3f s  (+%.3f s)\n", b, b-a
  printf "+ --workloads (claim + schedule)        %6.3f s  (+%.3f s dry run)\n", c, c-b }'
