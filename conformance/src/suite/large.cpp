#include "suite/large.hpp"

#include "suite/large_answer.hpp"
#include "suite/large_encode.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>


namespace ond::conformance {

namespace {

// Bytes described as runs: literal bytes, or one byte value repeated (the text, the zero columns).
class Runs {
public:
    Runs& lit(std::string b) { return repeat(std::move(b), 1); }
    // `pattern` `times` times over.
    Runs& repeat(std::string pattern, std::uint64_t times) {
        runs_.push_back({std::move(pattern), times});
        return *this;
    }
    Runs& u32(std::uint32_t v) {
        std::string b(4, '\0');
        for (int i = 0; i < 4; ++i) b[i] = static_cast<char>(v >> (8 * i));
        return lit(std::move(b));
    }
    Runs& fill(char c, std::uint64_t n) { return repeat(std::string(1, c), n); }
    std::uint64_t size() const {
        std::uint64_t n = 0;
        for (const Run& r : runs_) n += r.size();
        return n;
    }
    // The next piece of at most 1 MiB; empty at the end.
    std::string_view next() {
        buf_.clear();
        while (buf_.size() < step && k_ < runs_.size()) {
            const Run& r = runs_[k_];
            const std::uint64_t size = r.size();
            const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(size - at_, step - buf_.size()));
            if (r.pattern.size() == 1) {
                buf_.append(want, r.pattern[0]);
            } else {
                for (std::uint64_t pos = at_, end = at_ + want; pos < end;) {  // from where the last piece stopped
                    const std::size_t off = static_cast<std::size_t>(pos % r.pattern.size());
                    const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(end - pos, r.pattern.size() - off));
                    buf_.append(r.pattern, off, k);
                    pos += k;
                }
            }
            at_ += want;
            if (at_ == size) ++k_, at_ = 0;
        }
        return buf_;
    }

private:
    static constexpr std::size_t step = 1u << 20;
    struct Run {
        std::string pattern;
        std::uint64_t times;
        std::uint64_t size() const { return pattern.size() * times; }
    };
    std::vector<Run> runs_;
    std::size_t k_ = 0;
    std::uint64_t at_ = 0;
    std::string buf_;
};

std::string section_frame(std::uint8_t id, std::uint32_t length) {
    std::string f(1, static_cast<char>(id));
    for (int i = 0; i < 4; ++i) f.push_back(static_cast<char>(length >> (8 * i)));
    return f;
}

std::string varint(std::uint32_t v) {
    std::string b;
    for (; v >= 0x80; v >>= 7) b.push_back(static_cast<char>(0x80 | (v & 0x7F)));
    b.push_back(static_cast<char>(v));
    return b;
}

// The canonical ONDC of n tokens, one 'a' each, nothing else set (valid when n <= 2^25, R17).
Runs token_document(std::uint32_t n) {
    const std::string count = varint(n);
    const std::uint64_t tokens_len = count.size() + 9ull * n + (n + 3) / 4 + 1;
    const std::uint64_t body = 6 + (5 + 1 + n) + (5 + tokens_len);
    Runs r;
    r.lit(std::string("ONDC\x01\x00\x00\x00", 8)).u32(static_cast<std::uint32_t>(body));
    r.lit(section_frame(1, 1) + std::string(1, '\0'));
    r.lit(section_frame(2, 1 + n) + std::string(1, '\0')).fill('a', n);
    r.lit(section_frame(3, static_cast<std::uint32_t>(tokens_len)) + count);
    r.repeat(std::string("\0\x01", 2), n);          // gap 0, length 1 per token
    r.fill('\0', 7ull * n + (n + 3) / 4 + 1);  // six columns, heads, sentence bits, mode 0
    return r;
}

// A stream of one ONDC whose body is exactly `body` bytes: an empty text, no tokens, and an
// unknown section (id 8, skipped by length: R9) of zeros filling the rest. Valid up to the cap
// (R26); its content is that of an empty document, so the answer is one short line.
Runs stream_of_body(std::uint32_t body) {
    Runs r;
    r.lit(std::string("ONDC\x01\x00\x00\x00", 8)).u32(body);
    r.lit(section_frame(1, 1) + std::string(1, '\0'));
    r.lit(section_frame(2, 1) + std::string(1, '\0'));
    r.lit(section_frame(3, 2) + std::string(2, '\0'));
    r.lit(section_frame(8, body - 24)).fill('\0', body - 24);
    return r;
}

