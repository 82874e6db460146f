// SPDX-License-Identifier: Apache-2.0
// Builds seeds from fixture manifests: raw files, AdmissionReviews and HTTP requests.
#include "seeds.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "doc/load.hpp"
#include "model/policy.hpp"
#include "schema/schema.hpp"
#include "validate.hpp"

namespace kpw::fuzz {
namespace {

namespace fs = std::filesystem;

struct fixture {
    std::string name; // path below its root, '/' replaced so it can be a file name
    std::string text;
};

std::string read_file(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<fixture> read_fixtures(const std::vector<fs::path>& roots)
{
    std::vector<fixture> out;
    for (const fs::path& root : roots) {
        std::error_code ec;
        for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
             it.increment(ec)) {
            const std::string ext = it->path().extension().string();
            if (!it->is_regular_file() || (ext != ".yaml" && ext != ".yml" && ext != ".json"))
                continue;
            std::string name = root.filename().string() + "-" + fs::relative(it->path(), root).string();
            std::replace(name.begin(), name.end(), '/', '-');
            out.push_back({std::move(name), read_file(it->path())});
        }
    }
    std::sort(out.begin(), out.end(), [](const fixture& a, const fixture& b) { return a.name < b.name; });
    return out;
}

// The policy documents of every fixture, as loaded (files that do not load give none).
std::vector<std::pair<std::string, doc::value>> policies(const std::vector<fixture>& fixtures)
{
    std::vector<std::pair<std::string, doc::value>> out;
    for (const fixture& f : fixtures) {
        auto docs = doc::load_yaml(f.text);
        if (!docs)
            continue;
        for (doc::document& d : *docs)
            if (d.root.is_mapping() && policy_kind_of(d.root.string_at("apiVersion"), d.root.string_at("kind")))
                out.emplace_back(f.name + "-" + std::to_string(d.index), std::move(d.root));
    }
    return out;
}

// What Karmada's mutating webhook adds before the validating webhook sees the object.
doc::value with_permanent_id(doc::value object)
{
    const bool cluster = object.string_at("kind") == "ClusterPropagationPolicy";
    doc::value* metadata = object.find("metadata");
    if (!metadata || !metadata->is_mapping())
        return object;
    doc::value* labels = metadata->find("labels");
    if (!labels || !labels->is_mapping())
        labels = &metadata->set("labels", doc::value::mapping());
    labels->set(std::string(cluster ? model::cpp_permanent_id_label : model::pp_permanent_id_label),
                doc::value::string("5d8c1f0e-0b4e-4c49-9a43-6f5f4b7b0a11"));
    return object;
}

std::string review(std::string_view api, std::string_view op, const doc::value& object, const doc::value* old)
{
    const std::string kind(object.string_at("kind"));
    std::string r = R"({"apiVersion":")" + std::string(api) + R"(","kind":"AdmissionReview","request":{"uid":"u-1",)";
    r += R"("kind":{"group":"policy.karmada.io","version":"v1alpha1","kind":")" + kind + R"("},)";
    r += R"("name":"n","namespace":"default","operation":")" + std::string(op) + R"(",)";
    r += R"("userInfo":{"username":"admin"},"object":)" + (op == "DELETE" ? "null" : doc::to_json(object));
    r += R"(,"oldObject":)" + (old ? doc::to_json(*old) : "null") + R"(,"dryRun":false}})";
    return r;
}

std::vector<seed> review_seeds(const std::vector<fixture>& fixtures)
{
    std::vector<seed> out;
    for (auto& [name, object] : policies(fixtures)) {
        const doc::value labelled = with_permanent_id(object);
        out.push_back({name + "-v1-create.json", review("admission.k8s.io/v1", "CREATE", labelled, nullptr)});
        out.push_back({name + "-v1beta1-update.json", review("admission.k8s.io/v1beta1", "UPDATE", labelled, &labelled)});
        out.push_back({name + "-v1-create-unlabelled.json", review("admission.k8s.io/v1", "CREATE", object, nullptr)});
        out.push_back({name + "-v1-delete.json", review("admission.k8s.io/v1", "DELETE", labelled, &labelled)});
    }
    out.push_back({"envelope-no-uid.json", R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{}})"});
    out.push_back({"envelope-array.json", "[]"});
    return out;
}

std::string post(std::string_view path, std::string_view body, std::string_view extra_headers = {})
{
    return "POST " + std::string(path) + "?timeout=10s HTTP/1.1\r\nHost: webhook.karmada-system.svc:443\r\n" +
           "Content-Type: application/json\r\nAccept: application/json, */*\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n" + std::string(extra_headers) + "\r\n" + std::string(body);
}

std::string chunked(std::string_view body)
{
    std::ostringstream s;
    s << "POST /validate HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    for (std::size_t i = 0; i < body.size(); i += 1000) {
        const std::string_view part = body.substr(i, 1000);
        s << std::hex << part.size() << "\r\n" << part << "\r\n";
    }
    s << "0\r\n\r\n";
    return s.str();
}

std::vector<seed> http_seeds(const std::vector<fixture>& fixtures)
{
    std::vector<seed> out;
    for (const seed& r : review_seeds(fixtures)) {
        if (!r.name.ends_with("-v1-create.json") && !r.name.starts_with("envelope"))
            continue;
        out.push_back({r.name + ".http", post("/validate", r.bytes)});
        out.push_back({r.name + ".pp.http", post("/validate-propagationpolicy", r.bytes, "Expect: 100-continue\r\n")});
        out.push_back({r.name + ".chunked.http", chunked(r.bytes)});
        out.push_back({r.name + ".pipelined.http", post("/validate", r.bytes) + post("/validate-clusterpropagationpolicy", r.bytes, "Connection: close\r\n")});
    }
    out.push_back({"readyz.http", "GET /readyz HTTP/1.1\r\nHost: h\r\n\r\nHEAD /readyz/ HTTP/1.0\r\n\r\n"});
    out.push_back({"not-found.http", "GET /nope HTTP/1.1\r\nHost: h\r\n\r\nPUT /validate HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}"});
    return out;
}

// The text of the fixture called `name` ("examples-workloads.yaml"); "" when there is none.
std::string text_of(const std::vector<fixture>& fixtures, std::string_view name)
{
    for (const fixture& f : fixtures)
        if (f.name == name)
            return f.text;
    return {};
}

// A cluster cut down to the fields model/cluster_decode.cpp reads (the whole object, kubectl's metadata
// and connection fields too, is in the snapshot_head seed).
doc::value scheduler_view(const doc::value& cluster, std::string_view workloads)
{
    struct section_fields {
        std::string_view section;
        std::vector<std::string_view> fields;
    };
    static const section_fields kept[] = {
        {"metadata", {"name", "labels", "deletionTimestamp"}},
        {"spec", {"provider", "region", "zone", "zones", "taints", "resourceModels"}},
        {"status", {"conditions", "apiEnablements", "resourceSummary"}},
    };
    doc::value out = doc::value::mapping();
    out.set("apiVersion", doc::value::string(std::string(cluster.string_at("apiVersion"))));
    out.set("kind", doc::value::string(std::string(cluster.string_at("kind"))));
    for (const auto& [section, fields] : kept) {
        const doc::value* from = cluster.find(section);
        if (!from || !from->is_mapping())
            continue;
        doc::value& to = out.set(std::string(section), doc::value::mapping());
        for (std::string_view f : fields)
            if (const doc::value* v = from->find(f))
                to.set(std::string(f), *v);
    }
    // Of the API enablements (~900 bytes a cluster), the kinds the example workloads have: the
    // APIEnablement filter looks up the workload's own kind only.
    doc::value* status = out.find("status");
    doc::value* enablements = status ? status->find("apiEnablements") : nullptr;
    for (std::size_t i = 0; enablements && enablements->is_sequence() && i < enablements->items().size(); ++i) {
        doc::value& group = enablements->items()[i];
        doc::value* resources = group.is_mapping() ? group.find("resources") : nullptr;
        if (!resources || !resources->is_sequence())
            continue;
        doc::value kept_resources = doc::value::sequence();
        for (const doc::value& r : resources->items())
            if (workloads.find("kind: " + std::string(r.string_at("kind")) + "\n") != std::string_view::npos)
                kept_resources.push_back(r);
        *resources = std::move(kept_resources);
    }
    return out;
}

// The example snapshot's clusters (a kubectl List of 9, 21 KiB of YAML), each as the JSON of its
// scheduler view for the example workloads.
std::vector<std::pair<std::string, std::string>> snapshot_clusters(const std::vector<fixture>& fixtures)
{
    const std::string workloads = text_of(fixtures, "examples-workloads.yaml");
    std::vector<std::pair<std::string, std::string>> out;
    auto docs = doc::load_yaml(text_of(fixtures, "examples-clusters.yaml"));
    const doc::value* items = docs && !docs->empty() ? docs->front().root.find("items") : nullptr;
    for (std::size_t i = 0; items != nullptr && items->is_sequence() && i < items->items().size(); ++i) {
        const doc::value& c = items->items()[i];
        const doc::value* name = c.find_path({"metadata", "name"});
        out.emplace_back(name ? name->text() : std::string(), doc::to_json(scheduler_view(c, workloads)));
    }
    return out;
}

// The snapshot's text as kubectl printed it (comments, anchors and aliases, every field) up to the
// start of its fourth item.
std::string snapshot_head(const std::vector<fixture>& fixtures)
{
    const std::string text = text_of(fixtures, "examples-clusters.yaml");
    std::size_t at = 0;
    for (int item = 0; item < 4 && at != std::string::npos; ++item)
        at = text.find("\n- apiVersion:", at + 1);
    return text.substr(0, at);
}

// The cluster sets to pair a fixture with: the clusters it names (in snapshot order, as many as fit in
// stream_max_len beside the `rest` bytes of the seed), or when it names none the snapshot in thirds
// (3 clusters each). A seed carries what its policies can select and stays small: the whole snapshot
// made every seed 24-29 KiB, and an execution's cost grows with its input (~0.45 ms per KiB under
// ASan, most of it in yaml-cpp).
std::vector<std::string> cluster_sets_for(std::string_view text, const std::vector<std::pair<std::string, std::string>>& clusters,
                                          std::size_t rest)
{
    const std::size_t room = stream_max_len > rest + 10 ? stream_max_len - rest - 10 : 0; // 10: separators
    // As kubectl get -o json prints them: a List (the reader flattens it).
    auto as_list = [](const std::vector<std::string>& items) {
        std::string list = R"({"apiVersion":"v1","kind":"List","items":[)";
        for (std::size_t i = 0; i < items.size(); ++i)
            list += (i ? "," : "") + items[i];
        return list + "]}\n---\n";
    };
    std::vector<std::string> named;
    std::size_t size = 64; // the List's envelope
    for (const auto& [name, json] : clusters)
        if (!name.empty() && text.find(name) != std::string_view::npos && size + json.size() + 1 <= room) {
            named.push_back(json);
            size += json.size() + 1;
        }
    if (!named.empty())
        return {as_list(named)};
    std::vector<std::string> thirds;
    for (std::size_t i = 0; i < clusters.size(); i += 3) {
        std::vector<std::string> third;
        for (std::size_t j = i; j < std::min(i + 3, clusters.size()); ++j)
            third.push_back(clusters[j].second);
        thirds.push_back(as_list(third));
    }
    return thirds;
}

// A YAML stream's objects (Lists flattened) as one JSON List, as `kubectl get -o json` prints: the
// stream targets read it through RapidJSON (doc::load_documents), the YAML scanner having been most
// of an execution's cost under ASan. A text that does not load stays as it is (a seed for the errors).
std::string as_json_list(const std::string& text)
{
    auto docs = doc::load_yaml(text);
    if (!docs)
        return text;
    doc::value list = doc::value::mapping();
    list.set("apiVersion", doc::value::string("v1"));
    list.set("kind", doc::value::string("List"));
    doc::value& items = list.set("items", doc::value::sequence());
    for (doc::document& d : *docs) {
        if (const doc::value* inner = doc::list_items(d.root))
            for (const doc::value& item : inner->items())
                items.push_back(item);
        else
            items.push_back(std::move(d.root));
    }
    return doc::to_json(list);
}

// Each fixture and each single policy document with the clusters it names and the example workloads;
// the multi-component examples with the GPU snapshot.
std::vector<seed> schedule_seeds(const std::vector<fixture>& fixtures)
{
    const auto clusters = snapshot_clusters(fixtures);
    const std::string workloads = text_of(fixtures, "examples-workloads.yaml");
    std::vector<seed> out;
    auto add = [&](const std::string& name, const std::string& text) {
        const std::vector<std::string> sets = cluster_sets_for(text, clusters, workloads.size() + text.size());
        for (std::size_t i = 0; i < sets.size(); ++i)
            out.push_back({sets.size() == 1 ? name : name + "-clusters" + std::to_string(i),
                           as_json_list(sets[i] + workloads + "\n---\n" + text)});
    };
    for (const fixture& f : fixtures) {
        if (!f.name.ends_with("-clusters.yaml") && !f.name.ends_with("-workloads.yaml"))
            add(f.name, f.text);
        if (f.name == "examples-checkout-local-idc.yaml") // its clusters head the snapshot
            out.push_back({"snapshot-head-" + f.name, snapshot_head(fixtures) + "\n---\n" + workloads + "\n---\n" + f.text});
    }
    for (auto& [name, object] : policies(fixtures))
        add(name + ".json", doc::to_json(object));
    // The multi-component examples (GPU snapshot, PyTorchJob, FlinkDeployment) with each of their policies:
    // the component-set path needs them together (the snapshot above has no GPUs, the jobs no policy).
    std::string ai_clusters, ai_workloads;
    for (const fixture& f : fixtures) {
        if (f.name == "examples-ai-clusters.yaml")
            ai_clusters = f.text;
        else if (f.name.starts_with("examples-ai-workloads-"))
            ai_workloads += "\n---\n" + f.text;
    }
    for (const fixture& f : fixtures)
        if (f.name.starts_with("examples-ai-policies-"))
            out.push_back({"ai-" + f.name, as_json_list(ai_clusters + ai_workloads + "\n---\n" + f.text)});
    return out;
}

// Each binding fixture with each policy document (the bindings re-planned under it), the example
// workloads (their templates: the replicas the detector applies) and the clusters both name.
std::vector<seed> reschedule_seeds(const std::vector<fixture>& fixtures)
{
    const auto clusters = snapshot_clusters(fixtures);
    const std::string workloads = text_of(fixtures, "examples-workloads.yaml");
    const auto all_policies = policies(fixtures);
    std::vector<seed> out;
    for (const fixture& f : fixtures) {
        if (!f.name.starts_with("data-bindings-") && !f.name.starts_with("examples-day2-"))
            continue;
        for (const auto& [name, object] : all_policies) {
            const std::string policy = doc::to_json(object);
            const std::string rest = workloads + "\n---\n" + f.text + "\n---\n" + policy;
            const auto sets = cluster_sets_for(f.text + policy, clusters, rest.size());
            out.push_back({f.name + "-" + name + ".json", as_json_list(sets.front() + rest)});
        }
    }
    return out;
}

std::vector<seed> manifest_seeds(const std::vector<fixture>& fixtures)
{
    std::vector<seed> out;
    for (const fixture& f : fixtures)
        out.push_back({f.name, f.text});
    for (auto& [name, object] : policies(fixtures))
        out.push_back({name + ".json", doc::to_json(object)});
    return out;
}

// The document with its list member `key` (a List's items, a Scenario's steps) cut down to element i.
doc::value with_one(const doc::value& root, std::string_view key, std::size_t i)
{
    doc::value out = root;
    doc::value one = doc::value::sequence();
    one.push_back(root.find(key)->items()[i]);
    out.set(std::string(key), std::move(one));
    return out;
}

// The fixture files of one folder of tests/data ("bindings", "scenarios"): each file raw, each document
// as JSON, and each element of a document's `key` list alone in its envelope.
std::vector<seed> folder_seeds(const std::vector<fixture>& fixtures, std::string_view folder, std::string_view key)
{
    std::vector<seed> out;
    const std::string marker = "data-" + std::string(folder) + "-";
    for (const fixture& f : fixtures) {
        if (!f.name.starts_with(marker))
            continue;
        out.push_back({f.name, f.text});
        auto docs = doc::load_yaml(f.text);
        if (!docs)
            continue;
        for (const doc::document& d : *docs) {
            const std::string base = f.name + "-" + std::to_string(d.index);
            out.push_back({base + ".json", doc::to_json(d.root)});
            const doc::value* list = d.root.find(key);
            for (std::size_t i = 0; list != nullptr && list->is_sequence() && i < list->items().size(); ++i)
                out.push_back({base + "-" + std::string(key) + std::to_string(i) + ".json",
                               doc::to_json(with_one(d.root, key, i))});
        }
    }
    return out;
}

// Watch streams as kube-apiserver writes them (one event per line): the example clusters ADDED, then
// MODIFIED and DELETED, bookmarks, a 410 ERROR, and the streams a broken server sends (a cut line,
// garbage, CRLF endings).
std::vector<seed> watch_event_seeds(const std::vector<fixture>& fixtures)
{
    const auto event = [](std::string_view type, const std::string& object) {
        return "{\"type\":\"" + std::string(type) + "\",\"object\":" + object + "}\n";
    };
    std::vector<seed> out;
    std::string all;
    int rv = 1000;
    for (const auto& [name, json] : snapshot_clusters(fixtures)) {
        std::string added = event("ADDED", json);
        out.push_back({"added-" + name, added});
        all += added;
        all += event("BOOKMARK", R"({"kind":"Cluster","apiVersion":"cluster.karmada.io/v1alpha1","metadata":{"resourceVersion":")" +
                                     std::to_string(++rv) + R"("}})");
    }
    out.push_back({"clusters-with-bookmarks", all});
    const std::string deploy = R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"nginx","namespace":"default","resourceVersion":"2001","labels":{"app":"nginx"}},"spec":{"replicas":3}})";
    const std::string bare = R"({"metadata":{"name":"member1","resourceVersion":"2002"},"spec":{"syncMode":"Push"}})";
    out.push_back({"deployment-lifecycle", event("ADDED", deploy) + event("MODIFIED", deploy) + event("DELETED", deploy)});
    out.push_back({"bare-object", event("ADDED", bare)});
    out.push_back({"gone", event("ERROR", R"j({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (2002)","reason":"Expired","code":410})j")});
    out.push_back({"cut-line", event("ADDED", bare) + event("MODIFIED", bare).substr(0, 40)});
    out.push_back({"crlf", "{\"type\":\"ADDED\",\"object\":" + bare + "}\r\n\r\n"});
    out.push_back({"garbage", "<html>502 Bad Gateway</html>\n" + event("RENAMED", bare) + event("ADDED", "[]")});
    out.push_back({"no-name", event("DELETED", R"({"metadata":{"namespace":"default"}})")});
    return out;
}

