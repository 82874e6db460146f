package scheduling

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/apimachinery/pkg/util/validation"
	kubescheme "k8s.io/client-go/kubernetes/scheme"

	clusterapis "github.com/karmada-io/karmada/pkg/apis/cluster"
	clustermutation "github.com/karmada-io/karmada/pkg/apis/cluster/mutation"
	clusterv1alpha1 "github.com/karmada-io/karmada/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/karmada-io/karmada/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/karmada-io/karmada/pkg/apis/work/v1alpha2"
)

// policyKey names a policy the way a claim does: kind, namespace (empty for a ClusterPropagationPolicy), name.
type policyKey struct {
	cluster   bool
	namespace string
	name      string
}

func (k policyKey) String() string {
	if k.cluster {
		return "ClusterPropagationPolicy " + k.name
	}
	return "PropagationPolicy " + k.namespace + "/" + k.name
}

// resourceKey names a resource template as a binding's spec.resource does.
type resourceKey struct {
	apiVersion, kind, namespace, name string
}

func (k resourceKey) String() string {
	return fmt.Sprintf("%s %s %s/%s", k.apiVersion, k.kind, k.namespace, k.name)
}

// binding is a ResourceBinding or a ClusterResourceBinding: both carry a ResourceBindingSpec and status.
type binding struct {
	rb  *workv1alpha2.ResourceBinding
	crb *workv1alpha2.ClusterResourceBinding
}

func (b binding) object() metav1.Object {
	if b.rb != nil {
		return b.rb
	}
	return b.crb
}

func (b binding) spec() *workv1alpha2.ResourceBindingSpec {
	if b.rb != nil {
		return &b.rb.Spec
	}
	return &b.crb.Spec
}

func (b binding) status() *workv1alpha2.ResourceBindingStatus {
	if b.rb != nil {
		return &b.rb.Status
	}
	return &b.crb.Status
}

func (b binding) runtimeObject() runtime.Object {
	if b.rb != nil {
		return b.rb
	}
	return b.crb
}

// id names the binding object itself (kind, namespace, name).
func (b binding) id() string {
	if b.rb != nil {
		return "ResourceBinding " + b.rb.Namespace + "/" + b.rb.Name
	}
	return "ClusterResourceBinding " + b.crb.Name
}

func (b binding) resource() resourceKey {
	r := b.spec().Resource
	return resourceKey{r.APIVersion, r.Kind, r.Namespace, r.Name}
}

// claim is the policy the binding's claim metadata names (detector.AddPPClaimMetadata / AddCPPClaimMetadata).
func (b binding) claim() (policyKey, string, bool) {
	o := b.object()
	labels, annotations := o.GetLabels(), o.GetAnnotations()
	if id := labels[policyv1alpha1.PropagationPolicyPermanentIDLabel]; id != "" {
		ns, name := annotations[policyv1alpha1.PropagationPolicyNamespaceAnnotation], annotations[policyv1alpha1.PropagationPolicyNameAnnotation]
		if name != "" {
			return policyKey{namespace: ns, name: name}, id, true
		}
	}
	if id := labels[policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel]; id != "" {
		if name := annotations[policyv1alpha1.ClusterPropagationPolicyAnnotation]; name != "" {
			return policyKey{cluster: true, name: name}, id, true
		}
	}
	return policyKey{}, "", false
}

// world is the control plane's state the dry run starts from, typed the way Karmada's clients hold it.
type world struct {
	pps        []*policyv1alpha1.PropagationPolicy
	cpps       []*policyv1alpha1.ClusterPropagationPolicy
	policyIdx  map[policyKey]int // policy -> Policy.Index (a later document of the same name replaces an earlier one, as kubectl apply)
	clusters   []*clusterv1alpha1.Cluster
	templates  []*unstructured.Unstructured
	bindings   []binding // given ones, in input order
	restMapper meta.RESTMapper
	members    map[string]member // --member-state: the clusters with a karmada-scheduler-estimator
}

