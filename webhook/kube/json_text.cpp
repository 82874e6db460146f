// SPDX-License-Identifier: Apache-2.0
#include "kube/json_text.hpp"

#include <cstdio>

#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace kpw::kube::detail {

bool parse_json(rapidjson::Document& doc, std::string_view text, std::string& error)
{
    doc.Parse<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseValidateEncodingFlag>(text.data(), text.size());
    if (!doc.HasParseError())
        return true;
    error = std::string(rapidjson::GetParseError_En(doc.GetParseError())) + " at offset " +
            std::to_string(doc.GetErrorOffset());
    return false;
}

const rapidjson::Value* member(const rapidjson::Value& v, const char* name)
{
    if (!v.IsObject())
        return nullptr;
    const auto it = v.FindMember(name);
    return it == v.MemberEnd() ? nullptr : &it->value;
}

std::string string_member(const rapidjson::Value& v, const char* name)
{
    const rapidjson::Value* m = member(v, name);
    return m != nullptr && m->IsString() ? std::string(m->GetString(), m->GetStringLength()) : std::string();
}

void fill_type_meta(rapidjson::Value& object, rapidjson::Document::AllocatorType& alloc, std::string_view api_version,
                    std::string_view kind)
{
    const bool add_version = !api_version.empty() && member(object, "apiVersion") == nullptr;
    const bool add_kind = !kind.empty() && member(object, "kind") == nullptr;
    if (!object.IsObject() || (!add_version && !add_kind))
        return;
    rapidjson::Value filled(rapidjson::kObjectType);
    if (add_version)
        filled.AddMember("apiVersion",
                         rapidjson::Value(api_version.data(), static_cast<rapidjson::SizeType>(api_version.size()), alloc),
                         alloc);
    if (add_kind)
        filled.AddMember("kind", rapidjson::Value(kind.data(), static_cast<rapidjson::SizeType>(kind.size()), alloc), alloc);
    // Indexed, not a range-for: RapidJSON 1.1's member iterator comparison is ambiguous under C++20 (clang).
    const auto first = object.MemberBegin();
    for (rapidjson::SizeType i = 0; i < object.MemberCount(); ++i)
        filled.AddMember(first[i].name, first[i].value, alloc); // moves
    object = filled;                              // moves
}

std::string to_json(const rapidjson::Value& v)
{
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    v.Accept(writer);
    return {buffer.GetString(), buffer.GetSize()};
}

std::string excerpt(std::string_view text, std::size_t max)
{
    std::string out;
    for (std::size_t i = 0; i < text.size() && i < max; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\x%02x", c);
            out += esc;
        } else
            out += static_cast<char>(c);
    }
    if (text.size() > max)
        out += "...";
    return out;
}

const char* type_name(const rapidjson::Value& v)
{
    if (v.IsNull())
        return "null";
    if (v.IsBool())
        return "a boolean";
    if (v.IsNumber())
        return "a number";
    if (v.IsString())
        return "a string";
    if (v.IsArray())
        return "an array";
    return "an object";
}

} // namespace kpw::kube::detail
