// Package review compares `karmada-policy-webhook serve` with karmada-webhook on AdmissionReviews: the
// same POST to both, their HTTP answers compared field by field.
package review

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Answer is a webhook's reply to one POST.
type Answer struct {
	Status int
	Body   []byte
}

// Serve is a running `karmada-policy-webhook serve` on a free loopback port, with a certificate it made
// itself (--self-signed) in a temporary directory.
type Serve struct {
	cmd    *exec.Cmd
	dir    string
	url    string
	client *http.Client
	stderr bytes.Buffer
	done   chan error
}

// StartServe starts binary's webhook answering as release ("" for its default) and waits until it has
// written its port file (the condition it is listening), at most timeout.
func StartServe(ctx context.Context, binary, release string, timeout time.Duration) (*Serve, error) {
	dir, err := os.MkdirTemp("", "conformance-serve-")
	if err != nil {
		return nil, err
	}
	portFile := filepath.Join(dir, "ports")
	args := []string{"serve", "--self-signed", "--cert-dir", filepath.Join(dir, "certs"),
		"--bind-address", "127.0.0.1", "--secure-port", "0", "--health-probe-bind-address", "0",
		"--metrics-bind-address", "0", "--port-file", portFile, "--threads", "1",
		// Karmada's overflow rule: the seeds' stricter one is the one intentional difference (seeds-overflow-rule),
		// compared by `conformance fuzz --lint-default-mode`.
		"--allow-aggregated-overflow"}
	if release != "" {
		args = append(args, "--karmada-version", release)
	}
	s := &Serve{dir: dir, done: make(chan error, 1)}
	s.cmd = exec.CommandContext(ctx, binary, args...)
	s.cmd.Stderr = &s.stderr
	if err := s.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting %s: %w", binary, err)
	}
	go func() { s.done <- s.cmd.Wait() }()
	addr, err := s.waitForPort(portFile, timeout)
	if err != nil {
		s.Stop()
		return nil, err
	}
	s.url = "https://" + addr
	// Loopback, and the certificate is the one serve just made for this run: what is compared is the
	// answer, not the chain (the TLS handshake has its own tests under tests/).
	s.client = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // loopback test server
	}}
	return s, nil
}

// waitForPort polls for the port file's "webhook HOST:PORT" line (serve writes it atomically once its
// listener is bound), giving up when the process ends or timeout passes.
func (s *Serve) waitForPort(portFile string, timeout time.Duration) (string, error) {
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if b, err := os.ReadFile(portFile); err == nil {
			sc := bufio.NewScanner(bytes.NewReader(b))
			for sc.Scan() {
				if role, addr, ok := strings.Cut(sc.Text(), " "); ok && role == "webhook" {
					return addr, nil
				}
			}
		}
		select {
		case err := <-s.done:
			s.done <- err
			return "", fmt.Errorf("serve ended before listening (%v): %s", err, s.stderr.String())
		case <-tick.C:
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("serve wrote no port file in %v: %s", timeout, s.stderr.String())
		}
	}
}

// Post sends one review and reads serve's answer.
func (s *Serve) Post(ctx context.Context, path, contentType string, body []byte) (Answer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url+path, bytes.NewReader(body))
	if err != nil {
		return Answer{}, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return Answer{}, fmt.Errorf("serve: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return Answer{}, fmt.Errorf("serve: reading the answer: %w", err)
	}
	return Answer{Status: resp.StatusCode, Body: b}, nil
}

// Stop ends serve (SIGTERM, then its graceful shutdown) and removes its directory.
func (s *Serve) Stop() {
	if s.client != nil {
		s.client.CloseIdleConnections()
	}
	if s.cmd.Process != nil {
		_ = s.cmd.Process.Signal(os.Interrupt)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			_ = s.cmd.Process.Kill()
			<-s.done
		}
	}
	os.RemoveAll(s.dir)
}
