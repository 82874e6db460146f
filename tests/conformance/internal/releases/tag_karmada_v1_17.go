//go:build karmada_v1_17

package releases

// taggedMinor is the minor whose API differences the build tag selected (build.sh: -tags karmada_v1_17
// with go.v1.17.1.mod).
const taggedMinor = "v1.17"
