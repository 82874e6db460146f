#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Karmada as the anchor of `serve` (issue 25 §5): serve against Karmada's own webhook stack
# (controller-runtime's webhook server with propagationpolicy.ValidatingAdmission at
# /validate-propagationpolicy, registered as karmada-webhook registers it:
# tests/conformance/cmd/karmada-webhook-bench), side by side in one run: same certificate (the one
# `serve --self-signed` makes), same AdmissionReview (tests/bench/serve_review.json), one core each (the
# server pinned to CPU 0 with taskset; serve with one thread, Go's GOMAXPROCS follows the affinity to 1),
# `wrk -t1` at 1 and 32 connections: requests/s, p50, p99, peak RSS (VmHWM), the CPU time per request
# of the server, and the load average before each run.
# A third row, nginx answering a fixed AdmissionReview with the same certificate and one worker on CPU 0,
# is the ceiling of TLS + HTTP/1.1 alone in the same arrangement: no server that reads the review can
# beat it.
# wrk runs on CPU 1, and at 1 connection also on CPU 0 beside the server: with one connection each
# request waits for the last answer, so on CPU 1 requests/s measures the two cross-CPU wake-ups of each
# round trip (on a VM, an idle vCPU woken by an IPI) more than either server; on CPU 0 the wake-ups are
# local and the round trip is the CPU time the server and wrk spend.
#   tests/bench/karmada_serve_bench.sh [DURATION_SECONDS] [ROUNDS]
# BUILD_DIR (default build) is the C++ build, GO_BIN_DIR (default $BUILD_DIR-go) where the Go command goes.
set -euo pipefail
cd "$(dirname "$0")/../.."
duration=${1:-10}
rounds=${2:-1}
build=${BUILD_DIR:-build}
gobin=${GO_BIN_DIR:-$build-go}
need=()
for p in wrk nginx-light curl; do
  command -v "${p%-light}" >/dev/null 2>&1 || [ -x "/usr/sbin/${p%-light}" ] || need+=("$p")
