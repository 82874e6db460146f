package parallel

import (
	"sync/atomic"
	"testing"
)

func TestMap(t *testing.T) {
	tests := []struct {
		name       string
		n, workers int
	}{
		{"more jobs than workers", 100, 4},
		{"more workers than jobs", 3, 16},
		{"no worker asked for: one", 10, 0},
		{"no job", 0, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int64
			got := Map(tt.n, tt.workers, func(i int) int { calls.Add(1); return i * i })
			if len(got) != tt.n || calls.Load() != int64(tt.n) {
				t.Fatalf("%d results from %d calls, want %d", len(got), calls.Load(), tt.n)
			}
			for i, v := range got {
				if v != i*i {
					t.Fatalf("result %d = %d: out of order", i, v)
				}
			}
		})
	}
}
