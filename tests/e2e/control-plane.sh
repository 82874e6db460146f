#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A Karmada control plane on loopback (issue 26), every component built from Go modules at the versions
# tests/e2e/go.mod pins (Kubernetes v1.35.3, the minor Karmada v1.18.2 builds against; etcd as Kubernetes
# pins it; Karmada v1.18.2, the conformance oracle's), or of an older Karmada release (issue 37):
#   tests/e2e/control-plane.sh up DIR [--karmada-version V]
#                                         start it; DIR/kubeconfig (admin) and DIR/bin/kubectl; exit 0 once
#                                         ready. V: v1.16, v1.17 or v1.18 (default), or a full version of
#                                         one of those minors (it maps to the pinned release of the minor)
#   tests/e2e/control-plane.sh up DIR --members N [--estimator] [--failover]
#                                         also N member clusters (issue 39): each its own kube-apiserver
#                                         (on the plane's etcd), kube-controller-manager, kube-scheduler and
#                                         KWOK, joined with `karmadactl join` as idc-1, cloud-1, idc-2, ...
#                                         (label location=idc|cloud); karmada-controller-manager runs its
#                                         default controllers. --estimator: karmada-scheduler-estimator per
#                                         member and karmada-scheduler --enable-scheduler-estimator.
#                                         --failover: karmada-controller-manager with the Failover gate
#                                         and NoExecute taint eviction, karmada-webhook admitting NoExecute
#                                         ClusterTaintPolicies.
#                                         DIR/members.json lists them, DIR/members/NAME/kubeconfig
#   tests/e2e/control-plane.sh nodes DIR MEMBER [--count K] [--cpu C] [--memory M] [--pods P] [--prefix X]
#                                         add K KWOK nodes of that capacity to a member (default 1 node of
#                                         4 CPU, 8Gi, 110 pods, named MEMBER-node-1..K); Ready in seconds
#   tests/e2e/control-plane.sh down DIR   stop everything `up` started (also what a crashed run left)
#   tests/e2e/control-plane.sh examples DIR   put the shipped examples on it (Clusters with their status,
#                                             workloads, policies) and wait until they are scheduled
#   tests/e2e/control-plane.sh release V      print the pinned release V runs as (v1.17 -> v1.17.1), or
#                                             exit 2 naming the supported ones
#   tests/e2e/control-plane.sh build          build what every plane needs (the default release's, the
#                                             members', each older release's), one after the other, so that
#                                             planes started together (./dev.sh test) build nothing at once
# An older release's Karmada components (and CRDs, and webhook configuration) come from
# tests/e2e/go.<release>.mod (built with -modfile, against the Kubernetes minor that release's go.mod
# requires; docs/e2e.md, "Older Karmada releases"); etcd, kubectl and the plane's own commands are the
# default's, kube-apiserver too unless the release's modfile builds its own (v1.16.0: v1.34.1).
# Environment: KPW_BINARY (default build/webhook/karmada-policy-webhook), KPW_E2E_BIN (built binaries,
# default build-e2e/bin; an older release's in KPW_E2E_BIN/<release>), KPW_PLANE_CACHE (where they are
# built and kept per machine, default ~/.cache/karmada-policy-webhook/plane), KPW_E2E_TIMEOUT (seconds for
# `up`, default 300).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then PATH=$PATH:/usr/local/go/bin; fi

say() { printf 'control-plane.sh: %s\n' "$*" >&2; }
usage() {
  echo "usage: $0 up DIR [--karmada-version v1.16|v1.17|v1.18] [--members N [--estimator] [--failover]] | down DIR | examples DIR" >&2
  echo "       $0 nodes DIR MEMBER [--count K] [--cpu C] [--memory M] [--pods P] [--prefix X] | release VERSION | build" >&2
  exit 2
}
if [ "${1:-}" = build ] && [ $# -eq 1 ]; then set -- build -; fi
[ $# -ge 2 ] || usage
cmd=$1 dir=$2
shift 2
version="" members=0 estimator="" failover="" member="" node_args=()
if [ "$cmd" = nodes ]; then
  [ $# -ge 1 ] || usage
  member=$1
  shift
fi
while [ $# -gt 0 ]; do
  case "$cmd $1" in
    "up --karmada-version") [ $# -ge 2 ] || usage; version=$2; shift 2 ;;
    "up --karmada-version="*) version=${1#--karmada-version=}; shift ;;
    "up --members") [ $# -ge 2 ] || usage; members=$2; shift 2 ;;
    "up --members="*) members=${1#--members=}; shift ;;
    "up --estimator") estimator=--estimator; shift ;;
    "up --failover") failover=--failover; shift ;;
    "nodes --count" | "nodes --cpu" | "nodes --memory" | "nodes --pods" | "nodes --prefix")
      [ $# -ge 2 ] || usage; node_args+=("$1" "$2"); shift 2 ;;
    *) usage ;;
  esac
done
case "$members" in ''|*[!0-9]*) say "--members takes a number, not \"$members\""; exit 2 ;; esac
if [ -n "$estimator$failover" ] && [ "$members" -eq 0 ]; then say "${estimator:-$failover} needs --members N (N >= 1)"; exit 2; fi
if [ "$cmd" != release ] && [ "$cmd" != build ]; then
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
fi
bin=${KPW_E2E_BIN:-$repo/build-e2e/bin}
webhook=${KPW_BINARY:-$repo/build/webhook/karmada-policy-webhook}