// A stream whose first ONDC declares, and delivers, a body of `body` bytes: a valid document of
// one long text (one past the cap: R26 refuses it at the header).
Runs over_the_cap(std::uint32_t body) {
    const std::uint32_t text = body - 19;  // tables (6), text frame and encoding (6), tokens (7)
    Runs r;
    r.lit(std::string("ONDC\x01\x00\x00\x00", 8)).u32(body);
    r.lit(section_frame(1, 1) + std::string(1, '\0'));
    r.lit(section_frame(2, 1 + text) + std::string(1, '\0')).fill('a', text);
    r.lit(section_frame(3, 2) + std::string(2, '\0'));
    return r;
}

std::size_t varint_size(std::uint64_t v) {
    std::size_t n = 1;
    for (; v >= 0x80; v >>= 7) ++n;
    return n;
}

// category_document's body but for its string table: the table's frame and count, the text (6),
// tokens (7) and categories (16) sections.
constexpr std::uint64_t category_fixed_bytes = 5 + 1 + 6 + 7 + 16;

// The string table section's content: the count, then each label's header and bytes.
std::uint64_t category_table_bytes(CategoryLabels l) {
    return 1 + varint_size(2ull * l.first) + l.first + varint_size(2ull * l.second) + l.second;
}

// The canonical ONDC of two categories ('a' x first, 0.5; 'b' x second, 0.25), nothing else set:
// the table holds the labels in the order the categories use them (W3), and sections 1, 2, 3
// and 6 are written (W2). Its body must fit the header's u32 (R6).
Runs category_document(CategoryLabels l) {
    const std::uint64_t table = category_table_bytes(l), body = table + category_fixed_bytes - 1;
    if (body > 0xFFFFFFFFu) throw std::invalid_argument("a body of " + std::to_string(body) + " bytes has no container");
    Runs r;
    r.lit(std::string("ONDC\x01\x00\x00\x00", 8)).u32(static_cast<std::uint32_t>(body));
    r.lit(section_frame(1, static_cast<std::uint32_t>(table)) + varint(2) + varint(2 * l.first)).fill('a', l.first);
    r.lit(varint(2 * l.second)).fill('b', l.second);
    r.lit(section_frame(2, 1) + std::string(1, '\0'));  // UTF-8, no text
    r.lit(section_frame(3, 2) + std::string(2, '\0'));  // no tokens, confidence mode 0
    r.lit(section_frame(6, 11) + varint(2) + varint(1)).u32(0x3F000000u).lit(varint(2)).u32(0x3E800000u);
    return r;
}

Runs category_content(CategoryLabels l) {
    Runs r;
    r.lit(R"({"format":"ONDC","crc":false,"doc":{"text":"","tokens":[],"ents":null,"cats":[{"label":")").fill('a', l.first);
    r.lit(R"(","score":0.5},{"label":")").fill('b', l.second).lit(R"(","score":0.25}],"spans":[]}})");
    return r;
}

// The compact content JSON of token_document(n), made token by token: every token's start and
// head are its index, so the pieces are written, not repeated. A piece stops short of 1 MiB by
// more than a token's JSON (at most 128 bytes), so that none is longer.
class TokenContentPieces {
public:
    explicit TokenContentPieces(std::uint32_t n) : n_(n) {}
    std::string_view next() {
        buf_.clear();
        while (buf_.size() < room && part_ < 5) {
            switch (part_) {
                case 0: buf_ += R"({"format":"ONDC","crc":false,"doc":{"text":")", ++part_; break;
                case 1: {  // the text, n x "a"
                    const std::uint64_t k = std::min<std::uint64_t>(n_ - at_, room - buf_.size());
                    buf_.append(static_cast<std::size_t>(k), 'a');
                    if ((at_ += k) == n_) ++part_, at_ = 0;
                    break;
                }
                case 2: buf_ += R"(","tokens":[)", ++part_; break;
                case 3:
                    for (char i[16]; at_ < n_ && buf_.size() < room; ++at_) {
                        const std::string_view index(i, static_cast<std::size_t>(std::to_chars(i, i + sizeof i, at_).ptr - i));
                        buf_ += at_ ? R"(,{"start":)" : R"({"start":)";
                        buf_ += index;
                        buf_ += R"(,"length":1,"norm":"","lemma":"","pos":"","tag":"","dep":"","morph":"","head":)";
                        buf_ += index;
                        buf_ += R"(,"sent":0,"conf":1})";
                    }
                    if (at_ == n_) ++part_, at_ = 0;
                    break;
                default: buf_ += R"(],"ents":null,"cats":null,"spans":[]}})", ++part_; break;
            }
        }
        return buf_;
    }

private:
    static constexpr std::size_t room = (std::size_t{1} << 20) - 128;
    std::uint32_t n_;
    int part_ = 0;
    std::uint64_t at_ = 0;
    std::string buf_;
};

// A fresh reader of the pieces of the bytes `make` describes.
std::function<PieceReader()> pieces_of(std::function<Runs()> make) {
    return [make = std::move(make)] {
        auto runs = std::make_shared<Runs>(make());
        return PieceReader([runs] { return runs->next(); });
    };
}

