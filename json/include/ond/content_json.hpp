// The content model as JSON, exactly as docs/protocol.md defines it. The one place where the
// project turns content into JSON and back; the CLI, the corpus generator and the runner share it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "ond/model.hpp"

namespace ond::json {

// Malformed JSON, or JSON that does not follow the content model.
class JsonError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Container -> JSON text (one line unless pretty). Floats as the shortest text that reads back
// to the same binary32 bits; -0.0 as "-0.0"; NaN and infinities as {"f32bits": N} (the 32-bit
// pattern, payload and sign kept); strings with lone surrogates as {"utf16": [...]}.
std::string to_json(const Container& c, bool pretty = false);

// The same text followed by a newline, handed to `sink` piece by piece (about 64 KiB each) as
// it is made: the memory used does not grow with the size of the JSON. Throws what to_json
// throws, possibly after some pieces went out.
using JsonSink = std::function<void(std::string_view)>;
void write_json(const Container& c, const JsonSink& sink, bool pretty = false);

// JSON text -> Container (strings interned into c.strings). Floats are read from their decimal
// text straight to the nearest binary32, or from {"f32bits": N} (N in 0..2^32-1). Throws JsonError for malformed JSON, unknown or
// missing keys and values of the wrong type. Content that is well-typed but cannot be written (a
// head outside the document, a sentence value of 3, an infinite confidence, categories in a bin,
// ...) is loaded as it is and left to ond::encode / ond::check_writable to refuse with their
// content.* codes. An integer outside its field's type raises ond::Error at once with the code
// the writer would give: a head past 32 bits content.head-out-of-range, a sentence value past 255
// content.bad-sentence-value, a UTF-16 unit past 0xFFFF content.invalid-string, a start, length
// or f32bits outside [0, 2^32 - 1] content.too-large. A text longer than 2^32 - 1 UTF-16 units
// raises ond::Error (content.too-large) from Doc::set_text.
Container from_json(std::string_view text);

// Content JSON checked as it arrives, for a reader that should not read to its size limit before
// it finds the input hopeless: feed() the pieces in order; it throws JsonError ("JSON error at
// byte N: ...", N counted from the first piece) at the first byte after which nothing can make
// the text content JSON: a syntax error of RFC 8259, a top level that is not an object, text
// after it, or nesting deeper than the content model's. It never refuses a prefix of content
// JSON (what from_json accepts); what it lets through from_json still judges whole.
class ContentPrefix {
public:
    void feed(std::string_view piece);
    std::uint64_t bytes() const noexcept { return at_; }

private:
    enum class State : std::uint8_t {
        value, first_value_or_close, key, first_key_or_close, colon, after_value, string, escape, hex, literal,
        number_sign, number_zero, number_int, number_dot, number_frac, number_e, number_e_sign, number_exp, done,
    };
    void step(char c);
    void value_start(char c);
    void end_value();
    [[noreturn]] void fail(const std::string& what) const;

    State state_ = State::value;
    bool in_key_ = false;            // the string being read is an object's key
    unsigned char hex_left_ = 0;     // hex digits of a u-escape still to come
    const char* literal_ = nullptr;  // the rest of true / false / null still to come
    std::uint64_t at_ = 0;           // bytes fed
    std::string open_;               // '{' and '[' of the values being read, innermost last
};

// Content JSON read in pieces into one buffer (a pipe, a frame): each piece is checked as it
// arrives (ContentPrefix, so hopeless input is refused at its first hopeless byte) and kept in
// memory that is never zero-filled and grows with realloc, which moves a large block's pages
// instead of copying them: what it holds is the bytes read and the room asked for, never two
// copies of the text.
class ContentJsonText {
public:
    ContentJsonText() = default;
    ContentJsonText(const ContentJsonText&) = delete;
    ContentJsonText& operator=(const ContentJsonText&) = delete;
    ~ContentJsonText() { release(); }

    // Room up to `capacity` bytes in all (nothing when it has that much); std::bad_alloc if refused.
    // For room known to exist (a regular file's size); else grow().
    void reserve(std::size_t capacity);
    // More room, as much as arrived so far (at least 64 KiB), but never past `most` bytes in all:
    // the buffer grows with what arrived, never ahead of it.
    void grow(std::size_t most);
    // Where the next piece is written: capacity() - size() bytes of room.
    char* end() noexcept { return data_ + size_; }
    // The `n` bytes written at end(): checked, then kept. JsonError at the first hopeless byte.
    void add(std::size_t n);
    std::size_t size() const noexcept { return size_; }
    std::size_t capacity() const noexcept { return capacity_; }
    std::string_view text() const noexcept { return {data_ ? data_ : "", size_}; }
    // Frees the text (once from_json has read it).
    void release() noexcept;

private:
    ContentPrefix check_;
    char* data_ = nullptr;
    std::size_t size_ = 0, capacity_ = 0;
};

// Structural comparison of two content JSON texts: keys in any order, floats by binary32 bits
// (a number and {"f32bits": N} alike), strings by UTF-16 code units, and `ents` null and []
// equal in a document without tokens (R22). nullopt when equal, else the first difference, e.g.
// "docs[2].tokens[17].head: expected 3, got 4". Throws JsonError if either is not valid JSON.
std::optional<std::string> compare_content(std::string_view expected, std::string_view actual);

// The float rules of the content model, for tools that handle content JSON themselves.
// format_float: the shortest decimal that reads back to the same bits ("-0.0" for negative
// zero). Throws JsonError for NaN and infinities, which a JSON number cannot hold (to_json
// writes those as {"f32bits": N}).
std::string format_float(float f);
// parse_float: a JSON number's text to the nearest binary32 (ties to even), +-inf past the
// largest finite value, +-0 below half the smallest subnormal. Throws JsonError when the text
// is not a JSON number.
float parse_float(std::string_view json_number);

}  // namespace ond::json
