package inputs

import (
	"bufio"
	"bytes"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// chunk is one document as yaml.YAMLReader cuts a stream, with the index yaml-cpp (lint's reader) gives
// the document its first content line belongs to.
type chunk struct {
	text  []byte
	index int
}

// lineKind classifies a line as both readers see it at the stream level.
type lineKind int

const (
	lineOther     lineKind = iota // content
	lineBlank                     // empty, spaces or a comment
	lineSeparator                 // "---" alone or followed by a comment
	lineDocEnd                    // "..." alone or followed by a comment
	lineDirective                 // "%YAML", "%TAG"
)

func classify(line []byte) lineKind {
	s := strings.TrimRight(string(line), "\r\n")
	trimmed := strings.TrimSpace(s)
	switch {
	case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		return lineBlank
	case markerLine(s, "---"):
		return lineSeparator
	case markerLine(s, "..."):
		return lineDocEnd
	case strings.HasPrefix(s, "%"):
		return lineDirective
	}
	return lineOther
}

// markerLine: the line starts with marker and holds nothing else but spaces and a comment.
func markerLine(s, marker string) bool {
	if !strings.HasPrefix(s, marker) {
		return false
	}
	rest := strings.TrimSpace(s[len(marker):])
	return rest == "" || strings.HasPrefix(rest, "#")
}

// cppIndexer counts documents as yaml-cpp's Parser::HandleNextDocument does: each "---" starts a
// document, content outside a document starts one implicitly, "..." ends one (a "..." before any
// document is an empty document of its own).
type cppIndexer struct {
	index int
	open  bool
}

func (c *cppIndexer) line(k lineKind) {
	switch k {
	case lineSeparator:
		c.index++
		c.open = true
	case lineDocEnd:
		if !c.open && c.index < 0 {
			c.index++
		}
		c.open = false
	case lineOther:
		if !c.open {
			c.index++
			c.open = true
		}
	}
}

// splitChunks cuts data as yaml.YAMLReader.Read does and notes each chunk's yaml-cpp index.
func splitChunks(data []byte) []chunk {
	r := bufio.NewReader(bytes.NewReader(data))
	c := cppIndexer{index: -1}
	var out []chunk
	var buf bytes.Buffer
	index := -1
	flush := func() {
		if buf.Len() > 0 {
			out = append(out, chunk{text: append([]byte(nil), buf.Bytes()...), index: index})
		}
		buf.Reset()
		index = -1
	}
	for {
		line, isPrefix, err := r.ReadLine()
		for isPrefix && err == nil {
			var more []byte
			more, isPrefix, err = r.ReadLine()
			line = append(append([]byte(nil), line...), more...)
		}
		if err != nil {
			break
		}
		k := classify(line)
		c.line(k)
		// YAMLReader ends a non-empty document at a separator and drops the line; into an empty
		// buffer it writes the separator like any other line.
		if bytes.HasPrefix(line, []byte("---")) && k == lineSeparator && buf.Len() > 0 {
			flush()
			continue
		}
		if k == lineOther && index < 0 {
			index = c.index
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	flush()
	return out
}

// documentIndexes gives lint's document index for each of the n non-empty documents kubectl decoded
// from data. JSON streams are numbered in order; YAML ones by yaml-cpp's count of documents. When the
// two readers do not see the same documents, the order is all that can be said.
func documentIndexes(data []byte, n int) []int {
	seq := make([]int, n)
	for i := range seq {
		seq[i] = i
	}
	if utilyaml.IsJSONBuffer(head(data, bufferSize)) {
		return seq
	}
	var idx []int
	for _, c := range splitChunks(data) {
		if len(idx) == n {
			break // the documents after kubectl stopped (one that does not parse) have no index to give
		}
		js, err := yaml.YAMLToJSON(c.text)
		if err != nil {
			return seq
		}
		js = bytes.TrimSpace(js)
		if len(js) == 0 || bytes.Equal(js, []byte("null")) {
			continue
		}
		if c.index < 0 {
			return seq
		}
		idx = append(idx, c.index)
	}
	if len(idx) != n {
		return seq
	}
	return idx
}

func head(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