# Built binaries are kept per machine, outside the clone, one directory per set of binaries and stamp
# (KPW_PLANE_CACHE, default ~/.cache/karmada-policy-webhook/plane), and hard-linked into $bin: a clone at
# another path (CI's) takes them in a second instead of relinking every binary (about four minutes on
# two cores). Each set keeps its two newest stamps.
cache=${KPW_PLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/karmada-policy-webhook/plane}

# cached SET WANT STAMP BUILDER [ARG...]: when this returns, STAMP's directory holds SET's binaries of stamp
# WANT (STAMP says so); `BUILDER OUT ARG...` builds them into OUT when the cache has none. A lock per set,
# so that two clones building at once build once.
cached() {
  local set=$1 want=$2 stamp=$3 builder=$4 dest entry fd
  shift 4
  dest=$(dirname "$stamp")
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return 0; fi
  mkdir -p "$cache" "$dest"
  exec {fd}>"$cache/$set.lock"
  flock "$fd"
  entry="$cache/$set-$want"
  if [ -f "$entry/.complete" ]; then
    say "taking $set's binaries from $entry (built on this machine before)"
  else
    rm -rf "$entry.partial"
    mkdir -p "$entry.partial"
    "$builder" "$entry.partial" "$@"
    touch "$entry.partial/.complete"
    mv "$entry.partial" "$entry"
  fi
  # Hard links where the cache and the clone share a file system, copies where they do not.
  cp -alf "$entry/." "$dest/" 2>/dev/null || cp -af "$entry/." "$dest/"
  rm -f "$dest/.complete"
  touch "$entry"
  find "$cache" -mindepth 1 -maxdepth 1 -type d -name "$set-*" -printf '%T@ %p\n' | sort -rn | tail -n +3 |
    cut -d' ' -f2- | xargs -r rm -rf
  echo "$want" >"$stamp"
  exec {fd}>&-
}

# build: the default plane's binaries, relinked only when the module's pins, its sources or Go change (the
# stamp), so a second `up` on the same machine starts in seconds.
build() {
  local want
  # This script counts too: it lists what is built.
  want=$(cd "$here" && { go version; cat go.mod go.sum control-plane.sh; find cmd internal -name '*.go' -print0 | sort -z | xargs -0 cat; } | sha256sum | cut -d' ' -f1)
  cached default "$want" "$bin/.stamp" build_default_into
}
build_default_into() {
  local out=$1 t0=$SECONDS
  say "building etcd, kube-apiserver, kubectl and Karmada's components into $out (cold: many minutes; then cached)"
  (cd "$here" &&
    go build -o "$out/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver &&
    go build -o "$out/kubectl" k8s.io/kubernetes/cmd/kubectl &&
    go build -o "$out/etcd" ./cmd/etcd &&
    go build -o "$out/karmada-webhook" github.com/karmada-io/karmada/cmd/webhook &&
    go build -o "$out/karmada-scheduler" github.com/karmada-io/karmada/cmd/scheduler &&
    go build -o "$out/karmada-aggregated-apiserver" github.com/karmada-io/karmada/cmd/aggregated-apiserver &&
    go build -o "$out/karmada-controller-manager" github.com/karmada-io/karmada/cmd/controller-manager &&
    go build -o "$out/control-plane" ./cmd/control-plane &&
    go build -o "$out/seed-examples" ./cmd/seed-examples)
  say "built in $((SECONDS - t0)) s"
}

