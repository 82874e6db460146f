#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Memory of serve's live snapshot (issue 38): `serve --kubeconfig --live-workloads apps/v1/Deployment`
# against an API server holding N Clusters and M Deployments, peak and steady RSS once the snapshot is
# published and again after a burst that rewrites every Cluster's status; beside it, kubectl reading
# the same objects from the same server (`kubectl get clusters -o json`, and with the Deployments).
#   tests/bench/live_memory_bench.sh [N_CLUSTERS ...]          (default 1000 5000 20000)
# Environment:
#   BUILD_DIR        the build directory of the binary measured (default build; built first)
#   BASE_BIN         a second binary (e.g. main's) measured the same way in the same run, before it
#   KPW_BENCH_DEPLOYMENTS   M (default 10000)
#   KPW_BENCH_MAX_OBJECTS   --live-max-objects of the binary measured (default 0: no cap; BASE_BIN gets none)
#   KUBECTL          the kubectl to compare with (default: kubectl on PATH); "none" skips it
#
# The server is tests/bench/live_serve_data (the tests' in-process fake API server, HTTPS, pages of
# `limit` as kube-apiserver serves them, watches), not the loopback plane: filling a plane with 20,000
# Clusters takes most of an hour on two cores (BENCHMARKS.md, issue 27) and measures nothing more of
# serve. Its objects are livedata's (tests/bench/livedata) with the managedFields an API server adds.
#
# RSS is read from /proc/PID/status: VmHWM (peak) and VmRSS (steady, 2 s after the figure is reached).
# kubectl's peak is /usr/bin/time's maximum resident set size.
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 5000 20000)
deployments=${KPW_BENCH_DEPLOYMENTS:-10000}
kubectl_bin=${KUBECTL:-kubectl}
say() { printf 'live_memory_bench: %s\n' "$*" >&2; }

build=${BUILD_DIR:-build}
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
nice ninja -C "$build" webhook/karmada-policy-webhook tests/bench/live_serve_data >/dev/null
new_bin=$(cd "$build" && pwd)/webhook/karmada-policy-webhook
data_bin=$(cd "$build" && pwd)/tests/bench/live_serve_data
bins=()
[ -z "${BASE_BIN:-}" ] || bins+=("base=$BASE_BIN")
bins+=("new=$new_bin")

