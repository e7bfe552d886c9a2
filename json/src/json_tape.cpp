#include "json_tape.hpp"

#include <algorithm>

#include "ond/content_json.hpp"
#include "ond/hex.hpp"
#include "ond/unicode.hpp"

namespace ond::json::detail {

namespace {

bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

int hex_value(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}


}  // namespace

Tape::Tape(std::string_view source, std::size_t max_depth) : src_(source), max_depth_(max_depth) {
    if (src_.size() >= 3 && static_cast<unsigned char>(src_[0]) == 0xEF &&
        static_cast<unsigned char>(src_[1]) == 0xBB && static_cast<unsigned char>(src_[2]) == 0xBF)
        fail("a byte-order mark is not allowed");
    nodes_.reserve(src_.size() / 16 + 4);
    skip_ws();
    if (i_ == src_.size()) fail("empty input, expected a JSON value");
    parse_value(0);
    skip_ws();
    if (i_ != src_.size()) fail("unexpected text after the JSON value");
}

void Tape::fail(const std::string& what) const { fail_at(i_, what); }

void Tape::fail_at(std::size_t pos, const std::string& what) const {
    throw JsonError("JSON error at byte " + std::to_string(pos) + ": " + what);
}

void Tape::skip_ws() {
    while (i_ < src_.size()) {
        char c = src_[i_];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        ++i_;
    }
}

void Tape::parse_value(std::size_t depth) {
    if (i_ >= src_.size()) fail("unexpected end of input, expected a value");
    const std::uint32_t self = static_cast<std::uint32_t>(nodes_.size());
    nodes_.emplace_back();
    nodes_[self].ptr = src_.data() + i_;
    const char c = src_[i_];
    auto literal = [&](std::string_view word) {
        if (src_.substr(i_, word.size()) != word) fail("invalid literal");
        i_ += word.size();
    };
    switch (c) {
    case 'n':
        literal("null");
        nodes_[self].kind = NodeKind::null;
        break;
    case 't':
        literal("true");
        nodes_[self].kind = NodeKind::boolean;
        nodes_[self].flag = true;
        break;
    case 'f':
        literal("false");
        nodes_[self].kind = NodeKind::boolean;
        break;
    case '"': {
        Node n;
        parse_string(n);
        nodes_[self] = n;
        break;
    }
    case '[': {
        if (depth >= max_depth_) fail("nesting is deeper than " + std::to_string(max_depth_));
        nodes_[self].kind = NodeKind::array;
        ++i_;
        skip_ws();
        std::uint32_t count = 0;
        if (i_ < src_.size() && src_[i_] == ']') {
            ++i_;
        } else {
            for (;;) {
                skip_ws();
                parse_value(depth + 1);
                ++count;
                skip_ws();
                if (i_ >= src_.size()) fail("unexpected end of input in an array");
                if (src_[i_] == ',') { ++i_; continue; }
                if (src_[i_] == ']') { ++i_; break; }
                fail("expected ',' or ']' in an array");
            }
        }
        nodes_[self].count = count;
        break;
    }
    case '{': {
        if (depth >= max_depth_) fail("nesting is deeper than " + std::to_string(max_depth_));
        nodes_[self].kind = NodeKind::object;
        ++i_;
        skip_ws();
        std::uint32_t count = 0;
        const std::size_t first_key = keys_.size();
        if (i_ < src_.size() && src_[i_] == '}') {
            ++i_;
        } else {
            for (;;) {
                skip_ws();
                if (i_ >= src_.size() || src_[i_] != '"') fail("expected a string key in an object");
                Node key;
                parse_string(key);
                key.end = static_cast<std::uint32_t>(nodes_.size() + 1);
                keys_.push_back(static_cast<std::uint32_t>(nodes_.size()));
                nodes_.push_back(key);
                skip_ws();
                if (i_ >= src_.size() || src_[i_] != ':') fail("expected ':' after an object key");
                ++i_;
                skip_ws();
                parse_value(depth + 1);
                ++count;
                skip_ws();
                if (i_ >= src_.size()) fail("unexpected end of input in an object");
                if (src_[i_] == ',') { ++i_; continue; }
                if (src_[i_] == '}') { ++i_; break; }
                fail("expected ',' or '}' in an object");
            }
        }
        check_duplicate_keys(first_key);
        keys_.resize(first_key);
        nodes_[self].count = count;
        break;
    }
    default:
        if (c == '-' || is_digit(c)) {
            Node n;
            parse_number(n);
            nodes_[self] = n;
            break;
        }
        if (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7F)
            fail(std::string("unexpected character '") + c + "'");
        fail("unexpected byte 0x" + hex::of(static_cast<unsigned char>(c), 2));
    }
    nodes_[self].end = static_cast<std::uint32_t>(nodes_.size());
}

std::size_t Tape::pos(std::uint32_t i) const {
    const Node& n = nodes_[i];
    if (n.kind == NodeKind::string) return n.decoded ? decoded_at_[n.count] : static_cast<std::size_t>(n.ptr - src_.data()) - 1;
    return static_cast<std::size_t>(n.ptr - src_.data());
}

// Duplicate keys in one object: the content model has no use for them and they are ambiguous.
void Tape::check_duplicate_keys(std::size_t first_key) {
    const std::size_t k = keys_.size() - first_key;
    const std::uint32_t* keys = keys_.data() + first_key;
    auto dup = [&](std::uint32_t key) {
        fail_at(pos(key), "duplicate key \"" + std::string(nodes_[key].text()) + "\"");
    };
    if (k <= 16) {
        for (std::size_t a = 1; a < k; ++a)
            for (std::size_t b = 0; b < a; ++b)
                if (nodes_[keys[a]].text() == nodes_[keys[b]].text()) dup(keys[a]);
        return;
    }
    std::vector<std::uint32_t> sorted(keys, keys + k);
    std::sort(sorted.begin(), sorted.end(), [&](std::uint32_t x, std::uint32_t y) {
        return nodes_[x].text() != nodes_[y].text() ? nodes_[x].text() < nodes_[y].text() : x < y;
    });
    for (std::size_t a = 1; a < sorted.size(); ++a)
        if (nodes_[sorted[a]].text() == nodes_[sorted[a - 1]].text()) dup(sorted[a]);
}

void Tape::parse_number(Node& n) {
    const std::size_t start = i_;
    n.kind = NodeKind::number;
    bool integer = true;
    if (src_[i_] == '-') ++i_;
    if (i_ >= src_.size() || !is_digit(src_[i_])) fail("a number needs a digit");
    if (src_[i_] == '0') {
        ++i_;
        if (i_ < src_.size() && is_digit(src_[i_])) fail("a number may not have a leading zero");
    } else {
        while (i_ < src_.size() && is_digit(src_[i_])) ++i_;
    }
    if (i_ < src_.size() && src_[i_] == '.') {
        integer = false;
        ++i_;
        if (i_ >= src_.size() || !is_digit(src_[i_])) fail("a digit must follow the decimal point");
        while (i_ < src_.size() && is_digit(src_[i_])) ++i_;
    }
    if (i_ < src_.size() && (src_[i_] == 'e' || src_[i_] == 'E')) {
        integer = false;
        ++i_;
        if (i_ < src_.size() && (src_[i_] == '+' || src_[i_] == '-')) ++i_;
        if (i_ >= src_.size() || !is_digit(src_[i_])) fail("a digit must follow the exponent mark");
        while (i_ < src_.size() && is_digit(src_[i_])) ++i_;
    }
    n.flag = integer;
    n.ptr = src_.data() + start;
    n.len = static_cast<std::uint32_t>(i_ - start);
}

void Tape::parse_string(Node& n) {
    n.kind = NodeKind::string;
    ++i_;  // opening quote
    const std::size_t start = i_;
    // Fast path: no escapes. Validate UTF-8 of the raw bytes.
    std::size_t j = i_;
    bool escapes = false;
    while (j < src_.size()) {
        const auto ch = static_cast<unsigned char>(src_[j]);
        if (ch == '"') break;
        if (ch == '\\') { escapes = true; break; }
        if (ch < 0x20) fail_at(j, "a control character must be escaped in a string");
        ++j;
    }
    if (j >= src_.size()) fail_at(start - 1, "unterminated string");
    if (!escapes) {
        std::size_t bad = 0;
        if (!unicode::utf8_utf16_length(reinterpret_cast<const unsigned char*>(src_.data() + start), j - start, &bad))
            fail_at(start + bad, "a string is not valid UTF-8");
        if (j - start > 0xFFFFFFFFu) fail_at(start, "a string is longer than 4 GiB");
        n.ptr = src_.data() + start;
        n.len = static_cast<std::uint32_t>(j - start);
        i_ = j + 1;
        return;
    }
    std::string out(src_.substr(start, j - start));
    i_ = j;
    auto read_hex4 = [&]() -> std::uint32_t {
        if (src_.size() - i_ < 4) fail("a \\u escape needs 4 hex digits");
        std::uint32_t v = 0;
        for (int k = 0; k < 4; ++k) {
            int h = hex_value(src_[i_ + k]);
            if (h < 0) fail("a \\u escape needs 4 hex digits");
            v = v * 16 + static_cast<std::uint32_t>(h);
        }
        i_ += 4;
        return v;
    };
    for (;;) {
        if (i_ >= src_.size()) fail_at(start - 1, "unterminated string");
        const auto ch = static_cast<unsigned char>(src_[i_]);
        if (ch == '"') { ++i_; break; }
        if (ch < 0x20) fail("a control character must be escaped in a string");
        if (ch != '\\') {
            out.push_back(static_cast<char>(ch));
            ++i_;
            continue;
        }
        const std::size_t esc = i_;
        ++i_;
        if (i_ >= src_.size()) fail("unterminated escape");
        const char e = src_[i_++];
        switch (e) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
            std::uint32_t u = read_hex4();
            if (u >= 0xDC00 && u <= 0xDFFF)
                fail_at(esc, "escape of a lone low surrogate; write such strings as {\"utf16\": [...]}");
            if (u >= 0xD800 && u <= 0xDBFF) {
                if (src_.substr(i_, 2) != "\\u")
                    fail_at(esc, "escape of a lone high surrogate; write such strings as {\"utf16\": [...]}");
                i_ += 2;
                std::uint32_t v = read_hex4();
                if (v < 0xDC00 || v > 0xDFFF)
                    fail_at(esc, "escape of a lone high surrogate; write such strings as {\"utf16\": [...]}");
                u = 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00);
            }
            unicode::append_utf8(out, u);
            break;
        }
        default: fail_at(esc, "invalid escape");
        }
    }
    std::size_t bad = 0;
    if (!unicode::utf8_utf16_length(reinterpret_cast<const unsigned char*>(out.data()), out.size(), &bad))
        fail_at(start, "a string is not valid UTF-8");
    if (out.size() > 0xFFFFFFFFu) fail_at(start, "a string is longer than 4 GiB");
    decoded_.push_back(std::move(out));
    n.decoded = true;
    n.count = static_cast<std::uint32_t>(decoded_at_.size());  // fewer strings than the tape has nodes
    decoded_at_.push_back(start - 1);
    n.ptr = decoded_.back().data();
    n.len = static_cast<std::uint32_t>(decoded_.back().size());
}

