package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"sync"

	"karmada-policy-webhook/tests/conformance/internal/admission"
)

// BatchRequest is one line of `karmada-oracle batch`'s input: lint's arguments after `lint` (the same
// list a one-shot `karmada-oracle lint ...` takes), relative to the batch process's working directory.
type BatchRequest struct {
	Args  []string `json:"args"`
	Stdin string   `json:"stdin,omitempty"` // what a path "-" reads
}

// BatchResponse is one line of its output: what the one-shot process would have ended with.
type BatchResponse struct {
	Exit   int    `json:"exit"`
	Stdout string `json:"stdout"` // lint -o json's document
	Stderr string `json:"stderr"`
}

// batch answers one request per input line, in order, until stdin ends: the process start, Karmada's
// scheme, the CRDs' structural schemas and CEL programs are paid once per process instead of once per
// case. Every answer is still Karmada's code on that case alone: each request gets a fresh dry run
// (detector, fake clientsets, NewScheduler + Run) and only the admission chain, which keeps no state
// between objects, is shared. A panic on the request's goroutine becomes exit 2 with Go's "panic:" text
// (what the one-shot process prints); one on a goroutine Karmada started ends the process, as it would
// the one-shot one, and the caller sees the stream end.
func batch(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) int {
	return jsonLines("batch", stdin, stdout, stderr, func(line []byte) (any, error) {
		var req BatchRequest
		if err := json.Unmarshal(line, &req); err != nil {
			return BatchResponse{Exit: exitUsage, Stderr: fmt.Sprintf("batch: request: %v\n", err)}, nil
		}
		return answer(ctx, req.Args, req.Stdin), nil
	})
}

// jsonLines answers each non-blank line of stdin, in order, with one JSON line of stdout (flushed at once:
// the caller waits for it before it sends the next) until stdin ends; an error of `respond` or of the
// streams ends it with exit 2.
func jsonLines(name string, stdin io.Reader, stdout, stderr io.Writer, respond func(line []byte) (any, error)) int {
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 64*1024), 64*1024*1024)
	out := bufio.NewWriter(stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for in.Scan() {
		line := bytes.TrimSpace(in.Bytes())
		if len(line) == 0 {
			continue
		}
		resp, err := respond(line)
		if err == nil {
			err = enc.Encode(resp)
		}
		if err == nil {
			err = out.Flush()
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return exitUsage
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	return exitOK
}

// answer runs one `lint` request as run would, with `stdin` as its standard input.
func answer(ctx context.Context, args []string, stdin string) (resp BatchResponse) {
	var o, e bytes.Buffer
	defer func() {
		if r := recover(); r != nil {
			resp = BatchResponse{Exit: exitUsage, Stdout: o.String(),
				Stderr: fmt.Sprintf("panic: %v\n\ngoroutine 1 [running]:\n%s", r, debug.Stack())}
		}
	}()
	code := run(ctx, append([]string{"lint"}, args...), strings.NewReader(stdin), &o, &e)
	return BatchResponse{Exit: code, Stdout: o.String(), Stderr: e.String()}
}

// admitters memoises admission.New per CRD directory: building the structural schemas and compiling the
// CEL rules is most of a one-shot run's start-up. Admitter.Admit keeps no state between calls.
var admitters = struct {
	sync.Mutex
	m map[string]*admission.Admitter
}{m: map[string]*admission.Admitter{}}

// cachedAdmitter is newAdmitter in batch mode.
func cachedAdmitter(crdDir string) (*admission.Admitter, error) {
	admitters.Lock()
	defer admitters.Unlock()
	if a, ok := admitters.m[crdDir]; ok {
		return a, nil
	}
	a, err := admission.New(crdDir)
	if err != nil {
		return nil, err
	}
	admitters.m[crdDir] = a
	return a, nil
}
