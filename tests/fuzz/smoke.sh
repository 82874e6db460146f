#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# smoke.sh FUZZER SEED_TOOL TARGET SOURCE_ROOT ARTIFACT_DIR: a bounded libFuzzer run for CI.
# Seeds come from the fixtures, the committed corpus tests/fuzz/corpus/TARGET and
# tests/fuzz/regressions/TARGET; new inputs go to a temporary corpus.
# Runs KPW_FUZZ_SECONDS seconds (default 20); a crash, leak, timeout or sanitizer report fails the test
# and leaves the input in ARTIFACT_DIR (add it to tests/fuzz/regressions/TARGET once fixed).
set -euo pipefail
fuzzer=$1 seed_tool=$2 target=$3 root=$4 artifacts=$5
seconds=${KPW_FUZZ_SECONDS:-20}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$artifacts"
"$seed_tool" "$target" "$work/seeds" "$root"
corpora=("$work/corpus" "$work/seeds")
for d in "$root/tests/fuzz/corpus/$target" "$root/tests/fuzz/regressions/$target"; do
  [ -d "$d" ] && corpora+=("$d")
done

# -error_exitcode=1: libFuzzer's default (77) would read as "skipped" to meson.
# -close_fd_mask=2: the server's per-request log lines would drown the report (libFuzzer and the
# sanitizers keep their own copy of stderr). -timeout: any single input over 10 s is a finding.
# Not exec: the EXIT trap must still remove the temporary corpus (an exec'd fuzzer left 2-3 MB behind in
# $TMPDIR per target and run).
status=0
"$fuzzer" -max_total_time="$seconds" -timeout=10 -error_exitcode=1 -rss_limit_mb=2048 -max_len=16384 \
  -dict="$root/tests/fuzz/karmada.dict" -close_fd_mask=2 -print_final_stats=1 \
  -artifact_prefix="$artifacts/$target-" "${corpora[@]}" || status=$?
exit "$status"
