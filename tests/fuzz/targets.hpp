// SPDX-License-Identifier: Apache-2.0
// The fuzz targets as plain functions: libFuzzer entry points call them, and so does the replay test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace kpw::fuzz {

using bytes = std::span<const std::uint8_t>;

// (1) AdmissionReview bytes -> envelope checks, decode, validate (every handler) -> encoded reply.
int admission_review(bytes data);
// (2) YAML/JSON bytes -> doc::load_yaml / doc::parse_json -> validate_manifest -> lint report (text, json).
int manifest(bytes data);
// (3) Raw bytes of one or more HTTP/1.1 requests, as read from a webhook connection -> Beast's parser,
// router, responder (no sockets). Requests after the first are pipelined on the same "connection".
int http_request(bytes data);
// (4) Clusters, workloads and policies (a JSON List or a YAML stream) -> cluster inventory and snapshot -> dry-run
// scheduler for every (policy, workload) pair.
int schedule(bytes data);
// (5) YAML/JSON bindings -> binding inventory -> taint manager, graceful eviction and rebalancer on them.
int bindings(bytes data);
// (6) YAML scenario files -> scenario decode -> reference checks.
int scenario(bytes data);
// (7) Clusters, ResourceBindings, workloads and policies (a JSON List or a YAML stream) -> the detector's policy apply
// and the scheduler's re-schedule of each binding, alone and through the shared filter cache.
int reschedule(bytes data);
// (8) kubeconfig YAML bytes (one file, then the same text as two merged files) -> kube::parse_kubeconfig for
// the current context and for each named one.
int kubeconfig(bytes data);
// (9) A watch stream's bytes, split at newlines -> kube::decode_watch_event for every line.
int watch_event(bytes data);
// (10) Four lines (a kubeconfig proxy-url, an HTTPS_PROXY value, a NO_PROXY list, the API server's host:port) ->
// kube/proxy_rules: the proxy URL parsers and Go's environment proxy rules.
int proxy_url(bytes data);
// (11) A --karmada-version value on the first line, then a CustomResourceDefinition or a policy -> the version
// parser, schema::release_of_crd, validate_manifest under every supported release.
int karmada_release(bytes data);
// (12) A member cluster's Nodes and Pods (a JSON List or a YAML stream) -> member state decoding ->
// karmada-scheduler-estimator's estimate for no request, a small one and each Pod's spec as a template.
int member_state(bytes data);

struct target {
    std::string_view name; // the fuzzer binary is fuzz_<name>; seeds and regressions use <name>/
    int (*run)(bytes);
};

// Every target, for the replay test and the seed tool.
std::span<const target> all_targets();

// A violated invariant: prints what and aborts, so libFuzzer records the input as a crash.
[[noreturn]] void invariant_failed(std::string_view target, std::string_view what);

inline std::string_view as_text(bytes data)
{
    return {reinterpret_cast<const char*>(data.data()), data.size()};
}

} // namespace kpw::fuzz