// clusterScopedKinds are the built-in group/kinds without a namespace (kubectl learns it from discovery; a
// template of another kind without metadata.namespace lands in "default", as kubectl apply puts it): the
// k8s.io/api types registered with RESTScopeRoot, and Karmada's own. The group "" is the core group.
var clusterScopedKinds = map[schema.GroupKind]bool{
	{Kind: "Namespace"}: true, {Kind: "Node"}: true, {Kind: "PersistentVolume"}: true, {Kind: "ComponentStatus"}: true,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:                         true,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}:                  true,
	{Group: "storage.k8s.io", Kind: "StorageClass"}:                                   true,
	{Group: "storage.k8s.io", Kind: "CSIDriver"}:                                      true,
	{Group: "storage.k8s.io", Kind: "CSINode"}:                                        true,
	{Group: "storage.k8s.io", Kind: "VolumeAttachment"}:                               true,
	{Group: "storage.k8s.io", Kind: "VolumeAttributesClass"}:                          true,
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}:                 true,
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}:                               true,
	{Group: "networking.k8s.io", Kind: "IngressClass"}:                                true,
	{Group: "networking.k8s.io", Kind: "IPAddress"}:                                   true,
	{Group: "networking.k8s.io", Kind: "ServiceCIDR"}:                                 true,
	{Group: "node.k8s.io", Kind: "RuntimeClass"}:                                      true,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:     true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}:   true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy"}:        true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding"}: true,
	{Group: "apiregistration.k8s.io", Kind: "APIService"}:                             true,
	{Group: "certificates.k8s.io", Kind: "CertificateSigningRequest"}:                 true,
	{Group: "certificates.k8s.io", Kind: "ClusterTrustBundle"}:                        true,
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "FlowSchema"}:                       true,
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "PriorityLevelConfiguration"}:       true,
	{Group: "resource.k8s.io", Kind: "DeviceClass"}:                                   true,
	{Group: "cluster.karmada.io", Kind: "Cluster"}:                                    true,
	{Group: "policy.karmada.io", Kind: "ClusterPropagationPolicy"}:                    true,
	{Group: "policy.karmada.io", Kind: "ClusterOverridePolicy"}:                       true,
	{Group: "policy.karmada.io", Kind: "ClusterTaintPolicy"}:                          true,
	{Group: "work.karmada.io", Kind: "ClusterResourceBinding"}:                        true,
	{Group: "config.karmada.io", Kind: "ResourceInterpreterCustomization"}:            true,
}

func fromUnstructured(u *unstructured.Unstructured, into any) error {
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, into); err != nil {
		return fmt.Errorf("%s %s/%s: %w", u.GetKind(), u.GetNamespace(), u.GetName(), err)
	}
	return nil
}