# build_members: what member clusters add (issue 39): kube-controller-manager and kube-scheduler (go.mod's
# Kubernetes), karmadactl and karmada-scheduler-estimator (go.mod's Karmada), KWOK from go.kwok.mod (its
# own graph: sigs.k8s.io/kwok v0.8.0 requires k8s.io/* v0.36.1, does not compile against go.mod's v0.35.3
# replaces (k8s.io/cri-client's log API) and would raise controller-runtime, grpc and otel under every
# component; docs/e2e.md, "Member clusters") and kwok-nodes. Its own stamp, so that a plane without
# members builds nothing more.
build_members() {
  local want
  want=$(cd "$here" && { go version; cat go.mod go.sum go.kwok.mod go.kwok.sum; declare -f build_members_into;
    find cmd/kwok-nodes internal/plane -name '*.go' -print0 | sort -z | xargs -0 cat; } | sha256sum | cut -d' ' -f1)
  cached members "$want" "$bin/.stamp-members" build_members_into
}
build_members_into() {
  local out=$1 t0=$SECONDS
  # karmada-scheduler and karmada-scheduler-estimator talk gRPC with messages that embed k8s.io/api types
  # (pkg/estimator/pb); from k8s.io/api v0.35 those implement proto.Message only under this tag, which
  # Karmada's own build sets on every binary (hack/build.sh:64-65; Makefile:119-120 for its tests).
  # Without it karmada-scheduler panics on its first estimator call ("message *v1.NodeSelector is neither a
  # v1 or v2 Message"). Both are built with it into estimator/, used with --estimator; the plane's
  # other binaries stay as they are.
  local estimator_tags=kubernetes_protomessage_one_more_release
  mkdir -p "$out/estimator"
  say "building the member clusters' components into $out (cold: minutes; then cached)"
  (cd "$here" &&
    go build -o "$out/kube-controller-manager" k8s.io/kubernetes/cmd/kube-controller-manager &&
    go build -o "$out/kube-scheduler" k8s.io/kubernetes/cmd/kube-scheduler &&
    go build -o "$out/karmadactl" github.com/karmada-io/karmada/cmd/karmadactl &&
    go build -tags "$estimator_tags" -o "$out/estimator/karmada-scheduler-estimator" github.com/karmada-io/karmada/cmd/scheduler-estimator &&
    go build -tags "$estimator_tags" -o "$out/estimator/karmada-scheduler" github.com/karmada-io/karmada/cmd/scheduler &&
    go build -modfile go.kwok.mod -o "$out/kwok" sigs.k8s.io/kwok/cmd/kwok &&
    go build -o "$out/kwok-nodes" ./cmd/kwok-nodes)
  say "built the member components in $((SECONDS - t0)) s"
}

# The releases: go.mod's Karmada (the default) and one per go.<release>.mod.
default_release() { (cd "$here" && go list -m -f '{{.Version}}' github.com/karmada-io/karmada); }
releases() {
  local m r
  default_release
  for m in "$here"/go.v*.mod; do
    [ -e "$m" ] || continue
    r=${m##*/go.}
    echo "${r%.mod}"
  done
}

# resolve V: the pinned release of V's minor (v1.17, 1.17, v1.17.5 -> v1.17.1), or a usage error listing
# the supported ones.
resolve() {
  local want r list
  list=$(releases | sort -V | tr '\n' ' ')
  want=$(printf '%s' "$1" | sed -nE 's/^v?([0-9]+\.[0-9]+)(\.[0-9]+)?$/\1/p')
  if [ -z "$want" ]; then
    say "\"$1\" is not a Karmada version (v1.17, 1.17 or v1.17.1); supported releases: ${list% }"
    exit 2
  fi
  for r in $(releases); do
    case "$r" in "v$want".*) echo "$r"; return 0 ;; esac
  done
  say "Karmada $1 is not supported here: supported releases are ${list% } (a patch release runs as the pinned release of its minor)"
  exit 2
}

