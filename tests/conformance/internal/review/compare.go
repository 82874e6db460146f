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

// Compare lists where serve's answer differs from Karmada's: the HTTP status, then every member of the
// answered AdmissionReview (apiVersion, kind, response.uid, allowed, status code, reason and message), and
// Karmada's warnings, each of which serve must give too. serve's own warnings beside them are its additions
// (a tier that repeats a cluster, a deprecated purgeMode, ...), never a difference; Extra counts them.
func Compare(serve, karmada Answer) []Diff {
	var out []Diff
	if serve.Status != karmada.Status {
		out = append(out, Diff{"status", fmt.Sprint(serve.Status), fmt.Sprint(karmada.Status)})
	}
	var s, k any
	errS, errK := json.Unmarshal(serve.Body, &s), json.Unmarshal(karmada.Body, &k)
	if errS != nil || errK != nil {
		if !bytes.Equal(bytes.TrimSpace(serve.Body), bytes.TrimSpace(karmada.Body)) {
			out = append(out, Diff{"body", string(serve.Body), string(karmada.Body)})
		}
		return out
	}
	if EnvelopeRefused(karmada) {
		// controller-runtime could not read the review (its JSON-or-YAML decoder's texts are not serve's, and
		// kube-apiserver never sends such a body): the answer must refuse it the same way, in other words.
		return append(out, diffJSON("", pick(s, "response.allowed", "response.status.code"),
			pick(k, "response.allowed", "response.status.code"), nil)...)
	}
	sw, kw := takeWarnings(s), takeWarnings(k)
	for _, w := range kw {
		if !contains(sw, w) {
			out = append(out, Diff{"response.warnings", text(sw), "has " + text(w)})
		}
	}
	return diffJSON("", s, k, out)
}

// Extra is how many warnings serve gave that Karmada did not.
func Extra(serve, karmada Answer) int {
	var s, k any
	if json.Unmarshal(serve.Body, &s) != nil || json.Unmarshal(karmada.Body, &k) != nil {
		return 0
	}
	n := 0
	kw := takeWarnings(k)
	for _, w := range takeWarnings(s) {
		if !contains(kw, w) {
			n++
		}
	}
	return n
}

// takeWarnings removes response.warnings from an answered review and returns them.
func takeWarnings(review any) []any {
	r, _ := review.(map[string]any)
	resp, _ := r["response"].(map[string]any)
	if resp == nil {
		return nil
	}
	w, _ := resp["warnings"].([]any)
	delete(resp, "warnings")
	return w
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

// Verdict reads an answer's outcome.
func Verdict(a Answer) Outcome {
	var r struct {
		Response struct {
			Allowed bool `json:"allowed"`
			Status  struct {
				Code int `json:"code"`
			} `json:"status"`
		} `json:"response"`
	}
	if a.Status != 200 || json.Unmarshal(a.Body, &r) != nil {
		return Refused
	}
	switch {
	case r.Response.Allowed:
		return Allowed
	case r.Response.Status.Code == 403:
		return Denied
	}
	return Refused
}

// EnvelopeRefused: Karmada's answer is controller-runtime's to a body it could not read as an
// AdmissionReview (an empty, too large or undecodable body, another content type): written untyped, so
// without apiVersion and kind.
func EnvelopeRefused(karmada Answer) bool {
	var r map[string]any
	if json.Unmarshal(karmada.Body, &r) != nil {
		return false
	}
	_, typed := r["apiVersion"]
	return !typed
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

// NotJSON: the body does not start (after white space) with '{'. controller-runtime's deserializer reads
// such a body as YAML (apimachinery's recognizer: only a '{' is JSON); serve reads JSON, as kube-apiserver
// sends it, and refuses the rest: the one intentional difference here, which JSONOnly checks.
func NotJSON(body []byte) bool {
	t := bytes.TrimLeft(body, " \t\r\n")
	return len(body) > 0 && (len(t) == 0 || t[0] != '{')
}

// JSONOnly: serve refused a body that is not JSON (NotJSON), not allowed, with code 400.
func JSONOnly(serve Answer) bool {
	return serve.Status == 200 && Verdict(serve) == Refused && strings.Contains(string(serve.Body), `"code":400`)
}

// KarmadaPanicked: karmada-webhook's handler panicked and controller-runtime answered 500 with the panic (a
// failover.application without decisionConditions.tolerationSeconds: validation.go ValidateApplicationFailover
// dereferences it, where kube-apiserver would have set the CRD's default of 300 first). serve answers such a
// review with its verdict; the comparison only asks that it did not fail too.
func KarmadaPanicked(karmada, serve Answer) bool {
	var r struct {
		Response struct {
			Status struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"status"`
		} `json:"response"`
	}
	if json.Unmarshal(karmada.Body, &r) != nil || r.Response.Status.Code != 500 ||
		!strings.HasPrefix(r.Response.Status.Message, "panic: ") {
		return false
	}
	return Verdict(serve) != Refused
}

// ServeAllowsOperation: a DELETE or CONNECT review, which serve allows (its registration may be broader than
// Karmada's CREATE and UPDATE; docs/serve.md) where karmada-webhook's handler, never sent one by
// kube-apiserver, decodes the absent object and fails.
func ServeAllowsOperation(body []byte, serve Answer) bool {
	var r struct {
		Request struct {
			Operation string `json:"operation"`
		} `json:"request"`
	}
	if json.Unmarshal(body, &r) != nil || (r.Request.Operation != "DELETE" && r.Request.Operation != "CONNECT") {
		return false
	}
	return Verdict(serve) == Allowed
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
