#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One entry point for people and CI: installs what is missing (Debian 12, apt), builds, runs or tests.
#   ./dev.sh run    build and start the webhook on 127.0.0.1:8443 with a self-generated dev certificate
#   ./dev.sh demo   build and lint the shipped examples: the dry run, an overflow policy on Karmada v1.17
#                   (--karmada-version), the placement diff against the edited
#                   copy manifests/examples/pr-edit/ (lint --base), today's bindings (lint --bindings) and
#                   the drills of manifests/examples/drills/ (simulate) and the multi-component jobs of
#                   manifests/examples/ai/ (--feature-gates, --explain), what the dry run leaves to
#                   Karmada's gates and an activationPreference: Lazy change (manifests/examples/payments/);
#                   with the control plane built (./dev.sh e2e once), `plan` against it with the examples on it
#   ./dev.sh test   everything CI runs, ending with one "N passed, N failed" line: the release build and its
#                   tests, the whole suite again under clang ASan + UBSan with short fuzz runs, the container
#                   image built and run (`image`), and lint against Karmada's own code (`conformance`)
#   ./dev.sh test-suites       the two builds and their tests only (the image's build stage runs this)
#   ./dev.sh test-sanitizers   only the sanitizer half of the suites
#   ./dev.sh image [tests]     build the Containerfile with podman on a debootstrapped Debian 12 and check it
#   ./dev.sh build-oracle      build-oracle/karmada-oracle-<release> (v1.16.0, v1.17.1, v1.18.2; karmada-oracle
#                              is v1.18.2's): Karmada's own code behind lint's command line
#   ./dev.sh conformance [CASE_DIR...]   lint and the oracle side by side, every release lint answers for
#                              (--karmada-version V: one; docs/conformance.md)
#   ./dev.sh conformance-fuzz N [SEED]   N generated cases compared per release; divergent ones kept
#   ./dev.sh conformance-reviews [--generate N]   serve vs karmada-webhook on AdmissionReviews
#   ./dev.sh e2e      a Karmada control plane on loopback (etcd, kube-apiserver, Karmada's webhook, ours)
#                     and the tests against it (tests/e2e/); `e2e --karmada-version v1.16|v1.17`: an older
#                     release's plane and the tests that apply to it (admission, first-time scheduling, plan
#                     picking the release); the others skip, named
#   ./dev.sh e2e-releases   `e2e --karmada-version` for every older release, one after the other
#   ./dev.sh e2e-members    the plane with two member clusters (KWOK nodes and pods, karmadactl join, an
#                     estimator each) and tests/e2e/members (issue 39), with its timing; `e2e` and `test` run it too
#   ./dev.sh build-asan   only the clang ASan+UBSan build with the fuzzers (CI's -O0 smoke runs)
#   ./dev.sh build-fuzz   the optimised clang ASan+UBSan fuzzers for long runs (tests/fuzz/run_long.sh)
# Every step says what it does and how long it took; a failing step is named with the tail of its output
# (the whole of it is under .cache/dev-logs/).
set -euo pipefail
cd "$(dirname "$0")"

packages=(
  meson ninja-build pkg-config g++ clang python3
  libboost1.81-dev libssl-dev rapidjson-dev libyaml-cpp-dev doctest-dev libcli11-dev libmimalloc-dev
  openssl curl
  ccache # meson puts it before g++: a warm machine's release builds (CI's fresh clones too) are cache hits
  libclang-rt-14-dev llvm-14 # sanitizer + libFuzzer runtimes and llvm-symbolizer (clang's Recommends)
)
# Only the tests need these.
test_packages=(
  procps iproute2 # ps and ss: the server tests read a child's state and its sockets
  chromium # the HTML report test renders the page headless
)
# What `./dev.sh image` needs on the host: Debian's podman (runc as its runtime) and a base image made
# by debootstrap from Debian's archive (no image registry is reachable; see manifests/README.md).
image_packages=(podman runc debootstrap)

# Commands the builds and tests call, each with the Debian package that brings it: checked after the
# install so that a package missing from the lists above is named, not met later as a cryptic failure.
required_commands=(
  meson:meson ninja:ninja-build pkg-config:pkg-config g++:g++ clang++:clang python3:python3
  openssl:openssl curl:curl timeout:coreutils
)
required_test_commands=(ps:procps ss:iproute2 diff:diffutils chromium:chromium llvm-symbolizer-14:llvm-14)
required_headers=( # header:package, for the libraries meson finds by their headers or pkg-config files
  boost/beast.hpp:libboost1.81-dev openssl/ssl.h:libssl-dev rapidjson/document.h:rapidjson-dev
  yaml-cpp/yaml.h:libyaml-cpp-dev doctest/doctest.h:doctest-dev CLI/CLI.hpp:libcli11-dev mimalloc.h:libmimalloc-dev
)

started=$SECONDS
log_dir=.cache/dev-logs
# Where check, skip and the e2e results append their lines (count_results.py reads $log_dir/checks); a
# job running beside another appends to a file of its own, merged when it ends (e2e_planes).
checks_file=$log_dir/checks
# ccache keys on paths below this root relative to it, so a fresh clone elsewhere (as CI makes) hits the
# cache a previous clone filled. It also hashes the locale (LANG, LC_*: the language of the compiler's
# messages) unless told not to: the image's build stage has no LANG where a shell has one, and missed every
# object the host had compiled (measured: 252 s of compiles instead of a link).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=locale
mkdir -p "$log_dir"

elapsed() { local s=$((SECONDS - started)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }
say() { printf 'dev.sh [%s] %s\n' "$(elapsed)" "$*" >&2; }

# free_mb DIR: the megabytes free on DIR's filesystem.
free_mb() { df -Pm "$1" 2>/dev/null | awk 'NR == 2 { print $4 }'; }

# A whole `test` run from nothing writes about $disk_needed_mb MB (RELIABILITY.md, "Disk"): the clone's
# build directories (the ASan one is 6 GB), the Go module and build caches, ccache, the plane binaries'
# cache and podman's images. CI once failed with seven unrelated-looking errors ("failed to create WAL",
# "meson wrote no test log") when the disk was full: say so up front, and again beside any failure.
disk_needed_mb=25000
disk_preflight() {
  local d f
  for d in . "${TMPDIR:-/tmp}"; do
    f=$(free_mb "$d")
    [ -n "$f" ] || continue
    say "disk: $((f / 1024)) GB free on the filesystem of $d"
    if [ "$f" -lt "$disk_needed_mb" ]; then
      say "WARNING: a run from nothing writes about $((disk_needed_mb / 1024)) GB; with $((f / 1024)) GB free it may fail with \"no space left on device\" (df -h; old clones, ~/.cache/go-build and 'podman image prune' are the usual room)"
    fi
  done
}

# disk_note: one line when a failure may be a full disk.
disk_note() {
  local d f
  for d in . "${TMPDIR:-/tmp}"; do
    f=$(free_mb "$d")
    if [ -n "$f" ] && [ "$f" -lt 1024 ]; then
      say "the disk is full or nearly: $f MB free on the filesystem of $d (df -h $d); a failure above may be only that"
      return
    fi
  done
}

# step NAME COMMAND...: runs COMMAND with its output in $log_dir/NAME.log and says how long it took. On
# failure it names the step and the command, prints the log's tail and exits with the command's status:
# nothing a step prints is ever lost.
step() {
  local name=$1; shift
  local log="$log_dir/$name.log" t0=$SECONDS rc=0
  say "$name ..."
  "$@" >"$log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    say "FAILED: $name (exit $rc): $*"
    tail -n 40 "$log" | sed 's/^/  | /' >&2
    say "the whole output is in $log"
    disk_note
    exit "$rc"
  fi
  say "$name done in $((SECONDS - t0)) s"
}

# ninja_step NAME DIR [TARGETS...]: a build; in a terminal ninja shows its own progress line, elsewhere
# (CI) its output goes to the step's log.
ninja_step() {
  local name=$1 dir=$2; shift 2
  if [ -t 2 ]; then
    local t0=$SECONDS rc=0
    say "$name (ninja -C $dir) ..."
    ninja -C "$dir" "$@" || rc=$?
    [ "$rc" -eq 0 ] || { say "FAILED: $name (ninja exit $rc; its errors are above)"; exit "$rc"; }
    say "$name done in $((SECONDS - t0)) s"
  else
    step "$name" ninja -C "$dir" "$@"
  fi
}

apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@"
}

