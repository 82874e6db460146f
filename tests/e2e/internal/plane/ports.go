package plane

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

// freePort asks the kernel for a free loopback port. The port is closed again before the component
// binds it: a race with another process is possible but rare, and shows as a component that fails to
// start, with its log.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func freePorts(n int) ([]int, error) {
	out := make([]int, n)
	for i := range out {
		p, err := freePort()
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// insecureLoopback, as waitHTTP's caFile, accepts the self-signed certificate a Kubernetes component
// makes for itself (kube-controller-manager, kube-scheduler): a health probe on 127.0.0.1, nothing else.
const insecureLoopback = "insecure-loopback"

// waitHTTP polls url until it answers 200 (TLS verified against caFile when given) or ctx ends; exited,
// when closed, means the component died and there is no point waiting.
func waitHTTP(ctx context.Context, url, caFile string, exited <-chan struct{}) error {
	client := &http.Client{Timeout: 2 * time.Second}
	if caFile == insecureLoopback {
		client.Transport = &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}} //nolint:gosec // loopback health probe
	} else if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return fmt.Errorf("no certificate in %s", caFile)
		}
		client.Transport = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var last error
	for {
		resp, err := client.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("%s answered %s", url, resp.Status)
		}
		last = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w (last: %v)", url, ctx.Err(), last)
		case <-exited:
			return fmt.Errorf("it exited while waiting for %s", url)
		case <-tick.C:
		}
	}
}

// waitTCP polls until addr accepts a connection or ctx ends (a listener opened after the component's
// health endpoint, as karmada-scheduler-estimator's gRPC server is once its informers have synced).
func waitTCP(ctx context.Context, addr string) error {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			return c.Close()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s to listen: %w (last: %v)", addr, ctx.Err(), err)
		case <-tick.C:
		}
	}
}
