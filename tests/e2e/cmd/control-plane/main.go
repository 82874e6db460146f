// Command control-plane runs a Karmada control plane on loopback in the foreground until SIGTERM or
// SIGINT (tests/e2e/control-plane.sh runs it in the background for `up` and signals it for `down`).
//
//	control-plane --dir DIR --bin BIN --karmada KARMADA_MODULE_DIR --webhook KPW_BINARY --repo REPO \
//	  [--karmada-version RELEASE --default-karmada-version DEFAULT] [--members N --kwok KWOK_MODULE_DIR [--estimator] [--failover]]
//
// DIR/ready appears once every component is ready; DIR/failed holds the reason when starting failed.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"karmada-policy-webhook/tests/e2e/internal/plane"
)

func main() {
	var cfg plane.Config
	flag.StringVar(&cfg.Dir, "dir", "", "state directory (kubeconfig, logs, pids, certificates)")
	flag.StringVar(&cfg.Bin, "bin", "", "directory of etcd, kube-apiserver, kubectl and the karmada-* binaries")
	flag.StringVar(&cfg.KarmadaDir, "karmada", "", "source directory of the pinned Karmada module")
	flag.StringVar(&cfg.Webhook, "webhook", "", "the karmada-policy-webhook binary")
	flag.StringVar(&cfg.Repo, "repo", ".", "the repository root")
	flag.StringVar(&cfg.Release, "karmada-version", "", "the Karmada release of BIN's components and of KARMADA_MODULE_DIR")
	flag.StringVar(&cfg.Default, "default-karmada-version", "", "the default release (serve answers for it without --karmada-version)")
	flag.DurationVar(&cfg.Timeout, "timeout", 90*time.Second, "time each component gets to become ready")
	flag.IntVar(&cfg.Members, "members", 0, "member clusters to start and join (KWOK nodes and pods)")
	flag.BoolVar(&cfg.Estimator, "estimator", false, "karmada-scheduler-estimator per member, karmada-scheduler --enable-scheduler-estimator")
	flag.BoolVar(&cfg.Failover, "failover", false, "cluster failover on (Failover gate, NoExecute taint eviction, NoExecute ClusterTaintPolicies admitted; with --members)")
	flag.StringVar(&cfg.KwokDir, "kwok", "", "source directory of the sigs.k8s.io/kwok module (its default stages; with --members)")
	flag.Parse()
	if cfg.Dir == "" || cfg.Bin == "" || cfg.KarmadaDir == "" || cfg.Webhook == "" || cfg.Members < 0 ||
		(cfg.Members > 0 && cfg.KwokDir == "") {
		flag.Usage()
		os.Exit(2)
	}
	os.Exit(run(cfg))
}

func run(cfg plane.Config) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	_ = os.Remove(filepath.Join(cfg.Dir, "ready"))
	_ = os.Remove(filepath.Join(cfg.Dir, "failed"))
	p, err := plane.Up(ctx, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "control-plane:", err)
		_ = os.WriteFile(filepath.Join(cfg.Dir, "failed"), []byte(err.Error()+"\n"), 0o644)
		return 1
	}
	if err := os.WriteFile(filepath.Join(cfg.Dir, "ready"), nil, 0o644); err != nil {
		p.Down()
		return 1
	}
	fmt.Fprintln(os.Stderr, "control-plane: ready; kubeconfig", p.Kubeconfig())
	<-ctx.Done()
	p.Down()
	_ = os.Remove(filepath.Join(cfg.Dir, "ready"))
	fmt.Fprintln(os.Stderr, "control-plane: stopped")
	return 0
}