# install_packages PACKAGE...: installs those that are missing, idempotently.
install_packages() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing Debian packages: ${missing[*]}"
  step apt-install apt_install "${missing[@]}"
}

# check_tools [test]: every command and header the build (and with `test`, the tests) call is there.
check_tools() {
  local missing=() entry commands=("${required_commands[@]}")
  [ "${1:-}" != test ] || commands+=("${required_test_commands[@]}")
  for entry in "${commands[@]}"; do
    command -v "${entry%%:*}" >/dev/null 2>&1 || missing+=("command ${entry%%:*} (Debian package ${entry#*:})")
  done
  for entry in "${required_headers[@]}"; do
    [ -e "/usr/include/${entry%%:*}" ] || missing+=("header ${entry%%:*} (Debian package ${entry#*:})")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "FAILED: missing after the install step; add the package to dev.sh's packages list:"
  printf '  - %s\n' "${missing[@]}" >&2
  exit 1
}

# install_deps [test]: the packages of the build (and of the tests), then the check that they are all there.
install_deps() {
  if [ "${1:-}" = test ]; then
    install_packages "${packages[@]}" "${test_packages[@]}"
  else
    install_packages "${packages[@]}"
  fi
  check_tools "$@"
}

# build DIR [TARGETS...]: configure once (release, g++), then compile incrementally.
build() {
  local dir=$1; shift
  [ -f "$dir/build.ninja" ] || step "configure-$dir" meson setup "$dir"
  ninja_step "build-$dir" "$dir" "$@"
}

# Counts the results of meson's JSON logs and of `test`'s checks, and sets the exit status
# (tests/dev/count_results.py says when it fails; under CI=true a skip CI does not expect is a failure).
count_results() {
  python3 tests/dev/count_results.py "$@"
}

# forget_results DIR...: no result of an earlier run may be counted as this one's.
forget_results() {
  local d
  for d in "$@"; do rm -f "$d/meson-logs/testlog.json" "$d/kpw-registered-tests" "$d/kpw-meson-status"; done
}

# run_suite DIR: every test meson registers in DIR. The previous run's log is removed first, so a run that
# stops early can never be counted from an old log; meson's own status is kept for count_results.
run_suite() {
  local dir=$1 status=0
  rm -f "$dir/meson-logs/testlog.json"
  # One line per test ("project:suite / name"); meson may print ninja's own lines first.
  meson test -C "$dir" --list --no-rebuild 2>/dev/null | grep -c ' / ' >"$dir/kpw-registered-tests" || true
  say "tests of $dir: $(cat "$dir/kpw-registered-tests") registered, running ..."
  local t0=$SECONDS
  meson test -C "$dir" --print-errorlogs --num-processes "$(nproc)" >"$dir/test-output.txt" 2>&1 || status=$?
  echo "$status" >"$dir/kpw-meson-status"
  if [ "$status" -ne 0 ]; then
    grep -E '^ *[0-9]+/[0-9]+ .*(FAIL|TIMEOUT|ERROR)' "$dir/test-output.txt" >&2 || true
    tail -n 60 "$dir/test-output.txt" >&2
  fi
  say "tests of $dir done in $((SECONDS - t0)) s (meson exit $status; output in $dir/test-output.txt)"
}

# ---- sanitizer build and fuzz smoke runs (RELIABILITY.md) ------------------------------------------
# build-asan: clang, ASan + UBSan, every UB check fatal, plus the libFuzzer targets; its `meson test`
# runs the whole suite again plus a bounded run of each fuzzer (KPW_FUZZ_SECONDS each).
# -O0, not -O1: the Beast TLS session takes 78 s to compile with ASan + UBSan at -O1 and 31 s at -O0
# (the whole build: 6m40s vs 2m25s on 2 cores), and the suite is I/O-bound; the fuzzers' executions
# per second are the only thing -O0 costs (RELIABILITY.md).
asan_dir=build-asan
asan_options=(
  -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=plain -Dfuzzers=true
  "-Dcpp_args=-O0 -gline-tables-only -fno-omit-frame-pointer -fno-sanitize-recover=all"
  -Dcpp_link_args=-fno-sanitize-recover=all
)

# configure_clang DIR OPTIONS...: a clang build directory configured with OPTIONS, reconfigured only
# when they change.
# "ccache " when ccache is installed (dev.sh installs it; a machine set up by hand may lack it).
ccache_prefix() {
  if command -v ccache >/dev/null 2>&1; then printf 'ccache '; fi
}

