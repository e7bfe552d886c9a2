#include "table_order.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "ond/unicode.hpp"

namespace ond::corpus::gen {

namespace {

// Appends the strings one document's body references, in the traversal's order (ids 0 included).
void traverse(const DocSlice& d, const StringStore& s, bool single, bool token_by_token, std::vector<std::string_view>& out) {
    const TokenSlice& t = d.tokens;
    if (token_by_token) {
        for (std::size_t i = 0; i < t.size(); ++i)
            for (const auto& col : t.attrs) out.push_back(s.view(col[i]));
    } else {
        for (const auto& col : t.attrs)
            for (std::size_t i = 0; i < t.size(); ++i) out.push_back(s.view(col[i]));
    }
    // Section 4 only with tokens (W2); sections 6 and 7 only in an ONDC.
    if (d.has_ents && t.size() > 0)
        for (const Entity& e : d.ents) out.push_back(s.view(e.label));
    if (!single) return;
    for (const Category& c : d.cats) out.push_back(s.view(c.label));
    for (const SpanGroupSlice g : d.spans) {
        out.push_back(s.view(g.name));
        for (const Span& x : g.spans) out.push_back(s.view(x.label));
    }
}

// A little-endian LEB128 varint of at most 5 bytes at `at`; nullopt past `end` or malformed.
std::optional<std::uint32_t> varint_at(const Buf& b, std::size_t& at, std::size_t end) {
    std::uint64_t v = 0;
    for (int i = 0; i < 5 && at < end; ++i) {
        const std::uint8_t x = b[at++];
        v |= std::uint64_t{x & 0x7Fu} << (7 * i);
        if (!(x & 0x80)) return v > 0xFFFFFFFFu ? std::nullopt : std::optional<std::uint32_t>(static_cast<std::uint32_t>(v));
    }
    return std::nullopt;
}

nlohmann::ordered_json model_string(const std::string& wtf8) {
    if (!unicode::wtf8_has_surrogate(wtf8)) return wtf8;
    nlohmann::ordered_json units = nlohmann::ordered_json::array();
    for (char16_t u : unicode::utf16_from_wtf8(wtf8)) units.push_back(static_cast<unsigned>(u));
    return {{"utf16", units}};
}

}  // namespace

std::vector<std::string> first_use_order(const Container& c, bool token_by_token) {
    std::vector<std::string_view> all;
    for (const DocSlice d : c.docs) traverse(d, c.strings, c.format == Format::ondc, token_by_token, all);
    std::vector<std::string> order;
    std::set<std::string_view> seen;
    for (std::string_view s : all)
        if (!s.empty() && seen.insert(s).second) order.emplace_back(s);
    return order;
}

std::optional<std::vector<std::string>> stored_table(const Buf& b) {
    // Header (12 bytes), then section 1: id, u32 length, the table's body.
    if (b.size() < 17 || b[12] != 1) return std::nullopt;
    const std::size_t length = b[13] | b[14] << 8 | b[15] << 16 | std::size_t{b[16]} << 24;
    std::size_t at = 17;
    const std::size_t end = at + length;
    if (end > b.size()) return std::nullopt;
    const auto count = varint_at(b, at, end);
    if (!count) return std::nullopt;
    std::vector<std::string> table;
    for (std::uint32_t i = 0; i < *count; ++i) {
        const auto h = varint_at(b, at, end);
        if (!h || (*h >> 1) > end - at) return std::nullopt;
        const std::size_t n = *h >> 1;
        std::string s;
        if (*h & 1)
            unicode::append_wtf8_from_utf16le(s, b.data() + at, n / 2);
        else
            s.assign(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(at + n));
        table.push_back(std::move(s));
        at += n;
    }
    if (at != end) return std::nullopt;
    return table;
}

std::string table_json(const Container& c) {
    // One string a line, each in its compact spelling.
    std::string out = "{";
    for (const auto& [key, by_token] : {std::pair{"canonical", false}, std::pair{"token_by_token", true}}) {
        out += std::string(by_token ? ",\n" : "\n") + " \"" + key + "\": [";
        const char* sep = "\n  ";
        for (const std::string& s : first_use_order(c, by_token)) out += sep + model_string(s).dump(), sep = ",\n  ";
        out += "\n ]";
    }
    return out + "\n}\n";
}

}  // namespace ond::corpus::gen
