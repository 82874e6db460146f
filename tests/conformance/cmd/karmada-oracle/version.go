package main

import (
	"fmt"
	"io"

	"karmada-policy-webhook/tests/conformance/internal/releases"
)

// version prints the Karmada release this oracle was built against and the CRD directory it reads,
// one "key: value" a line, for the comparer to check that build-oracle/karmada-oracle-V is V's.
func version(stdout, stderr io.Writer) int {
	built, err := releases.Built()
	if err != nil {
		fmt.Fprintf(stderr, "karmada-oracle: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "karmada: %s\ncrd-dir: %s\n", built, defaultCRDDir)
	return exitOK
}

// checkRelease accepts lint's --karmada-version when it names this oracle's release (any spelling of
// its minor, as lint takes it); one oracle answers as one release only.
func checkRelease(flag string) error {
	want, err := releases.Resolve(flag)
	if err != nil {
		return fmt.Errorf("--karmada-version: %v", err)
	}
	built, err := releases.Built()
	if err != nil {
		return fmt.Errorf("--karmada-version: %v", err)
	}
	if want != built {
		return fmt.Errorf("--karmada-version %s: this oracle is built against Karmada %s; run karmada-oracle-%s", flag, built, want)
	}
	return nil
}
