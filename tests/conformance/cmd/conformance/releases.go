package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"karmada-policy-webhook/tests/conformance/internal/releases"
)

// target is one Karmada release to compare on: its oracle and the flags each binary gets.
type target struct {
	release string
	oracle  string   // build-oracle/karmada-oracle-<release>
	lint    []string // ["--karmada-version", release] when lint takes the flag; nil when it answers as one release only
}

// lintFlag is how lint names the release to answer as (issue 37: lint, simulate, plan and serve).
const lintFlag = "--karmada-version"

// targets are the releases to compare: --karmada-version's, or every supported one. A lint built before
// it took --karmada-version answers as releases.Default only: then the default is that release alone,
// and another one named explicitly is compared as a dry run (lint's default answers against that
// release's oracle: its differences are what lint has to model for it).
func (c *common) targets(ctx context.Context, stdout io.Writer) ([]target, error) {
	lintTakesFlag, err := takesFlag(ctx, c.lint, lintFlag)
	if err != nil {
		return nil, err
	}
	var list []string
	switch {
	case c.release != "":
		if list, err = releases.ParseList(c.release); err != nil {
			return nil, fmt.Errorf("--karmada-version: %w", err)
		}
	case lintTakesFlag:
		list = releases.Supported
	default:
		list = []string{releases.Default}
		fmt.Fprintf(stdout, "lint takes no %s: it answers as Karmada %s only, so only that release is compared (%s all compares the others as a dry run)\n",
			lintFlag, releases.Default, lintFlag)
	}
	out := make([]target, 0, len(list))
	for _, r := range list {
		t := target{release: r}
		if lintTakesFlag {
			t.lint = []string{lintFlag, r}
		} else if r != releases.Default {
			fmt.Fprintf(stdout, "lint takes no %s: a dry run of its %s answers against Karmada %s's oracle\n", lintFlag, releases.Default, r)
		}
		if t.oracle, err = oracleOf(ctx, c.oracle, r); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// oracleOf is the oracle binary of a release: <base>-<release> (what build.sh writes), or base itself
// when that is the release's; either way its `version` must say so.
func oracleOf(ctx context.Context, base, release string) (string, error) {
	candidates := []string{base + "-" + release, base}
	var found []string
	for _, p := range candidates {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		built, err := oracleRelease(ctx, p)
		if err != nil {
			return "", err
		}
		if built == release {
			return p, nil
		}
		found = append(found, fmt.Sprintf("%s is %s's", p, built))
	}
	if len(found) == 0 {
		return "", fmt.Errorf("no oracle for Karmada %s: %s (build it first: ./dev.sh build-oracle)", release, strings.Join(candidates, " or "))
	}
	return "", fmt.Errorf("no oracle for Karmada %s: %s (./dev.sh build-oracle builds every release's)", release, strings.Join(found, ", "))
}

// oracleRelease runs `ORACLE version` and reads its "karmada: V" line.
func oracleRelease(ctx context.Context, oracle string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, oracle, "version").Output()
	if err != nil {
		return "", fmt.Errorf("%s version: %v (an oracle older than issue 37: rebuild it with ./dev.sh build-oracle)", oracle, err)
	}
	return parseVersion(out)
}

func parseVersion(out []byte) (string, error) {
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "karmada: "); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", fmt.Errorf("no \"karmada: V\" line in the oracle's version output %q", out)
}

// takesFlag reports whether lint's help (`LINT lint --help`) lists a flag.
func takesFlag(ctx context.Context, lint, flag string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, lint, "lint", "--help")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil && out.Len() == 0 {
		return false, fmt.Errorf("%s lint --help: %v", lint, err)
	}
	return helpLists(out.String(), flag), nil
}

// helpLists: a help text lists the flag as an option (followed by a space, '=' or the line's end, so
// --karmada-version is not --karmada-versions).
func helpLists(help, flag string) bool {
	for _, line := range strings.Split(help, "\n") {
		for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' || r == '=' || r == '\t' }) {
			if f == flag {
				return true
			}
		}
	}
	return false
}

// header introduces one release's comparison when more than one is compared, or when it is not the
// default (so a log says which release a summary line is about).
func header(w io.Writer, ts []target, t target) {
	if len(ts) > 1 || t.release != releases.Default {
		fmt.Fprintf(w, "== Karmada %s (oracle %s)\n", t.release, t.oracle)
	}
}
