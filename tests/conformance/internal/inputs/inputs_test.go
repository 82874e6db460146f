package inputs

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

const policy = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: %s\n"

func pp(name string) string { return strings.Replace(policy, "%s", name, 1) }

func TestDecodeNumbersDocumentsAsLint(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		names   []string
		indexes []int
	}{
		{"one", pp("a"), []string{"a"}, []int{0}},
		{"leading separator", "---\n" + pp("a"), []string{"a"}, []int{0}},
		{"empty document first", "---\n---\n" + pp("a"), []string{"a"}, []int{1}},
		{"comment before separator", "# c\n---\n" + pp("a"), []string{"a"}, []int{0}},
		{"empty document between", pp("a") + "---\n---\n" + pp("b"), []string{"a", "b"}, []int{0, 2}},
		{"null document", pp("a") + "---\nnull\n---\n" + pp("b"), []string{"a", "b"}, []int{0, 2}},
		{"separator with comment", pp("a") + "--- # next\n" + pp("b"), []string{"a", "b"}, []int{0, 1}},
		{"list", "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(pp("a"), "\n", "\n  ") +
			"\n---\n" + pp("b"), []string{"a", "b"}, []int{0, 1}},
		{"json", `{"apiVersion":"policy.karmada.io/v1alpha1","kind":"PropagationPolicy","metadata":{"name":"a"}}`,
			[]string{"a"}, []int{0}},
		// kubectl's reader (sigs.k8s.io/yaml over go-yaml v2, not strict) keeps the last of two equal keys.
		{"duplicate key", strings.Replace(pp("a"), "  name: a\n", "  name: a\n  name: b\n", 1), []string{"b"}, []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := Decode(File{Name: "f.yaml", Data: []byte(tt.text)})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			var indexes []int
			for _, d := range docs {
				names = append(names, d.Object.GetName())
				indexes = append(indexes, d.Index)
			}
			if !reflect.DeepEqual(names, tt.names) || !reflect.DeepEqual(indexes, tt.indexes) {
				t.Errorf("got %v at %v, want %v at %v", names, indexes, tt.names, tt.indexes)
			}
		})
	}
}

func TestDecodeRefusesWhatKubectlRefuses(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string
	}{
		{"tab indentation", pp("a") + "spec:\n\tresourceSelectors: []\n", "found character that cannot start any token"},
		{"scalar document", "just a string\n", "cannot unmarshal string"},
		{"no kind", "apiVersion: v1\nmetadata:\n  name: a\n", "Object 'Kind' is missing"},
		{"bad separator", pp("a") + "--- x\n" + pp("b"), "invalid Yaml document separator"},
		{"no objects", "# nothing\n---\n", ErrNoObjects.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(File{Name: "f.yaml", Data: []byte(tt.text)})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
	if docs, err := Decode(File{Name: StdinName, Data: nil, Stdin: true}); err != nil || len(docs) != 0 {
		t.Errorf("empty stdin: %v %v, want no documents and no error", docs, err)
	}
}

// splitChunks must cut a stream exactly as yaml.YAMLReader does, or the indexes belong to other documents.
func TestSplitChunksMatchesYAMLReader(t *testing.T) {
	streams := []string{
		pp("a") + "---\n" + pp("b"),
		"---\n---\n" + pp("a") + "--- # c\n\n" + pp("b") + "---\n",
		"# only a comment\n---\n" + pp("a") + "...\n---\r\n" + pp("b"),
		pp("a") + strings.Repeat("x", 70000) + ": long\n---\n" + pp("b"),
	}
	for i, s := range streams {
		r := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(s)))
		var want [][]byte
		for {
			b, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, append([]byte(nil), b...))
		}
		chunks := splitChunks([]byte(s))
		if len(chunks) != len(want) {
			t.Fatalf("stream %d: %d chunks, YAMLReader %d", i, len(chunks), len(want))
		}
		for j := range want {
			if !bytes.Equal(chunks[j].text, want[j]) {
				t.Errorf("stream %d chunk %d: %q, YAMLReader %q", i, j, chunks[j].text, want[j])
			}
		}
	}
}

func TestCollectWalksDirectoriesInLintOrder(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"b.yaml", "a/z.yml", "a-b.json", "c.txt", "a/y/x.yaml"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(pp("x")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, errs := Collect([]string{dir + "/", filepath.Join(dir, "missing.yaml")}, strings.NewReader(""))
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimPrefix(f.Name, dir+"/"))
	}
	// std::filesystem::path compares component by component: "a/..." sorts before "a-b.json".
	want := []string{"a/y/x.yaml", "a/z.yml", "a-b.json", "b.yaml"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("files = %v, want %v", names, want)
	}
	if len(errs) != 1 || !errors.Is(errs[0], os.ErrNotExist) {
		t.Errorf("errors = %v, want one for the missing file", errs)
	}
}
