#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# test_hardening_open_file_limit under a hard open-file limit of 1024 (what `podman build` gives its steps
# by default) must report itself skipped, exit 77 with the reason, and run none of its cases.
# usage: open_file_limit_skips_test.sh TEST_BINARY
set -u
binary=$1
command -v prlimit >/dev/null 2>&1 || { echo "SKIP: prlimit (util-linux) is not installed"; exit 77; }
out=$(prlimit --nofile=1024:1024 "$binary" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne 77 ]; then
    echo "FAIL: exit $rc under a hard open-file limit of 1024; expected 77 (meson: skipped)"
    exit 1
fi
case $out in
    *"SKIP: the hard open-file limit (ulimit -Hn) is 1024; these tests need 1400"*) ;;
    *) echo "FAIL: exit 77 without the reason"; exit 1 ;;
esac
case $out in
    *"test cases"*) echo "FAIL: doctest ran before the limit was checked"; exit 1 ;;
esac
echo "OK: skipped with the reason under 1024:1024"
