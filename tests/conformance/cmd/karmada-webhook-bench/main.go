// Command karmada-webhook-bench serves Karmada's own validating webhook for PropagationPolicy the way
// karmada-webhook (cmd/webhook/app/webhook.go at the pinned Karmada version) serves it: controller-runtime's
// webhook server (sigs.k8s.io/controller-runtime/pkg/webhook) with Karmada's TLS options, and
// propagationpolicy.ValidatingAdmission registered at /validate-propagationpolicy with a decoder over
// Karmada's aggregated scheme (gclient.NewSchema). It is the baseline of tests/bench/karmada_serve_bench.sh.
//
// What karmada-webhook adds around it and this command leaves out: the manager (no API server here; the
// PropagationPolicy handler reads nothing from one), the metrics and health listeners, leader election off
// as in karmada-webhook, and the other handlers (other paths, so they cost this one nothing).
//
//	karmada-webhook-bench --cert-dir DIR [--bind-address 127.0.0.1] [--secure-port 8443]
package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/karmada-io/karmada/pkg/util/gclient"
	"github.com/karmada-io/karmada/pkg/webhook/propagationpolicy"
)

// options are karmada-webhook's flags that shape the server (cmd/webhook/app/options), with its defaults
// except the bind address (loopback: the benchmark stays on this machine).
type options struct {
	bindAddress   string
	securePort    int
	certDir       string
	certName      string
	keyName       string
	tlsMinVersion string
}

func main() {
	var o options
	fs := flag.NewFlagSet("karmada-webhook-bench", flag.ExitOnError)
	fs.StringVar(&o.bindAddress, "bind-address", "127.0.0.1", "address to serve on")
	fs.IntVar(&o.securePort, "secure-port", 8443, "port to serve on")
	fs.StringVar(&o.certDir, "cert-dir", "", "directory holding the serving certificate and key")
	fs.StringVar(&o.certName, "tls-cert-file-name", "tls.crt", "certificate file name in --cert-dir")
	fs.StringVar(&o.keyName, "tls-private-key-file-name", "tls.key", "key file name in --cert-dir")
	fs.StringVar(&o.tlsMinVersion, "tls-min-version", "1.3", "minimum TLS version: 1.0, 1.1, 1.2, 1.3")
	_ = fs.Parse(os.Args[1:])
	if o.certDir == "" {
		fmt.Fprintln(os.Stderr, "karmada-webhook-bench: --cert-dir is required")
		os.Exit(2)
	}
	// karmada-webhook logs through klog at -v=0, where the handler's V(2) lines are off; the handler's own
	// errors still go to stderr.
	ctrl.SetLogger(klog.Background())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "karmada-webhook-bench: %v\n", err)
		os.Exit(1)
	}
}

// minVersion is karmada-webhook's mapping of --tls-min-version (an unknown value leaves Go's default).
func minVersion(v string) (uint16, bool) {
	switch v {
	case "1.0":
		return tls.VersionTLS10, true
	case "1.1":
		return tls.VersionTLS11, true
	case "1.2":
		return tls.VersionTLS12, true
	case "1.3":
		return tls.VersionTLS13, true
	}
	return 0, false
}

// newServer builds the webhook server as karmada-webhook does, with only the PropagationPolicy
// validating handler registered.
func newServer(o options) webhook.Server {
	server := webhook.NewServer(webhook.Options{
		Host:     o.bindAddress,
		Port:     o.securePort,
		CertDir:  o.certDir,
		CertName: o.certName,
		KeyName:  o.keyName,
		TLSOpts: []func(*tls.Config){
			func(config *tls.Config) {
				if v, ok := minVersion(o.tlsMinVersion); ok {
					config.MinVersion = v
				}
			},
		},
	})
	decoder := admission.NewDecoder(gclient.NewSchema())
	server.Register("/validate-propagationpolicy", &webhook.Admission{Handler: &propagationpolicy.ValidatingAdmission{Decoder: decoder}})
	return server
}

func run(ctx context.Context, o options, log io.Writer) error {
	fmt.Fprintf(log, "serving /validate-propagationpolicy on https://%s:%d\n", o.bindAddress, o.securePort)
	return newServer(o).Start(ctx)
}
