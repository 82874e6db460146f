package operations

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// TestDrainCycles drains a replica again and again under the apply loop (KPW_E2E_DRAIN_CYCLES cycles;
// skipped without it): each cycle starts a new replica, makes it the Service's only endpoint, sends
// SIGTERM to the old one and waits until the new one has answered applies. It measures how often an
// apply fails across a drain, and stops at the first failure with both replicas' logs kept (--v 2 logs
// every connection).
func TestDrainCycles(t *testing.T) {
	cycles, _ := strconv.Atoi(os.Getenv("KPW_E2E_DRAIN_CYCLES"))
	if cycles <= 0 {
		t.Skip("KPW_E2E_DRAIN_CYCLES is not set: the drain is tested once by TestRotationAndDrainUnderApplies")
	}
	f, cleanup := newFixture(t, "2")
	defer cleanup()
	loop := startApplies(f.e, f.loopFile, workers)
	halted := false
	defer func() {
		if !halted {
			loop.halt()
		}
	}()
	secret := filepath.Join(f.dir, "secret-1")
	cur, drained := f.r1, f.r1
	done := 0
	for i := range cycles {
		next := startReplica(t, f.e, fmt.Sprintf("serve-drain-%d", i%2), secret, "2")
		t.Cleanup(next.stop)
		f.svc.SetEndpoints(next.addr())
		cur.stop()
		if err := cur.proc.ExitError(); err != nil {
			t.Fatalf("cycle %d: %s did not exit cleanly: %v", i, cur.name, err)
		}
		e2eenv.WaitFor(t, "applies answered by the new replica", 60*time.Second, func() bool {
			_, failed := loop.counts()
			return failed > 0 || next.reviews(t, loopNS+"/"+loopName) >= workers
		})
		cur, drained = next, cur
		done++
		if _, failed := loop.counts(); failed > 0 {
			break
		}
	}
	ok, failed := loop.halt()
	halted = true
	t.Logf("%d drains, %d applies admitted, %d failed", done, ok, len(failed))
	if len(failed) > 0 {
		t.Errorf("%d applies failed across %d drains; the last drained replica's log is %s, its successor's %s; "+
			"the first failure:\n%s%s", len(failed), done, drained.log, cur.log, failed[0], hint(failed[0]))
	}
}
