//go:build kubernetes_protomessage_one_more_release

package scheduling

// protoMessageTag: built with the tag Karmada's own binaries are built with (hack/build.sh of v1.17.1 and
// v1.18.2: `-tags kubernetes_protomessage_one_more_release`). From Kubernetes v0.35 the k8s.io/api types
// have their gogo ProtoMessage methods only under that tag, and the estimator's gRPC messages
// (pkg/estimator/pb) embed corev1.NodeSelector: without it the scheduler's first estimator call panics
// ("message *v1.NodeSelector is neither a v1 or v2 Message").
const protoMessageTag = true