done
[ ${#need[@]} -eq 0 ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null; }
[ "$(nproc)" -ge 2 ] || { echo "needs two CPUs (server on one, wrk on the other)" >&2; exit 1; }
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
nice ninja -C "$build" webhook/karmada-policy-webhook >/dev/null
command -v go >/dev/null 2>&1 || PATH=$PATH:/usr/local/go/bin
mkdir -p "$gobin"
gobin=$(cd "$gobin" && pwd)
(cd tests/conformance && nice go build -o "$gobin/" ./cmd/karmada-webhook-bench)
bin=$build/webhook/karmada-policy-webhook
review=tests/bench/serve_review.json
url_path="/validate-propagationpolicy?timeout=3s"

work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
wait_for() { for _ in $(seq 500); do [ -s "$1" ] && return 0; sleep 0.01; done; echo "timed out waiting for $1" >&2; exit 1; }

# serve, one thread on CPU 0; it writes the certificate Karmada's server reuses.
taskset -c 0 "$bin" serve --self-signed --cert-dir "$work/certs" --bind-address 127.0.0.1 --secure-port 0 \
  --health-probe-bind-address 127.0.0.1:0 --metrics-bind-address 0 --threads 1 \
  --port-file "$work/ports" 2>"$work/serve.log" &
serve_pid=$!; pids+=("$serve_pid")
wait_for "$work/ports"
serve_port=$(awk '/^webhook/{split($2,a,":"); print a[2]}' "$work/ports")

karmada_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
taskset -c 0 "$gobin/karmada-webhook-bench" --cert-dir "$work/certs" --bind-address 127.0.0.1 \
  --secure-port "$karmada_port" 2>"$work/karmada.log" &
karmada_pid=$!; pids+=("$karmada_pid")
for _ in $(seq 500); do curl -s -o /dev/null --cacert "$work/certs/ca.crt" "https://localhost:$karmada_port/" && break; sleep 0.01; done

# nginx: one worker on CPU 0, same certificate, a fixed AdmissionReview answer (the answer serve gives).
. tests/bench/nginx_review.sh
start_nginx_review "$work/nginx" "$work/certs" 1 0
pids+=("$nginx_master")
nginx_pid=$(pgrep -P "$nginx_master" | head -1) # the worker, which answers (the master only waits)

# All three answer the review (and show what each decided).
for s in serve karmada nginx; do
  port=${s}_port
  echo "$s answer: $(curl -s --cacert "$work/certs/ca.crt" -H 'Content-Type: application/json' \
    --data-binary @"$review" "https://localhost:${!port}$url_path" | cut -c1-200)"
done

rss_kib() { awk '/VmHWM/{print $2}' "/proc/$1/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# bench CONNS WRK_CPU URL PID: a 2 s warm-up, then the measured run (wrk -t1 on WRK_CPU); prints wrk's
# RESULT line, the server's CPU seconds during the run and the load average before it.
bench() {
  local conns=$1 cpu=$2 url=$3 pid=$4 before after load
  taskset -c "$cpu" wrk -t1 -c"$conns" -d2s -s tests/bench/post_review.lua "$url" -- "$review" >/dev/null
  load=$(cut -d' ' -f1 /proc/loadavg)
  before=$(cpu_ticks "$pid")
  taskset -c "$cpu" wrk -t1 -c"$conns" -d"${duration}s" --latency -s tests/bench/post_review.lua "$url" -- "$review" >"$work/wrk.out"
  after=$(cpu_ticks "$pid")
  echo "$(awk '/^RESULT/{print}' "$work/wrk.out") server_cpu_s=$(awk -v t=$((after - before)) -v h="$(getconf CLK_TCK)" \
    'BEGIN{print t/h}') load=$load"
}
field() { echo "$1" | sed -n "s/.*$2=\([0-9.]*\).*/\1/p"; }

printf '\n%ss per run after a 2 s warm-up; server on CPU 0 (serve --threads 1 / Go GOMAXPROCS=1 / one nginx worker), wrk -t1 on the CPU named; %s B review\n' \
  "$duration" "$(wc -c <"$review")"
printf '%-5s %-7s %5s %3s %10s %9s %9s %7s %13s %14s %6s\n' round server conns wrk "req/s" "p50 ms" "p99 ms" errors "server us/req" "peak RSS MiB" load
for r in $(seq "$rounds"); do
  for run in 1:1 1:0 32:1; do # connections:wrk's CPU
    conns=${run%:*}; cpu=${run#*:}
    declare -A rps p99
    for s in serve karmada nginx; do
      port=${s}_port; pid=${s}_pid
      res=$(bench "$conns" "$cpu" "https://127.0.0.1:${!port}$url_path" "${!pid}")
      rps[$s]=$(field "$res" rps); p99[$s]=$(field "$res" p99_us)
      printf '%-5s %-7s %5s %3s %10s %9.3f %9.3f %7s %13.1f %14.1f %6s\n' "$r" "$s" "$conns" "$cpu" "${rps[$s]}" \
        "$(awk "BEGIN{print $(field "$res" p50_us)/1000}")" "$(awk "BEGIN{print ${p99[$s]}/1000}")" \
        "$(field "$res" errors)" "$(awk "BEGIN{print $(field "$res" server_cpu_s)*1e6/$(field "$res" requests)}")" \
        "$(awk "BEGIN{print $(rss_kib "${!pid}")/1024}")" "$(field "$res" load)"
    done
    awk -v a="${rps[serve]}" -v b="${rps[karmada]}" -v c="${p99[serve]}" -v d="${p99[karmada]}" -v n="$conns" \
      -v w="$cpu" -v x="${rps[nginx]}" 'BEGIN{printf "      %s connections, wrk on CPU %s: serve / Karmada requests/s %.2fx (goal >= 5), p99 %.3fx of Karmada'"'"'s (goal <= 0.2); nginx'"'"'s fixed answer %.2fx\n", n, w, (b>0?a/b:0), (d>0?c/d:0), (b>0?x/b:0)}'
  done
done
echo "(peak RSS: VmHWM of the server process after that run, so it includes every earlier run of the same process)"
