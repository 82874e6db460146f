#!/bin/sh
# Builds the conformance module's commands into OUTDIR, after go vet and gofmt: one karmada-oracle per
# pinned Karmada release (issue 37), from the same source, each against its own go.mod:
#   go.mod              the default release (v1.18.2): every command (karmada-oracle, conformance, ...)
#                       and karmada-oracle-<release>, the same binary under its release's name
#   go.<release>.mod    another release (go.v1.16.0.mod, ...): karmada-oracle-<release> only, built with
#                       -modfile and the build tag karmada_v1_<minor>, which selects the files holding
#                       that release's API differences (named after Karmada's change)
# Karmada's policy CRDs are read at run time from the Karmada module each build used; their directory is
# recorded in the binary (-X main.defaultCRDDir), so the module cache must stay in place.
# The releases build in parallel unless ORACLE_PARALLEL=0. A stamp of the inputs (every Go source, the
# modfiles and sums, this script, the Go version) skips a build whose inputs have not changed.
# usage: tests/conformance/build.sh OUTDIR [RELEASE...]   (default: every release; RELEASE as v1.16.0)
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 OUTDIR [RELEASE...]" >&2
    exit 2
fi
case "$1" in
    /*) out=$1 ;;
    *) out=$(pwd)/$1 ;;
esac
shift
cd "$(dirname "$0")"
if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
    PATH=$PATH:/usr/local/go/bin
fi

default=$(go list -m -f '{{.Version}}' github.com/karmada-io/karmada)
# The releases are go.mod's and one per go.<release>.mod: the modfiles are the one list of them.
all=$default
for m in go.v*.mod; do
    [ -e "$m" ] || continue
    r=${m#go.}
    all="$all ${r%.mod}"
done
releases=${*:-$all}
for r in $releases; do
    case " $all " in
        *" $r "*) ;;
        *) echo "build.sh: no Karmada release $r here (the releases are: $all)" >&2; exit 2 ;;
    esac
done

stamp=$out/.inputs-$(echo "$releases" | tr ' ' '_')
inputs() {
    go version
    cat build.sh go.mod go.sum go.v*.mod go.v*.sum
    find . -name '*.go' -type f | LC_ALL=C sort | xargs cat
}
want=$(inputs | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    missing=
    for r in $releases; do
        [ -x "$out/karmada-oracle-$r" ] || missing=$r
    done
    if [ -z "$missing" ]; then
        echo "build.sh: inputs unchanged since the last build ($stamp): nothing to do"
        ls -1 "$out"
        exit 0
    fi
fi
rm -f "$stamp"

echo "build.sh: gofmt -l ."
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
    echo "build.sh: not gofmt-formatted:" >&2
    echo "$unformatted" >&2
    exit 1
fi
mkdir -p "$out"

# build_release RELEASE: go vet and go build against the release's modfile, with its build tag.
build_release() {
    r=$1
    # kubernetes_protomessage_one_more_release: the tag Karmada's hack/build.sh builds its binaries with
    # (the estimator's gRPC messages embed k8s.io/api types; internal/scheduling/protomessage.go).
    if [ "$r" = "$default" ]; then
        set -- -modfile=go.mod -tags=kubernetes_protomessage_one_more_release
    else
        minor=$(echo "$r" | cut -d. -f1,2 | tr . _)
        set -- -modfile="go.$r.mod" -tags="karmada_$minor,kubernetes_protomessage_one_more_release"
    fi
    karmada=$(go list "$@" -m -f '{{.Dir}}' github.com/karmada-io/karmada)
    crds=$karmada/charts/karmada/_crds/bases/policy
    if [ ! -f "$crds/policy.karmada.io_propagationpolicies.yaml" ]; then
        echo "build.sh: Karmada $r's policy CRDs are not in $crds" >&2
        return 1
    fi
    if [ "$r" = "$default" ]; then
        echo "build.sh: $r: go vet ./... && go build -o $out ./cmd/... (CRDs from $crds)"
        go vet "$@" ./...
        go build "$@" -ldflags "-X main.defaultCRDDir=$crds" -o "$out/" ./cmd/...
        ln -f "$out/karmada-oracle" "$out/karmada-oracle-$r"
    else
        echo "build.sh: $r: go vet $* (the oracle's packages) && go build -o $out/karmada-oracle-$r (CRDs from $crds)"
        go vet "$@" ./cmd/karmada-oracle/... ./internal/admission/... ./internal/inputs/... ./internal/report/... \
            ./internal/scheduling/... ./internal/releases/...
        go build "$@" -ldflags "-X main.defaultCRDDir=$crds" -o "$out/karmada-oracle-$r" ./cmd/karmada-oracle
    fi
    "$out/karmada-oracle-$r" version | grep -qx "karmada: $r" || {
        echo "build.sh: $out/karmada-oracle-$r does not say it is Karmada $r's:" >&2
        "$out/karmada-oracle-$r" version >&2
        return 1
    }
}

if [ "${ORACLE_PARALLEL:-1}" = 0 ]; then
    for r in $releases; do
        build_release "$r"
    done
else
    pids=
    for r in $releases; do
        build_release "$r" > "$out/.build-$r.log" 2>&1 &
        pids="$pids $!:$r"
    done
    failed=
    for p in $pids; do
        if ! wait "${p%%:*}"; then
            failed="$failed ${p#*:}"
        fi
        cat "$out/.build-${p#*:}.log"
    done
    if [ -n "$failed" ]; then
        echo "build.sh: the oracle of Karmada$failed did not build (above)" >&2
        exit 1
    fi
fi
echo "$want" > "$stamp"
ls -1 "$out"
