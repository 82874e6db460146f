// Package releases names the Karmada releases the conformance oracle is built against (issue 37): one
// pinned release per maintained minor, each with its own go.mod (tests/conformance/go.mod for the
// default, go.<release>.mod for the others), and maps what a user writes (v1.17, 1.17, v1.17.5) to the
// pinned release of that minor, as lint's --karmada-version does.
package releases

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Supported are the pinned releases, oldest first: the Go module proxy serves v1.16.0, v1.17.1, v1.18.0
// and v1.18.2 of github.com/karmada-io/karmada and nothing else of these minors.
var Supported = []string{"v1.16.0", "v1.17.1", "v1.18.2"}

// Default is the release of tests/conformance/go.mod: build-oracle/karmada-oracle, and lint's answer
// without --karmada-version.
const Default = "v1.18.2"

// Module is Karmada's Go module path.
const Module = "github.com/karmada-io/karmada"

// Resolve maps a release as written (v1.16, 1.16, v1.16.0, v1.16.8) to the pinned release of its minor.
func Resolve(s string) (string, error) {
	want := strings.TrimPrefix(strings.TrimSpace(s), "v")
	parts := strings.Split(want, ".")
	if len(parts) < 2 || len(parts) > 3 || !numbers(parts) {
		return "", fmt.Errorf("karmada version %q: want v1.MINOR or v1.MINOR.PATCH, one of %s", s, strings.Join(minors(), ", "))
	}
	for _, r := range Supported {
		if Minor(r) == "v"+parts[0]+"."+parts[1] {
			return r, nil
		}
	}
	return "", fmt.Errorf("karmada version %q is not supported: supported are %s (pinned %s)", s,
		strings.Join(minors(), ", "), strings.Join(Supported, ", "))
}

// ParseList reads a --karmada-version value of the comparer: "all", or releases separated by commas,
// each resolved; duplicates are dropped, the order is Supported's.
func ParseList(s string) ([]string, error) {
	if strings.TrimSpace(s) == "all" {
		return append([]string(nil), Supported...), nil
	}
	chosen := map[string]bool{}
	for _, item := range strings.Split(s, ",") {
		r, err := Resolve(item)
		if err != nil {
			return nil, err
		}
		chosen[r] = true
	}
	var out []string
	for _, r := range Supported {
		if chosen[r] {
			out = append(out, r)
		}
	}
	return out, nil
}

// Minor is "v1.16" of "v1.16.0".
func Minor(release string) string {
	parts := strings.SplitN(release, ".", 3)
	if len(parts) < 2 {
		return release
	}
	return parts[0] + "." + parts[1]
}

func minors() []string {
	out := make([]string, len(Supported))
	for i, r := range Supported {
		out[i] = Minor(r)
	}
	return out
}

func numbers(parts []string) bool {
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// Built is the Karmada release this binary was built against: the version of Karmada's module in the
// binary's build information (the modfile's pin), checked against the build tag that selected the
// release's API differences (tag_*.go), so a binary built with one release's modfile and another's tag
// is refused rather than trusted.
func Built() (string, error) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", fmt.Errorf("no build information in this binary")
	}
	return builtFrom(info.Deps, taggedMinor)
}

func builtFrom(deps []*debug.Module, tagged string) (string, error) {
	for _, d := range deps {
		if d.Path != Module {
			continue
		}
		v := d.Version
		if d.Replace != nil {
			v = d.Replace.Version
		}
		if Minor(v) != tagged {
			return "", fmt.Errorf("built against Karmada %s with the build tag of %s: build with tests/conformance/build.sh", v, tagged)
		}
		return v, nil
	}
	return "", fmt.Errorf("%s is not a dependency of this binary", Module)
}
