package operations

import (
	"os/exec"
	"strings"
	"sync"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// applies runs `kubectl apply --dry-run=server -f FILE` in a loop on several workers: each run is one
// CREATE review kube-apiserver sends to our webhook (the policy does not exist, so kubectl creates it,
// and the server-side dry run admits it without storing it).
type applies struct {
	stop chan struct{}
	wg   sync.WaitGroup

	mu     sync.Mutex
	ok     int
	failed []string
}

func startApplies(e e2eenv.Env, file string, workers int) *applies {
	a := &applies{stop: make(chan struct{})}
	for range workers {
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			for {
				select {
				case <-a.stop:
					return
				default:
				}
				out, err := exec.Command(e.Kubectl, "--kubeconfig", e.Kubeconfig, "apply", "--dry-run=server",
					"-f", file).CombinedOutput()
				a.mu.Lock()
				if err != nil {
					a.failed = append(a.failed, strings.TrimSpace(string(out))+" ("+err.Error()+")")
				} else {
					a.ok++
				}
				a.mu.Unlock()
			}
		}()
	}
	return a
}

// counts are the applies so far: admitted and failed.
func (a *applies) counts() (int, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ok, len(a.failed)
}

// halt stops the workers after their current apply and returns the admitted count and the failures.
func (a *applies) halt() (int, []string) {
	close(a.stop)
	a.wg.Wait()
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ok, a.failed
}

// hint explains the one failure a drain is known to cause (RELIABILITY.md, issue 26): serve closes its
// idle keep-alive connections at SIGTERM, and a review kube-apiserver is writing on one of them at that
// moment fails (Go's transport does not resend a POST it has written; the admission client does not
// retry).
func hint(failure string) string {
	if strings.Contains(failure, "server closed idle connection") || strings.Contains(failure, ": EOF") ||
		strings.Contains(failure, "connection reset by peer") {
		return "\n(known: serve closed an idle keep-alive connection at SIGTERM while kube-apiserver was sending a review on it; RELIABILITY.md, issue 26)"
	}
	return ""
}