# build_release R: an older release's Karmada components (and its kube-apiserver where its modfile builds
# one) into $bin/R, against go.R.mod; everything else links to the default's. Its own stamp.
build_release() {
  local want
  # The stamp: Go, the release's pins and the builder (not the whole script: editing the rest of it does
  # not change what is built here).
  want=$(cd "$here" && { go version; cat "go.$1.mod" "go.$1.sum"; declare -f build_release_into; } | sha256sum | cut -d' ' -f1)
  cached "$1" "$want" "$bin/$1/.stamp" build_release_into "$1"
}
build_release_into() {
  local out=$1 r=$2 c t0=$SECONDS
  local mod="go.$r.mod"
  say "building Karmada $r's components into $out against $mod (cold: many minutes; then cached)"
  for c in webhook scheduler aggregated-apiserver controller-manager; do
    (cd "$here" && go build -modfile "$mod" -o "$out/karmada-$c" "github.com/karmada-io/karmada/cmd/$c")
  done
  if grep -q 'k8s.io/kubernetes/cmd/kube-apiserver' "$here/$mod"; then
    (cd "$here" && go build -modfile "$mod" -o "$out/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver)
  else
    ln -sfn ../kube-apiserver "$out/kube-apiserver"
  fi
  # Relative: they name the default's binaries beside the release's directory wherever it is linked.
  ln -sfn ../etcd "$out/etcd"
  ln -sfn ../kubectl "$out/kubectl"
  say "built Karmada $r in $((SECONDS - t0)) s"
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
  local release default rbin karmada modfile=go.mod
  default=$(default_release)
  release=$default
  [ -z "$version" ] || release=$(resolve "$version")
  if [ "$members" -gt 0 ] && [ "$release" != "$default" ]; then
    say "--members runs on the default release's plane ($default) only, not on $release"
    exit 2
  fi
  down # a previous run's leftovers, if any
  [ -x "$webhook" ] || { say "no $webhook: build it first (./dev.sh build)"; exit 1; }
  build
  rbin=$bin
  if [ "$release" != "$default" ]; then
    build_release "$release"
    rbin=$bin/$release modfile=go.$release.mod
  fi
  local member_args=()
  if [ "$members" -gt 0 ]; then
    build_members
    member_args=(--members "$members" --kwok "$(cd "$here" && go list -modfile go.kwok.mod -m -f '{{.Dir}}' sigs.k8s.io/kwok)" $estimator $failover)
  fi
  karmada=$(cd "$here" && go list -modfile "$modfile" -m -f '{{.Dir}}' github.com/karmada-io/karmada)
  mkdir -p "$dir/bin"
  ln -sf "$bin/kubectl" "$dir/bin/kubectl"
  # The release the plane runs, for the tests (e2eenv) and for whoever looks.
  printf '{"version": "%s", "default": "%s"}\n' "$release" "$default" >"$dir/karmada-release.json"
  setsid "$bin/control-plane" --dir "$dir" --bin "$rbin" --karmada "$karmada" --webhook "$webhook" --repo "$repo" \
    --karmada-version "$release" --default-karmada-version "$default" "${member_args[@]}" \
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
  local with=""
  [ "$members" -eq 0 ] || with=", $members member cluster(s)${estimator:+, karmada-scheduler-estimator}${failover:+, failover on}"
  say "up in $((SECONDS - t0)) s (Karmada $release$with): KUBECONFIG=$dir/kubeconfig $dir/bin/kubectl get crd"
}

# nodes: KWOK nodes on a member (kwok-nodes prints them, the member's kubeconfig applies them).
nodes() {
  local kc="$dir/members/$member/kubeconfig" prefix="$member-node" i
  [ -f "$dir/ready" ] || { say "$dir is not up: tests/e2e/control-plane.sh up $dir --members N first"; exit 1; }
  [ -f "$kc" ] || { say "$dir has no member $member (members.json: $(cat "$dir/members.json" 2>/dev/null))"; exit 1; }
  for ((i = 0; i < ${#node_args[@]}; i += 2)); do
    [ "${node_args[i]}" != --prefix ] || prefix=${node_args[i + 1]}
  done
  build_members
  "$bin/kwok-nodes" --prefix "$prefix" "${node_args[@]}" | "$bin/kubectl" --kubeconfig "$kc" apply -f -
}

examples() {
  [ -f "$dir/ready" ] || { say "$dir is not up: tests/e2e/control-plane.sh up $dir first"; exit 1; }
  build
  "$bin/seed-examples" --kubeconfig "$dir/kubeconfig" --kubectl "$dir/bin/kubectl" --examples "$repo/manifests/examples"
}

# build_all: every plane's binaries (each build skips itself when its stamp is current).
build_all() {
  local r default
  default=$(default_release)
  build
  build_members
  for r in $(releases); do
    [ "$r" = "$default" ] || build_release "$r"
  done
}

case "$cmd" in
  build) build_all ;;
  up) up ;;
  down) down ;;
  examples) examples ;;
  nodes) nodes ;;
  release) resolve "$dir" ;;
  *) usage ;;
esac
