#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A Karmada control plane on loopback (issue 26), every component built from Go modules at the versions
# tests/e2e/go.mod pins (Kubernetes v1.35.3, the minor Karmada v1.18.2 builds against; etcd as Kubernetes
# pins it; Karmada v1.18.2, the conformance oracle's):
#   tests/e2e/control-plane.sh up DIR     start it; DIR/kubeconfig (admin) and DIR/bin/kubectl; exit 0 once ready
#   tests/e2e/control-plane.sh down DIR   stop everything `up` started (also what a crashed run left)
#   tests/e2e/control-plane.sh examples DIR   put the shipped examples on it (Clusters with their status,
#                                             workloads, policies) and wait until they are scheduled
# Environment: KPW_BINARY (default build/webhook/karmada-policy-webhook), KPW_E2E_BIN (built binaries,
# default build-e2e/bin), KPW_E2E_TIMEOUT (seconds for `up`, default 300).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then PATH=$PATH:/usr/local/go/bin; fi

say() { printf 'control-plane.sh: %s\n' "$*" >&2; }
usage() { echo "usage: $0 up DIR | down DIR | examples DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
cmd=$1 dir=$2
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
bin=${KPW_E2E_BIN:-$repo/build-e2e/bin}
webhook=${KPW_BINARY:-$repo/build/webhook/karmada-policy-webhook}

# build: the binaries, relinked only when the module's pins, its sources or Go change (a stamp), so a
# second `up` on the same machine starts in seconds.
build() {
  local stamp want
  # This script counts too: it lists what is built.
  want=$(cd "$here" && { go version; cat go.mod go.sum control-plane.sh; find cmd internal -name '*.go' -print0 | sort -z | xargs -0 cat; } | sha256sum | cut -d' ' -f1)
  stamp="$bin/.stamp"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return 0; fi
  mkdir -p "$bin"
  say "building etcd, kube-apiserver, kubectl and Karmada's components into $bin (cold: many minutes; then cached)"
  local t0=$SECONDS
  (cd "$here" &&
    go build -o "$bin/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver &&
    go build -o "$bin/kubectl" k8s.io/kubernetes/cmd/kubectl &&
    go build -o "$bin/etcd" ./cmd/etcd &&
    go build -o "$bin/karmada-webhook" github.com/karmada-io/karmada/cmd/webhook &&
    go build -o "$bin/karmada-scheduler" github.com/karmada-io/karmada/cmd/scheduler &&
    go build -o "$bin/karmada-aggregated-apiserver" github.com/karmada-io/karmada/cmd/aggregated-apiserver &&
    go build -o "$bin/karmada-controller-manager" github.com/karmada-io/karmada/cmd/controller-manager &&
    go build -o "$bin/control-plane" ./cmd/control-plane &&
    go build -o "$bin/seed-examples" ./cmd/seed-examples)
  echo "$want" >"$stamp"
  say "built in $((SECONDS - t0)) s"
}

alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }

# starttime PID: the process's start time (clock ticks after boot, field 22 of /proc/PID/stat, read after
# the last ")" since the command name may hold spaces and parentheses); empty when there is no such process.
starttime() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
  set -- ${stat##*) }
  echo "${20:-}"
}

# ours PID START: PID is still the process recorded (same start time). A pid alone identifies nothing once
# its process has ended: the kernel hands it to the next process, and a pids file a crash left behind
# would then name someone else's.
ours() { [ -n "${1:-}" ] && [ -n "${2:-}" ] && [ "$(starttime "$1")" = "$2" ]; }

# recorded FILE: its "PID START" lines that still name their process (a line without a start time, or
# whose pid now belongs to another process, is reported and left alone).
recorded() {
  local p s
  while read -r p s _; do
    [ -n "$p" ] || continue
    if ours "$p" "$s"; then
      echo "$p"
    elif alive "$p"; then
      say "pid $p in $1 is not the process recorded there (start time ${s:-not recorded}, now $(starttime "$p")): left alone"
    fi
  done <"$1"
}

down() {
  local pid=""
  [ -f "$dir/pid" ] && pid=$(recorded "$dir/pid")
  if alive "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    local i
    for i in $(seq 1 600); do alive "$pid" || break; sleep 0.1; done # it stops its children first
    alive "$pid" && kill -KILL "$pid" 2>/dev/null || true
  fi
  # Whatever a crash left: every recorded process still alive (and its process group), and only those
  # (the start time recorded beside each pid is checked before each signal).
  if [ -f "$dir/pids" ]; then
    local p left
    left=$(recorded "$dir/pids")
    for p in $left; do
      kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null || true
    done
    for i in $(seq 1 100); do
      [ -z "$(recorded "$dir/pids" 2>/dev/null)" ] && break
      sleep 0.1
    done
    for p in $(recorded "$dir/pids" 2>/dev/null); do
      kill -KILL -- "-$p" 2>/dev/null || kill -KILL "$p" 2>/dev/null || true
    done
  fi
  rm -f "$dir/pid" "$dir/pids" "$dir/ready" "$dir/failed"
}

up() {
  down # a previous run's leftovers, if any
  [ -x "$webhook" ] || { say "no $webhook: build it first (./dev.sh build)"; exit 1; }
  build
  local karmada
  karmada=$(cd "$here" && go list -m -f '{{.Dir}}' github.com/karmada-io/karmada)
  mkdir -p "$dir/bin"
  ln -sf "$bin/kubectl" "$dir/bin/kubectl"
  setsid "$bin/control-plane" --dir "$dir" --bin "$bin" --karmada "$karmada" --webhook "$webhook" --repo "$repo" \
    >"$dir/control-plane.log" 2>&1 </dev/null &
  local plane=$!
  echo "$plane $(starttime "$plane")" >"$dir/pid"
  local t0=$SECONDS limit=${KPW_E2E_TIMEOUT:-300}
  while [ ! -f "$dir/ready" ]; do
    if [ -f "$dir/failed" ] || ! alive "$plane" || [ $((SECONDS - t0)) -ge "$limit" ]; then
      say "FAILED to start (after $((SECONDS - t0)) s):"
      tail -n 40 "$dir/control-plane.log" | sed 's/^/  | /' >&2
      say "component logs: $dir/logs/"
      down
      exit 1
    fi
    sleep 0.2
  done
  say "up in $((SECONDS - t0)) s: KUBECONFIG=$dir/kubeconfig $dir/bin/kubectl get crd"
}

examples() {
  [ -f "$dir/ready" ] || { say "$dir is not up: tests/e2e/control-plane.sh up $dir first"; exit 1; }
  build
  "$bin/seed-examples" --kubeconfig "$dir/kubeconfig" --kubectl "$dir/bin/kubectl" --examples "$repo/manifests/examples"
}

case "$cmd" in
  up) up ;;
  down) down ;;
  examples) examples ;;
  *) usage ;;
esac
