#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One entry point for people and CI: installs what is missing (Debian 12, apt), builds, runs or tests.
#   ./dev.sh run    build and start the webhook on 127.0.0.1:8443 with a self-generated dev certificate
#   ./dev.sh demo   build and lint the shipped examples: the dry run, the placement diff against the edited
#                   copy manifests/examples/pr-edit/ (lint --base), today's bindings (lint --bindings) and
#                   the drills of manifests/examples/drills/ (simulate) and the multi-component jobs of
#                   manifests/examples/ai/ (--feature-gates, --explain)
#   ./dev.sh test   build and run every test suite: the normal build, then the whole suite again under
#                   clang ASan + UBSan with short fuzz runs; ends with "N passed, N failed" (both builds)
#   ./dev.sh test-sanitizers   only the sanitizer half of `test`
#   ./dev.sh build-asan   only the clang ASan+UBSan build with the fuzzers (CI's -O0 smoke runs)
#   ./dev.sh build-fuzz   the optimised clang ASan+UBSan fuzzers for long runs (tests/fuzz/run_long.sh)
set -euo pipefail
cd "$(dirname "$0")"

packages=(
  meson ninja-build pkg-config g++ clang python3
  libboost1.81-dev libssl-dev rapidjson-dev libyaml-cpp-dev doctest-dev libcli11-dev libmimalloc-dev
  openssl curl
  libclang-rt-14-dev llvm-14 # sanitizer + libFuzzer runtimes and llvm-symbolizer (clang's Recommends)
)

install_deps() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "dev.sh: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# build DIR [meson options...]: configure once, then compile incrementally.
build() {
  local dir=$1; shift
  [ -f "$dir/build.ninja" ] || meson setup "$dir" "$@" >/dev/null
  ninja -C "$dir" >/dev/null
}

# Counts meson's per-test results from its JSON log (CI reads neither meson's nor doctest's summary).
count_results() {
  python3 - "$@" <<'PY'
import json, sys
passed = failed = skipped = 0
for log in sys.argv[1:]:
    for line in open(log):
        r = json.loads(line).get("result")
        if r in ("OK", "EXPECTEDFAIL"): passed += 1
        elif r == "SKIP": skipped += 1
        else: failed += 1
print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
sys.exit(1 if failed or passed == 0 else 0)
PY
}

run_suite() {
  local dir=$1
  meson test -C "$dir" --print-errorlogs --num-processes "$(nproc)" >"$dir/test-output.txt" 2>&1 || {
    grep -E '^ *[0-9]+/[0-9]+ .*(FAIL|TIMEOUT|ERROR)' "$dir/test-output.txt" >&2 || true
    tail -n 60 "$dir/test-output.txt" >&2
  }
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
    CXX=clang++ meson setup "$dir" "$@" >/dev/null
  elif [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    meson configure "$dir" "$@" >/dev/null
  fi
  echo "$wanted" >"$stamp"
}

build_sanitized() {
  configure_clang "$asan_dir" "${asan_options[@]}"
  ninja -C "$asan_dir" >/dev/null
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
  ninja -C "$fuzz_dir" "${targets[@]}" >/dev/null
}

run_sanitized_suite() {
  ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1:check_initialization_order=1 \
  UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1 \
  ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer \
  KPW_FUZZ_SECONDS=${KPW_FUZZ_SECONDS:-20} \
    run_suite "$asan_dir"
}

cmd=${1:-}
case "$cmd" in
  run)
    install_deps
    build build
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
    build build
    policies=(manifests/examples/dc-groups.yaml manifests/examples/overflow-onprem-cloud.yaml
              manifests/examples/checkout-local-idc.yaml)
    echo "== lint + dry run of the seed scenarios against manifests/examples/clusters.yaml =="
    build/webhook/karmada-policy-webhook lint --clusters manifests/examples/clusters.yaml \
      --workloads manifests/examples/workloads.yaml "${policies[@]}"
    echo
    echo "== lint of the broken examples (exit 1 expected: Karmada would deny them) =="
    build/webhook/karmada-policy-webhook lint manifests/examples/broken || true
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
    echo "== day two: today's bindings (manifests/examples/day2/) once the seed policies are applied =="
    build/webhook/karmada-policy-webhook lint --clusters manifests/examples/clusters.yaml \
      --workloads manifests/examples/workloads.yaml --bindings manifests/examples/day2/bindings.yaml \
      "${policies[@]}"
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
    ;;
  test)
    install_deps
    build build
    run_suite build
    build_sanitized
    run_sanitized_suite
    count_results build/meson-logs/testlog.json "$asan_dir/meson-logs/testlog.json"
    ;;
  test-sanitizers)
    install_deps
    build_sanitized
    run_sanitized_suite
    count_results "$asan_dir/meson-logs/testlog.json"
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
    echo "usage: ./dev.sh run|demo|test|test-sanitizers|build-asan|build-fuzz" >&2
    exit 2
    ;;
esac