// "2^25" for a power of two, else the number (the caps of the tests).
std::string cap_name(std::uint64_t v) {
    for (int k = 0; k < 64; ++k)
        if (v == std::uint64_t{1} << k) return "2^" + std::to_string(k);
    return std::to_string(v);
}

struct LargeSpec {
    const char* id;
    CaseKind kind;
    std::vector<std::string> rules;
    std::string what;
    std::function<PieceReader()> open;
    std::uint64_t size;
    const char* error = "";  // a case to be refused: its code; "": to be accepted
    CaseVerdict verdict = CaseVerdict::invalid;
    std::function<std::shared_ptr<StreamedAnswer>()> answer = {};
    std::uint64_t answer_limit = 0;
};

Case large_case(LargeSpec s) {
    Case c;
    c.id = s.id;
    c.kind = s.kind;
    c.area = "large";
    c.verdict = s.verdict;
    c.rules = std::move(s.rules);
    c.description = s.what;
    c.error = s.error;
    c.expect_accept = static_cast<bool>(s.answer);
    c.canonical = s.verdict == CaseVerdict::valid;
    c.origin = Origin::large;
    auto g = std::make_shared<GeneratedInput>();
    g->size = s.size;
    g->recipe = s.what + ", made by the runner (large.cpp) piece by piece; " + std::to_string(g->size) + " bytes";
    g->open = std::move(s.open);
    g->answer = std::move(s.answer);
    g->answer_limit = s.answer_limit;
    c.generated = std::move(g);
    return c;
}

}  // namespace

std::vector<Case> large_cases(const LargeCaps& caps) {
    const std::uint32_t n = caps.tokens, body = caps.stream_body;
    const std::string tokens = cap_name(n), bytes = cap_name(body);
    std::vector<Case> cases;
    const auto tokens_of = [](std::uint32_t k) { return pieces_of([k] { return token_document(k); }); };
    const auto content_of = [](std::uint32_t k) { return [k] { return token_content_pieces(k); }; };
    const std::string content = "content JSON (compact) of " + tokens + " one-unit tokens over a text of " + tokens + " x \"a\", nothing else set";
    // The answer: 2^25 tokens as content JSON (4.1 GB compact); twice that leaves room for blanks.
    cases.push_back(large_case({"large/tokens-at-cap", CaseKind::decode, {"R17"},
                                "an ONDC of exactly " + tokens + " one-unit tokens, nothing else set (canonical)", tokens_of(n),
                                token_document_bytes(n), "", CaseVerdict::valid, [n] { return expect_token_content(n, false); },
                                2 * token_content_bytes(n) + (1u << 20)}));
    cases.push_back(large_case({"large/tokens-cap-plus-one", CaseKind::decode, {"R17"}, "an ONDC of " + tokens + " + 1 tokens",
                                tokens_of(n + 1), token_document_bytes(n + 1), "tokens.count-too-large"}));
    // The answer: the canonical bytes (344 MB), compared as they arrive; bytes that differ are
    // kept up to the answer's limit and judged like any writer's (large_encode.hpp).
    const std::uint64_t bytes_limit = 2 * token_document_bytes(n) + (1u << 20);
    cases.push_back(large_case({"large/encode-tokens-at-cap", CaseKind::encode, {"R17"}, content + " (must be written canonically)",
                                content_of(n), token_content_bytes(n), "", CaseVerdict::valid,
                                [n, bytes_limit] { return expect_token_bytes(n, {"R17"}, bytes_limit); }, bytes_limit}));
    cases.push_back(large_case({"large/encode-tokens-cap-plus-one", CaseKind::encode, {"R17"},
                                "content JSON (compact) of " + tokens + " + 1 one-unit tokens, nothing else set", content_of(n + 1),
                                token_content_bytes(n + 1), "content.too-large"}));
    // A body of exactly the u32's 2^32 - 1 bytes, filled by two category labels (a string is at
    // most 2^31 - 1 bytes): 4.3 GB of content JSON, more than a persistent frame holds. The answer
    // is the canonical bytes; bytes that differ are kept in a file of the runner's (large_encode.hpp).
    const CategoryLabels filling = labels_filling_body(caps.body), past = labels_filling_body(caps.body + 1);
    const std::string body_cap = caps.body == 0xFFFFFFFFu ? "2^32 - 1" : cap_name(caps.body);
    const auto labels_what = [](CategoryLabels l) {
        return "content JSON (compact) of two categories, labels 'a' x " + std::to_string(l.first) + " and 'b' x " + std::to_string(l.second) +
               ", nothing else set";
    };
    const std::uint64_t container_limit = category_document_bytes(filling) + 4;  // with a trailer, the most any container holds
    cases.push_back(large_case({"large/encode-body-at-cap", CaseKind::encode, {"R6", "R5"},
                                labels_what(filling) + ": a body of exactly " + body_cap + " bytes (must be written canonically)",
                                [filling] { return category_content_pieces(filling); }, category_content_bytes(filling), "",
                                CaseVerdict::valid, [filling, container_limit] { return expect_category_bytes(filling, {"R6", "R5"}, container_limit); },
                                container_limit}));
    cases.push_back(large_case({"large/encode-body-cap-plus-one", CaseKind::encode, {"R6", "R5"},
                                labels_what(past) + ": a body of " + body_cap + " + 1 bytes",
                                [past] { return category_content_pieces(past); }, category_content_bytes(past), "content.too-large"}));
    cases.push_back(large_case({"large/stream-body-at-cap", CaseKind::stream, {"R26", "R9"},
                                "a stream whose container declares and delivers exactly " + bytes +
                                    " body bytes (an empty document and an unknown section of zeros)",
                                pieces_of([body] { return stream_of_body(body); }), 12ull + body, "", CaseVerdict::noncanonical,
                                [] { return expect_token_content(0, true); }, 1u << 20}));
    cases.push_back(large_case({"large/stream-body-cap-plus-one", CaseKind::stream, {"R26"},
                                "a stream whose container declares and delivers " + bytes + " + 1 body bytes",
                                pieces_of([body] { return over_the_cap(body + 1); }), 12ull + body + 1, "stream.length-too-large"}));
    return cases;
}

