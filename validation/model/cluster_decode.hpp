// SPDX-License-Identifier: Apache-2.0
// Decoding Cluster objects (as `kubectl get clusters -o yaml` prints them) into model::cluster.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "doc/value.hpp"
#include "field/error.hpp"
#include "model/cluster.hpp"

namespace kpw::model {

struct cluster_decoding {
    cluster value;
    field::error_list errors; // type errors and unparsable quantities, with paths into the object
};

// apiVersion cluster.karmada.io/<any version> and kind Cluster.
bool is_cluster_object(const doc::value& object);

// Lenient like the scheduler's informer: unknown fields are ignored; a field of the wrong type or a
// quantity that does not parse is reported and left at its zero value.
cluster_decoding decode_cluster(const doc::value& object);

// Readers shared with the workload decoder. Each reports a type error at `at` and returns a default
// when the node has the wrong type; a null or absent node is the default without an error.
namespace read {
std::string string(const doc::value* node, const field::path& at, field::error_list& errors);
std::int64_t integer(const doc::value* node, const field::path& at, field::error_list& errors, std::int64_t def);
label_map string_map(const doc::value* node, const field::path& at, field::error_list& errors);
resource_list resources(const doc::value* node, const field::path& at, field::error_list& errors);
// corev1.Taint list (key, value, effect, timeAdded): a Cluster's spec.taints, a Node's spec.taints.
std::vector<taint> taints(const doc::value* node, const field::path& at, field::error_list& errors);
// An RFC3339 time (metav1.Time); an unparsable string is an Invalid value error.
std::optional<timestamp> time(const doc::value* node, const field::path& at, field::error_list& errors);
// Items of a sequence (empty when absent; a type error when not a sequence).
const std::vector<doc::value>& items(const doc::value* node, const field::path& at, field::error_list& errors);

// Calls `each_item(item, at.index(i))` for every item of the sequence at `node`, as items() reads it.
template <typename EachItem>
void each(const doc::value* node, const field::path& at, field::error_list& errors, EachItem&& each_item)
{
    const auto& list = items(node, at, errors);
    for (std::size_t i = 0; i < list.size(); ++i)
        each_item(list[i], at.index(i));
}

// The items of the sequence at `node`, each read by `read_one(item, at.index(i))`, in order.
template <typename T, typename ReadOne>
std::vector<T> list(const doc::value* node, const field::path& at, field::error_list& errors, ReadOne&& read_one)
{
    std::vector<T> out;
    each(node, at, errors, [&](const doc::value& item, const field::path& p) { out.push_back(read_one(item, p)); });
    return out;
}

// Whether an item of a list of Go structs can be one: an object, or null (the zero struct). Anything
// else is a type error (the Go client cannot decode the object, kube-apiserver would never have stored
// it) and the item is skipped.
bool struct_item(const doc::value& item, const field::path& at, field::error_list& errors);

// each() and list() over a list of Go structs: items that are no object are reported and skipped.
template <typename EachItem>
void structs(const doc::value* node, const field::path& at, field::error_list& errors, EachItem&& each_item)
{
    each(node, at, errors, [&](const doc::value& item, const field::path& p) {
        if (struct_item(item, p, errors))
            each_item(item, p);
    });
}

template <typename T, typename ReadOne>
std::vector<T> struct_list(const doc::value* node, const field::path& at, field::error_list& errors, ReadOne&& read_one)
{
    std::vector<T> out;
    structs(node, at, errors, [&](const doc::value& item, const field::path& p) { out.push_back(read_one(item, p)); });
    return out;
}
} // namespace read

} // namespace kpw::model
