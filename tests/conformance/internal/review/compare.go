package review

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Diff is one place where serve's answer is not karmada-webhook's.
type Diff struct {
	Path    string // "status", or a JSON path in the AdmissionReview answered ("response.status.message")
	Serve   string
	Karmada string
}

// reply is an answer read once: its body decoded (ok false when it is no JSON), response.warnings taken out of
// it, and the members the rules below read.
type reply struct {
	Answer
	doc      any
	ok       bool
	object   bool // the body is a JSON object
	typed    bool // ... with an apiVersion (controller-runtime wrote it typed)
	allowed  bool
	code     int
	message  string
	warnings []any
}

func read(a Answer) reply {
	r := reply{Answer: a}
	if r.ok = json.Unmarshal(a.Body, &r.doc) == nil; !r.ok {
		return r
	}
	root, isObject := r.doc.(map[string]any)
	r.object = isObject
	_, r.typed = root["apiVersion"]
	resp, _ := root["response"].(map[string]any)
	r.allowed, _ = resp["allowed"].(bool)
	status, _ := resp["status"].(map[string]any)
	code, _ := status["code"].(float64)
	r.code = int(code)
	r.message, _ = status["message"].(string)
	if resp != nil {
		r.warnings, _ = resp["warnings"].([]any)
		delete(resp, "warnings")
	}
	return r
}

// outcome is what the answer decided: admitted, denied by a rule (403), or refused before any rule (an
// envelope or decoding error).
func (r reply) outcome() Outcome {
	switch {
	case r.Status != 200 || !r.ok:
		return Refused
	case r.allowed:
		return Allowed
	case r.code == 403:
		return Denied
	}
	return Refused
}

// envelopeRefused: Karmada's answer is controller-runtime's to a body it could not read as an AdmissionReview
// (an empty, too large or undecodable body, another content type): written untyped, so without apiVersion
// and kind.
func (r reply) envelopeRefused() bool { return r.object && !r.typed }

// Compare lists where serve's answer differs from Karmada's: the HTTP status, then every member of the
// answered AdmissionReview (apiVersion, kind, response.uid, allowed, status code, reason and message), and
// Karmada's warnings, each of which serve must give too. serve's own warnings beside them are its additions
// (a tier that repeats a cluster, a deprecated purgeMode, ...), never a difference.
func Compare(serve, karmada Answer) []Diff { return compare(read(serve), read(karmada)) }

func compare(s, k reply) []Diff {
	var out []Diff
	if s.Status != k.Status {
		out = append(out, Diff{"status", fmt.Sprint(s.Status), fmt.Sprint(k.Status)})
	}
	if !s.ok || !k.ok {
		if !bytes.Equal(bytes.TrimSpace(s.Body), bytes.TrimSpace(k.Body)) {
			out = append(out, Diff{"body", string(s.Body), string(k.Body)})
		}
		return out
	}
	if k.envelopeRefused() {
		// controller-runtime could not read the review (its JSON-or-YAML decoder's texts are not serve's, and
		// kube-apiserver never sends such a body): the answer must refuse it the same way, in other words.
		return append(out, diffJSON("", pick(s.doc, "response.allowed", "response.status.code"),
			pick(k.doc, "response.allowed", "response.status.code"), nil)...)
	}
	for _, w := range k.warnings {
		if !contains(s.warnings, w) {
			out = append(out, Diff{"response.warnings", text(s.warnings), "has " + text(w)})
		}
	}
	return diffJSON("", s.doc, k.doc, out)
}

// pick keeps only the dotted paths given of a decoded JSON object.
func pick(v any, paths ...string) map[string]any {
	out := map[string]any{}
	for _, p := range paths {
		cur := v
		for _, k := range strings.Split(p, ".") {
			m, _ := cur.(map[string]any)
			cur = m[k]
		}
		out[p] = cur
	}
	return out
}

// ownWarnings: serve gave a warning Karmada did not.
func ownWarnings(s, k reply) bool {
	for _, w := range s.warnings {
		if !contains(k.warnings, w) {
			return true
		}
	}
	return false
}

func contains(list []any, v any) bool {
	for _, e := range list {
		if text(e) == text(v) {
			return true
		}
	}
	return false
}

func diffJSON(path string, s, k any, out []Diff) []Diff {
	sm, sIsMap := s.(map[string]any)
	km, kIsMap := k.(map[string]any)
	if sIsMap && kIsMap {
		keys := map[string]bool{}
		for key := range sm {
			keys[key] = true
		}
		for key := range km {
			keys[key] = true
		}
		sorted := make([]string, 0, len(keys))
		for key := range keys {
			sorted = append(sorted, key)
		}
		sort.Strings(sorted)
		for _, key := range sorted {
			sub := key
			if path != "" {
				sub = path + "." + key
			}
			sv, sok := sm[key]
			kv, kok := km[key]
			switch {
			case !sok:
				out = append(out, Diff{sub, "(absent)", text(kv)})
			case !kok:
				out = append(out, Diff{sub, text(sv), "(absent)"})
			default:
				out = diffJSON(sub, sv, kv, out)
			}
		}
		return out
	}
	if st, kt := text(s), text(k); st != kt {
		out = append(out, Diff{path, st, kt})
	}
	return out
}

