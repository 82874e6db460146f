#!/bin/sh
# Builds every command of the conformance module (karmada-oracle, ...) into OUTDIR, after go vet and
# gofmt. Karmada's policy CRDs are read at run time from the Karmada module this build used; their
# directory is recorded in the binary (-X main.defaultCRDDir), so the module cache must stay in place.
# usage: tests/conformance/build.sh OUTDIR
set -eu
if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
case "$1" in
    /*) out=$1 ;;
    *) out=$(pwd)/$1 ;;
esac
cd "$(dirname "$0")"
if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
    PATH=$PATH:/usr/local/go/bin
fi
echo "build.sh: go vet ./..."
go vet ./...
echo "build.sh: gofmt -l ."
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
    echo "build.sh: not gofmt-formatted:" >&2
    echo "$unformatted" >&2
    exit 1
fi
karmada=$(go list -m -f '{{.Dir}}' github.com/karmada-io/karmada)
crds=$karmada/charts/karmada/_crds/bases/policy
if [ ! -f "$crds/policy.karmada.io_propagationpolicies.yaml" ]; then
    echo "build.sh: Karmada's policy CRDs are not in $crds" >&2
    exit 1
fi
mkdir -p "$out"
echo "build.sh: go build -o $out ./cmd/... (CRDs from $crds)"
go build -ldflags "-X main.defaultCRDDir=$crds" -o "$out/" ./cmd/...
ls -1 "$out"
