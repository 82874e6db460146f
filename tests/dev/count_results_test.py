#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tests/dev/count_results.py on made-up meson logs and checks files: a skip is counted as skipped, never
# passed or failed; under CI=true a skip CI does not expect is a failure, the expected one is not.
# usage: count_results_test.py COUNT_RESULTS_PY
import json
import os
import subprocess
import sys
import tempfile

script = sys.argv[1]
failures = []


def run(tmp, results, checks_lines, ci):
    build = os.path.join(tmp, "build")
    os.makedirs(os.path.join(build, "meson-logs"), exist_ok=True)
    with open(os.path.join(build, "meson-logs", "testlog.json"), "w") as log:
        for name, result, stdout in results:
            log.write(json.dumps({"name": f"karmada-policy-webhook:webhook / {name}", "result": result,
                                  "stdout": stdout}) + "\n")
    for f, v in (("kpw-registered-tests", len(results)), ("kpw-meson-status", 0)):
        with open(os.path.join(build, f), "w") as out:
            out.write(f"{v}\n")
    checks = os.path.join(tmp, "checks")
    with open(checks, "w") as out:
        out.write("".join(line + "\n" for line in checks_lines))
    env = dict(os.environ)
    env.pop("CI", None)
    if ci:
        env["CI"] = "true"
    p = subprocess.run([sys.executable, script, "--checks", checks, build], env=env, capture_output=True, text=True)
    return p.returncode, p.stdout.strip(), p.stderr


def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


limited = ("hardening/open_file_limit", "SKIP", "SKIP: the hard open-file limit (ulimit -Hn) is 1024; these tests need 1400\n")
ok = ("lint/lint_cli", "OK", "")
drain = "e2e:operations/TestDrainCycles SKIP"

with tempfile.TemporaryDirectory() as tmp:
    rc, out, err = run(tmp, [ok, limited], ["e2e:live/TestWatch OK"], ci=False)
    expect("a skip outside CI: exit", rc, 0)
    expect("a skip outside CI: count", out, "2 passed, 0 failed, 1 skipped")
    expect("a skip outside CI: the reason is printed", "is 1024; these tests need 1400" in err, True)

    rc, out, err = run(tmp, [ok, limited], ["e2e:live/TestWatch OK"], ci=True)
    expect("an unexpected skip under CI=true: exit", rc, 1)
    expect("an unexpected skip under CI=true: count", out, "2 passed, 1 failed")
    expect("an unexpected skip under CI=true: says which and why",
           "hardening/open_file_limit was skipped (SKIP: the hard open-file limit" in err, True)

    rc, out, err = run(tmp, [ok], [drain], ci=True)
    expect("the expected skip under CI=true: exit", rc, 0)
    expect("the expected skip under CI=true: count", out, "1 passed, 0 failed, 1 skipped")
    expect("the expected skip under CI=true: its reason", "KPW_E2E_DRAIN_CYCLES" in err, True)

    older = "e2e-v1.17.1:admission/TestOurs SKIP not on Karmada v1.17.1's plane: runs on the default release's only"
    rc, out, err = run(tmp, [ok], [older], ci=True)
    expect("an older plane's skip of a default-release test under CI=true: exit", rc, 0)
    expect("an older plane's skip of a default-release test under CI=true: count", out, "1 passed, 0 failed, 1 skipped")

    for line in ("e2e:admission/TestOurs SKIP not on Karmada v1.17.1's plane: runs on the default release's only",
                 "e2e-v1.17.1:admission/TestOurs SKIP KPW_E2E_DIR is not set"):
        rc, out, err = run(tmp, [ok], [line], ci=True)
        expect(f"another skip under CI=true ({line}): exit", rc, 1)
        expect(f"another skip under CI=true ({line}): count", out, "1 passed, 1 failed")

    rc, out, err = run(tmp, [ok, ("x/y", "FAIL", "")], [], ci=False)
    expect("a failure: exit", rc, 1)
    expect("a failure: count", out, "1 passed, 1 failed")
    # CI keeps only the output's tail: the failed test is named after the skips, just before the count.
    last = (err.rstrip().splitlines() or [""])[-1]
    expect("a failure: named at the end", last.startswith("dev.sh: FAILED ") and "webhook / x/y FAIL" in last, True)

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
