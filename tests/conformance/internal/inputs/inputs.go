// Package inputs reads manifests as kubectl's resource builder reads them (cli-runtime resource
// FileVisitor + StreamVisitor: yaml.NewYAMLOrJSONDecoder, sigs.k8s.io/yaml, unstructured decoding,
// `kind: List` flattened), walks directories and numbers documents as `karmada-policy-webhook lint` does.
package inputs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
)

// File is one input: its name as lint reports it ("<stdin>" for -) and its bytes.
type File struct {
	Name  string
	Data  []byte
	Stdin bool
}

// StdinName is how lint names standard input in its reports.
const StdinName = "<stdin>"

// Collect reads every path: "-" is standard input, a directory is walked recursively for *.yaml,
// *.yml and *.json in lint's order, anything else is read as a file whatever its name. Paths that
// cannot be read are returned as errors; the others are still read.
func Collect(paths []string, stdin io.Reader) ([]File, []error) {
	var files []File
	var errs []error
	for _, p := range paths {
		if p == "-" {
			data, err := io.ReadAll(stdin)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", StdinName, err))
				continue
			}
			files = append(files, File{Name: StdinName, Data: data, Stdin: true})
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p, err))
			continue
		}
		if !st.IsDir() {
			files, errs = readFile(p, files, errs)
			continue
		}
		found, err := walk(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: cannot walk directory: %w", p, err))
		}
		for _, f := range found {
			files, errs = readFile(f, files, errs)
		}
	}
	return files, errs
}

func readFile(name string, files []File, errs []error) ([]File, []error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return files, append(errs, fmt.Errorf("%s: %w", name, err))
	}
	return append(files, File{Name: name, Data: data}), errs
}

// hasManifestExtension is lint's filter (and kubectl's FileExtensions) for files found in a directory.
func hasManifestExtension(name string) bool {
	for _, ext := range []string{".yaml", ".yml", ".json"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// join appends a name to a directory as std::filesystem's operator/ does in lint: a separator only
// when the directory does not end in one, no cleaning (so "./dir" stays "./dir/x.yaml").
func join(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// walk lists the manifest files under dir. Entries are visited by name, which gives lint's order (it
// sorts std::filesystem::paths, compared component by component); symlinked directories are not
// followed, symlinked files are listed.
func walk(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var out []string
	var errs []error
	for _, e := range entries {
		p := join(dir, e.Name())
		switch {
		case e.IsDir():
			found, err := walk(p)
			if err != nil && !errors.Is(err, fs.ErrPermission) {
				errs = append(errs, err)
			}
			out = append(out, found...)
		case hasManifestExtension(e.Name()) && (e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0):
			out = append(out, p)
		}
	}
	return out, errors.Join(errs...)
}
