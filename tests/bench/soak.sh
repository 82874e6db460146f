#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Soak test of `serve` (issue 6): DURATION s of wrk load (POST of the benchmark's 4.5 KB review over
# keep-alive TLS) while a second client opens a fresh, CA-verified TLS connection per request; the
# certificate files are replaced twice during the load (a kubelet-style `..data` symlink swap, then a
# plain rename of new files). Then SIGTERM under load, with requests deliberately left in flight.
# Passes (exit 0) when: no failed request before SIGTERM (wrk and fresh connections), both rotations
# served to new connections, every in-flight request answered 200 after SIGTERM, serve exits 0, and RSS
# stays flat (growth from 10 s to the end below RSS_SLACK_KIB). RSS is sampled every second.
#   tests/bench/soak.sh [DURATION_SECONDS=60] [CONNECTIONS=16]
set -euo pipefail
cd "$(dirname "$0")/../.."
duration=${1:-60}
conns=${2:-16}
rss_slack_kib=${RSS_SLACK_KIB:-4096}
need=()
for p in wrk curl openssl python3; do command -v "$p" >/dev/null 2>&1 || need+=("$p"); done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
bin=$PWD/build/webhook/karmada-policy-webhook
review=$PWD/tests/bench/serve_review.json

work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
fail=0
check() { if eval "$2"; then echo "PASS  $1"; else echo "FAIL  $1"; fail=1; fi; }

# Three certificate generations, each from `certs` (its own CA); clients trust all three CAs.
for g in 1 2 3; do "$bin" certs --service soak --namespace test --host localhost --host 127.0.0.1 \
  --out "$work/gen$g" >/dev/null 2>&1; done
cat "$work"/gen*/ca.crt >"$work/trust.pem"
fingerprint() { openssl x509 -noout -fingerprint -sha256 -in "$1" | cut -d= -f2; }
# The certificate a new connection is served.
served() { openssl s_client -connect "127.0.0.1:$port" -servername localhost </dev/null 2>/dev/null |
  openssl x509 -noout -fingerprint -sha256 2>/dev/null | cut -d= -f2; }

# Kubelet's Secret volume layout: tls.crt -> ..data/tls.crt, ..data -> a timestamped directory.
mkdir -p "$work/certs"
cp -r "$work/gen1" "$work/certs/..2024_01"
ln -s ..2024_01 "$work/certs/..data"
ln -s ..data/tls.crt "$work/certs/tls.crt"
ln -s ..data/tls.key "$work/certs/tls.key"

"$bin" serve --cert-dir "$work/certs" --bind-address 127.0.0.1 --secure-port 0 \
  --health-probe-bind-address 127.0.0.1:0 --metrics-bind-address 127.0.0.1:0 --threads 2 \
  --port-file "$work/ports" 2>"$work/serve.log" &
serve_pid=$!; pids+=("$serve_pid")
for _ in $(seq 1000); do [ -s "$work/ports" ] && break; sleep 0.01; done
port_of() { awk -v r="$1" '$1==r{n=split($2,a,":"); print a[n]}' "$work/ports"; }
port=$(port_of webhook); metrics=$(port_of metrics)
url="https://127.0.0.1:$port/validate-propagationpolicy?timeout=10s"

# RSS sampler: "<second> <VmRSS KiB>" once a second while serve runs.
(t=0; while kill -0 "$serve_pid" 2>/dev/null; do
   echo "$t $(awk '/VmRSS/{print $2}' "/proc/$serve_pid/status" 2>/dev/null)" >>"$work/rss"; sleep 1; t=$((t + 1))
 done) &
pids+=("$!")

field() { echo "$1" | sed -n "s/.*[ ]$2=\([0-9.]*\).*/\1/p"; }

# Fresh connections: one CA-verified handshake per request, counting anything but HTTP 200.
fresh_loop() {
  local ok=0 bad=0
  while [ ! -e "$work/stop-fresh" ]; do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 --cacert "$work/trust.pem" \
      -H 'Content-Type: application/json' --data-binary @"$review" \
      "https://localhost:$port/validate-propagationpolicy?timeout=10s" || true)
    if [ "$code" = 200 ]; then ok=$((ok + 1)); else bad=$((bad + 1)); fi
    sleep 0.05
  done
  echo "$ok $bad" >"$work/fresh"
}
fresh_loop &
fresh_pid=$!; pids+=("$fresh_pid")

wrk -t2 -c"$conns" -d"${duration}s" --latency --timeout 5s -s tests/bench/post_review.lua "$url" -- "$review" >"$work/wrk.out" &
wrk_pid=$!; pids+=("$wrk_pid")

# Rotation 1 at 1/3 of the run: a kubelet-style atomic symlink swap of ..data.
sleep $((duration / 3))
cp -r "$work/gen2" "$work/certs/..2024_02"
ln -s ..2024_02 "$work/certs/..data_tmp" && mv -T "$work/certs/..data_tmp" "$work/certs/..data"
want2=$(fingerprint "$work/gen2/tls.crt")
for _ in $(seq 100); do [ "$(served)" = "$want2" ] && break; sleep 0.1; done
rot1=$(served)
# Rotation 2 at 2/3: new files renamed over the old ones (key first, then certificate).
sleep $((duration / 3))
cp "$work/gen3/tls.key" "$work/certs/.tls.key.new" && cp "$work/gen3/tls.crt" "$work/certs/.tls.crt.new"
mv "$work/certs/.tls.key.new" "$work/certs/tls.key" && mv "$work/certs/.tls.crt.new" "$work/certs/tls.crt"
want3=$(fingerprint "$work/gen3/tls.crt")
for _ in $(seq 100); do [ "$(served)" = "$want3" ] && break; sleep 0.1; done
rot2=$(served)

