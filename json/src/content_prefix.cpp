// ContentPrefix: RFC 8259's grammar as a byte-at-a-time state machine, plus the two facts of the
// content model that hold for every prefix (the top level is an object; nesting is bounded).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "ond/content_json.hpp"

namespace ond::json {

namespace {

// The content model's deepest nesting: an ONDB container { "docs": [ doc { "spans": [ group
// { "spans": [ span { "label": { "utf16": [ units: 9 open values (docs/protocol.md). Unknown
// keys are an error, so nothing deeper is content.
constexpr std::size_t max_content_depth = 9;

bool blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool digit(char c) noexcept { return c >= '0' && c <= '9'; }

std::string shown(char c) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x20 && b < 0x7F) return std::string("'") + c + "'";
    static const char hex[] = "0123456789ABCDEF";
    return std::string("byte 0x") + hex[b >> 4] + hex[b & 15];
}

}  // namespace

void ContentPrefix::fail(const std::string& what) const {
    throw JsonError("JSON error at byte " + std::to_string(at_) + ": " + what);
}

// Runs that leave the state as it is are taken a run at a time: a string's plain bytes, and
// blanks where blanks may stand. Endless runs of either are what a hostile input sends, and a
// large valid input is mostly strings.
void ContentPrefix::feed(std::string_view piece) {
    const char* p = piece.data();
    const char* const end = p + piece.size();
    while (p < end) {
        const char* q = p;
        switch (state_) {
            case State::string:
                while (q < end && *q != '"' && *q != '\\' && static_cast<unsigned char>(*q) >= 0x20) ++q;
                break;
            case State::value:
            case State::first_value_or_close:
            case State::key:
            case State::first_key_or_close:
            case State::colon:
            case State::after_value:
            case State::done:
                while (q < end && blank(*q)) ++q;
                break;
            default: break;
        }
        at_ += static_cast<std::uint64_t>(q - p);
        if (q == end) return;
        step(*q);
        ++at_;
        p = q + 1;
    }
}

// A value begins with `c` (blanks already skipped).
void ContentPrefix::value_start(char c) {
    if (open_.empty() && c != '{') fail(shown(c) + " cannot start content JSON, which is an object");
    if (c == '{' || c == '[') {
        if (open_.size() == max_content_depth)
            fail("nesting deeper than " + std::to_string(max_content_depth) + ", which no content JSON has");
        open_.push_back(c);
        state_ = c == '{' ? State::first_key_or_close : State::first_value_or_close;
    } else if (c == '"') {
        in_key_ = false;
        state_ = State::string;
    } else if (c == '-') {
        state_ = State::number_sign;
    } else if (c == '0') {
        state_ = State::number_zero;
    } else if (digit(c)) {
        state_ = State::number_int;
    } else if (c == 't' || c == 'f' || c == 'n') {
        literal_ = c == 't' ? "rue" : c == 'f' ? "alse" : "ull";
        state_ = State::literal;
    } else {
        fail(shown(c) + " cannot start a JSON value");
    }
}

void ContentPrefix::end_value() { state_ = open_.empty() ? State::done : State::after_value; }

// Long by design: the whole state machine, one case per state, as the content model reads.
void ContentPrefix::step(char c) {
    switch (state_) {
        case State::value:
            if (!blank(c)) value_start(c);
            return;
        case State::first_value_or_close:
            if (blank(c)) return;
            if (c == ']') {
                open_.pop_back();
                return end_value();
            }
            return value_start(c);
        case State::first_key_or_close:
        case State::key:
            if (blank(c)) return;
            if (c == '}' && state_ == State::first_key_or_close) {
                open_.pop_back();
                return end_value();
            }
            if (c != '"') fail(shown(c) + " where an object's key must start");
            in_key_ = true;
            state_ = State::string;
            return;
        case State::colon:
            if (blank(c)) return;
            if (c != ':') fail(shown(c) + " where ':' must follow an object's key");
            state_ = State::value;
            return;
        case State::after_value:
            if (blank(c)) return;
            if (c == ',') {
                state_ = open_.back() == '{' ? State::key : State::value;
                return;
            }
            if (c != (open_.back() == '{' ? '}' : ']'))
                fail(shown(c) + " where ',' or '" + (open_.back() == '{' ? "}" : "]") + "' must follow a value");
            open_.pop_back();
            return end_value();
        case State::string:
            if (c == '"') {
                if (in_key_) state_ = State::colon;
                else end_value();
            } else if (c == '\\') {
                state_ = State::escape;
            } else if (static_cast<unsigned char>(c) < 0x20) {
                fail("a control character (" + shown(c) + ") in a string");
            }
            return;
        case State::escape:
            if (c == 'u') {
                hex_left_ = 4;
                state_ = State::hex;
            } else if (std::strchr("\"\\/bfnrt", c) && c != '\0') {
                state_ = State::string;
            } else {
                fail(shown(c) + " is not an escape");
            }
            return;
        case State::hex:
            if (!digit(c) && !((c | 0x20) >= 'a' && (c | 0x20) <= 'f')) fail(shown(c) + " in a \\u escape");
            if (--hex_left_ == 0) state_ = State::string;
            return;
        case State::literal:
            if (c != *literal_) fail(shown(c) + " in a literal (true, false or null)");
            if (*++literal_ == '\0') end_value();
            return;
        case State::number_sign:  // a digit must follow '-'
            if (!digit(c)) fail(shown(c) + " where a digit must follow '-'");
            state_ = c == '0' ? State::number_zero : State::number_int;
            return;
        case State::number_int:
            if (digit(c)) return;
            [[fallthrough]];
        case State::number_zero:
            if (c == '.') state_ = State::number_dot;
            else if (c == 'e' || c == 'E') state_ = State::number_e;
            else if (digit(c)) fail("a number with a leading zero");
            else end_value(), step(c);
            return;
        case State::number_dot:
            if (!digit(c)) fail(shown(c) + " where a digit must follow '.'");
            state_ = State::number_frac;
            return;
        case State::number_frac:
            if (digit(c)) return;
            if (c == 'e' || c == 'E') state_ = State::number_e;
            else end_value(), step(c);
            return;
        case State::number_e:
            if (c == '+' || c == '-') {
                state_ = State::number_e_sign;
                return;
            }
            [[fallthrough]];
        case State::number_e_sign:
            if (!digit(c)) fail(shown(c) + " where an exponent's digit must come");
            state_ = State::number_exp;
            return;
        case State::number_exp:
            if (!digit(c)) end_value(), step(c);
            return;
        case State::done:
            if (!blank(c)) fail(shown(c) + " after the end of the content JSON");
            return;
    }
}

void ContentJsonText::reserve(std::size_t capacity) {
    if (capacity <= capacity_) return;
    void* p = std::realloc(data_, capacity);
    if (!p) throw std::bad_alloc();
    data_ = static_cast<char*>(p);
    capacity_ = capacity;
}

void ContentJsonText::grow(std::size_t most) {
    reserve(std::min(size_ + std::max<std::size_t>(std::size_t{64} << 10, size_), most));
}

void ContentJsonText::add(std::size_t n) {
    check_.feed(std::string_view(data_ + size_, n));
    size_ += n;
}

void ContentJsonText::release() noexcept {
    std::free(data_);
    data_ = nullptr;
    size_ = capacity_ = 0;
}

}  // namespace ond::json
