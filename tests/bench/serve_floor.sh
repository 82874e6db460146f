#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The floor of the serve benchmark on this stack: builds serve with tests/bench/serve_floor.patch (the
# review reduced to RapidJSON's scan of the body, no validation) in a throw-away worktree and runs
# serve_bench.sh against it, side by side with nginx as usual. main is never patched.
#   tests/bench/serve_floor.sh [CONNECTIONS] [DURATION_SECONDS] [THREADS]
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
cleanup() { git worktree remove --force "$work/tree" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
git worktree add -q --detach "$work/tree" HEAD
git -C "$work/tree" apply "$PWD/tests/bench/serve_floor.patch"
"$work/tree/tests/bench/serve_bench.sh" "$@"
