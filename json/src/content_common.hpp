// What the content JSON loader and comparer share: paths for messages, the names of JSON node
// kinds, the integer and binary32 views of numbers. Internal header.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "content_model.hpp"
#include "json_tape.hpp"

namespace ond::json::detail {

// A JSON path built on the stack, turned into text only for messages.
struct Path {
    const Path* parent = nullptr;
    std::string_view key;        // member name, or empty for an array element
    std::uint64_t index = 0;

    Path member(std::string_view k) const { return Path{this, k, 0}; }
    Path element(std::uint64_t i) const { return Path{this, {}, i}; }

    std::string str() const {
        if (!parent) return std::string();
        std::string p = parent->str();
        if (!key.empty()) {
            if (!p.empty()) p += '.';
            p += key;
        } else {
            p += '[' + std::to_string(index) + ']';
        }
        return p;
    }
};

inline std::string where(const Path& p) {
    std::string s = p.str();
    return s.empty() ? std::string("(top level)") : s;
}

inline const char* node_kind_name(NodeKind k) {
    switch (k) {
    case NodeKind::null: return "null";
    case NodeKind::boolean: return "a boolean";
    case NodeKind::number: return "a number";
    case NodeKind::string: return "a string";
    case NodeKind::array: return "an array";
    case NodeKind::object: return "an object";
    }
    return "?";
}

// True when node i is {"utf16": [...]}: one key, named utf16. Its contents are checked by the caller.
inline bool is_utf16_object(const Tape& t, std::uint32_t i) {
    const Node& n = t[i];
    return n.kind == NodeKind::object && n.count == 1 &&
           t[i + 1].text() == model::name(model::Utf16Keys::utf16);
}

// parse_float without its grammar check: the text must be a JSON number (the parsers checked it).
float float_of_json_number(std::string_view json_number);

// The integer value of an integer-form number's text, when it fits in int64.
inline std::optional<std::int64_t> integer_value(std::string_view text) {
    std::int64_t v = 0;
    auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nullopt;
    return v;
}

}  // namespace ond::json::detail
