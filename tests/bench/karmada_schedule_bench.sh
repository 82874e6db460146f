#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Karmada as the anchor of the dry run (issue 25 §5), side by side in one run on one corpus of
# tests/bench/gen_dry_run.py (CLUSTERS clusters, WORKLOADS policies claiming one Deployment each):
#
#  Karmada: karmada-schedule-bench (tests/conformance/cmd/karmada-schedule-bench): Karmada's detector rule
#    and native interpreter build the bindings of all WORKLOADS templates, then core.NewGenericScheduler +
#    Schedule per binding. Karmada's scheduler needs tens of milliseconds per binding at 5,000 clusters, so
#    it schedules the first SAMPLE bindings (default 240: two full cycles of the generator's shapes and
#    sizes, which repeat every 120 workloads) and its full-size time is that times WORKLOADS / SAMPLE
#    (each binding is scheduled against the same snapshot, so the cost per binding does not depend on the
#    others). SAMPLE=0 schedules all of them.
#  lint: `karmada-policy-webhook lint --clusters --workloads [--bindings]` end to end (read, validate every
#    policy, claim, schedule, report) on the full corpus with -o text, and with -o json on the sample alone
#    (the first SAMPLE policies and Deployments, the same clusters): the same work as Karmada's sample.
#    -o json always carries every group's explain rows (one per cluster considered), which lint holds in
#    memory until it prints them: 2-3 MiB of RSS per workload at 5,000 clusters, so the full corpus
#    with -o json does not fit this machine's 24 GiB (stopped at 17 GiB and growing) and is not run.
#
#  1. first time: no binding has spec.clusters.
#  2. steady re-plan: every Deployment scaled up by two replicas, so every placed binding is re-scheduled
#     in Steady mode. Karmada and lint's sample run read the bindings Karmada's first run wrote; lint's
#     full run reads bindings written from its own first-time placements (bindings_from_lint.py; they are
#     Karmada's on the sample, checked below).
#
# Wall time, CPU time (user + sys) and peak RSS of every process (GNU time), the load average before each
# run, Karmada's phases (read / bind / schedule), whether lint placed every sampled workload as Karmada's
# scheduler did, and replan_bench's in-process figures at the same size.
#   tests/bench/karmada_schedule_bench.sh [CLUSTERS] [WORKLOADS] [SAMPLE]
# BUILD_DIR (default build) is the C++ build, GO_BIN_DIR (default $BUILD_DIR-go) where the Go command goes.
set -euo pipefail
cd "$(dirname "$0")/../.."
clusters=${1:-5000}
workloads=${2:-10000}
sample=${3:-240}
[ "$sample" -gt 0 ] && [ "$sample" -lt "$workloads" ] || sample=$workloads
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
# The sample as its own corpus, and every Deployment two replicas up (the scale-up that makes every
# binding re-plan).
python3 - "$c" "$sample" <<'PY'
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
for name in ("policies", "workloads"):
    doc = json.load(open(f"{d}/{name}.json"))
    json.dump(dict(doc, items=doc["items"][:n]), open(f"{d}/sample-{name}.json", "w"))
    if name == "workloads":
        for w in doc["items"]:
            w["spec"]["replicas"] += 2
        json.dump(doc, open(f"{d}/workloads-scaled.json", "w"))
        json.dump(dict(doc, items=doc["items"][:n]), open(f"{d}/sample-workloads-scaled.json", "w"))
PY

