#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Long fuzzing runs on the optimised fuzz build (./dev.sh build-fuzz -> build-fuzz/): every fuzz target
# that build has (fuzz_<target>, discovered, not listed here) or those named, on a persistent corpus in
# build-fuzz/fuzz-corpus/<target> started from the committed corpus (tests/fuzz/corpus/<target>), the
# fixture seeds and tests/fuzz/regressions/<target>. Crashes land in build-fuzz/fuzz-artifacts/; each
# run's final stats (executions, exec/s, coverage, corpus) are printed for RELIABILITY.md.
#   tests/fuzz/run_long.sh [--runs N] [--jobs J] [--procs P] [SECONDS] [TARGET...]
# SECONDS bounds each run (default 600; 0 = no time bound, then --runs must be given); --runs N stops
# each after N executions; --jobs J runs J targets at once (default 1: the cores are shared); --procs P
# fuzzes each target in P processes on its one corpus (libFuzzer reloads the corpus directory every
# second, so they share what they find; the N executions are split between them, the figures summed).
# tests/fuzz/options/<target>.options (OSS-Fuzz's format: `key = value` lines under `[libfuzzer]`)
# adds or overrides libFuzzer flags for one target, e.g. a smaller max_len.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=-1 jobs=1 procs=1 seconds=600
# libFuzzer's timeout is wall-clock: at nice 19 beside builds an input of 0.3 s was starved past 10 s
# (a "timeout" that replays in 0.3 s). 60 s still catches a hang; KPW_FUZZ_TIMEOUT overrides.
timeout=${KPW_FUZZ_TIMEOUT:-60}
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --procs) procs=$2; shift 2 ;;
    *) break ;;
  esac
done
if [[ ${1:-} =~ ^[0-9]+$ ]]; then seconds=$1; shift; fi
[ "$seconds" -gt 0 ] || [ "$runs" -gt 0 ] || { echo "run_long.sh: SECONDS 0 needs --runs N" >&2; exit 2; }
./dev.sh build-fuzz >/dev/null
build=build-fuzz
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$build"/tests/fuzz/fuzz_*; do
    t=${f##*/fuzz_}
    [ -x "$f" ] && [ "$t" != seeds ] && targets+=("$t")
  done
fi
# No allocation stacks (malloc_context_size=0): ASan and LeakSanitizer catch the same errors without
# them, and recording one per malloc was 15% of a manifest run (yaml-cpp allocates per token); a
# finding is replayed with the full report (build-fuzz/tests/fuzz/fuzz_T ARTIFACT).
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:malloc_context_size=0
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
mkdir -p "$build/fuzz-artifacts"

# stat LOG NAME: one of libFuzzer's -print_final_stats=1 figures (the last: a run that found a crash prints them twice).
stat() { sed -n "s/^stat::$2: *//p" "$1" | tail -n 1; }

# target_options TARGET: the [libfuzzer] section of tests/fuzz/options/TARGET.options as -key=value flags.
target_options() {
  local f="tests/fuzz/options/$1.options"
  [ -f "$f" ] || return 0
  awk -F' *= *' '/^\[/ { section = $0; next }
    section == "[libfuzzer]" && NF == 2 && $1 !~ /^#/ { gsub(/ /, "", $1); printf "-%s=%s ", $1, $2 }' "$f"
}

run_one() {
  local t=$1 corpus="$build/fuzz-corpus/$1" seeds
  seeds=$(mktemp -d)
  mkdir -p "$corpus"
  "$build/tests/fuzz/fuzz_seeds" "$t" "$seeds" "$PWD" 2>/dev/null || true
  local extra=()
  for d in "tests/fuzz/corpus/$t" "tests/fuzz/regressions/$t"; do [ -d "$d" ] && extra+=("$d"); done
  # One process shares its corpus with nobody: rereading the corpus directory every second (25k files
  # after a few campaign runs) was 10% of a reschedule run under perf.
  local reload=-reload=1
  [ "$procs" -gt 1 ] || reload=-reload=0
  local rc=0 start=$SECONDS each=$runs logs=() pids=()
  [ "$runs" -gt 0 ] && each=$(((runs + procs - 1) / procs))
  for ((i = 1; i <= procs; i++)); do
    local log="$build/fuzz-$t.log"
    [ "$i" -gt 1 ] && log="$build/fuzz-$t-$i.log"
    logs+=("$log")
    # The target's options come last: libFuzzer takes the last of a repeated flag.
    "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -runs="$each" -timeout="$timeout" -error_exitcode=1 \
      -rss_limit_mb=2048 -max_len=65536 -dict=tests/fuzz/karmada.dict -close_fd_mask=2 -print_final_stats=1 "$reload" \
      -artifact_prefix="$build/fuzz-artifacts/$t-" $(target_options "$t") \
      "$corpus" "$seeds" "${extra[@]}" >"$log" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || rc=$?; done
  rm -rf "$seeds"
  local cov execs=0 rate=0 log n r
  for log in "${logs[@]}"; do
    n=$(stat "$log" number_of_executed_units) r=$(stat "$log" average_exec_per_sec)
    execs=$((execs + ${n:-0})) rate=$((rate + ${r:-0}))
  done
  cov=$(grep -hE '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "${logs[0]}" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)
  printf '%-18s exit=%s execs=%s exec/s=%s seconds=%s %s corpus=%s files/%s\n' "$t" "$rc" \
    "$execs" "$rate" "$((SECONDS - start))" \
    "$cov" "$(ls "$corpus" | wc -l)" "$(du -sh "$corpus" | cut -f1)"
  return $rc
}

status=0
running=0
for t in "${targets[@]}"; do
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || status=1; running=$((running - 1)); fi
done
while [ "$running" -gt 0 ]; do wait -n || status=1; running=$((running - 1)); done
ls "$build/fuzz-artifacts" | sed 's/^/finding: /' || true
exit $status
