//go:build !kubernetes_protomessage_one_more_release

package scheduling

// protoMessageTag: see protomessage.go; without the tag a dry run with member state is refused.
const protoMessageTag = false