configure_clang() {
  local dir=$1; shift
  # A build configured by hand with another compiler cannot be switched to clang: start over. (Meson
  # 1.0 writes no meson-info/intro-compilers.json: the compiler is read from build.ninja's rule.)
  if [ -f "$dir/build.ninja" ] && ! grep -A1 '^rule cpp_COMPILER$' "$dir/build.ninja" | grep -q 'clang++ '; then
    rm -rf "$dir"
  fi
  # The options used are stamped: `meson configure` with unchanged values still regenerates, and
  # every object is then rebuilt, so it runs only when they differ.
  local stamp="$dir/kpw-options" wanted="$*"
  if [ ! -f "$dir/build.ninja" ]; then
    # ccache named in CXX (with CXX set meson adds none itself). It does not hash the content of the
    # -fsanitize-ignorelist file, so meson.build puts the list's SHA-256 on the command line and names
    # the list relative to the build directory (its absolute path missed across clones).
    step "configure-$dir" env CXX="$(ccache_prefix)clang++" meson setup "$dir" "$@"
  elif [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    step "reconfigure-$dir" meson configure "$dir" "$@"
  fi
  echo "$wanted" >"$stamp"
}

build_sanitized() {
  configure_clang "$asan_dir" "${asan_options[@]}"
  ninja_step "build-$asan_dir" "$asan_dir"
}

# build-fuzz: the same sanitizers, optimised, and only the fuzzers (every fuzz_<target> meson defines,
# plus fuzz_seeds): for long runs, not CI. -O1 vs -O2 was measured per target (RELIABILITY.md,
# "Fast fuzz build"). A build of its own so CI's -O0 build-asan is untouched.
fuzz_dir=build-fuzz
fuzz_options=(
  -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=plain -Dfuzzers=true
  "-Dcpp_args=-O${KPW_FUZZ_OPT:-2} -gline-tables-only -fno-omit-frame-pointer -fno-sanitize-recover=all"
  -Dcpp_link_args=-fno-sanitize-recover=all
)

build_fuzz() {
  configure_clang "$fuzz_dir" "${fuzz_options[@]}"
  local targets
  mapfile -t targets < <(ninja -C "$fuzz_dir" -t targets all | grep -oE '^tests/fuzz/fuzz_[a-z0-9_]+' | sort -u)
  ninja_step "build-$fuzz_dir" "$fuzz_dir" "${targets[@]}"
}

run_sanitized_suite() {
  ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1:check_initialization_order=1 \
  UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1 \
  ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer \
  KPW_FUZZ_SECONDS=${KPW_FUZZ_SECONDS:-20} \
    run_suite "$asan_dir"
}

# ---- the container image (issue 24; manifests/README.md) ----------------------------------------------
# `image` builds the Containerfile with Debian's podman on a Debian 12 base that debootstrap makes from
# Debian's archive (no image registry is reachable here), then runs the image: --version, serve answering
# an AdmissionReview over TLS, lint on the shipped examples. The base is made once per machine and cached
# (tarball in $image_cache, image in podman's store); the build stage skips the tests (KPW_TESTS=0) because
# `test` has just run them on the host, so the step costs a fresh package install and a build.
image_cache=${KPW_IMAGE_CACHE:-/var/cache/karmada-policy-webhook}
image_tag=localhost/karmada-policy-webhook:dev

# podman as this machine needs it: runc (Debian 12's podman has no crun here), cgroupfs (no systemd
# in a container or CI sandbox), host networking (loopback only; no bridge or CNI plugins needed).
podman_() { podman --runtime runc --cgroup-manager cgroupfs "$@"; }

# Limits for `podman run` and `podman build`. Podman's defaults for a root container (nofile and nproc
# 1048576) need CAP_SYS_RESOURCE, which this machine's sandbox does not grant: `podman run` then fails
# with "error setting rlimit type 7 (or 6): operation not permitted", and `podman build` runs its steps
# with an open-file limit of 1024 soft and hard, under which the hostile-connections test cannot hold its
# 300 clients. Both get a fresh machine's stock soft open-file limit (1024, which serve and that test
# raise to the hard one) under the host's hard limit, and at most 32768 processes (65536 failed here too).
run_limits() {
  local nproc
  nproc=$(ulimit -Hu)
  [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ] && nproc=32768
  printf '%s\n' --ulimit "nofile=1024:$(ulimit -Hn)" --ulimit "nproc=$nproc:$nproc"
}

# The tags the Containerfile's FROM lines name, resolved from local storage (podman build --pull=never).
base_image=docker.io/library/debian:bookworm
slim_image=docker.io/library/debian:bookworm-slim

make_base_tarball() {
  local rootfs="$image_cache/rootfs.tmp"
  rm -rf "$rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian
  # Debian's image leaves the package lists out; so does this one.
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin
  tar -C "$rootfs" --numeric-owner -cf "$image_cache/debian-bookworm-minbase.tar.tmp" .
  mv "$image_cache/debian-bookworm-minbase.tar.tmp" "$image_cache/debian-bookworm-minbase.tar"
  rm -rf "$rootfs"
}

ensure_base_image() {
  if podman_ image exists "$base_image" && podman_ image exists "$slim_image"; then
    return 0
  fi
  mkdir -p "$image_cache"
  [ -f "$image_cache/debian-bookworm-minbase.tar" ] ||
    step image-debootstrap make_base_tarball
  step image-import-base podman_ import --change 'CMD ["bash"]' "$image_cache/debian-bookworm-minbase.tar" "$base_image"
  step image-tag-slim podman_ tag "$base_image" "$slim_image"
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# expect_in TEXT-FILE PATTERN WHAT: fails the check, showing the text, when PATTERN is absent.
expect_in() {
  grep -q -- "$2" "$1" && return 0
  echo "image check failed: $3 (expected /$2/ in:)" >&2
  sed 's/^/  | /' "$1" >&2
  return 1
}

# image_checks: the built image does its three jobs.
image_checks() (
  local work status=0 limits
  mapfile -t limits < <(run_limits)
  work=$(mktemp -d)
  trap 'podman_ rm -f -t 0 kpw-image-check >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

  podman_ run --pull=never "${limits[@]}" --rm "$image_tag" --version >"$work/version" 2>&1
  expect_in "$work/version" '^karmada-policy-webhook ' "--version" || return 1

  # serve: certificates made by the image's own `certs`, owned by the image's user (65532) as a Secret
  # mounted into the pod would be.
  mkdir -p "$work/pki" && chmod 0777 "$work/pki"
  podman_ run --pull=never "${limits[@]}" --rm --user 65532:65532 -v "$work/pki:/pki" "$image_tag" \
    certs --service karmada-policy-webhook --namespace karmada-system --host 127.0.0.1 --out /pki >/dev/null
  local port health metrics
  port=$(free_port) health=$(free_port) metrics=$(free_port)
  podman_ run --pull=never "${limits[@]}" -d --name kpw-image-check --network host -v "$work/pki:/certs:ro" "$image_tag" \
    serve --cert-dir /certs --bind-address 127.0.0.1 --secure-port "$port" \
    --health-probe-bind-address "127.0.0.1:$health" --metrics-bind-address "127.0.0.1:$metrics" >/dev/null
  local ready=0 i
  for i in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$health/readyz" >/dev/null 2>&1 && { ready=1; break; }
    podman_ container exists kpw-image-check && [ "$(podman_ inspect -f '{{.State.Running}}' kpw-image-check)" = true ] || break
    sleep 0.1
  done
  if [ "$ready" -ne 1 ]; then
    echo "image check failed: serve did not become ready; its log:" >&2
    podman_ logs kpw-image-check 2>&1 | tail -n 20 | sed 's/^/  | /' >&2
    return 1
  fi
  curl -sS --cacert "$work/pki/ca.crt" -H 'Content-Type: application/json' \
    --data @manifests/examples/admission-review.json \
    "https://127.0.0.1:$port/validate-propagationpolicy?timeout=3s" >"$work/review" 2>&1 || true
  # The example review holds a policy with two terms of one name: Karmada's webhook denies it (403).
  expect_in "$work/review" '"uid":"705ab4f5-6393-11e8-b7cc-42010a800002"' "serve answers the review over TLS" ||
    status=1
  expect_in "$work/review" '"allowed":false' "serve denies the example review" || status=1
  expect_in "$work/review" 'each affinity term in a policy must have a unique name' \
    "serve's denial carries Karmada's message" || status=1
  podman_ stop -t 10 kpw-image-check >/dev/null

  # lint: the shipped examples mounted read-only; the seed scenarios pass (exit 0), the broken ones are
  # denied (exit 1) with Karmada's messages.
  local rc=0
  podman_ run --pull=never "${limits[@]}" --rm -v "$PWD/manifests/examples:/examples:ro" "$image_tag" lint \
    --clusters /examples/clusters.yaml --workloads /examples/workloads.yaml \
    /examples/dc-groups.yaml /examples/overflow-onprem-cloud.yaml /examples/checkout-local-idc.yaml \
    >"$work/lint" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || { echo "image check failed: lint of the examples exited $rc" >&2; sed 's/^/  | /' "$work/lint" >&2; status=1; }
  expect_in "$work/lint" 'dc-groups.yaml' "lint names the linted file" || status=1
  rc=0
  podman_ run --pull=never "${limits[@]}" --rm -v "$PWD/manifests/examples:/examples:ro" "$image_tag" lint /examples/broken \
    >"$work/broken" 2>&1 || rc=$?
  [ "$rc" -eq 1 ] || { echo "image check failed: lint of the broken examples exited $rc, not 1" >&2; sed 's/^/  | /' "$work/broken" >&2; status=1; }
  exit "$status"
)

# image [tests]: build the image (the build stage runs the whole suite with `tests`) and check it.
image() {
  install_packages "${image_packages[@]}"
  ensure_base_image
  local run_tests=0
  [ "${1:-}" = tests ] && run_tests=1
  local limits
  mapfile -t limits < <(run_limits)
  # The host's ccache lends the build stage its objects: the stage compiles the sources the host has just
  # compiled, with the same Debian compiler, so on a fresh machine the image costs a link instead of a
  # second release build (7 minutes of CPU). Without ccache on the host the stage keeps its own cache.
  local host_cache=()
  if command -v ccache >/dev/null 2>&1; then
    local dir
    dir=$(ccache -k cache_dir)
    mkdir -p "$dir"
    host_cache=(-v "$dir:/host-ccache" --build-arg KPW_CCACHE_DIR=/host-ccache)
  fi
  step image-build podman_ build --pull=never --network host "${limits[@]}" --build-arg "KPW_TESTS=$run_tests" \
    "${host_cache[@]}" -f Containerfile -t "$image_tag" .
  step image-exists podman_ image exists "$image_tag"
  step image-checks image_checks
  # Every build leaves the previous image and its build stage (with a whole build directory) untagged:
  # what is older than a day goes, so CI's runs on one machine do not fill its disk, while today's
  # layers stay as the cache of the next build.
  step image-prune podman_ image prune -f --filter until=24h
}

# wait_until WHAT SECONDS COMMAND...: polls COMMAND (every second) until it succeeds; fails naming WHAT after
# SECONDS. The demo's waits on the member plane: a condition each, never a fixed sleep.
wait_until() {
  local what=$1 limit=$2 t0=$SECONDS
  shift 2
  until "$@" >/dev/null 2>&1; do
    if [ $((SECONDS - t0)) -ge "$limit" ]; then
      say "FAILED: waited ${limit} s for $what"
      return 1
    fi
    sleep 1
  done
}

# demo_members DIR: lint --members-through-proxy on the loopback plane with two KWOK members
# (manifests/examples/members/README.md): the shipped roles granted to the plane's admin, the IDC partly
# taken by a job of its own, then lint's prediction from the members' nodes and pods read live, and the
# binding karmada-scheduler (with karmada-scheduler-estimator) writes for the same workload.
demo_members() {
  local dir=$1 ex=manifests/examples/members lint=build/webhook/karmada-policy-webhook
  local kubectl="$dir/bin/kubectl" m
  tests/e2e/control-plane.sh up "$dir" --members 2 --estimator
  tests/e2e/control-plane.sh nodes "$dir" idc-1 --count 2 --cpu 2 --memory 8Gi >/dev/null
  tests/e2e/control-plane.sh nodes "$dir" cloud-1 --count 2 --cpu 8 --memory 32Gi >/dev/null
  karmada() { "$kubectl" --kubeconfig "$dir/kubeconfig" "$@"; }
  member() { local name=$1; shift; "$kubectl" --kubeconfig "$dir/members/$name/kubeconfig" "$@"; }
  bind_admin() { # ClusterRole NAME bound to the plane's admin, as an operator binds the shipped roles
    karmada create clusterrolebinding "demo-admin:$1" --clusterrole "$1" --user admin --dry-run=client -o yaml
  }
  { cat manifests/karmada-apiserver/live-snapshot-rbac.yaml; echo ---; bind_admin karmada-policy-webhook:plan; } |
    karmada apply -f - >/dev/null
  for m in idc-1 cloud-1; do
    { cat manifests/member-cluster/member-state-rbac.yaml; echo ---; bind_admin karmada-policy-webhook:member-state; } |
      member "$m" apply -f - >/dev/null
  done
  member idc-1 apply -f "$ex/batch.yaml" >/dev/null
  cpu_of() { karmada get cluster "$1" -o "jsonpath={.status.resourceSummary.$2.cpu}"; }
  batch_counted() { [ "$(cpu_of idc-1 allocated)" = 1 ]; }
  nodes_counted() { [ "$(cpu_of idc-1 allocatable)" = 4 ] && [ "$(cpu_of cloud-1 allocatable)" = 16 ]; }
  proxy_reads_all() { ! "$lint" lint -o json --kubeconfig "$dir/kubeconfig" --members-through-proxy "$ex/checkout-overflow.yaml" 2>&1 >/dev/null | grep -q 'note: member cluster'; }
  wait_until "the members' nodes in their Clusters' status" 120 nodes_counted
  wait_until "the batch job's CPU in idc-1's status" 120 batch_counted
  wait_until "the members' karmada-impersonator to admit the admin (unified-auth)" 60 proxy_reads_all
  karmada apply -f "$ex/checkout.yaml" >/dev/null
  echo "\$ karmada-policy-webhook lint --explain --kubeconfig $dir/kubeconfig --members-through-proxy $ex/checkout-overflow.yaml"
  "$lint" lint --explain --kubeconfig "$dir/kubeconfig" --members-through-proxy "$ex/checkout-overflow.yaml" || true
  echo "== applied: the binding karmada-scheduler writes (with karmada-scheduler-estimator per member) =="
  karmada apply -f "$ex/checkout-overflow.yaml" >/dev/null
  scheduled() { [ -n "$(karmada get rb -n members-demo checkout-deployment -o 'jsonpath={.spec.clusters}')" ]; }
  wait_until "karmada-scheduler to schedule checkout" 60 scheduled
  karmada get rb -n members-demo checkout-deployment \
    -o 'jsonpath={range .spec.clusters[*]}    {.name}{"\t"}{.replicas}{"\n"}{end}'
}

# ---- the conformance oracle (issue 25; docs/conformance.md) ---------------------------------------------
# Go is for the test harnesses only (the shipped binary has none): Go 1.26 as the project's machines carry it
# (/usr/local/go), modules from the Go module proxy, pinned by tests/conformance/go.sum.
ensure_go() {
  if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
    export PATH="/usr/local/go/bin:$PATH"
  fi
  if ! command -v go >/dev/null 2>&1; then
    say "FAILED: the conformance oracle needs Go >= 1.26 on PATH (or in /usr/local/go); Debian 12's golang is too old"
    exit 1
  fi
  local v
  v=$(go env GOVERSION)
  case "$v" in
    go1.2[6-9]* | go1.[3-9][0-9]*) ;;
    *) say "FAILED: the conformance oracle needs Go >= 1.26, found $v"; exit 1 ;;
  esac
}

