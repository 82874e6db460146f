// SPDX-License-Identifier: Apache-2.0
#include "kube/watch_event.hpp"

#include <array>
#include <utility>

#include "kube/json_text.hpp"

namespace kpw::kube {

namespace {

using detail::member;
using detail::string_member;

constexpr std::array<std::pair<std::string_view, watch_event::kind>, 5> types{{
    {"ADDED", watch_event::kind::added},
    {"MODIFIED", watch_event::kind::modified},
    {"DELETED", watch_event::kind::deleted},
    {"BOOKMARK", watch_event::kind::bookmark},
    {"ERROR", watch_event::kind::error},
}};

failure not_an_event(std::string_view line, const std::string& why)
{
    return failure{"a watch event line " + why + ": " + detail::excerpt(line), {}};
}

// ERROR: the object is a Status (code, message).
result<watch_event> decode_error(watch_event e, const rapidjson::Value& status)
{
    const rapidjson::Value* code = member(status, "code");
    if (code != nullptr && code->IsInt())
        e.code = code->GetInt();
    e.message = string_member(status, "message");
    e.object = detail::to_json(status);
    return e;
}

} // namespace

result<watch_event> decode_watch_event(std::string_view line, std::string_view api_version, std::string_view kind)
{
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n' || line.back() == ' '))
        line.remove_suffix(1);
    rapidjson::Document doc;
    std::string error;
    if (!detail::parse_json(doc, line, error))
        return not_an_event(line, "is not JSON (" + error + ")");
    if (!doc.IsObject())
        return not_an_event(line, std::string("is ") + detail::type_name(doc) + ", not an object");
    const rapidjson::Value* type = member(doc, "type");
    if (type == nullptr || !type->IsString())
        return not_an_event(line, "has no \"type\" string");
    const std::string_view type_text(type->GetString(), type->GetStringLength());
    watch_event e;
    bool known = false;
    for (const auto& [name, k] : types)
        if (name == type_text) {
            e.type = k;
            known = true;
        }
    if (!known)
        return not_an_event(line, "has the unknown type \"" + detail::excerpt(type_text, 40) + "\"");
    rapidjson::Value* object = doc.HasMember("object") ? &doc["object"] : nullptr;
    if (object == nullptr || !object->IsObject())
        return not_an_event(line, std::string("of type ") + std::string(type_text) + " has " +
                                      (object == nullptr ? "no object" : std::string("an object that is ") +
                                                                             detail::type_name(*object)));
    if (e.type == watch_event::kind::error)
        return decode_error(std::move(e), *object);
    const rapidjson::Value* metadata = member(*object, "metadata");
    if (metadata != nullptr && !metadata->IsObject())
        return not_an_event(line, std::string("has metadata that is ") + detail::type_name(*metadata));
    if (metadata != nullptr)
        e.resource_version = string_member(*metadata, "resourceVersion");
    if (e.type != watch_event::kind::bookmark) {
        e.name = metadata != nullptr ? string_member(*metadata, "name") : std::string();
        if (e.name.empty())
            return not_an_event(line, "of type " + std::string(type_text) + " has an object without metadata.name");
        e.namespace_ = string_member(*metadata, "namespace");
        detail::fill_type_meta(*object, doc.GetAllocator(), api_version, kind);
    }
    e.object = detail::to_json(*object);
    return e;
}

} // namespace kpw::kube
