package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"karmada-policy-webhook/tests/conformance/internal/admission"
)

// ReviewRequest is one line of `karmada-oracle reviews`' input: an HTTP POST as kube-apiserver sends it
// to a validating webhook.
type ReviewRequest struct {
	Path        string `json:"path"`
	ContentType string `json:"contentType"`
	Body        []byte `json:"body"` // base64 in the line: a review may be any bytes
}

// ReviewResponse is one line of its output: what karmada-webhook answered.
type ReviewResponse struct {
	Status int    `json:"status"`
	Body   []byte `json:"body"`
}

// reviews answers one POST per input line with Karmada's validating webhooks (admission.ValidatingWebhooks)
// through an in-memory round trip: the HTTP handler is karmada-webhook's, only the TLS listener is left out.
func reviews(stdin io.Reader, stdout, stderr io.Writer) int {
	handler := admission.ValidatingWebhooks()
	return jsonLines("reviews", stdin, stdout, stderr, func(line []byte) (any, error) {
		var req ReviewRequest
		if err := json.Unmarshal(line, &req); err != nil {
			return nil, fmt.Errorf("request: %w", err)
		}
		r := httptest.NewRequest(http.MethodPost, req.Path, bytes.NewReader(req.Body))
		if req.ContentType != "" {
			r.Header.Set("Content-Type", req.ContentType)
		}
		w := httptest.NewRecorder()
		handler.ServeHTTP(w, r)
		return ReviewResponse{Status: w.Code, Body: w.Body.Bytes()}, nil
	})
}
