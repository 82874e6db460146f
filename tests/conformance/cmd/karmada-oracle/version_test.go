package main

import (
	"bytes"
	"strings"
	"testing"

	"karmada-policy-webhook/tests/conformance/internal/releases"
)

// One oracle answers as the release it was built against, under any spelling of that release, and
// refuses every other one by naming the oracle that answers it.
func TestCheckReleaseAcceptsOnlyItsOwnRelease(t *testing.T) {
	built, err := releases.Built()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range releases.Supported {
		for _, spelling := range []string{r, releases.Minor(r)} {
			err := checkRelease(spelling)
			if r == built && err != nil {
				t.Errorf("checkRelease(%s) on a %s oracle: %v", spelling, built, err)
			}
			if r != built && (err == nil || !strings.Contains(err.Error(), "run karmada-oracle-"+r)) {
				t.Errorf("checkRelease(%s) on a %s oracle = %v, want a refusal naming karmada-oracle-%s", spelling, built, err, r)
			}
		}
	}
	if err := checkRelease("v1.12"); err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Errorf("checkRelease(v1.12) = %v, want not supported", err)
	}
}

func TestVersionPrintsTheRelease(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"version"}, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	built, _ := releases.Built()
	if !strings.HasPrefix(stdout.String(), "karmada: "+built+"\ncrd-dir: ") {
		t.Errorf("version printed %q", stdout.String())
	}
}

func TestLintRefusesAnotherRelease(t *testing.T) {
	other := releases.Supported[0]
	if built, _ := releases.Built(); built == other {
		other = releases.Default
	}
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"lint", "--crd-dir", "x", "--karmada-version", other, "p.yaml"}, strings.NewReader(""), &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "--karmada-version "+other+": this oracle is built against") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}