wait "$wrk_pid"
touch "$work/stop-fresh"; wait "$fresh_pid"
read -r fresh_ok fresh_bad <"$work/fresh"
load=$(grep '^RESULT' "$work/wrk.out")
metrics_text=$(curl -s "http://127.0.0.1:$metrics/metrics")

# SIGTERM under load: wrk keeps going while 8 requests are held in flight (header and half the body
# sent); after the signal their bodies are completed and each must be answered 200, then serve exits.
wrk -t2 -c"$conns" -d10s --timeout 5s -s tests/bench/post_review.lua "$url" -- "$review" >"$work/wrk-term.out" &
term_wrk=$!; pids+=("$term_wrk")
python3 - "$port" "$metrics" "$serve_pid" "$work/trust.pem" "$review" >"$work/inflight.out" 2>&1 <<'PY' && inflight=ok || inflight=failed
import os, signal, socket, ssl, sys, time, urllib.request
port, metrics, pid, trust, review = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
body = open(review, "rb").read()
head = (b"POST /validate?timeout=10s HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body))
ctx = ssl.create_default_context(cafile=trust)
held = []
for i in range(8):
    s = ctx.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=10), server_hostname="localhost")
    s.sendall(head + body[: len(body) // 2])
    held.append(s)
def gauge():
    text = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % metrics, timeout=5).read().decode()
    return sum(float(l.split()[-1]) for l in text.splitlines()
               if l.startswith('controller_runtime_webhook_requests_in_flight{webhook="/validate"}'))
deadline = time.time() + 10
while gauge() < 8 and time.time() < deadline:
    time.sleep(0.01)
print("in flight before SIGTERM:", gauge())
os.kill(pid, signal.SIGTERM)
time.sleep(0.2)  # let the drain start: new connections are refused from here on
def read_response(s):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            return data
        data += chunk
    head_end = data.index(b"\r\n\r\n") + 4
    length = next((int(l.split(b":")[1]) for l in data[:head_end].split(b"\r\n") if l.lower().startswith(b"content-length:")), 0)
    while len(data) < head_end + length:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    return data
answered = 0
for s in held:
    s.sendall(body[len(body) // 2:])
    data = read_response(s)
    answered += data.startswith(b"HTTP/1.1 200") and b"Connection: close" in data and b'"uid":"2b8e4c9a' in data
    s.close()
print("in-flight requests answered 200 with Connection: close after SIGTERM: %d/8" % answered)
sys.exit(0 if answered == 8 else 1)
PY
set +e; wait "$serve_pid"; serve_exit=$?; set -e
wait "$term_wrk" || true
term=$(grep '^RESULT' "$work/wrk-term.out" || echo "RESULT none")

# RSS: the sample at 10 s (after warm-up) against the last one and the peak.
rss_at() { awk -v t="$1" '$1==t{print $2}' "$work/rss"; }
rss10=$(rss_at $((duration < 30 ? duration / 3 : 10))); rss_last=$(awk 'NF==2{v=$2} END{print v}' "$work/rss"); rss_peak=$(awk 'NF==2&&$2>m{m=$2} END{print m}' "$work/rss")
rss_series=$(awk -v step=$((duration / 6)) 'NF==2 && step>0 && $1%step==0{printf "%ss=%.1f ", $1, $2/1024}' "$work/rss")

echo
echo "soak: ${duration}s, wrk -t2 -c$conns, serve --threads 2, $(nproc) cores, review $(wc -c <"$review") B"
echo "load:            $load"
echo "fresh handshakes: $fresh_ok ok, $fresh_bad failed (one new CA-verified TLS connection per request)"
echo "reloads:         $(echo "$metrics_text" | grep '^karmada_policy_webhook_certificate_reloads_total' | tr '\n' ' ')"
echo "SIGTERM phase:   $term"
echo "in flight:       $(tail -1 "$work/inflight.out")"
echo "serve exit:      $serve_exit ($(grep -c 'shutting down' "$work/serve.log") shutdown line, $(grep -c 'level=error' "$work/serve.log") error lines)"
echo "RSS MiB:         $rss_series(peak $(awk "BEGIN{printf \"%.1f\", $rss_peak/1024}"))"
echo
check "no failed wrk request before SIGTERM" \
  '[ "$(field "$load" connect)" = 0 ] && [ "$(field "$load" read)" = 0 ] && [ "$(field "$load" write)" = 0 ] && [ "$(field "$load" status)" = 0 ] && [ "$(field "$load" timeout)" = 0 ]'
check "no failed fresh-connection request before SIGTERM" '[ "$fresh_bad" = 0 ] && [ "$fresh_ok" -gt 0 ]'
check "rotation 1 (..data symlink swap) served to new connections" '[ "$rot1" = "$want2" ]'
check "rotation 2 (files renamed over) served to new connections" '[ "$rot2" = "$want3" ]'
check "every in-flight request answered after SIGTERM" '[ "$inflight" = ok ]'
check "no wrk request failed with a status or timeout during the drain" \
  '[ "$(field "$term" status)" = 0 ] && [ "$(field "$term" timeout)" = 0 ]'
check "serve exited 0" '[ "$serve_exit" = 0 ]'
check "RSS flat: growth from 10 s to the end < ${rss_slack_kib} KiB" '[ $((rss_last - rss10)) -lt "$rss_slack_kib" ]'
exit "$fail"
