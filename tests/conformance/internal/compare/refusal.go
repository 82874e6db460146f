package compare

import (
	"regexp"
	"slices"
	"strings"
)

// Where each binary says which file it refused. lint: "FILE:LINE:COLUMN: message" (or "FILE: message"),
// a line per refusal. The oracle (kubectl's resource builder, k8s.io/cli-runtime, and the oracle's snapshot loader
// through the same reader): `error parsing FILE: ...` or `unable to decode "FILE": ...`, after a stage
// prefix such as "lint: dry run: --clusters: ", for the first file it refuses.
var (
	// lint names the file first, then the line and column where it knows them.
	lintRefusal   = regexp.MustCompile(`(?m)^([^\s:][^:]*)(?::\d+:\d+)?: `)
	oracleRefusal = regexp.MustCompile(`(?:error parsing |unable to decode ")([^":]+)"?: `)
	// A document kubectl cannot map (no apiVersion, no such kind) or a file with no object.
	oracleDocumentRefusal = regexp.MustCompile(`^([^\s:]+): (?:document \d+: |no objects passed to apply)`)
	// The oracle's snapshot loader refusing one object of a file it read (the API server would never have
	// stored it): "lint: dry run: [bindings: ]KIND [NAMESPACE/]NAME: message", or "KIND: metadata.name:
	// Required value" for one without a name.
	// The name is everything up to the first ": " (a fuzzed name may hold colons and spaces).
	oracleObjectRefusal = regexp.MustCompile(`^lint: dry run: (?:\w+: )?([A-Z]\w*)(?: (.*?))?: (.*)`)
	// An object without a name, whatever its kind reads as (a fuzzed kind may hold anything).
	oracleUnnamedRefusal = regexp.MustCompile(`^lint: dry run: (?:\w+: )?(.*?): metadata\.name: Required value`)
)

// refusedFiles: the files lint's stderr refuses, in order.
func refusedFiles(lintStderr []byte) []string {
	var files []string
	for _, m := range lintRefusal.FindAllSubmatch(lintStderr, -1) {
		if f := string(m[1]); !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	return files
}

// refusal is what the oracle refused: a file, or one object of a snapshot file.
type refusal struct {
	file   string
	object string // "KIND NAME" (the name without its namespace, "" when it has none)
	name   string
}

// oracleRefused: what the oracle refused (zero when its message names neither a file nor an object).
func oracleRefused(stderr []byte) refusal {
	line := FirstLine(stderr)
	if m := oracleRefusal.FindStringSubmatch(line); m != nil {
		return refusal{file: m[1]}
	}
	if m := oracleDocumentRefusal.FindStringSubmatch(line); m != nil {
		return refusal{file: m[1]}
	}
	if m := oracleUnnamedRefusal.FindStringSubmatch(line); m != nil {
		return refusal{object: m[1]} // name "": lint must say metadata.name is missing
	}
	if m := oracleObjectRefusal.FindStringSubmatch(line); m != nil {
		name := m[2]
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
		return refusal{object: strings.TrimSpace(m[1] + " " + name), name: name}
	}
	return refusal{}
}

// refusedByLint: lint refused the same. A file: lint names it. An object: one of lint's refusals is about
// an object of that name (lint words the kind as a person would, "binding"), or, for an object without a
// name, says that metadata.name is missing.
func (r refusal) refusedByLint(lintStderr []byte, lintFiles []string) bool {
	if r.file != "" {
		return slices.Contains(lintFiles, r.file)
	}
	for _, line := range strings.Split(string(lintStderr), "\n") {
		if !lintRefusal.MatchString(line) {
			continue
		}
		if r.name != "" && strings.Contains(line, r.name) || r.name == "" && strings.Contains(line, "metadata.name") {
			return true
		}
	}
	return false
}

func (r refusal) String() string {
	if r.file != "" {
		return r.file
	}
	return r.object
}

// judgeRefusals: both exited 2. The oracle stops at the first file (or snapshot object) it refuses, which lint
// must refuse too (lint reports every refused file); the answers both printed for the rest of the input
// (the other policy files, read and judged as usual) are compared as in any case. An oracle exit 2 that
// is not a refused file (a usage or loading failure) is no answer to compare: could not run.
func judgeRefusals(v Verdict, lint Run, oracle []Run, rules []Rule) Verdict {
	v.BothRefuse, v.Reason = true, "both refuse"
	k := oracle[0]
	refused := oracleRefused(k.Stderr)
	if refused == (refusal{}) {
		return couldNotRun(v, "oracle exit 2 naming no refused file or object: "+FirstLine(k.Stderr))
	}
	var diffs []Diff
	if lintFiles := refusedFiles(lint.Stderr); !refused.refusedByLint(lint.Stderr, lintFiles) {
		diffs = append(diffs, Diff{Path: "refused", Lint: refusedText(lintFiles, lint), Karmada: refused.String()})
	}
	lOut, lErr := ParseOutput(lint.Stdout)
	kOuts := make([]*Output, 0, len(oracle))
	for _, o := range oracle {
		out, err := ParseOutput(o.Stdout)
		if err != nil {
			// Nothing printed beside the refusal (it stopped before the other files): the file decides.
			return finish(v, diffs, nil, nil, rules)
		}
		kOuts = append(kOuts, out)
	}
	if lErr != nil {
		return finish(v, append(diffs, Diff{Path: "output", Lint: lErr.Error(), Karmada: "valid JSON"}), nil, nil, rules)
	}
	return finish(v, append(diffs, diffOutputs(lOut, kOuts)...), lOut, kOuts[0], rules)
}

func refusedText(files []string, lint Run) string {
	if len(files) == 0 {
		return "no file (" + FirstLine(lint.Stderr) + ")"
	}
	return strings.Join(files, ", ")
}