// newWorld types the inputs and rebuilds what the live objects carry that files from git do not. This is
// input reconstruction, not Karmada logic:
//   - a template without metadata.uid gets a random one, as kube-apiserver gives every object (so Karmada's
//     uid-seeded tie-break is as random as it is live); a template a given binding refers to gets that
//     binding's spec.resource.uid (or its controller owner's uid), and, when it carries no claim of its own,
//     the binding's claim labels and annotations: the detector put both on the live template;
//   - a policy a given binding claims keeps that binding's permanent-id (applying it is an UPDATE, and
//     the id is immutable); any other policy without one gets a random id, as Karmada's mutating webhook
//     gives it on CREATE.
func newWorld(in Input) (*world, error) {
	w := &world{policyIdx: map[policyKey]int{}}
	var err error
	if w.members, err = newMembers(in.MemberState); err != nil {
		return nil, err
	}
	for _, o := range in.Bindings {
		if o.GroupVersionKind().Group != workv1alpha2.GroupName || (o.GetKind() != "ResourceBinding" && o.GetKind() != "ClusterResourceBinding") {
			continue // lint's --bindings takes work.karmada.io's bindings and ignores the rest
		}
		if err := storable(o, o.GetKind() == "ResourceBinding"); err != nil {
			return nil, err
		}
		if v := o.GroupVersionKind().Version; v != workv1alpha2.GroupVersion.Version {
			return nil, fmt.Errorf("bindings: %s %s: version %q: the dry run reads %s bindings only", o.GetKind(), o.GetName(), v,
				workv1alpha2.GroupVersion)
		}
		switch o.GetKind() {
		case "ResourceBinding":
			rb := &workv1alpha2.ResourceBinding{}
			if err := fromUnstructured(o, rb); err != nil {
				return nil, err
			}
			w.bindings = append(w.bindings, binding{rb: rb})
		case "ClusterResourceBinding":
			crb := &workv1alpha2.ClusterResourceBinding{}
			if err := fromUnstructured(o, crb); err != nil {
				return nil, err
			}
			w.bindings = append(w.bindings, binding{crb: crb})
		}

	}
	claimedIDs := map[policyKey]string{}
	for _, b := range w.bindings {
		if k, id, ok := b.claim(); ok {
			if _, seen := claimedIDs[k]; !seen {
				claimedIDs[k] = id
			}
		}
	}

	for _, p := range in.Policies {
		obj := p.Object.DeepCopy()
		switch obj.GetKind() {
		case "PropagationPolicy":
			if obj.GetNamespace() == "" {
				obj.SetNamespace(metav1.NamespaceDefault)
			}
			k := policyKey{namespace: obj.GetNamespace(), name: obj.GetName()}
			setPermanentID(obj, policyv1alpha1.PropagationPolicyPermanentIDLabel, claimedIDs[k])
			pp := &policyv1alpha1.PropagationPolicy{}
			if err := fromUnstructured(obj, pp); err != nil {
				return nil, err
			}
			w.pps = replaceObject(w.pps, pp)
			w.policyIdx[k] = p.Index
		case "ClusterPropagationPolicy":
			k := policyKey{cluster: true, name: obj.GetName()}
			setPermanentID(obj, policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel, claimedIDs[k])
			cpp := &policyv1alpha1.ClusterPropagationPolicy{}
			if err := fromUnstructured(obj, cpp); err != nil {
				return nil, err
			}
			w.cpps = replaceObject(w.cpps, cpp)
			w.policyIdx[k] = p.Index
		default:
			return nil, fmt.Errorf("policies: %s is not a policy kind", obj.GetKind())
		}
	}

	for _, o := range in.Clusters {
		if o.GetKind() != "Cluster" || o.GroupVersionKind().Group != clusterv1alpha1.GroupName {
			continue // lint's --clusters takes cluster.karmada.io's Clusters and ignores the rest
		}
		if err := storable(o, false); err != nil {
			return nil, err
		}
		c := &clusterv1alpha1.Cluster{}
		if err := fromUnstructured(o, c); err != nil {
			return nil, err
		}
		if err := canonicalize(c); err != nil {
			return nil, err
		}
		w.clusters = replaceObject(w.clusters, c)
	}

	byResource := map[resourceKey]binding{}
	for _, b := range w.bindings {
		if _, seen := byResource[b.resource()]; !seen {
			byResource[b.resource()] = b
		}
	}
	defaultNamespace := in.Namespace
	if defaultNamespace == "" {
		defaultNamespace = metav1.NamespaceDefault
	}
	mapper := meta.NewDefaultRESTMapper(nil)
	for _, o := range in.Workloads {
		if strings.HasSuffix(o.GroupVersionKind().Group, "karmada.io") {
			continue // lint's --workloads skips Karmada's own objects (policies, clusters, bindings)
		}
		if err := storable(o, false); err != nil {
			return nil, err
		}
		t, err := stored(o)
		if err != nil {
			return nil, err
		}
		gvk := t.GroupVersionKind()
		scope := meta.RESTScopeNamespace
		if clusterScopedKinds[gvk.GroupKind()] {
			scope = meta.RESTScopeRoot
			t.SetNamespace("")
		} else if t.GetNamespace() == "" {
			t.SetNamespace(defaultNamespace)
		}
		mapper.Add(gvk, scope)
		apiserverDefaults(t)
		if b, ok := byResource[resourceKey{t.GetAPIVersion(), t.GetKind(), t.GetNamespace(), t.GetName()}]; ok {
			liveTemplate(t, b)
		}
		if t.GetUID() == "" {
			t.SetUID(uuid.NewUUID())
		}
		w.templates = append(w.templates, t)
	}
	// The bindings' kinds too: a detector that lists or gets bindings through its DynamicClient (v1.17's
	// policy deletion does) is answered from the same store, also when no binding exists yet.
	mapper.Add(workv1alpha2.SchemeGroupVersion.WithKind("ResourceBinding"), meta.RESTScopeNamespace)
	mapper.Add(workv1alpha2.SchemeGroupVersion.WithKind("ClusterResourceBinding"), meta.RESTScopeRoot)
	w.restMapper = mapper
	if err := w.checkMembers(); err != nil {
		return nil, err
	}
	return w, nil
}