oracle_dir=build-oracle

# build_oracle: build-oracle/karmada-oracle-<release> for every pinned Karmada release (issue 37: go.mod is
# the default release's, go.<release>.mod each other's), karmada-oracle = the default's, and the other
# commands. build.sh skips itself when its inputs are unchanged; the releases build in parallel.
build_oracle() {
  ensure_go
  say "Go modules of tests/conformance (Karmada, Kubernetes; one module set per Karmada release) from the Go module proxy, once per machine"
  step go-modules oracle_modules
  step build-oracle tests/conformance/build.sh "$PWD/$oracle_dir"
}

oracle_modules() {
  local m
  for m in tests/conformance/go.mod tests/conformance/go.v*.mod; do
    env -C tests/conformance go mod download -modfile="${m#tests/conformance/}" || return 1
  done
}

# conformance ARGS...: lint and the oracle side by side (docs/conformance.md); the committed cases when no
# case directory is given.
conformance() {
  "$oracle_dir/conformance" run --lint build/webhook/karmada-policy-webhook --oracle "$oracle_dir/karmada-oracle" "$@"
}

# reviews_check ARGS...: serve and karmada-webhook answer the same AdmissionReviews (docs/conformance.md,
# "serve's AdmissionReviews").
reviews_check() {
  "$oracle_dir/conformance" reviews --lint build/webhook/karmada-policy-webhook --oracle "$oracle_dir/karmada-oracle" "$@"
}

conformance_fuzz() {
  "$oracle_dir/conformance" fuzz --lint build/webhook/karmada-policy-webhook --oracle "$oracle_dir/karmada-oracle" "$@"
}

