package generate

import (
	"encoding/json"
	"regexp"
	"strings"
)

// Node is a YAML node as the generator writes it: the tree keeps key order, duplicate keys, anchors,
// aliases and merge keys, so hostile inputs are part of the tree (and shrink with it).
type Node struct {
	Kind   NodeKind
	Raw    string // Scalar: the text written verbatim (already quoted where it must be); Alias: the anchor
	Items  []*Node
	Pairs  []*Pair
	Anchor string // written as &Anchor before the node
}

// NodeKind says which fields of a Node are used.
type NodeKind int

const (
	Scalar NodeKind = iota
	Map
	List
	Alias
)

// Pair is one mapping entry.
type Pair struct {
	Key   string // written verbatim
	Value *Node
	// Comment lines written before the key, verbatim (a hostile one may be indented with a tab).
	Comment string
	// TabSep separates key and scalar value with a tab instead of a space.
	TabSep bool
}

// M builds a mapping from key, value, key, value...; a value may be a *Node, a string (quoted when
// needed), an int, a bool or nil (the pair is left out).
func M(kv ...any) *Node {
	n := &Node{Kind: Map}
	for i := 0; i+1 < len(kv); i += 2 {
		if v := node(kv[i+1]); v != nil {
			n.Pairs = append(n.Pairs, &Pair{Key: kv[i].(string), Value: v})
		}
	}
	return n
}

// L builds a list from values as M takes them.
func L(items ...any) *Node {
	n := &Node{Kind: List}
	for _, it := range items {
		if v := node(it); v != nil {
			n.Items = append(n.Items, v)
		}
	}
	return n
}

// Raw is a scalar written exactly as given.
func Raw(s string) *Node { return &Node{Kind: Scalar, Raw: s} }

func node(v any) *Node {
	switch x := v.(type) {
	case nil:
		return nil
	case *Node:
		return x
	case string:
		return Str(x)
	case int:
		return Raw(itoa(x))
	case int64:
		return Raw(itoa(int(x)))
	case bool:
		if x {
			return Raw("true")
		}
		return Raw("false")
	case []string:
		l := &Node{Kind: List}
		for _, s := range x {
			l.Items = append(l.Items, Str(s))
		}
		return l
	}
	panic("generate: unsupported value")
}

var plainSafe = regexp.MustCompile(`^[A-Za-z_/][A-Za-z0-9._/-]*$`)

// yaml11Words are plain scalars that YAML 1.1 (go-yaml v2, sigs.k8s.io/yaml) reads as booleans or null.
var yaml11Words = map[string]bool{"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true,
	"true": true, "false": true, "null": true, "~": true}

// Str is a string scalar: plain when YAML reads it back as the same string, else double-quoted.
func Str(s string) *Node {
	if plainSafe.MatchString(s) && !yaml11Words[strings.ToLower(s)] {
		return Raw(s)
	}
	b, _ := json.Marshal(s)
	return Raw(string(b))
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// Doc is one YAML document of a file.
type Doc struct {
	Root *Node
	// End writes the document end marker "..." after it.
	End bool
}

// File is one manifest file of a case.
type File struct {
	Name string
	Docs []*Doc
	// Start writes "---" before the first document too; EmptyFirst writes an empty document first.
	Start, EmptyFirst bool
	// BOM starts the file with a UTF-8 byte order mark.
	BOM bool
}

// Bytes renders the file.
func (f *File) Bytes() []byte {
	var b strings.Builder
	if f.BOM {
		b.WriteString("\uFEFF")
	}
	if f.EmptyFirst {
		b.WriteString("---\n")
	}
	for i, d := range f.Docs {
		if i > 0 || f.Start || f.EmptyFirst {
			b.WriteString("---\n")
		}
		writeBlock(&b, d.Root, 0)
		if d.End {
			b.WriteString("...\n")
		}
	}
	return []byte(b.String())
}

// inline renders a node that fits after "key:" or "- " on one line; ok is false for a non-empty
// collection, which takes the following lines.
func inline(n *Node) (string, bool) {
	prefix := ""
	if n.Anchor != "" {
		prefix = "&" + n.Anchor + " "
	}
	switch {
	case n.Kind == Scalar:
		return prefix + n.Raw, true
	case n.Kind == Alias:
		return "*" + n.Raw, true
	case n.Kind == Map && len(n.Pairs) == 0:
		return prefix + "{}", true
	case n.Kind == List && len(n.Items) == 0:
		return prefix + "[]", true
	}
	return strings.TrimSuffix(prefix, " "), false
}

// writeBlock writes a node in block style at the indentation given (a top-level scalar on its own line).
func writeBlock(b *strings.Builder, n *Node, indent int) {
	pad := strings.Repeat(" ", indent)
	switch {
	case n.Kind == Map && len(n.Pairs) > 0:
		for _, p := range n.Pairs {
			writePair(b, p, pad, indent)
		}
	case n.Kind == List && len(n.Items) > 0:
		for _, it := range n.Items {
			writeItem(b, it, pad, indent)
		}
	default:
		s, _ := inline(n)
		b.WriteString(pad + s + "\n")
	}
}

func writePair(b *strings.Builder, p *Pair, pad string, indent int) {
	if p.Comment != "" {
		b.WriteString(p.Comment + "\n")
	}
	s, ok := inline(p.Value)
	sep := " "
	if p.TabSep {
		sep = "\t"
	}
	if ok {
		b.WriteString(pad + p.Key + ":" + sep + s + "\n")
		return
	}
	if s != "" {
		b.WriteString(pad + p.Key + ": " + s + "\n")
	} else {
		b.WriteString(pad + p.Key + ":\n")
	}
	if p.Value.Kind == List {
		writeBlock(b, p.Value, indent) // "- " at the key's indentation, as kubectl prints
	} else {
		writeBlock(b, p.Value, indent+2)
	}
}

func writeItem(b *strings.Builder, it *Node, pad string, indent int) {
	s, ok := inline(it)
	if ok {
		b.WriteString(pad + "- " + s + "\n")
		return
	}
	if it.Kind == Map && it.Anchor == "" {
		// The first pair on the dash's line, the others below it; its comment goes above the dash.
		head := *it.Pairs[0]
		if head.Comment != "" {
			b.WriteString(head.Comment + "\n")
			head.Comment = ""
		}
		var first strings.Builder
		writePair(&first, &head, "", indent+2)
		b.WriteString(pad + "- " + first.String())
		rest := &Node{Kind: Map, Pairs: it.Pairs[1:]}
		if len(rest.Pairs) > 0 {
			writeBlock(b, rest, indent+2)
		}
		return
	}
	b.WriteString(pad + "-" + strings.TrimSuffix(" "+s, " ") + "\n")
	writeBlock(b, it, indent+2)
}
