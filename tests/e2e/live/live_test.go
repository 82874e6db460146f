package live

import (
	"context"
	"testing"
)

// TestLiveInputs applies the examples once and runs, in order: lint and simulate live against exported,
// serve --kubeconfig following the Clusters, and plan against what karmada-scheduler does with the pull
// request's policy edit (last: it changes the policies).
func TestLiveInputs(t *testing.T) {
	ctx := context.Background()
	x := setUp(t, ctx)
	t.Run("lint --kubeconfig equals lint on the exports", func(t *testing.T) { lintLiveIsExported(t, x) })
	t.Run("lint --request-timeout 0 equals lint without it", func(t *testing.T) { lintNoRequestTimeout(t, x) })
	t.Run("simulate --kubeconfig equals simulate on the exports", func(t *testing.T) { simulateLiveIsExported(t, x) })
	t.Run("serve --kubeconfig follows the Clusters", func(t *testing.T) { serveFollowsClusters(t, ctx, x) })
	t.Run("plan --kubeconfig predicts the pull request's edit", func(t *testing.T) { planPredictsTheEdit(t, ctx, x) })
}