// apiserverDefaults applies the kube-apiserver defaults that decide a native template's replicas, which a
// file from git may leave out but a stored object always has (k8s.io/kubernetes pkg/apis/apps/v1 and
// pkg/apis/core/v1 SetDefaults_Deployment / _StatefulSet / _ReplicaSet / _ReplicationController: replicas 1;
// pkg/apis/batch/v1 SetDefaults_Job: parallelism 1, and completions 1 when both are unset). Re-implemented:
// k8s.io/kubernetes is not importable as a module, and Karmada's interpreter reads the stored object.
func apiserverDefaults(t *unstructured.Unstructured) {
	unset := func(path ...string) bool {
		v, found, _ := unstructured.NestedFieldNoCopy(t.Object, path...)
		return !found || v == nil
	}
	set := func(path ...string) {
		if unset(path...) {
			_ = unstructured.SetNestedField(t.Object, int64(1), path...)
		}
	}
	gvk := t.GroupVersionKind()
	switch {
	case gvk.Group == "apps" && (gvk.Kind == "Deployment" || gvk.Kind == "StatefulSet" || gvk.Kind == "ReplicaSet"),
		gvk.Group == "" && gvk.Kind == "ReplicationController":
		set("spec", "replicas")
	case gvk.Group == "batch" && gvk.Kind == "Job":
		if unset("spec", "completions") && unset("spec", "parallelism") {
			set("spec", "completions")
		}
		set("spec", "parallelism")
	}
}

// setPermanentID gives the policy the id a given binding names, or a random one when it has none.
func setPermanentID(obj *unstructured.Unstructured, label, claimed string) {
	labels := obj.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	switch {
	case claimed != "":
		labels[label] = claimed
	case labels[label] == "":
		labels[label] = string(uuid.NewUUID())
	}
	obj.SetLabels(labels)
}

// storable refuses a snapshot object kube-apiserver could never have stored, so Karmada's controllers
// never read one like it: without metadata.name, or, of a namespaced kind whose namespace is not
// defaulted (a binding), without metadata.namespace. The fake clients would take it; lint refuses it.
func storable(o *unstructured.Unstructured, namespaced bool) error {
	if o.GetName() == "" {
		return fmt.Errorf("%s: metadata.name: Required value: name or generateName is required", o.GetKind())
	}
	if namespaced && o.GetNamespace() == "" {
		return fmt.Errorf("%s %s: metadata.namespace: Required value", o.GetKind(), o.GetName())
	}
	// The fake client panics on a namespace longer than a DNS label, which no API server holds: refuse it, so
	// that the case is compared (lint refuses such a file for its other faults) instead of the oracle failing.
	// Only the length: lint reads a binding whose namespace is otherwise malformed, and so does the fake.
	if ns := o.GetNamespace(); namespaced && len(ns) > validation.DNS1123LabelMaxLength {
		return fmt.Errorf("%s %s: metadata.namespace: Invalid value: %q: must be no more than %d characters",
			o.GetKind(), o.GetName(), ns, validation.DNS1123LabelMaxLength)
	}
	return nil
}