PieceReader token_document_pieces(std::uint32_t n) { return pieces_of([n] { return token_document(n); })(); }

std::uint64_t token_document_bytes(std::uint32_t n) { return token_document(n).size(); }

PieceReader token_content_pieces(std::uint32_t n) {
    auto pieces = std::make_shared<TokenContentPieces>(n);
    return [pieces] { return pieces->next(); };
}

std::uint64_t token_content_bytes(std::uint32_t n) {
    const std::string token = R"({"start":,"length":1,"norm":"","lemma":"","pos":"","tag":"","dep":"","morph":"","head":,"sent":0,"conf":1})";
    const std::string around = R"({"format":"ONDC","crc":false,"doc":{"text":"","tokens":[],"ents":null,"cats":null,"spans":[]}})";
    std::uint64_t bytes = around.size() + n + static_cast<std::uint64_t>(n) * (token.size() + 1) - (n ? 1 : 0);
    // start and head are both the token's index: the indexes [lo, hi) have `digits` digits.
    for (std::uint64_t lo = 0, hi = 10, digits = 1; lo < n; lo = hi, hi *= 10, ++digits)
        bytes += 2 * digits * (std::min<std::uint64_t>(n, hi) - lo);
    return bytes;
}

CategoryLabels labels_filling_body(std::uint64_t body) {
    constexpr std::uint64_t most = 0x7FFFFFFFu;  // a string's bytes: (bytes << 1 | flag) is a u32 varint
    if (body < category_fixed_bytes + 4 || body > (std::uint64_t{1} << 32))
        throw std::invalid_argument("no two labels fill a body of " + std::to_string(body) + " bytes");
    const std::uint64_t rest = body - category_fixed_bytes;  // both labels with their headers
    for (std::uint64_t first = std::min(most, rest - rest / 4); first >= 1; --first) {
        if (varint_size(2 * first) + first >= rest) continue;
        const std::uint64_t left = rest - varint_size(2 * first) - first;  // the second's header and bytes
        for (std::size_t w = 1; w <= 5 && w < left; ++w)
            if (left - w <= most && varint_size(2 * (left - w)) == w)
                return {static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(left - w)};
    }
    throw std::invalid_argument("no two labels fill a body of " + std::to_string(body) + " bytes");
}

PieceReader category_document_pieces(CategoryLabels labels) { return pieces_of([labels] { return category_document(labels); })(); }

std::uint64_t category_document_bytes(CategoryLabels labels) { return 12 + category_table_bytes(labels) + category_fixed_bytes - 1; }

std::vector<std::uint64_t> category_document_lengths(CategoryLabels labels) {
    const std::uint64_t text = 12 + 5 + category_table_bytes(labels);  // where section 2 begins
    return {8, 13, text + 1, text + 7, text + 14};
}

PieceReader category_content_pieces(CategoryLabels labels) { return pieces_of([labels] { return category_content(labels); })(); }

std::uint64_t category_content_bytes(CategoryLabels labels) { return category_content(labels).size(); }

std::chrono::milliseconds large_timeout(std::chrono::milliseconds run_timeout) {
    return std::max(run_timeout, std::chrono::milliseconds(300000));
}

}  // namespace ond::conformance
