package compare

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"
)

// Pool is a set of long-lived `karmada-oracle batch` processes: a case costs its own work only, not a
// process start and Karmada's CRD / CEL set-up. Each worker answers one request at a time; a worker
// that times out, dies or has answered Recycle requests is replaced (karmada-scheduler leaks an event
// broadcaster per NewScheduler, so a process should not live for ever).
type Pool struct {
	Path    string // the karmada-oracle binary
	Dir     string // working directory of the workers ("" the current one)
	Recycle int    // requests a worker answers before it is replaced; 0 never
	idle    chan *worker
	mu      sync.Mutex
	all     map[*worker]bool
}

type worker struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	served int
	stderr *limitedBuffer
}

// NewPool starts nothing: workers start on first use, at most size of them.
func NewPool(path string, size int) *Pool {
	p := &Pool{Path: path, Recycle: 500, idle: make(chan *worker, size), all: map[*worker]bool{}}
	for i := 0; i < size; i++ {
		p.idle <- nil // a slot without a process yet
	}
	return p
}

// Close ends every worker (their stdin is closed; they exit when it ends).
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for w := range p.all {
		w.stop()
	}
	p.all = map[*worker]bool{}
}

func (p *Pool) start() (*worker, error) {
	cmd := exec.Command(p.Path, "batch")
	cmd.Dir = p.Dir
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	w := &worker{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), stderr: &limitedBuffer{max: 64 << 10}}
	cmd.Stderr = w.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.all[w] = true
	p.mu.Unlock()
	return w, nil
}

func (w *worker) stop() {
	_ = w.in.Close()
	_ = w.cmd.Process.Kill()
	_ = w.cmd.Wait()
}

func (p *Pool) retire(w *worker) {
	p.mu.Lock()
	delete(p.all, w)
	p.mu.Unlock()
	w.stop()
}

// Run answers one `lint` request (args after `lint`, `stdin` what a path "-" reads) on an idle worker,
// within timeout.
func (p *Pool) Run(ctx context.Context, args []string, stdin []byte, timeout time.Duration) Run {
	var w *worker
	select {
	case w = <-p.idle:
	case <-ctx.Done():
		return Run{Failed: "cancelled"}
	}
	var r Run
	defer func() { p.idle <- w }()
	if w == nil {
		var err error
		if w, err = p.start(); err != nil {
			w = nil
			return Run{Failed: fmt.Sprintf("cannot run %s batch: %v", p.Path, err)}
		}
	}
	line, err := json.Marshal(struct {
		Args  []string `json:"args"`
		Stdin string   `json:"stdin,omitempty"`
	}{append([]string{"-o", "json"}, args...), string(stdin)})
	if err != nil {
		return Run{Failed: err.Error()}
	}
	type reply struct {
		resp struct {
			Exit   int    `json:"exit"`
			Stdout string `json:"stdout"`
			Stderr string `json:"stderr"`
		}
		err error
	}
	done := make(chan reply, 1)
	go func(w *worker) {
		var rep reply
		if _, err := w.in.Write(append(line, '\n')); err != nil {
			rep.err = err
		} else if b, err := w.out.ReadBytes('\n'); err != nil {
			rep.err = err
		} else {
			rep.err = json.Unmarshal(b, &rep.resp)
		}
		done <- rep
	}(w)
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case rep := <-done:
		if rep.err != nil {
			// The process ended (a panic on one of Karmada's goroutines, a fatal error): what the one-shot
			// process would have printed is on the worker's stderr.
			p.retire(w)
			_ = w.cmd.Wait()
			stderr := w.stderr.Bytes()
			w = nil
			r = Run{Exit: 2, Stderr: stderr}
			if f := classifyExit(2, stderr); f != "" {
				r.Failed = f
			} else {
				r.Failed = fmt.Sprintf("batch worker ended: %v: %s", rep.err, FirstLine(stderr))
			}
			return r
		}
		w.served++
		r = Run{Exit: rep.resp.Exit, Stdout: []byte(rep.resp.Stdout), Stderr: []byte(rep.resp.Stderr)}
		r.Failed = classifyExit(r.Exit, r.Stderr)
		if p.Recycle > 0 && w.served >= p.Recycle {
			p.retire(w)
			w = nil
		}
		return r
	case <-timer.C:
		r.Failed = fmt.Sprintf("timed out after %s", timeout)
	case <-ctx.Done():
		r.Failed = "cancelled"
	}
	p.retire(w)
	<-done
	w = nil
	return r
}

// limitedBuffer keeps the first max bytes written (a worker's stderr).
type limitedBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (b *limitedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]byte(nil), b.buf...)
}