// stored is a template as kube-apiserver stores and serves it. A template of a built-in kind it could not
// decode into its Go type is refused, as it could never have been stored ("Deployment in version \"v1\"
// cannot be handled as a Deployment: ..."): a quantity apimachinery does not parse, a string where an
// integer goes. Karmada's interpreter would fail on it too, but only if a policy matched it; lint, like
// kubectl apply, refuses the file. One it decodes is read back through its Go type: kube-apiserver keeps
// built-in objects as protobuf, which holds no empty map or list, and serves them without the omitempty
// fields that are empty, so `nodeSelector: {}` in a file is no nodeSelector to Karmada's interpreter
// (helper.GenerateNodeClaimByPodSpec tells a nil map from an empty one). The decoder is client-go's (the
// same JSON decoding and types the API server's codec uses); kinds it does not know (custom resources)
// are kept as written, as kube-apiserver keeps them.
func stored(o *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	gvk := o.GroupVersionKind()
	if !kubescheme.Scheme.Recognizes(gvk) {
		return o.DeepCopy(), nil
	}
	data, err := o.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("%s %s/%s: %w", gvk.Kind, o.GetNamespace(), o.GetName(), err)
	}
	typed, _, err := kubescheme.Codecs.UniversalDeserializer().Decode(data, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("%s %s/%s: %s in version %q cannot be handled as a %s: %w", gvk.Kind, o.GetNamespace(),
			o.GetName(), gvk.Kind, gvk.Version, gvk.Kind, err)
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed)
	if err != nil {
		return nil, fmt.Errorf("%s %s/%s: %w", gvk.Kind, o.GetNamespace(), o.GetName(), err)
	}
	out := &unstructured.Unstructured{Object: content}
	out.SetGroupVersionKind(gvk) // the decoder clears TypeMeta of typed objects
	return out, nil
}

// canonicalize gives a Cluster from a file the stored form karmada-aggregated-apiserver writes on every
// create and update (pkg/registry/cluster strategy.go Canonicalize -> mutation.MutateCluster: the deprecated
// spec.zone moved into spec.zones, timeAdded on NoExecute taints), which is what the scheduler reads.
func canonicalize(c *clusterv1alpha1.Cluster) error {
	internal := &clusterapis.Cluster{}
	if err := clusterv1alpha1.Convert_v1alpha1_Cluster_To_cluster_Cluster(c, internal, nil); err != nil {
		return fmt.Errorf("Cluster %s: %w", c.Name, err)
	}
	clustermutation.MutateCluster(internal)
	if err := clusterv1alpha1.Convert_cluster_Cluster_To_v1alpha1_Cluster(internal, c, nil); err != nil {
		return fmt.Errorf("Cluster %s: %w", c.Name, err)
	}
	return nil
}

// replaceObject: a later object of the same namespace and name (Clusters and cluster-scoped policies:
// name) replaces an earlier one, as a second kubectl apply updates it (and as lint uses the later one).
func replaceObject[T metav1.Object](list []T, obj T) []T {
	for i, q := range list {
		if q.GetNamespace() == obj.GetNamespace() && q.GetName() == obj.GetName() {
			list[i] = obj
			return list
		}
	}
	return append(list, obj)
}

// liveTemplate gives a template from git what the live one carries when a binding of it exists.
func liveTemplate(t *unstructured.Unstructured, b binding) {
	if t.GetUID() == "" {
		uid := b.spec().Resource.UID
		if uid == "" {
			if owner := metav1.GetControllerOfNoCopy(b.object()); owner != nil {
				uid = owner.UID
			}
		}
		t.SetUID(types.UID(uid))
	}
	labels, annotations := t.GetLabels(), t.GetAnnotations()
	for k := range labels {
		if strings.HasSuffix(k, "propagationpolicy.karmada.io/permanent-id") {
			return // the template carries a claim of its own
		}
	}
	if labels == nil {
		labels = map[string]string{}
	}
	if annotations == nil {
		annotations = map[string]string{}
	}
	bl, ba := b.object().GetLabels(), b.object().GetAnnotations()
	for _, k := range []string{policyv1alpha1.PropagationPolicyPermanentIDLabel, policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel} {
		if v, ok := bl[k]; ok {
			labels[k] = v
		}
	}
	for _, k := range []string{policyv1alpha1.PropagationPolicyNamespaceAnnotation, policyv1alpha1.PropagationPolicyNameAnnotation, policyv1alpha1.ClusterPropagationPolicyAnnotation} {
		if v, ok := ba[k]; ok {
			annotations[k] = v
		}
	}
	t.SetLabels(labels)
	t.SetAnnotations(annotations)
}

// gvrOf maps a template's kind to its resource the way the detector's RESTMapper does.
func (w *world) gvrOf(gvk schema.GroupVersionKind) (schema.GroupVersionResource, error) {
	m, err := w.restMapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return schema.GroupVersionResource{}, err
	}
	return m.Resource, nil
}
