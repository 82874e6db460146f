#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmarks `lint` on a generated corpus (default 10,000 policies in 100 files): documents per second
# and peak RSS, side by side in the same run with a baseline that only parses the same YAML
# (PyYAML with libyaml's C loader: the floor for "read these documents at all").
#   tests/bench/lint_bench.sh [POLICIES] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
policies=${1:-10000}
runs=${2:-5}
need=()
for p in time python3-yaml; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p"); done
[ ${#need[@]} -eq 0 ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null; }
build=${BUILD_DIR:-build} # the build directory to benchmark (BUILD_DIR=build-x to use another)
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
ninja -C "$build" >/dev/null
bin=$build/webhook/karmada-policy-webhook

corpus=$(mktemp -d) out=$(mktemp -d) # out: timings, stderr and the report, outside what lint reads
trap 'rm -rf "$corpus" "$out"' EXIT
/usr/bin/python3 tests/bench/gen_policies.py "$corpus" --policies "$policies"
bytes=$(cat "$corpus"/*.yaml | wc -c)

# fail_unless_ok RC MAX NAME: stop the benchmark when NAME exited with more than MAX (lint: 1 = findings,
# 2 = it could not run; a crash is 128 + signal): no timing is published for a run that failed.
fail_unless_ok() {
  [ "$1" -le "$2" ] && return 0
  echo "$3: exit status $1 (expected 0$([ "$2" -ge 1 ] && echo ' or 1')); stderr:" >&2
  tail -n 5 "$out/stderr.txt" >&2
  exit 1
}

# measure NAME MAX_STATUS CMD...: best wall time of $runs runs and the peak RSS of that run.
measure() {
  local name=$1 max=$2; shift 2
  local best="" rss="" rc
  for _ in $(seq "$runs"); do
    rc=0
    /usr/bin/time -f 'kpw-time %e %M' -o "$out/time.txt" "$@" >/dev/null 2>"$out/stderr.txt" || rc=$?
    fail_unless_ok "$rc" "$max" "$name"
    # GNU time prepends "Command exited with non-zero status N" when lint reports denials (exit 1).
    read -r _ t m < <(grep '^kpw-time ' "$out/time.txt")
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; rss=$m; fi
  done
  awk -v n="$name" -v t="$best" -v m="$rss" -v d="$policies" \
    'BEGIN{printf "%-34s %8.3f s  %10.0f docs/s  %8.1f MiB peak RSS\n", n, t, (t>0?d/t:0), m/1024}'
}

echo "corpus: $policies policies, $(ls "$corpus"/*.yaml | wc -l) files, $((bytes / 1024)) KiB; best of $runs runs"
measure "karmada-policy-webhook lint" 1 "$bin" lint -o json "$corpus"
measure "baseline: PyYAML CSafeLoader parse" 0 /usr/bin/python3 -c '
import sys, glob, yaml
n = 0
for f in sorted(glob.glob(sys.argv[1] + "/*.yaml")):
    with open(f) as fh:
        n += sum(1 for _ in yaml.load_all(fh, Loader=yaml.CSafeLoader))
' "$corpus"
rc=0
"$bin" lint -o json "$corpus" >"$out/report.json" 2>"$out/stderr.txt" || rc=$?
fail_unless_ok "$rc" 1 "karmada-policy-webhook lint"
/usr/bin/python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print("lint summary:", s)' "$out/report.json"
