module karmada-policy-webhook/tests/conformance

go 1.26

require github.com/karmada-io/karmada v1.18.2