# measure NAME CMD...: one run under GNU time; prints "NAME wall_s= cpu_s= peak_rss_mib= load=" and keeps
# the command's stdout in $c/NAME.out. Exit status 0 or 1 (lint's findings) is a run.
measure() {
  local name=$1; shift
  local load rc=0
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f '%e %U %S %M' -o "$c/$name.time" "$@" >"$c/$name.out" 2>"$c/$name.err" || rc=$?
  if [ "$rc" -gt 1 ]; then
    { echo "$name: exit status $rc"; tail -n 5 "$c/$name.err"; } >&2
    exit 1
  fi
  read -r wall user sys rss < <(tail -n 1 "$c/$name.time")
  printf '%-28s wall %8.2f s  cpu %8.2f s  peak RSS %7.1f MiB  load %s\n' "$name" "$wall" \
    "$(awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}')" "$(awk -v k="$rss" 'BEGIN{print k/1024}')" "$load"
}
# karmada_line NAME: Karmada's phases, and its schedule time scaled to every workload.
karmada_line() {
  local r
  r=$(grep '^RESULT' "$c/$1.out")
  echo "  $r"
  echo "$r" | awk -v w="$workloads" '{for(i=1;i<=NF;i++){split($i,a,"="); v[a[1]]=a[2]}
    printf "  Karmada schedule: %.1f ms wall (%.1f ms cpu) per binding; x %d bindings = %.0f s wall (%.0f s cpu), + read %.2f s + bind %.2f s\n",
      1000*v["schedule_s"]/v["bindings"], 1000*v["schedule_cpu_s"]/v["bindings"], w, v["schedule_s"]*w/v["bindings"],
      v["schedule_cpu_s"]*w/v["bindings"], v["read_s"], v["bind_s"]}'
}

files=(--clusters "$c/clusters.json")
echo "== corpus: $clusters clusters ($(( $(stat -c %s "$c/clusters.json") / 1024 )) KiB JSON), $workloads policies + Deployments, Karmada sample $sample; $(nproc) cores =="
echo "-- first time"
measure karmada-first "$karmada" "${files[@]}" --policies "$c/policies.json" --workloads "$c/workloads.json" \
  --limit "$sample" --write-bindings "$c/bindings.json"
karmada_line karmada-first
measure lint-first-sample-json "$bin" lint -o json "${files[@]}" --workloads "$c/sample-workloads.json" "$c/sample-policies.json"
cp "$c/lint-first-sample-json.out" "$c/lint-first-sample.json"
measure lint-first-text "$bin" lint "${files[@]}" --workloads "$c/workloads.json" "$c/policies.json"
python3 tests/bench/bindings_from_lint.py "$c/lint-first-text.out" "$c/policies.json" "$c/workloads.json" "$c/lint-bindings.json" >/dev/null

echo "-- steady re-plan (+2 replicas each)"
measure karmada-steady "$karmada" "${files[@]}" --policies "$c/policies.json" --workloads "$c/workloads-scaled.json" \
  --bindings "$c/bindings.json" --write-bindings "$c/bindings-steady.json"
karmada_line karmada-steady
measure lint-steady-sample-json "$bin" lint -o json "${files[@]}" --workloads "$c/sample-workloads-scaled.json" \
  --bindings "$c/bindings.json" "$c/sample-policies.json"
measure lint-steady-text "$bin" lint "${files[@]}" --workloads "$c/workloads-scaled.json" \
  --bindings "$c/lint-bindings.json" "$c/policies.json"

# Same work: the placements lint predicts against the ones Karmada's scheduler made, on the sample.
python3 - "$c/bindings.json" "$c/lint-first-sample.json" "$c/bindings-steady.json" "$c/lint-steady-sample-json.out" <<'PY'
import json, sys
def karmada(path):
    return {b["spec"]["resource"]["name"]: sorted((t["name"], t.get("replicas", 0)) for t in b["spec"].get("clusters") or [])
            for b in json.load(open(path))["items"]}
def lint(path):
    return {s["workload"]["name"]: sorted((t["name"], t.get("replicas", 0)) for t in s.get("clusters") or [])
            for res in json.load(open(path))["results"] for s in res.get("scheduling") or []}
for what, k, l in (("first time", sys.argv[1], sys.argv[2]), ("steady re-plan", sys.argv[3], sys.argv[4])):
    k, l = karmada(k), lint(l)
    same = sum(1 for n in k if l.get(n) == k[n])
    diff = [n for n in k if n in l and l[n] != k[n]]
    print(f"{what}: lint places {same} of {len(k)} sampled workloads exactly as Karmada's scheduler "
          f"({len(diff)} differ, {len(set(k) - set(l))} not in lint's report){'; e.g. ' + diff[0] if diff else ''}")
PY

echo "== in process: replan_bench $clusters $workloads 1 (bench_corpus.hpp: the same six shapes, 10 workloads per policy) =="
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f 'replan_bench peak RSS %M KiB' "$build/tests/bench/replan_bench" "$clusters" "$workloads" 1
