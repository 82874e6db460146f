package review

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// Oracle is a running `karmada-oracle reviews`: karmada-webhook's validating webhooks answering one POST
// per line.
type Oracle struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr strings.Builder
}

// errStopped is returned by an Oracle whose process has ended.
var errStopped = errors.New("the oracle's reviews process has ended")

type oracleRequest struct {
	Path        string `json:"path"`
	ContentType string `json:"contentType"`
	Body        []byte `json:"body"`
}

type oracleResponse struct {
	Status int    `json:"status"`
	Body   []byte `json:"body"`
}

// StartOracle starts binary in its reviews mode.
func StartOracle(ctx context.Context, binary string) (*Oracle, error) {
	o := &Oracle{cmd: exec.CommandContext(ctx, binary, "reviews")}
	o.cmd.Stderr = &o.stderr
	in, err := o.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := o.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := o.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", binary, err)
	}
	o.in, o.out = in, bufio.NewReaderSize(out, 1<<20)
	return o, nil
}

// Post sends one review to Karmada's handlers and reads their answer.
func (o *Oracle) Post(path, contentType string, body []byte) (Answer, error) {
	line, err := json.Marshal(oracleRequest{Path: path, ContentType: contentType, Body: body})
	if err != nil {
		return Answer{}, err
	}
	if _, err := o.in.Write(append(line, '\n')); err != nil {
		return Answer{}, fmt.Errorf("%w: %v %s", errStopped, err, o.stderr.String())
	}
	reply, err := o.out.ReadBytes('\n')
	if err != nil {
		return Answer{}, fmt.Errorf("%w: %v %s", errStopped, err, o.stderr.String())
	}
	var r oracleResponse
	if err := json.Unmarshal(reply, &r); err != nil {
		return Answer{}, fmt.Errorf("the oracle's answer: %w", err)
	}
	return Answer{Status: r.Status, Body: r.Body}, nil
}

// Stop closes its input and waits for it to end.
func (o *Oracle) Stop() {
	_ = o.in.Close()
	_ = o.cmd.Wait()
}
