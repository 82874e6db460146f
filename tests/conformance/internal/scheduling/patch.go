package scheduling

import (
	"encoding/json"
	"fmt"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"

	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/karmada-io/karmada/pkg/apis/work/v1alpha2"
	karmadafake "github.com/karmada-io/karmada/pkg/generated/clientset/versioned/fake"
)

// keepPlacementOnPatch makes the fake clientset answer a merge patch of a binding the way kube-apiserver
// does for spec.placement. The fake tracker applies a patch to the object's JSON encoding, whose omitempty
// drops an empty list: a binding written with `overflowAffinities: []` would lose the list at
// karmada-scheduler's first patch (the applied-placement annotation, written even when scheduling fails),
// and a retry of that binding would see no overflow tiers (common.go enableOverflow tests != nil).
// kube-apiserver applies the patch to the stored JSON and keeps the list. karmada-scheduler never patches
// a placement, so a patch that does not name spec.placement leaves the stored one as it was.
func keepPlacementOnPatch(c *karmadafake.Clientset) {
	for _, resource := range []string{"resourcebindings", "clusterresourcebindings"} {
		c.PrependReactor("patch", resource, placementKeepingPatch(c.Tracker()))
	}
}

func placementKeepingPatch(tracker clienttesting.ObjectTracker) clienttesting.ReactionFunc {
	return func(a clienttesting.Action) (bool, runtime.Object, error) {
		p, ok := a.(clienttesting.PatchActionImpl)
		if !ok || p.GetPatchType() != types.MergePatchType || namesPlacement(p.GetPatch()) {
			return false, nil, nil // the tracker's own reaction
		}
		stored, err := tracker.Get(p.GetResource(), p.GetNamespace(), p.GetName())
		if err != nil {
			return true, nil, err
		}
		placement, ok := placementOf(stored)
		if !ok {
			return false, nil, nil
		}
		old, err := json.Marshal(stored)
		if err != nil {
			return true, nil, err
		}
		modified, err := jsonpatch.MergePatch(old, p.GetPatch())
		if err != nil {
			return true, nil, err
		}
		patched := stored.DeepCopyObject()
		switch b := patched.(type) {
		case *workv1alpha2.ResourceBinding:
			*b = workv1alpha2.ResourceBinding{}
			err = json.Unmarshal(modified, b)
			b.Spec.Placement = placement
		case *workv1alpha2.ClusterResourceBinding:
			*b = workv1alpha2.ClusterResourceBinding{}
			err = json.Unmarshal(modified, b)
			b.Spec.Placement = placement
		}
		if err != nil {
			return true, nil, fmt.Errorf("applying a merge patch to %s: %w", p.GetName(), err)
		}
		if err := tracker.Patch(p.GetResource(), patched, p.GetNamespace(), p.PatchOptions); err != nil {
			return true, nil, err
		}
		return true, patched, nil
	}
}

// placementOf is a stored binding's placement (the tracker hands out copies).
func placementOf(obj runtime.Object) (*policyv1alpha1.Placement, bool) {
	switch b := obj.(type) {
	case *workv1alpha2.ResourceBinding:
		return b.Spec.Placement, true
	case *workv1alpha2.ClusterResourceBinding:
		return b.Spec.Placement, true
	}
	return nil, false
}

// namesPlacement tells whether a merge patch sets or removes spec.placement (a patch that cannot be read
// is left to the tracker, which reports it).
func namesPlacement(patch []byte) bool {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(patch, &doc); err != nil {
		return true
	}
	spec, ok := doc["spec"]
	if !ok {
		return false
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(spec, &fields); err != nil || fields == nil {
		return true // spec removed or not an object
	}
	_, named := fields["placement"]
	return named
}
