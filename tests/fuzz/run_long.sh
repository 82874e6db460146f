#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Long fuzzing runs: every target (or those named) for SECONDS each (default 600), in parallel up to
# the core count, on a persistent corpus in build-asan/fuzz-corpus/<target> (seeded from the fixtures
# and tests/fuzz/regressions). Crashes land in build-asan/fuzz-artifacts/; each run's final stats
# (executions, coverage, corpus) are printed for RELIABILITY.md.
#   tests/fuzz/run_long.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(admission_review manifest http_request schedule)
./dev.sh build-asan >/dev/null # the sanitizer build with the libFuzzer targets
build=build-asan
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
mkdir -p "$build/fuzz-artifacts"

run_one() {
  local t=$1 corpus="$build/fuzz-corpus/$1" seeds
  seeds=$(mktemp -d)
  mkdir -p "$corpus"
  "$build/tests/fuzz/fuzz_seeds" "$t" "$seeds" "$PWD"
  local extra=()
  [ -d "tests/fuzz/regressions/$t" ] && extra+=("tests/fuzz/regressions/$t")
  local rc=0
  "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -error_exitcode=1 -rss_limit_mb=2048 \
    -max_len=65536 -dict=tests/fuzz/karmada.dict -close_fd_mask=2 -print_final_stats=1 -print_coverage=0 \
    -artifact_prefix="$build/fuzz-artifacts/$t-" "$corpus" "$seeds" "${extra[@]}" >"$build/fuzz-$t.log" 2>&1 || rc=$?
  rm -rf "$seeds"
  local cov
  cov=$(grep -E '^#[0-9]+.*(DONE|pulse|NEW)' "$build/fuzz-$t.log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]+' || true)
  printf '%-18s exit=%s execs=%s %s corpus-files=%s\n' "$t" "$rc" \
    "$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/fuzz-$t.log")" "$cov" "$(ls "$corpus" | wc -l)"
  return $rc
}

status=0
running=0
for t in "${targets[@]}"; do
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$(nproc)" ]; then wait -n || status=1; running=$((running - 1)); fi
done
while [ "$running" -gt 0 ]; do wait -n || status=1; running=$((running - 1)); done
ls "$build/fuzz-artifacts" | sed 's/^/finding: /' || true
exit $status
