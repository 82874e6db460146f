#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmarks the live inputs of issue 27: `lint --kubeconfig` reading N Clusters and M ResourceBindings
# from the loopback karmada-apiserver of tests/e2e/control-plane.sh, wall time and peak RSS, side by side
# in the same run with kubectl reading the same objects.
#   tests/bench/live_snapshot_bench.sh [N_CLUSTERS] [N_BINDINGS] [RUNS]     (defaults 5000 10000 3)
# Environment:
#   BUILD_DIR        the build directory of the binary measured (default build; built first)
#   KPW_BENCH_DIR    where the control plane is brought up (default /tmp/kpw-live-bench); it is brought
#                    down on exit
#   KPW_BENCH_PLANE  DIR of a control plane already up (control-plane.sh up DIR): used as it is and left
#                    up (its karmada-scheduler and karmada-controller-manager are stopped all the same)
#   KPW_BENCH_WORKERS  concurrent requests that create the objects (default 16)
#   KPW_BENCH_SEPARATE  1: also time (c)
#
# What is measured, RUNS times in turn (the medians are printed):
#   (a) karmada-policy-webhook lint --kubeconfig DIR/kubeconfig -o json POLICY, POLICY selecting a
#       Deployment that does not exist: the time is reading Clusters, ClusterTaintPolicies,
#       ResourceBindings (all namespaces), ClusterResourceBindings (pages of 500) and decoding them into
#       the dry run's snapshot and bindings;
#   (b) kubectl get clusters,rb -A -o json (the issue's baseline; kubectl's pages are 500 too), and the
#       same with --disable-compression (kubectl asks for gzip replies, lint does not);
#   (c) only with KPW_BENCH_SEPARATE=1: kubectl get clusters -o json; kubectl get rb -A -o json; kubectl
#       get crb -o json, one after the other (what (b) reads, plus the ClusterResourceBindings, none
#       here); off by default: it is (b) again, and kubectl takes minutes on this machine;
#   (d) lint with --clusters/--bindings given the same objects as files (kubectl's export, compacted:
#       indented, the Clusters are over lint's 64 MiB file limit): the decoding without the server;
#   (e) the floor (tests/bench/live_floor.sh): curl fetching the pages lint fetches (HTTP/1.1, no gzip)
#       into a file: the API servers' time to serve them.
#
# karmada-scheduler and karmada-controller-manager are stopped (SIGTERM to the pids in
# DIR/components.json, SIGKILL after 30 s) before any object is created: they would schedule the bindings, create Works
# for them and rewrite their status, and load the CPU while the reads are measured. `down` stops what
# remains.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
n_clusters=${1:-5000}
n_bindings=${2:-10000}
runs=${3:-3}
workers=${KPW_BENCH_WORKERS:-16}
if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then PATH=$PATH:/usr/local/go/bin; fi
say() { printf 'live_snapshot_bench: %s\n' "$*" >&2; }