void append_quoted(std::string& out, std::string_view s) {
    out.push_back('"');
    std::size_t run = 0;  // start of the bytes that need no escape, appended together
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto ch = static_cast<unsigned char>(s[i]);
        if (ch >= 0x20 && ch != '"' && ch != '\\' && ch != 0x7F) continue;
        out.append(s.data() + run, i - run);
        run = i + 1;
        switch (ch) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
            out += "\\u";
            hex::append(out, ch, 4);
        }
    }
    out.append(s.data() + run, s.size() - run);
    out.push_back('"');
}

namespace {
void excerpt_rec(const Tape& t, std::uint32_t i, std::string& out, std::size_t limit) {
    if (out.size() > limit) return;
    const Node& n = t[i];
    switch (n.kind) {
    case NodeKind::null: out += "null"; break;
    case NodeKind::boolean: out += n.flag ? "true" : "false"; break;
    case NodeKind::number: out += n.text(); break;
    case NodeKind::string: append_quoted(out, n.text()); break;
    case NodeKind::array: {
        out.push_back('[');
        std::uint32_t c = i + 1;
        for (std::uint32_t k = 0; k < n.count && out.size() <= limit; ++k) {
            if (k) out.push_back(',');
            excerpt_rec(t, c, out, limit);
            c = t.next(c);
        }
        out.push_back(']');
        break;
    }
    case NodeKind::object: {
        out.push_back('{');
        std::uint32_t c = i + 1;
        for (std::uint32_t k = 0; k < n.count && out.size() <= limit; ++k) {
            if (k) out.push_back(',');
            append_quoted(out, t[c].text());
            out.push_back(':');
            excerpt_rec(t, c + 1, out, limit);
            c = t.next(c + 1);
        }
        out.push_back('}');
        break;
    }
    }
}
}  // namespace

std::string excerpt(const Tape& t, std::uint32_t i, std::size_t max_chars) {
    std::string out;
    excerpt_rec(t, i, out, max_chars);
    if (out.size() > max_chars) {
        // Cut on a UTF-8 boundary.
        std::size_t cut = max_chars;
        while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
        out.resize(cut);
        out += "...";
    }
    return out;
}

}  // namespace ond::json::detail
