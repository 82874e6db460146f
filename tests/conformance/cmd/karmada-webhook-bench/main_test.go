package main

import (
	"crypto/tls"
	"testing"
)

func TestMinVersionFollowsKarmadaWebhook(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint16
		ok   bool
	}{
		{"1.0", tls.VersionTLS10, true},
		{"1.1", tls.VersionTLS11, true},
		{"1.2", tls.VersionTLS12, true},
		{"1.3", tls.VersionTLS13, true},
		{"1.4", 0, false},
		{"", 0, false},
	} {
		got, ok := minVersion(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("minVersion(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
