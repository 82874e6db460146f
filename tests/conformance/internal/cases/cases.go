// Package cases turns directories and files into lint invocations: a case is what `lint -o json` is
// pointed at (policy files, and optionally a snapshot of clusters, workloads and bindings, and extra
// flags), the same for lint and for karmada-oracle.
package cases

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"karmada-policy-webhook/tests/conformance/internal/releases"
)

// Case is one comparison: the arguments after `lint -o json`, run from the same working directory by
// both binaries.
type Case struct {
	Name string   // what reports call it: a directory, a file, or a directory with a variant suffix
	Args []string // flags, then the policy paths
	// Dir is the directory a generated or committed case lives in ("" for cases assembled from the
	// shipped examples); `conformance run Dir` replays it.
	Dir string
	// Releases are the Karmada releases the case holds for (its ReleasesFile); nil is every release.
	Releases []string
}

// For reports whether the case holds for a Karmada release (a pinned one, releases.Supported).
func (c Case) For(release string) bool {
	if c.Releases == nil {
		return true
	}
	for _, r := range c.Releases {
		if r == release {
			return true
		}
	}
	return false
}

// Snapshot names the reserved entries of a case directory: each may be a file (.yaml, .yml or .json)
// or a directory, and becomes the flag of the same name. `base` is the policies before a change (lint
// --base: the oracle runs the change through Karmada's policy reconcilers, karmada-oracle change mode).
var Snapshot = []string{"clusters", "workloads", "bindings", "base"}

// IsChange reports whether a case's arguments model a change of policies (lint --base).
func IsChange(args []string) bool {
	for _, a := range args {
		if a == "--base" || strings.HasPrefix(a, "--base=") {
			return true
		}
	}
	return false
}

// MemberStateDir, a directory of a case, becomes --member-state: a subdirectory per member cluster with its
// Nodes and Pods (karmada-scheduler-estimator's input).
const MemberStateDir = "member-state"

// ArgsFile holds extra lint flags, whitespace separated; lines starting with # are comments. A token
// that names an entry of the case directory ("./x.yaml") is made relative to the working directory.
const ArgsFile = "args"

// ReleasesFile names the Karmada releases a case holds for (v1.16, v1.17.1, ...: each resolved to the
// pinned release of its minor), whitespace separated; lines starting with # are comments. Without it a
// case holds for every supported release.
const ReleasesFile = "releases"

// IsManifest reports whether lint reads the file when walking a directory.
func IsManifest(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

func snapshotEntry(name string, isDir bool) (string, bool) {
	base := name
	if !isDir {
		if !IsManifest(name) {
			return "", false
		}
		base = strings.TrimSuffix(name, filepath.Ext(name))
	}
	for _, s := range Snapshot {
		if base == s {
			return s, true
		}
	}
	return "", false
}

// FromDir reads a case directory: clusters/workloads/bindings (file or directory) become --clusters,
// --workloads and --bindings, `args` adds flags, and every other manifest file or subdirectory is a
// policy path, in name order. A plain file is a case of that one file.
func FromDir(dir string) (Case, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return Case{}, fmt.Errorf("case %s: %w", dir, err)
	}
	if !info.IsDir() {
		return Case{Name: dir, Args: []string{dir}, Dir: dir}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return Case{}, fmt.Errorf("case %s: %w", dir, err)
	}
	flags := map[string][]string{}
	var extra, paths, marked []string
	memberState := ""
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if e.Name() == ArgsFile && !e.IsDir() {
			extra, err = readArgs(p, dir)
			if err != nil {
				return Case{}, err
			}
			continue
		}
		if e.Name() == ReleasesFile && !e.IsDir() {
			if marked, err = readReleases(p, dir); err != nil {
				return Case{}, err
			}
			continue
		}
		if e.Name() == MemberStateDir && e.IsDir() {
			memberState = p
			continue
		}
		if s, ok := snapshotEntry(e.Name(), e.IsDir()); ok {
			flags[s] = append(flags[s], p)
			continue
		}
		if e.IsDir() || IsManifest(e.Name()) {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return Case{}, fmt.Errorf("case %s: no policy files (only %s and %s)", dir, strings.Join(Snapshot, "/"), ArgsFile)
	}
	var args []string
	for _, s := range Snapshot {
		for _, p := range flags[s] {
			args = append(args, "--"+s, p)
		}
	}
	if memberState != "" {
		args = append(args, "--member-state", memberState)
	}
	args = append(args, extra...)
	sort.Strings(paths)
	// --stdin-from=FILE (compare.StdinFrom): FILE goes to the binaries' standard input, "-" in its place
	// at the end of the paths (lint reads standard input last, as kubectl apply -f - would be given).
	for _, a := range extra {
		if file, ok := strings.CutPrefix(a, "--stdin-from="); ok {
			paths = append(slices.DeleteFunc(paths, func(p string) bool { return p == file }), "-")
		}
	}
	return Case{Name: dir, Args: append(args, paths...), Dir: dir, Releases: marked}, nil
}

// readReleases reads a releases file: the pinned releases it names, in releases.Supported's order.
func readReleases(file, dir string) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("case %s: %w", dir, err)
	}
	var tokens []string
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			tokens = append(tokens, strings.Fields(line)...)
		}
	}
	if len(tokens) == 0 {
		return nil, fmt.Errorf("case %s: %s names no release (one or more of %s; without the file, every one)",
			dir, ReleasesFile, strings.Join(releases.Supported, ", "))
	}
	list, err := releases.ParseList(strings.Join(tokens, ","))
	if err != nil {
		return nil, fmt.Errorf("case %s: %s: %w", dir, ReleasesFile, err)
	}
	return list, nil
}

// readArgs reads an args file; a token starting with "./" is a path inside the case directory.
func readArgs(file, dir string) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("case %s: %w", dir, err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, tok := range strings.Fields(line) {
			if strings.HasPrefix(tok, "./") {
				tok = filepath.Join(dir, tok)
			} else if k, v, ok := strings.Cut(tok, "=./"); ok && strings.HasPrefix(k, "--") {
				tok = k + "=" + filepath.Join(dir, v)
			}
			out = append(out, tok)
		}
	}
	return out, nil
}

// WriteArgs is the inverse of the args file reader for generated cases: one flag per line.
func WriteArgs(dir string, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return os.WriteFile(filepath.Join(dir, ArgsFile), []byte(strings.Join(args, "\n")+"\n"), 0o644)
}
