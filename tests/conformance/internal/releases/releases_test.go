package releases

import (
	"reflect"
	"runtime/debug"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "v1.16", want: "v1.16.0"},
		{in: "1.17", want: "v1.17.1"},
		{in: "v1.18.2", want: "v1.18.2"},
		{in: "v1.18.0", want: "v1.18.2"}, // a full version maps to the pinned one of its minor
		{in: "v1.16.8", want: "v1.16.0"},
		{in: " v1.17 ", want: "v1.17.1"},
		{in: "v1.15", err: "not supported: supported are v1.16, v1.17, v1.18"},
		{in: "v1.19.0", err: "not supported"},
		{in: "v2.16", err: "not supported"},
		{in: "latest", err: "want v1.MINOR or v1.MINOR.PATCH"},
		{in: "v1", err: "want v1.MINOR"},
		{in: "v1.16.0.1", err: "want v1.MINOR"},
		{in: "v1.x", err: "want v1.MINOR"},
		{in: "", err: "want v1.MINOR"},
	} {
		got, err := Resolve(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Resolve(%q) = %q, %v; want an error with %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestParseList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  bool
	}{
		{in: "all", want: Supported},
		{in: "v1.18", want: []string{"v1.18.2"}},
		{in: "v1.18,v1.16", want: []string{"v1.16.0", "v1.18.2"}},
		{in: "v1.17,v1.17.1", want: []string{"v1.17.1"}},
		{in: "v1.17,", err: true},
		{in: "v1.14", err: true},
	} {
		got, err := ParseList(tc.in)
		if (err != nil) != tc.err || (!tc.err && !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("ParseList(%q) = %v, %v; want %v (error %v)", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestBuiltFrom(t *testing.T) {
	karmada := func(v string) []*debug.Module {
		return []*debug.Module{{Path: "k8s.io/api", Version: "v0.34.1"}, {Path: Module, Version: v}}
	}
	for _, tc := range []struct {
		name   string
		deps   []*debug.Module
		tagged string
		want   string
		err    string
	}{
		{name: "default", deps: karmada("v1.18.2"), tagged: "v1.18", want: "v1.18.2"},
		{name: "v1.16 with its tag", deps: karmada("v1.16.0"), tagged: "v1.16", want: "v1.16.0"},
		{name: "v1.16 modfile without its tag", deps: karmada("v1.16.0"), tagged: "v1.18", err: "with the build tag of v1.18"},
		{name: "no Karmada", deps: karmada("v1.18.2")[:1], tagged: "v1.18", err: "not a dependency"},
		{name: "replaced", deps: []*debug.Module{{Path: Module, Version: "v1.18.2", Replace: &debug.Module{Version: "v1.17.1"}}},
			tagged: "v1.17", want: "v1.17.1"},
	} {
		got, err := builtFrom(tc.deps, tc.tagged)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: builtFrom = %q, %v; want an error with %q", tc.name, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: builtFrom = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestMinor(t *testing.T) {
	if got := Minor("v1.16.0"); got != "v1.16" {
		t.Errorf("Minor(v1.16.0) = %q", got)
	}
}
