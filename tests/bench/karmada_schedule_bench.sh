#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Karmada as the anchor of the dry run (issue 25 §5): on one corpus of tests/bench/gen_dry_run.py
# (CLUSTERS clusters, WORKLOADS policies claiming one Deployment each), side by side in one run:
#  1. first time: karmada-schedule-bench (Karmada's detector rule and native interpreter build the bindings,
#     then core.NewGenericScheduler + Schedule per binding, tests/conformance/cmd/karmada-schedule-bench)
#     and `karmada-policy-webhook lint -o json --clusters --workloads` on the same files;
#  2. steady re-plan: the bindings Karmada's first run placed (written by karmada-schedule-bench, as
#     `kubectl get rb -o json` prints them), every Deployment scaled up by two replicas, so each binding is
#     re-scheduled in Steady mode: karmada-schedule-bench --bindings and lint --bindings on the same files.
# Wall time, CPU time and peak RSS of each process (GNU time), the load average before each run, and
# Karmada's per-phase figures (read / bind / schedule). Last, whether lint placed every workload where
# Karmada did (first time and steady), and replan_bench's in-process figures at the same size.
#   tests/bench/karmada_schedule_bench.sh [CLUSTERS] [WORKLOADS] [RUNS]
# BUILD_DIR (default build) is the C++ build, GO_BIN_DIR (default $BUILD_DIR-go) where the Go command goes.
set -euo pipefail
cd "$(dirname "$0")/../.."
clusters=${1:-5000}
workloads=${2:-10000}
runs=${3:-1}
build=${BUILD_DIR:-build}
gobin=${GO_BIN_DIR:-$build-go}
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
nice ninja -C "$build" webhook/karmada-policy-webhook tests/bench/replan_bench >/dev/null
command -v go >/dev/null 2>&1 || PATH=$PATH:/usr/local/go/bin
mkdir -p "$gobin"
gobin=$(cd "$gobin" && pwd)
(cd tests/conformance && nice go build -o "$gobin/" ./cmd/karmada-schedule-bench)
bin=$build/webhook/karmada-policy-webhook
karmada=$gobin/karmada-schedule-bench

c=$(mktemp -d)
trap 'rm -rf "$c"' EXIT
python3 tests/bench/gen_dry_run.py "$c" --clusters "$clusters" --policies "$workloads"
# The same Deployments, two replicas more each (the scale-up that makes every binding re-plan).
python3 - "$c/workloads.json" "$c/workloads-scaled.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for w in doc["items"]:
    w["spec"]["replicas"] += 2
json.dump(doc, open(sys.argv[2], "w"))
PY

# measure NAME CMD...: one run under GNU time; prints "NAME wall_s= user_s= sys_s= peak_rss_kib= load=" and
# keeps the command's stdout in $c/NAME.out. Exit status 0 or 1 (lint's findings) is a run.
measure() {
  local name=$1; shift
  local load rc=0
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  /usr/bin/time -f '%e %U %S %M' -o "$c/$name.time" "$@" >"$c/$name.out" 2>"$c/$name.err" || rc=$?
  if [ "$rc" -gt 1 ]; then
    { echo "$name: exit status $rc"; tail -n 5 "$c/$name.err"; } >&2
    exit 1
  fi
  read -r wall user sys rss <"$c/$name.time"
  echo "$name wall_s=$wall user_s=$user sys_s=$sys peak_rss_kib=$rss load=${load// //}"
}

echo "== corpus: $clusters clusters ($(( $(stat -c %s "$c/clusters.json") / 1024 )) KiB), $workloads policies + Deployments; $(nproc) cores =="
for r in $(seq "$runs"); do
  echo "-- round $r: first time"
  measure karmada-first "$karmada" --clusters "$c/clusters.json" --policies "$c/policies.json" \
    --workloads "$c/workloads.json" --write-bindings "$c/bindings.json"
  grep '^RESULT' "$c/karmada-first.out"
  measure lint-first "$bin" lint -o json --clusters "$c/clusters.json" --workloads "$c/workloads.json" "$c/policies.json"
  echo "lint-first output: $(( $(stat -c %s "$c/lint-first.out") / 1048576 )) MiB of JSON"
  cp "$c/lint-first.out" "$c/lint-first.json"
  echo "-- round $r: steady re-plan (+2 replicas each)"
  measure karmada-steady "$karmada" --clusters "$c/clusters.json" --policies "$c/policies.json" \
    --workloads "$c/workloads-scaled.json" --bindings "$c/bindings.json" --write-bindings "$c/bindings-steady.json"
  grep '^RESULT' "$c/karmada-steady.out"
  measure lint-steady "$bin" lint -o json --clusters "$c/clusters.json" --workloads "$c/workloads-scaled.json" \
    --bindings "$c/bindings.json" "$c/policies.json"
  echo "lint-steady output: $(( $(stat -c %s "$c/lint-steady.out") / 1048576 )) MiB of JSON"
done

# Same work: the placements lint predicts against the ones Karmada's scheduler made.
python3 - "$c/bindings.json" "$c/lint-first.json" "$c/bindings-steady.json" "$c/lint-steady.out" <<'PY'
import json, sys
def karmada(path):
    out = {}
    for b in json.load(open(path))["items"]:
        r = b["spec"]["resource"]
        out[r["name"]] = sorted((t["name"], t.get("replicas", 0)) for t in b["spec"].get("clusters") or [])
    return out
def lint(path):
    out = {}
    for res in json.load(open(path))["results"]:
        for s in res.get("scheduling") or []:
            out[s["workload"]["name"]] = sorted((t["name"], t.get("replicas", 0)) for t in s.get("clusters") or [])
    return out
for what, k, l in (("first time", sys.argv[1], sys.argv[2]), ("steady re-plan", sys.argv[3], sys.argv[4])):
    k, l = karmada(k), lint(l)
    same = sum(1 for n in k if l.get(n) == k[n])
    diff = [n for n in k if n in l and l[n] != k[n]]
    print(f"{what}: lint places {same} of {len(k)} workloads exactly as Karmada's scheduler "
          f"({len(diff)} differ, {len(set(k) - set(l))} not in lint's report){'; e.g. ' + diff[0] if diff else ''}")
PY

echo "== in process (replan_bench $clusters $workloads 1: bench_corpus.hpp, same six shapes, 10 workloads per policy) =="
"$build/tests/bench/replan_bench" "$clusters" "$workloads" 1