# simulate_check ARGS...: simulate's step 0 against lint's dry run on every case with a cluster snapshot
# (docs/conformance.md, "simulate's starting point"): one detector pass and one scheduler serve both.
simulate_check() {
  "$oracle_dir/conformance" simulate --lint build/webhook/karmada-policy-webhook "$@"
}

# What `test` runs: the committed cases (examples, lint fixtures, tests/conformance/cases), with the ledger of
# open divergences, 2,000 generated admission cases and 300 generated changes of policies of seed 1000. The fuzz corpora and generated
# snapshot batches still differ in a few places (RELIABILITY.md, "Conformance"): run them with
# `./dev.sh conformance` and `./dev.sh conformance-fuzz N`.
conformance_check() {
  build_oracle
  # lint's table of the built-in kinds' Go types must be what client-go's types give (regenerate with
  # build-oracle/gotypes > validation/schema/kubernetes-types.json after a Kubernetes upgrade).
  step kubernetes-types "$oracle_dir/gotypes" -check validation/schema/kubernetes-types.json
  # The harness's own Go tests (the comparer's judgements, the generator, the oracle's adapters, table tests
  # mostly), on the default release's module: about 20 s once the oracle is built.
  step conformance-go-tests env -C tests/conformance go test -count=1 -tags kubernetes_protomessage_one_more_release ./...
  step conformance-cases conformance --corpus-limit -1 --known tests/conformance/known-divergences.txt
  grep -E '^(KNOWN|conformance:)' "$log_dir/conformance-cases.log" >&2
  # A fixed-seed generated batch (issue 25 §2): 2,000 admission cases in 10 packs, about 15 s.
  step conformance-generated conformance_fuzz --kind admission --pack 200 --minimise 0 --out "$PWD/$oracle_dir/ci-divergent" 2000 1000
  grep -E '^conformance:' "$log_dir/conformance-generated.log" >&2
  # 1,000 more in lint's default mode (the seeds' overflow rule; its one intentional difference with Karmada
  # is seeds-overflow-rule, docs/conformance.md), about 8 s.
  step conformance-default-mode conformance_fuzz --kind admission --lint-default-mode --pack 200 --minimise 0 --karmada-version v1.18 --out "$PWD/$oracle_dir/ci-divergent-default" 1000 1001
  grep -E '^(conformance:|intentional)' "$log_dir/conformance-default-mode.log" >&2
  # 300 generated changes of policies (lint --base against Karmada's reconcilers, issue 36) in 8 packs, on
  # v1.18.2 (seed 1000 differs on v1.16/v1.17 where lint does not model the release yet: RELIABILITY.md).
  step conformance-lifecycle conformance_fuzz --kind change --pack 40 --minimise 0 --karmada-version v1.18 --out "$PWD/$oracle_dir/ci-divergent-change" 300 1000
  grep -E '^conformance:' "$log_dir/conformance-lifecycle.log" >&2
  step simulate-step-zero simulate_check --corpus-limit -1
  grep -E '^(DIFFER|simulate:)' "$log_dir/simulate-step-zero.log" >&2
  # serve against karmada-webhook's validating handlers on AdmissionReviews, on every release: the committed
  # review cases, serve's fuzz corpus and 2,000 generated CREATE and UPDATE reviews of seed 1000, a few seconds.
  step conformance-reviews reviews_check --generate 2000 --seed 1000 --out "$PWD/$oracle_dir/ci-divergent-reviews"
  grep -E '^(DIFFER|Karmada v)' "$log_dir/conformance-reviews.log" >&2
}

# ---- the control plane on loopback (issue 26; tests/e2e/) ---------------------------------------------------
# etcd, kube-apiserver, kubectl and Karmada's components built from Go modules (tests/e2e/go.mod), started on
# 127.0.0.1 by tests/e2e/control-plane.sh with our webhook registered as manifests/README.md says; the Go tests
# of tests/e2e then compare what kubectl gets with what lint promised.
e2e_dir=build-e2e/plane

# e2e [RELEASE]: the default release's plane and every test, or (RELEASE: v1.17, ...) an older release's
# plane in build-e2e/plane-<release>, where the tests that do not apply skip (issue 37; docs/e2e.md).
e2e() {
  ensure_go
  local release="" tag="" dir=$e2e_dir default
  default=$(go -C tests/e2e list -m -f '{{.Version}}' github.com/karmada-io/karmada)
  if [ -n "${1:-}" ]; then
    release=$(tests/e2e/control-plane.sh release "$1") || return 2
    if [ "$release" != "$default" ]; then
      tag=-$release dir=build-e2e/plane-$release
    fi
  fi
  step e2e-modules env -C tests/e2e go mod download
  if [ -n "$tag" ]; then
    step "e2e-modules$tag" env -C tests/e2e go mod download -modfile "go.$release.mod"
  fi
  # `up` builds what is missing (cold: many minutes, then cached); `down` runs whatever happens after.
  trap 'tests/e2e/control-plane.sh down "'"$dir"'" >/dev/null 2>&1 || true' EXIT
  step "e2e-up$tag" env KPW_BINARY="$PWD/build/webhook/karmada-policy-webhook" \
    tests/e2e/control-plane.sh up "$dir" ${release:+--karmada-version "$release"}
  local rc=0
  say "e2e tests against the control plane ..."
  # -timeout bounds each package's test binary (go test applies it per package): the longest, live, took
  # 98-101 s (issue 38's runs, load 20-30; RELIABILITY.md: 107 s at load 10-16), all packages 238-284 s;
  # 6 min is over 3x that package, and a hung wait fails with the goroutines' stacks well before go test's
  # implicit 10 min default.
  local t0=$SECONDS pkgs
  # Every package but members (it needs member clusters: ./dev.sh e2e-members runs it), so that its skips
  # are not counted here (CI fails an unexpected skip).
  pkgs=$(go -C tests/e2e list ./... | grep -v '/members$')
  # shellcheck disable=SC2086 # one package path per word
  (cd tests/e2e && KPW_E2E_DIR="$PWD/../../$dir" KPW_BINARY="$PWD/../../build/webhook/karmada-policy-webhook" \
    go test -count=1 -p 1 -timeout 6m -json $pkgs >"../../$log_dir/e2e-tests$tag.json" 2>"../../$log_dir/e2e-tests$tag.err") || rc=$?
  say "e2e tests$tag done in $((SECONDS - t0)) s"
  e2e_results "$log_dir/e2e-tests$tag.json" "e2e$tag"
  step "e2e-down$tag" tests/e2e/control-plane.sh down "$dir"
  trap - EXIT
  return "$rc"
}

# e2e_members: the plane with two member clusters (issue 39: idc-1 and cloud-1, KWOK nodes and pods,
# joined with karmadactl join, a karmada-scheduler-estimator each, cluster failover on) and
# tests/e2e/members against it; says how long each part took. `e2e` (default release) and `test` run it.
# -timeout 10m: the package took 159 s, the failover test 124 s of it (two 30 s thresholds of the cluster-status controller).
e2e_members() {
  ensure_go
  local dir=build-e2e/plane-members t_all=$SECONDS t0 rc=0 up_s tests_s
  step e2e-modules env -C tests/e2e go mod download
  step e2e-modules-kwok env -C tests/e2e go mod download -modfile go.kwok.mod
  trap 'tests/e2e/control-plane.sh down "'"$dir"'" >/dev/null 2>&1 || true' EXIT
  t0=$SECONDS
  step e2e-members-up env KPW_BINARY="$PWD/build/webhook/karmada-policy-webhook" \
    tests/e2e/control-plane.sh up "$dir" --members 2 --estimator --failover
  up_s=$((SECONDS - t0))
  say "e2e-members tests against the plane with members ..."
  t0=$SECONDS
  (cd tests/e2e && KPW_E2E_DIR="$PWD/../../$dir" KPW_BINARY="$PWD/../../build/webhook/karmada-policy-webhook" \
    go test -count=1 -p 1 -timeout 10m -json ./members >"../../$log_dir/e2e-members-tests.json" 2>"../../$log_dir/e2e-members-tests.err") || rc=$?
  tests_s=$((SECONDS - t0))
  e2e_results "$log_dir/e2e-members-tests.json" "e2e-members"
  t0=$SECONDS
  step e2e-members-down tests/e2e/control-plane.sh down "$dir"
  trap - EXIT
  say "e2e-members timing: up (builds included) ${up_s} s, tests ${tests_s} s, down $((SECONDS - t0)) s, all $((SECONDS - t_all)) s"
  return "$rc"
}

