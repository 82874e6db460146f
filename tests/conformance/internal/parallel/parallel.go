// Package parallel runs independent jobs on a fixed number of goroutines.
package parallel

import "sync"

// Map returns f(0), ..., f(n-1), computed by `workers` goroutines at once (at least one); the results
// are in index order whatever order they finish in.
func Map[T any](n, workers int, f func(i int) T) []T {
	out := make([]T, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}
