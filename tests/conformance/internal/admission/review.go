package admission

import (
	"net/http"
)

// Validating webhook paths as karmada-webhook registers them (cmd/webhook/app/webhook.go:209,219 at
// v1.18.2; the same in v1.16.0 and v1.17.1), and as `karmada-policy-webhook serve` answers them.
const (
	PathPropagationPolicy        = "/validate-propagationpolicy"
	PathClusterPropagationPolicy = "/validate-clusterpropagationpolicy"
)

// ValidatingWebhooks is the part of karmada-webhook's HTTPS server that answers the two policy kinds'
// validating AdmissionReviews: controller-runtime's admission.Webhook (its ServeHTTP: body limit,
// content type, review decoding, the handler, the response envelope) around Karmada's
// ValidatingAdmission handlers with karmada-webhook's decoder. Any other path is 404, as on the mux.
func ValidatingWebhooks() http.Handler {
	h := newHooks(newDecoder())
	mux := http.NewServeMux()
	mux.Handle(PathPropagationPolicy, h["PropagationPolicy"].validating)
	mux.Handle(PathClusterPropagationPolicy, h["ClusterPropagationPolicy"].validating)
	return mux
}