# e2e_releases: every older release's plane and its tests, one after the other (each plane is stopped
# before the next starts: two would not fit the 2-core machine's budget; RELIABILITY.md).
e2e_releases() {
  local m r rc=0
  for m in tests/e2e/go.v*.mod; do
    r=${m##*/go.}
    r=${r%.mod}
    check "e2e-control-plane-$r" e2e "$r" || rc=1
  done
  return "$rc"
}

# e2e_planes: every plane and its tests, as `test` runs them. Every plane's binaries are built first, one
# build after the other (cold: many minutes); then the default release's plane runs its tests while,
# beside it, the plane with member clusters (issue 39) and then each older release's (issue 37) run theirs.
# The planes wait on their controllers far more than they compute, and each has its own directory,
# etcd and loopback ports: side by side they take about the time of the longest instead of the sum
# (RELIABILITY.md, "Session 24"). The older releases' tests that need the default release skip by design
# (count_results.py, EXPECTED_SKIP_REASONS).
e2e_planes() {
  ensure_go
  check e2e-build step e2e-build tests/e2e/control-plane.sh build
  local beside="$log_dir/checks.beside"
  rm -f "$beside"
  (
    checks_file=$beside
    check e2e-members e2e_members
    e2e_releases || true
  ) &
  local pid=$!
  check e2e-control-plane e2e
  wait "$pid" || true
  [ ! -f "$beside" ] || cat "$beside" >>"$checks_file"
}

# e2e_results FILE LABEL: every leaf test of `go test -json` as a line "LABEL:package/test" of the checks
# file (so `test` counts each), failures with their output.
e2e_results() {
  python3 - "$1" "$checks_file" "$2" <<'PY'
import json, sys
label = sys.argv[3]
results, output = {}, {}
for line in open(sys.argv[1]):
    try:
        ev = json.loads(line)
    except ValueError:
        continue
    name = ev.get("Test")
    if not name:
        continue
    key = ev["Package"].rsplit("/", 1)[-1] + "/" + name
    if ev["Action"] == "output":
        output.setdefault(key, []).append(ev["Output"])
    elif ev["Action"] in ("pass", "fail", "skip"):
        results[key] = ev["Action"]
leaves = [k for k in results if not any(o != k and o.startswith(k + "/") for o in results)]
with open(sys.argv[2], "a") as checks:
    for k in sorted(leaves):
        word = {"pass": "OK", "fail": "FAIL", "skip": "SKIP"}[results[k]]
        why = ""
        if word == "SKIP":  # t.Skip's reason: the last "file_test.go:N: ..." line of the test's output
            lines = [l.strip() for l in output.get(k, []) if "_test.go:" in l]
            why = lines[-1].split(": ", 1)[-1] if lines else "no reason printed"
        # The reason follows a skip on its line: count_results.py allows skips by it (EXPECTED_SKIP_REASONS).
        checks.write(f"{label}:{k.replace(' ', '_')} {word}{' ' + why if why else ''}\n")
        if word == "FAIL":
            sys.stderr.write(f"FAIL {label} {k}\n" + "".join(output.get(k, [])))
        elif word == "SKIP":
            sys.stderr.write(f"dev.sh: SKIPPED {label}:{k}: {why}\n")
print(f"dev.sh: {label}: {sum(results[k] == 'pass' for k in leaves)} passed, "
      f"{sum(results[k] == 'fail' for k in leaves)} failed, {sum(results[k] == 'skip' for k in leaves)} skipped",
      file=sys.stderr)
PY
}

# check NAME COMMAND...: one result line for `test`'s count (a check is one test: passed or failed);
# COMMAND runs in a subshell, so a failed step inside it ends only this check.
check() {
  local name=$1; shift
  if ( "$@" ); then echo "$name OK" >>"$checks_file"; else echo "$name FAIL" >>"$checks_file"; disk_note; fi
}

# skip NAME WHY: a check that cannot run on this machine, counted as skipped and said. Never in CI
# (CI=true), where a missing prerequisite is a failure.
skip() {
  if [ "${CI:-}" = true ]; then
    say "FAILED: $1 cannot run here: $2"
    echo "$1 FAIL" >>"$checks_file"
    return
  fi
  say "SKIPPED: $1: $2"
  echo "$1 SKIP" >>"$checks_file"
}

# can_run_containers: podman needs new mount, pid and network namespaces. A machine that is itself a container
# may or may not grant them (this project's machines and CI do; a stock unprivileged Docker container does
# not), so ask the kernel rather than guess from /.dockerenv.
can_run_containers() { unshare --mount --pid --net --uts --ipc --fork true 2>/dev/null; }

have_go() { command -v go >/dev/null 2>&1 || [ -x /usr/local/go/bin/go ]; }

cmd=${1:-}
case "$cmd" in
  run)
    install_deps
    build build webhook/karmada-policy-webhook
    cat >&2 <<'HINT'
dev.sh: starting the webhook on https://127.0.0.1:8443 (health :8000, metrics :8080); Ctrl-C stops it.
        Send it a review from another shell:
          curl --cacert .dev/certs/ca.crt -H 'Content-Type: application/json' \
            --data @manifests/examples/admission-review.json \
            'https://127.0.0.1:8443/validate-propagationpolicy?timeout=3s'
