//go:build karmada_v1_16

package releases

// taggedMinor is the minor whose API differences the build tag selected (build.sh: -tags karmada_v1_16
// with go.v1.16.0.mod).
const taggedMinor = "v1.16"
