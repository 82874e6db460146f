// SPDX-License-Identifier: Apache-2.0
#include "lint/repeated_keys.hpp"

#include <charconv>
#include <string_view>

#include "lint/kubectl_reader.hpp"

namespace kpw::lint {
namespace {

constexpr std::string_view warning_id = "duplicate-key";

// "Kind namespace/name" of an object, as the other snapshot warnings name theirs; "document" without a kind.
std::string subject_of(const doc::value& object)
{
    const std::string_view kind = object.string_at("kind");
    if (kind.empty())
        return "document";
    const doc::value* metadata = object.find("metadata");
    const std::string_view ns = metadata ? metadata->string_at("namespace") : std::string_view();
    const std::string_view name = metadata ? metadata->string_at("name") : std::string_view();
    std::string out(kind);
    if (name.empty())
        return out;
    out += ' ';
    if (!ns.empty()) {
        out += ns;
        out += '/';
    }
    out += name;
    return out;
}

std::string message_of(const doc::repeated_key& k)
{
    std::string out = "key \"";
    out += k.key;
    out += "\" repeated (first at line ";
    out += std::to_string(k.first.line);
    out += "): the last value wins as kubectl reads the file, the others are dropped without a word; keep one";
    return out;
}

} // namespace

std::vector<placed_repeat> place_repeated_keys(const doc::document& d)
{
    std::vector<placed_repeat> out;
    const doc::value* items = is_kubectl_list(d.root) ? d.root.find("items") : nullptr;
    for (const auto& k : d.repeated_keys) {
        placed_repeat p{&d.root, k.path, &k};
        // items[N].rest: the key is in item N, at `rest` (a key of the List itself stays the List's).
        constexpr std::string_view prefix = "items[";
        if (items && items->is_sequence() && std::string_view(k.path).starts_with(prefix)) {
            const std::string_view rest = std::string_view(k.path).substr(prefix.size());
            std::size_t n = 0;
            const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), n);
            const std::string_view after(end, static_cast<std::size_t>(rest.data() + rest.size() - end));
            if (ec == std::errc() && after.starts_with("].") && n < items->items().size()) {
                p.object = &items->items()[n];
                p.field = std::string(after.substr(2));
            }
        }
        out.push_back(std::move(p));
    }
    return out;
}

finding repeated_key_finding(const placed_repeat& r)
{
    return {std::string(warning_id), r.field, message_of(*r.key), r.key->again};
}

snapshot_warning repeated_key_warning(const placed_repeat& r, const std::string& file)
{
    const std::string subject = subject_of(*r.object);
    std::string message = subject;
    message += ": ";
    message += r.field;
    message += ": ";
    message += message_of(*r.key);
    return {file, r.key->again, std::string(warning_id), std::move(message), subject};
}

void add_repeated_key_warnings(const doc::document& d, const std::string& file, std::vector<snapshot_warning>& out)
{
    for (const auto& p : place_repeated_keys(d))
        out.push_back(repeated_key_warning(p, file));
}

} // namespace kpw::lint