HINT
    exec build/webhook/karmada-policy-webhook serve --self-signed --cert-dir .dev/certs \
      --bind-address 127.0.0.1 --secure-port 8443 \
      --health-probe-bind-address 127.0.0.1:8000 --metrics-bind-address 127.0.0.1:8080 --v 1
    ;;
  demo)
    install_deps
    build build webhook/karmada-policy-webhook
    policies=(manifests/examples/dc-groups.yaml manifests/examples/overflow-onprem-cloud.yaml
              manifests/examples/checkout-local-idc.yaml)
    echo "== lint + dry run of the seed scenarios against manifests/examples/clusters.yaml =="
    build/webhook/karmada-policy-webhook lint --clusters manifests/examples/clusters.yaml \
      --workloads manifests/examples/workloads.yaml "${policies[@]}"
    echo
    echo "== the same checkout policy with karmada-scheduler-estimator: each member's nodes and pods (--member-state)"
    echo "== the IDC's tainted and full nodes move replicas to the cloud tier (docs/estimator.md) =="
    build/webhook/karmada-policy-webhook lint --explain --member-state tests/data/member-state/checkout \
      --clusters manifests/examples/clusters.yaml --workloads manifests/examples/workloads.yaml \
      manifests/examples/checkout-local-idc.yaml | grep -E 'scheduled|bound by|estimator' | head -n 8
    echo
    echo "== checkout with envoy as a native sidecar (manifests/examples/sidecars/): Karmada counts 500m per replica,"
    echo "== the members 600m, so idc-east-1 gets 8 replicas where 6 fit (the first run's answer) =="
    build/webhook/karmada-policy-webhook lint --clusters manifests/examples/clusters.yaml \
      --workloads manifests/examples/sidecars/workloads.yaml manifests/examples/checkout-local-idc.yaml |
      grep -E 'sidecar-request-not-counted|idc-east-1 |cloud-east-1 '
    echo
    echo "== the overflow policy on Karmada v1.17 (--karmada-version): overflowAffinities came in v1.18.0 (exit 1 expected) =="
    build/webhook/karmada-policy-webhook lint --karmada-version v1.17 manifests/examples/overflow-onprem-cloud.yaml || true
    echo
    echo "== -n as kubectl apply -n: a policy of another namespace is refused (exit 2 expected) =="
    build/webhook/karmada-policy-webhook lint -n production manifests/examples/dc-groups.yaml || true
    echo
    echo "== lint of the broken examples (exit 1 expected: Karmada would deny them) =="
    build/webhook/karmada-policy-webhook lint manifests/examples/broken || true
    echo
    echo "== kubectl apply's strict field validation: unknown fields are the API server's error (exit 1 expected) =="
    build/webhook/karmada-policy-webhook lint tests/data/lint/cases/unknown-fields-strict.yaml || true
    echo "== the same with --validate=warn (kubectl's name): the unknown fields become warnings; the matchLabels of"
    echo "== the wrong type is still a decode error, so exit 1 is expected =="
    { build/webhook/karmada-policy-webhook lint --validate=warn tests/data/lint/cases/unknown-fields-strict.yaml || true; } |
      tail -n 1
    echo
    echo "== placement diff: the seed scenarios (--base) against manifests/examples/pr-edit/ =="
    echo "== (exit 1 expected: the edit leaves checkout unschedulable) =="
    base=()
    for p in "${policies[@]}"; do base+=(--base "$p"); done
    build/webhook/karmada-policy-webhook lint --clusters manifests/examples/clusters.yaml \
      --workloads manifests/examples/workloads.yaml "${base[@]}" --report build/demo-report.html \
      manifests/examples/pr-edit || true
    echo "HTML report: build/demo-report.html (-o markdown gives the pull-request summary)"
    echo
    echo "== a policy update Karmada refuses (spec.schedulerName cannot change on UPDATE): the base version stays"
    echo "== on the server and keeps its workload, nothing moves (tests/data/lifecycle; exit 1 expected) =="
    build/webhook/karmada-policy-webhook lint --clusters tests/data/lifecycle/clusters.yaml \
      --workloads tests/data/lifecycle/workloads.yaml --bindings tests/data/lifecycle/bindings.yaml \
      --base tests/data/lifecycle/base tests/data/lifecycle/scheduler-name || true
    echo
    echo "== day two: today's bindings (manifests/examples/day2/) once the seed policies are applied =="
    build/webhook/karmada-policy-webhook lint --clusters manifests/examples/clusters.yaml \
      --workloads manifests/examples/workloads.yaml --bindings manifests/examples/day2/bindings.yaml \
      "${policies[@]}"
    echo
    echo "== a binding written without Karmada's webhook (maxGroups -1): karmada-scheduler v1.18.2 would crash on it =="
    crash=tests/conformance/cases/binding-crashes-scheduler
    build/webhook/karmada-policy-webhook lint --clusters "$crash/clusters.yaml" --workloads "$crash/workloads.yaml" \
      --bindings "$crash/bindings.yaml" "$crash/policies.yaml" | grep -v '^    '
    echo
    echo "== a binding the detector may not update is scheduled as written, without the webhook's defaults: Divided"
    echo "== without a division preference is Karmada's 'unsupported replica scheduling strategy' (exit 1 expected) =="
    raw=tests/conformance/cases/binding-divided-without-preference
    build/webhook/karmada-policy-webhook lint --clusters "$raw/clusters.yaml" --workloads "$raw/workloads.yaml" \
      --bindings "$raw/bindings.yaml" "$raw/policies.yaml" | grep -v '^    ' || true
    echo
    echo "== a policy's lifecycle (tests/data/lifecycle): PropagationPolicy default/old, which holds web on member1,"
    echo "== replaced by default/new (member2), then deleted with nothing in its place (the binding stays) =="
    life=tests/data/lifecycle
    for change in replace none; do
      build/webhook/karmada-policy-webhook lint --clusters "$life/clusters.yaml" --workloads "$life/workloads.yaml" \
        --bindings "$life/bindings.yaml" --base "$life/base" "$life/$change" | sed -n '/^placement diff/,$p'
    done
    echo "== and in a drill: relabelled, its policy changed, the new holder deleted =="
    build/webhook/karmada-policy-webhook simulate --clusters "$life/clusters.yaml" \
      --workloads "$life/relabel/workloads-team-a.yaml" --bindings "$life/relabel/bindings.yaml" \
      --scenario "$life/relabel/drill.yaml" "$life/relabel/base/teams.yaml" | grep -E '^(==|  Deployment|  event)'
    echo
    echo "== drills: hybrid-cloud overflow, then disaster recovery with eviction on =="
    build/webhook/karmada-policy-webhook simulate --clusters manifests/examples/clusters.yaml \
      --workloads manifests/examples/workloads.yaml \
      --scenario manifests/examples/drills/hybrid-cloud-overflow.yaml manifests/examples/overflow-onprem-cloud.yaml
    build/webhook/karmada-policy-webhook simulate --clusters manifests/examples/clusters.yaml \
      --workloads manifests/examples/workloads.yaml --feature-gates Failover=true --enable-no-execute-taint-eviction \
      --scenario manifests/examples/drills/dr-failover.yaml manifests/examples/dc-groups.yaml ||
      echo "(exit 1 expected: step 2 leaves nginx without a serving replica before the NoExecute taint)"
    echo
    echo "== multi-component jobs (manifests/examples/ai/): a PyTorchJob and a FlinkDeployment on GPU clusters, kept together =="
    build/webhook/karmada-policy-webhook lint --feature-gates=MultiplePodTemplatesScheduling=true --explain \
      --clusters manifests/examples/ai/clusters.yaml --workloads manifests/examples/ai/workloads \
      manifests/examples/ai/policies/keep-together.yaml ||
      echo "(exit 1 expected: no cluster holds a complete FlinkDeployment set)"
    echo
    echo "== the payments team (manifests/examples/payments/) with Karmada's gates on: a schedulePriority naming a"
    echo "== PriorityClass karmada-apiserver lacks (no binding), workloadAffinity and overcommit protection (not"
    echo "== predicted), a policy for another scheduler, and a Namespace a ClusterPropagationPolicy propagates =="
    pay=manifests/examples/payments
    build/webhook/karmada-policy-webhook lint \
      --feature-gates=PriorityBasedScheduling=true,WorkloadAffinity=true,SchedulingOvercommitProtection=true \
      --clusters manifests/examples/clusters.yaml --workloads "$pay/workloads.yaml" "$pay/policies.yaml" |
      grep -v '^    '
    echo "== a change with activationPreference: Lazy (manifests/examples/payments-lazy-edit/, lint --base): payments"
    echo "== moves to the cloud, but the detector leaves both bindings as they are until each Deployment's next change =="
    build/webhook/karmada-policy-webhook lint --clusters manifests/examples/clusters.yaml \
      --workloads "$pay/workloads.yaml" --base "$pay/policies.yaml" manifests/examples/payments-lazy-edit |
      grep -E '\[lazy-activation\]|^placement diff|^  [~+-] |change placement'
    echo "== the same change without its Lazy line (on stdin): both Deployments move now =="
    sed '/activationPreference: Lazy/d' manifests/examples/payments-lazy-edit/policies.yaml |
      build/webhook/karmada-policy-webhook lint --clusters manifests/examples/clusters.yaml \
        --workloads "$pay/workloads.yaml" --base "$pay/policies.yaml" - | sed -n '/^placement diff/,$p'
    echo
    if [ -f build-e2e/bin/.stamp ] && have_go; then
      echo "== plan against a live control plane: the loopback plane with the examples on it, then what pr-edit would move =="
      tests/e2e/control-plane.sh up build/demo-plane
      tests/e2e/control-plane.sh examples build/demo-plane >/dev/null
      build/webhook/karmada-policy-webhook plan --kubeconfig build/demo-plane/kubeconfig manifests/examples/pr-edit |
        sed -n '/^policies on the server/,$p' || true
      echo "== plan --prune of the examples without dc-groups.yaml: nginx's policy is deleted, its binding stays =="
      build/webhook/karmada-policy-webhook plan --prune --kubeconfig build/demo-plane/kubeconfig \
        manifests/examples/overflow-onprem-cloud.yaml manifests/examples/checkout-local-idc.yaml |
        sed -n '/^policies on the server/,$p' || true
      tests/e2e/control-plane.sh down build/demo-plane
      echo
      if [ -f build-e2e/bin/.stamp-members ]; then
        echo "== member clusters read live: lint --members-through-proxy on two KWOK members (manifests/examples/members/) =="
        demo_members build/demo-members || true
        tests/e2e/control-plane.sh down build/demo-members
      else
        echo "== member clusters read live (--members-through-proxy): after ./dev.sh e2e-members has built them once, ./dev.sh demo shows it too"
      fi
    else
      echo "== plan against a live control plane: after ./dev.sh e2e has built it once, ./dev.sh demo shows it too"
    fi
    echo
    if [ -x "$oracle_dir/conformance" ]; then
      echo "== simulate's step 0 against lint's dry run on the shipped examples and the committed cases =="
      simulate_check --corpus-limit -1 | tail -2 || true
    else
      echo "== simulate's step 0 against lint: after ./dev.sh build-oracle, ./dev.sh demo shows it too"
    fi
    echo
    echo "== next: the same answers from Karmada's own code (needs Go 1.26): ./dev.sh conformance; simulate's"
    echo "== step 0 checked against lint on every case: ./dev.sh conformance-simulate; on a real control plane"
    echo "== (etcd, kube-apiserver, Karmada's webhook and scheduler on loopback): ./dev.sh e2e"
    ;;
  test)
    disk_preflight
    install_deps test
    rm -f "$log_dir/checks"
    forget_results build "$asan_dir"
    ( build build && run_suite build ) || true
    ( build_sanitized && run_sanitized_suite ) || true
    if ! can_run_containers; then
      skip image "this machine grants no new namespaces (an unprivileged container?): podman cannot run containers here"
    else
      check image image
    fi
    if have_go; then
      check conformance conformance_check
    else
      skip conformance "Go 1.26 is not installed (the project's machines carry it in /usr/local/go)"
    fi
    if have_go; then
      e2e_planes
    else
      skip e2e-control-plane "Go 1.26 is not installed (the project's machines carry it in /usr/local/go)"
    fi
    disk_note
    count_results build "$asan_dir"
    ;;
  test-suites) # the two builds and every C++ test: what the image's build stage runs (Containerfile)
    install_deps test
    forget_results build "$asan_dir"
    ( build build && run_suite build ) || true
    ( build_sanitized && run_sanitized_suite ) || true
    count_results build "$asan_dir"
    ;;
  test-sanitizers)
    install_deps test
    forget_results "$asan_dir"
    ( build_sanitized && run_sanitized_suite ) || true
    count_results "$asan_dir"
    ;;
  deps) # the Debian packages only (`deps test`: with the tests' own); the Containerfile's first layer
    install_deps "${2:-}"
    ;;
  build) # the release binary only: build/webhook/karmada-policy-webhook
    install_deps
    build build webhook/karmada-policy-webhook
    ;;
  image) # `image tests`: the build stage runs the whole suite too
    install_deps
    rm -f "$log_dir/checks"
    check image image "${2:-}"
    if grep -q 'image FAIL' "$log_dir/checks"; then exit 1; fi
    say "image $image_tag built and checked (--version, serve over TLS, lint)"
    ;;
  build-oracle) # build-oracle/karmada-oracle-<release> per Karmada release, karmada-oracle, conformance (Go; tests only)
    build_oracle
    ;;
  conformance) # [CASE_DIR...]: lint vs Karmada's own code; "conformance: N cases, N agree, N differ"
    install_deps
    build build webhook/karmada-policy-webhook
    build_oracle
    conformance "${@:2}"
    ;;
  conformance-simulate) # [CASE_DIR...]: simulate's step 0 vs lint's dry run (default: every case and corpus entry)
    install_deps
    build build webhook/karmada-policy-webhook
    build_oracle
    simulate_check "${@:2}"
    ;;
  conformance-reviews) # [REVIEW_CASE...] [--generate N --seed S]: serve vs karmada-webhook on AdmissionReviews
    install_deps
    build build webhook/karmada-policy-webhook
    build_oracle
    reviews_check --out "$PWD/$oracle_dir/divergent-reviews" "${@:2}"
    ;;
  conformance-fuzz) # N [SEED]: N generated cases; divergent ones kept under build-oracle/divergent/
    install_deps
    build build webhook/karmada-policy-webhook
    build_oracle
    conformance_fuzz --out "$PWD/$oracle_dir/divergent" "${@:2}"
    ;;
  e2e) # [--karmada-version V]: the control plane on loopback (tests/e2e/control-plane.sh) and the tests against it
    case "${2:-}" in
      "") release="" ;;
      --karmada-version) [ $# -eq 3 ] || { echo "usage: ./dev.sh e2e [--karmada-version v1.16|v1.17|v1.18]" >&2; exit 2; }; release=$3 ;;
      *) echo "usage: ./dev.sh e2e [--karmada-version v1.16|v1.17|v1.18]" >&2; exit 2 ;;
    esac
    if [ -n "$release" ]; then
      ensure_go
      release=$(tests/e2e/control-plane.sh release "$release") || exit 2 # before building anything
    fi
    install_deps test
    build build webhook/karmada-policy-webhook
    rm -f "$log_dir/checks"
    check "e2e-control-plane${release:+-$release}" e2e "$release"
    if [ -z "$release" ]; then
      check e2e-members e2e_members # the default release's: also the plane with member clusters (issue 39)
    fi
    count_results
    ;;
  e2e-members) # the control plane with two member clusters (KWOK) and tests/e2e/members (issue 39)
    install_deps test
    build build webhook/karmada-policy-webhook
    rm -f "$log_dir/checks"
    check e2e-members e2e_members
    count_results
    ;;
  e2e-releases) # every older Karmada release's control plane and the tests that apply to it
    install_deps test
    build build webhook/karmada-policy-webhook
    rm -f "$log_dir/checks"
    ensure_go
    e2e_releases || true
    count_results
    ;;
  build-asan)
    install_deps
    build_sanitized
    ;;
  build-fuzz)
    install_deps
    build_fuzz
    ;;
  *)
    echo "usage: ./dev.sh run|demo|test|test-suites|test-sanitizers|image [tests]|build-oracle|conformance [CASE_DIR...]|conformance-fuzz N [SEED]|conformance-reviews|e2e [--karmada-version V]|e2e-members|e2e-releases|deps [test]|build|build-asan|build-fuzz" >&2
    exit 2
    ;;
esac