// Proxy decisions (four lines: proxy-url, HTTPS_PROXY, NO_PROXY, server host:port): the shapes of
// x/net/http/httpproxy's proxy_test.go and the kubeconfig's proxy-url.
std::vector<seed> proxy_url_seeds()
{
    return {
        {"kubeconfig-http-userinfo", "http://al%40ice:p%3Ass@proxy.corp:3128\n\n\nkube.corp:6443\n"},
        {"kubeconfig-socks5", "socks5://bastion:1080\n\n\n10.0.0.1:6443\n"},
        {"kubeconfig-https-refused", "https://proxy.corp\n\n\nkube.corp:443\n"},
        {"kubeconfig-ipv6", "http://[fd00::1]:3128/\n\n\n[2001:db8::1]:6443\n"},
        {"env-host-port", "\n127.0.0.1:8080\n\nexample.com:443\n"},
        {"env-no-scheme-name", "\ncache.corp.example.com\nexample.com\nfoo.example.com:443\n"},
        {"env-socks5h", "\nsocks5h://127.0.0.1:9050\n\nexample.com:443\n"},
        {"go-noproxy-list", "\nhttp://proxy\nfoobar.com, .barbaz.net, *.wildcard.io, 192.168.1.1, 192.168.1.2:81, 192.168.1.3:80, 10.0.0.0/30, 2001:db8::52:0:1, [2001:db8::52:0:2]:443, [2001:db8::52:0:3]:80, 2002:db8:a::45/64\nnested.wildcard.io:80\n"},
        {"loopback", "\nhttp://proxy:3128\n\n127.0.0.1:6443\n"},
        {"localhost", "\nhttp://proxy:3128\n\nlocalhost:6443\n"},
        {"zone-host", "\nproxy\nexample.com\n1000::%.example.com:123\n"},
        {"invalid-noproxy", "\nproxy\n:1\nexample.com:80\n"},
        {"bad-percent", "http://a%zz@proxy\nhttp://proxy:port\n*\n0.0.0.0:6443\n"},
    };
}

