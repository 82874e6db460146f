//go:build !karmada_v1_16 && !karmada_v1_17

package releases

// taggedMinor is the minor of tests/conformance/go.mod, built without a release tag.
const taggedMinor = "v1.18"