out=$(mktemp -d)
data_pid=""
serve_pid=""
cleanup() {
  local rc=$?
  [ -z "$serve_pid" ] || kill "$serve_pid" 2>/dev/null || true
  exec 3>&- 2>/dev/null || true
  [ -z "$data_pid" ] || { kill "$data_pid" 2>/dev/null || true; wait "$data_pid" 2>/dev/null || true; }
  rm -rf "$out"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

kib() { awk -v k="$2" '$1 == k":" {print $2}' "/proc/$1/status"; }
mib() { awk -v k="$1" 'BEGIN{printf "%.0f", k / 1024}'; }
# metric PORT NAME: the value of a series (the first line starting with NAME), "" when absent.
metric() { curl -sf "http://127.0.0.1:$1/metrics" | awk -v n="$2" 'index($0, n" ") == 1 && v == "" {v = $NF} END {print v}'; }
wait_for() { # wait_for SECONDS CMD...: until CMD succeeds
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.2
  done
}
loaded() { [ "$(metric "$mport" karmada_policy_webhook_snapshot_clusters)" = "$1" ]; }
churned() { [ "$(grep -c '^churned' "$out/$n/data.log")" -ge "$1" ]; }
reloaded() { [ "$(reloads)" != "$1" ]; }
reloads() { metric "$mport" 'karmada_policy_webhook_snapshot_reloads_total{result="success"}'; }

printf 'machine: %s, %s CPUs, %s; load %s\n' "$(uname -m)" "$(nproc)" \
  "$(awk '/model name/ {sub(/.*: /, ""); print; exit}' /proc/cpuinfo)" "$(cut -d' ' -f1-3 /proc/loadavg)" >"$out/report"
printf '%-7s %-5s %8s %10s %10s %12s %12s\n' clusters run load_s peak_MiB steady_MiB burst_peak burst_steady >>"$out/report"

for n in "${sizes[@]}"; do
  mkdir -p "$out/$n"
  mkfifo "$out/$n/cmd"
  "$data_bin" --dir "$out/$n" --clusters "$n" --deployments "$deployments" <"$out/$n/cmd" >"$out/$n/data.log" &
  data_pid=$!
  exec 3>"$out/$n/cmd"
  churns=0
  wait_for 600 grep -q '^ready ' "$out/$n/data.log" || { say "the data server did not start"; exit 1; }
  kubeconfig=$out/$n/kubeconfig
  for entry in "${bins[@]}"; do
    name=${entry%%=*} bin=${entry#*=}
    run=$out/$n/$name
    mkdir -p "$run"
    # No cap for the binary measured (its default would stop 20,000 Clusters); main's has no such flag.
    extra=()
    [ "$name" = base ] || extra+=("--live-max-objects=${KPW_BENCH_MAX_OBJECTS:-0}")
    t0=$(date +%s.%N)
    "$bin" serve --self-signed --cert-dir "$run/certs" --bind-address 127.0.0.1 --secure-port 0 \
      --health-probe-bind-address 127.0.0.1:0 --metrics-bind-address 127.0.0.1:0 --port-file "$run/ports" \
      --kubeconfig "$kubeconfig" --live-workloads apps/v1/Deployment "${extra[@]}" 2>"$run/serve.log" &
    serve_pid=$!
    wait_for 60 grep -q '^metrics ' "$run/ports" 2>/dev/null || { say "$name: serve did not start"; cat "$run/serve.log" >&2; exit 1; }
    mport=$(awk '$1 == "metrics" {sub(/.*:/, "", $2); print $2}' "$run/ports")
    wait_for 900 loaded "$n" || { say "$name: no snapshot of $n Clusters"; tail -5 "$run/serve.log" >&2; exit 1; }
    load_s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b - a}')
    sleep 2
    peak=$(kib "$serve_pid" VmHWM) steady=$(kib "$serve_pid" VmRSS)
    # The burst: every Cluster's status rewritten; done when the reloads stop for 3 s.
    before=$(reloads)
    echo churn >&3
    churns=$((churns + 1))
    wait_for 900 churned "$churns" || { say "churn did not finish"; exit 1; }
    wait_for 300 reloaded "$before" || { say "$name: no reload after the burst"; exit 1; }
    last=$(reloads)
    while sleep 3; now=$(reloads); [ "$now" != "$last" ]; do last=$now; done
    bpeak=$(kib "$serve_pid" VmHWM) bsteady=$(kib "$serve_pid" VmRSS)
    kill "$serve_pid"
    wait "$serve_pid" 2>/dev/null || true
    serve_pid=""
    printf '%-7s %-5s %8s %10s %10s %12s %12s\n' "$n" "$name" "$load_s" "$(mib "$peak")" "$(mib "$steady")" \
      "$(mib "$bpeak")" "$(mib "$bsteady")" >>"$out/report"
    say "$n Clusters, $name: loaded in $load_s s, peak $(mib "$peak") MiB, steady $(mib "$steady") MiB," \
      "after the burst $(mib "$bpeak") / $(mib "$bsteady") MiB"
  done
  if [ "$kubectl_bin" != none ]; then
    for what in clusters clusters,deployments; do
      /usr/bin/time -f '%e %M' -o "$out/$n/time" "$kubectl_bin" --kubeconfig "$kubeconfig" get "$what" -A -o json \
        >"$out/$n/kubectl.json" 2>"$out/$n/kubectl.err" || { say "kubectl get $what failed"; cat "$out/$n/kubectl.err" >&2; exit 1; }
      read -r wall maxrss <"$out/$n/time"
      printf '%-7s %-5s %8s %10s   kubectl get %s -A -o json (%s MiB of JSON)\n' "$n" kubectl "$wall" "$(mib "$maxrss")" \
        "$what" "$(($(wc -c <"$out/$n/kubectl.json") / 1048576))" >>"$out/report"
    done
  fi
  exec 3>&-
  wait "$data_pid" 2>/dev/null || true
  data_pid=""
done
printf '\n' >&2
cat "$out/report"