func text(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Outcome is what a webhook's answer decided.
type Outcome int

// The outcomes: admitted, denied by a rule (403), or refused before any rule (an envelope or decoding error).
const (
	Allowed Outcome = iota
	Denied
	Refused
)

// Class is where a review's comparison is counted.
type Class int

// Agree and Differ, and the reviews listed apart (docs/conformance.md, "serve's AdmissionReviews").
const (
	Agree Class = iota
	Differ
	// NotJSON: a body whose first non-blank byte is not '{' (controller-runtime's deserializer reads it as YAML),
	// which serve refused with 400: serve reads JSON only, as kube-apiserver sends it. Intentional.
	NotJSONBody
	// DeleteOrConnect: serve allows a DELETE or CONNECT (its registration may be broader than Karmada's CREATE
	// and UPDATE; docs/serve.md) where karmada-webhook's handler, never sent one, decodes the absent object and
	// fails. Intentional.
	DeleteOrConnect
	// KarmadaPanicked: karmada-webhook's handler panicked and controller-runtime answered 500 with the panic (a
	// failover.application without decisionConditions.tolerationSeconds: validation.go ValidateApplicationFailover
	// dereferences it, where kube-apiserver would have set the CRD's default of 300 first), and serve answered
	// with a verdict.
	KarmadaPanicked
	// RepeatedKeysDiffer: the answers differ on a body that repeats a member of a JSON object (RepeatedKeys).
	RepeatedKeysDiffer
)

// Judgement is one review's comparison.
type Judgement struct {
	Class Class
	// Of an agreeing review: Karmada's outcome, whether its answer was to a body that is no AdmissionReview,
	// and whether serve gave warnings of its own beside Karmada's.
	Outcome     Outcome
	Envelope    bool
	OwnWarnings bool
	Diffs       []Diff // of a differing review (Differ, RepeatedKeysDiffer)
}

// Judge compares serve's and Karmada's answers to the POST of body, each read once.
func Judge(body []byte, serve, karmada Answer) Judgement {
	s, k := read(serve), read(karmada)
	switch {
	case NotJSON(body) && s.Status == 200 && s.outcome() == Refused && s.code == 400:
		return Judgement{Class: NotJSONBody}
	case deleteOrConnect(body) && s.outcome() == Allowed:
		return Judgement{Class: DeleteOrConnect}
	case k.code == 500 && strings.HasPrefix(k.message, "panic: ") && s.outcome() != Refused:
		return Judgement{Class: KarmadaPanicked}
	}
	if diffs := compare(s, k); len(diffs) > 0 {
		if RepeatedKeys(body) {
			return Judgement{Class: RepeatedKeysDiffer, Diffs: diffs}
		}
		return Judgement{Class: Differ, Diffs: diffs}
	}
	return Judgement{Class: Agree, Outcome: k.outcome(), Envelope: k.envelopeRefused(), OwnWarnings: ownWarnings(s, k)}
}

// deleteOrConnect: the review's operation is DELETE or CONNECT.
func deleteOrConnect(body []byte) bool {
	var r struct {
		Request struct {
			Operation string `json:"operation"`
		} `json:"request"`
	}
	return json.Unmarshal(body, &r) == nil && (r.Request.Operation == "DELETE" || r.Request.Operation == "CONNECT")
}

// NotJSON: the body does not start (after white space) with '{'. controller-runtime's deserializer reads
// such a body as YAML (apimachinery's recognizer: only a '{' is JSON); serve reads JSON, as kube-apiserver
// sends it, and refuses the rest (Judge: NotJSONBody).
func NotJSON(body []byte) bool {
	t := bytes.TrimLeft(body, " \t\r\n")
	return len(body) > 0 && (len(t) == 0 || t[0] != '{')
}

// RepeatedKeys: some JSON object of the body names a member twice. kube-apiserver never sends one (it
// encodes the objects itself); encoding/json decodes every repetition and reports the first type error
// among them, serve reads the last: such a review is listed apart when the answers differ, not counted as
// agreeing.
func RepeatedKeys(body []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(body))
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		top := (*frame)(nil)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				markValue(stack)
				continue
			}
			k, _ := tok.(string)
			if top.keys[k] {
				return true
			}
			top.keys[k] = true
			top.key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, keys: map[string]bool{}, key: true})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim(']'), json.Delim('}'):
			stack = stack[:len(stack)-1]
			markValue(stack)
		default:
			markValue(stack)
		}
	}
}

// frame is one open JSON container of RepeatedKeys' walk.
type frame struct {
	object bool
	keys   map[string]bool
	key    bool // the next string token is a key
}

// markValue: a value of the innermost object ended, so a key comes next.
func markValue(stack []*frame) {
	if len(stack) > 0 && stack[len(stack)-1].object {
		stack[len(stack)-1].key = true
	}
}
