// The content model of docs/protocol.md as named field lists: each JSON object's keys, in the
// order the writer writes them, with the ones a reader requires. The writer, the loader and the
// comparer all take their keys from here. Internal header.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ond/model.hpp"

namespace ond::json::model {

// Every key of an object is required unless the object says otherwise.
template <std::size_t N>
inline constexpr std::uint32_t all_keys = static_cast<std::uint32_t>((std::uint64_t{1} << N) - 1);

// {"format", "crc", "doc" (ONDC) or "docs" (ONDB)}
struct ContainerKeys {
    enum Key : std::size_t { format, crc, doc, docs, key_count };
    static constexpr std::array<std::string_view, key_count> names = {"format", "crc", "doc", "docs"};
    static constexpr std::uint32_t required = (1u << format) | (1u << crc);  // and one of doc, docs
};

struct DocKeys {
    enum Key : std::size_t { text, tokens, ents, cats, spans, key_count };
    static constexpr std::array<std::string_view, key_count> names = {"text", "tokens", "ents", "cats", "spans"};
    static constexpr std::uint32_t required = all_keys<key_count>;
};

// The six attribute columns sit between length and head, in the model's column order.
struct TokenKeys {
    enum Key : std::size_t { start, length, norm, lemma, pos, tag, dep, morph, head, sent, conf, key_count };
    static constexpr std::array<std::string_view, key_count> names = {
        "start",
        "length",
        token_column_names[0],
        token_column_names[1],
        token_column_names[2],
        token_column_names[3],
        token_column_names[4],
        token_column_names[5],
        "head",
        "sent",
        "conf"};
    static constexpr std::uint32_t required = all_keys<key_count>;
    static constexpr Key column(std::size_t c) { return static_cast<Key>(norm + c); }
};
static_assert(TokenKeys::head - TokenKeys::norm == token_column_count);

struct EntityKeys {
    enum Key : std::size_t { start, length, label, conf, key_count };
    static constexpr std::array<std::string_view, key_count> names = {"start", "length", "label", "conf"};
    static constexpr std::uint32_t required = all_keys<key_count>;
};

struct CategoryKeys {
    enum Key : std::size_t { label, score, key_count };
    static constexpr std::array<std::string_view, key_count> names = {"label", "score"};
    static constexpr std::uint32_t required = all_keys<key_count>;
};

struct SpanGroupKeys {
    enum Key : std::size_t { name, spans, key_count };
    static constexpr std::array<std::string_view, key_count> names = {"name", "spans"};
    static constexpr std::uint32_t required = all_keys<key_count>;
};

struct SpanKeys {
    enum Key : std::size_t { start, length, label, conf, key_count };
    static constexpr std::array<std::string_view, key_count> names = {"start", "length", "label", "conf"};
    static constexpr std::uint32_t required = all_keys<key_count>;
};

// A string with lone surrogates: {"utf16": [code units]}.
struct Utf16Keys {
    enum Key : std::size_t { utf16, key_count };
    static constexpr std::array<std::string_view, key_count> names = {"utf16"};
    static constexpr std::uint32_t required = all_keys<key_count>;
};

// A float JSON cannot spell (NaN, infinities), or any float: {"f32bits": binary32 pattern}.
struct F32BitsKeys {
    enum Key : std::size_t { f32bits, key_count };
    static constexpr std::array<std::string_view, key_count> names = {"f32bits"};
    static constexpr std::uint32_t required = all_keys<key_count>;
};

// The name of a key: name(TokenKeys::head) is "head".
constexpr std::string_view name(ContainerKeys::Key k) { return ContainerKeys::names[k]; }
constexpr std::string_view name(DocKeys::Key k) { return DocKeys::names[k]; }
constexpr std::string_view name(TokenKeys::Key k) { return TokenKeys::names[k]; }
constexpr std::string_view name(EntityKeys::Key k) { return EntityKeys::names[k]; }
constexpr std::string_view name(CategoryKeys::Key k) { return CategoryKeys::names[k]; }
constexpr std::string_view name(SpanGroupKeys::Key k) { return SpanGroupKeys::names[k]; }
constexpr std::string_view name(SpanKeys::Key k) { return SpanKeys::names[k]; }
constexpr std::string_view name(Utf16Keys::Key k) { return Utf16Keys::names[k]; }
constexpr std::string_view name(F32BitsKeys::Key k) { return F32BitsKeys::names[k]; }

// The Float fields (compared by binary32 bits): every object's confidence and score.
constexpr bool is_float_key(std::string_view k) {
    return k == name(TokenKeys::conf) || k == name(EntityKeys::conf) || k == name(SpanKeys::conf) ||
           k == name(CategoryKeys::score);
}

}  // namespace ond::json::model
