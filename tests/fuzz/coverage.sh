#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Source coverage of the fuzz corpus: builds build-fuzz-cov/ (clang -fprofile-instr-generate
# -fcoverage-mapping, no sanitizers), replays every fuzz target it has over its corpus once (libFuzzer
# -runs=0) and prints, with llvm-profdata-14 / llvm-cov-14, line and branch coverage per directory of
# validation/ and webhook/admission/, each target's share, and the functions of validation/rules/ that
# no input enters.
#   tests/fuzz/coverage.sh [--campaign] [--corpus ROOT] [--files REGEX] [TARGET...]
# The corpus of a target is the committed tests/fuzz/corpus/<target>, its fixture seeds and
# tests/fuzz/regressions/<target>; --corpus ROOT adds ROOT/<target>, --campaign is --corpus
# build-fuzz/fuzz-corpus (run_long.sh's).
# --files REGEX also prints the files whose path matches REGEX (e.g. 'scheduling/(assign|select)').
set -euo pipefail
cd "$(dirname "$0")/../.."
extra=() files=''
while [ $# -gt 0 ]; do
  case $1 in
    --campaign) extra+=(build-fuzz/fuzz-corpus); shift ;;
    --corpus) extra+=("$2"); shift 2 ;;
    --files) files=$2; shift 2 ;;
    *) break ;;
  esac
done
build=build-fuzz-cov
if [ ! -f "$build/build.ninja" ]; then
  CXX=${KPW_COV_CXX:-clang++} meson setup "$build" -Dbuildtype=plain -Dfuzzers=true -Dallocator=system \
    "-Dcpp_args=-O0 -fprofile-instr-generate -fcoverage-mapping" \
    "-Dcpp_link_args=-fprofile-instr-generate -fsanitize=fuzzer-no-link" >/dev/null
fi
mapfile -t binaries < <(ninja -C "$build" -t targets all | grep -oE '^tests/fuzz/fuzz_[a-z0-9_]+' | sort -u)
ninja -C "$build" "${binaries[@]}" >/dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for b in "${binaries[@]}"; do t=${b##*/fuzz_}; [ "$t" != seeds ] && targets+=("$t"); done
fi

work="$build/coverage"
export LLVM_PROFILE_FILE=/dev/null # the seed tool is instrumented too; only the replays count
rm -rf "$work"
mkdir -p "$work"
objects=()
for t in "${targets[@]}"; do
  dirs=("$work/seeds-$t")
  "$build/tests/fuzz/fuzz_seeds" "$t" "$work/seeds-$t" "$PWD" 2>/dev/null || mkdir -p "$work/seeds-$t"
  for d in "tests/fuzz/corpus/$t" "tests/fuzz/regressions/$t"; do [ -d "$d" ] && dirs+=("$d"); done
  for root in "${extra[@]}"; do [ -d "$root/$t" ] && dirs+=("$root/$t"); done
  # -runs=0: every input once, no mutation. The server's log lines go to stderr (-close_fd_mask=2).
  LLVM_PROFILE_FILE="$work/$t.profraw" "$build/tests/fuzz/fuzz_$t" -runs=0 -max_len=1048576 -timeout=60 \
    -close_fd_mask=2 "${dirs[@]}" >"$work/$t.log" 2>&1 || { echo "coverage.sh: $t failed, see $work/$t.log" >&2; exit 1; }
  inputs=$(find "${dirs[@]}" -type f | wc -l)
  llvm-profdata-14 merge -sparse "$work/$t.profraw" -o "$work/$t.profdata"
  llvm-cov-14 export -summary-only -instr-profile="$work/$t.profdata" "$build/tests/fuzz/fuzz_$t" >"$work/$t.json"
  echo "$t $inputs" >>"$work/inputs.txt"
  objects+=(-object "$build/tests/fuzz/fuzz_$t")
done
llvm-profdata-14 merge -sparse "$work"/*.profraw -o "$work/all.profdata"
llvm-cov-14 export -instr-profile="$work/all.profdata" "${objects[@]:1}" >"$work/all.json"

python3 - "$work" "$PWD" "$files" "${targets[@]}" <<'PY'
import collections, json, os, re, subprocess, sys
work, root, files_re, targets = sys.argv[1], sys.argv[2].rstrip("/") + "/", sys.argv[3], sys.argv[4:]

def rel(path):
    path = os.path.normpath(path)  # the build directory's "../" prefixes
    return path[len(root):] if path.startswith(root) else None

def directory(path):
    # validation/<sub>/ per subdirectory (validation/ itself for its top-level files); webhook/admission/.
    parts = path.split("/")
    if parts[0] == "validation":
        return "validation/" + (parts[1] + "/" if len(parts) > 2 else "*.cpp")
    if parts[:2] == ["webhook", "admission"]:
        return "webhook/admission/"
    return None

def pct(c, n):
    return f"{100.0 * c / n:5.1f}% ({c}/{n})" if n else "    - (0/0)"

def per_directory(export):
    sums = collections.defaultdict(lambda: [0, 0, 0, 0])
    per_file = []
    for f in export["data"][0]["files"]:
        path = rel(f["filename"])
        d = path and directory(path)
        if not d:
            continue
        s = f["summary"]
        row = [s["lines"]["covered"], s["lines"]["count"], s["branches"]["covered"], s["branches"]["count"]]
        for key in (d, "validation/ (total)" if d.startswith("validation/") else None):
            if key:
                sums[key] = [a + b for a, b in zip(sums[key], row)]
        per_file.append((path, row))
    return sums, per_file

whole = json.load(open(f"{work}/all.json"))
sums, per_file = per_directory(whole)
print(f"{'directory':<26} {'lines':>22} {'branches':>22}")
for d in sorted(sums):
    c = sums[d]
    print(f"{d:<26} {pct(c[0], c[1]):>22} {pct(c[2], c[3]):>22}")
if files_re:
    print(f"\n{'file':<44} {'lines':>22} {'branches':>22}")
    for path, c in sorted(per_file):
        if re.search(files_re, path):
            print(f"{path:<44} {pct(c[0], c[1]):>22} {pct(c[2], c[3]):>22}")

inputs = dict(line.split() for line in open(f"{work}/inputs.txt"))
print(f"\n{'target':<18} {'inputs':>7} {'validation/ lines':>24} {'webhook/admission/ lines':>26}")
for t in targets:
    s, _ = per_directory(json.load(open(f"{work}/{t}.json")))
    v, a = s.get("validation/ (total)", [0] * 4), s.get("webhook/admission/", [0] * 4)
    print(f"{t:<18} {inputs[t]:>7} {pct(v[0], v[1]):>24} {pct(a[0], a[1]):>26}")

# A function counts as entered when any instantiation of it ran.
entered = collections.defaultdict(int)
for fn in whole["data"][0]["functions"]:
    path = rel(fn["filenames"][0])
    if path and path.startswith("validation/rules/"):
        entered[(path, fn["name"])] += fn["count"]
never = sorted(k for k, n in entered.items() if n == 0)
names = subprocess.run(["llvm-cxxfilt-14"], input="\n".join(n for _, n in never), capture_output=True,
                       text=True).stdout.splitlines() if never else []
print(f"\nvalidation/rules/ functions entered: {len(entered) - len(never)} of {len(entered)}")
for (path, _), name in zip(never, names):
    print(f"  never entered: {path}: {name}")
PY
