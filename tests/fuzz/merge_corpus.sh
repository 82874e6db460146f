#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Folds what the long runs found (build-fuzz/fuzz-corpus/<target>) into the committed corpus
# tests/fuzz/corpus/<target>: libFuzzer -merge=1 into a fresh directory that already holds the fixture
# seeds, so only inputs adding coverage the seeds lack are kept; the seeds are then left out (they are
# generated, not committed). Files over MAX_BYTES (default 2048) are dropped: the corpus stays small.
#   tests/fuzz/merge_corpus.sh [TARGET...]   (default: every target with a campaign corpus)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build-fuzz max_bytes=${MAX_BYTES:-2048}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for d in "$build"/fuzz-corpus/*/; do targets+=("$(basename "$d")"); done
fi
export ASAN_OPTIONS=detect_leaks=0
for t in "${targets[@]}"; do
  work=$(mktemp -d)
  mkdir -p "$work/out" "$work/seeds" "$work/found" "tests/fuzz/corpus/$t"
  "$build/tests/fuzz/fuzz_seeds" "$t" "$work/seeds" "$PWD" 2>/dev/null || true
  cp -r "$work/seeds/." "$work/out/"
  for d in "$build/fuzz-corpus/$t" "tests/fuzz/corpus/$t"; do # the same input may be in both: cp -n
    [ -d "$d" ] && find "$d" -type f -size -$((max_bytes + 1))c -exec cp -n -t "$work/found" {} +
  done
  "$build/tests/fuzz/fuzz_$t" -merge=1 -max_len=65536 -timeout=10 -close_fd_mask=2 -dict=tests/fuzz/karmada.dict \
    "$work/out" "$work/found" >"$work/merge.log" 2>&1
  (cd "$work/seeds" && find . -type f -exec rm -f "$work/out/{}" \;)
  rm -rf "tests/fuzz/corpus/$t"
  mv "$work/out" "tests/fuzz/corpus/$t"
  echo "$t: $(find "tests/fuzz/corpus/$t" -type f -printf '%s\n' | awk '{ n++; b += $1 } END { print n + 0 " inputs, " b + 0 " bytes" }')"
  rm -rf "$work"
  # The replay test fails when it finds fewer inputs than this file says were committed.
  n=$(find "tests/fuzz/corpus/$t" -type f | wc -l)
  sed -i "s|^corpus/$t .*|corpus/$t $n|" tests/fuzz/committed_inputs.txt
  grep -q "^corpus/$t " tests/fuzz/committed_inputs.txt || echo "corpus/$t $n" >>tests/fuzz/committed_inputs.txt
done