// --karmada-version values, each release's own policy CRD, and each fixture policy under each version.
std::vector<seed> karmada_release_seeds(const std::vector<fixture>& fixtures)
{
    std::vector<seed> out;
    const std::vector<std::string> versions{"v1.16", "1.17.5", "v1.18.2", "v1.15.9", "v2", "v1.18.", ""};
    auto crds = doc::parse_json(schema::embedded_crd_schema());
    for (std::size_t i = 0; crds && i < crds->members().size(); ++i) {
        const auto& [release, kinds] = crds->members()[i];
        const doc::value* schema = kinds.find_path({"PropagationPolicy", "schema"});
        if (!schema)
            continue;
        doc::value crd = *doc::parse_json(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
            "metadata":{"name":"propagationpolicies.policy.karmada.io"},"spec":{"versions":[{"name":"v1alpha1",
            "served":true,"schema":{}}]}})");
        crd.find("spec")->find("versions")->items()[0].find("schema")->set("openAPIV3Schema", *schema);
        out.push_back({"crd-" + release + ".json", versions[i % versions.size()] + "\n" + doc::to_json(crd)});
    }
    std::size_t n = 0;
    for (auto& [file, object] : policies(fixtures))
        out.push_back({file + ".json", versions[n++ % versions.size()] + "\n" + doc::to_json(object)});
    return out;
}

} // namespace