need=()
for p in time jq curl; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p"); done
[ ${#need[@]} -eq 0 ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null; }

build=${BUILD_DIR:-build}
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
nice ninja -C "$build" webhook/karmada-policy-webhook >/dev/null
bin=$(cd "$build" && pwd)/webhook/karmada-policy-webhook

out=$(mktemp -d)
own_plane=1
if [ -n "${KPW_BENCH_PLANE:-}" ]; then
  dir=$(cd "$KPW_BENCH_PLANE" && pwd)
  own_plane=0
  [ -f "$dir/ready" ] || { say "$dir/ready is missing: is the plane up?"; exit 1; }
else
  dir=${KPW_BENCH_DIR:-/tmp/kpw-live-bench}
fi
cleanup() {
  local rc=$?
  if [ "$own_plane" -eq 1 ]; then
    KPW_BINARY=$bin tests/e2e/control-plane.sh down "$dir" || true
  fi
  rm -rf "$out"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$own_plane" -eq 1 ]; then
  KPW_BINARY=$bin tests/e2e/control-plane.sh up "$dir"
fi
kubeconfig=$dir/kubeconfig
kubectl=("$dir/bin/kubectl" --kubeconfig "$kubeconfig")

# Stop the components that react to bindings.
for name in karmada-scheduler karmada-controller-manager; do
  pid=$(jq -r --arg n "$name" '.[] | select(.name == $n) | .pid' "$dir/components.json")
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    # SIGTERM; a controller-manager signalled while it is still starting can hang in its shutdown, so
    # SIGKILL after 30 s (nothing of it is needed afterwards).
    how=SIGTERM
    kill -TERM "$pid"
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      how="SIGKILL after 30 s"
      kill -KILL "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    kill -0 "$pid" 2>/dev/null && { say "$name (pid $pid) did not exit"; exit 1; }
    say "stopped $name (pid $pid, $how)"
  fi
done

# The objects: a small Go program (its own module, client-go) with concurrent creates.
(cd tests/bench/livedata && go build -o "$out/livedata" .)
say "creating $n_clusters Clusters and $n_bindings ResourceBindings ($workers concurrent requests)"
"$out/livedata" --kubeconfig "$kubeconfig" --clusters "$n_clusters" --bindings "$n_bindings" --workers "$workers"

cat >"$out/policy.yaml" <<'EOF'
# Selects one Deployment that does not exist: lint reads the snapshot and the bindings, claims nothing.
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: live-bench
  namespace: live-bench-absent
spec:
  resourceSelectors:
  - apiVersion: apps/v1
    kind: Deployment
    name: live-bench-absent
  placement:
    clusterAffinity:
      clusterNames: [member-00000]
EOF

# The objects as kubectl reads them, compacted ((d)'s inputs); counted, so that a short plane is noticed.
for what in clusters rb crb; do
  "${kubectl[@]}" --disable-compression get "$what" -A -o json | jq -c . >"$out/$what.json"
done
have_c=$(jq '.items | length' "$out/clusters.json")
have_b=$(jq '.items | length' "$out/rb.json")
[ "$have_c" -ge "$n_clusters" ] && [ "$have_b" -ge "$n_bindings" ] ||
  { say "the server holds $have_c Clusters and $have_b ResourceBindings"; exit 1; }
echo "objects: $have_c Clusters ($(($(wc -c <"$out/clusters.json") / 1024)) KiB of compact JSON)," \
  "$have_b ResourceBindings ($(($(wc -c <"$out/rb.json") / 1024)) KiB), $(jq '.items | length' "$out/crb.json") ClusterResourceBindings"

# (e)'s credentials: the kubeconfig's (envtest writes them inline).
server=$("${kubectl[@]}" config view --raw --minify -o jsonpath='{.clusters[0].cluster.server}')
"${kubectl[@]}" config view --raw --minify -o jsonpath='{.clusters[0].cluster.certificate-authority-data}' | base64 -d >"$out/ca.crt"
"${kubectl[@]}" config view --raw --minify -o jsonpath='{.users[0].user.client-certificate-data}' | base64 -d >"$out/client.crt"
"${kubectl[@]}" config view --raw --minify -o jsonpath='{.users[0].user.client-key-data}' | base64 -d >"$out/client.key"
floor=("$repo/tests/bench/live_floor.sh" "$server" "$out/ca.crt" "$out/client.crt" "$out/client.key" "$out")

# timed NAME MAX_STATUS CMD...: one run; appends "NAME wall rss_kib" to $out/times.
timed() {
  local name=$1 max=$2 rc=0; shift 2
  /usr/bin/time -f 'kpw-time %e %M' -o "$out/time.txt" "$@" >/dev/null 2>"$out/stderr.txt" || rc=$?
  if [ "$rc" -gt "$max" ]; then
    say "$name: exit status $rc; stderr:"
    tail -n 5 "$out/stderr.txt" >&2
    exit 1
  fi
  read -r _ t m < <(grep '^kpw-time ' "$out/time.txt")
  echo "$name $t $m" >>"$out/times"
}
# lint exits 1 when it has findings to report (a warning for the policy: its Deployment is absent).
lint=("$bin" lint --kubeconfig "$kubeconfig" -o json "$out/policy.yaml")
lint_files=("$bin" lint --clusters "$out/clusters.json" --bindings "$out/rb.json" --bindings "$out/crb.json"
  -o json "$out/policy.yaml")
rc=0
"${lint[@]}" >"$out/lint.json" 2>"$out/stderr.txt" || rc=$?
[ "$rc" -le 1 ] || { say "lint --kubeconfig: exit status $rc"; tail -n 5 "$out/stderr.txt" >&2; exit 1; }
uptime | sed 's/^/load before the runs:/'
for i in $(seq "$runs"); do
  timed lint 1 "${lint[@]}"
  timed kubectl-rb+clusters 0 "${kubectl[@]}" get clusters,rb -A -o json
  timed kubectl-nogzip 0 "${kubectl[@]}" --disable-compression get clusters,rb -A -o json
  if [ "${KPW_BENCH_SEPARATE:-0}" = 1 ]; then
    timed kubectl-clusters 0 "${kubectl[@]}" get clusters -o json
    timed kubectl-rb 0 "${kubectl[@]}" get rb -A -o json
    timed kubectl-crb 0 "${kubectl[@]}" get crb -o json
  fi
  timed lint-files 1 "${lint_files[@]}"
  timed floor 0 "${floor[@]}"
  say "run $i of $runs done"
done
uptime | sed 's/^/load after the runs: /'

# median NAME FIELD: the median of the runs' field (2 = wall s, 3 = peak RSS KiB).
median() { awk -v n="$1" -v f="$2" '$1 == n {print $f}' "$out/times" | sort -g | awk '{a[NR]=$1} END{print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# (c) per run: the sum of the three walls, the largest of the three peaks.
awk '$1 ~ /^kubectl-(clusters|rb|crb)$/ {k++; w += $2; if ($3 > m) m = $3; if (k == 3) {print "kubectl-three", w, m; k = 0; w = 0; m = 0}}' \
  "$out/times" >>"$out/times"
lw=$(median lint 2)
printf '\n%d Clusters, %d ResourceBindings; median of %d runs (all runs: wall s, peak RSS KiB)\n' "$have_c" "$have_b" "$runs"
printf '%-62s %8s %10s %9s   %s\n' "command" "wall" "peak RSS" "vs lint" "runs"
row() {
  local name=$1 label=$2 w m
  w=$(median "$name" 2) m=$(median "$name" 3)
  printf '%-62s %7.2fs %7.1f MiB %8.2fx   %s\n' "$label" "$w" "$(awk -v m="$m" 'BEGIN{print m/1024}')" \
    "$(awk -v a="$w" -v b="$lw" 'BEGIN{print (b > 0 ? a / b : 0)}')" \
    "$(awk -v n="$name" '$1 == n {printf "%s/%s ", $2, $3}' "$out/times")"
}
row lint "(a) lint --kubeconfig -o json (selects nothing)"
row kubectl-rb+clusters "(b) kubectl get clusters,rb -A -o json"
row kubectl-nogzip "    the same, --disable-compression"
if [ "${KPW_BENCH_SEPARATE:-0}" = 1 ]; then
  row kubectl-three "(c) kubectl get clusters; get rb -A; get crb (-o json, sum)"
  row kubectl-clusters "    kubectl get clusters -o json"
  row kubectl-rb "    kubectl get rb -A -o json"
  row kubectl-crb "    kubectl get crb -o json"
fi
row lint-files "(d) lint --clusters/--bindings FILES (same objects, no server)"
row floor "(e) floor: curl fetching lint's pages (HTTP/1.1, no gzip)"
