package generate

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestGenerateReview: the same seed and index give the same review, and the reviews are what the
// comparison needs: JSON AdmissionReviews for the path of their kind, CREATE and UPDATE, the UPDATEs with
// an oldObject, a few with a bent envelope.
func TestGenerateReview(t *testing.T) {
	if a, b := GenerateReview(7, 3), GenerateReview(7, 3); !bytes.Equal(a.Body, b.Body) || a.Path != b.Path {
		t.Fatal("GenerateReview is not deterministic")
	}
	ops := map[string]int{}
	withOld, v1 := 0, 0
	for i := 0; i < 300; i++ {
		r := GenerateReview(1, i)
		if r.Path != reviewPathPP && r.Path != reviewPathCPP {
			t.Fatalf("review %d: path %q", i, r.Path)
		}
		var review struct {
			APIVersion string `json:"apiVersion"`
			Request    struct {
				Operation string          `json:"operation"`
				OldObject json.RawMessage `json:"oldObject"`
			} `json:"request"`
		}
		if err := json.Unmarshal(r.Body, &review); err != nil {
			t.Fatalf("review %d: %v", i, err)
		}
		ops[review.Request.Operation]++
		if len(review.Request.OldObject) > 0 {
			withOld++
		}
		if review.APIVersion == "admission.k8s.io/v1" {
			v1++
		}
	}
	if ops["CREATE"] < 60 || ops["UPDATE"] < 150 || withOld < 150 || v1 < 250 || v1 == 300 {
		t.Fatalf("operations %v, %d with oldObject, %d of admission.k8s.io/v1: not the mix GenerateReview promises", ops, withOld, v1)
	}
}