std::vector<fs::path> fixture_roots(const fs::path& source_root)
{
    return {source_root / "tests" / "data", source_root / "manifests" / "examples", source_root / "tests" / "fuzz" / "policies"};
}

std::vector<seed> make_seeds(std::string_view target, const std::vector<fs::path>& roots)
{
    const std::vector<fixture> fixtures = read_fixtures(roots);
    if (target == "admission_review")
        return review_seeds(fixtures);
    if (target == "http_request")
        return http_seeds(fixtures);
    if (target == "manifest")
        return manifest_seeds(fixtures);
    if (target == "schedule")
        return schedule_seeds(fixtures);
    if (target == "reschedule")
        return reschedule_seeds(fixtures);
    if (target == "bindings")
        return folder_seeds(fixtures, "bindings", "items");
    if (target == "scenario")
        return folder_seeds(fixtures, "scenarios", "steps");
    if (target == "kubeconfig") // each file, as JSON, and each context alone with every cluster and user
        return folder_seeds(fixtures, "kubeconfig", "contexts");
    if (target == "watch_event") // watch streams: the example clusters as events, and broken streams
        return watch_event_seeds(fixtures);
    if (target == "proxy_url")
        return proxy_url_seeds();
    if (target == "member_state") // each member file, as JSON, and each List item alone
        return folder_seeds(fixtures, "member-state", "items");
    if (target == "karmada_release")
        return karmada_release_seeds(fixtures);
    return {};
}

std::vector<seed> read_corpus(const fs::path& dir)
{
    std::vector<seed> out;
    std::error_code ec;
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
        if (it->is_regular_file())
            out.push_back({it->path().filename().string(), read_file(it->path())});
    std::sort(out.begin(), out.end(), [](const seed& a, const seed& b) { return a.name < b.name; });
    return out;
}

} // namespace kpw::fuzz
