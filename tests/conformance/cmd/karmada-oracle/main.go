// Command karmada-oracle answers `karmada-policy-webhook lint -o json` with Karmada's own code: admission
// as karmada-apiserver and karmada-webhook run it, and the dry run of Karmada's detector and scheduler.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/go-logr/logr"
	"github.com/spf13/pflag"
	"k8s.io/klog/v2"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// quietLogs silences the handlers' klog lines and controller-runtime's logger: the oracle's answer is
// its JSON and exit code. KARMADA_ORACLE_KLOG=1 keeps klog on stderr (what the detector did, for a
// divergence being looked into).
func quietLogs() {
	if os.Getenv("KARMADA_ORACLE_KLOG") != "" {
		return
	}
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	for name, value := range map[string]string{"logtostderr": "false", "alsologtostderr": "false",
		"stderrthreshold": "FATAL", "v": "0"} {
		_ = fs.Set(name, value)
	}
	klog.SetOutput(io.Discard)
	ctrllog.SetLogger(logr.Discard())
}

// defaultCRDDir is Karmada's charts/karmada/_crds/bases/policy in the module; build.sh sets it with
// -ldflags "-X main.defaultCRDDir=...".
var defaultCRDDir = ""

// Exit codes as lint's.
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2
)

func main() {
	quietLogs()
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == "batch" {
		newAdmitter = cachedAdmitter
		return batch(ctx, stdin, stdout, stderr)
	}
	if len(args) == 1 && args[0] == "reviews" {
		return reviews(stdin, stdout, stderr)
	}
	if len(args) == 1 && args[0] == "version" {
		return version(stdout, stderr)
	}
	if len(args) == 0 || args[0] != "lint" {
		fmt.Fprintln(stderr, "usage: karmada-oracle lint -o json [--clusters F|DIR]... [--workloads F|DIR]... "+
			"[--bindings F|DIR]... [--base F|DIR]... [--member-state DIR] [--feature-gates G] [-n NS] [--validate=strict|warn|ignore] [--karmada-version V] PATH...\n"+
			"       karmada-oracle batch   (JSON lines {\"args\": [lint's arguments]} on stdin, {\"exit\",\"stdout\",\"stderr\"} lines out)\n"+
			"       karmada-oracle reviews (JSON lines {\"path\",\"contentType\",\"body\"} on stdin: POSTs to karmada-webhook's validating webhooks; {\"status\",\"body\"} lines out)\n"+
			"       karmada-oracle version (the Karmada release it was built against, and its CRD directory)")
		return exitUsage
	}
	opts, err := parseFlags(args[1:], stderr)
	if err != nil {
		if err == pflag.ErrHelp {
			return exitOK
		}
		fmt.Fprintf(stderr, "lint: %v\n", err)
		return exitUsage
	}
	return lint(ctx, opts, stdin, stdout, stderr)
}

// options are lint's flags that the oracle reads.
type options struct {
	output    string
	namespace string
	// namespaceGiven: -n was on the command line, so kubectl apply enforces it (apply.go FilenameParam's
	// EnforceNamespace): a namespaced object of another namespace is refused.
	namespaceGiven bool
	validate       string
	clusters       []string
	workloads      []string
	bindings       []string
	memberState    string
	base           []string // --base: the policies before the change (lint's diff); the dry run models the change
	featureGates   string
	crdDir         string
	release        string // --karmada-version: must name the release this oracle was built against
	paths          []string
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := pflag.NewFlagSet("karmada-oracle lint", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVarP(&o.output, "output", "o", "json", "output format (only json)")
	fs.StringVarP(&o.namespace, "namespace", "n", "default", "namespace of PropagationPolicies that set none")
	fs.StringVar(&o.validate, "validate", "strict", "field validation kubectl asks for: strict, warn or ignore")
	fs.StringArrayVar(&o.clusters, "clusters", nil, "dry run: Cluster objects (file, directory or -)")
	fs.StringArrayVar(&o.workloads, "workloads", nil, "dry run: the workloads the policies claim")
	fs.StringArrayVar(&o.bindings, "bindings", nil, "day two: today's ResourceBindings / ClusterResourceBindings")
	fs.StringVar(&o.memberState, "member-state", "", "dry run: a directory per member cluster (named as its Cluster) of its Nodes and Pods; those clusters get karmada-scheduler-estimator")
	fs.StringArrayVar(&o.base, "base", nil, "the policies before the change: deleted, changed and created ones go through Karmada's reconcilers")
	fs.StringVar(&o.featureGates, "feature-gates", "", "Karmada feature gates (A=true,B=false)")
	fs.StringVar(&o.crdDir, "crd-dir", defaultCRDDir, "Karmada's policy CRDs (charts/karmada/_crds/bases/policy)")
	fs.StringVar(&o.release, "karmada-version", "", "the Karmada release to answer as: only the one this oracle was built against (karmada-oracle version)")
	// lint's flag for the project's stricter overflow rule; Karmada's code has one rule, so it changes nothing.
	fs.Bool("allow-aggregated-overflow", false, "accepted for lint's command line; Karmada has no such switch")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	o.paths = fs.Args()
	o.namespaceGiven = fs.Changed("namespace")
	if len(o.paths) == 0 {
		o.paths = []string{"-"}
	}
	if o.output != "json" {
		return o, fmt.Errorf("-o %s: the oracle prints json only", o.output)
	}
	if (len(o.workloads) > 0 || len(o.bindings) > 0 || o.memberState != "") && len(o.clusters) == 0 {
		return o, fmt.Errorf("--workloads, --bindings and --member-state need --clusters (the snapshot to schedule them on)")
	}
	if len(o.base) > 0 && (len(o.clusters) == 0 || len(o.workloads) == 0) {
		return o, fmt.Errorf("--base needs --clusters and --workloads (the snapshot both sides are scheduled on)")
	}
	if o.crdDir == "" {
		return o, fmt.Errorf("--crd-dir is not set (build with tests/conformance/build.sh)")
	}
	if o.release != "" {
		if err := checkRelease(o.release); err != nil {
			return o, err
		}
	}
	return o, nil
}
