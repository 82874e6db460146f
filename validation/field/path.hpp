// SPDX-License-Identifier: Apache-2.0
// field::path: an immutable Kubernetes-style field path built while descending a document.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kpw::field {

// Renders like apimachinery's field.Path: "spec.placement.clusterAffinities[1].affinityName";
// map keys render as "[key]" (metadata.labels[app]).
class path {
public:
    path() = default;
    static path root(std::string_view name);

    path child(std::string_view name) const;
    path index(std::size_t i) const;
    path key(std::string_view k) const;

    const std::string& str() const { return rendered_; }
    bool empty() const { return rendered_.empty(); }
    friend bool operator==(const path&, const path&) = default;

private:
    explicit path(std::string rendered) : rendered_(std::move(rendered)) {}
    std::string rendered_;
};

} // namespace kpw::field
