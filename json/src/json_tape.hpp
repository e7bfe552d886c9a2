// A small strict JSON (RFC 8259) parser that keeps every number's text.
//
// The content model needs the decimal text of numbers (a float is read from it straight to the
// nearest binary32, "-0" keeps its sign), which general-purpose DOMs throw away. The parse result
// is a flat tape of nodes in document order; a container node knows where its subtree ends, so
// walking it needs no pointers. Internal header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace ond::json::detail {

enum class NodeKind : std::uint8_t { null, boolean, number, string, array, object };

// 24 bytes: large documents make tens of millions of these.
struct Node {
    NodeKind kind = NodeKind::null;
    bool flag = false;       // boolean: its value; number: the text is an integer (no '.', no exponent)
    bool decoded = false;    // string: escapes were resolved, `ptr` points into the tape's own storage
    std::uint32_t count = 0; // array: elements; object: members; decoded string: its index in decoded_at_
    std::uint32_t end = 0;   // index of the first node after this subtree
    std::uint32_t len = 0;   // number, string: length of the text
    const char* ptr = nullptr;  // number: its text; string: its value (UTF-8); else: where it starts

    std::string_view text() const noexcept { return std::string_view(ptr, len); }
};

// An object's members on the tape are key node, value subtree, key node, value subtree, ...
class Tape {
public:
    // Throws JsonError (with the byte offset) on anything that is not strict JSON: a byte-order
    // mark, invalid UTF-8, control characters in strings, escapes of lone surrogates, duplicate
    // keys in one object, nesting deeper than max_depth, trailing non-whitespace.
    explicit Tape(std::string_view source, std::size_t max_depth = 256);

    Tape(const Tape&) = delete;
    Tape& operator=(const Tape&) = delete;

    const Node& operator[](std::uint32_t i) const { return nodes_[i]; }
    std::uint32_t size() const noexcept { return static_cast<std::uint32_t>(nodes_.size()); }

    // Index of the node after node i's subtree.
    std::uint32_t next(std::uint32_t i) const { return nodes_[i].end; }
    // Byte offset of node i in the source (for messages).
    std::size_t pos(std::uint32_t i) const;

private:
    void parse_value(std::size_t depth);
    void parse_string(Node& n);
    void parse_number(Node& n);
    void check_duplicate_keys(std::size_t first_key);
    void skip_ws();
    [[noreturn]] void fail(const std::string& what) const;
    [[noreturn]] void fail_at(std::size_t pos, const std::string& what) const;

    std::string_view src_;
    std::size_t i_ = 0;
    std::size_t max_depth_;
    std::vector<Node> nodes_;
    std::deque<std::string> decoded_;  // strings that had escapes (stable addresses)
    std::vector<std::size_t> decoded_at_;  // where each began in the source (past 4 GiB too)
    std::vector<std::uint32_t> keys_;  // key nodes of the objects being parsed, innermost last
};

// Compact JSON of a subtree, cut to at most max_chars (for messages).
std::string excerpt(const Tape& t, std::uint32_t i, std::size_t max_chars = 60);

// Appends s as a JSON string literal (quotes included). s must be valid UTF-8.
void append_quoted(std::string& out, std::string_view s);

}  // namespace ond::json::detail
