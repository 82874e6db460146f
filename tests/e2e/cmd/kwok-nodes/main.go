// Command kwok-nodes prints KWOK nodes with a chosen capacity, for `control-plane.sh nodes DIR MEMBER`
// to apply on a member cluster of the loopback plane (the manifest the e2e tests apply too):
//
//	kwok-nodes --prefix idc-1-node --count 2 --cpu 4 --memory 8Gi [--pods 110]
package main

import (
	"flag"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/api/resource"

	"karmada-policy-webhook/tests/e2e/internal/plane"
)

func main() {
	prefix := flag.String("prefix", "", "node names: PREFIX-1 .. PREFIX-COUNT")
	count := flag.Int("count", 1, "how many nodes")
	cpu := flag.String("cpu", "4", "each node's CPU capacity (a Kubernetes quantity)")
	memory := flag.String("memory", "8Gi", "each node's memory capacity (a Kubernetes quantity)")
	pods := flag.Int("pods", 110, "how many pods each node takes")
	flag.Parse()
	if *prefix == "" || *count < 1 || *pods < 1 || flag.NArg() != 0 {
		flag.Usage()
		os.Exit(2)
	}
	for _, q := range []string{*cpu, *memory} {
		if _, err := resource.ParseQuantity(q); err != nil {
			fmt.Fprintf(os.Stderr, "kwok-nodes: %q is not a quantity: %v\n", q, err)
			os.Exit(2)
		}
	}
	fmt.Print(plane.KwokNodes(*prefix, *count, *cpu, *memory, *pods))
}
